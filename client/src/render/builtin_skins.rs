//! The skins the game ships, drawn in code at start so the build carries no image files: a
//! bevelled one in the TETR.IO layout, a flat outlined one in the Jstris layout and a
//! connected one whose minos join into each piece's shape, all in the guideline colours.

use sevenbag_core::PieceKind;
use sevenbag_skin::layout::{CONNECTED_COLUMNS, DOWN, LEFT, RIGHT, UP};
use sevenbag_skin::{Layout, Skin};

use super::theme;

/// A skin the game ships.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuiltIn {
    /// Lit top-left edges, shaded bottom-right edges and a soft sheen (TETR.IO layout).
    Bevel,
    /// Flat colour inside a dark outline; an outline-only ghost (Jstris layout).
    Outline,
    /// Each piece one bevelled shape, its minos joined without seams (connected sheet).
    Connected,
}

/// The side of a strip built-in's tiles in pixels (a multiple of 5, as TETR.IO's layout needs).
const TILE: u32 = 30;

/// The side of the connected built-in's tiles in pixels: TETR.IO's 1× connected size.
const CONNECTED_TILE: u32 = 48;

impl BuiltIn {
    /// Every built-in, in the order the settings step through them.
    pub const ALL: [BuiltIn; 3] = [BuiltIn::Bevel, BuiltIn::Outline, BuiltIn::Connected];

    /// The settings-file name.
    pub fn name(self) -> &'static str {
        match self {
            BuiltIn::Bevel => "bevel",
            BuiltIn::Outline => "outline",
            BuiltIn::Connected => "connected",
        }
    }

    /// The built-in with settings-file name `name`.
    pub fn from_name(name: &str) -> Option<BuiltIn> {
        BuiltIn::ALL.into_iter().find(|b| b.name() == name)
    }

    /// What the settings screen shows.
    pub fn label(self) -> &'static str {
        match self {
            BuiltIn::Bevel => "bevel",
            BuiltIn::Outline => "flat outline",
            BuiltIn::Connected => "connected",
        }
    }

    /// The layout the skin is drawn in.
    pub fn layout(self) -> Layout {
        match self {
            BuiltIn::Bevel => Layout::Tetrio,
            BuiltIn::Outline => Layout::Jstris,
            BuiltIn::Connected => Layout::Connected,
        }
    }

    /// The side of the skin's tiles in pixels.
    pub fn tile(self) -> u32 {
        match self {
            BuiltIn::Bevel | BuiltIn::Outline => TILE,
            BuiltIn::Connected => CONNECTED_TILE,
        }
    }

    /// The skin's image as 8-bit RGBA: width, height and pixels.
    pub fn strip(self) -> (u32, u32, Vec<u8>) {
        let layout = self.layout();
        let tile = self.tile();
        let (width, height) = (layout.width(tile), layout.height(tile));
        let mut rgba = vec![0u8; width as usize * height as usize * 4];
        for index in 0..layout.tile_count() {
            let (left, top) = (layout.tile_x(tile, index), layout.tile_y(tile, index));
            let shows = Shows::at(layout, index);
            let joined = (index % CONNECTED_COLUMNS) as u8;
            for y in 0..tile {
                for x in 0..tile {
                    let p = match self {
                        BuiltIn::Bevel => bevel(shows, x, y),
                        BuiltIn::Outline => outline(shows, x, y),
                        BuiltIn::Connected => connected(shows, joined, x, y),
                    };
                    let at = ((top + y) as usize * width as usize + (left + x) as usize) * 4;
                    rgba[at..at + 4].copy_from_slice(&p);
                }
            }
        }
        (width, height, rgba)
    }

    /// The skin, cut from its strip by the skin crate's own layout rules.
    pub fn skin(self) -> Skin {
        let (width, height, rgba) = self.strip();
        sevenbag_skin::from_rgba(width, height, &rgba)
            .expect("a built-in strip has its layout's exact size")
    }
}

/// What a tile of a layout shows, for choosing its colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shows {
    Piece(PieceKind),
    Ghost,
    Garbage,
    /// TETR.IO's second and dark garbage tiles.
    OtherGarbage,
    /// TETR.IO's top-out warning tile.
    Warning,
}

impl Shows {
    fn at(layout: Layout, index: usize) -> Shows {
        // A connected sheet's variants show what their row's lone tile shows.
        let index = layout.variant(index, 0);
        if let Some(kind) = PieceKind::ALL
            .into_iter()
            .find(|k| layout.piece_index(*k) == index)
        {
            Shows::Piece(kind)
        } else if index == layout.ghost_index() {
            Shows::Ghost
        } else if index == layout.garbage_index() {
            Shows::Garbage
        } else if index == layout.tile_count() - 1 {
            Shows::Warning
        } else {
            Shows::OtherGarbage
        }
    }

    /// The tile's base colour.
    fn colour(self) -> [u8; 3] {
        match self {
            Shows::Piece(kind) => theme::to_rgb8(theme::piece_colour(kind)),
            Shows::Ghost => [214, 216, 228],
            Shows::Garbage => theme::to_rgb8(theme::GARBAGE),
            Shows::OtherGarbage => [72, 72, 78],
            Shows::Warning => [230, 40, 52],
        }
    }
}

/// `c` moved toward `to` by `t` (0 = c, 1 = to).
fn toward(c: [u8; 3], to: u8, t: f32) -> [u8; 3] {
    c.map(|v| (f32::from(v) + (f32::from(to) - f32::from(v)) * t).round() as u8)
}

fn opaque([r, g, b]: [u8; 3]) -> [u8; 4] {
    [r, g, b, 255]
}

/// A bevelled block: light top and left edges, dark bottom and right ones, and a sheen that
/// fades from the top of the face.
fn bevel(shows: Shows, x: u32, y: u32) -> [u8; 4] {
    let c = shows.colour();
    let edge = 4;
    let far = TILE - 1;
    let (top, left, bottom, right) = (y < edge, x < edge, far - y < edge, far - x < edge);
    // Where two edges meet, the one nearer the pixel wins, so the corners are mitred.
    let shade = if top && y <= x && y <= far - x {
        toward(c, 255, 0.42)
    } else if bottom && far - y <= x && far - y <= far - x {
        toward(c, 0, 0.38)
    } else if left {
        toward(c, 255, 0.22)
    } else if right {
        toward(c, 0, 0.24)
    } else {
        let sheen = 0.18 * (1.0 - (y - edge) as f32 / (TILE - 2 * edge) as f32);
        toward(c, 255, sheen)
    };
    opaque(shade)
}

/// A flat block inside a dark outline; the ghost is the outline alone, in light grey.
fn outline(shows: Shows, x: u32, y: u32) -> [u8; 4] {
    let c = shows.colour();
    // The ghost's outline is all it has, so it is a little thicker.
    let line = if shows == Shows::Ghost { 4 } else { 3 };
    let far = TILE - 1;
    let on_line = x < line || y < line || far - x < line || far - y < line;
    match (shows, on_line) {
        (Shows::Ghost, true) => opaque(c),
        (Shows::Ghost, false) => [0; 4],
        (_, true) => opaque(toward(c, 0, 0.55)),
        (_, false) => opaque(c),
    }
}

/// A connected tile: the face fills every side joined to the piece, and the sides that are not
/// get the bevel's edges (lit top and left, shaded bottom and right), so each piece reads as one
/// bevelled shape. The ghost is a translucent face with light edges.
fn connected(shows: Shows, joined: u8, x: u32, y: u32) -> [u8; 4] {
    let c = shows.colour();
    let edge = 6;
    let far = CONNECTED_TILE - 1;
    let open = |side: u8| joined & side == 0;
    let (top, left) = (y < edge && open(UP), x < edge && open(LEFT));
    let (bottom, right) = (far - y < edge && open(DOWN), far - x < edge && open(RIGHT));
    if shows == Shows::Ghost {
        let alpha = if top || left || bottom || right {
            230
        } else {
            70
        };
        return [c[0], c[1], c[2], alpha];
    }
    // The nearer edge wins where two meet, so outer corners are mitred like the bevel's.
    let shade = if top && (!left || y <= x) && (!right || y <= far - x) {
        toward(c, 255, 0.42)
    } else if bottom && (!left || far - y <= x) && (!right || far - y <= far - x) {
        toward(c, 0, 0.38)
    } else if left {
        toward(c, 255, 0.22)
    } else if right {
        toward(c, 0, 0.24)
    } else {
        toward(c, 255, 0.06)
    };
    opaque(shade)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::skin::{Mino, tile_of};

    #[test]
    fn every_built_in_is_a_skin_of_its_layout_with_every_tile() {
        for b in BuiltIn::ALL {
            let skin = b.skin();
            assert_eq!(skin.layout(), b.layout(), "{b:?}");
            assert_eq!(skin.tiles().len(), b.layout().tile_count(), "{b:?}");
            assert!(
                skin.tiles().iter().all(|t| t.size() == b.tile()),
                "{b:?}: every tile {} px",
                b.tile()
            );
        }
    }

    #[test]
    fn every_built_in_survives_its_png_through_the_decoder() {
        for b in BuiltIn::ALL {
            let skin = b.skin();
            assert_eq!(sevenbag_skin::decode(&skin.to_png()), Ok(skin), "{b:?}");
        }
    }

    #[test]
    fn every_piece_of_a_built_in_shows_its_guideline_colour_at_the_centre() {
        for b in BuiltIn::ALL {
            let skin = b.skin();
            for kind in PieceKind::ALL {
                let tile = &skin.tiles()[tile_of(skin.layout(), Mino::Piece(kind))];
                let t = b.tile();
                let [r, g, b2, a] = tile.pixel(t / 2, t - 8).expect("inside");
                let [er, eg, eb] = theme::to_rgb8(theme::piece_colour(kind));
                assert_eq!(a, 255);
                let near = |p: u8, e: u8| p.abs_diff(e) <= 40;
                assert!(near(r, er) && near(g, eg) && near(b2, eb), "{b:?} {kind:?}");
            }
        }
    }

    #[test]
    fn a_connected_tile_joined_on_a_side_has_no_edge_there() {
        let skin = BuiltIn::Connected.skin();
        let lone = skin.piece(PieceKind::S);
        let index = skin.layout().piece_index(PieceKind::S);
        let right = skin.joined(index, RIGHT);
        let face = lone.pixel(24, 24);
        // Halfway down the right side: an edge on the lone tile, the face on the joined one.
        assert_ne!(lone.pixel(47, 24), face);
        assert_eq!(right.pixel(47, 24), face);
        assert_ne!(right.pixel(0, 24), face, "the left side keeps its edge");
    }

    #[test]
    fn built_in_names_round_trip() {
        for b in BuiltIn::ALL {
            assert_eq!(BuiltIn::from_name(b.name()), Some(b));
        }
        assert_eq!(BuiltIn::from_name("sparkle"), None);
    }
}
