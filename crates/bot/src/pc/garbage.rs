//! Garbage queued against the player, as the perfect-clear search sees it: when a lock without
//! a clear lets it rise, and raising it under the box as the core would.

use super::PcQuery;
use crate::bitboard::{BitBoard, COLUMNS};

/// Garbage queued against the player, as the perfect-clear search sees it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pending {
    /// Lines queued.
    pub lines: u16,
    /// Locks before it is ready: it rises on the first lock without a clear from this one on
    /// (0: the lock of the piece in play).
    pub ready_after: u8,
    /// The column of the hole in its lines.
    pub hole: i8,
}

/// What a lock without a clear does to the box.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Rise {
    /// No garbage is ready.
    Nothing,
    /// This many lines rose under the stack.
    Lines(u8),
    /// Garbage would rise that the search does not play through.
    Spoiled,
}

impl PcQuery {
    /// Raises under `board` the garbage that a lock without a clear, the `lock`th from now
    /// (0: the piece in play), lets rise when `consumed` queued lines are gone (cancelled by
    /// attack or risen before; both take the oldest first), as the core does: whole lines, the
    /// oldest ready attack first, at most `rise_cap` lines.
    pub(super) fn rise(&self, board: &mut BitBoard, consumed: u16, lock: u8) -> Rise {
        let mut skip = consumed;
        let mut risen = 0u8;
        for p in &self.incoming {
            if p.lines <= skip {
                skip -= p.lines;
                continue;
            }
            if p.ready_after > lock {
                break;
            }
            if self.rise_cap == 0 || !(0..COLUMNS as i8).contains(&p.hole) {
                return Rise::Spoiled;
            }
            let n = (p.lines - skip).min(u16::from(self.rise_cap - risen)) as u8;
            if !board.push_garbage(u32::from(n), p.hole as usize) {
                return Rise::Spoiled;
            }
            risen += n;
            skip = 0;
            if risen == self.rise_cap {
                break;
            }
        }
        if risen == 0 {
            Rise::Nothing
        } else {
            Rise::Lines(risen)
        }
    }

    /// The hole of the next queued line to rise when `consumed` lines are gone, if the search
    /// plays through rising garbage and any is left.
    pub(super) fn next_hole(&self, consumed: u16) -> Option<i8> {
        if self.rise_cap == 0 {
            return None;
        }
        let mut skip = consumed;
        for p in &self.incoming {
            if p.lines > skip {
                return Some(p.hole);
            }
            skip -= p.lines;
        }
        None
    }
}
