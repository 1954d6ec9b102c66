//! Spawning and topping out (SPEC §1, §5): spawn at (4, 20) and the drop to row 19, block out,
//! lock out (a room option), and garbage out.

mod common;

use common::{Solo, board_of, piece};
use sevenbag_core::{Input, Piece, PieceKind::*, Rotation::*, Rules, TopOut, sequence};

#[test]
fn every_piece_spawns_at_4_20_and_drops_at_once_to_row_19() {
    let mut solo = Solo::still();
    for kind in sequence(Default::default(), 0, 7) {
        let events = solo.step(Input::NONE);
        assert_eq!(events.spawned, Some(kind));
        assert_eq!(solo.active(), Piece::spawn(kind).shifted(0, -1), "{kind:?}");
        assert_eq!(Piece::spawn(kind), piece(kind, Spawn, 4, 20));
        solo.step(Input::HARD_DROP);
        solo.player.set_board(Default::default());
    }
}

#[test]
fn a_piece_stays_at_row_20_when_row_19_is_taken() {
    let mut solo = Solo::still();
    solo.player.set_board(board_of((0..10).map(|x| (x, 19))));

    solo.step(Input::NONE);

    assert_eq!(solo.active().y, 20);
}

#[test]
fn a_spawn_that_overlaps_the_stack_is_a_block_out() {
    let mut solo = Solo::still();
    solo.player.set_board(board_of([(4, 20)]));

    let events = solo.step(Input::NONE);

    assert_eq!(events.topped_out, Some(TopOut::BlockOut));
    assert_eq!(solo.player.topped_out(), Some(TopOut::BlockOut));
    assert_eq!(solo.player.active(), None);
}

#[test]
fn a_topped_out_board_ignores_further_input() {
    let mut solo = Solo::still();
    solo.player.set_board(board_of([(4, 20)]));
    solo.step(Input::NONE);
    let before = solo.player;

    solo.step(Input::HARD_DROP);

    assert_eq!(solo.player.board(), before.board());
    assert_eq!(solo.player.stats(), before.stats());
}

/// Columns 0–2 filled up to row 19, and a T resting on them wholly in rows 20–21.
fn above_the_field(lock_out: bool) -> Solo {
    let rules = Rules {
        lock_out,
        ..common::still_rules()
    };
    let mut solo = Solo::new(rules, Default::default());
    solo.player
        .set_board(board_of((0..20).flat_map(|y| (0..3).map(move |x| (x, y)))));
    solo.put(T, Spawn, 1, 20);
    solo
}

#[test]
fn a_piece_locking_wholly_above_row_19_is_a_lock_out_when_the_rule_is_on() {
    let mut solo = above_the_field(true);

    let events = solo.step(Input::HARD_DROP);

    assert!(events.locked.is_some());
    assert_eq!(events.topped_out, Some(TopOut::LockOut));
}

#[test]
fn without_the_lock_out_rule_play_goes_on_above_the_field() {
    let mut solo = above_the_field(false);

    let events = solo.step(Input::HARD_DROP);
    assert!(events.locked.is_some());
    assert_eq!(events.topped_out, None);

    let next = solo.step(Input::NONE);
    assert!(next.spawned.is_some());
    assert_eq!(solo.player.topped_out(), None);
}

#[test]
fn garbage_pushing_a_block_above_row_39_is_a_garbage_out() {
    let mut solo = Solo::still();
    solo.player.set_board(board_of([(0, 39)]));
    solo.player.receive(1, 0, 20);
    solo.put(O, Spawn, 7, 0);
    solo.steps(Input::NONE, 20);

    let events = solo.step(Input::HARD_DROP);

    assert_eq!(events.garbage_risen, 1);
    assert_eq!(events.topped_out, Some(TopOut::GarbageOut));
}

#[test]
fn the_spawn_next_hook_spawns_that_piece_on_the_next_frame() {
    use sevenbag_core::{Handling, Player, Rules, StepContext};
    let rules = Rules::versus();
    let mut player = Player::new(&rules, Handling::default(), 0, 0, 0);
    let upcoming = player.next()[0];
    player.set_spawn_next(sevenbag_core::PieceKind::Z, Input::NONE);
    player.step(
        Input::NONE,
        StepContext {
            rules: &rules,
            frame: 0,
            play_frame: 0,
        },
    );
    assert_eq!(
        player.active().map(|p| p.kind),
        Some(sevenbag_core::PieceKind::Z)
    );
    assert_eq!(player.next()[0], upcoming);
}
