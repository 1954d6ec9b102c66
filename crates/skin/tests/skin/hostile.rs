//! Hostile and broken files: each refused with its own error, fast, before any large
//! allocation.

use std::time::{Duration, Instant};

use sevenbag_skin::limits::{MAX_FILE_BYTES, MAX_STRIP_FILE_BYTES};
use sevenbag_skin::{Layout, SkinError, decode};

use crate::support::*;

/// Decodes `bytes`, expecting a refusal within a second.
fn refused(bytes: &[u8]) -> SkinError {
    let start = Instant::now();
    let err = decode(bytes).expect_err("refused");
    assert!(
        start.elapsed() < Duration::from_secs(1),
        "{err}: took {:?}",
        start.elapsed()
    );
    err
}

#[test]
fn bytes_without_the_png_signature_are_not_a_png() {
    assert_eq!(refused(b"GIF89a\x01\x00\x01\x00"), SkinError::NotPng);
    assert_eq!(refused(b"\xff\xd8\xff\xe0 JFIF"), SkinError::NotPng);
    assert_eq!(refused(b""), SkinError::NotPng);
    assert_eq!(
        refused(b"not a png").to_string(),
        "not a PNG file (no PNG signature)"
    );
}

#[test]
fn a_file_over_1_mib_is_refused_unread() {
    let mut bytes = skin_file(Layout::Connected, 48);
    bytes.resize(MAX_FILE_BYTES + 1, 0);
    let err = refused(&bytes);
    assert_eq!(
        err,
        SkinError::FileTooLarge {
            len: MAX_FILE_BYTES + 1,
            limit: MAX_FILE_BYTES,
            what: "a skin"
        }
    );
    assert_eq!(
        err.to_string(),
        "the file is 1048577 bytes: over the 1048576-byte limit for a skin"
    );
}

#[test]
fn a_strip_file_over_256_kib_is_refused_once_its_header_says_strip() {
    let mut bytes = skin_file(Layout::Jstris, 30);
    bytes.resize(MAX_STRIP_FILE_BYTES + 1, 0);
    assert_eq!(
        refused(&bytes),
        SkinError::FileTooLarge {
            len: MAX_STRIP_FILE_BYTES + 1,
            limit: MAX_STRIP_FILE_BYTES,
            what: "a strip skin"
        }
    );
}

#[test]
fn a_60000_by_1_image_is_too_large() {
    let file = rgba_png(60_000, 1, &vec![0; 60_000 * 4]);
    let err = refused(&file);
    assert_eq!(
        err,
        SkinError::TooLarge {
            width: 60_000,
            height: 1
        }
    );
    assert_eq!(
        err.to_string(),
        "the image is 60000×1 pixels: over the limit for a skin (at most 4096 wide, 864 high \
         and 1327104 pixels)"
    );
}

#[test]
fn a_small_file_that_inflates_to_2000_by_2000_is_refused_on_its_header() {
    let file = png_with(
        2000,
        2000,
        png::ColorType::Rgba,
        png::BitDepth::Eight,
        &vec![0; 2000 * 2000 * 4],
        |e| e.set_compression(png::Compression::Best),
    );
    assert!(file.len() < 64 * 1024, "the bomb is {} bytes", file.len());
    assert_eq!(
        refused(&file),
        SkinError::TooLarge {
            width: 2000,
            height: 2000
        }
    );
}

#[test]
fn a_header_claiming_a_huge_image_is_refused_before_decoding() {
    let file = with_dimensions(&skin_file(Layout::Jstris, 30), 900_000, 100_000);
    assert_eq!(
        refused(&file),
        SkinError::TooLarge {
            width: 900_000,
            height: 100_000
        }
    );
}

#[test]
fn a_compressed_text_chunk_that_inflates_past_the_limit_is_not_inflated() {
    let text = "a".repeat(32 << 20);
    let file = png_with(
        270,
        30,
        png::ColorType::Rgba,
        png::BitDepth::Eight,
        &strip_pixels(Layout::Jstris, 30, &JSTRIS),
        |e| e.add_ztxt_chunk("Comment".into(), text).expect("zTXt"),
    );
    assert!(file.len() <= MAX_STRIP_FILE_BYTES, "{} bytes", file.len());
    let start = Instant::now();
    let skin = decode(&file).expect("the text is skipped");
    assert!(start.elapsed() < Duration::from_secs(1));
    assert_eq!(skin.layout(), Layout::Jstris);
}

#[test]
fn a_file_cut_short_is_truncated() {
    let file = skin_file(Layout::Tetrio, 30);
    let err = refused(&file[..file.len() / 2]);
    assert!(matches!(err, SkinError::Truncated(_)), "{err}");
    assert!(err.to_string().starts_with("truncated PNG: "), "{err}");
}

#[test]
fn a_file_cut_after_the_image_data_is_truncated() {
    let file = skin_file(Layout::Jstris, 30);
    let without_iend = &file[..file.len() - 12];
    assert_eq!(
        refused(without_iend),
        SkinError::Truncated("the file ends before the IEND chunk")
    );
}

#[test]
fn a_header_claiming_more_pixels_than_the_data_holds_does_not_match_the_data() {
    // Data for 90×10 (Jstris, 10 px tiles) under a header claiming 180×20 (Jstris, 20 px).
    let file = with_dimensions(&skin_file(Layout::Jstris, 10), 180, 20);
    let err = refused(&file);
    assert!(
        matches!(
            err,
            SkinError::ImageData {
                width: 180,
                height: 20,
                ..
            }
        ),
        "{err}"
    );
    assert!(
        err.to_string()
            .starts_with("the image data does not decode to the header's 180×20 pixels"),
        "{err}"
    );
}

#[test]
fn an_animated_png_is_refused() {
    let actl = [0, 0, 0, 2, 0, 0, 0, 0];
    let file = with_chunk_after_ihdr(&skin_file(Layout::Jstris, 30), b"acTL", &actl);
    let err = refused(&file);
    assert_eq!(err, SkinError::Animated);
    assert_eq!(
        err.to_string(),
        "an animated PNG (APNG, acTL chunk): a skin is one still image"
    );
}

#[test]
fn a_16_bit_png_is_refused() {
    let file = png_with(
        270,
        30,
        png::ColorType::Rgba,
        png::BitDepth::Sixteen,
        &vec![0x80; 270 * 30 * 8],
        |_| {},
    );
    let err = refused(&file);
    assert_eq!(err, SkinError::SixteenBit);
    assert!(err.to_string().contains("8 bits per channel"), "{err}");
}

#[test]
fn a_wrong_aspect_ratio_names_the_ratio_found_and_the_three_accepted() {
    let file = rgba_png(300, 30, &vec![255; 300 * 30 * 4]);
    let err = refused(&file);
    assert_eq!(
        err,
        SkinError::Aspect {
            width: 300,
            height: 30
        }
    );
    assert_eq!(
        err.to_string(),
        "aspect ratio 10.00 (300×30): a TETR.IO skin is 12.4 times as wide as high (372×30), \
         a Jstris skin 9.0 times (270×30), a connected sheet 1.78 times (768×432)"
    );
}

#[test]
fn a_square_image_has_the_wrong_aspect_ratio() {
    let file = rgba_png(48, 48, &vec![255; 48 * 48 * 4]);
    assert_eq!(
        refused(&file),
        SkinError::Aspect {
            width: 48,
            height: 48
        }
    );
}

#[test]
fn tiles_smaller_than_8_px_are_out_of_range() {
    let file = rgba_png(36, 4, &vec![255; 36 * 4 * 4]);
    let err = refused(&file);
    assert_eq!(
        err,
        SkinError::TileSize {
            layout: Layout::Jstris,
            tile: 4
        }
    );
    assert_eq!(
        err.to_string(),
        "jstris tiles of 4 px: a tile is 8 to 256 px"
    );
}

#[test]
fn a_corrupted_byte_in_the_image_data_is_refused() {
    let mut file = skin_file(Layout::Jstris, 30);
    let idat = file.windows(4).position(|w| w == b"IDAT").expect("IDAT");
    file[idat + 10] ^= 0xff;
    let err = refused(&file);
    assert!(matches!(err, SkinError::ImageData { .. }), "{err}");
}

#[test]
fn the_checks_alone_refuse_what_decode_refuses_and_measure_what_it_takes() {
    let good = skin_file(Layout::Jstris, 30);
    assert_eq!(sevenbag_skin::check(&good), Ok((270, 30)));
    let wide = with_dimensions(&good, 60_000, 1);
    assert_eq!(sevenbag_skin::check(&wide), Err(refused(&wide)));
    let animated = with_chunk_after_ihdr(&good, b"acTL", &[0, 0, 0, 2, 0, 0, 0, 0]);
    assert_eq!(sevenbag_skin::check(&animated), Err(refused(&animated)));
}
