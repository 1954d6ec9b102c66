//! Where a two-seat room's boards stop short of the server's end: the server ended the match
//! on its boards, but the opponent's last inputs never reached us, so our session steps to
//! the prediction window and waits. The screen then shows the server's winner by its count of
//! rounds ([`BattleOnline::stopped_short`], [`BattleOnline::round_wins`]). No server: the
//! messages are handed over as the connection would.

use std::time::Duration;

use sevenbag_core::{BattleHeader, Handling, Input};
use sevenbag_netplay::Hello;
use sevenbag_netplay::time::Instant;
use sevenbag_protocol::{EndReason, ServerMessage};

use super::{BattleOnline, BattleStage};

/// Ann, in the first seat of a two-seat match that just started.
fn playing() -> BattleOnline {
    let hello = Hello {
        name: "Ann".to_owned(),
        handling: Handling::default(),
        resume: None,
    };
    let mut o = BattleOnline::blank(
        "ws://127.0.0.1:9".to_owned(),
        hello,
        None,
        BattleStage::InRoom,
    );
    o.seat = Some(0);
    let start = ServerMessage::BattleStart {
        header: Box::new(BattleHeader::new(3, 2)),
        names: vec!["Ann".to_owned(), "Bob".to_owned()],
        room_seats: vec![0, 1],
        start_in_ms: 0,
    };
    o.on_message(start, Instant::now());
    o
}

#[test]
fn boards_waiting_for_inputs_that_never_come_stop_short_of_the_servers_end() {
    let mut o = playing();
    let now = Instant::now();
    let round = ServerMessage::BattleRoundOver {
        round: 3,
        winner: Some(1),
        wins: vec![1, 3],
        placements: vec![2, 1],
        frame: 900,
    };
    o.on_message(round, now);
    let over = ServerMessage::BattleOver {
        winner: Some(1),
        reason: EndReason::TopOut,
        placements: vec![2, 1],
        replay: None,
    };
    o.on_message(over, now);
    assert!(!o.stopped_short(), "frames are still to be shown");
    // Bob's inputs never come: the session steps to the window past his last and waits.
    let later = now + Duration::from_secs(10);
    let mut ticks = 0;
    while !o.stopped_short() {
        assert!(ticks < 100, "the session never stopped");
        o.tick(later, &mut |_, _| Input::NONE);
        ticks += 1;
    }
    assert!(o.session().is_some_and(|s| !s.is_over()));
    assert_eq!(o.round_wins(), vec![1, 3]);
}
