//! Guideline scoring with levels, for the solo modes (Blitz shows it; Sprint and Zen keep it).
//!
//! Points per lock, times the level the lock was made at (the level before its lines count):
//!
//! | clear | points | | T-spin clear | points |
//! |---|---|---|---|---|
//! | single | 100 | | T-spin (no lines) | 400 |
//! | double | 300 | | T-spin single | 800 |
//! | triple | 500 | | T-spin double | 1200 |
//! | quad | 800 | | T-spin triple | 1600 |
//! | mini (no lines) | 100 | | mini single / double | 200 / 400 |
//!
//! Back-to-back difficult clears (the core's [`crate::AttackResult::b2b_bonus`]) score ×3/2, a
//! combo adds 50 × combo × level, a perfect clear adds 800 / 1200 / 1800 / 2000 × level for 1–4
//! lines (3200 for a back-to-back quad), and drops score without the level: 1 a row of soft drop,
//! 2 a row of hard drop. The level starts at 1 and rises every [`LINES_PER_LEVEL`] lines up to
//! [`MAX_LEVEL`]; [`gravity_for_level`] is the guideline's gravity curve in the core's fixed point.

use crate::attack::Spin;
use crate::player::PlayerEvents;
use crate::rules::MAX_GRAVITY;

/// Lines that raise the level by one (the guideline's fixed goal).
pub const LINES_PER_LEVEL: u32 = 10;
/// The highest level.
pub const MAX_LEVEL: u32 = 20;

/// The guideline gravity curve, `(0.8 − (level − 1) × 0.007)^(level − 1)` seconds a row, as
/// 1/65536 cells a frame rounded up and capped at 20G: integer constants, computed once offline,
/// so the core stays float-free.
const GRAVITY_BY_LEVEL: [u32; MAX_LEVEL as usize] = [
    1093, 1378, 1769, 2311, 3076, 4169, 5759, 8107, 11635, 17027, 25416, 38709, 60169, 95484,
    154743, 256187, 433425, 749597, 1310720, 1310720,
];

/// Gravity (1/65536 cells a frame) at `level` (1-based; out-of-range levels are clamped).
pub fn gravity_for_level(level: u32) -> u32 {
    let i = level.clamp(1, MAX_LEVEL) as usize - 1;
    GRAVITY_BY_LEVEL[i].min(MAX_GRAVITY)
}

/// A running guideline score.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Score {
    /// Points so far.
    pub points: u64,
    /// Lines cleared so far (they set the level).
    pub lines: u32,
}

impl Score {
    /// The current level, 1..=[`MAX_LEVEL`].
    pub fn level(&self) -> u32 {
        (1 + self.lines / LINES_PER_LEVEL).min(MAX_LEVEL)
    }

    /// Adds what one frame's events on a board are worth; returns the points added.
    pub fn add(&mut self, events: &PlayerEvents) -> u64 {
        let mut points = u64::from(events.soft_drop_rows) + 2 * u64::from(events.hard_drop_rows);
        if let Some(lock) = events.locked {
            let level = u64::from(self.level());
            let clear = lock.clear;
            let base: u64 = match (clear.spin, clear.lines) {
                (Spin::None, 0) => 0,
                (Spin::None, 1) => 100,
                (Spin::None, 2) => 300,
                (Spin::None, 3) => 500,
                (Spin::None, _) => 800,
                (Spin::Mini, 0) => 100,
                (Spin::Mini, 1) => 200,
                (Spin::Mini, _) => 400,
                (Spin::Full, 0) => 400,
                (Spin::Full, 1) => 800,
                (Spin::Full, 2) => 1200,
                (Spin::Full, _) => 1600,
            };
            let base = if lock.attack.b2b_bonus {
                base * 3 / 2
            } else {
                base
            };
            let combo = u64::from(lock.attack.combo.unwrap_or(0)) * 50;
            let perfect = match (clear.perfect, clear.lines) {
                (false, _) | (true, 0) => 0,
                (true, 1) => 800,
                (true, 2) => 1200,
                (true, 3) => 1800,
                (true, _) if lock.attack.b2b_bonus => 3200,
                (true, _) => 2000,
            };
            points += (base + combo + perfect) * level;
            self.lines += u32::from(clear.lines);
        }
        self.points += points;
        points
    }
}
