//! One board cell and small piece pictures: the bevelled block every view is built from, or
//! the tile of the block skin in force ([`super::skin`]).

use macroquad::prelude::*;
use sevenbag_core::{CellKind, PieceKind, Rotation};
use sevenbag_skin::layout::{DOWN, LEFT, RIGHT, UP};

use super::look::{self, letter};
use super::skin::{self, Mino};
use super::theme::{self, alpha, mix, rgb};

/// How a block is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// A locked or falling block: flat fill with a light top-left and a dark bottom-right edge.
    Solid,
    /// The ghost: a translucent tint with a bright outline.
    Ghost,
    /// A block on a board that has topped out, or a used hold piece: grey and dark.
    Dim,
}

/// Draws one block of colour `c` with its top-left corner at `(x, y)` and side `s`.
pub fn block(x: f32, y: f32, s: f32, c: Color, style: Style) {
    match style {
        Style::Solid => {
            let edge = (s * 0.13).round().max(1.0);
            if c.a >= 1.0 {
                // Opaque: only the centre, so no pixel is filled twice (under software
                // rendering every pixel filled costs). The picture is the same.
                draw_rectangle(x + edge, y + edge, s - 2.0 * edge, s - 2.0 * edge, c);
            } else {
                // Translucent (the menu backdrop): the edges lie over the fill, as they always
                // did, so they read a little stronger.
                draw_rectangle(x, y, s, s, c);
            }
            // Top and left: lit. Bottom and right: shaded. The centre keeps the flat colour.
            draw_rectangle(x, y, s, edge, mix(c, WHITE, 0.38));
            draw_rectangle(x, y + edge, edge, s - edge, mix(c, WHITE, 0.2));
            draw_rectangle(x + edge, y + s - edge, s - edge, edge, mix(c, BLACK, 0.35));
            draw_rectangle(
                x + s - edge,
                y + edge,
                edge,
                s - 2.0 * edge,
                mix(c, BLACK, 0.22),
            );
        }
        Style::Ghost => {
            // Lifted toward white so dark colours (J, T) still read on the black well; in high
            // contrast the outline is brighter and thicker.
            let strong = look::get().high_contrast;
            let t = (s * if strong { 0.12 } else { 0.08 }).round().max(1.0);
            let lit = mix(c, WHITE, if strong { 0.5 } else { 0.3 });
            draw_rectangle(x, y, s, s, alpha(c, if strong { 0.3 } else { 0.18 }));
            draw_rectangle_lines(
                x + t / 2.0,
                y + t / 2.0,
                s - t,
                s - t,
                t * 2.0,
                alpha(lit, if strong { 1.0 } else { 0.7 }),
            );
        }
        Style::Dim => {
            let grey = mix(c, theme::GARBAGE, 0.75);
            block(x, y, s, mix(grey, BLACK, 0.45), Style::Solid);
        }
    }
}

/// Draws a piece of `kind` in spawn orientation centred on `(cx, cy)` with blocks of side `s`.
pub fn piece_picture(kind: PieceKind, cx: f32, cy: f32, s: f32, style: Style) {
    let cells = kind.cells(Rotation::Spawn);
    let (min_x, max_x) = cells.iter().fold((i8::MAX, i8::MIN), |(lo, hi), &(x, _)| {
        (lo.min(x), hi.max(x))
    });
    let (min_y, max_y) = cells.iter().fold((i8::MAX, i8::MIN), |(lo, hi), &(_, y)| {
        (lo.min(y), hi.max(y))
    });
    let w = f32::from(max_x - min_x + 1) * s;
    let h = f32::from(max_y - min_y + 1) * s;
    let left = (cx - w / 2.0).round();
    let top = (cy - h / 2.0).round();
    for (x, y) in cells {
        let px = left + f32::from(x - min_x) * s;
        // y grows up in the rules, down on screen.
        let py = top + f32::from(max_y - y) * s;
        piece_block_joined(px, py, s, kind, style, joined_sides(&cells, x, y));
    }
}

/// The sides of the block at `(x, y)` (rules coordinates, y up) that touch another of `cells`:
/// how a connected skin joins the blocks of one piece.
pub fn joined_sides(cells: &[(i8, i8)], x: i8, y: i8) -> u8 {
    sides_where(x, y, |nx, ny| cells.contains(&(nx, ny)))
}

/// The sides of the block at `(x, y)` (rules coordinates, y up) whose neighbour `same` accepts,
/// as [`UP`] | [`RIGHT`] | [`DOWN`] | [`LEFT`] (screen directions).
pub fn sides_where(x: i8, y: i8, same: impl Fn(i8, i8) -> bool) -> u8 {
    let mut joined = 0;
    for (dx, dy, side) in [(0, 1, UP), (1, 0, RIGHT), (0, -1, DOWN), (-1, 0, LEFT)] {
        if same(x + dx, y + dy) {
            joined |= side;
        }
    }
    joined
}

/// Draws one board cell: a piece's block ([`piece_block`]) or garbage, from the skin in force
/// or as the flat garbage block, joined to the blocks beside it on the sides in `joined` where
/// the skin in force is connected.
pub fn cell_block_joined(x: f32, y: f32, s: f32, kind: CellKind, style: Style, joined: u8) {
    match kind {
        CellKind::Piece(kind) => piece_block_joined(x, y, s, kind, style, joined),
        CellKind::Garbage => {
            if skinned(x, y, s, Mino::Garbage, joined, theme::GARBAGE, style).is_none() {
                block(x, y, s, theme::cell_fill(kind), style);
            }
        }
    }
}

/// Draws a block from the skin in force in `style` (the ghost translucent and tinted toward
/// `colour`, a dim block greyed), joined on the sides in `joined` where the skin is
/// connected, returning its tile's average colour; `None` without a skin.
fn skinned(
    x: f32,
    y: f32,
    s: f32,
    mino: Mino,
    joined: u8,
    colour: Color,
    style: Style,
) -> Option<Color> {
    if !skin::active() {
        return None;
    }
    let mean = match style {
        Style::Solid => skin::draw(x, y, s, mino, joined, WHITE)?,
        Style::Ghost => {
            let strong = look::get().high_contrast;
            let tint = alpha(mix(colour, WHITE, 0.55), if strong { 0.85 } else { 0.7 });
            let mean = skin::draw(x, y, s, Mino::Ghost, joined, tint)?;
            if strong {
                let t = (s * 0.12).round().max(1.0);
                let lit = mix(colour, WHITE, 0.5);
                draw_rectangle_lines(x + t / 2.0, y + t / 2.0, s - t, s - t, t * 2.0, lit);
            }
            mean
        }
        Style::Dim => {
            let mean = skin::draw(x, y, s, mino, joined, Color::new(0.55, 0.55, 0.55, 1.0))?;
            draw_rectangle(x, y, s, s, alpha(mix(theme::GARBAGE, BLACK, 0.45), 0.6));
            mean
        }
    };
    let [r, g, b] = mean;
    Some(rgb(r, g, b))
}

/// Draws one block of a piece of `kind` as the look in force asks ([`look::get`]): the skin's
/// tile or its palette's colour, a bright outline in high contrast, and the piece's letter on
/// solid blocks when letters are on (the ghost stays faint, without one).
pub fn piece_block(x: f32, y: f32, s: f32, kind: PieceKind, style: Style) {
    piece_block_joined(x, y, s, kind, style, 0);
}

/// [`piece_block`], joined to the blocks of its piece on the sides in `joined` where the skin
/// in force is connected.
pub fn piece_block_joined(x: f32, y: f32, s: f32, kind: PieceKind, style: Style, joined: u8) {
    let look = look::get();
    let colour = look.palette.colour(kind);
    let fill = match skinned(x, y, s, Mino::Piece(kind), joined, colour, style) {
        Some(mean) => mean,
        None => {
            block(x, y, s, colour, style);
            colour
        }
    };
    if style == Style::Ghost {
        return;
    }
    if look.high_contrast {
        let t = (s * 0.08).round().max(1.0);
        let edge = if style == Style::Dim {
            theme::TEXT_FAINT
        } else {
            WHITE
        };
        draw_rectangle_lines(x, y, s, s, t, edge);
    }
    if look.letters {
        draw_letter(x, y, s, kind, letter_ink(fill, style));
    }
}

/// Dark ink on light blocks, white ink on dark ones, so the letter always reads.
fn letter_ink(fill: Color, style: Style) -> Color {
    if style == Style::Dim {
        return alpha(WHITE, 0.45);
    }
    let light = 0.299 * fill.r + 0.587 * fill.g + 0.114 * fill.b;
    if light > 0.55 {
        alpha(BLACK, 0.8)
    } else {
        alpha(WHITE, 0.92)
    }
}

/// The 5×5 letter of `kind` in the middle of the block at `(x, y)`, side `s`.
fn draw_letter(x: f32, y: f32, s: f32, kind: PieceKind, ink: Color) {
    // About half the block wide, in whole pixels so the strokes stay crisp.
    let dot = (s * 0.12).floor().max(1.0);
    let left = (x + (s - 5.0 * dot) / 2.0).round();
    let top = (y + (s - 5.0 * dot) / 2.0).round();
    for (row, bits) in letter(kind).into_iter().enumerate() {
        // Runs of set bits become one rectangle each.
        let mut col = 0;
        while col < 5 {
            if bits & (0b10000 >> col) == 0 {
                col += 1;
                continue;
            }
            let start = col;
            while col < 5 && bits & (0b10000 >> col) != 0 {
                col += 1;
            }
            draw_rectangle(
                left + start as f32 * dot,
                top + row as f32 * dot,
                (col - start) as f32 * dot,
                dot,
                ink,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_t_pieces_centre_joins_its_three_neighbours() {
        let t = PieceKind::T.cells(Rotation::Spawn);
        let centre = t
            .iter()
            .find(|&&(x, y)| joined_sides(&t, x, y).count_ones() == 3)
            .expect("the T has a centre");
        assert_eq!(joined_sides(&t, centre.0, centre.1), LEFT | RIGHT | UP);
    }

    #[test]
    fn an_i_pieces_ends_join_one_side_and_its_middle_two() {
        let i = PieceKind::I.cells(Rotation::Spawn);
        let mut sides: Vec<u8> = i.iter().map(|&(x, y)| joined_sides(&i, x, y)).collect();
        sides.sort_unstable();
        assert_eq!(sides, vec![RIGHT, LEFT, LEFT | RIGHT, LEFT | RIGHT]);
    }

    #[test]
    fn up_is_the_row_above_in_rules_coordinates() {
        assert_eq!(sides_where(3, 3, |x, y| (x, y) == (3, 4)), UP);
        assert_eq!(sides_where(3, 3, |x, y| (x, y) == (3, 2)), DOWN);
    }
}
