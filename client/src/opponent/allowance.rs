//! The page's thinking allowance per rendered frame, shared by every bot planning in slices
//! ([`super::Planning::Sliced`]): a browser page has no threads, so the bot thinks inside the
//! frame, and what it may take is what the frame has left. After each frame the loop reports
//! how long the frame's work took ([`frame_done`]); the next frame's allowance is the target
//! frame work less what the frame needed besides thinking, between [`MIN`] and the bot's own
//! share. So on a slow device (a phone, or Chromium's CPU throttling) the bot thinks less per
//! frame and over more frames, instead of the frames slowing down; several simulation steps
//! in one frame (catching up) share one allowance.

use std::cell::Cell;
use std::time::Duration;

/// The frame work aimed at: a 60 frames/s frame (16.7 ms) less the browser's own drawing.
pub const TARGET: Duration = Duration::from_millis(10);
/// The least a frame's allowance is, so a plan always moves on.
pub const MIN: Duration = Duration::from_micros(1500);

/// This frame's allowance and what has been spent of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Allowance {
    /// What this frame may spend thinking.
    pub limit: Duration,
    /// What it has spent.
    pub spent: Duration,
}

impl Default for Allowance {
    fn default() -> Self {
        Allowance {
            limit: TARGET,
            spent: Duration::ZERO,
        }
    }
}

impl Allowance {
    /// What is left of this frame's allowance, at most `share`.
    pub fn left(&self, share: Duration) -> Duration {
        self.limit.min(share).saturating_sub(self.spent)
    }

    /// Whether this frame has thought and has nothing left (so it thinks no more).
    pub fn exhausted(&self, share: Duration) -> bool {
        !self.spent.is_zero() && self.left(share).is_zero()
    }

    /// The next frame's allowance after a frame whose work took `work`.
    pub fn next(&self, work: Duration) -> Allowance {
        let other = work.saturating_sub(self.spent);
        Allowance {
            limit: TARGET.saturating_sub(other).max(MIN),
            spent: Duration::ZERO,
        }
    }
}

thread_local! {
    static NOW: Cell<Allowance> = Cell::new(Allowance::default());
}

/// What is left of this frame's allowance for a bot whose own share is `share`.
pub fn left(share: Duration) -> Duration {
    NOW.with(|a| a.get().left(share))
}

/// Whether this frame has thought all it may (see [`Allowance::exhausted`]).
pub fn exhausted(share: Duration) -> bool {
    NOW.with(|a| a.get().exhausted(share))
}

/// Counts `took` as spent this frame.
pub fn spend(took: Duration) {
    NOW.with(|a| {
        let mut now = a.get();
        now.spent += took;
        a.set(now);
    });
}

/// The frame's work took `work`: sets the next frame's allowance.
pub fn frame_done(work: Duration) {
    NOW.with(|a| a.set(a.get().next(work)));
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Duration = Duration::from_millis(1);

    #[test]
    fn a_frame_with_room_gives_the_bot_its_whole_share() {
        let a = Allowance::default().next(2 * MS);
        assert_eq!(a.left(4 * MS), 4 * MS);
    }

    #[test]
    fn a_busy_frame_leaves_less_and_never_less_than_the_minimum() {
        let a = Allowance {
            spent: 4 * MS,
            ..Allowance::default()
        };
        // 12 ms of work, 4 of them thinking: 8 ms besides, so 2 ms are left next frame.
        let next = a.next(12 * MS);
        assert_eq!(next.left(4 * MS), 2 * MS);
        // Far over the target: the minimum still moves the plan on.
        assert_eq!(Allowance::default().next(40 * MS).left(4 * MS), MIN);
    }

    #[test]
    fn steps_of_one_frame_share_its_allowance() {
        let mut a = Allowance {
            spent: 3 * MS,
            ..Allowance::default()
        };
        assert_eq!(a.left(4 * MS), MS);
        a.spent = 5 * MS;
        assert_eq!(a.left(4 * MS), Duration::ZERO);
        assert!(a.exhausted(4 * MS));
        // A share of nothing still thinks one slice a frame.
        assert!(!Allowance::default().exhausted(Duration::ZERO));
    }
}
