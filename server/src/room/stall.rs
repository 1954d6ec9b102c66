//! The slow-or-silent rule, the same in every room (docs/SERVER.md): a connected player whose
//! confirmation falls more than `max_frames_behind` frames behind the match clock, *and*
//! behind the furthest other seat, is either
//! - silent: no inputs for `max_silence`: gone, and given up; or
//! - slow but sending (a busy machine catching up): warned with `Behind` every
//!   `behind_warning_every`, and given up only past `max_frames_behind_sending`.
//!
//! The others of a lagging player also fall behind the clock (their clients stall at the
//! prediction window) but stay ahead of it. What "given up" means is the room's policy: a
//! forfeit, or the seat played out; the message names it.

use std::time::{Duration, Instant};

use sevenbag_protocol::ErrorCode;

use crate::limits::Limits;

/// Where one seat stands against the match clock.
#[derive(Clone, Copy, Debug)]
pub(super) struct Standing {
    /// The room's match clock, in frames.
    pub(super) clock: u32,
    /// Frames the seat has confirmed.
    pub(super) confirmed: u32,
    /// The most frames any other seat has confirmed.
    pub(super) furthest_other: u32,
    /// Since the seat's last batch of inputs.
    pub(super) quiet: Duration,
    /// When it was last warned, if ever.
    pub(super) warned: Option<Instant>,
}

/// What the rule says of a seat.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Judgement {
    /// Nothing to do.
    Fine,
    /// Warn it (and note the time): `Error { Behind }` with this message.
    Warn(String),
    /// Give the seat up, telling its player this.
    GiveUp(ErrorCode, String),
}

/// Judges one seat at `now`; `outcome` ends the give-up messages ("you forfeit the match",
/// "your seat is played out").
pub(super) fn judge(s: Standing, now: Instant, limits: &Limits, outcome: &str) -> Judgement {
    let behind = s.clock.saturating_sub(s.confirmed);
    if behind <= limits.max_frames_behind || s.confirmed >= s.furthest_other {
        return Judgement::Fine;
    }
    if s.quiet >= limits.max_silence {
        return Judgement::GiveUp(
            ErrorCode::Timeout,
            format!(
                "no inputs from you for {} s while the match went on: {outcome}",
                s.quiet.as_secs()
            ),
        );
    }
    if behind > limits.max_frames_behind_sending {
        return Judgement::GiveUp(
            ErrorCode::Behind,
            format!(
                "your game fell {} s behind the match and could not catch up (is this machine overloaded?): {outcome}",
                behind / 60
            ),
        );
    }
    let due = s
        .warned
        .is_none_or(|at| now.saturating_duration_since(at) >= limits.behind_warning_every);
    if !due {
        return Judgement::Fine;
    }
    Judgement::Warn(format!(
        "your game is running {} s behind the match; it has {} s to catch up. Close other programs or lower the frame rate.",
        behind / 60,
        (limits.max_frames_behind_sending - behind) / 60
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn standing(behind: u32, quiet_s: u64) -> Standing {
        Standing {
            clock: 10_000,
            confirmed: 10_000 - behind,
            furthest_other: 10_000,
            quiet: Duration::from_secs(quiet_s),
            warned: None,
        }
    }

    fn judged(s: Standing) -> Judgement {
        judge(
            s,
            Instant::now(),
            &Limits::default(),
            "you forfeit the match",
        )
    }

    #[test]
    fn a_seat_within_the_allowance_is_fine() {
        let limits = Limits::default();
        assert_eq!(
            judged(standing(limits.max_frames_behind, 60)),
            Judgement::Fine
        );
    }

    #[test]
    fn a_seat_as_far_as_the_others_is_not_the_one_holding_them() {
        let mut s = standing(Limits::default().max_frames_behind + 1, 60);
        s.furthest_other = s.confirmed;
        assert_eq!(judged(s), Judgement::Fine);
    }

    #[test]
    fn a_silent_seat_behind_is_given_up_for_its_silence() {
        let limits = Limits::default();
        let quiet = limits.max_silence.as_secs();
        let Judgement::GiveUp(code, message) =
            judged(standing(limits.max_frames_behind + 1, quiet))
        else {
            panic!("given up");
        };
        assert_eq!(code, ErrorCode::Timeout);
        assert!(message.ends_with("you forfeit the match"), "{message}");
    }

    #[test]
    fn a_slow_seat_still_sending_is_warned_then_given_up_past_the_limit() {
        let limits = Limits::default();
        let warned = judged(standing(limits.max_frames_behind + 1, 0));
        assert!(matches!(warned, Judgement::Warn(_)), "{warned:?}");
        let mut again = standing(limits.max_frames_behind + 1, 0);
        again.warned = Some(Instant::now());
        assert_eq!(judged(again), Judgement::Fine, "not warned twice at once");
        let gone = judged(standing(limits.max_frames_behind_sending + 1, 0));
        assert!(
            matches!(gone, Judgement::GiveUp(ErrorCode::Behind, _)),
            "{gone:?}"
        );
    }
}
