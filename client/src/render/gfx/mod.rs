//! Drawing helpers: crisp text in the embedded fonts ([`super::fonts`]), and a few shapes the
//! screens share; the screen background is [`gradient`]'s.
//!
//! Text is rasterised at the window's physical pixel size (size × DPI scale) and drawn at
//! 1/DPI, so it stays sharp on high-DPI screens; sizes are rounded to whole pixels.

use macroquad::prelude::*;

use super::faces::{Face, Fonts, LARGE_TTF};
pub use super::fonts::Weight;
use super::glyphs::Glyphs;
use super::large_text::LargeText;
use super::theme::{self, alpha};

mod gradient;

pub use gradient::{background, background_with, set_plain_background};

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

/// The DPI scale, shared by all drawing code (the fonts are in the text queue).
pub struct Gfx {
    dpi: f32,
}

/// Labels queued for [`flush_text`]: their characters in one buffer (no allocation per label
/// once the buffer has grown), where and how each is drawn, the fonts to draw them with, and
/// which glyphs the atlases hold (so a growing atlas never strands queued draws). Thread-local
/// like [`FLAT`], so [`fill`] and [`outline`] can flush it without a [`Gfx`] at hand.
#[derive(Default)]
struct TextQueue {
    chars: String,
    items: Vec<QueuedText>,
    fonts: Fonts,
    /// The large-text atlas, made when first needed (`Some(None)`: it could not be).
    large: Option<Option<LargeText>>,
    glyphs: Glyphs,
}

impl TextQueue {
    /// The large-text atlas, if it could be made.
    fn large(&mut self) -> Option<&mut LargeText> {
        self.large
            .get_or_insert_with(|| LargeText::new(LARGE_TTF))
            .as_mut()
    }
}

impl Drop for TextQueue {
    /// The queue lives in a thread-local, dropped when the thread ends, after macroquad's GL
    /// context is gone: dropping the fonts' atlases then (they delete their textures through
    /// that context) crashed the process at exit. The process is ending; the memory goes with it.
    fn drop(&mut self) {
        self.fonts.forget();
        std::mem::forget(self.large.take());
    }
}

/// One queued label: `chars[start..end]` drawn with its baseline at `(x, y)`.
struct QueuedText {
    start: usize,
    end: usize,
    x: f32,
    y: f32,
    face: Face,
    font_size: u16,
    font_scale: f32,
    color: Color,
    /// A box its glyphs surely lie in (see [`text_bounds`]).
    bounds: Rect,
}

/// A box that surely holds the glyphs of `chars` characters of `size`-pixel text whose
/// baseline starts at `(x, y)`: no glyph of the game's fonts is wider than 1¼ em or reaches
/// further than 1½ em above the baseline or ¾ below it, and a whole em is added around.
fn text_bounds(x: f32, y: f32, size: f32, chars: usize) -> Rect {
    let w = chars as f32 * size * 1.25;
    Rect::new(x - size, y - size * 2.5, w + 2.0 * size, size * 4.25)
}

/// How a label is rasterised: the face, its font, and the size its glyphs are made at.
struct Raster {
    face: Face,
    font: Option<Font>,
    font_size: u16,
    font_scale: f32,
}

impl Raster {
    /// Width of `s`; notes its glyphs in the ledger (measuring caches any new ones).
    fn measure(&self, s: &str) -> f32 {
        if self.face == Face::Large {
            let size = atlas_size(self.font_size);
            let dpi = miniquad::window::dpi_scale();
            return TEXT.with(|t| {
                let mut t = t.borrow_mut();
                t.large()
                    .map_or(0.0, |l| l.width(s, size, self.font_scale) / dpi)
            });
        }
        TEXT.with(|t| {
            t.borrow()
                .glyphs
                .note(self.face, atlas_size(self.font_size), s)
        });
        measure_text(s, self.font.as_ref(), self.font_size, self.font_scale).width
    }

    /// Caches every glyph of `s` not cached yet, so the atlas grows before any is drawn (the
    /// large-text atlas never grows: its glyphs are made as they are drawn).
    fn cache(&self, s: &str) {
        if self.face == Face::Large {
            return;
        }
        if TEXT.with(|t| {
            t.borrow()
                .glyphs
                .note(self.face, atlas_size(self.font_size), s)
        }) {
            measure_text(s, self.font.as_ref(), self.font_size, self.font_scale);
        }
    }
}

thread_local! {
    /// The text queued this frame ([`TextQueue`]).
    static TEXT: std::cell::RefCell<TextQueue> = std::cell::RefCell::default();
}

/// Draws the text queued since the last flush in one batch per font, then goes back to the
/// shapes' material.
///
/// [`Gfx::text`] only queues: drawing each label as it came switched from the shapes'
/// flat-colour material to macroquad's textured one and back, two draw calls a label (about 35
/// labels in a match frame), each one a pipeline change for the software rasteriser. Drawn
/// together, a frame's text costs one or two draw calls. Text therefore lands above every shape
/// drawn before the flush: [`fill`] and [`outline`] flush first, and so must anything else meant
/// to cover text (a modal's dimming); the game loop flushes at the end of every frame.
pub fn flush_text() {
    TEXT.with(|t| {
        let mut t = t.borrow_mut();
        if t.items.is_empty() {
            return;
        }
        if t.glyphs.stale() {
            // The batch's last draw must bind another texture than the atlas: miniquad 0.4
            // leaves a deleted texture in its binding cache and binds it again after making
            // the new one (WebGL: "glBindTexture called with an already deleted texture").
            // An invisible quad in macroquad's textured material binds the white texture (the
            // flat-colour material samples no texture, so it would leave the atlas bound).
            gl_use_default_material();
            draw_rectangle(-2.0, -2.0, 1.0, 1.0, BLANK);
            // SAFETY: macroquad's documented way to draw the batch so far mid-frame; no
            // other reference to its GL context is alive here.
            unsafe { get_internal_gl() }.flush();
            t.glyphs.flushed();
        }
        gl_use_default_material();
        // Each face has its own atlas texture: the text of one face, then the next, so the
        // batch changes texture once per face. Labels of different faces do not overlap on any
        // screen, but for banners over the board, which are large and so drawn last.
        let t = &mut *t;
        for face in Face::ALL {
            if !t.items.iter().any(|q| q.face == face) {
                continue;
            }
            let weight = match face {
                Face::Regular => Weight::Regular,
                Face::Bold => Weight::Bold,
                Face::Large => {
                    let dpi = miniquad::window::dpi_scale();
                    let (chars, items) = (&t.chars, &t.items);
                    if let Some(large) = t.large.as_mut().and_then(Option::as_mut) {
                        for q in items.iter().filter(|q| q.face == face) {
                            let size = atlas_size(q.font_size);
                            let at = (q.x, q.y);
                            large.draw(
                                &chars[q.start..q.end],
                                at,
                                size,
                                q.font_scale,
                                dpi,
                                q.color,
                            );
                        }
                    }
                    continue;
                }
            };
            let font = t.fonts.get(weight);
            for q in t.items.iter().filter(|q| q.face == face) {
                let p = TextParams {
                    font,
                    font_size: q.font_size,
                    font_scale: q.font_scale,
                    color: q.color,
                    ..Default::default()
                };
                draw_text_ex(&t.chars[q.start..q.end], q.x, q.y, p);
            }
        }
        t.items.clear();
        t.chars.clear();
        use_shapes_material();
    });
}

/// macroquad's own vertex shader, unchanged.
const FLAT_VERTEX: &str = r#"#version 100
attribute vec3 position;
attribute vec2 texcoord;
attribute vec4 color0;

varying lowp vec4 color;

uniform mat4 Model;
uniform mat4 Projection;

void main() {
    gl_Position = Projection * Model * vec4(position, 1);
    color = color0 / 255.0;
}"#;

/// The fragment shader for shapes: the vertex colour alone. macroquad's default shader
/// multiplies it by a texture sample (a 1×1 white texture for shapes), and under software
/// rendering (Mesa's llvmpipe) that sampling was most of the cost of every pixel filled.
const FLAT_FRAGMENT: &str = r#"#version 100
varying lowp vec4 color;

void main() {
    gl_FragColor = color;
}"#;

/// Builds the flat-colour material: blending like macroquad's default one when `blend`, else
/// writing its colour over whatever is there (for opaque layers: no read of the old pixel).
fn flat_material(blend: bool) -> Result<Material, macroquad::Error> {
    use macroquad::miniquad::{BlendFactor, BlendState, BlendValue, Equation, PipelineParams};
    load_material(
        ShaderSource::Glsl {
            vertex: FLAT_VERTEX,
            fragment: FLAT_FRAGMENT,
        },
        MaterialParams {
            pipeline_params: PipelineParams {
                color_blend: blend.then(|| {
                    BlendState::new(
                        Equation::Add,
                        BlendFactor::Value(BlendValue::SourceAlpha),
                        BlendFactor::OneMinusValue(BlendValue::SourceAlpha),
                    )
                }),
                ..Default::default()
            },
            ..Default::default()
        },
    )
}

thread_local! {
    /// The flat-colour materials, blending and opaque (see [`flat_material`]); the background
    /// is drawn by a free function every screen calls without a [`Gfx`] at hand. Set by
    /// [`Gfx::load`]; `None` if the shader failed to build.
    static FLAT: std::cell::RefCell<Option<(Material, Material)>> =
        const { std::cell::RefCell::new(None) };
}

/// Selects the blending flat-colour material for the shapes that follow (after a textured
/// draw, which needs macroquad's default material: the flat one samples no texture).
pub(in crate::render) fn use_shapes_material() {
    FLAT.with(|f| {
        if let Some((blend, _)) = f.borrow().as_ref() {
            gl_use_material(blend);
        }
    });
}

/// The pixel size text of `px` pixels is rasterised at. macroquad caches glyphs per font size
/// for the life of the process, so every size an animation passes through (a banner that grows
/// and shrinks) would add glyphs to the atlas for good: that made memory climb past 700 MB in a
/// demo. Up to 32 px sizes are exact; above, text is rasterised at the next step of a ladder 1/4
/// apart (12 sizes up to 400 px) and scaled down to the exact size, which keeps it sharp. (The
/// ladder was 1/8 apart: the countdown and "GO!" banners then left about 60 glyphs over 90 px
/// tall in the atlas, each making its row of macroquad's shelf packing that tall.)
fn raster_size(px: f32) -> u16 {
    const EXACT: f32 = 32.0;
    if px <= EXACT {
        return px as u16;
    }
    let mut step = EXACT;
    while step < px {
        step = (step * 1.25).round();
    }
    step as u16
}

/// The size macroquad keys its glyph cache by: the rasterised size times the window's DPI
/// scale, rounded up (as `draw_text_ex` computes it).
fn atlas_size(font_size: u16) -> u16 {
    (f32::from(font_size) * miniquad::window::dpi_scale()).ceil() as u16
}

/// Drops the fonts and the glyph ledger: each face loads again, with an empty atlas, when next
/// used.
fn reset_fonts() {
    TEXT.with(|t| {
        let mut t = t.borrow_mut();
        t.fonts = Fonts::default();
        t.glyphs.clear();
    });
}

/// Cap height of DejaVu Sans as a fraction of the font size: used to centre text vertically.
const CAP: f32 = 0.73;

impl Gfx {
    /// Makes the flat-colour materials; the embedded DejaVu fonts load when first drawn
    /// (falling back to macroquad's own font if that fails).
    pub fn load() -> Gfx {
        match flat_material(true).and_then(|b| Ok((b, flat_material(false)?))) {
            Ok(pair) => FLAT.with(|f| *f.borrow_mut() = Some(pair)),
            Err(e) => {
                tracing::warn!(error = %e, "flat-colour shader failed; shapes use the default")
            }
        }
        reset_fonts();
        Gfx {
            dpi: screen_dpi_scale().max(1.0),
        }
    }

    /// Starts a frame: re-reads the DPI scale (it can change when the window moves between
    /// screens) and selects the flat-colour material for shapes. Text is queued and drawn in one
    /// batch ([`flush_text`]).
    pub fn refresh(&mut self) {
        self.dpi = screen_dpi_scale().max(1.0);
        if TEXT.with(|t| t.borrow().glyphs.over_budget()) {
            // Fresh fonts, fresh atlases: see `glyphs::BUDGET`. At the start of a frame, so no
            // queued draw names the old atlases' textures (dropped with the fonts).
            tracing::info!("glyph atlases over budget: fonts reloaded");
            reset_fonts();
        }
        self.shapes();
    }

    /// Selects the material shapes are drawn with.
    fn shapes(&self) {
        use_shapes_material();
    }

    /// How `s` in `weight` drawn at `size` is rasterised: from glyphs for `raster_for`.
    fn raster(&self, s: &str, size: f32, raster_for: f32, weight: Weight) -> Raster {
        let px = (size * self.dpi).round().clamp(4.0, 400.0);
        let font_size = raster_size((raster_for * self.dpi).round().clamp(4.0, 400.0));
        let face = match Face::of(weight, font_size, s) {
            Face::Large if TEXT.with(|t| t.borrow_mut().large().is_none()) => Face::Bold,
            face => face,
        };
        let font = match face {
            Face::Regular => TEXT.with(|t| t.borrow().fonts.get(Weight::Regular).cloned()),
            Face::Bold => TEXT.with(|t| t.borrow().fonts.get(Weight::Bold).cloned()),
            Face::Large => None,
        };
        Raster {
            face,
            font,
            font_size,
            font_scale: px / f32::from(font_size) / self.dpi,
        }
    }

    /// Width of `s` at `size`.
    pub fn width(&self, s: &str, size: f32, weight: Weight) -> f32 {
        self.raster(s, size, size, weight).measure(s)
    }

    /// Queues `s` to be drawn with its baseline at `y` at the next [`flush_text`].
    // Position, size, weight, alignment and colour read best spelled out at each call.
    #[allow(clippy::too_many_arguments)]
    pub fn text(&self, s: &str, x: f32, y: f32, size: f32, weight: Weight, align: Align, c: Color) {
        self.text_from(s, x, y, size, size, weight, align, c);
    }

    /// [`Gfx::text`] for text whose size animates (a popup that pops): drawn at `size` from
    /// glyphs rasterised for `raster_for` (its largest size), so an animation adds one size of
    /// glyphs to the atlas, not one per pixel it passes through.
    #[allow(clippy::too_many_arguments)]
    pub fn text_from(
        &self,
        s: &str,
        x: f32,
        y: f32,
        size: f32,
        raster_for: f32,
        weight: Weight,
        align: Align,
        c: Color,
    ) {
        let r = self.raster(s, size, raster_for, weight);
        let w = match align {
            Align::Left => {
                r.cache(s);
                0.0
            }
            _ => r.measure(s),
        };
        let x = match align {
            Align::Left => x,
            Align::Center => x - w / 2.0,
            Align::Right => x - w,
        };
        TEXT.with(|t| {
            let mut t = t.borrow_mut();
            let start = t.chars.len();
            t.chars.push_str(s);
            let end = t.chars.len();
            t.items.push(QueuedText {
                start,
                end,
                bounds: text_bounds(x.round(), y.round(), size, s.chars().count()),
                x: x.round(),
                y: y.round(),
                face: r.face,
                font_size: r.font_size,
                font_scale: r.font_scale,
                color: c,
            });
        });
    }

    /// Draws the queued text now ([`flush_text`]).
    pub fn flush_text(&self) {
        flush_text();
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

    /// The size at which `s` fits in `max_w`: `size` when it fits, smaller when not (see
    /// [`super::metrics::fit_size`]).
    pub fn fit_size(&self, s: &str, max_w: f32, size: f32, weight: Weight) -> f32 {
        super::metrics::fit_size(|px| self.width(s, px, weight), size, max_w)
    }

    /// Cuts `s` with an ellipsis so it fits in `max_w`: only for what players type (names,
    /// addresses), never for the game's own labels, which shrink instead ([`Gfx::fit_size`]).
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

/// Draws the queued text now if any of it may lie under `r` (so what is drawn in `r` next
/// covers it). Text that cannot touch `r` stays queued: the picture is the same, and the
/// frame's text stays in one batch instead of splitting the shapes' batch at every panel.
fn flush_text_under(r: Rect) {
    let under = TEXT.with(|t| t.borrow().items.iter().any(|q| q.bounds.overlaps(&r)));
    if under {
        flush_text();
    }
}

/// A filled rectangle, over any text queued before it ([`flush_text`]).
pub fn fill(r: Rect, c: Color) {
    flush_text_under(r);
    draw_rectangle(r.x, r.y, r.w, r.h, c);
}

/// A rectangle outline drawn inside `r`, over any text queued before it.
pub fn outline(r: Rect, thickness: f32, c: Color) {
    let t = thickness * 2.0;
    flush_text_under(Rect::new(r.x - t, r.y - t, r.w + 2.0 * t, r.h + 2.0 * t));
    draw_rectangle_lines(r.x, r.y, r.w, r.h, thickness * 2.0, c);
}

/// A panel: dark fill, thin frame, and an optional caption in its top strip.
pub fn panel(gfx: &Gfx, r: Rect, caption: Option<&str>, unit: f32) {
    fill(r, theme::PANEL);
    panel_over_fill(gfx, r, caption, unit);
}

/// [`panel`] without its fill, for a panel whose fill the background already drew
/// ([`background_with`]).
pub fn panel_over_fill(gfx: &Gfx, r: Rect, caption: Option<&str>, unit: f32) {
    outline(r, 1.0, super::look::frame());
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
