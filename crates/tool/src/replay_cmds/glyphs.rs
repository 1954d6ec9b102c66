//! Text for the charts of [`super::plot`]: a plotters backend that wraps the bitmap backend and
//! draws text itself with fontdue, from the DejaVu Sans file embedded in the tool.
//!
//! Why not plotters' own text: its `ttf` feature needs the FreeType and fontconfig system
//! libraries, and its `ab_glyph` feature brings `ttf-parser` with other features than the game's
//! build of it (tests/tests/checks/features.rs wants one build of each shared crate). fontdue is
//! the rasteriser the game already uses, with the same features, so the tool adds no new crate
//! build. Rotated text is drawn unrotated (the charts use none).

use plotters::prelude::*;
use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind,
};

/// DejaVu Sans (the game's subset: Latin, Greek, Cyrillic and the symbols it draws).
const FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-subset.ttf");

/// The embedded font, parsed.
pub fn font() -> anyhow::Result<fontdue::Font> {
    fontdue::Font::from_bytes(FONT, fontdue::FontSettings::default())
        .map_err(|e| anyhow::anyhow!("the built-in font: {e}"))
}

/// A bitmap backend whose text is drawn with `font`.
pub struct TextBackend<'a> {
    inner: BitMapBackend<'a>,
    font: &'a fontdue::Font,
}

impl<'a> TextBackend<'a> {
    /// Draws into `pixels` (RGB, `size.0 × size.1`).
    pub fn new(pixels: &'a mut [u8], size: (u32, u32), font: &'a fontdue::Font) -> Self {
        TextBackend {
            inner: BitMapBackend::with_buffer(pixels, size),
            font,
        }
    }

    /// Width, ascent and descent (below the baseline, positive) of `text` at `px`.
    fn measure(&self, text: &str, px: f32) -> (f32, f32, f32) {
        let width = text
            .chars()
            .map(|c| self.font.metrics(c, px).advance_width)
            .sum();
        let (ascent, descent) = self
            .font
            .horizontal_line_metrics(px)
            .map_or((px * 0.8, px * 0.2), |m| (m.ascent, -m.descent));
        (width, ascent, descent)
    }
}

type Result<T, E> = std::result::Result<T, DrawingErrorKind<E>>;

impl DrawingBackend for TextBackend<'_> {
    type ErrorType = <BitMapBackend<'static> as DrawingBackend>::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.inner.get_size()
    }

    fn ensure_prepared(&mut self) -> Result<(), Self::ErrorType> {
        self.inner.ensure_prepared()
    }

    fn present(&mut self) -> Result<(), Self::ErrorType> {
        self.inner.present()
    }

    fn draw_pixel(
        &mut self,
        point: BackendCoord,
        color: BackendColor,
    ) -> Result<(), Self::ErrorType> {
        self.inner.draw_pixel(point, color)
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), Self::ErrorType> {
        self.inner.draw_line(from, to, style)
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), Self::ErrorType> {
        self.inner.draw_rect(upper_left, bottom_right, style, fill)
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), Self::ErrorType> {
        self.inner.draw_path(path, style)
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), Self::ErrorType> {
        self.inner.fill_polygon(vert, style)
    }

    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Result<(), Self::ErrorType> {
        let colour = style.color();
        if colour.alpha == 0.0 {
            return Ok(());
        }
        let px = style.size() as f32;
        let (width, ascent, descent) = self.measure(text, px);
        let left = match style.anchor().h_pos {
            HPos::Left => 0.0,
            HPos::Center => -width / 2.0,
            HPos::Right => -width,
        };
        let top = match style.anchor().v_pos {
            VPos::Top => 0.0,
            VPos::Center => -(ascent + descent) / 2.0,
            VPos::Bottom => -(ascent + descent),
        };
        let baseline = pos.1 as f32 + top + ascent;
        let mut pen = pos.0 as f32 + left;
        let (w, h) = self.get_size();
        for c in text.chars() {
            let (m, coverage) = self.font.rasterize(c, px);
            let x0 = (pen + m.xmin as f32).round() as i32;
            let y0 = (baseline - (m.height as f32 + m.ymin as f32)).round() as i32;
            for (i, &a) in coverage.iter().enumerate() {
                if a == 0 || m.width == 0 {
                    continue;
                }
                let (x, y) = (x0 + (i % m.width) as i32, y0 + (i / m.width) as i32);
                if x < 0 || y < 0 || x >= w as i32 || y >= h as i32 {
                    continue;
                }
                let alpha = colour.alpha * f64::from(a) / 255.0;
                self.inner.draw_pixel(
                    (x, y),
                    BackendColor {
                        alpha,
                        rgb: colour.rgb,
                    },
                )?;
            }
            pen += m.advance_width;
        }
        Ok(())
    }

    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), Self::ErrorType> {
        let (width, ascent, descent) = self.measure(text, style.size() as f32);
        Ok((width.ceil() as u32, (ascent + descent).ceil() as u32))
    }
}
