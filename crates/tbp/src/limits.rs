//! How long a bot may think about a piece and how fast it may play, and the wall-clock time
//! each side of a match took to think.

use std::time::Duration;

/// How long the bot may think, and how fast it may play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TbpLimits {
    /// Wall-clock thinking time before the first `suggest` of each piece. In a fair match it is
    /// every side's allowance a piece: thinking beyond it costs the seat game time
    /// ([`TbpLimits::late_frames`]).
    pub think: Duration,
    /// Longest wait for a non-empty suggestion after that; past it the bot has failed.
    pub move_limit: Duration,
    /// Pieces-per-second cap ×100 in game time (`None`: as fast as the inputs allow).
    pub pps_cap_x100: Option<u32>,
}

impl TbpLimits {
    /// Frames (at 60 a second) a seat idles for a thought that took `took` of wall-clock time:
    /// the whole frames that went past the allowance. A person's game would have run on
    /// meanwhile; in a simulated match the clock stands still while a bot thinks, so the
    /// overrun is charged instead. Those frames count towards the speed cap like any wait. Less
    /// than a frame is free: asking a TBP bot after the allowance and reading its answer always
    /// takes a little longer than the allowance itself.
    pub fn late_frames(&self, took: Duration) -> u32 {
        let over = took.saturating_sub(self.think).as_micros();
        u32::try_from(over.saturating_mul(60) / 1_000_000).unwrap_or(u32::MAX)
    }
}

/// The wall-clock time a side spent thinking, piece by piece.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ThinkTimes {
    /// Pieces thought about.
    pub pieces: u64,
    /// Wall-clock time from asking to the answer, all pieces together.
    pub total: Duration,
    /// The longest one.
    pub max: Duration,
    /// Pieces whose thinking went a frame or more past the allowance.
    pub late: u64,
    /// Frames idled for them.
    pub late_frames: u64,
}

impl ThinkTimes {
    /// Counts one piece that took `took` and was charged `late_frames`.
    pub fn record(&mut self, took: Duration, late_frames: u32) {
        self.pieces += 1;
        self.total += took;
        self.max = self.max.max(took);
        self.late += u64::from(late_frames > 0);
        self.late_frames += u64::from(late_frames);
    }

    /// Adds another record (of another game).
    pub fn add(&mut self, other: &ThinkTimes) {
        self.pieces += other.pieces;
        self.total += other.total;
        self.max = self.max.max(other.max);
        self.late += other.late;
        self.late_frames += other.late_frames;
    }

    /// Mean wall-clock time a piece.
    pub fn mean(&self) -> Duration {
        self.total
            .checked_div(u32::try_from(self.pieces.max(1)).unwrap_or(u32::MAX))
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(think_ms: u64) -> TbpLimits {
        TbpLimits {
            think: Duration::from_millis(think_ms),
            move_limit: Duration::from_secs(5),
            pps_cap_x100: Some(400),
        }
    }

    #[test]
    fn thinking_within_the_allowance_costs_no_frames() {
        assert_eq!(limits(200).late_frames(Duration::from_millis(200)), 0);
        assert_eq!(limits(200).late_frames(Duration::from_millis(3)), 0);
    }

    #[test]
    fn an_overrun_costs_its_whole_frames() {
        // Under a frame (16.7 ms) over is free; 17 ms is a frame, 50 ms three.
        assert_eq!(limits(200).late_frames(Duration::from_millis(216)), 0);
        assert_eq!(limits(200).late_frames(Duration::from_millis(217)), 1);
        assert_eq!(limits(200).late_frames(Duration::from_millis(250)), 3);
        assert_eq!(limits(0).late_frames(Duration::from_secs(1)), 60);
    }

    #[test]
    fn think_times_keep_the_mean_the_maximum_and_the_late_pieces() {
        let mut t = ThinkTimes::default();
        t.record(Duration::from_millis(10), 0);
        t.record(Duration::from_millis(30), 2);
        assert_eq!(t.mean(), Duration::from_millis(20));
        assert_eq!(t.max, Duration::from_millis(30));
        assert_eq!((t.late, t.late_frames), (1, 2));
    }
}
