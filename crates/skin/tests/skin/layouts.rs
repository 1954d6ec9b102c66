//! Good skins: each layout's tiles land where the layout says.

use sevenbag_core::PieceKind;
use sevenbag_skin::{Layout, decode};

use crate::support::*;

/// Every pixel of every tile of `skin` is the colour its tile was painted.
fn assert_tiles_are(skin: &sevenbag_skin::Skin, colours: &[[u8; 4]]) {
    assert_eq!(skin.tiles().len(), colours.len());
    for (i, (tile, colour)) in skin.tiles().iter().zip(colours).enumerate() {
        assert!(
            tile.rgba().chunks_exact(4).all(|p| p == colour),
            "tile {i} is not {colour:?} throughout"
        );
    }
}

#[test]
fn a_372_by_30_strip_is_a_tetrio_skin_of_30_px_tiles() {
    let skin = decode(&skin_file(Layout::Tetrio, 30)).expect("decode");
    assert_eq!(skin.layout(), Layout::Tetrio);
    assert_eq!(skin.tile(), 30);
    assert_eq!(skin.tiles().len(), 12);
}

#[test]
fn a_270_by_30_strip_is_a_jstris_skin_of_30_px_tiles() {
    let skin = decode(&skin_file(Layout::Jstris, 30)).expect("decode");
    assert_eq!(skin.layout(), Layout::Jstris);
    assert_eq!(skin.tile(), 30);
    assert_eq!(skin.tiles().len(), 9);
}

#[test]
fn tetrio_z_is_the_red_painted_in_position_0() {
    let skin = decode(&skin_file(Layout::Tetrio, 30)).expect("decode");
    assert_eq!(skin.piece(PieceKind::Z).pixel(15, 15), Some(Z));
    assert_eq!(skin.tiles()[0].pixel(0, 0), Some(Z));
}

#[test]
fn jstris_z_is_the_red_painted_in_position_2() {
    let skin = decode(&skin_file(Layout::Jstris, 30)).expect("decode");
    assert_eq!(skin.piece(PieceKind::Z).pixel(15, 15), Some(Z));
    assert_eq!(skin.tiles()[2].pixel(0, 0), Some(Z));
}

#[test]
fn every_piece_kind_maps_to_its_own_colour_in_both_layouts() {
    let want = [
        (PieceKind::Z, Z),
        (PieceKind::L, L),
        (PieceKind::O, O),
        (PieceKind::S, S),
        (PieceKind::I, I),
        (PieceKind::J, J),
        (PieceKind::T, T),
    ];
    for layout in [Layout::Tetrio, Layout::Jstris] {
        let skin = decode(&skin_file(layout, 30)).expect("decode");
        for (kind, colour) in want {
            assert_eq!(
                skin.piece(kind).pixel(29, 29),
                Some(colour),
                "{layout} {kind:?}"
            );
        }
    }
}

#[test]
fn ghost_and_garbage_are_found_in_both_layouts() {
    for layout in [Layout::Tetrio, Layout::Jstris] {
        let skin = decode(&skin_file(layout, 30)).expect("decode");
        assert_eq!(skin.ghost().pixel(3, 3), Some(GHOST), "{layout}");
        assert_eq!(skin.garbage().pixel(3, 3), Some(GARBAGE), "{layout}");
    }
}

#[test]
fn tetrio_tiles_leave_out_the_gaps_between_them() {
    let skin = decode(&skin_file(Layout::Tetrio, 30)).expect("decode");
    assert_tiles_are(&skin, &TETRIO);
}

#[test]
fn a_tetrio_skin_at_twice_the_size_has_60_px_tiles_62_px_apart() {
    let skin = decode(&skin_file(Layout::Tetrio, 60)).expect("decode");
    assert_eq!((skin.layout(), skin.tile()), (Layout::Tetrio, 60));
    assert_tiles_are(&skin, &TETRIO);
}

#[test]
fn a_jstris_skin_of_64_px_tiles_reads_every_tile_whole() {
    let skin = decode(&skin_file(Layout::Jstris, 64)).expect("decode");
    assert_eq!(skin.tile(), 64);
    assert_tiles_are(&skin, &JSTRIS);
}

#[test]
fn a_palette_skin_reads_as_the_same_rgba_tiles() {
    let opaque = JSTRIS.map(|[r, g, b, _]| [r, g, b, 255]);
    let rgba = strip_pixels(Layout::Jstris, 10, &opaque);
    let mut palette: Vec<[u8; 3]> = Vec::new();
    let indices: Vec<u8> = rgba
        .chunks_exact(4)
        .map(|p| {
            let rgb = [p[0], p[1], p[2]];
            let at = palette.iter().position(|c| *c == rgb).unwrap_or_else(|| {
                palette.push(rgb);
                palette.len() - 1
            });
            at as u8
        })
        .collect();
    let flat: Vec<u8> = palette.concat();
    let file = png_with(
        90,
        10,
        png::ColorType::Indexed,
        png::BitDepth::Eight,
        &indices,
        |e| e.set_palette(flat),
    );
    let skin = decode(&file).expect("decode");
    assert_tiles_are(&skin, &opaque);
}

#[test]
fn a_grey_skin_reads_as_opaque_grey_rgba() {
    let grey: Vec<u8> = (0..90 * 10).map(|i| ((i % 90) / 10 * 20) as u8).collect();
    let file = png_with(
        90,
        10,
        png::ColorType::Grayscale,
        png::BitDepth::Eight,
        &grey,
        |_| {},
    );
    let skin = decode(&file).expect("decode");
    assert_eq!(skin.tiles()[3].pixel(5, 5), Some([60, 60, 60, 255]));
}

#[test]
fn an_rgb_skin_reads_as_opaque_rgba() {
    let rgba = strip_pixels(Layout::Jstris, 10, &JSTRIS);
    let rgb: Vec<u8> = rgba
        .chunks_exact(4)
        .flat_map(|p| [p[0], p[1], p[2]])
        .collect();
    let file = png_with(
        90,
        10,
        png::ColorType::Rgb,
        png::BitDepth::Eight,
        &rgb,
        |_| {},
    );
    let skin = decode(&file).expect("decode");
    assert_eq!(skin.piece(PieceKind::T).pixel(0, 0), Some(T));
    assert_eq!(skin.ghost().pixel(0, 0), Some([200, 200, 200, 255]));
}

#[test]
fn the_committed_samples_are_the_painted_strips() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/samples");
    for (name, layout, colours) in [
        ("tetrio.png", Layout::Tetrio, &TETRIO[..]),
        ("jstris.png", Layout::Jstris, &JSTRIS[..]),
    ] {
        let bytes = std::fs::read(format!("{dir}/{name}")).expect("sample");
        let skin = decode(&bytes).expect(name);
        assert_eq!((skin.layout(), skin.tile()), (layout, 30), "{name}");
        assert_tiles_are(&skin, colours);
    }
}
