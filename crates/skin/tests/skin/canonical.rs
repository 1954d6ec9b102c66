//! The canonical file and the content address.

use sevenbag_skin::{Layout, decode};

use crate::support::*;

#[test]
fn a_tetrio_skin_reads_back_from_its_canonical_png_with_the_same_tiles_and_id() {
    let skin = decode(&skin_file(Layout::Tetrio, 30)).expect("decode");
    let again = decode(&skin.to_png()).expect("decode the canonical file");
    assert_eq!(again, skin);
    assert_eq!(again.id(), skin.id());
}

#[test]
fn a_jstris_skin_reads_back_from_its_canonical_png_with_the_same_tiles_and_id() {
    let skin = decode(&skin_file(Layout::Jstris, 32)).expect("decode");
    let again = decode(&skin.to_png()).expect("decode the canonical file");
    assert_eq!(again, skin);
    assert_eq!(again.id(), skin.id());
}

#[test]
fn the_canonical_png_is_the_same_bytes_every_time() {
    let skin = decode(&skin_file(Layout::Tetrio, 30)).expect("decode");
    let once = skin.to_png();
    assert_eq!(decode(&once).expect("decode").to_png(), once);
}

#[test]
fn the_id_is_64_lowercase_hex_digits() {
    let id = decode(&skin_file(Layout::Jstris, 30)).expect("decode").id();
    assert_eq!(id.len(), 64);
    assert!(
        id.chars()
            .all(|c| c.is_ascii_digit() || ('a'..='f').contains(&c)),
        "{id}"
    );
}

#[test]
fn the_id_ignores_compression_and_the_gaps_between_tiles() {
    let rgba = strip_pixels(Layout::Tetrio, 30, &TETRIO);
    let fast = png_with(
        372,
        30,
        png::ColorType::Rgba,
        png::BitDepth::Eight,
        &rgba,
        |e| e.set_compression(png::Compression::Fast),
    );
    let mut black_gaps = rgba.clone();
    for p in black_gaps.chunks_exact_mut(4).filter(|p| *p == GAP) {
        p.copy_from_slice(&[0, 0, 0, 255]);
    }
    let best = png_with(
        372,
        30,
        png::ColorType::Rgba,
        png::BitDepth::Eight,
        &black_gaps,
        |e| e.set_compression(png::Compression::Best),
    );
    assert_eq!(
        decode(&fast).expect("fast").id(),
        decode(&best).expect("best").id()
    );
}

#[test]
fn one_changed_pixel_changes_the_id() {
    let mut rgba = strip_pixels(Layout::Jstris, 30, &JSTRIS);
    let before = decode(&rgba_png(270, 30, &rgba)).expect("decode").id();
    rgba[0] ^= 1;
    let after = decode(&rgba_png(270, 30, &rgba)).expect("decode").id();
    assert_ne!(before, after);
}

#[test]
fn the_same_pixels_in_the_other_layout_have_another_id() {
    // 9 tiles of 10 px across 90 px, and 12.4 × 10 = 124 px: different strips, checked by size.
    let jstris = decode(&skin_file(Layout::Jstris, 10)).expect("jstris");
    let tetrio = decode(&skin_file(Layout::Tetrio, 10)).expect("tetrio");
    assert_ne!(jstris.id(), tetrio.id());
}

#[test]
fn fully_transparent_pixels_of_any_colour_are_one_pixel() {
    let mut clear_red = strip_pixels(Layout::Jstris, 10, &JSTRIS);
    clear_red[..4].copy_from_slice(&[255, 0, 0, 0]);
    let mut clear_black = clear_red.clone();
    clear_black[..4].copy_from_slice(&[0, 0, 0, 0]);
    let a = decode(&rgba_png(90, 10, &clear_red)).expect("red");
    let b = decode(&rgba_png(90, 10, &clear_black)).expect("black");
    assert_eq!(a.garbage().pixel(0, 0), Some([0, 0, 0, 0]));
    assert_eq!(a.id(), b.id());
}

#[test]
fn the_committed_samples_keep_their_ids() {
    // A published skin is found by its id: a change to the scheme moves every address.
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/samples");
    for (name, id) in [
        (
            "tetrio.png",
            "eb67f418cb60f5807805e64ce275202e3b13aaadeeb49766f72b4586c51ac2e5",
        ),
        (
            "jstris.png",
            "d31ebba424b0eabe0306070fe4db58d3b23c76ddb28decadd75723f1f7231911",
        ),
    ] {
        let bytes = std::fs::read(format!("{dir}/{name}")).expect("sample");
        assert_eq!(decode(&bytes).expect(name).id(), id, "{name}");
    }
}
