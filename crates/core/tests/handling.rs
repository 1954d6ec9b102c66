//! Handling frame by frame (SPEC §3): DAS, ARR, DCD, last-pressed direction, soft drop factor,
//! initial rotation and hold, and the hold rules.
//!
//! Frame numbers below count from 0, the first frame a key is held.

mod common;

use common::{Solo, piece};
use sevenbag_core::rules::CELL;
use sevenbag_core::{Handling, Input, PieceKind, PieceKind::*, Rotation::*, Rules, sequence};

/// The column of the active piece after each of `frames` frames of the keys `keys(frame)`.
fn columns(solo: &mut Solo, frames: usize, keys: impl Fn(usize) -> Input) -> Vec<i8> {
    (0..frames)
        .map(|f| {
            solo.step(keys(f));
            solo.active().x
        })
        .collect()
}

/// Frames on which the piece moved sideways.
fn move_frames(solo: &mut Solo, frames: usize, keys: impl Fn(usize) -> Input) -> Vec<usize> {
    (0..frames).filter(|&f| solo.step(keys(f)).moved).collect()
}

/// The first pieces of seed 0's 7-bag, which every `Solo` deals.
fn dealt(n: usize) -> Vec<PieceKind> {
    sequence(Default::default(), 0, n)
}

#[test]
fn das_10_arr_2_moves_on_the_press_then_after_das_every_arr_frames() {
    let mut solo = Solo::still();
    solo.put(T, Spawn, 4, 10);

    let xs = columns(&mut solo, 18, |_| Input::RIGHT);

    // Press frame 0 moves; DAS charges on frame 10; then every 2nd frame until the wall (x 8).
    assert_eq!(xs, [5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 6, 6, 7, 7, 8, 8, 8, 8]);
}

#[test]
fn arr_0_goes_to_the_wall_when_das_charges() {
    let mut solo = Solo::still_with(Handling {
        arr: 0,
        ..Default::default()
    });
    solo.put(T, Spawn, 4, 10);

    let xs = columns(&mut solo, 12, |_| Input::LEFT);

    assert_eq!(xs, [3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 1, 1]);
}

#[test]
fn dcd_delays_auto_shift_after_a_rotation() {
    // DAS charged on frame 10; a clockwise turn on frame 11.
    let keys = |f: usize| {
        if f == 11 {
            Input::RIGHT | Input::ROTATE_CW
        } else {
            Input::RIGHT
        }
    };
    let mut plain = Solo::still();
    plain.put(T, Spawn, 4, 10);
    let mut cut = Solo::still_with(Handling {
        dcd: 3,
        ..Default::default()
    });
    cut.put(T, Spawn, 4, 10);

    assert_eq!(move_frames(&mut plain, 20, keys), [0, 10, 12, 14]);
    // Frames 11, 12 and 13 are cut; the ARR count then resumes, so the next move is on 15.
    assert_eq!(move_frames(&mut cut, 20, keys), [0, 10, 15, 17]);
}

#[test]
fn dcd_pending_when_das_charges_delays_the_first_auto_shift_instead_of_dropping_it() {
    // A turn on frame 5, while DAS is still charging: the cut waits for the charge (frame 10),
    // holds auto-shift for 3 frames, and the first auto-shift move then happens on frame 13.
    let keys = |f: usize| {
        if f == 5 {
            Input::RIGHT | Input::ROTATE_CW
        } else {
            Input::RIGHT
        }
    };
    let mut cut = Solo::still_with(Handling {
        dcd: 3,
        ..Default::default()
    });
    cut.put(T, Spawn, 4, 10);

    assert_eq!(move_frames(&mut cut, 18, keys), [0, 13, 15, 17]);
}

#[test]
fn the_last_pressed_direction_wins_and_release_hands_back_with_a_fresh_das() {
    // Left from frame 0, right pressed too on frame 5, right released on frame 22.
    let keys = |f: usize| match f {
        0..5 => Input::LEFT,
        5..22 => Input::LEFT | Input::RIGHT,
        _ => Input::LEFT,
    };
    let mut solo = Solo::still();
    solo.put(T, Spawn, 4, 10);

    let xs = columns(&mut solo, 34, keys);

    assert_eq!(xs[0], 3, "left pressed");
    assert_eq!(xs[5], 4, "right pressed while left is held: right wins");
    assert_eq!(
        &xs[14..22],
        [4, 5, 5, 6, 6, 7, 7, 8],
        "right's DAS charged on frame 15"
    );
    assert_eq!(
        &xs[22..32],
        [8; 10],
        "left takes over without a move, DAS restarting"
    );
    assert_eq!(xs[32], 7, "left's DAS charged on frame 32");
}

#[test]
fn both_directions_pressed_on_one_frame_go_left() {
    let mut solo = Solo::still();
    solo.put(T, Spawn, 4, 10);

    solo.step(Input::LEFT | Input::RIGHT);

    assert_eq!(solo.active().x, 3);
}

#[test]
fn default_gravity_falls_one_row_every_60_frames() {
    // 1/60 cell a frame is CELL / 60 rounded up (1093 units), so the 60th frame drops a row.
    let g = Rules::versus().gravity;
    assert_eq!(g, 1093);
    let mut solo = Solo::versus();
    solo.put(T, Spawn, 4, 19);

    solo.steps(Input::NONE, 59);
    assert_eq!(solo.active().y, 19);
    solo.step(Input::NONE);
    assert_eq!(solo.active().y, 18);
}

#[test]
fn soft_drop_falls_sdf_times_as_fast_as_gravity() {
    let g = Rules::versus().gravity;
    let mut solo = Solo::versus();
    solo.put(T, Spawn, 4, 30);

    for frames in 1..=30u32 {
        solo.step(Input::SOFT_DROP);
        let fallen = 30 - solo.active().y;
        assert_eq!(
            u32::from(fallen as u8),
            frames * g * 20 / CELL,
            "frame {frames}"
        );
    }
    // 20 rows a second: 10 rows in 30 frames.
    assert_eq!(solo.active().y, 20);
}

#[test]
fn sdf_0_drops_to_the_floor_at_once_but_does_not_lock() {
    let handling = Handling {
        sdf: 0,
        ..Default::default()
    };
    let mut solo = Solo::new(Rules::versus(), handling).with_board(&["#########."]);
    solo.put(L, Spawn, 4, 19);

    let events = solo.step(Input::SOFT_DROP);

    assert!(events.locked.is_none());
    assert_eq!(solo.active(), piece(L, Spawn, 4, 1));
    assert_eq!(common::frames_until_lock(&mut solo, Input::SOFT_DROP), 29);
}

#[test]
fn irs_turns_a_piece_when_a_rotate_key_is_held_at_spawn() {
    let mut solo = Solo::versus();
    solo.player.idle(Input::ROTATE_CCW);

    let events = solo.step(Input::ROTATE_CCW);

    let first = dealt(1)[0];
    assert_eq!(events.spawned, Some(first));
    assert_eq!(solo.active().rotation, Left);
}

#[test]
fn without_irs_a_rotate_key_held_at_spawn_does_nothing() {
    let mut solo = Solo::new(
        Rules::versus(),
        Handling {
            irs: false,
            ..Default::default()
        },
    );
    solo.player.idle(Input::ROTATE_CCW);

    solo.step(Input::ROTATE_CCW);

    assert_eq!(solo.active().rotation, Spawn);
}

#[test]
fn a_rotate_key_pressed_on_the_spawn_frame_turns_the_piece_once() {
    for irs in [true, false] {
        let mut solo = Solo::new(
            Rules::versus(),
            Handling {
                irs,
                ..Default::default()
            },
        );
        solo.step(Input::ROTATE_CW);
        assert_eq!(solo.active().rotation, Right, "irs {irs}");
    }
}

#[test]
fn irs_with_180_follows_the_room_rule() {
    let mut on = Solo::versus();
    on.player.idle(Input::ROTATE_180);
    on.step(Input::ROTATE_180);
    assert_eq!(on.active().rotation, Flip);

    let mut off = Solo::new(
        Rules {
            allow_180: false,
            ..Rules::versus()
        },
        Handling::default(),
    );
    off.player.idle(Input::ROTATE_180);
    off.step(Input::ROTATE_180);
    assert_eq!(off.active().rotation, Spawn);
}

#[test]
fn ihs_holds_the_first_piece_when_hold_is_held_at_spawn() {
    let mut solo = Solo::versus();
    solo.player.idle(Input::HOLD);

    let events = solo.step(Input::HOLD);

    let d = dealt(2);
    assert!(events.held);
    assert_eq!(solo.player.hold(), Some(d[0]));
    assert_eq!(solo.active().kind, d[1]);
    assert!(solo.player.hold_used());
}

#[test]
fn without_ihs_the_first_piece_spawns_with_hold_held() {
    let mut solo = Solo::new(
        Rules::versus(),
        Handling {
            ihs: false,
            ..Default::default()
        },
    );
    solo.player.idle(Input::HOLD);

    solo.step(Input::HOLD);

    assert_eq!(solo.player.hold(), None);
    assert_eq!(solo.active().kind, dealt(1)[0]);
}

#[test]
fn hold_works_once_per_piece() {
    let d = dealt(3);
    let mut solo = Solo::versus();
    solo.step(Input::NONE);

    assert!(solo.tap(Input::HOLD).held);
    assert_eq!((solo.player.hold(), solo.active().kind), (Some(d[0]), d[1]));
    let again = solo.tap(Input::HOLD);

    assert!(!again.held);
    assert_eq!((solo.player.hold(), solo.active().kind), (Some(d[0]), d[1]));
}

#[test]
fn hold_swaps_the_held_piece_back_in_at_the_spawn_position() {
    let d = dealt(3);
    let mut solo = Solo::versus();
    solo.step(Input::NONE);
    solo.tap(Input::HOLD);
    solo.tap(Input::HARD_DROP);
    assert_eq!(solo.active().kind, d[2]);
    solo.tap(Input::LEFT);
    solo.tap(Input::ROTATE_CW);

    assert!(solo.tap(Input::HOLD).held);

    assert_eq!(solo.player.hold(), Some(d[2]));
    assert_eq!(solo.active(), piece(d[0], Spawn, 4, 19));
}
