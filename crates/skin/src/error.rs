//! Why a skin file was refused.

use crate::layout::Layout;
use crate::limits::{MAX_DECODED_BYTES, MAX_FILE_BYTES, MAX_HEIGHT, MAX_TILE, MAX_WIDTH, MIN_TILE};

/// Why [`decode`](crate::decode) refused a file. Each message names what is wrong and, where
/// there is one, the value found and the one accepted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SkinError {
    /// The file is larger than [`MAX_FILE_BYTES`].
    #[error("the file is {len} bytes: over the {MAX_FILE_BYTES}-byte limit for a skin")]
    FileTooLarge {
        /// The file's size.
        len: usize,
    },
    /// The file does not start with the PNG signature.
    #[error("not a PNG file (no PNG signature)")]
    NotPng,
    /// The file ends before its last chunk does, or before an `IEND` chunk.
    #[error("truncated PNG: {0}")]
    Truncated(&'static str),
    /// The chunks or the header break the PNG format in a way the other variants do not name.
    #[error("malformed PNG: {0}")]
    Malformed(String),
    /// The header's dimensions are over [`MAX_WIDTH`] × [`MAX_HEIGHT`].
    #[error(
        "the image is {width}×{height} pixels: over the {MAX_WIDTH}×{MAX_HEIGHT} limit for a skin"
    )]
    TooLarge {
        /// The width the header claims.
        width: u32,
        /// The height the header claims.
        height: u32,
    },
    /// Decoding would need more memory than [`MAX_DECODED_BYTES`].
    #[error("decoding needs more than the {MAX_DECODED_BYTES}-byte memory limit")]
    OverMemoryLimit,
    /// The image has 16 bits a channel.
    #[error("16 bits per channel: a skin is read with 8 bits per channel only; save it as 8-bit")]
    SixteenBit,
    /// The file is an animated PNG (it has an `acTL` chunk).
    #[error("an animated PNG (APNG, acTL chunk): a skin is one still image")]
    Animated,
    /// The width is neither 12.4 nor 9 times the height.
    #[error(
        "aspect ratio {:.2} ({width}×{height}): a TETR.IO skin is 12.4 times as wide as high \
         (372×30), a Jstris skin 9.0 times (270×30)",
        f64::from(*.width) / f64::from((*.height).max(1))
    )]
    Aspect {
        /// The image's width.
        width: u32,
        /// The image's height.
        height: u32,
    },
    /// The tiles are smaller than [`MIN_TILE`] or larger than [`MAX_TILE`].
    #[error("{layout} tiles of {tile} px: a tile is {MIN_TILE} to {MAX_TILE} px")]
    TileSize {
        /// The layout the aspect ratio picked.
        layout: Layout,
        /// The tile size found.
        tile: u32,
    },
    /// The compressed image data does not decode to the image the header describes (too little
    /// of it, a broken stream, a bad checksum).
    #[error("the image data does not decode to the header's {width}×{height} pixels: {detail}")]
    ImageData {
        /// The width the header claims.
        width: u32,
        /// The height the header claims.
        height: u32,
        /// What the decoder found.
        detail: String,
    },
}
