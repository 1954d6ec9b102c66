//! Deterministic random streams: ChaCha8 keyed from the match seed, with our own bounded sampling.
//!
//! Key derivation (fixed; part of the golden vectors): the 32-byte ChaCha key is the match seed as
//! 8 little-endian bytes followed by 24 zero bytes. Each purpose reads its own ChaCha stream id
//! (see [`StreamId`]). A stream is stored as (seed, stream id, word position) and rebuilt on use,
//! so snapshots stay 24 bytes and heap-free.
//!
//! Bounded sampling ([`below`]) is the rejection method: draw `x = next_u32()` until
//! `x >= 2^32 mod n`, then return `x mod n`. That is exactly uniform and depends on nothing but the
//! ChaCha output, so a dependency bump cannot change it.

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

/// Which ChaCha stream a purpose reads, for one round of a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StreamId {
    /// The piece sequence of round `round` (shared by every seat).
    Pieces {
        /// Round number, from 0.
        round: u32,
    },
    /// Garbage hole columns for the receiving seat `seat` in round `round`.
    Holes {
        /// Round number, from 0.
        round: u32,
        /// Receiving seat, 0 to 7.
        seat: u8,
    },
    /// The `random` targeting rule's draws for the sending seat `seat` in round `round`.
    Aim {
        /// Round number, from 0.
        round: u32,
        /// Sending seat, 0 to 7.
        seat: u8,
    },
}

/// The top bit marks the stream numbers of seats beyond a two-seat match's.
const MORE_SEATS: u64 = 1 << 63;

impl StreamId {
    /// The ChaCha stream number. Pieces: `round × 4`; holes of seats 0 and 1:
    /// `round × 4 + 1 + seat` (the two-seat numbering, unchanged). Every other stream:
    /// `2⁶³ + round × 2¹⁶ + purpose × 2⁸ + seat`, purpose 1 for holes (seats 2 to 7) and 2 for
    /// `random` targeting; the top bit keeps the two families apart.
    pub const fn number(self) -> u64 {
        match self {
            StreamId::Pieces { round } => round as u64 * 4,
            StreamId::Holes { round, seat } if seat < 2 => round as u64 * 4 + 1 + seat as u64,
            StreamId::Holes { round, seat } => {
                MORE_SEATS | (round as u64) << 16 | 1 << 8 | seat as u64
            }
            StreamId::Aim { round, seat } => {
                MORE_SEATS | (round as u64) << 16 | 2 << 8 | seat as u64
            }
        }
    }
}

/// A resumable position in one ChaCha8 stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ChaChaStream {
    seed: u64,
    stream: u64,
    word_pos: u64,
}

impl ChaChaStream {
    /// The start of stream `id` for match seed `seed`.
    pub const fn new(seed: u64, id: StreamId) -> ChaChaStream {
        ChaChaStream {
            seed,
            stream: id.number(),
            word_pos: 0,
        }
    }

    /// Runs `f` on the stream's generator positioned where the last use left it.
    pub fn with<R>(&mut self, f: impl FnOnce(&mut ChaCha8Rng) -> R) -> R {
        let mut key = [0u8; 32];
        key[..8].copy_from_slice(&self.seed.to_le_bytes());
        let mut rng = ChaCha8Rng::from_seed(key);
        rng.set_stream(self.stream);
        rng.set_word_pos(u128::from(self.word_pos));
        let out = f(&mut rng);
        self.word_pos = rng.get_word_pos() as u64;
        out
    }

    /// How many 32-bit words have been read, for canonical bytes.
    pub const fn word_pos(&self) -> u64 {
        self.word_pos
    }
}

/// A uniform number in `0..n` by rejection (see the module doc). `n` must be at least 1.
pub fn below(rng: &mut impl RngCore, n: u32) -> u32 {
    debug_assert!(n > 0);
    let threshold = n.wrapping_neg() % n;
    loop {
        let x = rng.next_u32();
        if x >= threshold {
            return x % n;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_resumed_stream_continues_where_it_stopped() {
        let mut whole = ChaChaStream::new(7, StreamId::Pieces { round: 0 });
        let all: Vec<u32> = whole.with(|r| (0..20).map(|_| r.next_u32()).collect());
        let mut parts = ChaChaStream::new(7, StreamId::Pieces { round: 0 });
        let mut got: Vec<u32> = parts.with(|r| (0..5).map(|_| r.next_u32()).collect());
        got.extend(parts.with(|r| (0..15).map(|_| r.next_u32()).collect::<Vec<_>>()));
        assert_eq!(all, got);
    }

    #[test]
    fn streams_of_one_seed_differ() {
        let mut a = ChaChaStream::new(7, StreamId::Holes { round: 0, seat: 0 });
        let mut b = ChaChaStream::new(7, StreamId::Holes { round: 0, seat: 1 });
        assert_ne!(a.with(|r| r.next_u32()), b.with(|r| r.next_u32()));
    }

    #[test]
    fn stream_numbers_never_collide() {
        let mut seen = std::collections::BTreeSet::new();
        for round in [0, 1, 2, 1000, u32::MAX] {
            assert!(seen.insert(StreamId::Pieces { round }.number()));
            for seat in 0..8 {
                assert!(seen.insert(StreamId::Holes { round, seat }.number()));
                assert!(seen.insert(StreamId::Aim { round, seat }.number()));
            }
        }
    }

    #[test]
    fn below_stays_in_range() {
        let mut s = ChaChaStream::new(1, StreamId::Pieces { round: 0 });
        s.with(|r| {
            for n in 1..50 {
                assert!(below(r, n) < n);
            }
        });
    }
}
