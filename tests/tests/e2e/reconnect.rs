//! End-to-end reconnects: a player whose connection drops mid-match and who comes back with
//! the resume token inside the room's window plays on to the end; one who stays away forfeits;
//! a match neither player comes back to has no winner, and both hear so when they return.

use std::time::Duration;

use sevenbag_core::Seat;
use sevenbag_netplay::{HeadlessClient, Idle, RandomInputs};
use sevenbag_protocol::replay_file::open_two_seats;
use sevenbag_protocol::{EndReason, ErrorCode, RoomOptions, SeatStatus};
use sevenbag_server::Config;
use sevenbag_tests::players::{match_config, room};

const MATCH_TIMEOUT: Duration = Duration::from_secs(45);

fn config() -> Config {
    match_config(Duration::from_millis(300))
}

/// Two players in a fresh room with a `reconnect_seconds` window, both ready.
async fn pair(url: &str, reconnect_seconds: u8) -> (HeadlessClient, HeadlessClient) {
    let options = RoomOptions {
        first_to: 2,
        reconnect_seconds,
        ..RoomOptions::default()
    };
    let (mut alice, mut bob, _, _) = room(url, options, false).await;
    assert_eq!(bob.seat(), Some(Seat::Second));
    alice.ready().expect("ready");
    bob.ready().expect("ready");
    (alice, bob)
}

/// Alice plays the whole match on her own task.
fn play_on(mut alice: HeadlessClient) -> tokio::task::JoinHandle<(HeadlessClient, bool)> {
    tokio::spawn(async move {
        let mut keys = RandomInputs::new(31).with_drop_every(3, 9);
        let mut saw_reconnecting = false;
        // Note whether Bob's seat was ever shown as reconnecting, then finish the match.
        let watched = alice
            .run_until(&mut keys, MATCH_TIMEOUT, |c| {
                c.match_result().is_some()
                    || matches!(c.seat_statuses()[1], Some(SeatStatus::Reconnecting { .. }))
            })
            .await;
        if watched.is_ok() && alice.match_result().is_none() {
            saw_reconnecting = true;
        }
        let result = alice.play_match(&mut keys, MATCH_TIMEOUT).await;
        assert!(result.is_ok(), "alice: {result:?}");
        (alice, saw_reconnecting)
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_who_reconnects_in_time_finishes_the_match() {
    let server = sevenbag_tests::start_server(config()).await;
    let (alice, mut bob) = pair(&server.url(), 5).await;
    let alice = play_on(alice);

    let mut keys = RandomInputs::new(32).with_drop_every(3, 9);
    bob.run_until(&mut keys, MATCH_TIMEOUT, |c| {
        c.confirmed().is_some_and(|m| m.frame().0 >= 120)
    })
    .await
    .expect("the match gets going");
    let before = bob.confirmed().map(|m| m.frame().0).unwrap_or(0);
    bob.drop_connection();
    // Away for a second and a half: Alice stalls at her prediction window meanwhile.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    bob.reconnect().await.expect("resume accepted");
    let result = bob
        .play_match(&mut keys, MATCH_TIMEOUT)
        .await
        .expect("bob finishes after reconnecting");
    assert_eq!(result.reason, EndReason::TopOut);

    let (alice, saw_reconnecting) = alice.await.expect("task");
    assert!(saw_reconnecting, "alice saw bob's seat reconnecting");
    assert_eq!(alice.match_result(), Some(&result));
    assert!(alice.stats().session.stall_frames > 0);
    assert!(
        bob.stats().session.rebuilds >= 1,
        "bob rebuilt from the match log"
    );
    assert!(bob.confirmed().is_some_and(|m| m.frame().0 > before + 60));
    for c in [&alice, &bob] {
        assert!(c.desyncs().is_empty(), "{:?}", c.desyncs());
        assert!(c.session_errors().is_empty(), "{:?}", c.session_errors());
    }
    assert_eq!(alice.round_ends(), bob.round_ends());
    assert_eq!(alice.hashes(), bob.hashes());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_who_stays_away_forfeits() {
    let server = sevenbag_tests::start_server(config()).await;
    let (alice, mut bob) = pair(&server.url(), 2).await;
    let alice = play_on(alice);

    let mut keys = RandomInputs::new(33).with_drop_every(3, 9);
    bob.run_until(&mut keys, MATCH_TIMEOUT, |c| {
        c.confirmed().is_some_and(|m| m.frame().0 >= 120)
    })
    .await
    .expect("the match gets going");
    let dropped = std::time::Instant::now();
    bob.drop_connection();

    let (mut alice, saw_reconnecting) = alice.await.expect("task");
    assert!(saw_reconnecting);
    let result = alice.match_result().cloned().expect("result");
    assert_eq!(result.winner, Seat::First);
    assert_eq!(result.reason, EndReason::Forfeit);
    alice
        .wait_for(Duration::from_secs(2), |c| c.seat_statuses()[1].is_none())
        .await
        .expect("the forfeited seat is vacated");
    // The window was 2 s: the forfeit came after it, and not much later.
    let waited = dropped.elapsed();
    assert!(waited >= Duration::from_millis(1900), "{waited:?}");
    assert!(waited < Duration::from_secs(8), "{waited:?}");

    // Too late now: the token no longer matches a seat.
    let late = bob.reconnect().await;
    assert!(
        late.is_ok(),
        "the server still welcomes the client: {late:?}"
    );
    bob.wait_for(Duration::from_secs(2), |c| !c.errors().is_empty())
        .await
        .expect("an error about the resume token");
    assert!(
        bob.errors()
            .iter()
            .any(|e| e.code == sevenbag_protocol::ErrorCode::BadResume)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_neither_player_comes_back_to_has_no_winner() {
    let server = sevenbag_tests::start_server(config()).await;
    let options = RoomOptions {
        first_to: 2,
        reconnect_seconds: 2,
        ..RoomOptions::default()
    };
    let (mut alice, mut bob, eve, _) = room(&server.url(), options, true).await;
    let mut eve = eve.expect("a spectator");
    alice.ready().expect("ready");
    bob.ready().expect("ready");
    let going = |c: &HeadlessClient| c.confirmed().is_some_and(|m| m.frame().0 >= 120);
    let alice_task = tokio::spawn(async move {
        let mut keys = RandomInputs::new(41).with_drop_every(3, 9);
        let r = alice.run_until(&mut keys, MATCH_TIMEOUT, going).await;
        (alice, r)
    });
    let mut keys = RandomInputs::new(42).with_drop_every(3, 9);
    bob.run_until(&mut keys, MATCH_TIMEOUT, going)
        .await
        .expect("the match gets going");
    let (mut alice, r) = alice_task.await.expect("task");
    r.expect("the match gets going");
    // Both connections go at once (a restart longer than the window looks the same).
    alice.drop_connection();
    bob.drop_connection();

    // The spectator hears the one verdict: no winner.
    eve.run_until(&mut Idle, Duration::from_secs(10), |c| {
        c.void_result().is_some() || c.match_result().is_some()
    })
    .await
    .expect("a verdict");
    assert_eq!(eve.match_result(), None, "nobody wins");
    let void = eve.void_result().cloned().expect("no result");
    assert_eq!(void.reason, EndReason::Abandoned);

    // Each player who comes back later hears the same verdict, then that the seat is gone.
    for late in [&mut alice, &mut bob] {
        late.reconnect().await.expect("welcomed");
        late.wait_for(Duration::from_secs(5), |c| !c.errors().is_empty())
            .await
            .expect("the resume token is refused");
        assert!(late.errors().iter().any(|e| e.code == ErrorCode::BadResume));
        assert_eq!(late.match_result(), None);
        assert_eq!(late.void_result(), Some(&void));
    }

    // The replay records no winner, for the same reason.
    let id = void.replay.clone().expect("the replay is kept");
    let bytes = eve.fetch_replay(&id).await.expect("the replay");
    let replay = open_two_seats(&bytes).expect("a replay");
    assert_eq!(replay.result.winner, None);
    assert_eq!(replay.result.reason, EndReason::Abandoned);
}
