//! Writing the first-bag book, offline: `cargo run --release -p sevenbag-bot --example
//! opener_book` (about a minute and a half on one core).
//!
//! For every kind kept in hold, every way to place the six other first-bag pieces inside four
//! rows is enumerated (move generation from spawn, so tucks and spins count; no row full, every
//! empty region of the box a multiple of four cells). For each such setup the *fills* are
//! found: every sequence of four pieces, in order, that empties the box from it, by the same
//! rules as the perfect-clear search (pieces inside the box, lines clear as they fill). A prefix
//! of the next bag succeeds when one of the sixteen orders the hold slot allows over the hold
//! piece and those four pieces is a fill. The book keeps the setups that succeed for the most
//! prefixes. Everything is ordered (B-tree maps, sorted lists), so the output is the same on
//! every run.

use std::collections::{BTreeMap, HashMap};

use sevenbag_core::{Piece, PieceKind};

use super::board_of;
use crate::movegen::{MoveGen, Placement, spawn_position};
use crate::opener::book::{
    Book, LINES, PREFIXES, Setup, WORDS, canonical_piece, piece_cells, prefixes,
};
use crate::pc::regions_fit;

/// Setups in the book shipped with the bot.
pub const BOOK_SETUPS: usize = 400;

/// Move generation and the fills found so far.
#[derive(Debug, Default)]
pub struct Generator {
    movegen: MoveGen,
    buf: Vec<Placement>,
    /// Fills by (box cells, rows): words of 3 bits per piece, the first piece lowest.
    fills: HashMap<(u64, u8), Vec<u16>>,
}

/// The empty cells of a box of `lines` rows.
fn empty_of(cells: u64, lines: u8) -> u64 {
    !cells & ((1u64 << (u32::from(lines) * 10)) - 1)
}

/// `cells` after the full rows of a box of `lines` rows are cleared, and the rows left.
fn clear_rows(cells: u64, lines: u8) -> (u64, u8) {
    let mut out = 0u64;
    let mut to = 0;
    for y in 0..u32::from(lines) {
        let row = cells >> (y * 10) & 0x3ff;
        if row != 0x3ff {
            out |= row << (to * 10);
            to += 1;
        }
    }
    (out, to as u8)
}

impl Generator {
    /// Fresh buffers.
    pub fn new() -> Generator {
        Generator::default()
    }

    /// Pieces of `kind` that can lock inside a box of `lines` rows holding `cells`, from spawn.
    fn placements(&mut self, cells: u64, lines: u8, kind: PieceKind) -> Vec<Piece> {
        let board = board_of(cells);
        let Some(start) = spawn_position(&board, kind) else {
            return Vec::new();
        };
        self.buf.clear();
        self.movegen
            .generate(&board, start, true, false, &mut self.buf);
        self.buf
            .iter()
            .map(|p| p.piece)
            .filter(|p| p.cells().iter().all(|&(_, y)| y < lines as i8))
            .collect()
    }

    /// Every sequence of pieces (3 bits each, the first lowest) that empties a box of `lines`
    /// rows holding `cells`, sorted.
    fn fills(&mut self, cells: u64, lines: u8) -> Vec<u16> {
        if let Some(found) = self.fills.get(&(cells, lines)) {
            return found.clone();
        }
        let mut out = Vec::new();
        for kind in PieceKind::ALL {
            for p in self.placements(cells, lines, kind) {
                let (after, left) = clear_rows(cells | piece_cells(&p), lines);
                let k = kind.index() as u16;
                if left == 0 || after == 0 {
                    out.push(k);
                } else if regions_fit(empty_of(after, left)) {
                    out.extend(self.fills(after, left).iter().map(|w| k | w << 3));
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        self.fills.insert((cells, lines), out.clone());
        out
    }

    /// The success bits of a setup filling `cells` with `hold` kept: prefix `i` succeeds when
    /// one of the orders hold allows over `hold` and its four pieces is a fill.
    pub fn success(&mut self, cells: u64, hold: PieceKind) -> [u64; WORDS] {
        let fills = self.fills(cells, LINES);
        let mut bits = [0u64; WORDS];
        for (i, prefix) in prefixes().iter().enumerate() {
            let q = prefix.map(|k| k.index() as u16);
            let ok = (0..16u32).any(|swaps| {
                let mut held = hold.index() as u16;
                let mut word = 0u16;
                for (j, &next) in q.iter().enumerate() {
                    let placed = if swaps >> j & 1 == 1 {
                        std::mem::replace(&mut held, next)
                    } else {
                        next
                    };
                    word |= placed << (3 * j);
                }
                fills.binary_search(&word).is_ok()
            });
            if ok {
                bits[i / 64] |= 1 << (i % 64);
            }
        }
        bits
    }

    /// Every way to place the six first-bag kinds other than `hold` inside the box, one piece
    /// at a time from spawn, with no row full and every empty region a multiple of four.
    pub fn setups(&mut self, hold: PieceKind) -> Vec<[Option<Piece>; 7]> {
        let mut layer: BTreeMap<[u64; 7], [Option<Piece>; 7]> = BTreeMap::new();
        layer.insert([0; 7], [None; 7]);
        for _ in 0..6 {
            let mut next = BTreeMap::new();
            for (cells, pieces) in &layer {
                let board = cells.iter().fold(0, |a, c| a | c);
                for kind in PieceKind::ALL {
                    if kind == hold || pieces[kind.index()].is_some() {
                        continue;
                    }
                    for p in self.placements(board, LINES, kind) {
                        let pc = piece_cells(&p);
                        let after = board | pc;
                        if clear_rows(after, LINES).1 < LINES
                            || !regions_fit(empty_of(after, LINES))
                        {
                            continue;
                        }
                        let mut c = *cells;
                        c[kind.index()] = pc;
                        let mut ps = *pieces;
                        ps[kind.index()] = canonical_piece(kind, pc);
                        next.entry(c).or_insert(ps);
                    }
                }
            }
            layer = next;
        }
        layer.into_values().collect()
    }
}

/// The book of the `count` setups that succeed for the most prefixes (ties: the smaller bytes
/// first), best first, each followed by its mirror image when that was chosen too.
pub fn generate(count: usize) -> Book {
    let mut g = Generator::new();
    let mut all: Vec<(u32, Vec<u8>, Setup)> = Vec::new();
    for hold in PieceKind::ALL {
        let mut by_board: BTreeMap<u64, [u64; WORDS]> = BTreeMap::new();
        for pieces in g.setups(hold) {
            let setup = Setup::new(hold, pieces, [0; WORDS]);
            let board = setup.board();
            let success = *by_board
                .entry(board)
                .or_insert_with(|| g.success(board, hold));
            let rate: u32 = success.iter().map(|w| w.count_ones()).sum();
            if rate == 0 {
                continue;
            }
            let setup = Setup { success, ..setup };
            let bytes = Book {
                setups: vec![setup.clone()],
            }
            .to_bytes();
            all.push((rate, bytes, setup));
        }
        // The fills of one hold kind's boards are rarely another's: keep memory bounded.
        g.fills.clear();
    }
    all.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    debug_assert!(all.iter().all(|s| s.0 as usize <= PREFIXES));
    let chosen: Vec<Setup> = all.into_iter().take(count).map(|s| s.2).collect();
    let mut taken = vec![false; chosen.len()];
    let mut setups = Vec::with_capacity(chosen.len());
    for i in 0..chosen.len() {
        if taken[i] {
            continue;
        }
        taken[i] = true;
        setups.push(chosen[i].clone());
        let mirror = chosen[i].mirrored();
        if let Some(j) = (i + 1..chosen.len()).find(|&j| !taken[j] && chosen[j] == mirror) {
            taken[j] = true;
            setups.push(mirror);
        }
    }
    Book { setups }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_rows_clear_and_the_rows_above_fall() {
        let cells = 0x3ff | 0b1 << 10 | 0x3ff << 20;
        assert_eq!(clear_rows(cells, 4), (0b1, 2));
    }
}
