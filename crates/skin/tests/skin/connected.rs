//! Connected sheets: 16 × 9 tiles of 48 or 96 px, a row for each kind of mino and a column
//! for each set of joined sides.

use sevenbag_core::PieceKind;
use sevenbag_skin::layout::{DOWN, LEFT, RIGHT, UP};
use sevenbag_skin::{Layout, SkinError, decode};

use crate::support::*;

#[test]
fn a_768_by_432_sheet_is_a_connected_skin_of_48_px_tiles() {
    let skin = decode(&skin_file(Layout::Connected, 48)).expect("a connected sheet");
    assert_eq!((skin.layout(), skin.tile()), (Layout::Connected, 48));
    assert_eq!(skin.tiles().len(), 144);
}

#[test]
fn a_1536_by_864_sheet_is_a_connected_skin_of_96_px_tiles() {
    let skin = decode(&skin_file(Layout::Connected, 96)).expect("a connected sheet");
    assert_eq!((skin.layout(), skin.tile()), (Layout::Connected, 96));
}

#[test]
fn every_tile_of_a_sheet_is_read_whole_from_its_row_and_column() {
    let skin = decode(&skin_file(Layout::Connected, 48)).expect("a connected sheet");
    for (index, tile) in skin.tiles().iter().enumerate() {
        let expect = sheet_colour(index / 16, index % 16);
        assert!(
            tile.rgba().chunks_exact(4).all(|p| p == expect),
            "tile {index}"
        );
    }
}

#[test]
fn a_minos_joined_sides_pick_its_column() {
    let skin = decode(&skin_file(Layout::Connected, 48)).expect("a connected sheet");
    let t = skin.layout().piece_index(PieceKind::T);
    assert_eq!(skin.joined(t, 0).pixel(0, 0), Some(sheet_colour(6, 0)));
    assert_eq!(
        skin.joined(t, LEFT | RIGHT | UP).pixel(0, 0),
        Some(sheet_colour(6, 11))
    );
    let garbage = skin.layout().garbage_index();
    assert_eq!(
        skin.joined(garbage, DOWN).pixel(47, 47),
        Some(sheet_colour(8, 4))
    );
    assert_eq!(skin.ghost().pixel(0, 0), Some(sheet_colour(7, 0)));
}

#[test]
fn a_connected_skin_reads_back_from_its_canonical_png_with_the_same_id() {
    let skin = decode(&skin_file(Layout::Connected, 48)).expect("a connected sheet");
    let again = decode(&skin.to_png()).expect("the canonical file");
    assert_eq!(again, skin);
    assert_eq!(again.id(), skin.id());
}

#[test]
fn a_sheet_of_30_px_tiles_is_refused_naming_the_two_sizes() {
    let file = rgba_png(480, 270, &vec![255; 480 * 270 * 4]);
    let err = decode(&file).expect_err("refused");
    assert!(
        matches!(err, SkinError::ConnectedTileSize { tile: 30, .. }),
        "{err}"
    );
    assert!(
        err.to_string()
            .contains("48 px (768×432) or 96 px (1536×864)"),
        "{err}"
    );
}

#[test]
fn a_sheet_at_three_times_the_size_is_too_large() {
    let file = with_dimensions(&skin_file(Layout::Connected, 48), 2304, 1296);
    assert_eq!(
        decode(&file),
        Err(SkinError::TooLarge {
            width: 2304,
            height: 1296
        })
    );
}

#[test]
fn the_committed_sample_is_the_painted_sheet() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/samples/connected.png");
    let skin = decode(&std::fs::read(path).expect("sample")).expect("the sample");
    assert_eq!(
        skin,
        decode(&skin_file(Layout::Connected, 48)).expect("painted")
    );
}
