//! The El-Tetris baseline: Pierre Dellacherie's six features with Islam El-Ashi's weights, one
//! piece at a time, no hold, no look-ahead, no spins: the yardstick the real bot is measured on.
//!
//! Features of the board after the piece locks and lines clear: landing height (middle row of
//! the piece), eroded piece cells (lines cleared × the piece's cells in them), row transitions,
//! column transitions, holes, and well sums (1 + 2 + … + depth per well). The published weights
//! are real numbers; here they are scaled by 1000 to integers, which does not change any choice
//! that matters.

use sevenbag_core::{Piece, PieceKind, Rotation, Spin};

use crate::bitboard::{BitBoard, COLUMNS};
use crate::movegen::{Placement, cells_key};

const LANDING_HEIGHT: i64 = -4500;
const ERODED_CELLS: i64 = 3418;
const ROW_TRANSITIONS: i64 = -3218;
const COLUMN_TRANSITIONS: i64 = -9349;
const HOLES: i64 = -7899;
const WELL_SUMS: i64 = -3386;

const FIELD: u64 = (1 << 40) - 1;

/// The El-Tetris score of locking `piece` on `board` (higher is better).
pub fn score(board: &BitBoard, piece: &Piece) -> i64 {
    let mut after = *board;
    after.place(piece);
    let full = after.full_rows();
    let cells = piece.cells();
    let eroded = cells.iter().filter(|&&(_, y)| full >> y & 1 == 1).count() as i64
        * i64::from(full.count_ones());
    after.clear_lines();
    let (lo, hi) = cells.iter().fold((i8::MAX, i8::MIN), |(lo, hi), &(_, y)| {
        (lo.min(y), hi.max(y))
    });
    // Landing height in half rows: (lowest + highest) / 2, doubled to stay whole.
    let landing2 = i64::from(lo) + i64::from(hi);

    let mut row_t = (!after.cols[0] & FIELD).count_ones() + (!after.cols[9] & FIELD).count_ones();
    for x in 0..COLUMNS - 1 {
        row_t += ((after.cols[x] ^ after.cols[x + 1]) & FIELD).count_ones();
    }
    let mut col_t = 0;
    let mut holes = 0;
    let mut wells = 0i64;
    for x in 0..COLUMNS {
        let c = after.cols[x];
        // Floor below row 0 counts as filled, the space above row 39 as empty.
        col_t += ((c ^ (c << 1 | 1)) & FIELD).count_ones();
        let h = after.height(x);
        holes += (!c & ((1u64 << h) - 1)).count_ones();
        let left = if x == 0 { FIELD } else { after.cols[x - 1] };
        let right = if x == COLUMNS - 1 {
            FIELD
        } else {
            after.cols[x + 1]
        };
        let well_cells = !c & left & right & FIELD;
        let mut run = 0i64;
        for y in (0..40).rev() {
            if well_cells >> y & 1 == 1 {
                run += 1;
                wells += run;
            } else {
                run = 0;
            }
        }
    }
    LANDING_HEIGHT * landing2 / 2
        + ERODED_CELLS * eroded
        + ROW_TRANSITIONS * i64::from(row_t)
        + COLUMN_TRANSITIONS * i64::from(col_t)
        + HOLES * i64::from(holes)
        + WELL_SUMS * wells
}

/// Every hard-drop placement of `kind` (each rotation and column, dropped from the top), best
/// El-Tetris score first. Ties keep the lower rotation and column.
pub fn rank(board: &BitBoard, start: &Piece) -> Vec<Placement> {
    let mut scored: Vec<(i64, Placement)> = Vec::new();
    let kind: PieceKind = start.kind;
    for rotation in Rotation::ALL {
        for x in 0..COLUMNS as i8 {
            let top = Piece {
                kind,
                rotation,
                x,
                y: start.y,
            };
            if board.collides_piece(&top) {
                continue;
            }
            let piece = board.drop_position(&top);
            if scored
                .iter()
                .any(|(_, p)| cells_key(&p.piece) == cells_key(&piece))
            {
                continue;
            }
            let placement = Placement {
                piece,
                spin: Spin::None,
                hold: false,
                moves: 0,
            };
            scored.push((score(board, &piece), placement));
        }
    }
    scored.sort_by_key(|&(s, _)| std::cmp::Reverse(s));
    scored.into_iter().map(|(_, p)| p).collect()
}
