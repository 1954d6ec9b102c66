//! Drawing the fixed-sequence challenge: its 10×20 board (y down), the brick in play, the
//! one-brick preview and the score panel, with the game's own bevelled blocks and well.

use macroquad::prelude::*;
use sevenbag_challenge::rules::HEIGHT;
use sevenbag_challenge::{Brick, Game, Kind, MAX_BRICKS, Piece};
use sevenbag_core::PieceKind;

use crate::render::cells::{Style, block, piece_block};
use crate::render::gfx::{Align, Gfx, Weight, panel};
use crate::render::look;
use crate::render::theme;

/// The piece kind a challenge brick kind is drawn as.
fn piece_kind(kind: Kind) -> PieceKind {
    match kind {
        Kind::I => PieceKind::I,
        Kind::L => PieceKind::L,
        Kind::J => PieceKind::J,
        Kind::T => PieceKind::T,
        Kind::O => PieceKind::O,
        Kind::S => PieceKind::S,
        Kind::Z => PieceKind::Z,
    }
}

/// Where things go on screen.
pub struct ChallengeLayout {
    /// The well.
    pub well: Rect,
    /// Side of one cell.
    pub cell: f32,
    /// The panel right of the well (preview and figures).
    pub side: Rect,
    /// Text size unit.
    pub unit: f32,
}

impl ChallengeLayout {
    /// A layout for a window of `w`×`h` logical pixels.
    pub fn new(w: f32, h: f32) -> ChallengeLayout {
        let unit = (h / 24.0).clamp(12.0, 48.0);
        let cell = ((h - unit * 4.0) / HEIGHT as f32)
            .min(w * 0.45 / 10.0)
            .floor()
            .max(6.0);
        let well_w = cell * 10.0;
        let side_w = (cell * 7.0).min(w - well_w - unit * 3.0).max(cell * 4.0);
        let left = ((w - well_w - side_w - unit) / 2.0).round().max(unit);
        let top = (unit * 2.5).round();
        ChallengeLayout {
            well: Rect::new(left, top, well_w, cell * HEIGHT as f32),
            cell,
            side: Rect::new(left + well_w + unit, top, side_w, cell * HEIGHT as f32),
            unit,
        }
    }
}

/// Draws the well, its locked cells and the brick in play.
pub fn draw_well(l: &ChallengeLayout, game: &Game) {
    let r = l.well;
    let c = l.cell;
    draw_rectangle(r.x - 3.0, r.y, r.w + 6.0, r.h + 3.0, theme::FRAME);
    draw_rectangle(r.x, r.y, r.w, r.h, look::well());
    for x in 1..10 {
        draw_rectangle(r.x + x as f32 * c, r.y, 1.0, r.h, theme::GRID);
    }
    for y in 1..HEIGHT {
        draw_rectangle(r.x, r.y + y as f32 * c, r.w, 1.0, theme::GRID);
    }
    let over = game.ended.is_some();
    for (y, row) in game.kinds.iter().enumerate() {
        for (x, cell) in row.iter().enumerate() {
            let filled = game.board.rows[y] >> x & 1 == 1;
            if !filled {
                continue;
            }
            let style = if over { Style::Dim } else { Style::Solid };
            let (px, py) = (r.x + x as f32 * c, r.y + y as f32 * c);
            match cell {
                Some(kind) => piece_block(px, py, c, piece_kind(*kind), style),
                None => block(px, py, c, theme::GARBAGE, style),
            }
        }
    }
    if let Some(p) = game.piece {
        draw_piece(r, c, &p);
    }
}

fn draw_piece(r: Rect, c: f32, p: &Piece) {
    for (x, y) in p.cells() {
        if y >= 0 {
            piece_block(
                r.x + x as f32 * c,
                r.y + y as f32 * c,
                c,
                piece_kind(p.kind),
                Style::Solid,
            );
        }
    }
}

/// Draws a brick in its starting state centred in `r`.
fn draw_preview(r: Rect, c: f32, brick: Brick) {
    let cells = brick.kind.cells(brick.state);
    let (min_x, max_x) = cells
        .iter()
        .fold((i8::MAX, i8::MIN), |(a, b), &(x, _)| (a.min(x), b.max(x)));
    let (min_y, max_y) = cells
        .iter()
        .fold((i8::MAX, i8::MIN), |(a, b), &(_, y)| (a.min(y), b.max(y)));
    let w = f32::from(max_x - min_x + 1) * c;
    let h = f32::from(max_y - min_y + 1) * c;
    let left = (r.x + (r.w - w) / 2.0).round();
    let top = (r.y + (r.h - h) / 2.0).round();
    for (x, y) in cells {
        let px = left + f32::from(x - min_x) * c;
        let py = top + f32::from(y - min_y) * c;
        piece_block(px, py, c, piece_kind(brick.kind), Style::Solid);
    }
}

/// Draws the side panel: the next brick, then `lines` of (label, value).
pub fn draw_side(gfx: &Gfx, l: &ChallengeLayout, game: &Game, lines: &[(&str, String)]) {
    let u = l.unit;
    let next = Rect::new(l.side.x, l.side.y, l.side.w, l.cell * 5.0);
    panel(gfx, next, Some("NEXT"), u);
    if game.spawned < MAX_BRICKS && game.ended.is_none() {
        let inner = Rect::new(next.x, next.y + u, next.w, next.h - u);
        draw_preview(inner, l.cell * 0.8, game.preview());
    }
    let mut y = next.bottom() + u * 1.6;
    let mut figures: Vec<(&str, String)> = vec![
        ("SCORE", group_digits(game.score)),
        ("BRICK", format!("{} / {MAX_BRICKS}", game.spawned)),
        ("LINES", game.lines.to_string()),
        (
            "CLEARS 1·2·3·4",
            format!(
                "{} · {} · {} · {}",
                game.clears[1], game.clears[2], game.clears[3], game.clears[4]
            ),
        ),
    ];
    figures.extend(lines.iter().cloned());
    for (label, value) in figures {
        gfx.text(
            label,
            l.side.x,
            y,
            u * 0.55,
            Weight::Bold,
            Align::Left,
            theme::TEXT_FAINT,
        );
        y += u * 1.1;
        gfx.text(
            &value,
            l.side.x,
            y,
            u * 0.95,
            Weight::Bold,
            Align::Left,
            theme::TEXT,
        );
        y += u * 1.2;
    }
    if let Some(end) = game.ended {
        gfx.text(
            &format!("Game over: {end}"),
            l.well.x,
            l.well.bottom() + u * 1.2,
            u * 0.6,
            Weight::Regular,
            Align::Left,
            theme::BAD,
        );
    }
}

/// 1395326 → "1,395,326".
pub fn group_digits(v: u64) -> String {
    let s = v.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::group_digits;

    #[test]
    fn digits_are_grouped_by_thousands() {
        assert_eq!(group_digits(0), "0");
        assert_eq!(group_digits(999), "999");
        assert_eq!(group_digits(1_395_326), "1,395,326");
    }
}
