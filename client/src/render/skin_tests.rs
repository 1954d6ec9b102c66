//! The skin in force: tile mapping, packing and recolouring, without a window.

use super::*;

/// A Jstris strip of 8 px tiles, tile `i` filled with grey level `10 * (i + 1)`.
fn numbered_jstris() -> Skin {
    let (tile, count) = (8u32, 9u32);
    let mut rgba = Vec::new();
    for _y in 0..tile {
        for x in 0..tile * count {
            let v = (10 * (x / tile + 1)) as u8;
            rgba.extend_from_slice(&[v, v, v, 255]);
        }
    }
    sevenbag_skin::from_rgba(tile * count, tile, &rgba).expect("a Jstris strip")
}

fn grey_at(atlas: &Atlas, x: f32, y: f32) -> u8 {
    let (w, _) = atlas.size();
    atlas.rgba()[(y as usize * w as usize + x as usize) * 4]
}

#[test]
fn pieces_ghost_and_garbage_use_the_layouts_tiles() {
    assert_eq!(tile_of(Layout::Tetrio, Mino::Piece(PieceKind::Z)), 0);
    assert_eq!(tile_of(Layout::Tetrio, Mino::Piece(PieceKind::T)), 6);
    assert_eq!(tile_of(Layout::Tetrio, Mino::Ghost), 7);
    assert_eq!(tile_of(Layout::Tetrio, Mino::Garbage), 8);
    assert_eq!(tile_of(Layout::Jstris, Mino::Garbage), 0);
    assert_eq!(tile_of(Layout::Jstris, Mino::Ghost), 1);
    assert_eq!(tile_of(Layout::Jstris, Mino::Piece(PieceKind::Z)), 2);
    assert_eq!(tile_of(Layout::Jstris, Mino::Piece(PieceKind::T)), 8);
}

#[test]
fn a_board_cell_shows_its_piece_or_the_garbage_tile() {
    assert_eq!(
        Mino::from(CellKind::Piece(PieceKind::I)),
        Mino::Piece(PieceKind::I)
    );
    assert_eq!(Mino::from(CellKind::Garbage), Mino::Garbage);
}

#[test]
fn the_atlas_source_of_a_mino_holds_that_tiles_pixels() {
    let atlas = Atlas::new(&numbered_jstris(), Palette::Guideline);
    for (mino, index) in [
        (Mino::Garbage, 0u8),
        (Mino::Ghost, 1),
        (Mino::Piece(PieceKind::Z), 2),
        (Mino::Piece(PieceKind::T), 8),
    ] {
        let r = atlas.source(mino, 0);
        assert_eq!((r.w, r.h), (8.0, 8.0));
        let expect = 10 * (index + 1);
        for (x, y) in [(r.x, r.y), (r.right() - 1.0, r.bottom() - 1.0)] {
            assert_eq!(grey_at(&atlas, x, y), expect, "{mino:?}");
        }
    }
}

#[test]
fn each_tiles_frame_repeats_its_edge_so_no_neighbour_bleeds_in() {
    let atlas = Atlas::new(&numbered_jstris(), Palette::Guideline);
    let r = atlas.source(Mino::Ghost, 0);
    assert_eq!(grey_at(&atlas, r.x - 1.0, r.y - 1.0), 20);
    assert_eq!(grey_at(&atlas, r.right(), r.bottom()), 20);
}

/// A connected sheet of 48 px tiles, tile `i` filled with grey level `i + 1`.
fn numbered_sheet() -> Skin {
    let (w, h) = (16 * 48u32, 9 * 48u32);
    let mut rgba = Vec::new();
    for y in 0..h {
        for x in 0..w {
            let v = ((y / 48) * 16 + x / 48 + 1) as u8;
            rgba.extend_from_slice(&[v, v, v, 255]);
        }
    }
    sevenbag_skin::from_rgba(w, h, &rgba).expect("a connected sheet")
}

#[test]
fn a_connected_minos_source_is_the_variant_of_its_joined_sides() {
    use sevenbag_skin::layout::{LEFT, RIGHT, UP};
    let atlas = Atlas::new(&numbered_sheet(), Palette::Guideline);
    let t = atlas.source(Mino::Piece(PieceKind::T), LEFT | RIGHT | UP);
    assert_eq!(grey_at(&atlas, t.x, t.y), 6 * 16 + 11 + 1);
    let lone = atlas.source(Mino::Garbage, 0);
    assert_eq!(
        grey_at(&atlas, lone.right() - 1.0, lone.bottom() - 1.0),
        8 * 16 + 1
    );
}

#[test]
fn a_strip_minos_source_ignores_its_joined_sides() {
    let atlas = Atlas::new(&numbered_jstris(), Palette::Guideline);
    assert_eq!(atlas.source(Mino::Ghost, 15), atlas.source(Mino::Ghost, 0));
}

#[test]
fn recolouring_a_one_colour_tile_gives_the_palettes_colour() {
    let mut tile = [239, 32, 41, 255].repeat(4);
    recolour(&mut tile, [0, 114, 178]);
    assert_eq!(tile, [0, 114, 178, 255].repeat(4));
}

#[test]
fn recolouring_keeps_a_tiles_shading_and_alpha() {
    // A face, a dark edge at half its lightness, a lit edge and a transparent pixel.
    let mut tile = vec![
        200, 40, 40, 255, 200, 40, 40, 255, 100, 20, 20, 200, 255, 200, 200, 255, 9, 9, 9, 0,
    ];
    recolour(&mut tile, [0, 114, 178]);
    let px = |i: usize| {
        [
            tile[4 * i],
            tile[4 * i + 1],
            tile[4 * i + 2],
            tile[4 * i + 3],
        ]
    };
    let (face, dark, lit) = (px(0), px(2), px(3));
    assert!(lightness([dark[0], dark[1], dark[2]]) < lightness([face[0], face[1], face[2]]));
    assert!(lightness([lit[0], lit[1], lit[2]]) > lightness([face[0], face[1], face[2]]));
    assert!(
        face[2] > face[0] && dark[2] > dark[0],
        "blue, not red: {face:?} {dark:?}"
    );
    assert_eq!(dark[3], 200);
    assert_eq!(px(4), [9, 9, 9, 0]);
}

/// A Jstris strip of 8 px tiles in the guideline colours (grey ghost and garbage), each
/// with a lit top row and a shaded bottom row.
fn guideline_jstris() -> Skin {
    let base = |i: u32| match PieceKind::ALL
        .into_iter()
        .find(|k| Layout::Jstris.piece_index(*k) == i as usize)
    {
        Some(kind) => Palette::Guideline.rgb8(kind),
        None => [90 + 40 * i as u8; 3],
    };
    let mut rgba = Vec::new();
    for y in 0..8u32 {
        for x in 0..72u32 {
            let c = base(x / 8).map(|v| match y {
                0 => v.saturating_add(60),
                7 => v / 2,
                _ => v,
            });
            rgba.extend_from_slice(&[c[0], c[1], c[2], 255]);
        }
    }
    sevenbag_skin::from_rgba(72, 8, &rgba).expect("a Jstris strip")
}

#[test]
fn a_colour_blind_palette_recolours_the_piece_tiles_and_nothing_else() {
    let skin = guideline_jstris();
    let plain = Atlas::new(&skin, Palette::Guideline);
    let safe = Atlas::new(&skin, Palette::RedGreen);
    for kind in PieceKind::ALL {
        let [r, g, b] = safe.mean(Mino::Piece(kind));
        let [er, eg, eb] = Palette::RedGreen.rgb8(kind);
        // The lit edge lifts the average toward white, as in the guideline skin.
        let near = |p: u8, e: u8| p.abs_diff(e) <= 40;
        assert!(
            near(r, er) && near(g, eg) && near(b, eb),
            "{kind:?}: {r} {g} {b}"
        );
    }
    assert_eq!(safe.mean(Mino::Ghost), plain.mean(Mino::Ghost));
    assert_eq!(safe.mean(Mino::Garbage), plain.mean(Mino::Garbage));
}

#[test]
fn the_guideline_palette_leaves_a_skin_as_drawn() {
    let skin = numbered_jstris();
    let atlas = Atlas::new(&skin, Palette::Guideline);
    let z = atlas.source(Mino::Piece(PieceKind::Z), 0);
    assert_eq!(grey_at(&atlas, z.x, z.y), 30);
}

#[test]
fn a_tiles_mean_colour_ignores_its_transparent_pixels() {
    assert_eq!(mean(&[200, 100, 0, 255, 9, 9, 9, 0]), [200, 100, 0]);
    assert_eq!(mean(&[9, 9, 9, 0]), [0, 0, 0]);
}
