//! SRS on real boards (SPEC §2): kicks off walls and into slots, 180° turns, failures, and the
//! O piece that never moves.

mod common;

use common::{Solo, piece, sorted_cells};
use sevenbag_core::{Input, PieceKind::*, Rotation::*, Rules, Spin, t_spin};

/// Rows 0–2 each miss the T's cells; the overhang at (2, 4) blocks kicks 0 to 3.
const TST_BOARD: [&str; 5] = [
    "..########",
    "...#######",
    "##.#######",
    "#..#######",
    "##.#######",
];

#[test]
fn t_spin_triple_through_kick_4_is_full() {
    let mut solo = Solo::still().with_board(&TST_BOARD);
    solo.put(T, Spawn, 1, 3);
    let before = *solo.player.board();

    let turned = solo.step(Input::ROTATE_CCW);

    assert!(turned.rotated);
    // 0→L tries (0,0) (1,0) (1,1) (0,−2) (1,−2): only the last, kick index 4, fits.
    assert_eq!(solo.active(), piece(T, Left, 2, 1));
    assert_eq!(t_spin(&before, &solo.active(), 4), Spin::Full);

    let lock = solo.step(Input::HARD_DROP).locked.expect("the T locks");
    assert_eq!(lock.clear.lines, 3);
    assert_eq!(lock.clear.spin, Spin::Full);
    assert_eq!(lock.attack.lines, 6);
}

#[test]
fn i_kicks_right_off_the_left_wall() {
    let mut solo = Solo::still().with_board(&[".#########", ".#########"]);
    solo.put(I, Left, 0, 1);

    solo.step(Input::ROTATE_CW);

    // L→0 tries (0,1) first, which pokes through the wall; (1,1) lays it on the stack.
    assert_eq!(solo.active(), piece(I, Spawn, 1, 2));
}

#[test]
fn i_kicks_left_off_the_right_wall() {
    let mut solo = Solo::still().with_board(&["#########.", "#########."]);
    solo.put(I, Right, 9, 2);

    solo.step(Input::ROTATE_CCW);

    // R→0 tries (−1,0) and (1,0), both through the wall, then (−2,0).
    assert_eq!(solo.active(), piece(I, Spawn, 7, 2));
}

#[test]
fn i_turning_clockwise_at_the_right_wall_uses_kick_3() {
    let mut solo = Solo::still().with_board(&["#########.", "#########."]);
    solo.put(I, Right, 9, 2);

    solo.step(Input::ROTATE_CW);

    // R→2 tries (0,−1) wall, (−1,−1) stack, (2,−1) wall, then (−1,1).
    assert_eq!(solo.active(), piece(I, Flip, 8, 3));
}

#[test]
fn a_180_turn_kicks_up_when_the_basic_turn_is_blocked() {
    let mut solo = Solo::still().with_board(&["....#....."]);
    solo.put(T, Spawn, 4, 1);

    let turned = solo.step(Input::ROTATE_180);

    assert!(turned.rotated);
    // 0→2 in place would put the T's point in (4, 0); the first 180° kick is (0, 1).
    assert_eq!(solo.active(), piece(T, Flip, 4, 2));
}

#[test]
fn a_180_turn_kicks_down_under_an_overhang() {
    let mut solo =
        Solo::still().with_board(&["....#.....", "##......##", "###...####", "#########."]);
    solo.put(T, Flip, 4, 2);

    solo.step(Input::ROTATE_180);

    // 2→0 in place hits the overhang at (4, 3); the first 180° kick (0, −1) drops it in.
    assert_eq!(solo.active(), piece(T, Spawn, 4, 1));
}

#[test]
fn a_180_turn_does_nothing_when_the_room_switches_it_off() {
    let rules = Rules {
        allow_180: false,
        ..common::still_rules()
    };
    let mut solo = Solo::new(rules, Default::default());
    solo.put(T, Spawn, 4, 10);

    let events = solo.step(Input::ROTATE_180);

    assert!(!events.rotated);
    assert_eq!(solo.active(), piece(T, Spawn, 4, 10));
}

#[test]
fn a_failed_rotation_leaves_the_piece_unchanged() {
    // A one-wide well, four deep, at the left wall: the I cannot turn either way.
    let mut solo = Solo::still().with_board(&[".#########"; 4]);
    let stuck = piece(I, Left, 0, 1);
    solo.put(I, Left, 0, 1);

    for key in [Input::ROTATE_CW, Input::ROTATE_CCW, Input::ROTATE_180] {
        let events = solo.tap(key);
        assert!(!events.rotated, "{key:?}");
        assert_eq!(solo.active(), stuck, "{key:?}");
    }
}

#[test]
fn the_o_piece_never_moves_when_rotating() {
    // Boxed in a two-wide hole and in open air alike.
    let mut boxed = Solo::still().with_board(&["###..#####", "###..#####"]);
    boxed.put(O, Spawn, 3, 0);
    let mut open = Solo::still();
    open.put(O, Spawn, 4, 10);

    for solo in [&mut boxed, &mut open] {
        let cells = sorted_cells(&solo.active());
        for key in [
            Input::ROTATE_CW,
            Input::ROTATE_CW,
            Input::ROTATE_180,
            Input::ROTATE_CCW,
        ] {
            let events = solo.tap(key);
            assert!(events.rotated);
            assert_eq!(sorted_cells(&solo.active()), cells, "{key:?}");
        }
    }
}

#[test]
fn with_nothing_in_the_way_j_l_s_t_z_turn_in_place() {
    // The first test of every J L S T Z rotation is (0, 0).
    for kind in [J, L, S, T, Z] {
        let mut solo = Solo::still();
        solo.put(kind, Spawn, 4, 10);
        for (key, state) in [
            (Input::ROTATE_CW, Right),
            (Input::ROTATE_180, Left),
            (Input::ROTATE_CCW, Flip),
        ] {
            solo.tap(key);
            assert_eq!(solo.active(), piece(kind, state, 4, 10), "{kind:?} {key:?}");
        }
    }
}
