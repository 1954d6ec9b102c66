//! A decoded skin: its tiles, which tile shows what, the canonical re-encoding and the
//! content address.

use sevenbag_core::PieceKind;
use sha2::{Digest, Sha256};

use crate::layout::Layout;

/// One square tile's pixels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tile {
    size: u32,
    rgba: Vec<u8>,
}

impl Tile {
    /// The side in pixels.
    pub fn size(&self) -> u32 {
        self.size
    }

    /// The pixels, row by row from the top, 4 bytes each (red, green, blue, alpha; not
    /// premultiplied). A fully transparent pixel is always `[0, 0, 0, 0]`.
    pub fn rgba(&self) -> &[u8] {
        &self.rgba
    }

    /// The pixel at column `x`, row `y` (from the top left), if inside the tile.
    pub fn pixel(&self, x: u32, y: u32) -> Option<[u8; 4]> {
        if x >= self.size || y >= self.size {
            return None;
        }
        let at = (y as usize * self.size as usize + x as usize) * 4;
        let p = self.rgba.get(at..at + 4)?;
        Some([p[0], p[1], p[2], p[3]])
    }
}

/// A block skin: its layout, its tile size, and its tiles in the file's order (12 for
/// TETR.IO, 9 for Jstris, 144 row by row for a connected sheet; see [`Layout`]). Made by [`decode`](crate::decode) only, so the
/// tile count always matches the layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skin {
    layout: Layout,
    tile: u32,
    tiles: Vec<Tile>,
}

/// What the content address hashes first: the scheme and its version.
const ID_DOMAIN: &[u8] = b"sevenbag-skin 1\n";

impl Skin {
    /// Cuts the tiles of `layout` at `tile` px out of an image whose pixel at (x, y) is
    /// `pixel(x, y)`; fully transparent pixels become `[0, 0, 0, 0]`.
    pub(crate) fn from_image(
        layout: Layout,
        tile: u32,
        pixel: impl Fn(u32, u32) -> [u8; 4],
    ) -> Skin {
        let tiles = (0..layout.tile_count())
            .map(|index| {
                let left = layout.tile_x(tile, index);
                let top = layout.tile_y(tile, index);
                let mut rgba = Vec::with_capacity(tile as usize * tile as usize * 4);
                for y in top..top + tile {
                    for x in left..left + tile {
                        let p = pixel(x, y);
                        rgba.extend_from_slice(if p[3] == 0 { &[0; 4] } else { &p });
                    }
                }
                Tile { size: tile, rgba }
            })
            .collect();
        Skin {
            layout,
            tile,
            tiles,
        }
    }

    /// The layout the file was in.
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// The tile size in pixels (a side).
    pub fn tile(&self) -> u32 {
        self.tile
    }

    /// Every tile in the file's order.
    pub fn tiles(&self) -> &[Tile] {
        &self.tiles
    }

    /// The tile a piece of `kind` is drawn with.
    pub fn piece(&self, kind: PieceKind) -> &Tile {
        &self.tiles[self.layout.piece_index(kind)]
    }

    /// The ghost piece's tile.
    pub fn ghost(&self) -> &Tile {
        &self.tiles[self.layout.ghost_index()]
    }

    /// The garbage tile (TETR.IO's first garbage tile).
    pub fn garbage(&self) -> &Tile {
        &self.tiles[self.layout.garbage_index()]
    }

    /// The variant of the tile at `index` for a mino whose sides in `joined` touch its
    /// piece ([`Layout::variant`]): a connected sheet's variant, the tile itself in a strip.
    pub fn joined(&self, index: usize, joined: u8) -> &Tile {
        &self.tiles[self.layout.variant(index, joined)]
    }

    /// The skin as a canonical PNG: its own layout and tile size, 8-bit RGBA, not interlaced,
    /// the gaps between TETR.IO tiles fully transparent, no ancillary chunks, fixed filter and
    /// compression. [`decode`](crate::decode) reads it back to an equal skin.
    pub fn to_png(&self) -> Vec<u8> {
        let width = self.layout.width(self.tile);
        let height = self.layout.height(self.tile);
        let row = width as usize * 4;
        let mut strip = vec![0u8; row * height as usize];
        for (index, tile) in self.tiles.iter().enumerate() {
            let left = self.layout.tile_x(self.tile, index) as usize * 4;
            let top = self.layout.tile_y(self.tile, index) as usize;
            for (y, line) in tile.rgba.chunks_exact(self.tile as usize * 4).enumerate() {
                let at = (top + y) * row + left;
                strip[at..at + line.len()].copy_from_slice(line);
            }
        }
        let mut out = Vec::new();
        let mut encoder = png::Encoder::new(&mut out, width, height);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_compression(png::Compression::Default);
        encoder.set_filter(png::FilterType::Paeth);
        encoder.set_adaptive_filter(png::AdaptiveFilterType::NonAdaptive);
        // Writing to a `Vec` cannot fail, and a `Skin` only exists with the dimensions and
        // tile count its layout allows, so `strip` is exactly the image the header describes.
        let mut writer = encoder
            .write_header()
            .expect("a skin's dimensions are valid PNG dimensions");
        writer
            .write_image_data(&strip)
            .expect("the strip is exactly width × height RGBA pixels");
        writer.finish().expect("writing to a Vec cannot fail");
        out
    }

    /// The skin's content address: the lowercase hex SHA-256 of its canonical bytes (the
    /// scheme's name and version, the layout's name, the tile size as 4 bytes little-endian,
    /// then every tile's RGBA in the file's order). It hashes pixels, not the PNG, so files
    /// that differ only in compression, chunks or the pixels between tiles share an id, and the
    /// id does not change with the PNG encoder behind [`Skin::to_png`].
    pub fn id(&self) -> String {
        let mut hasher = Sha256::new();
        hasher.update(ID_DOMAIN);
        hasher.update(self.layout.name().as_bytes());
        hasher.update(b"\n");
        hasher.update(self.tile.to_le_bytes());
        for tile in &self.tiles {
            hasher.update(&tile.rgba);
        }
        hasher
            .finalize()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }
}
