//! Why a skin file was refused.

use crate::layout::Layout;
use crate::limits::{MAX_DECODED_BYTES, MAX_HEIGHT, MAX_PIXELS, MAX_TILE, MAX_WIDTH, MIN_TILE};

/// Why [`decode`](crate::decode) refused a file. Each message names what is wrong and, where
/// there is one, the value found and the one accepted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SkinError {
    /// The file is larger than [`MAX_FILE_BYTES`](crate::limits::MAX_FILE_BYTES), or a strip
    /// larger than [`MAX_STRIP_FILE_BYTES`](crate::limits::MAX_STRIP_FILE_BYTES).
    #[error("the file is {len} bytes: over the {limit}-byte limit for {what}")]
    FileTooLarge {
        /// The file's size.
        len: usize,
        /// The limit it is over.
        limit: usize,
        /// What the limit is for: `a skin` or `a strip skin`.
        what: &'static str,
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
    /// The header's dimensions are over [`MAX_WIDTH`] × [`MAX_HEIGHT`] or [`MAX_PIXELS`].
    #[error(
        "the image is {width}×{height} pixels: over the limit for a skin (at most {MAX_WIDTH} \
         wide, {MAX_HEIGHT} high and {MAX_PIXELS} pixels)"
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
    /// The width is neither 12.4, 9 nor 16/9 times the height.
    #[error(
        "aspect ratio {:.2} ({width}×{height}): a TETR.IO skin is 12.4 times as wide as high \
         (372×30), a Jstris skin 9.0 times (270×30), a connected sheet 1.78 times (768×432)",
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
    /// A connected sheet's tiles are neither 48 nor 96 px.
    #[error(
        "connected tiles of {tile} px ({width}×{height}): a connected sheet has tiles of 48 px \
         (768×432) or 96 px (1536×864)"
    )]
    ConnectedTileSize {
        /// The tile size found (a sixteenth of the width).
        tile: u32,
        /// The image's width.
        width: u32,
        /// The image's height.
        height: u32,
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
