//! The game as a TBP bot knows it: what a `start` message said, advanced by `play` and
//! `new_piece` the way the protocol defines them. Our bot keeps one to answer `suggest`
//! ([`crate::bot_side`]); the frontend keeps one per outside bot, the bot's picture, to tell
//! whether the real game still matches it ([`crate::flow`]).

use sevenbag_core::attack::{Chain, Clear};
use sevenbag_core::{Board, PieceKind};

use crate::convert::{board_from_tbp, chain_from_tbp, move_from_tbp, piece_from_tbp};
use crate::messages::{Start, TbpMove};

/// Every kind, one bit per kind index.
pub const ALL_KINDS: u8 = 0x7f;

/// A game as TBP describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TbpGame {
    /// The board (filled cells; garbage or the piece of their letter).
    pub board: Board,
    /// The current piece first, then the known next pieces.
    pub queue: Vec<PieceKind>,
    /// The hold slot.
    pub hold: Option<PieceKind>,
    /// Combo and back-to-back (TBP carries a count and a flag; see [`crate::convert`]).
    pub chain: Chain,
    /// Under the 7-bag: the kinds that may come after the queue, one bit per kind index (all
    /// seven when the queue ends a bag).
    pub bag_left: Option<u8>,
}

impl TbpGame {
    /// The game a `start` message describes.
    pub fn from_start(start: &Start) -> Result<TbpGame, String> {
        let bag_left = start
            .randomizer
            .as_ref()
            .and_then(|r| r.bag_left())
            .map(|left| {
                left.iter()
                    .fold(0u8, |m, &p| m | 1 << piece_from_tbp(p).index())
            })
            .filter(|&m| m != 0);
        Ok(TbpGame {
            board: board_from_tbp(&start.board)?,
            queue: start.queue.iter().map(|&p| piece_from_tbp(p)).collect(),
            hold: start.hold.map(piece_from_tbp),
            chain: chain_from_tbp(start.combo, start.back_to_back),
            bag_left,
        })
    }

    /// The piece after the queue when it is the last of its bag.
    pub fn bag_tail(&self) -> Option<PieceKind> {
        let left = self.bag_left?;
        (left.count_ones() == 1).then(|| PieceKind::ALL[left.trailing_zeros() as usize])
    }

    /// A piece joins the queue (`new_piece`): it leaves the bag (a new bag starts when this one
    /// is empty).
    pub fn new_piece(&mut self, piece: PieceKind) {
        self.queue.push(piece);
        if let Some(left) = &mut self.bag_left {
            let bit = 1 << piece.index();
            if *left == ALL_KINDS || *left & bit == 0 {
                // A fresh bag (or a piece the bag state did not allow: start over from it).
                *left = ALL_KINDS;
            }
            *left &= !bit;
            if *left == 0 {
                *left = ALL_KINDS;
            }
        }
    }

    /// Plays `mv` (`play`): takes its piece from the queue (through hold if needed), locks it
    /// and clears lines; combo and back-to-back follow the move's own spin.
    pub fn play(&mut self, mv: &TbpMove) -> Result<(), String> {
        let (piece, spin) = move_from_tbp(mv).ok_or("move off the board")?;
        let first = *self.queue.first().ok_or("play with an empty queue")?;
        if piece.kind != first {
            match self.hold {
                Some(h) if h == piece.kind => self.hold = Some(first),
                None if self.queue.get(1) == Some(&piece.kind) => {
                    self.hold = Some(first);
                    self.queue.remove(0);
                }
                _ => {
                    return Err(format!(
                        "{:?} is neither the current nor the hold piece",
                        piece.kind
                    ));
                }
            }
        }
        self.queue.remove(0);
        if self.board.collides(&piece) {
            return Err("the move overlaps the stack".into());
        }
        self.board.place(&piece);
        let lines = self.board.clear_lines().lines;
        self.chain.apply(Clear {
            lines,
            spin,
            perfect: self.board.is_empty(),
        });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::convert::{board_to_tbp, move_to_tbp, piece_to_tbp};
    use crate::messages::Randomizer;
    use PieceKind::*;
    use sevenbag_core::{Piece, Rotation, Spin};

    fn game(queue: &[PieceKind], left: &[PieceKind]) -> TbpGame {
        TbpGame::from_start(&Start {
            board: board_to_tbp(&Board::new()),
            queue: queue.iter().map(|&k| piece_to_tbp(k)).collect(),
            hold: None,
            combo: 0,
            back_to_back: false,
            randomizer: Some(Randomizer::seven_bag(
                left.iter().map(|&k| piece_to_tbp(k)).collect(),
            )),
        })
        .unwrap()
    }

    #[test]
    fn the_last_piece_of_a_bag_follows_the_queue_and_new_pieces_leave_the_bag() {
        let mut game = game(&[T, I, O, S, Z], &[J, L]);
        assert_eq!(game.bag_tail(), None);
        game.new_piece(J);
        assert_eq!(game.bag_tail(), Some(L));
        game.new_piece(L);
        // The bag is used up: the next piece starts a new one.
        assert_eq!(game.bag_left, Some(ALL_KINDS));
        assert_eq!(game.bag_tail(), None);
        game.new_piece(O);
        assert_eq!(game.bag_left, Some(ALL_KINDS & !(1 << O.index())));
    }

    #[test]
    fn a_hold_into_an_empty_slot_takes_the_next_piece() {
        let mut game = game(&[T, I, O, S, Z], &[J, L]);
        // An I lying flat on the floor, played through hold: T goes to hold, I locks.
        let i = Piece {
            kind: I,
            rotation: Rotation::Spawn,
            x: 4,
            y: 0,
        };
        game.play(&move_to_tbp(&i, Spin::None)).unwrap();
        assert_eq!(game.hold, Some(T));
        assert_eq!(game.queue, vec![O, S, Z]);
        assert_eq!(game.board.row(0).count_ones(), 4);
    }
}
