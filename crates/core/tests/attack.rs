//! Attack and garbage through real play in a match (SPEC §5): lines sent, travel time, rising on
//! plain locks, the per-lock cap, cancelling, back-to-back, combo and perfect clear.
//!
//! The attack table itself is unit-tested in `attack.rs`; here every number comes from locks.

mod common;

use common::{
    PERFECT_CLEAR_BOARD, Solo, TSD_BOARD, idle_until, only, piece, plain_lock, play_perfect_clear,
    play_tsd, start, tsd_t, versus_match,
};
use sevenbag_core::board::FULL_ROW;
use sevenbag_core::{CellKind, Input, LockEvent, PieceKind::*, Rotation::*, Seat, Spin};

/// Hard drops the T of the T-spin double board after turning it; returns the lock.
fn solo_tsd(solo: &mut Solo) -> LockEvent {
    solo.set_board(&TSD_BOARD);
    solo.player.set_active(tsd_t());
    solo.tap(Input::ROTATE_CW);
    solo.tap(Input::HARD_DROP).locked.expect("the T locks")
}

/// An O dropped at the left wall: a lock that clears nothing.
fn solo_plain(solo: &mut Solo) -> LockEvent {
    solo.put(O, Spawn, 0, 15);
    let lock = solo.tap(Input::HARD_DROP).locked.expect("the O locks");
    assert_eq!(lock.clear.lines, 0);
    lock
}

/// An I laid flat into row 0 under a junk row: a single that is no perfect clear.
fn solo_single(solo: &mut Solo) -> LockEvent {
    solo.set_board(&["#.........", "######...."]);
    solo.put(I, Spawn, 7, 5);
    let lock = solo.tap(Input::HARD_DROP).locked.expect("the I locks");
    assert_eq!(lock.clear.lines, 1);
    lock
}

#[test]
fn a_t_spin_double_sends_4_lines_to_the_opponent() {
    let mut m = versus_match(3);
    start(&mut m);

    let sent_at = play_tsd(&mut m, Seat::First);

    let stats = m.player(Seat::First).stats();
    assert_eq!((stats.attack, stats.sent, stats.t_spins), (4, 4, 1));
    let incoming = m.player(Seat::Second).garbage().entries();
    assert_eq!(incoming.len(), 1);
    assert_eq!(incoming[0].lines, 4);
    assert_eq!(incoming[0].ready_at, sent_at + 20);
}

#[test]
fn garbage_cannot_rise_19_frames_after_it_was_sent() {
    let mut m = versus_match(3);
    start(&mut m);
    let sent_at = play_tsd(&mut m, Seat::First);
    idle_until(&mut m, sent_at + 19);

    m.step(only(Seat::Second, Input::HARD_DROP));

    let second = m.player(Seat::Second);
    assert!(second.events().locked.is_some());
    assert_eq!(second.events().garbage_risen, 0);
    assert_eq!(second.garbage().total(), 4);
}

#[test]
fn garbage_rises_on_a_plain_lock_20_frames_after_it_was_sent() {
    let mut m = versus_match(3);
    start(&mut m);
    let sent_at = play_tsd(&mut m, Seat::First);
    idle_until(&mut m, sent_at + 20);

    m.step(only(Seat::Second, Input::HARD_DROP));

    let second = m.player(Seat::Second);
    assert_eq!(second.events().garbage_risen, 4);
    assert_eq!(second.garbage().total(), 0);
    let board = second.board();
    let hole = (0..10).find(|&x| !board.occupied(x, 0)).expect("a hole");
    for y in 0..4 {
        assert_eq!(board.row(y), FULL_ROW & !(1 << hole), "row {y}");
        assert_eq!(board.cell((hole + 1) % 10, y), Some(CellKind::Garbage));
    }
}

#[test]
fn a_clearing_lock_holds_garbage_back_until_a_plain_lock() {
    let mut m = versus_match(3);
    start(&mut m);
    let sent_at = play_tsd(&mut m, Seat::First);
    idle_until(&mut m, sent_at + 25);
    let second = m.player_mut(Seat::Second);
    second.set_board(sevenbag_core::Board::from_rows(&[
        "#.........",
        "######....",
    ]));
    second.set_active(piece(I, Spawn, 7, 5));

    m.step(only(Seat::Second, Input::HARD_DROP));
    let cleared = m.player(Seat::Second).events();
    assert_eq!(
        cleared.locked.map(|l| (l.clear.lines, l.sent)),
        Some((1, 0))
    );
    assert_eq!(cleared.garbage_risen, 0);
    m.step([Input::NONE; 2]);

    m.step(only(Seat::Second, Input::HARD_DROP));
    assert_eq!(m.player(Seat::Second).events().garbage_risen, 4);
}

#[test]
fn at_most_8_lines_rise_per_lock() {
    let mut m = versus_match(3);
    start(&mut m);
    let sent_at = play_perfect_clear(&mut m, Seat::First);
    assert_eq!(m.player(Seat::Second).garbage().total(), 10);
    idle_until(&mut m, sent_at + 20);

    plain_lock(&mut m, Seat::Second);
    assert_eq!(m.player(Seat::Second).stats().garbage_received, 8);
    assert_eq!(m.player(Seat::Second).garbage().total(), 2);

    plain_lock(&mut m, Seat::Second);
    assert_eq!(m.player(Seat::Second).stats().garbage_received, 10);
}

#[test]
fn an_attack_cancels_its_senders_incoming_garbage_first_even_while_it_travels() {
    let mut m = versus_match(3);
    start(&mut m);
    play_tsd(&mut m, Seat::Second);
    assert_eq!(m.player(Seat::First).garbage().total(), 4);

    m.player_mut(Seat::First)
        .set_board(sevenbag_core::Board::from_rows(&PERFECT_CLEAR_BOARD));
    m.player_mut(Seat::First).set_active(piece(I, Spawn, 7, 0));
    m.step(only(Seat::First, Input::HARD_DROP));

    let lock = m.player(Seat::First).events().locked.expect("the I locks");
    assert_eq!((lock.attack.lines, lock.cancelled, lock.sent), (10, 4, 6));
    assert_eq!(m.player(Seat::First).garbage().total(), 0);
    assert_eq!(m.player(Seat::Second).garbage().total(), 6);
}

#[test]
fn an_attack_smaller_than_the_incoming_garbage_only_cancels() {
    let mut m = versus_match(3);
    start(&mut m);
    play_perfect_clear(&mut m, Seat::Second);

    play_tsd(&mut m, Seat::First);

    assert_eq!(m.player(Seat::First).stats().sent, 0);
    assert_eq!(m.player(Seat::First).garbage().total(), 6);
    assert_eq!(m.player(Seat::Second).garbage().total(), 0);
}

#[test]
fn attacks_made_on_the_same_frame_both_arrive() {
    let mut m = versus_match(3);
    start(&mut m);
    for seat in [Seat::First, Seat::Second] {
        let p = m.player_mut(seat);
        p.set_board(sevenbag_core::Board::from_rows(&TSD_BOARD));
        p.set_active(tsd_t());
    }

    m.step([Input::ROTATE_CW; 2]);
    m.step([Input::HARD_DROP; 2]);

    for seat in [Seat::First, Seat::Second] {
        assert_eq!(m.player(seat).stats().sent, 4, "{seat:?}");
        assert_eq!(m.player(seat).garbage().total(), 4, "{seat:?}");
    }
}

#[test]
fn back_to_back_t_spins_send_one_more_line() {
    let mut solo = Solo::versus();
    let first = solo_tsd(&mut solo);
    solo_plain(&mut solo);

    let second = solo_tsd(&mut solo);

    assert_eq!((first.attack.lines, first.b2b), (4, 1));
    assert_eq!(second.clear.spin, Spin::Full);
    assert!(second.attack.b2b_bonus);
    assert_eq!((second.attack.lines, second.b2b), (5, 2));
}

#[test]
fn a_quad_keeps_back_to_back_with_t_spins() {
    let mut solo = Solo::versus();
    solo_tsd(&mut solo);
    solo_plain(&mut solo);
    solo.set_board(&[
        "#.........",
        "#########.",
        "#########.",
        "#########.",
        "#########.",
    ]);
    solo.put(I, Right, 9, 10);

    let quad = solo.tap(Input::HARD_DROP).locked.expect("the I locks");

    assert_eq!(quad.clear.lines, 4);
    assert_eq!(quad.attack.lines, 5);
}

#[test]
fn a_plain_clear_breaks_back_to_back() {
    let mut solo = Solo::versus();
    solo_tsd(&mut solo);
    solo_plain(&mut solo);
    let single = solo_single(&mut solo);
    solo_plain(&mut solo);

    let again = solo_tsd(&mut solo);

    assert_eq!(single.b2b, 0);
    assert!(!again.attack.b2b_bonus);
    assert_eq!(again.attack.lines, 4);
}

#[test]
fn consecutive_clearing_pieces_build_a_combo() {
    let mut solo = Solo::versus();

    let sent: Vec<(u16, Option<u8>)> = (0..6)
        .map(|_| {
            let lock = solo_single(&mut solo);
            (lock.attack.lines, lock.attack.combo)
        })
        .collect();

    assert_eq!(
        sent,
        [
            (0, Some(0)),
            (1, Some(1)),
            (1, Some(2)),
            (2, Some(3)),
            (2, Some(4)),
            (3, Some(5)),
        ]
    );
    assert_eq!(solo.player.stats().max_combo, 5);
}

#[test]
fn a_lock_that_clears_nothing_ends_the_combo() {
    let mut solo = Solo::versus();
    solo_single(&mut solo);
    solo_single(&mut solo);
    solo_plain(&mut solo);

    assert_eq!(solo.player.combo(), None);
    assert_eq!(solo_single(&mut solo).attack.combo, Some(0));
}

#[test]
fn a_perfect_clear_sends_10_more_lines() {
    let mut solo = Solo::versus().with_board(&PERFECT_CLEAR_BOARD);
    solo.put(I, Spawn, 7, 0);

    let lock = solo.tap(Input::HARD_DROP).locked.expect("the I locks");

    assert!(lock.clear.perfect);
    assert_eq!(lock.attack.lines, 10);
    assert!(solo.player.board().is_empty());
    assert_eq!(solo.player.stats().perfect_clears, 1);
}
