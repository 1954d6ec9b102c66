//! Text widths from the font files alone, and the one rule for making a label fit its box.
//!
//! Drawing measures text with macroquad, which needs a window and a GL context. The layout tests
//! need the same widths without either, so this module reads the game's embedded fonts with
//! `fontdue` (the rasteriser macroquad itself uses, at the version it already builds: no new
//! dependency in the tree) and sums glyph advances the way macroquad's `measure_text` does.
//!
//! [`fit_size`] is the rule every single-line label follows: keep the size if the text fits,
//! otherwise shrink it until it does. Text is never cut mid-word; a label that still cannot fit
//! at the smallest readable size is a layout bug the tests catch.

use super::fonts::Weight;

/// The smallest fraction of its size a label may shrink to.
pub const MIN_SHRINK: f32 = 0.6;

/// Font metrics without a GL context (the layout tests' stand-in for [`super::gfx::Gfx::width`]).
#[cfg_attr(not(test), allow(dead_code))]
pub struct Metrics {
    regular: fontdue::Font,
    bold: fontdue::Font,
}

#[cfg_attr(not(test), allow(dead_code))]
impl Metrics {
    /// Loads the embedded fonts.
    pub fn load() -> Result<Metrics, &'static str> {
        let load = |bytes: &[u8]| {
            fontdue::Font::from_bytes(bytes, fontdue::FontSettings::default())
                .map_err(|_| "the embedded DejaVu font did not load")
        };
        Ok(Metrics {
            regular: load(super::fonts::REGULAR_TTF)?,
            bold: load(super::fonts::BOLD_TTF)?,
        })
    }

    /// Width of `s` at `size` pixels.
    pub fn width(&self, s: &str, size: f32, weight: Weight) -> f32 {
        let font = match weight {
            Weight::Regular => &self.regular,
            Weight::Bold => &self.bold,
        };
        s.chars().map(|c| font.metrics(c, size).advance_width).sum()
    }
}

/// The size at which text of `width_at(size)` fits `max_w`: `size` itself when it fits,
/// otherwise smaller (down to [`MIN_SHRINK`] of it; the caller's box should never need less).
pub fn fit_size(width_at: impl Fn(f32) -> f32, size: f32, max_w: f32) -> f32 {
    let w = width_at(size);
    if w <= max_w || w <= 0.0 {
        return size;
    }
    // Width grows about linearly with size; step down from the estimate to absorb rounding.
    let mut s = (size * max_w / w).floor();
    while s > size * MIN_SHRINK && width_at(s) > max_w {
        s -= 1.0;
    }
    s.max((size * MIN_SHRINK).floor()).max(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_that_fits_keeps_its_size() {
        let m = Metrics::load().expect("fonts");
        let size = fit_size(|s| m.width("PPS", s, Weight::Bold), 20.0, 500.0);
        assert_eq!(size, 20.0);
    }

    #[test]
    fn text_too_wide_shrinks_until_it_fits() {
        let m = Metrics::load().expect("fonts");
        let text = "T-SPIN MINI SINGLE";
        let full = m.width(text, 20.0, Weight::Bold);
        let size = fit_size(|s| m.width(text, s, Weight::Bold), 20.0, full * 0.8);
        assert!(size < 20.0);
        assert!(m.width(text, size, Weight::Bold) <= full * 0.8);
    }

    #[test]
    fn bold_is_wider_than_regular() {
        let m = Metrics::load().expect("fonts");
        let s = "SEVENBAG";
        assert!(m.width(s, 20.0, Weight::Bold) > m.width(s, 20.0, Weight::Regular));
        assert!(m.width(s, 40.0, Weight::Regular) > m.width(s, 20.0, Weight::Regular) * 1.9);
    }
}
