//! End-to-end: rooms of several seats through the real server on 127.0.0.1:0, played by
//! headless clients. Every client's final state hash is the server's (the replay it kept,
//! re-simulated), whatever happened on the way: a spectator, a reconnect, teams, manual
//! targets, and hostile clients cut with a reason while the others play on.

use std::time::Duration;

use sevenbag_core::{Battle, SeatInput, Targeting};
use sevenbag_protocol::{ClientMessage, EndReason, ErrorCode, JoinRole, TargetChange};
use sevenbag_tests::ffa::{
    MATCH_TIMEOUT, all_ready, connect, final_hash, options, play_all, plays_on_across_a_restart,
    random_keys, seated, verified_replay,
};
use sevenbag_tests::players::match_config;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn eight_players_play_to_the_end_with_a_spectator_and_a_reconnect() {
    let server = sevenbag_tests::start_server(match_config(Duration::from_millis(300))).await;
    let url = server.url();
    let (mut players, code) = seated(&url, options(8), 8).await;
    let mut eve = connect(&url, "eve").await;
    assert_eq!(
        eve.join(&code, JoinRole::Spectator).await.expect("watch"),
        None
    );
    all_ready(&mut players);
    for p in players.iter_mut() {
        p.wait_for_start(Duration::from_secs(5))
            .await
            .expect("starts");
    }
    // Player 3 drops a little into the match and comes back with its resume token.
    let mut dropper = players.remove(3);
    let back = tokio::spawn(async move {
        let mut keys = random_keys(4, false);
        dropper
            .play_for(&mut keys, Duration::from_millis(1200))
            .await;
        dropper.drop_connection();
        tokio::time::sleep(Duration::from_millis(400)).await;
        dropper.reconnect().await.expect("reconnects");
        dropper
            .play(&mut keys, MATCH_TIMEOUT)
            .await
            .expect("plays to the end");
        dropper
    });
    let watching = tokio::spawn(async move {
        let mut idle = |_: &Battle, _: usize| SeatInput::NONE;
        eve.play(&mut idle, MATCH_TIMEOUT)
            .await
            .expect("eve sees the end");
        eve
    });
    let mut players = play_all(players, false).await;
    players.insert(3, back.await.expect("task"));
    let eve = watching.await.expect("task");

    let outcome = players[0].outcome().cloned().expect("a result");
    assert_eq!(outcome.reason, EndReason::TopOut);
    assert_eq!(outcome.placements.len(), 8);
    assert_eq!(outcome.placements.iter().filter(|&&p| p == 1).count(), 1);
    let (server_hash, replay) = verified_replay(&mut players[0]).await;
    assert_eq!(replay.names.len(), 8);
    for p in &players {
        assert_eq!(p.outcome(), Some(&outcome));
        assert_eq!(final_hash(p), server_hash, "{:?}", p.names());
        assert!(p.session_errors().is_empty());
        assert_eq!(p.session().map(|s| s.stats().desyncs), Some(0));
    }
    assert_eq!(eve.outcome(), Some(&outcome));
    assert_eq!(final_hash(&eve), server_hash, "the spectator");
    assert!(
        players[3]
            .session()
            .is_some_and(|s| s.stats().rebuilds >= 1),
        "rebuilt from the log"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_team_match_of_two_against_two_is_won_by_a_team() {
    let server = sevenbag_tests::start_server(match_config(Duration::from_millis(300))).await;
    let url = server.url();
    let mut o = options(4);
    o.battle.teams = Some([0, 1, 0, 1, 0, 0, 0, 0]);
    let (mut players, _) = seated(&url, o, 4).await;
    all_ready(&mut players);
    let mut players = play_all(players, false).await;
    let outcome = players[0].outcome().cloned().expect("a result");
    let team = outcome.winner.expect("a team won");
    assert!(team < 2);
    // The seats left standing (placed first) are of the winning team; a teammate knocked out
    // earlier keeps the place it went out in.
    let first: Vec<usize> = (0..4).filter(|&s| outcome.placements[s] == 1).collect();
    assert!(!first.is_empty(), "{:?}", outcome.placements);
    assert!(
        first.iter().all(|&s| (s % 2) as u8 == team),
        "{:?}",
        outcome.placements
    );
    let (server_hash, replay) = verified_replay(&mut players[1]).await;
    assert_eq!(replay.header.options.teams, o.battle.teams);
    for p in &players {
        assert_eq!(final_hash(p), server_hash);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_players_with_manual_targets_agree_with_the_server() {
    let server = sevenbag_tests::start_server(match_config(Duration::from_millis(300))).await;
    let url = server.url();
    let mut o = options(3);
    o.battle.targeting = Targeting::Manual;
    let (mut players, _) = seated(&url, o, 3).await;
    all_ready(&mut players);
    let mut players = play_all(players, true).await;
    let (server_hash, replay) = verified_replay(&mut players[2]).await;
    assert!(
        replay.inputs.iter().all(|i| !i.targets.is_empty()),
        "every seat chose targets, and they travelled"
    );
    for p in &players {
        assert_eq!(final_hash(p), server_hash);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_clients_in_a_big_room_are_cut_with_a_reason_and_the_rest_play_on() {
    let server = sevenbag_tests::start_server(match_config(Duration::from_millis(300))).await;
    let url = server.url();
    let (mut players, code) = seated(&url, options(6), 6).await;
    let mut peeper = connect(&url, "peeper").await;
    peeper
        .join(&code, JoinRole::Spectator)
        .await
        .expect("watch");
    all_ready(&mut players);
    for p in players.iter_mut() {
        p.wait_for_start(Duration::from_secs(5))
            .await
            .expect("starts");
    }
    // Seat 5 names itself as its target; seat 4 floods; the spectator sends inputs.
    let mut liar = players.pop().expect("seat 5");
    let mut flooder = players.pop().expect("seat 4");
    liar.send(ClientMessage::BattleInputs {
        changes: vec![],
        targets: vec![TargetChange {
            frame: 0,
            target: Some(5),
        }],
        confirmed: 1,
    })
    .expect("send");
    for nonce in 0..3000 {
        let _ = flooder.send(ClientMessage::Pong { nonce });
    }
    peeper
        .send(ClientMessage::BattleInputs {
            changes: vec![],
            targets: vec![],
            confirmed: 1,
        })
        .expect("send");
    let cut = Duration::from_secs(10);
    for (who, client, code, says) in [
        ("liar", &mut liar, ErrorCode::BadInput, "target"),
        ("flooder", &mut flooder, ErrorCode::RateLimited, ""),
        ("peeper", &mut peeper, ErrorCode::BadInput, "spectators"),
    ] {
        client
            .wait_disconnected(cut)
            .await
            .unwrap_or_else(|e| panic!("{who} is cut: {e}"));
        let error = client
            .errors()
            .last()
            .cloned()
            .unwrap_or_else(|| panic!("{who} hears why"));
        assert_eq!(error.code, code, "{who}: {}", error.message);
        assert!(
            error.fatal && error.message.contains(says),
            "{who}: {}",
            error.message
        );
    }
    // The four others play the match to its end; the cut seats play on without keys.
    let mut players = play_all(players, false).await;
    let (server_hash, replay) = verified_replay(&mut players[0]).await;
    assert_eq!(replay.names.len(), 6);
    for p in &players {
        assert_eq!(final_hash(p), server_hash);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_of_several_seats_survives_a_server_restart_through_its_room_log() {
    plays_on_across_a_restart(3, 20).await;
}
