//! Scoring: a static value for a board (El-Tetris-style shape terms plus versus terms) and a
//! reward for each placement (lines sent, spins, back-to-back, combo).
//!
//! Everything is integer. The search ranks a line of play by the rewards collected along it plus
//! the static value of the board it ends on, so the weights of both live in one [`Weights`]. The
//! terms and their starting weights follow cold-clear's standard evaluator (holes split into
//! closed cavities and overhangs a tuck can still fill, a well with a column preference, bumpiness
//! that ignores the well, T-slot shapes by the lines a T would clear); the numbers were then tuned
//! against the El-Tetris-style baseline with `sevenbag-tool botmatch`.

use sevenbag_core::attack::COMBO_TABLE;
use sevenbag_core::{AttackResult, Clear, Piece, PieceKind, Rotation, Spin};

use crate::bitboard::{BitBoard, COLUMNS};

/// Weights of every evaluation term. Positive is good.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Weights {
    /// Per row of the highest column.
    pub height: i32,
    /// Per row of effective height (stack plus incoming garbage) above 10.
    pub top_half: i32,
    /// Per row of effective height above 15.
    pub top_quarter: i32,
    /// Per row of height difference between neighbouring columns (the well skipped).
    pub bumpiness: i32,
    /// Per squared row of that difference.
    pub bumpiness_sq: i32,
    /// Per filled/empty change along a row, walls included.
    pub row_transitions: i32,
    /// Per empty cell under the surface that no tuck can reach.
    pub cavity_cells: i32,
    /// Per squared count of those cells.
    pub cavity_cells_sq: i32,
    /// Per empty cell under an overhang that a tuck can still reach.
    pub overhang_cells: i32,
    /// Per squared count of those cells.
    pub overhang_cells_sq: i32,
    /// Per filled cell above a column's highest hole (at most 6 a column).
    pub covered_cells: i32,
    /// Per squared count of those cells.
    pub covered_cells_sq: i32,
    /// Per row of well depth (rows where every other column is filled).
    pub well_depth: i32,
    /// Well depth counted at most this deep.
    pub max_well_depth: i32,
    /// Bonus for the well being in each column.
    pub well_column: [i32; COLUMNS],
    /// Bonus for a T slot by the lines a T placed there would clear (0..=3). In the search a
    /// double slot counts twice while a T is in hold or still in the known queue.
    pub tslot: [i32; 4],
    /// Bonus while back-to-back is alive.
    pub back_to_back: i32,
    /// Per line of incoming garbage not yet risen.
    pub incoming: i32,

    /// Reward for plain clears of 0..=4 lines.
    pub clear: [i32; 5],
    /// Reward for full T-spin clears of 0..=3 lines.
    pub tspin: [i32; 4],
    /// Reward for T-spin mini clears of 0..=2 lines.
    pub mini: [i32; 3],
    /// Reward for a perfect clear.
    pub perfect_clear: i32,
    /// Reward for a clear that got the back-to-back bonus.
    pub b2b_clear: i32,
    /// Reward per line of combo bonus.
    pub combo_garbage: i32,
    /// Reward per line of attack (cancelling counts).
    pub attack: i32,
    /// Penalty for placing a T without a T-spin clear.
    pub wasted_t: i32,
    /// Per abstract move spent on a placement.
    pub move_cost: i32,
}

impl Weights {
    /// The weights every level plays with: cold-clear's standard weights, with `top_half`,
    /// `bumpiness` and `incoming` then tuned by coordinate descent on games against El-Tetris
    /// (crates/bot/examples/tune.rs).
    pub const DEFAULT: Weights = Weights {
        height: -39,
        top_half: -38,
        top_quarter: -511,
        bumpiness: -12,
        bumpiness_sq: -7,
        row_transitions: -5,
        cavity_cells: -173,
        cavity_cells_sq: -3,
        overhang_cells: -19,
        overhang_cells_sq: -1,
        covered_cells: -17,
        covered_cells_sq: -1,
        well_depth: 57,
        max_well_depth: 17,
        well_column: [20, 23, 20, 50, 59, 21, 59, 10, -10, 24],
        tslot: [8, 148, 252, 407],
        back_to_back: 52,
        incoming: -10,
        clear: [0, -143, -100, -58, 390],
        tspin: [0, 121, 410, 602],
        mini: [0, -158, -93],
        perfect_clear: 999,
        b2b_clear: 154,
        combo_garbage: 150,
        attack: 0,
        wasted_t: -152,
        move_cost: -3,
    };
}

impl Weights {
    /// A safer set for the shallow searches of the lowest levels: the height above row 10,
    /// bumpiness and queued garbage cost as much as in cold-clear, and a deep well is worth less,
    /// so a bot that cannot see far does not build a tower waiting for an I. It keeps the
    /// overhang, T-slot and back-to-back weights the default set had before they were retuned
    /// for Max (with the retuned ones Easy topped out on a solo seed). (With the default
    /// weights the Easy level topped out in 3 of 8 solo games of 2,000 pieces; with these, none.)
    pub const DEFENSIVE: Weights = Weights {
        top_half: -150,
        bumpiness: -24,
        incoming: -20,
        well_depth: 20,
        overhang_cells: -34,
        tslot: [8, 148, 192, 407],
        b2b_clear: 104,
        ..Weights::DEFAULT
    };
}

impl Default for Weights {
    fn default() -> Self {
        Weights::DEFAULT
    }
}

const FIELD: u64 = (1 << 40) - 1;

/// The static value of a board with back-to-back `b2b` alive and `incoming` garbage lines queued.
pub fn evaluate(board: &BitBoard, b2b: bool, incoming: u32, w: &Weights) -> i32 {
    evaluate_with(board, b2b, incoming, TSource::Unknown, w)
}

/// Where the next T is, as the search knows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TSource {
    /// Not known (no queue information).
    Unknown,
    /// In the hold slot.
    Hold,
    /// In the remaining known queue.
    Queue,
    /// Not among the known pieces.
    None,
}

/// [`evaluate`] knowing where the next T is: a T-spin double slot is worth twice its `tslot`
/// value while a T is in hold or still in the known queue (one that can actually be filled), and
/// the empty cells a T would fill in the best slot are not counted as holes, so building the
/// overhang of a slot is not punished as if it covered a hole.
pub(crate) fn evaluate_with(
    board: &BitBoard,
    b2b: bool,
    incoming: u32,
    t: TSource,
    w: &Weights,
) -> i32 {
    let mut v = 0;
    let h = board.heights();
    let slot = best_tslot(board, &h);
    if let Some((_, lines)) = slot {
        let base = w.tslot[usize::from(lines)];
        v += base;
        if lines >= 2 && matches!(t, TSource::Hold | TSource::Queue) {
            v += base;
        }
    }
    // The cells a T would fill in a slot that clears lines are not holes.
    let slot_cells: [u64; COLUMNS] = match slot {
        Some((p, l)) if l >= 1 => {
            let mut m = [0u64; COLUMNS];
            for (cx, cy) in p.cells() {
                m[cx as usize] |= 1u64 << cy;
            }
            m
        }
        _ => [0; COLUMNS],
    };
    let max_h = i32::from(*h.iter().max().unwrap_or(&0));
    if b2b {
        v += w.back_to_back;
    }
    let effective = max_h + incoming.min(20) as i32;
    v += w.height * max_h;
    v += w.top_half * (effective - 10).max(0);
    v += w.top_quarter * (effective - 15).max(0);
    v += w.incoming * incoming.min(20) as i32;

    // The well: the lowest column (the rightmost of equals), and the rows above it where every
    // other column is filled.
    let mut well = 0;
    for x in 1..COLUMNS {
        if h[x] <= h[well] {
            well = x;
        }
    }
    let others = board
        .cols
        .iter()
        .enumerate()
        .filter(|&(x, _)| x != well)
        .fold(FIELD, |a, (_, &c)| a & c);
    let depth = ((others >> h[well]).trailing_ones() as i32).min(w.max_well_depth);
    v += w.well_depth * depth;
    if depth > 0 {
        v += w.well_column[well];
    }

    // Bumpiness over the columns but the well, comparing across it.
    let mut bump = 0;
    let mut bump_sq = 0;
    let mut prev: Option<i8> = None;
    for (x, &hx) in h.iter().enumerate() {
        if x == well {
            continue;
        }
        if let Some(p) = prev {
            let d = i32::from((p - hx).abs());
            bump += d;
            bump_sq += d * d;
        }
        prev = Some(hx);
    }
    v += w.bumpiness * bump + w.bumpiness_sq * bump_sq;

    // Holes: cavities (closed) and overhangs (open to the side), and cells covering them.
    let mut cavities = 0;
    let mut overhangs = 0;
    let mut covered = 0;
    for x in 0..COLUMNS {
        let col = board.cols[x];
        let below_top = (1u64 << h[x]) - 1;
        let empty = !col & below_top & !slot_cells[x];
        if empty == 0 {
            continue;
        }
        let open = |n: usize| !((1u64 << h[n]) - 1);
        let mut side_open = 0;
        if x > 0 {
            side_open |= open(x - 1);
        }
        if x + 1 < COLUMNS {
            side_open |= open(x + 1);
        }
        let over = empty & side_open;
        overhangs += over.count_ones() as i32;
        cavities += (empty & !over).count_ones() as i32;
        let top_hole = 63 - empty.leading_zeros();
        covered += (col >> (top_hole + 1)).count_ones().min(6) as i32;
    }
    v += w.cavity_cells * cavities + w.cavity_cells_sq * cavities * cavities;
    v += w.overhang_cells * overhangs + w.overhang_cells_sq * overhangs * overhangs;
    v += w.covered_cells * covered + w.covered_cells_sq * covered * covered;

    // Row transitions, walls counting as filled, over the rows in use.
    let rows = (1u64 << max_h) - 1;
    let mut transitions =
        (!board.cols[0] & rows).count_ones() + (!board.cols[9] & rows).count_ones();
    for x in 0..COLUMNS - 1 {
        transitions += ((board.cols[x] ^ board.cols[x + 1]) & rows).count_ones();
    }
    v += w.row_transitions * transitions as i32;
    v
}

/// The best T slot on the surface: the T that would fill it and the lines it would clear.
///
/// A slot is a T pointing down (state 2) whose stem rests on top of column x, with both bottom
/// corners filled, one top corner filled (the overhang) and the other side open to the sky so a
/// T can come down and rotate in. (Recognising triple slots and scoring the board after a
/// virtual T-spin, as cold-clear does, both measured weaker against El-Tetris here.)
pub fn best_tslot(board: &BitBoard, h: &[i8; COLUMNS]) -> Option<(Piece, u8)> {
    let mut best: Option<(Piece, u8)> = None;
    let occ = |cx: i8, cy: i8| board.occupied(cx, cy);
    let full_row = (1u16 << COLUMNS) - 1;
    let lines_of = |t: &Piece| {
        let mut rows = [0u16; 3];
        let base = t.y - 1;
        for (i, r) in rows.iter_mut().enumerate() {
            *r = board.row(base + i as i8);
        }
        for (cx, cy) in t.cells() {
            rows[(cy - base) as usize] |= 1 << cx;
        }
        rows.iter().filter(|&&r| r == full_row).count() as u8
    };
    let consider = |t: Piece, best: &mut Option<(Piece, u8)>| {
        let lines = lines_of(&t);
        if best.is_none_or(|(_, b)| lines > b) {
            *best = Some((t, lines));
        }
    };
    for x in 0..COLUMNS as i8 {
        let hx = h[x as usize];
        if hx + 4 >= 40 {
            continue;
        }
        if (1..COLUMNS as i8 - 1).contains(&x) {
            let y = hx + 1;
            let (l, r) = (x - 1, x + 1);
            if occ(l, y - 1) && occ(r, y - 1) && !occ(l, y) && !occ(r, y) {
                let open = match (occ(l, y + 1), occ(r, y + 1)) {
                    (true, false) => Some(r),
                    (false, true) => Some(l),
                    _ => None,
                };
                if let Some(o) = open
                    && h[o as usize] == y
                {
                    let t = Piece {
                        kind: PieceKind::T,
                        rotation: Rotation::Flip,
                        x,
                        y,
                    };
                    consider(t, &mut best);
                }
            }
        }
    }
    best
}

/// The reward for one lock of `kind` that cleared `clear` and produced `attack`.
pub fn reward(kind: PieceKind, clear: &Clear, attack: &AttackResult, w: &Weights) -> i32 {
    let mut r = 0;
    let lines = usize::from(clear.lines.min(4));
    if clear.perfect {
        r += w.perfect_clear;
    }
    r += match clear.spin {
        Spin::None => w.clear[lines],
        Spin::Full => w.tspin[lines.min(3)],
        Spin::Mini => w.mini[lines.min(2)],
    };
    if attack.b2b_bonus {
        r += w.b2b_clear;
    }
    if let Some(c) = attack.combo {
        r += w.combo_garbage * i32::from(COMBO_TABLE[usize::from(c.min(10))]);
    }
    r += w.attack * i32::from(attack.lines);
    if kind == PieceKind::T && !(clear.lines > 0 && clear.spin != Spin::None) {
        r += w.wasted_t;
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holes_cost_more_than_a_flat_board() {
        let flat = BitBoard::from_rows(&["#########.", "#########."]);
        let holed = BitBoard::from_rows(&["#########.", "####.####."]);
        let w = Weights::DEFAULT;
        assert!(evaluate(&flat, false, 0, &w) > evaluate(&holed, false, 0, &w));
    }

    #[test]
    fn a_tsd_slot_is_seen() {
        let board = BitBoard::from_rows(&["##........", "#...######", "##.#######"]);
        let h = board.heights();
        assert_eq!(best_tslot(&board, &h).map(|(_, lines)| lines), Some(2));
    }

    #[test]
    fn a_tsd_slot_is_worth_more_with_a_t_to_come() {
        let board = BitBoard::from_rows(&["##........", "#...######", "##.#######"]);
        let w = Weights::DEFAULT;
        let with_t = evaluate_with(&board, false, 0, TSource::Queue, &w);
        let without = evaluate_with(&board, false, 0, TSource::None, &w);
        assert_eq!(with_t - without, w.tslot[2]);
    }
}
