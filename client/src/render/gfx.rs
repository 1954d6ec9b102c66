//! Drawing helpers: the embedded fonts, crisp text, and a few shapes the screens share.
//!
//! Text is rasterised at the window's physical pixel size (size × DPI scale) and drawn at
//! 1/DPI, so it stays sharp on high-DPI screens; sizes are rounded to whole pixels.

use macroquad::prelude::*;

use super::theme::{self, alpha};

/// Horizontal alignment of text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    /// `x` is the left edge.
    Left,
    /// `x` is the centre.
    Center,
    /// `x` is the right edge.
    Right,
}

/// Font weight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Weight {
    /// DejaVu Sans.
    Regular,
    /// DejaVu Sans Bold.
    Bold,
}

/// The fonts and the DPI scale, shared by all drawing code.
pub struct Gfx {
    regular: Option<Font>,
    bold: Option<Font>,
    dpi: f32,
}

/// The pixel size text of `px` pixels is rasterised at. macroquad caches glyphs per font size
/// for the life of the process, so every size an animation passes through (a banner that grows
/// and shrinks) would add glyphs to the atlas for good: that made memory climb past 700 MB in a
/// demo. Up to 32 px sizes are exact; above, text is rasterised at the next step of a ladder 1/8
/// apart (about 25 sizes up to 400 px) and scaled down to the exact size, which keeps it sharp.
fn raster_size(px: f32) -> u16 {
    const EXACT: f32 = 32.0;
    if px <= EXACT {
        return px as u16;
    }
    let mut step = EXACT;
    while step < px {
        step = (step * 1.125).round();
    }
    step as u16
}

/// Cap height of DejaVu Sans as a fraction of the font size: used to centre text vertically.
const CAP: f32 = 0.73;

impl Gfx {
    /// Loads the embedded DejaVu fonts (falling back to macroquad's own font if that fails).
    pub fn load() -> Gfx {
        let load = |bytes: &[u8]| match load_ttf_font_from_bytes(bytes) {
            Ok(font) => Some(font),
            Err(e) => {
                tracing::warn!(error = %e, "embedded font failed to load; using the default");
                None
            }
        };
        Gfx {
            regular: load(dejavu::sans::regular()),
            bold: load(dejavu::sans::bold()),
            dpi: screen_dpi_scale().max(1.0),
        }
    }

    /// Re-reads the DPI scale (it can change when the window moves between screens).
    pub fn refresh(&mut self) {
        self.dpi = screen_dpi_scale().max(1.0);
    }

    fn font(&self, weight: Weight) -> Option<&Font> {
        match weight {
            Weight::Regular => self.regular.as_ref(),
            Weight::Bold => self.bold.as_ref().or(self.regular.as_ref()),
        }
    }

    fn params(&self, size: f32, weight: Weight, color: Color) -> TextParams<'_> {
        let px = (size * self.dpi).round().clamp(4.0, 400.0);
        let raster = raster_size(px);
        TextParams {
            font: self.font(weight),
            font_size: raster,
            font_scale: px / f32::from(raster) / self.dpi,
            color,
            ..Default::default()
        }
    }

    /// Width of `s` at `size`.
    pub fn width(&self, s: &str, size: f32, weight: Weight) -> f32 {
        let p = self.params(size, weight, WHITE);
        measure_text(s, p.font, p.font_size, p.font_scale).width
    }

    /// Draws `s` with its baseline at `y`.
    // Position, size, weight, alignment and colour read best spelled out at each call.
    #[allow(clippy::too_many_arguments)]
    pub fn text(&self, s: &str, x: f32, y: f32, size: f32, weight: Weight, align: Align, c: Color) {
        let w = match align {
            Align::Left => 0.0,
            _ => self.width(s, size, weight),
        };
        let x = match align {
            Align::Left => x,
            Align::Center => x - w / 2.0,
            Align::Right => x - w,
        };
        draw_text_ex(s, x.round(), y.round(), self.params(size, weight, c));
    }

    /// Draws `s` vertically centred on `cy` (by cap height).
    #[allow(clippy::too_many_arguments)]
    pub fn text_mid(
        &self,
        s: &str,
        x: f32,
        cy: f32,
        size: f32,
        weight: Weight,
        align: Align,
        c: Color,
    ) {
        self.text(s, x, cy + size * CAP / 2.0, size, weight, align, c);
    }

    /// Draws `s` centred on `(cx, cy)` with a soft drop shadow: for banners over the board.
    pub fn banner(&self, s: &str, cx: f32, cy: f32, size: f32, c: Color) {
        let off = (size / 16.0).max(1.0);
        let shadow = alpha(BLACK, 0.55 * c.a);
        self.text_mid(
            s,
            cx + off,
            cy + off,
            size,
            Weight::Bold,
            Align::Center,
            shadow,
        );
        self.text_mid(s, cx, cy, size, Weight::Bold, Align::Center, c);
    }

    /// Cuts `s` with an ellipsis so it fits in `max_w`.
    pub fn fit(&self, s: &str, max_w: f32, size: f32, weight: Weight) -> String {
        if self.width(s, size, weight) <= max_w {
            return s.to_owned();
        }
        let mut out: String = s.to_owned();
        while !out.is_empty() && self.width(&format!("{out}…"), size, weight) > max_w {
            out.pop();
        }
        format!("{out}…")
    }
}

/// A filled rectangle.
pub fn fill(r: Rect, c: Color) {
    draw_rectangle(r.x, r.y, r.w, r.h, c);
}

/// A rectangle outline drawn inside `r`.
pub fn outline(r: Rect, thickness: f32, c: Color) {
    draw_rectangle_lines(r.x, r.y, r.w, r.h, thickness * 2.0, c);
}

/// A panel: dark fill, thin frame, and an optional caption in its top strip.
pub fn panel(gfx: &Gfx, r: Rect, caption: Option<&str>, unit: f32) {
    fill(r, theme::PANEL);
    outline(r, 1.0, alpha(theme::FRAME, 0.8));
    if let Some(caption) = caption {
        gfx.text_mid(
            caption,
            r.x + unit * 0.4,
            r.y + unit * 0.55,
            (unit * 0.5).round(),
            Weight::Bold,
            Align::Left,
            theme::TEXT_DIM,
        );
    }
}

/// Bands of the background's vertical gradient.
const BANDS: usize = 24;

/// The colour of background band `i` (0 at the top) of [`BANDS`].
fn band_colour(i: usize) -> Color {
    let t = i as f32 / BANDS as f32;
    theme::mix(theme::BACKGROUND_HI, theme::BACKGROUND, t.powf(0.7))
}

/// The screen background: a vertical gradient, from a lighter violet at the top.
///
/// Each band is a scissored clear of the framebuffer rather than a drawn rectangle: a clear is a
/// plain fill, where a drawn full-screen layer goes through the blending pipeline, and under
/// software rendering (Mesa's llvmpipe) that one layer cost about half of a match frame.
pub fn background(w: f32, h: f32) {
    clear_background(theme::BACKGROUND);
    let dpi = screen_dpi_scale();
    let (pw, ph) = ((w * dpi).round() as i32, (h * dpi).round() as i32);
    use macroquad::miniquad::gl;
    // SAFETY: plain GL state calls on the thread that owns the context, between frames' draw
    // batches: `clear_background` has just flushed and cleared with the default framebuffer
    // bound, macroquad's own draws for this frame are batched and issued later, and the scissor
    // test is switched off again as macroquad's render passes leave it.
    unsafe {
        gl::glEnable(gl::GL_SCISSOR_TEST);
        for i in 0..BANDS {
            // GL's window origin is the bottom-left corner.
            let top = ph * i as i32 / BANDS as i32;
            let bottom = ph * (i as i32 + 1) / BANDS as i32;
            let c = band_colour(i);
            gl::glScissor(0, ph - bottom, pw, bottom - top);
            gl::glClearColor(c.r, c.g, c.b, 1.0);
            gl::glClear(gl::GL_COLOR_BUFFER_BIT);
        }
        gl::glDisable(gl::GL_SCISSOR_TEST);
    }
}

/// A rectangle's centre.
pub fn center(r: Rect) -> Vec2 {
    vec2(r.x + r.w / 2.0, r.y + r.h / 2.0)
}

#[cfg(test)]
mod tests {
    use super::raster_size;

    #[test]
    fn small_text_is_rasterised_at_its_exact_size() {
        for px in 4..=32 {
            assert_eq!(raster_size(px as f32), px);
        }
    }

    #[test]
    fn large_text_uses_a_bounded_ladder_of_sizes_at_or_above_it() {
        let mut sizes: Vec<u16> = (33..=400).map(|px| raster_size(px as f32)).collect();
        assert!((33..=400).all(|px| f32::from(raster_size(px as f32)) >= px as f32));
        sizes.dedup();
        assert!(sizes.len() <= 25, "{} sizes: {sizes:?}", sizes.len());
    }
}
