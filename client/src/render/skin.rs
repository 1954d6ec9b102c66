//! The block skin in force: which tile of a skin each mino shows, the skin's tiles packed into
//! one texture (recoloured to a colour-blind palette when one is chosen), and drawing a mino
//! from it.
//!
//! Like the look ([`super::look`]), the skin in force is one process-wide value, set when the
//! settings load or change and read by the drawing code; with none set, minos keep the flat
//! bevelled blocks of [`super::cells`]. The mapping, the packing and the recolouring
//! ([`tile_of`], [`Atlas`], [`recolour`]) need no window, so tests check them; only [`set`]
//! and [`draw`] touch the GPU.
//!
//! A connected skin ([`Layout::Connected`]) has a tile for each set of sides a mino joins to
//! its piece; the caller says which sides those are ([`draw`]'s `joined`), since only it knows
//! which blocks it draws together.

use std::cell::RefCell;

use macroquad::prelude::*;
use sevenbag_core::{CellKind, PieceKind};
use sevenbag_skin::{Layout, Skin};

use super::look::{self, Palette};

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

/// Tiles a row of the packed texture holds for a strip skin (12 or 9 tiles).
const ATLAS_COLUMNS: usize = 4;

/// Tiles a row of the packed texture holds for a connected sheet (144 tiles): one row of the
/// sheet, so the texture stays about as wide as high.
const CONNECTED_ATLAS_COLUMNS: usize = 16;

/// A skin's tiles packed into one image, each framed by a copy of its own edge pixels so that
/// sampling at a tile's border never picks up its neighbour (no seams when scaled).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Atlas {
    layout: Layout,
    tile: u32,
    columns: usize,
    width: u32,
    height: u32,
    rgba: Vec<u8>,
    /// Each tile's average colour over its visible pixels, for the ink of letters drawn on it.
    means: Vec<[u8; 3]>,
}

impl Atlas {
    /// Packs `skin`'s tiles, [`ATLAS_COLUMNS`] a row ([`CONNECTED_ATLAS_COLUMNS`] for a
    /// connected sheet), each piece's tiles [`recolour`]ed to `palette` unless it is the
    /// guideline one (the colours skins are drawn in).
    pub fn new(skin: &Skin, palette: Palette) -> Atlas {
        let layout = skin.layout();
        let tile = skin.tile();
        let cell = tile + 2;
        let columns = if layout.connects() {
            CONNECTED_ATLAS_COLUMNS
        } else {
            ATLAS_COLUMNS
        };
        let mut tiles: Vec<Vec<u8>> = skin.tiles().iter().map(|t| t.rgba().to_vec()).collect();
        if palette != Palette::Guideline {
            for kind in PieceKind::ALL {
                let first = layout.piece_index(kind);
                let last = layout.variant(first, 15);
                for t in tiles.iter_mut().take(last + 1).skip(first) {
                    recolour(t, palette.rgb8(kind));
                }
            }
        }
        let rows = tiles.len().div_ceil(columns) as u32;
        let width = cell * columns as u32;
        let height = cell * rows;
        let mut rgba = vec![0u8; width as usize * height as usize * 4];
        for (index, t) in tiles.iter().enumerate() {
            let (left, top) = Atlas::corner(cell, columns, index);
            for y in 0..cell {
                for x in 0..cell {
                    // The frame repeats the nearest edge pixel of the tile.
                    let sx = x.saturating_sub(1).min(tile - 1) as usize;
                    let sy = y.saturating_sub(1).min(tile - 1) as usize;
                    let from = (sy * tile as usize + sx) * 4;
                    let at = ((top + y) as usize * width as usize + (left + x) as usize) * 4;
                    if let (Some(to), Some(p)) = (rgba.get_mut(at..at + 4), t.get(from..from + 4)) {
                        to.copy_from_slice(p);
                    }
                }
            }
        }
        let means = tiles.iter().map(|t| mean(t)).collect();
        Atlas {
            layout,
            tile,
            columns,
            width,
            height,
            rgba,
            means,
        }
    }

    /// The top-left corner of tile `index`'s frame, with frames `cell` px square, `columns` a
    /// row.
    fn corner(cell: u32, columns: usize, index: usize) -> (u32, u32) {
        let column = (index % columns) as u32;
        let row = (index / columns) as u32;
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

    /// Where the tile of `mino` joined to its piece on the sides in `joined`
    /// ([`sevenbag_skin::layout::UP`] and the rest; ignored by a strip skin) lies in the
    /// packed image, inside its frame.
    pub fn source(&self, mino: Mino, joined: u8) -> Rect {
        let index = self.layout.variant(tile_of(self.layout, mino), joined);
        let (left, top) = Atlas::corner(self.tile + 2, self.columns, index);
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

/// Tints a tile's RGBA pixels to `to`, keeping its shading: each pixel's lightness relative to
/// the tile's average becomes the same lightness relative to `to` (darker pixels scale `to`
/// down, lighter ones blend it toward white as far as they were toward white), alpha kept. A
/// tile of one colour becomes `to` exactly.
pub fn recolour(rgba: &mut [u8], to: [u8; 3]) {
    let [mr, mg, mb] = mean(rgba);
    let base = lightness([mr, mg, mb]);
    if base < 1.0 {
        return;
    }
    let headroom = 255.0 / base - 1.0;
    for p in rgba.chunks_exact_mut(4) {
        if p[3] == 0 {
            continue;
        }
        let ratio = lightness([p[0], p[1], p[2]]) / base;
        for c in 0..3 {
            let t = f32::from(to[c]);
            let v = if ratio <= 1.0 || headroom <= 0.0 {
                t * ratio
            } else {
                t + (255.0 - t) * ((ratio - 1.0) / headroom).min(1.0)
            };
            p[c] = v.round().clamp(0.0, 255.0) as u8;
        }
    }
}

/// The Rec. 601 lightness of an 8-bit colour, 0 to 255.
fn lightness([r, g, b]: [u8; 3]) -> f32 {
    0.299 * f32::from(r) + 0.587 * f32::from(g) + 0.114 * f32::from(b)
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

/// A skin ready to draw: the skin, the palette its tiles were packed in, and their texture.
struct Drawn {
    skin: Skin,
    palette: Palette,
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
    let palette = look::get().palette;
    let drawn = skin.and_then(|skin| {
        let atlas = Atlas::new(skin, palette);
        let (w, h) = atlas.size();
        let (w, h) = (u16::try_from(w).ok()?, u16::try_from(h).ok()?);
        let texture = Texture2D::from_rgba8(w, h, atlas.rgba());
        texture.set_filter(FilterMode::Nearest);
        Some(Drawn {
            skin: skin.clone(),
            palette,
            atlas,
            texture,
        })
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

/// Packs the skin in force again if the palette changed since it was packed, so its pieces
/// take the new palette's colours.
fn follow_palette() {
    let palette = look::get().palette;
    let stale = ACTIVE.with(|a| {
        a.borrow()
            .as_ref()
            .filter(|d| d.palette != palette)
            .map(|d| d.skin.clone())
    });
    if let Some(skin) = stale {
        set(Some(&skin));
    }
}

/// Whether a skin is in force.
pub fn active() -> bool {
    ACTIVE.with(|a| a.borrow().is_some())
}

/// Whether the skin in force joins a piece's minos ([`Layout::connects`]).
pub fn connects() -> bool {
    ACTIVE.with(|a| {
        a.borrow()
            .as_ref()
            .is_some_and(|d| d.atlas.layout.connects())
    })
}

/// Draws `mino`'s tile of the skin in force over the block at `(x, y)`, side `s`, multiplied by
/// `tint`, the tile joined to its piece on the sides in `joined` where the skin is connected;
/// returns the tile's average colour, or `None` (drawing nothing) without a skin.
///
/// The tile is drawn in macroquad's textured material and the shapes' flat one is selected
/// again after it; macroquad only starts a new draw call when something is drawn in another
/// material, so minos drawn one after another still share one.
pub fn draw(x: f32, y: f32, s: f32, mino: Mino, joined: u8, tint: Color) -> Option<[u8; 3]> {
    follow_palette();
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
                source: Some(drawn.atlas.source(mino, joined)),
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
        let atlas = Atlas::new(&numbered_jstris(), Palette::Guideline);
        for (mino, index) in [
            (Mino::Garbage, 0u8),
            (Mino::Ghost, 1),
            (Mino::Piece(PieceKind::Z), 2),
            (Mino::Piece(PieceKind::T), 8),
        ] {
            let r = atlas.source(mino, 0);
            assert_eq!((r.w, r.h), (8.0, 8.0));
            let expect = 10 * (index + 1);
            for (x, y) in [(r.x, r.y), (r.right() - 1.0, r.bottom() - 1.0)] {
                assert_eq!(grey_at(&atlas, x, y), expect, "{mino:?}");
            }
        }
    }

    #[test]
    fn each_tiles_frame_repeats_its_edge_so_no_neighbour_bleeds_in() {
        let atlas = Atlas::new(&numbered_jstris(), Palette::Guideline);
        let r = atlas.source(Mino::Ghost, 0);
        assert_eq!(grey_at(&atlas, r.x - 1.0, r.y - 1.0), 20);
        assert_eq!(grey_at(&atlas, r.right(), r.bottom()), 20);
    }

    /// A connected sheet of 48 px tiles, tile `i` filled with grey level `i + 1`.
    fn numbered_sheet() -> Skin {
        let (w, h) = (16 * 48u32, 9 * 48u32);
        let mut rgba = Vec::new();
        for y in 0..h {
            for x in 0..w {
                let v = ((y / 48) * 16 + x / 48 + 1) as u8;
                rgba.extend_from_slice(&[v, v, v, 255]);
            }
        }
        sevenbag_skin::from_rgba(w, h, &rgba).expect("a connected sheet")
    }

    #[test]
    fn a_connected_minos_source_is_the_variant_of_its_joined_sides() {
        use sevenbag_skin::layout::{LEFT, RIGHT, UP};
        let atlas = Atlas::new(&numbered_sheet(), Palette::Guideline);
        let t = atlas.source(Mino::Piece(PieceKind::T), LEFT | RIGHT | UP);
        assert_eq!(grey_at(&atlas, t.x, t.y), 6 * 16 + 11 + 1);
        let lone = atlas.source(Mino::Garbage, 0);
        assert_eq!(
            grey_at(&atlas, lone.right() - 1.0, lone.bottom() - 1.0),
            8 * 16 + 1
        );
    }

    #[test]
    fn a_strip_minos_source_ignores_its_joined_sides() {
        let atlas = Atlas::new(&numbered_jstris(), Palette::Guideline);
        assert_eq!(atlas.source(Mino::Ghost, 15), atlas.source(Mino::Ghost, 0));
    }

    #[test]
    fn recolouring_a_one_colour_tile_gives_the_palettes_colour() {
        let mut tile = [239, 32, 41, 255].repeat(4);
        recolour(&mut tile, [0, 114, 178]);
        assert_eq!(tile, [0, 114, 178, 255].repeat(4));
    }

    #[test]
    fn recolouring_keeps_a_tiles_shading_and_alpha() {
        // A face, a dark edge at half its lightness, a lit edge and a transparent pixel.
        let mut tile = vec![
            200, 40, 40, 255, 200, 40, 40, 255, 100, 20, 20, 200, 255, 200, 200, 255, 9, 9, 9, 0,
        ];
        recolour(&mut tile, [0, 114, 178]);
        let px = |i: usize| {
            [
                tile[4 * i],
                tile[4 * i + 1],
                tile[4 * i + 2],
                tile[4 * i + 3],
            ]
        };
        let (face, dark, lit) = (px(0), px(2), px(3));
        assert!(lightness([dark[0], dark[1], dark[2]]) < lightness([face[0], face[1], face[2]]));
        assert!(lightness([lit[0], lit[1], lit[2]]) > lightness([face[0], face[1], face[2]]));
        assert!(
            face[2] > face[0] && dark[2] > dark[0],
            "blue, not red: {face:?} {dark:?}"
        );
        assert_eq!(dark[3], 200);
        assert_eq!(px(4), [9, 9, 9, 0]);
    }

    /// A Jstris strip of 8 px tiles in the guideline colours (grey ghost and garbage), each
    /// with a lit top row and a shaded bottom row.
    fn guideline_jstris() -> Skin {
        let base = |i: u32| match PieceKind::ALL
            .into_iter()
            .find(|k| Layout::Jstris.piece_index(*k) == i as usize)
        {
            Some(kind) => Palette::Guideline.rgb8(kind),
            None => [90 + 40 * i as u8; 3],
        };
        let mut rgba = Vec::new();
        for y in 0..8u32 {
            for x in 0..72u32 {
                let c = base(x / 8).map(|v| match y {
                    0 => v.saturating_add(60),
                    7 => v / 2,
                    _ => v,
                });
                rgba.extend_from_slice(&[c[0], c[1], c[2], 255]);
            }
        }
        sevenbag_skin::from_rgba(72, 8, &rgba).expect("a Jstris strip")
    }

    #[test]
    fn a_colour_blind_palette_recolours_the_piece_tiles_and_nothing_else() {
        let skin = guideline_jstris();
        let plain = Atlas::new(&skin, Palette::Guideline);
        let safe = Atlas::new(&skin, Palette::RedGreen);
        for kind in PieceKind::ALL {
            let [r, g, b] = safe.mean(Mino::Piece(kind));
            let [er, eg, eb] = Palette::RedGreen.rgb8(kind);
            // The lit edge lifts the average toward white, as in the guideline skin.
            let near = |p: u8, e: u8| p.abs_diff(e) <= 40;
            assert!(
                near(r, er) && near(g, eg) && near(b, eb),
                "{kind:?}: {r} {g} {b}"
            );
        }
        assert_eq!(safe.mean(Mino::Ghost), plain.mean(Mino::Ghost));
        assert_eq!(safe.mean(Mino::Garbage), plain.mean(Mino::Garbage));
    }

    #[test]
    fn the_guideline_palette_leaves_a_skin_as_drawn() {
        let skin = numbered_jstris();
        let atlas = Atlas::new(&skin, Palette::Guideline);
        let z = atlas.source(Mino::Piece(PieceKind::Z), 0);
        assert_eq!(grey_at(&atlas, z.x, z.y), 30);
    }

    #[test]
    fn a_tiles_mean_colour_ignores_its_transparent_pixels() {
        assert_eq!(mean(&[200, 100, 0, 255, 9, 9, 9, 0]), [200, 100, 0]);
        assert_eq!(mean(&[9, 9, 9, 0]), [0, 0, 0]);
    }
}
