//! One well: grid, locked cells, ghost, falling piece, and the flashes of clears and drops.

use macroquad::prelude::*;
use sevenbag_core::{CellKind, Piece, Player, VISIBLE_HEIGHT, WIDTH};

use super::cells::{Style, cell_block_joined, joined_sides, piece_block_joined, sides_where};
use super::look;
use super::skin;
use super::theme::{self, alpha, mix};
use crate::render::fx::{ROW_FLASH, SeatFx};

/// Rows above the visible field that are still drawn (a freshly spawned piece pokes into them).
const OVERFLOW_ROWS: i8 = 3;

/// Screen position of the top-left corner of board cell `(x, y)` in the well `r`.
fn cell_pos(r: Rect, cell: f32, x: i8, y: i8) -> (f32, f32) {
    (
        r.x + f32::from(x) * cell,
        r.bottom() - f32::from(y + 1) * cell,
    )
}

/// Fills `outer` except `inner` (which lies inside it) with `c`, as four rectangles.
fn ring(outer: Rect, inner: Rect, c: Color) {
    draw_rectangle(outer.x, outer.y, outer.w, inner.y - outer.y, c);
    draw_rectangle(
        outer.x,
        inner.bottom(),
        outer.w,
        outer.bottom() - inner.bottom(),
        c,
    );
    draw_rectangle(outer.x, inner.y, inner.x - outer.x, inner.h, c);
    draw_rectangle(
        inner.right(),
        inner.y,
        outer.right() - inner.right(),
        inner.h,
        c,
    );
}

/// Draws the well of `player` in `r` (cells of side `cell`).
pub fn draw_board(r: Rect, cell: f32, player: &Player, fx: &SeatFx, time: f32) {
    draw_rectangle(r.x, r.y, r.w, r.h, look::well());
    draw_board_on_fill(r, cell, player, fx, time);
}

/// [`draw_board`] over a well whose fill the background already drew
/// ([`super::gfx::background_with`]).
pub fn draw_board_on_fill(r: Rect, cell: f32, player: &Player, fx: &SeatFx, time: f32) {
    let look = look::get();
    let board = player.board();
    let dead = player.topped_out().is_some();
    let danger = (f32::from(board.stack_height()) - 13.0).clamp(0.0, 5.0) / 5.0;

    // A soft shadow around the well, then the well and its faint grid. Each shadow layer is
    // drawn as a ring around the well only: the opaque well covers the inside anyway, and under
    // software rendering those hidden translucent pixels were most of a frame's cost.
    for i in 1..=4 {
        let g = cell * 0.12 * i as f32;
        let outer = Rect::new(r.x - g, r.y - g * 0.5, r.w + 2.0 * g, r.h + g * 1.5);
        ring(outer, r, alpha(BLACK, 0.07));
    }
    let grid = if look.high_contrast {
        theme::GRID_STRONG
    } else {
        theme::GRID
    };
    for x in 1..WIDTH {
        let gx = r.x + f32::from(x) * cell;
        draw_rectangle(gx, r.y, 1.0, r.h, grid);
    }
    for y in 1..VISIBLE_HEIGHT {
        let gy = r.y + f32::from(y) * cell;
        draw_rectangle(r.x, gy, r.w, 1.0, grid);
    }
    // The frame: open at the top, glowing red as the stack nears the ceiling (steadily, with
    // reduced motion); white in high contrast.
    let pulse = if look.reduced_motion {
        1.0
    } else {
        0.5 + 0.5 * (time * 6.0).sin()
    };
    let base = if look.high_contrast {
        theme::TEXT
    } else {
        theme::FRAME
    };
    let frame = mix(base, theme::BAD, danger * (0.6 + 0.4 * pulse));
    let t = (cell * 0.14).round().max(2.0);
    draw_rectangle(r.x - t, r.y, t, r.h + t, frame);
    draw_rectangle(r.right(), r.y, t, r.h + t, frame);
    draw_rectangle(r.x - t, r.bottom(), r.w + 2.0 * t, t, frame);
    if danger > 0.0 {
        draw_rectangle(
            r.x,
            r.y,
            r.w,
            cell * 2.0,
            alpha(theme::BAD, 0.10 * danger * pulse),
        );
    }

    // Locked cells, including the few rows above the visible field. A connected skin joins
    // each to the drawn cells of the same kind beside it: the board keeps no piece identity,
    // so two touching pieces of one kind draw as one shape. Garbage joins along its row only,
    // so its rows can still be counted.
    let style = if dead { Style::Dim } else { Style::Solid };
    let connects = skin::connects();
    let top = VISIBLE_HEIGHT + OVERFLOW_ROWS;
    for y in 0..top {
        for x in 0..WIDTH {
            let (px, py) = cell_pos(r, cell, x, y);
            if let Some(kind) = board.cell(x, y) {
                let joined = if connects {
                    sides_where(x, y, |nx, ny| {
                        (0..WIDTH).contains(&nx)
                            && (0..top).contains(&ny)
                            && (ny == y || kind != CellKind::Garbage)
                            && board.cell(nx, ny) == Some(kind)
                    })
                } else {
                    0
                };
                cell_block_joined(px, py, cell, kind, style, joined);
            }
        }
    }

    // Hard-drop trail, under the pieces.
    if let Some((from, to, age)) = fx.trail.filter(|_| !look.reduced_motion) {
        draw_trail(r, cell, &from, &to, 1.0 - age / 0.2);
    }

    // Ghost, then the falling piece on top of it.
    if let (Some(active), Some(ghost)) = (player.active(), player.ghost()) {
        if ghost != active {
            let cells = ghost.cells();
            for (x, y) in cells {
                if y < VISIBLE_HEIGHT + OVERFLOW_ROWS {
                    let (px, py) = cell_pos(r, cell, x, y);
                    let joined = joined_sides(&cells, x, y);
                    piece_block_joined(px, py, cell, active.kind, Style::Ghost, joined);
                }
            }
        }
        let cells = active.cells();
        for (x, y) in cells {
            if y < VISIBLE_HEIGHT + OVERFLOW_ROWS {
                let (px, py) = cell_pos(r, cell, x, y);
                let joined = joined_sides(&cells, x, y);
                piece_block_joined(px, py, cell, active.kind, Style::Solid, joined);
            }
        }
    }

    // A brief white flash on the piece that just locked.
    if let Some((piece, age)) = fx.lock.filter(|_| !look.reduced_motion) {
        let a = (1.0 - age / 0.15).max(0.0) * 0.45;
        for (x, y) in piece.cells() {
            if y < VISIBLE_HEIGHT + OVERFLOW_ROWS {
                let (px, py) = cell_pos(r, cell, x, y);
                draw_rectangle(px, py, cell, cell, alpha(WHITE, a));
            }
        }
    }

    // Cleared rows: a bright bar that fades and thins out.
    for &(y, age) in &fx.rows {
        if y >= VISIBLE_HEIGHT || look.reduced_motion {
            continue;
        }
        let k = (age / ROW_FLASH).clamp(0.0, 1.0);
        let (_, py) = cell_pos(r, cell, 0, y);
        let h = cell * (1.0 - 0.7 * k);
        let grow = cell * 0.4 * k;
        draw_rectangle(
            r.x - grow,
            py + (cell - h) / 2.0,
            r.w + 2.0 * grow,
            h,
            alpha(WHITE, 0.85 * (1.0 - k)),
        );
    }

    if dead {
        draw_rectangle(r.x, r.y, r.w, r.h, alpha(BLACK, 0.35));
    }
}

fn draw_trail(r: Rect, cell: f32, from: &Piece, to: &Piece, strength: f32) {
    if strength <= 0.0 || from.y <= to.y {
        return;
    }
    let colour = look::piece_colour(to.kind);
    let dy = from.y - to.y;
    for (x, y) in to.cells() {
        // Only the top cell of each column leaves a streak.
        if to.cells().iter().any(|&(ox, oy)| ox == x && oy > y) {
            continue;
        }
        let top = (y + dy).min(VISIBLE_HEIGHT - 1);
        let (px, py_top) = cell_pos(r, cell, x, top);
        let (_, py_land) = cell_pos(r, cell, x, y);
        let steps = 8;
        let h = py_land - py_top;
        for i in 0..steps {
            let k = i as f32 / steps as f32;
            let a = strength * 0.28 * k;
            draw_rectangle(
                px + cell * 0.1,
                py_top + h * k,
                cell * 0.8,
                h / steps as f32 + 1.0,
                alpha(colour, a),
            );
        }
    }
}
