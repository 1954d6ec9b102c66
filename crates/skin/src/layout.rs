//! The two raster layouts: where each tile sits in the strip and what it shows.
//!
//! Both are one row of square tiles as high as the image; they are told apart by the aspect
//! ratio alone, which no image has for both.
//!
//! | layout | width | tiles, left to right |
//! | --- | --- | --- |
//! | TETR.IO | 12.4 × height (372×30: tiles of 30 px, 31 px apart) | Z L O S I J T, ghost, garbage, garbage 2, dark garbage, top-out warning |
//! | Jstris | 9 × height (270×30: tiles of 30 px, side by side) | garbage, ghost, Z L O S I J T |

use sevenbag_core::PieceKind;

/// A skin file's layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Layout {
    /// TETR.IO's raster skin: 12 tiles with a gap of a 30th of a tile after each.
    Tetrio,
    /// Jstris's raster skin: 9 tiles side by side.
    Jstris,
}

impl Layout {
    /// The layout's name: `tetrio` or `jstris`.
    pub const fn name(self) -> &'static str {
        match self {
            Layout::Tetrio => "tetrio",
            Layout::Jstris => "jstris",
        }
    }

    /// How many tiles the strip holds: 12 or 9.
    pub const fn tile_count(self) -> usize {
        match self {
            Layout::Tetrio => 12,
            Layout::Jstris => 9,
        }
    }

    /// The width of the strip with tiles of `tile` px (a TETR.IO tile is a multiple of 5 px,
    /// which [`crate::decode`] ensures).
    pub const fn width(self, tile: u32) -> u32 {
        match self {
            Layout::Tetrio => tile * 62 / 5,
            Layout::Jstris => tile * 9,
        }
    }

    /// The x of tile `index`'s left column in a strip with tiles of `tile` px: TETR.IO's tiles
    /// are a twelfth of the width apart (31 px at 30 px tiles), rounded down.
    pub const fn tile_x(self, tile: u32, index: usize) -> u32 {
        match self {
            Layout::Tetrio => (index as u32) * self.width(tile) / 12,
            Layout::Jstris => (index as u32) * tile,
        }
    }

    /// The index of `kind`'s tile: Z L O S I J T from 0 (TETR.IO) or from 2 (Jstris).
    pub fn piece_index(self, kind: PieceKind) -> usize {
        let first = match self {
            Layout::Tetrio => 0,
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
        first + at
    }

    /// The index of the ghost tile.
    pub const fn ghost_index(self) -> usize {
        match self {
            Layout::Tetrio => 7,
            Layout::Jstris => 1,
        }
    }

    /// The index of the (first) garbage tile.
    pub const fn garbage_index(self) -> usize {
        match self {
            Layout::Tetrio => 8,
            Layout::Jstris => 0,
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
    }
}
