//! Re-estimating a player's input delay and prediction window as a match runs, from the round
//! trip and the stalls: one rule for every session kind (the two-seat [`MatchDriver`] and the
//! general room's controllers), so a two-seat match keeps the same delay whichever room plays
//! it.
//!
//! Every [`RETUNE_FRAMES`] frames the link is read again: the window widens to what the round
//! trip needs (never narrows), and the delay moves one frame at a time, up when the link needs
//! more or the session stalled since the last look, down only after [`CALM_BEFORE_LOWERING`]
//! looks in a row found it higher than needed (so a brief calm does not bring the stalls back
//! a moment later).
//!
//! [`MatchDriver`]: crate::MatchDriver

use std::time::Duration;

use crate::session::{MAX_INPUT_DELAY, SessionOptions};

/// Frames between input-delay re-estimates during a match.
pub const RETUNE_FRAMES: u32 = 60;
/// Re-estimates in a row that must find the delay too high before it is lowered.
pub const CALM_BEFORE_LOWERING: u32 = 5;

/// What a session is told at a re-estimate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Retune {
    /// The window the link needs (a session only ever widens to it).
    pub window: u32,
    /// The input delay from now on.
    pub input_delay: u32,
}

/// The link as a re-estimate reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LinkReading {
    /// The round trip the delay is picked for.
    pub rtt: Option<Duration>,
    /// Its smoothed deviation.
    pub jitter: Option<Duration>,
    /// The match's garbage travel: the widest window allowed.
    pub max_window: u32,
}

/// One player's re-estimates over one match (a new match starts a new tuner).
#[derive(Clone, Debug, Default)]
pub struct DelayTuner {
    /// Stall frames counted at the last re-estimate.
    stalls_at_retune: u64,
    /// Re-estimates in a row that found the delay higher than needed.
    calm_retunes: u32,
}

impl DelayTuner {
    /// At a frame that is a multiple of [`RETUNE_FRAMES`]: the window and delay for `link`,
    /// given the session's `current` options, its `stall_frames` so far, and `base` (the
    /// options it was configured with: the narrowest window and the lowest delay). `None` at
    /// any other frame.
    pub fn retune(
        &mut self,
        frame: u32,
        link: LinkReading,
        base: SessionOptions,
        current: SessionOptions,
        stall_frames: u64,
    ) -> Option<Retune> {
        if !frame.is_multiple_of(RETUNE_FRAMES) {
            return None;
        }
        let wanted =
            SessionOptions::for_link_within(link.rtt, link.jitter, base.window, link.max_window);
        let needed = wanted.input_delay.max(base.input_delay);
        let stalled = stall_frames > self.stalls_at_retune;
        self.stalls_at_retune = stall_frames;
        let delay = current.input_delay;
        self.calm_retunes = if !stalled && needed < delay {
            self.calm_retunes + 1
        } else {
            0
        };
        let input_delay = if (needed > delay || stalled) && delay < MAX_INPUT_DELAY {
            delay + 1
        } else if self.calm_retunes >= CALM_BEFORE_LOWERING {
            self.calm_retunes = 0;
            delay - 1
        } else {
            delay
        };
        Some(Retune {
            window: wanted.window,
            input_delay,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: SessionOptions = SessionOptions {
        window: 8,
        input_delay: 0,
    };

    fn link(ms: u64) -> LinkReading {
        LinkReading {
            rtt: Some(Duration::from_millis(ms)),
            jitter: Some(Duration::ZERO),
            max_window: 20,
        }
    }

    fn with_delay(input_delay: u32) -> SessionOptions {
        SessionOptions {
            window: 8,
            input_delay,
        }
    }

    #[test]
    fn only_every_retune_frames_frame_is_looked_at() {
        let mut t = DelayTuner::default();
        assert!(t.retune(1, link(400), BASE, BASE, 0).is_none());
        assert!(t.retune(RETUNE_FRAMES, link(400), BASE, BASE, 0).is_some());
    }

    #[test]
    fn a_slow_link_raises_the_delay_one_frame_a_look() {
        let mut t = DelayTuner::default();
        let r = t.retune(0, link(400), BASE, with_delay(0), 0).expect("due");
        assert_eq!(r.input_delay, 1);
        let r = t
            .retune(60, link(400), BASE, with_delay(1), 0)
            .expect("due");
        assert_eq!(r.input_delay, 2);
    }

    #[test]
    fn a_stall_raises_the_delay_even_on_a_fast_link() {
        let mut t = DelayTuner::default();
        let r = t.retune(0, link(5), BASE, with_delay(0), 3).expect("due");
        assert_eq!(r.input_delay, 1);
        let r = t.retune(60, link(5), BASE, with_delay(1), 3).expect("due");
        assert_eq!(r.input_delay, 1, "no new stall, not yet calm long enough");
    }

    #[test]
    fn the_delay_comes_down_only_after_calm_looks_in_a_row() {
        let mut t = DelayTuner::default();
        let mut delay = 3;
        for look in 0..CALM_BEFORE_LOWERING {
            let r = t
                .retune(look * RETUNE_FRAMES, link(5), BASE, with_delay(delay), 0)
                .expect("due");
            delay = r.input_delay;
        }
        assert_eq!(
            delay, 2,
            "lowered once, after {CALM_BEFORE_LOWERING} calm looks"
        );
    }
}
