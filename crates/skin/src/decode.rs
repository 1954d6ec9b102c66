//! [`decode`]: a skin file's bytes to a [`Skin`], every limit checked before the step it
//! bounds.

use crate::chunks::read_header;
use crate::error::SkinError;
use crate::layout::Layout;
use crate::layout::{CONNECTED_COLUMNS, CONNECTED_ROWS, CONNECTED_TILES};
use crate::limits::{
    MAX_DECODED_BYTES, MAX_FILE_BYTES, MAX_STRIP_FILE_BYTES, MAX_TILE, MIN_TILE, fits,
};
use crate::skin::Skin;

/// Decodes a skin file (a PNG in the TETR.IO or Jstris raster layout, or a connected sheet).
///
/// In order: the file's size; the signature and the chunk sequence (truncation, `acTL`); the
/// header's dimensions against the limits; the bit depth; the aspect ratio and tile size; a
/// strip's file size; only then the pixels, by the `png` decoder under [`MAX_DECODED_BYTES`], palette, grey and
/// RGB converted to RGBA.
pub fn decode(bytes: &[u8]) -> Result<Skin, SkinError> {
    let (width, height) = check(bytes)?;
    let (layout, tile) = layout_of(width, height)?;
    let image = Pixels::decode(bytes, width, height)?;
    Ok(Skin::from_image(layout, tile, |x, y| image.rgba(x, y)))
}

/// Every check [`decode`] makes before it reads a pixel (the file's size, the signature and
/// chunks, the header's dimensions, bit depth, aspect and tile size, a strip's file size),
/// without the PNG decoder: the image's width and height. For a program that decodes the
/// pixels elsewhere (the browser build, whose page decodes images itself) and then builds the
/// skin with [`from_rgba`].
pub fn check(bytes: &[u8]) -> Result<(u32, u32), SkinError> {
    if bytes.len() > MAX_FILE_BYTES {
        return Err(SkinError::FileTooLarge {
            len: bytes.len(),
            limit: MAX_FILE_BYTES,
            what: "a skin",
        });
    }
    let header = read_header(bytes)?;
    let (width, height) = (header.width, header.height);
    if !fits(width, height) {
        return Err(SkinError::TooLarge { width, height });
    }
    if header.bit_depth == 16 {
        return Err(SkinError::SixteenBit);
    }
    let (layout, _) = layout_of(width, height)?;
    if !layout.connects() && bytes.len() > MAX_STRIP_FILE_BYTES {
        return Err(SkinError::FileTooLarge {
            len: bytes.len(),
            limit: MAX_STRIP_FILE_BYTES,
            what: "a strip skin",
        });
    }
    Ok((width, height))
}

/// Builds a skin from a strip already in memory (`width` × `height` pixels of 8-bit RGBA, row
/// by row from the top), under the same layout and tile-size rules as [`decode`]: for skins a
/// program draws itself, without a PNG round trip.
pub fn from_rgba(width: u32, height: u32, rgba: &[u8]) -> Result<Skin, SkinError> {
    if !fits(width, height) {
        return Err(SkinError::TooLarge { width, height });
    }
    let (layout, tile) = layout_of(width, height)?;
    let expected = width as usize * height as usize * 4;
    if rgba.len() != expected {
        return Err(SkinError::ImageData {
            width,
            height,
            detail: format!("{} bytes of RGBA, not {expected}", rgba.len()),
        });
    }
    let line = width as usize * 4;
    Ok(Skin::from_image(layout, tile, |x, y| {
        let at = y as usize * line + x as usize * 4;
        match rgba.get(at..at + 4) {
            Some(&[r, g, b, a]) => [r, g, b, a],
            _ => [0; 4],
        }
    }))
}

/// The layout and tile size of a `width` × `height` image: the width must be exactly 12.4
/// (TETR.IO) or 9 (Jstris) times the height, the tile, as high as the image, within
/// [`MIN_TILE`]..=[`MAX_TILE`]; or the image 16 × 9 tiles (connected) of 48 or 96 px.
pub(crate) fn layout_of(width: u32, height: u32) -> Result<(Layout, u32), SkinError> {
    let (w, h) = (u64::from(width), u64::from(height));
    let layout = if 5 * w == 62 * h {
        Layout::Tetrio
    } else if w == 9 * h {
        Layout::Jstris
    } else if w * CONNECTED_ROWS as u64 == h * CONNECTED_COLUMNS as u64 {
        let tile = width / CONNECTED_COLUMNS as u32;
        if !CONNECTED_TILES.contains(&tile) {
            return Err(SkinError::ConnectedTileSize {
                tile,
                width,
                height,
            });
        }
        return Ok((Layout::Connected, tile));
    } else {
        return Err(SkinError::Aspect { width, height });
    };
    if !(MIN_TILE..=MAX_TILE).contains(&height) {
        return Err(SkinError::TileSize {
            layout,
            tile: height,
        });
    }
    Ok((layout, height))
}

/// The decoded image as the decoder left it: 8 bits a channel, grey, grey and alpha, RGB or
/// RGBA.
struct Pixels {
    data: Vec<u8>,
    line: usize,
    channels: usize,
}

impl Pixels {
    fn decode(bytes: &[u8], width: u32, height: u32) -> Result<Pixels, SkinError> {
        let mut decoder = png::Decoder::new_with_limits(
            bytes,
            png::Limits {
                bytes: MAX_DECODED_BYTES,
            },
        );
        // Palette, low bit depths and tRNS to 8-bit grey, grey-alpha, RGB or RGBA.
        decoder.set_transformations(png::Transformations::EXPAND);
        // Text and ICC profiles are not used; skipping them also skips inflating them.
        decoder.set_ignore_text_chunk(true);
        decoder.set_ignore_iccp_chunk(true);
        let mut reader = decoder.read_info().map_err(before_data)?;
        let channels = match reader.output_color_type() {
            (_, depth) if depth != png::BitDepth::Eight => return Err(SkinError::SixteenBit),
            (png::ColorType::Grayscale, _) => 1,
            (png::ColorType::GrayscaleAlpha, _) => 2,
            (png::ColorType::Rgb, _) => 3,
            (png::ColorType::Rgba, _) => 4,
            (png::ColorType::Indexed, _) => {
                return Err(SkinError::Malformed(
                    "a palette image without a palette".into(),
                ));
            }
        };
        let size = reader.output_buffer_size();
        if size > MAX_DECODED_BYTES {
            return Err(SkinError::OverMemoryLimit);
        }
        let mut data = vec![0; size];
        let frame = reader
            .next_frame(&mut data)
            .map_err(|e| in_data(e, width, height))?;
        if (frame.width, frame.height) != (width, height) {
            return Err(SkinError::ImageData {
                width,
                height,
                detail: format!("decoded {}×{} pixels", frame.width, frame.height),
            });
        }
        Ok(Pixels {
            data,
            line: frame.line_size,
            channels,
        })
    }

    /// The pixel at (x, y) as RGBA; transparent black outside the image.
    fn rgba(&self, x: u32, y: u32) -> [u8; 4] {
        let at = y as usize * self.line + x as usize * self.channels;
        match self.data.get(at..at + self.channels) {
            Some(&[g]) => [g, g, g, 255],
            Some(&[g, a]) => [g, g, g, a],
            Some(&[r, g, b]) => [r, g, b, 255],
            Some(&[r, g, b, a]) => [r, g, b, a],
            _ => [0; 4],
        }
    }
}

/// A decoder error before the image data: the header and the chunks before `IDAT`.
fn before_data(e: png::DecodingError) -> SkinError {
    match e {
        png::DecodingError::IoError(_) => {
            SkinError::Truncated("the file ends before the image data")
        }
        png::DecodingError::LimitsExceeded => SkinError::OverMemoryLimit,
        png::DecodingError::Format(e) => SkinError::Malformed(e.to_string()),
        png::DecodingError::Parameter(e) => SkinError::Malformed(e.to_string()),
    }
}

/// A decoder error inside the image data, which the chunk walk already found complete.
fn in_data(e: png::DecodingError, width: u32, height: u32) -> SkinError {
    match e {
        png::DecodingError::LimitsExceeded => SkinError::OverMemoryLimit,
        e => SkinError::ImageData {
            width,
            height,
            detail: e.to_string(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_width_of_12_4_heights_is_tetrio() {
        assert_eq!(layout_of(372, 30), Ok((Layout::Tetrio, 30)));
        assert_eq!(layout_of(744, 60), Ok((Layout::Tetrio, 60)));
    }

    #[test]
    fn a_width_of_9_heights_is_jstris() {
        assert_eq!(layout_of(270, 30), Ok((Layout::Jstris, 30)));
        assert_eq!(layout_of(288, 32), Ok((Layout::Jstris, 32)));
    }

    #[test]
    fn a_strip_in_memory_cuts_into_the_same_tiles_as_its_png() {
        let (width, height) = (270, 30);
        let rgba: Vec<u8> = (0..width * height * 4)
            .map(|i| (i % 251) as u8 | 1)
            .collect();
        let skin = from_rgba(width, height, &rgba).expect("a Jstris strip");
        assert_eq!(skin.layout(), Layout::Jstris);
        assert_eq!(decode(&skin.to_png()), Ok(skin));
    }

    #[test]
    fn a_strip_of_the_wrong_length_is_refused() {
        assert!(matches!(
            from_rgba(270, 30, &[0; 16]),
            Err(SkinError::ImageData { .. })
        ));
    }

    #[test]
    fn sixteen_by_nine_tiles_of_48_or_96_px_are_connected() {
        assert_eq!(layout_of(768, 432), Ok((Layout::Connected, 48)));
        assert_eq!(layout_of(1536, 864), Ok((Layout::Connected, 96)));
    }

    #[test]
    fn a_connected_sheet_of_other_tiles_is_refused_with_its_tile_size() {
        let e = layout_of(480, 270).unwrap_err();
        assert_eq!(
            e,
            SkinError::ConnectedTileSize {
                tile: 30,
                width: 480,
                height: 270
            }
        );
        assert!(e.to_string().contains("48 px (768×432) or 96 px"), "{e}");
    }

    #[test]
    fn any_other_ratio_is_refused() {
        assert_eq!(
            layout_of(371, 30),
            Err(SkinError::Aspect {
                width: 371,
                height: 30
            })
        );
    }
}
