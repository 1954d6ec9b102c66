//! A server restarted mid-match over its room logs: the players come back and finish, and so
//! does a spectator. A spectator's clock held back by the outage must catch up with the players
//! and show the match to the frame the server ended it on, not freeze where it was when the
//! server's `MatchOver` arrived.

use std::time::Duration;

use sevenbag_core::{Match, Phase, Seat};
use sevenbag_netplay::{HeadlessClient, HeadlessConfig, Idle, RandomInputs};
use sevenbag_protocol::{EndReason, JoinRole, RoomOptions};
use sevenbag_tests::players::match_config;

const MATCH_TIMEOUT: Duration = Duration::from_secs(60);
/// Confirmed frames both players reach before the restart.
const RESTART_AT: u32 = 120;
/// How long the server stays down: long enough that a spectator who never caught up would
/// still be seconds behind at the end.
const DOWN: Duration = Duration::from_millis(2500);

/// A client that reconnects by itself; a spectator predicts a little, as the game's does.
fn config(name: &str, spectate_window: u32) -> HeadlessConfig {
    HeadlessConfig {
        auto_reconnect: Some(Duration::from_secs(30)),
        spectate_window,
        ..HeadlessConfig::new(name)
    }
}

async fn client(url: &str, name: &str, spectate_window: u32) -> HeadlessClient {
    HeadlessClient::connect(url, config(name, spectate_window))
        .await
        .unwrap_or_else(|e| panic!("{name} connects: {e}"))
}

/// A player that plays until [`RESTART_AT`], says so, then plays the match out.
fn play(
    mut client: HeadlessClient,
    seed: u64,
    reached: tokio::sync::oneshot::Sender<()>,
) -> tokio::task::JoinHandle<HeadlessClient> {
    tokio::spawn(async move {
        let mut keys = RandomInputs::new(seed).with_drop_every(3, 9);
        client
            .run_until(&mut keys, MATCH_TIMEOUT, |c| {
                c.confirmed().is_some_and(|m| m.frame().0 >= RESTART_AT)
            })
            .await
            .expect("the match gets going");
        let _ = reached.send(());
        let result = client.play_match(&mut keys, MATCH_TIMEOUT).await;
        assert!(result.is_ok(), "{}: {result:?}", client.names()[0]);
        client
    })
}

/// The winner the boards of `m` show, once its match is over.
fn winner_shown(m: &Match) -> Option<Seat> {
    match m.phase() {
        Phase::MatchOver { winner } => Some(winner),
        _ => None,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spectator_sees_a_match_the_server_was_restarted_under_to_its_end() {
    let mut server = sevenbag_tests::start_server(match_config(Duration::from_millis(300))).await;
    let url = server.url();
    let mut alice = client(&url, "alice", 0).await;
    let options = RoomOptions {
        first_to: 2,
        reconnect_seconds: 15,
        ..RoomOptions::default()
    };
    let code = alice.create_room(options).await.expect("room");
    let mut bob = client(&url, "bob", 0).await;
    bob.join_room(&code, JoinRole::Player).await.expect("join");
    let mut eve = client(&url, "eve", 6).await;
    assert_eq!(
        eve.join_room(&code, JoinRole::Spectator)
            .await
            .expect("watch"),
        None
    );
    alice.ready().expect("ready");
    bob.ready().expect("ready");
    let (a_reached, a_at) = tokio::sync::oneshot::channel();
    let (b_reached, b_at) = tokio::sync::oneshot::channel();
    let alice = play(alice, 71, a_reached);
    let bob = play(bob, 72, b_reached);
    let eve = tokio::spawn(async move {
        let result = eve.play_match(&mut Idle, MATCH_TIMEOUT).await;
        assert!(result.is_ok(), "eve: {result:?}");
        // The server's word is in; what it confirmed before it is still being shown.
        eve.wait_for(Duration::from_secs(20), |c| !c.is_showing())
            .await
            .expect("eve shows the end and stops");
        eve
    });
    a_at.await.expect("alice reached the restart frame");
    b_at.await.expect("bob reached the restart frame");

    server.restart(DOWN).await.expect("the server restarts");

    let alice = alice.await.expect("alice's task");
    let bob = bob.await.expect("bob's task");
    let eve = eve.await.expect("eve's task");
    let result = alice.match_result().cloned().expect("a result");
    assert_eq!(result.reason, EndReason::TopOut);
    assert_eq!(bob.match_result(), Some(&result));
    assert_eq!(eve.match_result(), Some(&result));
    for c in [&alice, &bob, &eve] {
        assert!(c.reconnects() >= 1, "{} came back", c.names()[0]);
        assert!(c.desyncs().is_empty(), "{:?}", c.desyncs());
        assert!(c.session_errors().is_empty(), "{:?}", c.session_errors());
    }
    // Eve's boards end where the players' do: the same rounds, and the match over with the
    // server's winner on the boards she is shown, not frozen seconds before.
    let players_end = alice.confirmed().expect("alice's match").frame().0;
    let shown = eve.predicted().expect("eve's match");
    assert_eq!(
        winner_shown(shown),
        Some(result.winner),
        "eve's boards stopped at frame {} of {players_end}, in {:?}",
        shown.frame().0,
        shown.phase()
    );
    assert_eq!(eve.round_ends(), alice.round_ends());
    assert_eq!(
        eve.confirmed().map(Match::wins),
        alice.confirmed().map(Match::wins)
    );
}
