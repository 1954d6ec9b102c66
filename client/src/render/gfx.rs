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
        TextParams {
            font: self.font(weight),
            font_size: px as u16,
            font_scale: 1.0 / self.dpi,
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

/// The screen background: a vertical gradient with a faint diagonal sheen.
pub fn background(w: f32, h: f32) {
    clear_background(theme::BACKGROUND);
    let bands = 24;
    for i in 0..bands {
        let t = i as f32 / bands as f32;
        let c = theme::mix(theme::BACKGROUND_HI, theme::BACKGROUND, t.powf(0.7));
        draw_rectangle(0.0, h * t, w, h / bands as f32 + 1.0, c);
    }
}

/// A rectangle's centre.
pub fn center(r: Rect) -> Vec2 {
    vec2(r.x + r.w / 2.0, r.y + r.h / 2.0)
}
