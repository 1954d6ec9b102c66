//! Room rules, per-player handling, and the match header that carries both to every simulator.

use serde::{Deserialize, Serialize};

use crate::bag::Randomizer;

/// One cell of fall, in gravity units (gravity is in 1/65536 cell per frame).
pub const CELL: u32 = 1 << 16;
/// Frames per second of the simulation.
pub const FPS: u32 = 60;

/// The options a room chooses; every simulator of a match must use the same values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Rules {
    /// How the piece sequence is generated.
    pub randomizer: Randomizer,
    /// Whether the rotate-180 key works.
    pub allow_180: bool,
    /// Base gravity in 1/65536 cell per frame.
    pub gravity: u32,
    /// Frames of play in a round before gravity starts rising.
    pub gravity_rise_after: u32,
    /// Gravity added every second once it rises, in 1/65536 cell per frame.
    pub gravity_rise_per_second: u32,
    /// Frames a grounded piece waits before it locks.
    pub lock_delay: u16,
    /// Moves or rotations on the ground that restart the lock delay, per piece.
    pub max_lock_resets: u8,
    /// Frames between an attack being sent and its garbage becoming able to rise.
    pub garbage_travel: u16,
    /// Most garbage lines that rise after one piece locks.
    pub garbage_cap: u8,
    /// Percent chance (0..=100) that each garbage line after an attack's first moves its hole.
    pub messiness: u8,
    /// Whether a piece locking wholly above the visible field loses the round.
    pub lock_out: bool,
    /// Round wins needed to win the match.
    pub first_to: u8,
    /// Frames of "3, 2, 1" before each round's first piece.
    pub countdown_frames: u16,
    /// Frames between a round's end and the next round's countdown.
    pub round_break_frames: u16,
}

/// The shortest garbage travel time a room may set: the default netplay prediction window, so a
/// rollback never rewrites what already happened on the receiver's own board.
pub const MIN_GARBAGE_TRAVEL: u16 = 12;
/// Gravity never exceeds 20 cells per frame (20G).
pub const MAX_GRAVITY: u32 = 20 * CELL;

/// Named rule sets a room can start from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Preset {
    /// Modern versus: 7-bag, 180° on, 20-frame garbage travel, cap 8, clean garbage.
    #[default]
    Versus,
    /// Older feel: classic random, no 180°, cap 4.
    Classic,
    /// Messy garbage (every line re-rolls its hole) and a higher cap.
    Chaos,
}

impl Preset {
    /// Every preset, for listings.
    pub const ALL: [Preset; 3] = [Preset::Versus, Preset::Classic, Preset::Chaos];

    /// The preset's name as typed by users.
    pub const fn name(self) -> &'static str {
        match self {
            Preset::Versus => "versus",
            Preset::Classic => "classic",
            Preset::Chaos => "chaos",
        }
    }

    /// The preset called `name`.
    pub fn from_name(name: &str) -> Option<Preset> {
        Self::ALL.into_iter().find(|p| p.name() == name)
    }

    /// The rules of this preset.
    pub const fn rules(self) -> Rules {
        let versus = Rules::versus();
        match self {
            Preset::Versus => versus,
            Preset::Classic => Rules {
                randomizer: Randomizer::Classic,
                allow_180: false,
                garbage_cap: 4,
                ..versus
            },
            Preset::Chaos => Rules {
                messiness: 100,
                garbage_cap: 12,
                ..versus
            },
        }
    }
}

impl Default for Rules {
    fn default() -> Self {
        Rules::versus()
    }
}

impl Rules {
    /// The default versus rules (SPEC §3–5).
    pub const fn versus() -> Rules {
        Rules {
            randomizer: Randomizer::SevenBag,
            allow_180: true,
            // Rounded up so a piece falls exactly one row every 60 frames (1092 would take 61).
            gravity: CELL.div_ceil(60),
            gravity_rise_after: 120 * FPS,
            gravity_rise_per_second: CELL / 600,
            lock_delay: 30,
            max_lock_resets: 15,
            garbage_travel: 20,
            garbage_cap: 8,
            messiness: 0,
            lock_out: false,
            first_to: 3,
            countdown_frames: 3 * FPS as u16,
            round_break_frames: 3 * FPS as u16,
        }
    }

    /// Checks that every option is in its allowed range.
    pub fn validate(&self) -> Result<(), RulesError> {
        if self.gravity > MAX_GRAVITY {
            return Err(RulesError::Gravity(self.gravity));
        }
        if self.garbage_travel < MIN_GARBAGE_TRAVEL {
            return Err(RulesError::GarbageTravel(self.garbage_travel));
        }
        if self.messiness > 100 {
            return Err(RulesError::Messiness(self.messiness));
        }
        if self.first_to == 0 || self.first_to > 99 {
            return Err(RulesError::FirstTo(self.first_to));
        }
        if self.lock_delay == 0 {
            return Err(RulesError::LockDelay);
        }
        if self.garbage_cap == 0 || self.garbage_cap > 40 {
            return Err(RulesError::GarbageCap(self.garbage_cap));
        }
        Ok(())
    }

    /// Gravity after `frames` frames of play in a round.
    pub fn gravity_at(&self, frames: u32) -> u32 {
        let seconds = frames.saturating_sub(self.gravity_rise_after) / FPS;
        self.gravity
            .saturating_add(seconds.saturating_mul(self.gravity_rise_per_second))
            .min(MAX_GRAVITY)
    }
}

/// A rules option outside its allowed range.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// Gravity above 20G.
    #[error("gravity {0} is above 20G ({MAX_GRAVITY})")]
    Gravity(u32),
    /// Garbage travel shorter than the prediction window.
    #[error("garbage travel {0} frames is below the minimum of {MIN_GARBAGE_TRAVEL}")]
    GarbageTravel(u16),
    /// Messiness over 100 percent.
    #[error("messiness {0} is not a percentage (0..=100)")]
    Messiness(u8),
    /// First-to outside 1..=99.
    #[error("first-to {0} must be between 1 and 99")]
    FirstTo(u8),
    /// Lock delay of zero.
    #[error("lock delay must be at least one frame")]
    LockDelay,
    /// Garbage cap outside 1..=40.
    #[error("garbage cap {0} must be between 1 and 40")]
    GarbageCap(u8),
}

/// A player's key handling; it travels in the match header so every simulator agrees.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Handling {
    /// Delayed auto shift: frames a direction is held before it repeats.
    pub das: u8,
    /// Auto repeat rate: frames between repeats once charged; 0 moves to the wall at once.
    pub arr: u8,
    /// DAS cut delay: frames auto-shift waits after a rotation, hold or new piece.
    pub dcd: u8,
    /// Soft drop factor: gravity multiplier while soft dropping; 0 drops to the floor at once.
    pub sdf: u8,
    /// Initial rotation: a rotate key held when a piece spawns rotates it at once.
    pub irs: bool,
    /// Initial hold: the hold key held when a piece spawns holds it at once.
    pub ihs: bool,
}

impl Default for Handling {
    fn default() -> Self {
        Handling {
            das: 10,
            arr: 2,
            dcd: 0,
            sdf: 20,
            irs: true,
            ihs: true,
        }
    }
}

impl Handling {
    /// Checks the values are within what the UI offers (DAS ≤ 60, ARR ≤ 30, DCD ≤ 30, SDF ≤ 60).
    pub fn validate(&self) -> Result<(), HandlingError> {
        if self.das > 60 || self.arr > 30 || self.dcd > 30 || self.sdf > 60 {
            return Err(HandlingError(*self));
        }
        Ok(())
    }
}

/// Handling values out of range.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("handling out of range (DAS ≤ 60, ARR ≤ 30, DCD ≤ 30, SDF ≤ 60): {0:?}")]
pub struct HandlingError(pub Handling);

/// Everything a simulator needs to agree on a match: rules, seed and both players' handling.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MatchHeader {
    /// The room's rules.
    pub rules: Rules,
    /// The match seed; every random stream derives from it.
    pub seed: u64,
    /// Handling of seat 0 and seat 1.
    pub handling: [Handling; 2],
}

impl MatchHeader {
    /// Versus rules and default handling for both players.
    pub fn versus(seed: u64) -> MatchHeader {
        MatchHeader {
            rules: Rules::versus(),
            seed,
            handling: [Handling::default(); 2],
        }
    }

    /// Checks rules and both handlings.
    pub fn validate(&self) -> Result<(), HeaderError> {
        self.rules.validate()?;
        for h in &self.handling {
            h.validate()?;
        }
        Ok(())
    }
}

/// Why a match header was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HeaderError {
    /// A rules option is out of range.
    #[error(transparent)]
    Rules(#[from] RulesError),
    /// A handling value is out of range.
    #[error(transparent)]
    Handling(#[from] HandlingError),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_are_valid() {
        for p in Preset::ALL {
            assert_eq!(p.rules().validate(), Ok(()), "{p:?}");
            assert_eq!(Preset::from_name(p.name()), Some(p));
        }
    }

    #[test]
    fn gravity_rises_after_two_minutes() {
        let r = Rules::versus();
        assert_eq!(r.gravity_at(0), CELL.div_ceil(60));
        assert_eq!(r.gravity_at(120 * 60 + 59), CELL.div_ceil(60));
        assert_eq!(r.gravity_at(121 * 60), CELL.div_ceil(60) + CELL / 600);
        assert_eq!(r.gravity_at(u32::MAX), MAX_GRAVITY);
    }

    #[test]
    fn travel_below_the_prediction_window_is_refused() {
        let r = Rules {
            garbage_travel: 5,
            ..Rules::versus()
        };
        assert_eq!(r.validate(), Err(RulesError::GarbageTravel(5)));
    }
}
