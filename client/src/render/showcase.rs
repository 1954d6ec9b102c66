//! A small decorative well for the menus: a stack with a T-spin double slot and a T piece
//! hovering over it, its ghost already in place.

use macroquad::prelude::*;
use sevenbag_core::{Board, PieceKind};

use super::cells::{Style, block};
use super::theme::{self, alpha};

const ROWS: i8 = 9;

/// Draws the showcase well centred in `r`, if `r` is big enough for it.
pub fn draw_showcase(r: Rect, unit: f32, time: f32) {
    let cell = (r.h / (f32::from(ROWS) + 1.0))
        .min(unit * 1.3)
        .min(r.w / 12.0)
        .floor();
    if cell < 8.0 {
        return;
    }
    let board = Board::from_rows(&["IIII......", "OOO...SSJJ", "JJJZ.LLLOO", "JZZ.GLLLOO"]);
    let w = 10.0 * cell;
    let h = f32::from(ROWS) * cell;
    let x0 = (r.x + (r.w - w) / 2.0).round();
    let y0 = (r.y + (r.h - h) / 2.0).round();
    draw_rectangle(x0, y0, w, h, alpha(theme::WELL, 0.85));
    let t = (cell * 0.12).max(2.0);
    draw_rectangle(x0 - t, y0, t, h + t, theme::FRAME);
    draw_rectangle(x0 + w, y0, t, h + t, theme::FRAME);
    draw_rectangle(x0 - t, y0 + h, w + 2.0 * t, t, theme::FRAME);
    let pos = |x: i8, y: i8| (x0 + f32::from(x) * cell, y0 + h - f32::from(y + 1) * cell);
    for y in 0..ROWS {
        for x in 0..10 {
            if let Some(kind) = board.cell(x, y) {
                let (px, py) = pos(x, y);
                block(px, py, cell, theme::cell_fill(kind), Style::Solid);
            }
        }
    }
    // The T, pointing down, bobbing above its slot; the ghost waits in the slot.
    let slot = [(3, 2), (4, 2), (5, 2), (4, 1)];
    let colour = theme::piece_colour(PieceKind::T);
    for (x, y) in slot {
        let (px, py) = pos(x, y);
        block(px, py, cell, colour, Style::Ghost);
    }
    let bob = ((time * 2.2).sin() * 0.18 * cell).round();
    for (x, y) in slot {
        let (px, py) = pos(x, y + 5);
        block(px, py + bob, cell, colour, Style::Solid);
    }
}
