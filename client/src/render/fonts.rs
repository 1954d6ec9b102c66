//! The embedded UI fonts and their weights: plain data, shared by the text drawing
//! ([`super::gfx`]), the font faces ([`super::faces`]) and the window-free text widths
//! ([`super::metrics`]).

/// Font weight.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Weight {
    /// DejaVu Sans.
    Regular,
    /// DejaVu Sans Bold.
    Bold,
}

/// DejaVu Sans, cut down to the characters the game and players' names use (Latin, Greek,
/// Cyrillic, punctuation, arrows, maths and box-drawing symbols) by `client/assets/fonts/README.md`.
/// The rasteriser behind macroquad's text (fontdue) keeps the outline of every glyph of a font
/// in memory: the full fonts (6,000 glyphs each) held 40 MB of the game's resident set; these
/// hold about a tenth of that.
pub const REGULAR_TTF: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-subset.ttf");
/// DejaVu Sans Bold, cut down the same way as [`REGULAR_TTF`].
pub const BOLD_TTF: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-Bold-subset.ttf");
