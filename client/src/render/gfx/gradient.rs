//! The screen background: a vertical violet gradient drawn as one opaque mesh (or scissored
//! clears in a browser), or one plain colour; opaque solids are filled in the same pass.

use macroquad::prelude::*;

use super::{FLAT, fill, use_shapes_material};
use crate::render::theme;

/// Bands of the background's vertical gradient.
const BANDS: usize = 24;

/// The colour of background band `i` (0 at the top) of [`BANDS`].
fn band_colour(i: usize) -> Color {
    let t = i as f32 / BANDS as f32;
    theme::mix(theme::BACKGROUND_HI, theme::BACKGROUND, t.powf(0.7))
}

/// Whether the background is one plain colour instead of the gradient (Settings › DISPLAY).
static PLAIN: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Draws the background plain (`true`) or as the gradient from now on.
pub fn set_plain_background(plain: bool) {
    PLAIN.store(plain, std::sync::atomic::Ordering::Relaxed);
}

/// The screen background: a vertical gradient, from a lighter violet at the top (or one plain
/// colour, [`set_plain_background`]).
///
/// The bands are one mesh drawn with the opaque flat-colour material: no texture sample and no
/// blending, so each pixel is a plain write. Under software rendering (Mesa's llvmpipe) that is
/// the cheapest full-window layer there is; the previous scissored clears went through Mesa's
/// clear-with-a-quad path and cost a third of a menu frame. Shapes go back to the blending
/// material afterwards.
pub fn background(w: f32, h: f32) {
    background_with(w, h, &[]);
}

/// [`background`] with opaque `solids` (a well, a side box) filled in the same mesh: the
/// gradient is not drawn under them, so those pixels are written once instead of twice, the
/// second time through blending. The solids must be opaque and must not overlap.
///
/// The plain background is a clear of the whole frame (the cheapest way there is to fill it:
/// no rasterising) with the solids drawn over it.
///
/// In a browser the gradient is scissored clears instead (see [`gradient_clears`]).
pub fn background_with(w: f32, h: f32, solids: &[(Rect, Color)]) {
    // High contrast is always plain, and darker.
    let back = crate::render::look::background();
    let plain = PLAIN.load(std::sync::atomic::Ordering::Relaxed) || back != theme::BACKGROUND;
    if plain {
        clear_background(back);
    }
    // The bands as clears, so the mesh below carries only the solids.
    #[cfg(target_arch = "wasm32")]
    let plain = plain || gradient_clears(w, h);
    let drawn = FLAT.with(|f| {
        let f = f.borrow();
        let Some((_, opaque)) = f.as_ref() else {
            return false;
        };
        gl_use_material(opaque);
        let bands = if plain { 0 } else { BANDS };
        draw_mesh(&band_mesh(w, h, bands, solids));
        true
    });
    use_shapes_material();
    if !drawn {
        clear_background(back);
        for i in (0..BANDS).filter(|_| !plain) {
            let (top, bottom) = band_span(i, h);
            draw_rectangle(0.0, top, w, bottom - top, band_colour(i));
        }
        for (r, c) in solids {
            fill(*r, *c);
        }
    }
}

/// The gradient as one scissored clear per band; true once drawn. A browser without a GPU
/// renders WebGL with SwiftShader, which clears a band far faster than it rasterises one: the
/// band mesh alone held a page at about 40 frames/s, the clears at 60 (BENCHMARKS.md, "The page
/// at 60 frames/s"). Mesa's llvmpipe is the other way round (it clears through a drawn quad),
/// so the native game keeps the mesh.
#[cfg(target_arch = "wasm32")]
fn gradient_clears(w: f32, h: f32) -> bool {
    use macroquad::miniquad::gl;
    clear_background(theme::BACKGROUND);
    let dpi = screen_dpi_scale();
    let (pw, ph) = ((w * dpi).round() as i32, (h * dpi).round() as i32);
    // SAFETY: plain GL state calls on the thread that owns the context. `clear_background` has
    // just flushed this frame's batch and left the window's framebuffer bound; macroquad issues
    // the frame's draws later, each in a render pass that sets its own scissor state, and the
    // scissor test is off again before they run.
    unsafe {
        gl::glEnable(gl::GL_SCISSOR_TEST);
        for i in 0..BANDS {
            let (top, bottom) = band_span(i, ph as f32);
            let (top, bottom) = (top as i32, bottom as i32);
            let c = band_colour(i);
            // GL's window origin is the bottom-left corner.
            gl::glScissor(0, ph - bottom, pw, bottom - top);
            gl::glClearColor(c.r, c.g, c.b, 1.0);
            gl::glClear(gl::GL_COLOR_BUFFER_BIT);
        }
        gl::glDisable(gl::GL_SCISSOR_TEST);
    }
    true
}

/// Top and bottom of background band `i` in a window `h` tall.
fn band_span(i: usize, h: f32) -> (f32, f32) {
    (
        (h * i as f32 / BANDS as f32).floor(),
        (h * (i + 1) as f32 / BANDS as f32).floor(),
    )
}

/// The background as one mesh of `bands` bands (0: only the solids): each band split into strips at the solids' top and bottom
/// edges, each strip's row of quads leaving out the solids it crosses; then the solids.
fn band_mesh(w: f32, h: f32, bands: usize, solids: &[(Rect, Color)]) -> Mesh {
    let mut vertices = Vec::with_capacity(bands * 4 * (1 + solids.len()) + solids.len() * 4);
    let mut indices = Vec::with_capacity(vertices.capacity() / 4 * 6);
    let mut quad = |x0: f32, y0: f32, x1: f32, y1: f32, c: Color| {
        if x1 <= x0 || y1 <= y0 {
            return;
        }
        let base = vertices.len() as u16;
        for (x, y) in [(x0, y0), (x1, y0), (x1, y1), (x0, y1)] {
            vertices.push(macroquad::models::Vertex::new(x, y, 0.0, 0.0, 0.0, c));
        }
        indices.extend([base, base + 1, base + 2, base, base + 2, base + 3]);
    };
    for i in 0..bands {
        let (top, bottom) = band_span(i, h);
        let c = band_colour(i);
        let mut cuts: Vec<f32> = vec![top, bottom];
        for (r, _) in solids {
            for y in [r.y, r.bottom()] {
                if y > top && y < bottom {
                    cuts.push(y);
                }
            }
        }
        cuts.sort_by(f32::total_cmp);
        for strip in cuts.windows(2) {
            let (y0, y1) = (strip[0], strip[1]);
            let mut gaps: Vec<(f32, f32)> = solids
                .iter()
                .filter(|(r, _)| r.y < y1 && r.bottom() > y0)
                .map(|(r, _)| (r.x, r.right()))
                .collect();
            gaps.sort_by(|a, b| a.0.total_cmp(&b.0));
            let mut x = 0.0;
            for (g0, g1) in gaps {
                quad(x, y0, g0.max(x), y1, c);
                x = x.max(g1);
            }
            quad(x, y0, w, y1, c);
        }
    }
    for (r, c) in solids {
        quad(r.x, r.y, r.right(), r.bottom(), *c);
    }
    Mesh {
        vertices,
        indices,
        texture: None,
    }
}
