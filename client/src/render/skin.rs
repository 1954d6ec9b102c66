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

use std::cell::{Cell, RefCell};

use macroquad::prelude::*;
use sevenbag_core::{CellKind, PieceKind};
use sevenbag_skin::{Layout, Skin};

use super::look::{self, Palette};
use crate::match_source::BoardSkin;

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

impl Drawn {
    /// Packs `skin` in `palette` into one texture (nearest filtering, so its pixels stay
    /// crisp when scaled); needs the window.
    fn new(skin: &Skin, palette: Palette) -> Option<Drawn> {
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
    }
}

/// Other players' skins kept packed at once: a room's other seats, and a few more.
const MOST_WORN: usize = 12;

/// Whose skin the boards drawn now show ([`on_board`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Showing {
    /// The skin in force (yours), if any.
    Yours,
    /// The default blocks.
    Plain,
    /// The worn skin at this place of `WORN`.
    Worn(usize),
}

thread_local! {
    /// The skin in force, if any (macroquad draws from one thread).
    static ACTIVE: RefCell<Option<Drawn>> = const { RefCell::new(None) };
    /// Other players' skins by id, packed on first use, the most recently used last.
    static WORN: RefCell<Vec<(String, Drawn)>> = const { RefCell::new(Vec::new()) };
    /// Whose skin minos are drawn in now.
    static SHOWING: Cell<Showing> = const { Cell::new(Showing::Yours) };
    /// Whose skins other players' boards show.
    static OTHERS: Cell<Others> = const { Cell::new(Others::Theirs) };
    /// Whether the skin in force is published to servers for others to see.
    static SHARE: Cell<bool> = const { Cell::new(true) };
}

/// Whose skins other players' boards show online (Settings › DISPLAY › Others' boards).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Others {
    /// Each board in the skin its player published (the default blocks for one who did not).
    #[default]
    Theirs,
    /// Every board in your skin.
    Yours,
    /// Other players' boards in the default blocks.
    Plain,
}

impl Others {
    /// Every choice, in the order the settings row steps through them.
    pub const ALL: [Others; 3] = [Others::Theirs, Others::Yours, Others::Plain];

    /// The settings-file name.
    pub fn name(self) -> &'static str {
        match self {
            Others::Theirs => "theirs",
            Others::Yours => "yours",
            Others::Plain => "default",
        }
    }

    /// The choice named `name` in the settings file.
    pub fn from_name(name: &str) -> Option<Others> {
        Others::ALL.into_iter().find(|o| o.name() == name)
    }

    /// What the settings row shows.
    pub fn label(self) -> &'static str {
        match self {
            Others::Theirs => "their own skins",
            Others::Yours => "your skin",
            Others::Plain => "default blocks",
        }
    }
}

/// Says whose skins other players' boards show, and whether yours is published.
pub fn set_sharing(others: Others, share: bool) {
    OTHERS.with(|o| o.set(others));
    SHARE.with(|s| s.set(share));
}

/// The skin in force as a file to publish (its canonical PNG), unless sharing is off or the
/// default blocks are in force.
#[cfg(not(target_arch = "wasm32"))]
pub fn to_publish() -> Option<Vec<u8>> {
    if !SHARE.with(Cell::get) {
        return None;
    }
    ACTIVE.with(|a| a.borrow().as_ref().map(|d| d.skin.to_png()))
}

/// In a browser: the file the skin in force was read from, if it came from one ([`set_source`]):
/// the page links no PNG encoder (its size budget, BENCHMARKS.md), so a built-in is not
/// published, and the server re-encodes what it is sent anyway.
#[cfg(target_arch = "wasm32")]
pub fn to_publish() -> Option<Vec<u8>> {
    if !SHARE.with(Cell::get) {
        return None;
    }
    SOURCE.with(|s| s.borrow().clone())
}

#[cfg(target_arch = "wasm32")]
thread_local! {
    /// The file the skin in force was read from (a skin brought to the page), for publishing.
    static SOURCE: RefCell<Option<Vec<u8>>> = const { RefCell::new(None) };
}

/// In a browser: the skin file the skin just put in force ([`set`]) was read from, published
/// online for others to see.
#[cfg(target_arch = "wasm32")]
pub fn set_source(png: Option<Vec<u8>>) {
    SOURCE.with(|s| *s.borrow_mut() = png);
}

/// Runs `draw` with minos drawn in `board`'s skin, then goes back to the skin in force.
pub fn on_board<R>(board: BoardSkin<'_>, draw: impl FnOnce() -> R) -> R {
    let showing = match (board, OTHERS.with(Cell::get)) {
        (BoardSkin::Yours, _) | (BoardSkin::Theirs(_), Others::Yours) => Showing::Yours,
        (BoardSkin::Theirs(_), Others::Plain) | (BoardSkin::Theirs(None), Others::Theirs) => {
            Showing::Plain
        }
        (BoardSkin::Theirs(Some((id, skin))), Others::Theirs) => {
            worn(id, skin).map_or(Showing::Plain, Showing::Worn)
        }
    };
    let before = SHOWING.with(|s| s.replace(showing));
    let out = draw();
    SHOWING.with(|s| s.set(before));
    out
}

/// The place in `WORN` of skin `id` packed in the palette in force (packed now if it is not).
fn worn(id: &str, skin: &Skin) -> Option<usize> {
    let palette = look::get().palette;
    let known = WORN.with(|w| {
        w.borrow()
            .iter()
            .position(|(i, d)| i == id && d.palette == palette)
    });
    if known.is_some() {
        return known;
    }
    let drawn = Drawn::new(skin, palette)?;
    let retired = WORN.with(|w| {
        let mut w = w.borrow_mut();
        let stale = w.iter().position(|(i, _)| i == id);
        let retired = match stale {
            Some(at) => Some(w.remove(at).1),
            None if w.len() >= MOST_WORN => Some(w.remove(0).1),
            None => None,
        };
        w.push((id.to_owned(), drawn));
        retired
    });
    if let Some(old) = retired {
        retire(old.texture);
    }
    Some(WORN.with(|w| w.borrow().len() - 1))
}

/// Runs `f` on the skin minos are drawn in now, if any.
fn with_showing<R>(f: impl FnOnce(&Drawn) -> R) -> Option<R> {
    match SHOWING.with(Cell::get) {
        Showing::Yours => ACTIVE.with(|a| a.borrow().as_ref().map(f)),
        Showing::Plain => None,
        Showing::Worn(at) => WORN.with(|w| w.borrow().get(at).map(|(_, d)| f(d))),
    }
}

/// Draws minos from `skin` from now on, or as flat blocks with `None`. Makes the skin's one
/// texture; needs the window.
pub fn set(skin: Option<&Skin>) {
    #[cfg(target_arch = "wasm32")]
    set_source(None);
    put(skin);
}

/// Packs `skin` (or none) as the one in force, in the palette in force.
fn put(skin: Option<&Skin>) {
    let palette = look::get().palette;
    let drawn = skin.and_then(|skin| Drawn::new(skin, palette));
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
        put(Some(&skin));
    }
}

/// Whether minos are drawn from a skin now (the board's, [`on_board`]).
pub fn active() -> bool {
    with_showing(|_| ()).is_some()
}

/// Whether the skin minos are drawn from now joins a piece's minos ([`Layout::connects`]).
pub fn connects() -> bool {
    with_showing(|d| d.atlas.layout.connects()).unwrap_or(false)
}

/// Draws `mino`'s tile of the skin in force (the board's, [`on_board`]) over the block at
/// `(x, y)`, side `s`, multiplied by `tint`, the tile joined to its piece on the sides in
/// `joined` where the skin is connected; returns the tile's average colour, or `None`
/// (drawing nothing) without a skin.
///
/// The tile is drawn in macroquad's textured material and the shapes' flat one is selected
/// again after it; macroquad only starts a new draw call when something is drawn in another
/// material, so minos drawn one after another still share one.
pub fn draw(x: f32, y: f32, s: f32, mino: Mino, joined: u8, tint: Color) -> Option<[u8; 3]> {
    follow_palette();
    with_showing(|drawn| {
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
        drawn.atlas.mean(mino)
    })
}

#[cfg(test)]
#[path = "skin_tests.rs"]
mod tests;
