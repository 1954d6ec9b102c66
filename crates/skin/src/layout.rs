//! The three layouts: where each tile sits in the image and what it shows.
//!
//! The two strips are one row of square tiles as high as the image; the connected sheet is a
//! grid. They are told apart by the aspect ratio alone, which no image has for two of them.
//!
//! | layout | size | tiles |
//! | --- | --- | --- |
//! | TETR.IO | 12.4 × height (372×30: tiles of 30 px, 31 px apart) | Z L O S I J T, ghost, garbage, garbage 2, dark garbage, top-out warning |
//! | Jstris | 9 × height (270×30: tiles of 30 px, side by side) | garbage, ghost, Z L O S I J T |
//! | connected | 16 × 9 tiles of 48 or 96 px (768×432, 1536×864) | a row each for Z L O S I J T, ghost, garbage; a column for each set of joined sides |
//!
//! ## The connected sheet
//!
//! A connected skin draws each mino joined to the minos of the same piece beside it, so a
//! mino's tile depends on which of its four sides touch its piece. The sheet holds all sixteen
//! variants for each of its nine rows: column `c` is the tile whose joined sides are the set
//! bits of `c` ([`UP`], [`RIGHT`], [`DOWN`], [`LEFT`]); column 0 is a lone mino, column 15 one
//! joined on every side. Tiles are 48 px (1×) or 96 px (2×), the two sizes of TETR.IO's
//! connected skins, side by side with no gap. The sheet is this crate's own arrangement of
//! those tiles: TETR.IO's own connected atlas is not read.

use sevenbag_core::PieceKind;

/// A connected tile's side joined to the mino above it (on screen).
pub const UP: u8 = 1;
/// A connected tile's side joined to the mino to its right.
pub const RIGHT: u8 = 2;
/// A connected tile's side joined to the mino below it (on screen).
pub const DOWN: u8 = 4;
/// A connected tile's side joined to the mino to its left.
pub const LEFT: u8 = 8;

/// Columns of the connected sheet: one for each set of joined sides.
pub const CONNECTED_COLUMNS: usize = 16;
/// Rows of the connected sheet: Z L O S I J T, ghost, garbage.
pub const CONNECTED_ROWS: usize = 9;
/// The tile sizes a connected sheet may have, in pixels: TETR.IO's 1× and 2×.
pub const CONNECTED_TILES: [u32; 2] = [48, 96];

/// A skin file's layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Layout {
    /// TETR.IO's raster skin: 12 tiles with a gap of a 30th of a tile after each.
    Tetrio,
    /// Jstris's raster skin: 9 tiles side by side.
    Jstris,
    /// The connected sheet: 9 rows of 16 tiles, one for each set of joined sides.
    Connected,
}

impl Layout {
    /// The layout's name: `tetrio`, `jstris` or `connected`.
    pub const fn name(self) -> &'static str {
        match self {
            Layout::Tetrio => "tetrio",
            Layout::Jstris => "jstris",
            Layout::Connected => "connected",
        }
    }

    /// How many tiles the image holds: 12, 9, or 144 (9 rows of 16).
    pub const fn tile_count(self) -> usize {
        match self {
            Layout::Tetrio => 12,
            Layout::Jstris => 9,
            Layout::Connected => CONNECTED_ROWS * CONNECTED_COLUMNS,
        }
    }

    /// Whether a mino's tile depends on the sides it joins ([`Layout::variant`]).
    pub const fn connects(self) -> bool {
        matches!(self, Layout::Connected)
    }

    /// The width of the image with tiles of `tile` px (a TETR.IO tile is a multiple of 5 px,
    /// which [`crate::decode`] ensures).
    pub const fn width(self, tile: u32) -> u32 {
        match self {
            Layout::Tetrio => tile * 62 / 5,
            Layout::Jstris => tile * 9,
            Layout::Connected => tile * CONNECTED_COLUMNS as u32,
        }
    }

    /// The height of the image with tiles of `tile` px: one tile, or nine rows of them.
    pub const fn height(self, tile: u32) -> u32 {
        match self {
            Layout::Tetrio | Layout::Jstris => tile,
            Layout::Connected => tile * CONNECTED_ROWS as u32,
        }
    }

    /// The x of tile `index`'s left column in an image with tiles of `tile` px: TETR.IO's
    /// tiles are a twelfth of the width apart (31 px at 30 px tiles), rounded down.
    pub const fn tile_x(self, tile: u32, index: usize) -> u32 {
        match self {
            Layout::Tetrio => (index as u32) * self.width(tile) / 12,
            Layout::Jstris => (index as u32) * tile,
            Layout::Connected => (index % CONNECTED_COLUMNS) as u32 * tile,
        }
    }

    /// The y of tile `index`'s top row: 0 in a strip.
    pub const fn tile_y(self, tile: u32, index: usize) -> u32 {
        match self {
            Layout::Tetrio | Layout::Jstris => 0,
            Layout::Connected => (index / CONNECTED_COLUMNS) as u32 * tile,
        }
    }

    /// The tile to draw for the mino whose lone tile is `index` when the sides in `joined`
    /// ([`UP`] | [`RIGHT`] | [`DOWN`] | [`LEFT`]) touch its piece: that row's variant in a
    /// connected sheet, `index` itself in a strip, which has one tile a mino.
    pub const fn variant(self, index: usize, joined: u8) -> usize {
        match self {
            Layout::Connected => index - index % CONNECTED_COLUMNS + (joined & 15) as usize,
            Layout::Tetrio | Layout::Jstris => index,
        }
    }

    /// The index of `kind`'s (lone) tile: Z L O S I J T from 0 (TETR.IO), from 2 (Jstris), or
    /// the first tile of rows 0 to 6 (connected).
    pub fn piece_index(self, kind: PieceKind) -> usize {
        let first = match self {
            Layout::Tetrio | Layout::Connected => 0,
            Layout::Jstris => 2,
        };
        let at = match kind {
            PieceKind::Z => 0,
            PieceKind::L => 1,
            PieceKind::O => 2,
            PieceKind::S => 3,
            PieceKind::I => 4,
            PieceKind::J => 5,
            PieceKind::T => 6,
        };
        match self {
            Layout::Connected => at * CONNECTED_COLUMNS,
            Layout::Tetrio | Layout::Jstris => first + at,
        }
    }

    /// The index of the (lone) ghost tile.
    pub const fn ghost_index(self) -> usize {
        match self {
            Layout::Tetrio => 7,
            Layout::Jstris => 1,
            Layout::Connected => 7 * CONNECTED_COLUMNS,
        }
    }

    /// The index of the (first, lone) garbage tile.
    pub const fn garbage_index(self) -> usize {
        match self {
            Layout::Tetrio => 8,
            Layout::Jstris => 0,
            Layout::Connected => 8 * CONNECTED_COLUMNS,
        }
    }
}

impl std::fmt::Display for Layout {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::{MAX_TILE, MIN_TILE};

    #[test]
    fn tetrio_tiles_are_31_px_apart_at_30_px() {
        let xs: Vec<u32> = (0..12).map(|i| Layout::Tetrio.tile_x(30, i)).collect();
        assert_eq!(xs, (0..12).map(|i| i * 31).collect::<Vec<u32>>());
    }

    #[test]
    fn the_last_tetrio_tile_fits_at_every_size() {
        for tile in (MIN_TILE..=MAX_TILE).filter(|t| t % 5 == 0) {
            let last = Layout::Tetrio.tile_x(tile, 11);
            assert!(last + tile <= Layout::Tetrio.width(tile), "{tile}");
            assert!(last >= Layout::Tetrio.tile_x(tile, 10) + tile, "{tile}");
        }
    }

    #[test]
    fn the_piece_tiles_follow_z_l_o_s_i_j_t() {
        assert_eq!(Layout::Tetrio.piece_index(PieceKind::Z), 0);
        assert_eq!(Layout::Tetrio.piece_index(PieceKind::T), 6);
        assert_eq!(Layout::Jstris.piece_index(PieceKind::Z), 2);
        assert_eq!(Layout::Jstris.piece_index(PieceKind::T), 8);
    }

    #[test]
    fn the_layouts_display_as_their_names() {
        assert_eq!(Layout::Tetrio.to_string(), "tetrio");
        assert_eq!(Layout::Jstris.to_string(), "jstris");
        assert_eq!(Layout::Connected.to_string(), "connected");
    }

    #[test]
    fn a_connected_sheet_is_nine_rows_of_sixteen_tiles() {
        assert_eq!(
            (Layout::Connected.width(48), Layout::Connected.height(48)),
            (768, 432)
        );
        assert_eq!(
            (Layout::Connected.width(96), Layout::Connected.height(96)),
            (1536, 864)
        );
        assert_eq!(Layout::Connected.tile_count(), 144);
        let last = Layout::Connected.tile_count() - 1;
        assert_eq!(
            (
                Layout::Connected.tile_x(48, last),
                Layout::Connected.tile_y(48, last)
            ),
            (720, 384)
        );
    }

    #[test]
    fn a_connected_variant_is_the_column_of_its_joined_sides() {
        let t = Layout::Connected.piece_index(PieceKind::T);
        assert_eq!(t, 6 * 16);
        assert_eq!(Layout::Connected.variant(t, 0), t);
        assert_eq!(Layout::Connected.variant(t, LEFT | RIGHT | DOWN), t + 14);
        let garbage = Layout::Connected.garbage_index();
        assert_eq!(Layout::Connected.variant(garbage, UP), 8 * 16 + 1);
    }

    #[test]
    fn a_strip_has_one_tile_whatever_the_joined_sides() {
        let t = Layout::Tetrio.piece_index(PieceKind::T);
        assert_eq!(Layout::Tetrio.variant(t, UP | DOWN), t);
        assert!(!Layout::Jstris.connects() && Layout::Connected.connects());
    }
}
