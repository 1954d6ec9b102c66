//! Lock delay (SPEC §3): 30 grounded frames, restarted by moves and rotations made on the
//! ground at most 15 times per piece, and hard drop locking at once.
//!
//! Counting convention (player.rs `lock_delay`): at the end of every frame the piece is
//! grounded, its timer goes up by one, and it locks when the timer reaches 30. A successful
//! move or rotation that starts on the ground sets the timer to 0 first, so that frame counts as
//! the first of a fresh 30. The 16th such move locks the piece at the end of the first frame
//! it is grounded.

mod common;

use common::{Solo, frames_until_lock, piece};
use sevenbag_core::{Input, PieceKind::*, Rotation::*};

/// Frames of input that alternate left and right, so each frame is a fresh press.
fn wiggle(solo: &mut Solo, moves: usize) {
    for i in 0..moves {
        let key = if i % 2 == 0 {
            Input::RIGHT
        } else {
            Input::LEFT
        };
        let events = solo.step(key);
        assert!(events.moved, "move {}", i + 1);
        assert!(events.locked.is_none(), "locked on move {}", i + 1);
    }
}

#[test]
fn a_grounded_piece_locks_after_exactly_30_frames() {
    let mut solo = Solo::still();
    solo.put(T, Spawn, 4, 0);

    assert_eq!(frames_until_lock(&mut solo, Input::NONE), 30);
}

#[test]
fn the_landing_frame_is_the_first_of_the_30() {
    let mut solo = Solo::versus();
    solo.put(T, Spawn, 4, 1);
    let mut landed_at = None;
    let mut frame = 0;
    let locked_at = loop {
        let events = solo.step(Input::NONE);
        if events.locked.is_some() {
            break frame;
        }
        if landed_at.is_none() && solo.active().y == 0 {
            landed_at = Some(frame);
        }
        frame += 1;
    };

    assert_eq!(locked_at - landed_at.expect("the T lands"), 29);
}

#[test]
fn a_move_on_the_ground_restarts_the_30_frames() {
    let mut solo = Solo::still();
    solo.put(T, Spawn, 4, 0);
    solo.steps(Input::NONE, 25);

    assert!(solo.step(Input::LEFT).moved);

    // The move's own frame is the first of the new 30.
    assert_eq!(frames_until_lock(&mut solo, Input::NONE), 29);
}

#[test]
fn fifteen_ground_moves_each_restart_the_lock_delay() {
    let mut solo = Solo::still();
    solo.put(T, Spawn, 4, 0);

    wiggle(&mut solo, 15);

    assert_eq!(frames_until_lock(&mut solo, Input::NONE), 29);
}

#[test]
fn the_16th_ground_move_locks_at_once() {
    let mut solo = Solo::still();
    solo.put(T, Spawn, 4, 0);
    wiggle(&mut solo, 15);

    let sixteenth = solo.step(Input::LEFT);

    assert!(sixteenth.moved);
    assert_eq!(
        sixteenth.locked.map(|l| l.piece),
        Some(piece(T, Spawn, 4, 0))
    );
}

#[test]
fn rotations_on_the_ground_use_up_resets_too() {
    // Even the O's turn, which moves no cell, counts.
    let mut solo = Solo::still();
    solo.put(O, Spawn, 4, 0);
    for i in 0..15 {
        let key = if i % 2 == 0 {
            Input::ROTATE_CW
        } else {
            Input::ROTATE_CCW
        };
        let events = solo.step(key);
        assert!(events.rotated && events.locked.is_none(), "turn {}", i + 1);
    }

    let sixteenth = solo.step(Input::ROTATE_180);

    assert!(sixteenth.rotated);
    assert!(sixteenth.locked.is_some());
}

#[test]
fn out_of_resets_a_piece_moved_off_a_ledge_locks_when_it_lands() {
    // The T rests on the ledge at x = 4 and 5; a 16th move to x = 6 takes it into the air.
    let mut solo = Solo::versus().with_board(&["#####....."]);
    solo.put(T, Spawn, 4, 1);
    wiggle(&mut solo, 15);
    assert_eq!(solo.active(), piece(T, Spawn, 5, 1));
    solo.step(Input::NONE);

    let off_the_ledge = solo.step(Input::RIGHT);
    assert!(off_the_ledge.moved && off_the_ledge.locked.is_none());
    assert!(!solo.player.board().grounded(&solo.active()));

    let mut frames = 0;
    let lock = loop {
        let in_the_air = !solo.player.board().grounded(&solo.active());
        let events = solo.step(Input::SOFT_DROP);
        frames += 1;
        if let Some(lock) = events.locked {
            assert!(in_the_air, "it locked on its first grounded frame");
            break lock;
        }
    };
    assert_eq!(lock.piece, piece(T, Spawn, 6, 0));
    assert!(frames < 30);
}

#[test]
fn moves_in_the_air_do_not_use_up_resets() {
    let handling = sevenbag_core::Handling {
        sdf: 0,
        ..Default::default()
    };
    let mut solo = Solo::still_with(handling);
    solo.put(T, Spawn, 4, 10);
    wiggle(&mut solo, 20);

    let landing = solo.step(Input::SOFT_DROP);

    assert!(landing.locked.is_none());
    assert_eq!(solo.active().y, 0);
    assert_eq!(frames_until_lock(&mut solo, Input::NONE), 29);
}

#[test]
fn hard_drop_locks_at_once_where_the_ghost_was() {
    let mut solo = Solo::versus().with_board(&["..........", "#########."]);
    solo.put(J, Spawn, 4, 19);
    let ghost = solo.player.ghost().expect("a ghost");

    let events = solo.step(Input::HARD_DROP);

    assert!(events.hard_dropped);
    assert_eq!(events.locked.map(|l| l.piece), Some(ghost));
    assert_eq!(ghost, piece(J, Spawn, 4, 1));
    assert_eq!(solo.player.active(), None);
}

#[test]
fn the_next_piece_spawns_on_the_frame_after_a_lock() {
    let mut solo = Solo::versus();
    solo.put(J, Spawn, 4, 19);
    solo.step(Input::HARD_DROP);

    let next = solo.step(Input::NONE);

    assert!(next.spawned.is_some());
    assert!(solo.player.active().is_some());
}
