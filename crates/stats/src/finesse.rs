//! Finesse faults: presses a player used beyond the fewest that put the same piece in the same
//! cells.
//!
//! **What a press is.** A new key-down (the key is held this frame and was not the frame
//! before) of left, right, soft drop, rotate clockwise, counter-clockwise or 180°. Holding a
//! direction is one press however far DAS and ARR carry it, so a move to the wall costs one
//! press. Hard drop (every piece ends with one, or with the lock delay) and hold are not
//! counted.
//!
//! **The fewest presses.** A breadth-first search from the piece's spawn position (one row lower
//! if it can fall, as the core spawns it) on the board as it was when the piece came into play,
//! with gravity off, over one-press moves: a tap left or right, a slide to the wall either way,
//! a rotation each way (the core's SRS kicks), a 180° rotation when the room allows it, and a
//! soft drop to the floor. A state is a placement when its hard drop fills the cells the piece
//! locked in (a rotation state with the same cells is the same placement; the spin is not
//! compared). The search is [`sevenbag_bot::finesse::min_presses`], the one the solo screen
//! counts faults with, so both agree.
//!
//! **A piece's presses.** From the frame it came into play: spawned, or swapped in by a hold
//! (its count starts over), to the frame it locked. A key already held on the frame before it
//! came into play is no press for it (a rotation held through the spawn, an initial rotation,
//! is free).
//!
//! **A fault.** `faults = presses − fewest` when positive; a piece placed with fewer presses
//! than the search's model (an initial rotation, a DAS that stopped short by a wall of stack)
//! counts 0, never a negative number. Everything is integer and depends only on the frames'
//! keys and boards, so it is deterministic.

use sevenbag_bot::finesse::{min_presses, presses};
use sevenbag_core::{Board, Input, Piece, PieceKind, Player, PlayerEvents};

/// The fewest counted presses that lock a piece of `kind`, spawned on `board`, in the cells
/// `placed` fills; `None` when no press sequence reaches them.
pub fn fewest_presses(
    board: &Board,
    kind: PieceKind,
    placed: &Piece,
    allow_180: bool,
) -> Option<u32> {
    min_presses(board, kind, placed, allow_180)
}

/// The counted presses in `frames`, one mask a frame, `previous` being the keys held on the
/// frame before the first.
pub fn counted_presses(previous: Input, frames: &[Input]) -> u32 {
    presses(previous, frames)
}

/// What finesse made of one locked piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PieceFinesse {
    /// The piece's presses and the fewest that reach its placement.
    Measured {
        /// Counted presses used.
        used: u32,
        /// The fewest possible.
        fewest: u32,
    },
    /// No press sequence reaches the placement from the spawn, or the piece's start was not
    /// seen (it was put in play by an analysis hook).
    Unmeasured,
}

impl PieceFinesse {
    /// Extra presses, 0 when none or unmeasured.
    pub fn faults(self) -> u32 {
        match self {
            PieceFinesse::Measured { used, fewest } => used.saturating_sub(fewest),
            PieceFinesse::Unmeasured => 0,
        }
    }
}

/// The piece in play: the board it came into play on and its presses so far.
#[derive(Clone, Copy, Debug)]
struct InPlay {
    board: Board,
    used: u32,
}

/// Follows one board's pieces frame by frame. Keeps no per-frame history: presses are
/// counted as they come, so a piece kept in the air for a long time costs nothing. The game's
/// practice counts faults live with it; the recorder counts a match's.
#[derive(Clone, Debug, Default)]
pub struct FinesseTracker {
    piece: Option<InPlay>,
}

impl FinesseTracker {
    /// After the board jumped in time (an undo): the piece in play on `player`, if any, counts
    /// its presses from now, on the board it is over.
    pub fn resume(&mut self, player: &Player) {
        self.piece = player.active().map(|_| InPlay {
            board: *player.board(),
            used: 0,
        });
    }

    /// Reads one frame: `before` is the board before the step, `previous` the keys held on the
    /// frame before, `keys` this frame's, `events` the step's. Returns the verdict on a piece
    /// that locked this frame.
    pub fn frame(
        &mut self,
        before: &Board,
        previous: Input,
        keys: Input,
        events: &PlayerEvents,
        allow_180: bool,
    ) -> Option<PieceFinesse> {
        if events.spawned.is_some() || events.held {
            self.piece = Some(InPlay {
                board: *before,
                used: 0,
            });
        }
        if let Some(p) = &mut self.piece {
            p.used += presses(previous, &[keys]);
        }
        let lock = events.locked?;
        let verdict = match self.piece.take() {
            Some(p) => match min_presses(&p.board, lock.piece.kind, &lock.piece, allow_180) {
                Some(fewest) => PieceFinesse::Measured {
                    used: p.used,
                    fewest,
                },
                None => PieceFinesse::Unmeasured,
            },
            None => PieceFinesse::Unmeasured,
        };
        Some(verdict)
    }
}
