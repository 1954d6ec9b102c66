//! T-spin detection (SPEC §5): the 3-corner rule, mini versus full, the kick-4 upgrade, and the
//! same rules seen through real locks.

mod common;

use common::{Solo, TSD_BOARD, piece, tsd_t};
use sevenbag_core::{Board, FLIP_KICK, Input, PieceKind::*, Rotation::*, Spin, t_spin};

/// A T pointing up on the floor at (4, 0) with only its top-left corner filled: 3 corners
/// (two of them floor), one of the two front corners.
fn mini_spot() -> (Board, sevenbag_core::Piece) {
    (
        Board::from_rows(&["...#......", ".........."]),
        piece(T, Spawn, 4, 0),
    )
}

#[test]
fn three_corners_with_both_front_corners_filled_is_a_full_t_spin() {
    let board = Board::from_rows(&TSD_BOARD);
    assert_eq!(t_spin(&board, &piece(T, Flip, 4, 1), 0), Spin::Full);
}

#[test]
fn three_corners_with_one_front_corner_filled_is_a_mini() {
    let (board, t) = mini_spot();
    for kick in 0..4 {
        assert_eq!(t_spin(&board, &t, kick), Spin::Mini, "kick {kick}");
    }
}

#[test]
fn a_mini_made_with_kick_4_is_a_full_t_spin() {
    let (board, t) = mini_spot();
    assert_eq!(t_spin(&board, &t, 4), Spin::Full);
}

#[test]
fn a_180_turn_never_upgrades_a_mini() {
    let (board, t) = mini_spot();
    assert_eq!(t_spin(&board, &t, FLIP_KICK), Spin::Mini);
}

#[test]
fn two_corners_are_no_t_spin() {
    let board = Board::from_rows(&["...#.#....", "..........", ".........."]);
    assert_eq!(t_spin(&board, &piece(T, Spawn, 4, 1), 0), Spin::None);
}

#[test]
fn walls_count_as_corners() {
    // A T pointing right against the left wall: both left corners are wall.
    let one_front = Board::from_rows(&[".#........", "..........", ".........."]);
    assert_eq!(t_spin(&one_front, &piece(T, Right, 0, 1), 0), Spin::Mini);
    let both_front = Board::from_rows(&[".#........", "..........", ".#........"]);
    assert_eq!(t_spin(&both_front, &piece(T, Right, 0, 1), 0), Spin::Full);
}

#[test]
fn only_the_t_piece_spins() {
    let board = Board::from_rows(&TSD_BOARD);
    for kind in [I, O, S, Z, J, L] {
        assert_eq!(
            t_spin(&board, &piece(kind, Flip, 4, 1), 4),
            Spin::None,
            "{kind:?}"
        );
    }
}

#[test]
fn a_t_turned_into_a_double_slot_locks_as_a_full_t_spin_double() {
    let mut solo = Solo::versus().with_board(&TSD_BOARD);
    solo.player.set_active(tsd_t());

    solo.tap(Input::ROTATE_CW);
    let lock = solo.step(Input::HARD_DROP).locked.expect("the T locks");

    assert_eq!(lock.piece, piece(T, Flip, 4, 1));
    assert_eq!(lock.clear.spin, Spin::Full);
    assert_eq!(lock.clear.lines, 2);
    assert_eq!(lock.attack.lines, 4);
    assert_eq!(solo.player.stats().t_spins, 1);
}

#[test]
fn a_t_kicked_onto_the_floor_with_one_front_corner_locks_as_a_mini() {
    // L→0 tries (0,0) into (6,1), (−1,0) into (3,1), then (−1,−1) lays the T on the floor.
    let mut solo = Solo::versus().with_board(&["...#..####", "###...####"]);
    solo.put(T, Left, 5, 1);

    solo.tap(Input::ROTATE_CW);
    assert_eq!(solo.active(), piece(T, Spawn, 4, 0));
    let lock = solo.step(Input::HARD_DROP).locked.expect("the T locks");

    assert_eq!(lock.clear.spin, Spin::Mini);
    assert_eq!(lock.clear.lines, 1);
    assert_eq!(lock.attack.lines, 0);
}

#[test]
fn a_t_spin_that_would_be_a_mini_is_full_through_kick_4() {
    // The T-spin triple board with the bottom-left front corner (1, 0) left open.
    let board = [
        "..########",
        "...#######",
        "##.#######",
        "#..#######",
        "#..#######",
    ];
    let mut solo = Solo::versus().with_board(&board);
    solo.put(T, Spawn, 1, 3);
    let before = *solo.player.board();

    solo.tap(Input::ROTATE_CCW);
    let landed = solo.active();
    assert_eq!(landed, piece(T, Left, 2, 1));
    assert_eq!(t_spin(&before, &landed, 3), Spin::Mini, "by corners alone");
    let lock = solo.step(Input::HARD_DROP).locked.expect("the T locks");

    assert_eq!(lock.clear.spin, Spin::Full);
    assert_eq!(lock.clear.lines, 2);
    assert_eq!(lock.attack.lines, 4);
}

#[test]
fn moving_down_after_the_turn_cancels_the_spin() {
    // The spot at (1, 1) pointing right has 3 corners (wall side filled, arm resting on (2, 0)).
    let board = ["#.........", "#.........", "#.########"];
    let spot = piece(T, Right, 1, 1);
    assert_eq!(t_spin(&Board::from_rows(&board), &spot, 0), Spin::Mini);
    let mut solo = Solo::versus().with_board(&board);
    solo.put(T, Spawn, 1, 10);

    solo.tap(Input::ROTATE_CW);
    let lock = solo.step(Input::HARD_DROP).locked.expect("the T locks");

    assert_eq!(lock.piece, spot);
    assert_eq!(lock.clear.lines, 1);
    assert_eq!(lock.clear.spin, Spin::None);
}

#[test]
fn a_sideways_move_that_fails_keeps_the_spin() {
    let mut solo = Solo::versus().with_board(&TSD_BOARD);
    solo.player.set_active(tsd_t());

    solo.tap(Input::ROTATE_CW);
    let blocked = solo.tap(Input::LEFT);
    assert!(!blocked.moved);
    let lock = solo.step(Input::HARD_DROP).locked.expect("the T locks");

    assert_eq!(lock.clear.spin, Spin::Full);
}

#[test]
fn a_sideways_move_after_the_turn_cancels_the_spin() {
    // Kicked onto the floor at (4, 0) as in the mini above, then slid right into (5, 0), which
    // has 3 corners too.
    let board = ["...#..#...", "###....###"];
    let slid = piece(T, Spawn, 5, 0);
    assert_eq!(t_spin(&Board::from_rows(&board), &slid, 0), Spin::Mini);
    let mut solo = Solo::versus().with_board(&board);
    solo.put(T, Left, 5, 1);

    solo.tap(Input::ROTATE_CW);
    assert_eq!(solo.active(), piece(T, Spawn, 4, 0));
    assert!(solo.tap(Input::RIGHT).moved);
    let lock = solo.step(Input::HARD_DROP).locked.expect("the T locks");

    assert_eq!(lock.piece, slid);
    assert_eq!(lock.clear.spin, Spin::None);
}
