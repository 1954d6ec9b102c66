//! The first-bag book: setups of six first-bag pieces inside four rows and, for each, which
//! orders of the next bag's first four pieces let a perfect clear finish from it.
//!
//! A setup keeps the seventh first-bag piece in hold. Once it stands, the finish uses four
//! pieces out of that hold piece and the next bag's first four (the hold slot lets any one of
//! the five stay out), so whether it can finish depends on those four pieces in order: one of
//! the 7 × 6 × 5 × 4 = 840 *prefixes*, numbered in lexicographic order of their kinds'
//! [`PieceKind::index`]. A setup stores one bit per prefix. The prefixes that share their first
//! pieces form one block of that numbering, so "how many of the orders still possible succeed"
//! is a population count over one range.
//!
//! Nearly every setup's mirror image (columns reversed, J and L swapped, S and Z swapped) is in
//! the book too, with the same success for the mirrored orders; such a pair is stored once.
//!
//! Format (all integers little-endian): `SBPC`, a version byte (1), a `u16` count of entries,
//! then per entry the hold piece's kind index (plus 128 when the entry stands for its mirror
//! image too, which follows it in the book), the six placed pieces in kind order (one byte each:
//! rotation in bits 6–7, the rotation centre's column in bits 2–5 and row in bits 0–1; every
//! piece covers its centre, so both are inside the box) and 105 bytes of success bits, bit `i`
//! for prefix `i`. Pieces that fill the same cells in several ways are stored as
//! [`canonical_piece`] gives them. [`crate::opener::generate`] writes it.

use std::fmt;
use std::sync::OnceLock;

use sevenbag_core::{Piece, PieceKind, Rotation};

/// Orders of the next bag's first four pieces.
pub const PREFIXES: usize = 840;

/// Words of success bits per setup.
pub const WORDS: usize = PREFIXES.div_ceil(64);

const MAGIC: &[u8; 4] = b"SBPC";
const MIRRORED: u8 = 0x80;
const VERSION: u8 = 1;
const SUCCESS_BYTES: usize = PREFIXES.div_ceil(8);
const SETUP_BYTES: usize = 1 + 6 + SUCCESS_BYTES;

/// The book shipped with the bot (`first_bag.book`, written by the `opener_book` example).
const FIRST_BAG: &[u8] = include_bytes!("first_bag.book");

/// Rows of the box every setup and its perfect clear fit in.
pub const LINES: u8 = 4;

/// One setup: six first-bag pieces placed, the seventh kept in hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The first-bag piece kept in hold for the finish.
    pub hold: PieceKind,
    /// Where each kind stands, by [`PieceKind::index`]; `None` for the hold piece.
    pub pieces: [Option<Piece>; 7],
    /// The cells of each piece as box bits (`y * 10 + x`), by kind index; 0 for the hold piece.
    pub cells: [u64; 7],
    /// Bit `i` set when prefix `i` lets the perfect clear finish.
    pub success: [u64; WORDS],
}

impl Setup {
    /// A setup from its pieces (by kind index, `None` for the hold piece) and success bits.
    pub fn new(hold: PieceKind, pieces: [Option<Piece>; 7], success: [u64; WORDS]) -> Setup {
        Setup {
            hold,
            pieces,
            cells: pieces.map(|p| p.map_or(0, |p| piece_cells(&p))),
            success,
        }
    }

    /// All the setup's cells as box bits.
    pub fn board(&self) -> u64 {
        self.cells.iter().fold(0, |a, &c| a | c)
    }

    /// The setup seen in a mirror: columns reversed, J and L swapped, S and Z swapped, and the
    /// success bits moved to the mirrored orders.
    pub fn mirrored(&self) -> Setup {
        let mut pieces = [None; 7];
        for kind in PieceKind::ALL {
            if kind != self.hold {
                let m = mirror_kind(kind);
                pieces[m.index()] = canonical_piece(m, mirror_cells(self.cells[kind.index()]));
            }
        }
        let mut success = [0u64; WORDS];
        for (i, p) in prefixes().iter().enumerate() {
            if self.success[i / 64] >> (i % 64) & 1 == 1 {
                let j = prefix_index(p.map(mirror_kind));
                success[j / 64] |= 1 << (j % 64);
            }
        }
        Setup::new(mirror_kind(self.hold), pieces, success)
    }

    /// How many prefixes in `block` (see [`block`]) let the perfect clear finish.
    pub fn successes(&self, block: (usize, usize)) -> u32 {
        count_range(&self.success, block.0, block.0 + block.1)
    }
}

/// The cells of a piece as box bits (`y * 10 + x`); cells outside rows 0..6 or the walls are
/// dropped.
pub fn piece_cells(p: &Piece) -> u64 {
    p.cells()
        .iter()
        .filter(|&&(x, y)| (0..10).contains(&x) && (0..6).contains(&y))
        .fold(0, |m, &(x, y)| m | 1 << (y as u32 * 10 + x as u32))
}

/// `kind` seen in a mirror.
pub fn mirror_kind(kind: PieceKind) -> PieceKind {
    match kind {
        PieceKind::S => PieceKind::Z,
        PieceKind::Z => PieceKind::S,
        PieceKind::J => PieceKind::L,
        PieceKind::L => PieceKind::J,
        k => k,
    }
}

/// Box bits with the columns reversed.
fn mirror_cells(cells: u64) -> u64 {
    (0..60)
        .filter(|i| cells >> i & 1 == 1)
        .fold(0, |m, i| m | 1 << (i / 10 * 10 + 9 - i % 10))
}

/// The piece of `kind` that covers `cells` (box bits), the first in the order rotation, row,
/// column: one representative for the pieces (O, I, S, Z) that cover the same cells in several
/// ways. `None` when no piece of that kind covers exactly those cells inside the box.
pub fn canonical_piece(kind: PieceKind, cells: u64) -> Option<Piece> {
    Rotation::ALL.into_iter().find_map(|rotation| {
        (0..LINES as i8).find_map(|y| {
            (0..10).find_map(|x| {
                let p = Piece {
                    kind,
                    rotation,
                    x,
                    y,
                };
                let inside = p
                    .cells()
                    .iter()
                    .all(|&(cx, cy)| (0..10).contains(&cx) && (0..LINES as i8).contains(&cy));
                (inside && piece_cells(&p) == cells).then_some(p)
            })
        })
    })
}

/// Set bits of `bits` in `start..end`.
pub(crate) fn count_range(bits: &[u64; WORDS], start: usize, end: usize) -> u32 {
    let mut n = 0;
    let mut i = start;
    while i < end {
        let (w, b) = (i / 64, i % 64);
        let take = (64 - b).min(end - i);
        let mask = if take == 64 {
            u64::MAX
        } else {
            ((1u64 << take) - 1) << b
        };
        n += (bits[w] & mask).count_ones();
        i += take;
    }
    n
}

/// The number of the prefix `p` (four distinct kinds).
pub fn prefix_index(p: [PieceKind; 4]) -> usize {
    block(&p).0
}

/// The prefixes that begin with `revealed` (at most four distinct kinds): `(first, count)`.
pub fn block(revealed: &[PieceKind]) -> (usize, usize) {
    let mut start = 0;
    for (j, k) in revealed.iter().enumerate() {
        let smaller = (0..k.index())
            .filter(|&i| !revealed[..j].iter().any(|r| r.index() == i))
            .count();
        start += smaller * block_len(j + 1);
    }
    (start, block_len(revealed.len()))
}

/// Prefixes sharing their first `known` pieces: (7 − known)! / 3!.
fn block_len(known: usize) -> usize {
    (known..4).map(|j| 7 - j).product()
}

/// Every prefix, in their numbering.
pub fn prefixes() -> Vec<[PieceKind; 4]> {
    let mut out = Vec::with_capacity(PREFIXES);
    for a in PieceKind::ALL {
        for b in PieceKind::ALL {
            for c in PieceKind::ALL {
                for d in PieceKind::ALL {
                    let p = [a, b, c, d];
                    if (0..4).all(|i| (0..i).all(|j| p[i] != p[j])) {
                        out.push(p);
                    }
                }
            }
        }
    }
    out
}

/// Why a book could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookError {
    /// The bytes do not start with the magic and version.
    Header,
    /// The bytes end inside a setup, or go on after the last.
    Length,
    /// Setup `n` holds an impossible piece byte or hold kind.
    Setup(usize),
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::Header => write!(f, "not a version {VERSION} opener book"),
            BookError::Length => write!(f, "the book's length does not match its count"),
            BookError::Setup(n) => write!(f, "setup {n} is malformed"),
        }
    }
}

impl std::error::Error for BookError {}

/// A list of setups.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Book {
    /// The setups, best first.
    pub setups: Vec<Setup>,
}

impl Book {
    /// The book shipped with the bot.
    pub fn first_bag() -> &'static Book {
        static BOOK: OnceLock<Book> = OnceLock::new();
        BOOK.get_or_init(|| Book::parse(FIRST_BAG).expect("first_bag.book is checked by tests"))
    }

    /// Reads a book from its bytes.
    pub fn parse(bytes: &[u8]) -> Result<Book, BookError> {
        if bytes.len() < 7 || &bytes[..4] != MAGIC || bytes[4] != VERSION {
            return Err(BookError::Header);
        }
        let count = usize::from(u16::from_le_bytes([bytes[5], bytes[6]]));
        let body = &bytes[7..];
        if body.len() != count * SETUP_BYTES {
            return Err(BookError::Length);
        }
        let mut setups = Vec::with_capacity(2 * count);
        for (n, b) in body.chunks_exact(SETUP_BYTES).enumerate() {
            let setup = read_setup(b).ok_or(BookError::Setup(n))?;
            if b[0] & MIRRORED != 0 {
                let mirror = setup.mirrored();
                setups.push(setup);
                setups.push(mirror);
            } else {
                setups.push(setup);
            }
        }
        Ok(Book { setups })
    }

    /// The book's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut entries = Vec::new();
        let mut i = 0;
        while i < self.setups.len() {
            let s = &self.setups[i];
            let pair = self.setups.get(i + 1).is_some_and(|m| *m == s.mirrored());
            entries.push((s, pair));
            i += 1 + usize::from(pair);
        }
        let mut out = Vec::with_capacity(7 + entries.len() * SETUP_BYTES);
        out.extend_from_slice(MAGIC);
        out.push(VERSION);
        out.extend_from_slice(&(entries.len() as u16).to_le_bytes());
        for (s, pair) in entries {
            out.push(s.hold.index() as u8 | if pair { MIRRORED } else { 0 });
            for p in s.pieces.iter().flatten() {
                out.push((p.rotation.index() as u8) << 6 | (p.x as u8) << 2 | p.y as u8);
            }
            for i in 0..SUCCESS_BYTES {
                out.push((s.success[i / 8] >> (i % 8 * 8)) as u8);
            }
        }
        out
    }
}

fn read_setup(b: &[u8]) -> Option<Setup> {
    let hold = *PieceKind::ALL.get(usize::from(b[0] & !MIRRORED))?;
    let mut pieces = [None; 7];
    let mut at = 1;
    for kind in PieceKind::ALL {
        if kind == hold {
            continue;
        }
        let byte = b[at];
        at += 1;
        let (x, y) = ((byte >> 2 & 0xf) as i8, (byte & 3) as i8);
        if x > 9 {
            return None;
        }
        let piece = Piece {
            kind,
            rotation: Rotation::ALL[usize::from(byte >> 6)],
            x,
            y,
        };
        if canonical_piece(kind, piece_cells(&piece)) != Some(piece) {
            return None;
        }
        pieces[kind.index()] = Some(piece);
    }
    let mut success = [0u64; WORDS];
    for (i, &byte) in b[at..].iter().enumerate() {
        success[i / 8] |= u64::from(byte) << (i % 8 * 8);
    }
    Some(Setup::new(hold, pieces, success))
}

#[cfg(test)]
mod tests {
    use super::*;
    use PieceKind::*;

    #[test]
    fn prefixes_are_numbered_in_order_and_blocks_cover_them() {
        let all = prefixes();
        assert_eq!(all.len(), PREFIXES);
        for (i, p) in all.iter().enumerate() {
            assert_eq!(prefix_index(*p), i);
        }
        assert_eq!(block(&[]), (0, 840));
        let (start, len) = block(&[O, I]);
        assert_eq!(len, 20);
        assert!(all[start..start + len].iter().all(|p| p[..2] == [O, I]));
        assert_eq!(start, all.iter().position(|p| p[..2] == [O, I]).unwrap());
    }

    #[test]
    fn a_book_reads_back_what_it_wrote_with_mirror_pairs_stored_once() {
        let piece = |kind, rotation, x, y| {
            Some(Piece {
                kind,
                rotation,
                x,
                y,
            })
        };
        // I flat, O and L on the left, S, Z and J on the right; T held. Not a real setup:
        // the format does not care.
        let mut pieces = [None; 7];
        pieces[I.index()] = piece(I, Rotation::Spawn, 1, 0);
        pieces[O.index()] = piece(O, Rotation::Spawn, 0, 1);
        pieces[S.index()] = piece(S, Rotation::Spawn, 5, 0);
        pieces[Z.index()] = piece(Z, Rotation::Spawn, 8, 0);
        pieces[J.index()] = piece(J, Rotation::Spawn, 5, 2);
        pieces[L.index()] = piece(L, Rotation::Spawn, 8, 2);
        let mut success = [0u64; WORDS];
        success[0] = 0b1011;
        success[13] = 1 << 7;
        let setup = Setup::new(T, pieces, success);
        let odd = Setup::new(T, pieces, [0; WORDS]);
        let book = Book {
            setups: vec![setup.clone(), setup.mirrored(), odd],
        };
        let bytes = book.to_bytes();
        assert_eq!(bytes.len(), 7 + 2 * SETUP_BYTES);
        assert_eq!(Book::parse(&bytes), Ok(book));
        assert_eq!(setup.mirrored().mirrored(), setup);
    }

    #[test]
    fn a_book_with_a_wrong_header_or_length_is_refused() {
        assert_eq!(Book::parse(b"SBPC\x02\0\0"), Err(BookError::Header));
        assert_eq!(Book::parse(b"SBPC\x01\x01\0"), Err(BookError::Length));
    }

    #[test]
    fn a_range_count_sees_only_its_range() {
        let mut bits = [0u64; WORDS];
        for i in [0, 63, 64, 130, 839] {
            bits[i / 64] |= 1 << (i % 64);
        }
        assert_eq!(count_range(&bits, 0, 840), 5);
        assert_eq!(count_range(&bits, 1, 64), 1);
        assert_eq!(count_range(&bits, 63, 131), 3);
        assert_eq!(count_range(&bits, 131, 839), 0);
    }
}
