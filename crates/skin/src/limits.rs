//! The limits a skin file is read under, checked in this order before anything is decoded.
//!
//! A skin is at most a row of twelve 256 px tiles, so the limits sit just above what a real
//! skin needs: the file is refused past [`MAX_FILE_BYTES`] before it is looked at, the
//! header's dimensions past [`MAX_WIDTH`] × [`MAX_HEIGHT`] before any pixel buffer exists, and
//! the decoder itself may allocate at most [`MAX_DECODED_BYTES`] for its own buffers
//! (`png::Limits`). The decoded image is then at most [`MAX_DECODED_BYTES`] too, and the tiles
//! cut from it no more, so decoding one skin holds about three times that at its peak, whatever
//! the file says.

/// The largest skin file read, in bytes (256 KiB).
pub const MAX_FILE_BYTES: usize = 256 * 1024;

/// The widest image decoded, in pixels.
pub const MAX_WIDTH: u32 = 4096;

/// The tallest image decoded, in pixels: one row of tiles of at most [`MAX_TILE`].
pub const MAX_HEIGHT: u32 = MAX_TILE;

/// The most bytes of decoded RGBA (and of the decoder's own buffers): `MAX_WIDTH × MAX_HEIGHT`
/// pixels of 4 bytes, 4 MiB.
pub const MAX_DECODED_BYTES: usize = MAX_WIDTH as usize * MAX_HEIGHT as usize * 4;

/// The smallest tile accepted, in pixels (a side).
pub const MIN_TILE: u32 = 8;

/// The largest tile accepted, in pixels (a side).
pub const MAX_TILE: u32 = 256;
