//! What a player's frames leave behind: the counters of a round, what happened this frame, and
//! why a round was lost.

use crate::attack::{AttackResult, Clear};
use crate::piece::{Piece, PieceKind};

/// Why a player lost the round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum TopOut {
    /// A new piece overlapped the stack where it spawns.
    BlockOut,
    /// A piece locked wholly above the visible field (only when the rule is on).
    LockOut,
    /// Rising garbage pushed a block above the top row.
    GarbageOut,
}

/// Counters kept for the stats panel; rates are derived, in hundredths, with integer maths.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Stats {
    /// Pieces locked.
    pub pieces: u32,
    /// Lines cleared.
    pub lines: u32,
    /// Lines of attack produced (before cancelling).
    pub attack: u32,
    /// Lines of attack that reached the opponent after cancelling.
    pub sent: u32,
    /// Garbage lines that rose on this board.
    pub garbage_received: u32,
    /// Garbage lines this player cleared.
    pub garbage_cleared: u32,
    /// Frames of play this round.
    pub frames: u32,
    /// Highest combo count reached.
    pub max_combo: u8,
    /// T-spin clears (minis included).
    pub t_spins: u32,
    /// Four-line clears.
    pub quads: u32,
    /// Perfect clears.
    pub perfect_clears: u32,
}

impl Stats {
    fn per_second_x100(&self, count: u32, scale: u64) -> u32 {
        if self.frames == 0 {
            return 0;
        }
        (u64::from(count) * scale * 100 * 60 / u64::from(self.frames)) as u32
    }

    /// Pieces per second, ×100.
    pub fn pps_x100(&self) -> u32 {
        self.per_second_x100(self.pieces, 1)
    }

    /// Attack per minute, ×100.
    pub fn apm_x100(&self) -> u32 {
        self.per_second_x100(self.attack, 60)
    }

    /// TETR.IO's VS score, ×100: (attack + garbage cleared) × 100 per second.
    pub fn vs_x100(&self) -> u32 {
        self.per_second_x100(self.attack + self.garbage_cleared, 100)
    }
}

/// A lock and what it did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LockEvent {
    /// The piece where it locked.
    pub piece: Piece,
    /// What it cleared.
    pub clear: Clear,
    /// Attack produced, with bonuses.
    pub attack: AttackResult,
    /// Lines of that attack that cancelled incoming garbage.
    pub cancelled: u16,
    /// Lines sent on to the opponent.
    pub sent: u16,
    /// Back-to-back count after the lock.
    pub b2b: u16,
}

/// What happened on one board during the last frame, for sounds and effects.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PlayerEvents {
    /// A piece of this kind spawned.
    pub spawned: Option<PieceKind>,
    /// The hold key swapped pieces.
    pub held: bool,
    /// The piece moved sideways.
    pub moved: bool,
    /// The piece rotated.
    pub rotated: bool,
    /// The piece was hard dropped.
    pub hard_dropped: bool,
    /// Rows the piece fell this frame because soft drop was held (guideline scoring counts them).
    pub soft_drop_rows: u8,
    /// Rows the hard drop moved the piece down.
    pub hard_drop_rows: u8,
    /// The piece locked.
    pub locked: Option<LockEvent>,
    /// Garbage lines that rose.
    pub garbage_risen: u8,
    /// The player lost the round.
    pub topped_out: Option<TopOut>,
}
