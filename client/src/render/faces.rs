//! Which font draws a label: macroquad's fonts for regular and bold text up to 32 px, and our
//! own large-text atlas ([`super::large_text`]) for bold text rasterised larger (banners, the
//! countdown, titles) that uses only the characters of [`LARGE_CHARS`].
//!
//! Large bold text with a character outside that set (a name in another script) is drawn with
//! the bold face. The large-text font is a small cut of DejaVu Sans Bold (Latin-1 and
//! punctuation, `client/assets/fonts/README.md`), because the rasteriser keeps every outline of
//! a loaded font in memory: a second copy of the full bold font cost 8 MB.

use std::cell::OnceCell;

use macroquad::text::{Font, load_ttf_font_from_bytes};

use super::fonts::{BOLD_TTF, REGULAR_TTF, Weight};

/// DejaVu Sans Bold cut down to [`LARGE_CHARS`], for the large face.
pub(super) const LARGE_TTF: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-Bold-large.ttf");

/// The characters of `LARGE_TTF`, as inclusive ranges (the README's `pyftsubset` command).
const LARGE_CHARS: [(char, char); 4] = [
    (' ', '~'),
    ('\u{a0}', '\u{ff}'),
    ('\u{2010}', '\u{2027}'),
    ('\u{fffd}', '\u{fffd}'),
];

/// A font and its glyph atlas.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Face {
    /// Regular text.
    Regular,
    /// Bold text up to [`Face::LARGE_ABOVE`] px, and larger bold text the large face lacks a
    /// character of.
    Bold,
    /// Bold text above [`Face::LARGE_ABOVE`] px ([`super::large_text`]).
    Large,
}

impl Face {
    /// Every face, in the order queued text is drawn (large text over small).
    pub(super) const ALL: [Face; 3] = [Face::Regular, Face::Bold, Face::Large];

    /// Bold text rasterised above this many pixels uses the large face.
    pub(super) const LARGE_ABOVE: u16 = 32;

    /// The face for `s` in `weight` rasterised at `raster` px.
    pub(super) fn of(weight: Weight, raster: u16, s: &str) -> Face {
        match weight {
            Weight::Regular => Face::Regular,
            Weight::Bold if raster > Face::LARGE_ABOVE && s.chars().all(in_large_face) => {
                Face::Large
            }
            Weight::Bold => Face::Bold,
        }
    }
}

/// Whether the large face has `c`.
fn in_large_face(c: char) -> bool {
    LARGE_CHARS.iter().any(|&(lo, hi)| (lo..=hi).contains(&c))
}

/// macroquad's fonts for the regular and bold faces, each loaded (with a new, empty atlas)
/// when first used.
#[derive(Default)]
pub(super) struct Fonts {
    regular: OnceCell<Option<Font>>,
    bold: OnceCell<Option<Font>>,
}

impl Fonts {
    /// The font for `weight` (bold falls back to regular); `None` means macroquad's own font.
    pub(super) fn get(&self, weight: Weight) -> Option<&Font> {
        let load = |ttf: &[u8]| {
            load_ttf_font_from_bytes(ttf)
                .inspect_err(|e| tracing::warn!(error = %e, "embedded font failed to load"))
                .ok()
        };
        match weight {
            Weight::Regular => self.regular.get_or_init(|| load(REGULAR_TTF)).as_ref(),
            Weight::Bold => self
                .bold
                .get_or_init(|| load(BOLD_TTF))
                .as_ref()
                .or_else(|| self.get(Weight::Regular)),
        }
    }

    /// Lets go of the fonts without dropping them: at exit, after macroquad's GL context is
    /// gone, dropping an atlas (it deletes its texture through that context) crashes the
    /// process.
    pub(super) fn forget(&mut self) {
        std::mem::forget(self.regular.take());
        std::mem::forget(self.bold.take());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bold_text_above_32_px_has_its_own_face() {
        assert_eq!(Face::of(Weight::Bold, 32, "GO!"), Face::Bold);
        assert_eq!(Face::of(Weight::Bold, 155, "GO!"), Face::Large);
        assert_eq!(Face::of(Weight::Regular, 155, "GO!"), Face::Regular);
    }

    #[test]
    fn large_text_with_a_character_the_large_face_lacks_stays_bold() {
        assert_eq!(Face::of(Weight::Bold, 40, "Ünïcödé — ok…"), Face::Large);
        assert_eq!(Face::of(Weight::Bold, 40, "Игрок"), Face::Bold);
        assert_eq!(Face::of(Weight::Bold, 40, "↑ ↓"), Face::Bold);
    }

    #[test]
    fn the_large_font_has_every_character_the_face_is_chosen_for() {
        let load = |ttf: &[u8]| fontdue::Font::from_bytes(ttf, Default::default()).expect("font");
        let (large, bold) = (load(LARGE_TTF), load(BOLD_TTF));
        for &(lo, hi) in &LARGE_CHARS {
            for c in (lo..=hi).filter(|&c| bold.lookup_glyph_index(c) != 0) {
                assert_ne!(large.lookup_glyph_index(c), 0, "{c:?} ({:#x})", c as u32);
            }
        }
    }

    #[test]
    fn large_text_is_drawn_after_small_text() {
        assert_eq!(Face::ALL.last(), Some(&Face::Large));
    }
}
