//! The limits a skin file is read under, checked in this order before anything is decoded.
//!
//! A strip is at most a row of twelve 256 px tiles and a connected sheet 16 × 9 tiles of 96 px,
//! so the limits sit just above what a real skin needs: the file is refused past
//! [`MAX_FILE_BYTES`] before it is looked at (a strip past [`MAX_STRIP_FILE_BYTES`] once its
//! header says it is one), the header's dimensions past [`MAX_WIDTH`] × [`MAX_HEIGHT`] or
//! [`MAX_PIXELS`] before any pixel buffer exists, and the decoder itself may allocate at most
//! [`MAX_DECODED_BYTES`] for its own buffers (`png::Limits`). The decoded image is then at most
//! [`MAX_DECODED_BYTES`] too, and the tiles cut from it no more, so decoding one skin holds
//! about three times that at its peak (16 MB), whatever the file says.

/// The largest skin file read, in bytes (1 MiB: a connected sheet of 96 px tiles).
pub const MAX_FILE_BYTES: usize = 1024 * 1024;

/// The largest strip file (TETR.IO or Jstris) read, in bytes (256 KiB).
pub const MAX_STRIP_FILE_BYTES: usize = 256 * 1024;

/// The widest image decoded, in pixels.
pub const MAX_WIDTH: u32 = 4096;

/// The tallest image decoded, in pixels: a connected sheet of 96 px tiles.
pub const MAX_HEIGHT: u32 = 864;

/// The most pixels decoded: a connected sheet of 96 px tiles (1536 × 864), which is more
/// than the largest strip (4096 × 256).
pub const MAX_PIXELS: u64 = 1536 * 864;

/// The most bytes of decoded RGBA (and of the decoder's own buffers): [`MAX_PIXELS`] of 4
/// bytes, about 5.1 MiB.
pub const MAX_DECODED_BYTES: usize = MAX_PIXELS as usize * 4;

/// The smallest strip tile accepted, in pixels (a side).
pub const MIN_TILE: u32 = 8;

/// The largest strip tile accepted, in pixels (a side).
pub const MAX_TILE: u32 = 256;

/// Whether a `width` × `height` image is within [`MAX_WIDTH`], [`MAX_HEIGHT`] and
/// [`MAX_PIXELS`].
pub const fn fits(width: u32, height: u32) -> bool {
    width <= MAX_WIDTH && height <= MAX_HEIGHT && width as u64 * height as u64 <= MAX_PIXELS
}
