//! # sevenbag-skin: block skin files, decoded under limits
//!
//! Players bring block skins in the two raster layouts the community's libraries use, both a
//! single row of square tiles as high as the image, or a connected sheet, told apart by the
//! aspect ratio alone ([`Layout`]):
//!
//! - **TETR.IO** (`tetrio`): 12 tiles, Z L O S I J T, ghost, garbage, garbage 2, dark garbage,
//!   top-out warning; 30 px tiles 31 px apart make 372×30, so the width is 12.4 times the
//!   height at every scale (744×60 has 60 px tiles 62 px apart);
//! - **Jstris** (`jstris`): 9 tiles side by side, garbage, ghost, Z L O S I J T; the width is
//!   9 times the height (270×30);
//! - **connected** (`connected`): 16 × 9 tiles of 48 or 96 px (768×432, 1536×864), a row for
//!   each of Z L O S I J T, ghost and garbage, a column for each set of sides a mino joins to
//!   its piece ([`layout`] has the arrangement; [`Skin::joined`] picks a variant).
//!
//! [`decode`] turns a file's bytes into a [`Skin`] ([`from_rgba`] a strip already in memory,
//! such as one a program draws, or one a browser decoded after [`check`] made every check
//! short of the pixels, without the PNG reader): its layout, tile size and tiles as 8-bit RGBA, with
//! [`Skin::piece`], [`Skin::ghost`] and [`Skin::garbage`] mapping the core's
//! [`PieceKind`](sevenbag_core::PieceKind) to tiles. [`Skin::to_png`] writes the canonical
//! file (the skin's own layout, re-encoded the same way every time) for the server to
//! publish, and [`Skin::id`] is its content address, a SHA-256 of the pixels.
//!
//! TETR.IO's own connected atlas is not read: its geometry could not be pinned down
//! unambiguously from the dimensions. The connected sheet keeps its tile sizes (48 px at 1×,
//! 96 px at 2×) in an arrangement documented here, so such a skin is redrawn once into it.
//!
//! ## Limits
//!
//! A file comes from anyone, so every limit ([`limits`]) is checked before the work it
//! bounds: the file at most 1 MiB (a strip at most 256 KiB); the header's dimensions, read by
//! hand from the `IHDR` chunk before the decoder starts, at most 4096 wide, 864 high and
//! 1536×864 pixels in all, so the decoded image is at most 5.1 MiB of RGBA; the decoder's own
//! allocations capped at that too (`png::Limits`); text and ICC chunks skipped, not inflated.
//! A decompression bomb (a small file whose header claims a huge image) is refused on its
//! header, and data that claims a small image can only inflate to that image. Strip tiles are
//! 8 to 256 px, connected tiles 48 or 96 px.
//!
//! ## Refusals
//!
//! [`SkinError`] names what is wrong: not a PNG; truncated (inside a chunk, or no `IEND`);
//! malformed chunks or header; too large (the file, the dimensions, or the decoder's memory);
//! animated (an `acTL` chunk: APNG); 16 bits a channel; a wrong aspect ratio (the ratio found
//! and the three accepted); a tile size out of range; image data that does not match the
//! header's dimensions. 16-bit images are refused rather than converted: a skin gains nothing
//! from 16 bits, they would double the decoded size the limits bound, and refusing keeps one
//! decoding path (8 bits a channel). Palette, grey and RGB images, at any bit depth up to 8,
//! with or without `tRNS`, are converted to RGBA.
//!
//! ## Why `png`
//!
//! The `png` crate (0.17) is the decoder the game already compiles (macroquad reads its
//! textures with it through `image`), so using the same major version adds no code to the
//! build; it is pure Rust and fuzzed upstream, it takes an allocation limit, it decodes one
//! format only (`image` would bring every other format's decoder as attack surface), and its
//! encoder writes the canonical file. The content address uses `sha2`, which the server
//! already builds.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod chunks;
mod decode;
pub mod error;
pub mod layout;
pub mod limits;
mod skin;

pub use decode::{check, decode, from_rgba};
pub use error::SkinError;
pub use layout::Layout;
pub use skin::{Skin, Tile};
