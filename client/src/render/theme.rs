//! Colours and proportions of the look: guideline piece colours, the dark well, accents.
//!
//! Pure data, shared by the renderer and by the screenshot checker, which recognises board cells
//! by their exact fill colour ([`cell_fill`]).

use macroquad::color::Color;
use sevenbag_core::{CellKind, PieceKind};

/// An opaque colour from 8-bit channels (const, unlike macroquad's helper).
pub const fn rgb(r: u8, g: u8, b: u8) -> Color {
    Color {
        r: r as f32 / 255.0,
        g: g as f32 / 255.0,
        b: b as f32 / 255.0,
        a: 1.0,
    }
}

/// `c` with alpha `a`.
pub const fn alpha(c: Color, a: f32) -> Color {
    Color { a, ..c }
}

/// Mixes `a` toward `b` by `t` (0 = a, 1 = b), keeping `a`'s alpha.
pub fn mix(a: Color, b: Color, t: f32) -> Color {
    Color {
        r: a.r + (b.r - a.r) * t,
        g: a.g + (b.g - a.g) * t,
        b: a.b + (b.b - a.b) * t,
        a: a.a,
    }
}

/// Screen background, behind everything.
pub const BACKGROUND: Color = rgb(13, 14, 22);
/// The background of the high-contrast skin.
pub const BLACK_BACKGROUND: Color = rgb(4, 4, 6);
/// Second background tone for the vignette gradient.
pub const BACKGROUND_HI: Color = rgb(26, 24, 44);
/// The inside of the well.
pub const WELL: Color = rgb(6, 7, 11);
/// The faint grid lines in the well.
pub const GRID: Color = rgb(24, 26, 38);
/// The grid lines of the high-contrast well.
pub const GRID_STRONG: Color = rgb(58, 62, 86);
/// The frame around the well and the side boxes.
pub const FRAME: Color = rgb(70, 74, 104);
/// Side boxes (hold, next).
pub const PANEL: Color = rgb(16, 17, 27);
/// Main text.
pub const TEXT: Color = rgb(232, 234, 245);
/// Secondary text.
pub const TEXT_DIM: Color = rgb(140, 146, 176);
/// Labels and hints.
pub const TEXT_FAINT: Color = rgb(88, 93, 122);
/// Accent for selections and highlights.
pub const ACCENT: Color = rgb(255, 196, 61);
/// Second accent (links, the local player).
pub const ACCENT2: Color = rgb(92, 200, 255);
/// Good news: wins, connected.
pub const GOOD: Color = rgb(96, 226, 130);
/// Bad news: losses, errors, garbage about to rise.
pub const BAD: Color = rgb(255, 84, 96);
/// Garbage queued but still travelling.
pub const GARBAGE_QUEUED: Color = rgb(255, 166, 60);
/// Garbage ready to rise on the next lock without a clear.
pub const GARBAGE_READY: Color = rgb(255, 54, 78);

/// The garbage block colour.
pub const GARBAGE: Color = rgb(106, 106, 112);

/// Guideline colour of a piece kind: I cyan, O yellow, T purple, S green, Z red, J blue, L orange.
pub const fn piece_colour(kind: PieceKind) -> Color {
    match kind {
        PieceKind::I => rgb(49, 199, 239),
        PieceKind::O => rgb(247, 211, 8),
        PieceKind::T => rgb(173, 77, 198),
        PieceKind::S => rgb(66, 182, 66),
        PieceKind::Z => rgb(239, 32, 41),
        PieceKind::J => rgb(62, 98, 214),
        PieceKind::L => rgb(239, 121, 33),
    }
}

/// The flat fill at the centre of a board cell of this kind (the bevel only touches its edges).
pub const fn cell_fill(kind: CellKind) -> Color {
    match kind {
        CellKind::Piece(k) => piece_colour(k),
        CellKind::Garbage => GARBAGE,
    }
}

/// A colour as 8-bit RGB, as it lands in a screenshot.
pub fn to_rgb8(c: Color) -> [u8; 3] {
    [c.r, c.g, c.b].map(|v| (v.clamp(0.0, 1.0) * 255.0).round() as u8)
}
