//! The block skin in force: which tile of a skin each mino shows, the skin's tiles packed into
//! one texture, and drawing a mino from it.
//!
//! Like the look ([`super::look`]), the skin in force is one process-wide value, set when the
//! settings load or change and read by the drawing code; with none set, minos keep the flat
//! bevelled blocks of [`super::cells`]. The mapping and the packing ([`tile_of`], [`Atlas`])
//! need no window, so tests check them; only [`set`] and [`draw`] touch the GPU.

use std::cell::RefCell;

use macroquad::prelude::*;
use sevenbag_core::{CellKind, PieceKind};
use sevenbag_skin::{Layout, Skin};

/// What a drawn block shows, as far as choosing its tile goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mino {
    /// A block of a piece of this kind: locked, falling, held or queued.
    Piece(PieceKind),
    /// A block of the ghost.
    Ghost,
    /// A block of risen garbage.
    Garbage,
}

impl From<CellKind> for Mino {
    fn from(kind: CellKind) -> Mino {
        match kind {
            CellKind::Piece(k) => Mino::Piece(k),
            CellKind::Garbage => Mino::Garbage,
        }
    }
}

/// The index of the tile that `mino` shows in a skin of `layout`.
pub fn tile_of(layout: Layout, mino: Mino) -> usize {
    match mino {
        Mino::Piece(kind) => layout.piece_index(kind),
        Mino::Ghost => layout.ghost_index(),
        Mino::Garbage => layout.garbage_index(),
    }
}

/// Tiles a row of the packed texture holds.
const ATLAS_COLUMNS: usize = 4;

/// A skin's tiles packed into one image, each framed by a copy of its own edge pixels so that
/// sampling at a tile's border never picks up its neighbour (no seams when scaled).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Atlas {
    layout: Layout,
    tile: u32,
    width: u32,
    height: u32,
    rgba: Vec<u8>,
    /// Each tile's average colour over its visible pixels, for the ink of letters drawn on it.
    means: Vec<[u8; 3]>,
}

impl Atlas {
    /// Packs `skin`'s tiles, [`ATLAS_COLUMNS`] a row.
    pub fn new(skin: &Skin) -> Atlas {
        let tile = skin.tile();
        let cell = tile + 2;
        let count = skin.tiles().len();
        let rows = count.div_ceil(ATLAS_COLUMNS) as u32;
        let width = cell * ATLAS_COLUMNS as u32;
        let height = cell * rows;
        let mut rgba = vec![0u8; width as usize * height as usize * 4];
        for (index, t) in skin.tiles().iter().enumerate() {
            let (left, top) = Atlas::corner(cell, index);
            for y in 0..cell {
                for x in 0..cell {
                    // The frame repeats the nearest edge pixel of the tile.
                    let sx = x.saturating_sub(1).min(tile - 1);
                    let sy = y.saturating_sub(1).min(tile - 1);
                    let p = t.pixel(sx, sy).unwrap_or([0; 4]);
                    let at = ((top + y) as usize * width as usize + (left + x) as usize) * 4;
                    rgba[at..at + 4].copy_from_slice(&p);
                }
            }
        }
        let means = skin.tiles().iter().map(|t| mean(t.rgba())).collect();
        Atlas {
            layout: skin.layout(),
            tile,
            width,
            height,
            rgba,
            means,
        }
    }

    /// The top-left corner of tile `index`'s frame, with frames `cell` px square.
    fn corner(cell: u32, index: usize) -> (u32, u32) {
        let column = (index % ATLAS_COLUMNS) as u32;
        let row = (index / ATLAS_COLUMNS) as u32;
        (column * cell, row * cell)
    }

    /// The packed image's size in pixels.
    pub fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    /// The packed image's pixels, 8-bit RGBA row by row.
    pub fn rgba(&self) -> &[u8] {
        &self.rgba
    }

    /// Where `mino`'s tile lies in the packed image, inside its frame.
    pub fn source(&self, mino: Mino) -> Rect {
        let (left, top) = Atlas::corner(self.tile + 2, tile_of(self.layout, mino));
        let s = self.tile as f32;
        Rect::new(left as f32 + 1.0, top as f32 + 1.0, s, s)
    }

    /// The average colour of `mino`'s tile, for choosing ink that reads on it.
    pub fn mean(&self, mino: Mino) -> [u8; 3] {
        self.means
            .get(tile_of(self.layout, mino))
            .copied()
            .unwrap_or([0; 3])
    }
}

/// The average colour of RGBA pixels, weighted by their alpha (black if all are transparent).
fn mean(rgba: &[u8]) -> [u8; 3] {
    let mut sum = [0u64; 3];
    let mut weight = 0u64;
    for p in rgba.chunks_exact(4) {
        let a = u64::from(p[3]);
        for c in 0..3 {
            sum[c] += u64::from(p[c]) * a;
        }
        weight += a;
    }
    if weight == 0 {
        return [0; 3];
    }
    sum.map(|s| (s / weight) as u8)
}

/// A skin ready to draw: its packed tiles and their texture.
struct Drawn {
    atlas: Atlas,
    texture: Texture2D,
}

thread_local! {
    /// The skin in force, if any (macroquad draws from one thread).
    static ACTIVE: RefCell<Option<Drawn>> = const { RefCell::new(None) };
}

/// Draws minos from `skin` from now on, or as flat blocks with `None`. Makes the skin's one
/// texture (nearest filtering, so its pixels stay crisp when scaled); needs the window.
pub fn set(skin: Option<&Skin>) {
    let drawn = skin.and_then(|skin| {
        let atlas = Atlas::new(skin);
        let (w, h) = atlas.size();
        let (w, h) = (u16::try_from(w).ok()?, u16::try_from(h).ok()?);
        let texture = Texture2D::from_rgba8(w, h, atlas.rgba());
        texture.set_filter(FilterMode::Nearest);
        Some(Drawn { atlas, texture })
    });
    if let Some(old) = ACTIVE.with(|a| a.replace(drawn)) {
        retire(old.texture);
    }
}

/// Deletes the texture of a skin no longer in force once GL has another texture bound:
/// miniquad 0.4 keeps a deleted texture in its binding cache and binds it again after making
/// the next texture (WebGL: "glBindTexture called with an already deleted texture"; see
/// `gfx::flush_text`). An invisible quad in macroquad's textured material binds its white
/// texture first.
fn retire(texture: Texture2D) {
    gl_use_default_material();
    draw_rectangle(-2.0, -2.0, 1.0, 1.0, BLANK);
    // SAFETY: macroquad's documented way to draw the batch so far mid-frame; no other
    // reference to its GL context is alive here.
    unsafe { get_internal_gl() }.flush();
    super::gfx::use_shapes_material();
    drop(texture);
}

/// Whether a skin is in force.
pub fn active() -> bool {
    ACTIVE.with(|a| a.borrow().is_some())
}

/// Draws `mino`'s tile of the skin in force over the block at `(x, y)`, side `s`, multiplied by
/// `tint`; returns the tile's average colour, or `None` (drawing nothing) without a skin.
///
/// The tile is drawn in macroquad's textured material and the shapes' flat one is selected
/// again after it; macroquad only starts a new draw call when something is drawn in another
/// material, so minos drawn one after another still share one.
pub fn draw(x: f32, y: f32, s: f32, mino: Mino, tint: Color) -> Option<[u8; 3]> {
    ACTIVE.with(|a| {
        let a = a.borrow();
        let drawn = a.as_ref()?;
        gl_use_default_material();
        draw_texture_ex(
            &drawn.texture,
            x,
            y,
            tint,
            DrawTextureParams {
                dest_size: Some(vec2(s, s)),
                source: Some(drawn.atlas.source(mino)),
                ..Default::default()
            },
        );
        super::gfx::use_shapes_material();
        Some(drawn.atlas.mean(mino))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A Jstris strip of 8 px tiles, tile `i` filled with grey level `10 * (i + 1)`.
    fn numbered_jstris() -> Skin {
        let (tile, count) = (8u32, 9u32);
        let mut rgba = Vec::new();
        for _y in 0..tile {
            for x in 0..tile * count {
                let v = (10 * (x / tile + 1)) as u8;
                rgba.extend_from_slice(&[v, v, v, 255]);
            }
        }
        sevenbag_skin::from_rgba(tile * count, tile, &rgba).expect("a Jstris strip")
    }

    fn grey_at(atlas: &Atlas, x: f32, y: f32) -> u8 {
        let (w, _) = atlas.size();
        atlas.rgba()[(y as usize * w as usize + x as usize) * 4]
    }

    #[test]
    fn pieces_ghost_and_garbage_use_the_layouts_tiles() {
        assert_eq!(tile_of(Layout::Tetrio, Mino::Piece(PieceKind::Z)), 0);
        assert_eq!(tile_of(Layout::Tetrio, Mino::Piece(PieceKind::T)), 6);
        assert_eq!(tile_of(Layout::Tetrio, Mino::Ghost), 7);
        assert_eq!(tile_of(Layout::Tetrio, Mino::Garbage), 8);
        assert_eq!(tile_of(Layout::Jstris, Mino::Garbage), 0);
        assert_eq!(tile_of(Layout::Jstris, Mino::Ghost), 1);
        assert_eq!(tile_of(Layout::Jstris, Mino::Piece(PieceKind::Z)), 2);
        assert_eq!(tile_of(Layout::Jstris, Mino::Piece(PieceKind::T)), 8);
    }

    #[test]
    fn a_board_cell_shows_its_piece_or_the_garbage_tile() {
        assert_eq!(
            Mino::from(CellKind::Piece(PieceKind::I)),
            Mino::Piece(PieceKind::I)
        );
        assert_eq!(Mino::from(CellKind::Garbage), Mino::Garbage);
    }

    #[test]
    fn the_atlas_source_of_a_mino_holds_that_tiles_pixels() {
        let atlas = Atlas::new(&numbered_jstris());
        for (mino, index) in [
            (Mino::Garbage, 0u8),
            (Mino::Ghost, 1),
            (Mino::Piece(PieceKind::Z), 2),
            (Mino::Piece(PieceKind::T), 8),
        ] {
            let r = atlas.source(mino);
            assert_eq!((r.w, r.h), (8.0, 8.0));
            let expect = 10 * (index + 1);
            for (x, y) in [(r.x, r.y), (r.right() - 1.0, r.bottom() - 1.0)] {
                assert_eq!(grey_at(&atlas, x, y), expect, "{mino:?}");
            }
        }
    }

    #[test]
    fn each_tiles_frame_repeats_its_edge_so_no_neighbour_bleeds_in() {
        let atlas = Atlas::new(&numbered_jstris());
        let r = atlas.source(Mino::Ghost);
        assert_eq!(grey_at(&atlas, r.x - 1.0, r.y - 1.0), 20);
        assert_eq!(grey_at(&atlas, r.right(), r.bottom()), 20);
    }

    #[test]
    fn a_tiles_mean_colour_ignores_its_transparent_pixels() {
        assert_eq!(mean(&[200, 100, 0, 255, 9, 9, 9, 0]), [200, 100, 0]);
        assert_eq!(mean(&[9, 9, 9, 0]), [0, 0, 0]);
    }
}
