//! A small well under the skin rows' help: every piece, a ghost and a row of garbage drawn
//! with the skin in force, so a skin is seen on a board before Save keeps it (Discard puts the
//! saved one back).

use macroquad::prelude::Rect;
use sevenbag_core::{CellKind, PieceKind};

use crate::render::cells::{Style, cell_block_joined, piece_picture, sides_where};
use crate::render::gfx::{fill, outline};
use crate::render::theme::{self, alpha};

/// Columns of the sample well.
const COLUMNS: usize = 10;

/// The well's garbage row: a hole in the seventh column.
const HOLE: usize = 6;

/// The height the preview takes at `unit` (a row of pieces, a ghost, a garbage row).
pub fn height(unit: f32) -> f32 {
    unit * 7.0
}

/// Draws the preview in `r` (as wide as the help panel above it).
pub fn draw(r: Rect, unit: f32) {
    fill(r, crate::render::look::well());
    outline(r, 1.0, alpha(theme::FRAME, 0.6));
    let pad = unit * 0.6;
    // Seven pieces side by side take about 26 cells with their gaps.
    let s = ((r.w - 2.0 * pad) / 26.0).min(unit * 0.9).floor().max(2.0);
    let step = (r.w - 2.0 * pad) / PieceKind::ALL.len() as f32;
    let top = r.y + pad + s;
    for (i, kind) in PieceKind::ALL.into_iter().enumerate() {
        let cx = r.x + pad + step * (i as f32 + 0.5);
        piece_picture(kind, cx, top, s, Style::Solid);
    }
    // A T's ghost over the hole, then the garbage row.
    let left = r.x + (r.w - s * COLUMNS as f32) / 2.0;
    let floor = r.bottom() - pad - s;
    piece_picture(
        PieceKind::T,
        left + s * (HOLE as f32 + 0.5),
        floor - s * 1.5,
        s,
        Style::Ghost,
    );
    let garbage = |x: i8, y: i8| y == 0 && x >= 0 && (x as usize) < COLUMNS && x as usize != HOLE;
    for x in (0..COLUMNS).filter(|&x| x != HOLE) {
        let joined = sides_where(x as i8, 0, garbage);
        cell_block_joined(
            left + s * x as f32,
            floor,
            s,
            CellKind::Garbage,
            Style::Solid,
            joined,
        );
    }
}
