//! How often a seat's inputs are repeated to a player on datagrams. Every downlink could carry
//! each opponent's inputs from what the player acknowledged, but at a long round trip that
//! repeats each input in every datagram for the whole trip (at 240 ms and a datagram every
//! 20 ms, a dozen times), doubling the downlink for nothing a few repeats would not do. A
//! [`Trail`] remembers, per opponent, the stretches of frames sent and how many datagrams
//! carried each: a stretch in [`REPEATS`] datagrams is left out of the next ones (a window
//! starts after it), until the player acknowledges it or [`Trail::resend_after`] passes
//! without that, when everything it lacks is sent again from what it holds.
//!
//! `REPEATS` consecutive datagrams lost (a burst longer than the three the loss goals name) is
//! the only way a stretch goes missing; the player then sees windows starting past what it
//! holds, leaves them out, and the resend after a round trip fills the gap.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// Datagrams that carry a stretch of frames before it is left out.
pub(super) const REPEATS: u8 = 4;

/// The wait for an acknowledgement past the reported round trip before a resend (the
/// player's acknowledgement waits up to 32 ms, and its datagrams go every 20 ms or so).
const ACK_SLACK: Duration = Duration::from_millis(60);

/// The round trip assumed when the player reported none.
const UNKNOWN_RTT: Duration = Duration::from_millis(250);

/// Frames up to `through` (from the previous stretch's end) sent to a player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Stretch {
    through: u32,
    sends: u8,
    first: Instant,
}

/// One opponent's inputs as sent to one player on datagrams.
#[derive(Clone, Debug, Default)]
pub(super) struct Trail {
    stretches: VecDeque<Stretch>,
}

impl Trail {
    /// How long an unacknowledged stretch waits before a resend, for a round trip of `rtt_ms`
    /// (0: unknown).
    pub(super) fn resend_after(rtt_ms: u16) -> Duration {
        let rtt = match rtt_ms {
            0 => UNKNOWN_RTT,
            ms => Duration::from_millis(u64::from(ms)),
        };
        rtt + ACK_SLACK
    }

    /// Where the next window of this opponent starts, for a player holding `held` frames of
    /// it, when the opponent has `confirmed`; counts the send of `from..confirmed`.
    pub(super) fn next_from(
        &mut self,
        held: u32,
        confirmed: u32,
        now: Instant,
        resend_after: Duration,
    ) -> u32 {
        while self.stretches.front().is_some_and(|s| s.through <= held) {
            self.stretches.pop_front();
        }
        let sent = self.stretches.back().map_or(held, |s| s.through);
        if confirmed > sent {
            self.stretches.push_back(Stretch {
                through: confirmed,
                sends: 0,
                first: now,
            });
        }
        if self
            .stretches
            .front()
            .is_some_and(|s| now.saturating_duration_since(s.first) >= resend_after)
        {
            // Unacknowledged for a round trip and more: lost, or its acknowledgements were.
            for s in &mut self.stretches {
                s.sends = 0;
                s.first = now;
            }
        }
        let mut from = held;
        for s in &mut self.stretches {
            if s.sends >= REPEATS {
                from = s.through;
            } else {
                s.sends += 1;
            }
        }
        from.min(confirmed)
    }

    /// A new match: nothing sent.
    pub(super) fn clear(&mut self) {
        self.stretches.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WAIT: Duration = Duration::from_millis(300);

    #[test]
    fn new_inputs_go_in_four_datagrams_then_are_left_out() {
        let (mut trail, t0) = (Trail::default(), Instant::now());
        for _ in 0..REPEATS {
            assert_eq!(trail.next_from(10, 20, t0, WAIT), 10);
        }
        assert_eq!(trail.next_from(10, 20, t0, WAIT), 20);
        assert_eq!(trail.next_from(10, 24, t0, WAIT), 20);
    }

    #[test]
    fn an_acknowledgement_moves_the_start_to_what_the_player_holds() {
        let (mut trail, t0) = (Trail::default(), Instant::now());
        trail.next_from(10, 20, t0, WAIT);
        trail.next_from(10, 24, t0, WAIT);
        assert_eq!(trail.next_from(20, 28, t0, WAIT), 20);
        assert_eq!(trail.next_from(30, 30, t0, WAIT), 30);
    }

    #[test]
    fn without_an_acknowledgement_for_a_round_trip_everything_goes_again() {
        let (mut trail, t0) = (Trail::default(), Instant::now());
        for _ in 0..REPEATS + 2 {
            trail.next_from(10, 20, t0, WAIT);
        }
        assert_eq!(trail.next_from(10, 22, t0 + WAIT, WAIT), 10);
    }

    #[test]
    fn resend_waits_a_round_trip_and_some() {
        assert_eq!(Trail::resend_after(240), Duration::from_millis(300));
        assert_eq!(Trail::resend_after(0), Duration::from_millis(310));
    }
}
