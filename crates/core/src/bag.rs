//! Randomizers and the piece queue: 7-bag, 14-bag, classic random and TGM-style history.
//!
//! Both players of a round build their queue from the same stream, so they see the same sequence;
//! each queue is its own cursor. Pieces are generated in order and buffered, so when a refill
//! happens never changes the sequence.

use serde::{Deserialize, Serialize};

use crate::piece::PieceKind;
use crate::rng::{ChaChaStream, StreamId, below};

/// How the piece sequence is generated.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Randomizer {
    /// Each group of 7 is a Fisher–Yates shuffle of the seven pieces (the guideline).
    #[default]
    SevenBag,
    /// Each group of 14 is a shuffle of two copies of the seven pieces.
    FourteenBag,
    /// Every piece is uniform and independent of the others.
    Classic,
    /// TGM style: reroll up to 6 times while the piece is among the last 4 dealt.
    History,
}

impl Randomizer {
    /// Every randomizer, for listings.
    pub const ALL: [Randomizer; 4] = [
        Randomizer::SevenBag,
        Randomizer::FourteenBag,
        Randomizer::Classic,
        Randomizer::History,
    ];

    /// The short name used on command lines and in room options.
    pub const fn name(self) -> &'static str {
        match self {
            Randomizer::SevenBag => "7bag",
            Randomizer::FourteenBag => "14bag",
            Randomizer::Classic => "random",
            Randomizer::History => "history",
        }
    }

    /// The randomizer with short name `name`.
    pub fn from_name(name: &str) -> Option<Randomizer> {
        Self::ALL.into_iter().find(|r| r.name() == name)
    }
}

/// Pieces shown in the next queue.
pub const PREVIEW: usize = 5;
/// Rerolls the history randomizer makes after its first roll.
pub const HISTORY_REROLLS: u32 = 6;
/// The history randomizer's starting history: Z S Z S, so the first piece is rarely S or Z.
const HISTORY_START: [PieceKind; 4] = [PieceKind::Z, PieceKind::S, PieceKind::Z, PieceKind::S];
const BUFFER: usize = 24;

/// A player's cursor into the round's piece sequence, with the upcoming pieces buffered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PieceQueue {
    randomizer: Randomizer,
    stream: ChaChaStream,
    history: [PieceKind; 4],
    upcoming: [PieceKind; BUFFER],
    len: u8,
}

impl PieceQueue {
    /// The queue at the start of round `round` of a match with seed `seed`.
    pub fn new(randomizer: Randomizer, seed: u64, round: u32) -> PieceQueue {
        let mut queue = PieceQueue {
            randomizer,
            stream: ChaChaStream::new(seed, StreamId::Pieces { round }),
            history: HISTORY_START,
            upcoming: [PieceKind::I; BUFFER],
            len: 0,
        };
        queue.refill();
        queue
    }

    /// Takes the next piece.
    pub fn pop(&mut self) -> PieceKind {
        let piece = self.upcoming[0];
        self.upcoming.copy_within(1..self.len as usize, 0);
        self.len -= 1;
        self.refill();
        piece
    }

    /// The next [`PREVIEW`] pieces, nearest first.
    pub fn preview(&self) -> [PieceKind; PREVIEW] {
        std::array::from_fn(|i| self.upcoming[i])
    }

    /// Puts `piece` in front of the queue, so it is the next one taken. An analysis hook for the
    /// bot and tools (a match never calls it); when the buffer is full the last piece is dropped.
    pub fn push_front(&mut self, piece: PieceKind) {
        let len = (self.len as usize).min(BUFFER - 1);
        self.upcoming.copy_within(0..len, 1);
        self.upcoming[0] = piece;
        self.len = len as u8 + 1;
    }

    /// The randomizer this queue draws with.
    pub fn randomizer(&self) -> Randomizer {
        self.randomizer
    }

    /// Canonical bytes: stream position, buffered pieces and history.
    pub(crate) fn write_canonical(&self, out: &mut crate::hash::StateHasher) {
        out.u8(self.randomizer as u8);
        out.u64(self.stream.word_pos());
        out.u8(self.len);
        for p in &self.upcoming[..self.len as usize] {
            out.u8(p.index() as u8);
        }
        for p in self.history {
            out.u8(p.index() as u8);
        }
    }

    fn push(&mut self, piece: PieceKind) {
        self.upcoming[self.len as usize] = piece;
        self.len += 1;
    }

    fn refill(&mut self) {
        while (self.len as usize) <= PREVIEW {
            match self.randomizer {
                Randomizer::SevenBag => self.push_bag::<7>(),
                Randomizer::FourteenBag => self.push_bag::<14>(),
                Randomizer::Classic => {
                    let i = self.stream.with(|r| below(r, 7));
                    self.push(PieceKind::ALL[i as usize]);
                }
                Randomizer::History => {
                    let history = self.history;
                    let i = self.stream.with(|r| {
                        let mut i = below(r, 7);
                        for _ in 0..HISTORY_REROLLS {
                            if !history.contains(&PieceKind::ALL[i as usize]) {
                                break;
                            }
                            i = below(r, 7);
                        }
                        i
                    });
                    let piece = PieceKind::ALL[i as usize];
                    self.history.copy_within(1.., 0);
                    self.history[3] = piece;
                    self.push(piece);
                }
            }
        }
    }

    /// Appends a Fisher–Yates shuffle of `N / 7` copies of the seven pieces.
    fn push_bag<const N: usize>(&mut self) {
        let mut bag: [PieceKind; N] = std::array::from_fn(|i| PieceKind::ALL[i % 7]);
        self.stream.with(|r| {
            for i in (1..N).rev() {
                let j = below(r, i as u32 + 1) as usize;
                bag.swap(i, j);
            }
        });
        for piece in bag {
            self.push(piece);
        }
    }
}

/// The first `count` pieces of round 0 for `seed`: what `sevenbag-tool bag` prints.
pub fn sequence(randomizer: Randomizer, seed: u64, count: usize) -> Vec<PieceKind> {
    let mut queue = PieceQueue::new(randomizer, seed, 0);
    (0..count).map(|_| queue.pop()).collect()
}
