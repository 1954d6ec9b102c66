//! Text rasterised above 32 px (the countdown, banners, titles), drawn from our own glyph atlas
//! instead of macroquad's.
//!
//! macroquad 0.4.16's glyph atlas grows for reasons that have nothing to do with space: a glyph
//! that ends a shelf a pixel or two short of the edge doubles the atlas instead of starting a
//! new shelf, and every growth re-packs all glyphs in hash-map order, random per process
//! (macroquad issue #1054; fixed upstream by pull request #1063, not yet released). Large glyphs
//! make both likely, and in about one demo in four the atlas holding the countdown grew to 2048²
//! or 4096² (16 or 64 MB, twice over while re-packing, plus the driver's copy): the 166–262 MB
//! peaks in BENCHMARKS.md. macroquad also fills each font's atlas with 255 glyphs at 15 px when
//! it loads the font, which left the large glyphs half the room.
//!
//! This atlas is one 1024² texture packed in shelves. When a glyph does not fit, the atlas is
//! emptied (after drawing what is already queued from it) and refilled with the glyphs drawn from
//! then on, so it never grows: a frame draws a few dozen large glyphs at most, and 1024² holds
//! about fifty of the largest. Glyphs come from a small cut of DejaVu Sans Bold
//! ([`super::faces::LARGE_TTF`]), rasterised by fontdue (macroquad's own rasteriser) and placed
//! exactly as macroquad places its glyphs, without kerning, so widths match the layout tests'.

use std::collections::BTreeMap;

use macroquad::prelude::*;

/// Side of the atlas texture, in pixels.
const SIDE: u16 = 1024;

/// Empty pixels around each glyph, so linear filtering never blends in a neighbour.
const GAP: u16 = 1;

/// Where a glyph is in the atlas and how it sits on the baseline (fontdue's metrics).
#[derive(Clone, Copy, Debug)]
struct Glyph {
    x: u16,
    y: u16,
    w: u16,
    h: u16,
    xmin: i32,
    ymin: i32,
    advance: f32,
}

/// The large-text font, its atlas and where the next glyph goes.
pub(super) struct LargeText {
    font: fontdue::Font,
    texture: Texture2D,
    glyphs: BTreeMap<(char, u16), Glyph>,
    /// The shelf being filled: its left edge so far, its top and its height.
    shelf: (u16, u16, u16),
    /// Times the atlas was emptied (for tests and logs).
    resets: u64,
}

impl LargeText {
    /// Parses `ttf` and makes the empty atlas texture; `None` if the font does not parse.
    pub(super) fn new(ttf: &[u8]) -> Option<LargeText> {
        let font = fontdue::Font::from_bytes(ttf, fontdue::FontSettings::default())
            .inspect_err(|e| tracing::warn!(error = %e, "large-text font failed to load"))
            .ok()?;
        let blank = vec![0u8; usize::from(SIDE) * usize::from(SIDE) * 4];
        let texture = Texture2D::from_rgba8(SIDE, SIDE, &blank);
        texture.set_filter(FilterMode::Linear);
        Some(LargeText {
            font,
            texture,
            glyphs: BTreeMap::new(),
            shelf: (0, 0, 0),
            resets: 0,
        })
    }

    /// Width of `s` rasterised at `size` px and drawn at `scale` (in physical pixels, as
    /// macroquad's `measure_text` counts before dividing by the DPI scale).
    pub(super) fn width(&self, s: &str, size: u16, scale: f32) -> f32 {
        s.chars()
            .map(|c| self.font.metrics(c, f32::from(size)).advance_width * scale)
            .sum()
    }

    /// Draws `s` with its baseline starting at `(x, y)`, from glyphs rasterised at `size` px and
    /// scaled by `scale`, like macroquad's `draw_text_ex` (`dpi`: the window's DPI scale).
    pub(super) fn draw(
        &mut self,
        s: &str,
        (x, y): (f32, f32),
        size: u16,
        scale: f32,
        dpi: f32,
        color: Color,
    ) {
        let mut advance = 0.0;
        for c in s.chars() {
            let Some(g) = self.glyph(c, size) else {
                continue;
            };
            if g.w > 0 && g.h > 0 {
                let h = f32::from(g.h) * scale;
                let dest_x = g.xmin as f32 * scale + advance;
                let dest_y = -h - g.ymin as f32 * scale;
                draw_texture_ex(
                    &self.texture,
                    dest_x / dpi + x,
                    dest_y / dpi + y,
                    color,
                    DrawTextureParams {
                        dest_size: Some(vec2(f32::from(g.w) * scale / dpi, h / dpi)),
                        source: Some(Rect::new(
                            f32::from(g.x),
                            f32::from(g.y),
                            f32::from(g.w),
                            f32::from(g.h),
                        )),
                        ..Default::default()
                    },
                );
            }
            advance += g.advance * scale;
        }
    }

    /// The glyph of `c` at `size`, rasterised into the atlas if it is not there yet; `None` if
    /// it is larger than the whole atlas.
    fn glyph(&mut self, c: char, size: u16) -> Option<Glyph> {
        if let Some(g) = self.glyphs.get(&(c, size)) {
            return Some(*g);
        }
        let (m, coverage) = self.font.rasterize(c, f32::from(size));
        let (w, h) = (u16::try_from(m.width).ok()?, u16::try_from(m.height).ok()?);
        let (x, y) = if w == 0 || h == 0 {
            (0, 0)
        } else {
            let spot = match self.place(w, h) {
                Some(spot) => spot,
                None => {
                    self.reset();
                    self.place(w, h)?
                }
            };
            let bytes: Vec<u8> = coverage.iter().flat_map(|&a| [255, 255, 255, a]).collect();
            let image = Image {
                bytes,
                width: w,
                height: h,
            };
            self.texture.update_part(
                &image,
                i32::from(spot.0),
                i32::from(spot.1),
                i32::from(w),
                i32::from(h),
            );
            spot
        };
        let g = Glyph {
            x,
            y,
            w,
            h,
            xmin: m.xmin,
            ymin: m.ymin,
            advance: m.advance_width,
        };
        self.glyphs.insert((c, size), g);
        Some(g)
    }

    /// A free `w` × `h` spot on the current shelf or a new one, if the atlas has room.
    fn place(&mut self, w: u16, h: u16) -> Option<(u16, u16)> {
        place_on_shelf(&mut self.shelf, w, h)
    }

    /// Empties the atlas. What was queued from it this frame is drawn first, so no queued glyph
    /// shows another's pixels.
    fn reset(&mut self) {
        // SAFETY: macroquad's documented way to draw the batch so far mid-frame; no other
        // reference to its GL context is alive here.
        unsafe { get_internal_gl() }.flush();
        self.glyphs.clear();
        self.shelf = (0, 0, 0);
        self.resets += 1;
        tracing::debug!(resets = self.resets, "large-text atlas emptied");
    }
}

/// Shelf packing in a [`SIDE`]² atlas: the spot for a `w` × `h` glyph on the shelf `(left, top,
/// height)`, starting a new shelf below when the row is full; `None` when the atlas is full.
fn place_on_shelf(shelf: &mut (u16, u16, u16), w: u16, h: u16) -> Option<(u16, u16)> {
    let (w, h) = (w + GAP, h + GAP);
    let (mut left, mut top, mut height) = *shelf;
    if u32::from(left) + u32::from(w) > u32::from(SIDE) {
        (left, top, height) = (0, top + height, 0);
    }
    if u32::from(left) + u32::from(w) > u32::from(SIDE)
        || u32::from(top) + u32::from(h) > u32::from(SIDE)
    {
        return None;
    }
    *shelf = (left + w, top, height.max(h));
    Some((left, top))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glyphs_fill_a_shelf_then_start_the_next_below_the_tallest() {
        let mut shelf = (0, 0, 0);
        assert_eq!(place_on_shelf(&mut shelf, 500, 100), Some((0, 0)));
        assert_eq!(place_on_shelf(&mut shelf, 500, 40), Some((501, 0)));
        // 1002 + 23 > 1024: a new shelf under the 101-pixel one.
        assert_eq!(place_on_shelf(&mut shelf, 22, 10), Some((0, 101)));
    }

    #[test]
    fn a_glyph_exactly_as_wide_as_the_room_left_fits() {
        let mut shelf = (0, 0, 0);
        place_on_shelf(&mut shelf, 999, 10);
        assert_eq!(
            place_on_shelf(&mut shelf, SIDE - 1000 - 1, 10),
            Some((1000, 0))
        );
    }

    #[test]
    fn a_full_atlas_says_so_instead_of_growing() {
        let mut shelf = (0, 0, 0);
        for _ in 0..4 {
            assert!(place_on_shelf(&mut shelf, SIDE - 1, 255).is_some());
        }
        assert_eq!(place_on_shelf(&mut shelf, 10, 10), None);
        assert_eq!(
            place_on_shelf(&mut (0, 0, 0), SIDE, 10),
            None,
            "wider than the atlas"
        );
    }

    #[test]
    fn the_largest_countdown_glyphs_fit_fifty_at_a_time() {
        let font = fontdue::Font::from_bytes(super::super::faces::LARGE_TTF, Default::default())
            .expect("the large-text font parses");
        let m = font.metrics('O', 155.0);
        let mut shelf = (0, 0, 0);
        let fitted = (0..200)
            .take_while(|_| place_on_shelf(&mut shelf, m.width as u16, m.height as u16).is_some())
            .count();
        assert!(fitted >= 50, "{fitted} glyphs of {}×{}", m.width, m.height);
    }
}
