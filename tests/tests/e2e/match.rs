//! End-to-end: two headless players and a spectator play a first-to-2 match with random inputs
//! against a real server over loopback WebSockets; everyone (and the server's replay) ends every
//! round with the same state hash and the same winner. Also: quick match pairs two waiting
//! players into one room of two seats.

use std::collections::HashMap;
use std::time::Duration;

use sevenbag_netplay::BattleClient;
use sevenbag_protocol::replay_file::open_two_seats;
use sevenbag_protocol::{EndReason, RoomOptions};
use sevenbag_server::Config;
use sevenbag_tests::players::{finished, match_config, play, room};

/// Every wait in this test is bounded by this.
const MATCH_TIMEOUT: Duration = Duration::from_secs(45);

fn config() -> Config {
    match_config(Duration::from_millis(300))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_players_and_a_spectator_agree_on_every_round() {
    let server = sevenbag_tests::start_server(config()).await;
    let options = RoomOptions {
        first_to: 2,
        ..RoomOptions::default()
    };
    let (mut alice, mut bob, eve, _) = room(&server.url(), options, true).await;
    alice.ready().expect("ready");
    bob.ready().expect("ready");

    let clients = finished(vec![
        play(alice, Some(1), (2, 8), MATCH_TIMEOUT),
        play(bob, Some(2), (2, 8), MATCH_TIMEOUT),
        play(eve.expect("spectator"), None, (2, 8), MATCH_TIMEOUT),
    ])
    .await;

    let result = clients[0].match_result().cloned().expect("result");
    assert_eq!(result.reason, EndReason::TopOut);
    for c in &clients {
        assert_eq!(c.match_result(), Some(&result), "{}", c.names()[0]);
        assert!(c.desyncs().is_empty(), "desync: {:?}", c.desyncs());
        assert!(c.session_errors().is_empty(), "{:?}", c.session_errors());
        assert_eq!(c.names(), &["alice".to_string(), "bob".to_string()]);
    }

    // The server's rounds, as announced to each client, are the same everywhere...
    let rounds = clients[0].round_results().to_vec();
    assert!(
        rounds.len() >= 2,
        "first-to-2 takes at least 2 rounds: {rounds:?}"
    );
    assert_eq!(
        rounds.last().map(|r| r.wins.iter().max().copied()),
        Some(Some(2))
    );
    for c in &clients {
        assert_eq!(c.round_results(), rounds.as_slice());
        // ...and each client's own confirmed match ended the same rounds on the same frames,
        // with the same winner and one state hash for everyone.
        let ends = c.round_ends();
        assert_eq!(ends.len(), rounds.len());
        for (end, round) in ends.iter().zip(&rounds) {
            assert_eq!(
                (end.round, end.winner, end.wins, end.frame),
                (round.round, round.winner, round.wins, round.frame)
            );
        }
        assert_eq!(ends, clients[0].round_ends());
    }
    assert_eq!(
        result.winner,
        rounds.last().and_then(|r| r.winner).expect("a winner")
    );

    // Periodic hashes agree between the clients and with the replay the server wrote.
    let replay_id = result.replay.clone().expect("the server keeps a replay");
    let mut alice = clients.into_iter().next().expect("alice");
    let bytes = alice.fetch_replay(&replay_id).await.expect("replay");
    let replay = open_two_seats(&bytes).expect("replay decodes");
    let server: HashMap<u32, u64> = replay.hashes.iter().map(|h| (h.frame, h.hash)).collect();
    assert!(!server.is_empty());
    let mut checked = 0;
    for (frame, hash) in alice.hashes() {
        if let Some(s) = server.get(frame) {
            assert_eq!(s, hash, "frame {frame}");
            checked += 1;
        }
    }
    assert_eq!(checked, server.len(), "every server hash has a client hash");
    assert_eq!(replay.rounds.len(), rounds.len());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quick_match_seats_two_waiting_players_in_a_versus_room_and_starts_at_once() {
    let server = sevenbag_tests::start_server(config()).await;
    let url = server.url();
    let limit = Duration::from_secs(10);
    let mut first = BattleClient::connect(&url, "q1")
        .await
        .expect("q1 connects");
    let mut second = BattleClient::connect(&url, "q2")
        .await
        .expect("q2 connects");
    first
        .send(sevenbag_protocol::ClientMessage::QuickMatch)
        .expect("queue");
    let seat = second.quick_match(limit).await.expect("paired");
    first.wait_for_start(limit).await.expect("first starts");
    second.wait_for_start(limit).await.expect("second starts");
    // Both seated, one each (which is first depends on which request the server saw first).
    assert!(seat.is_some() && first.seat().is_some());
    assert_ne!(first.seat(), seat);
    assert_eq!(first.room_code(), second.room_code());
    assert_eq!(
        first.room().len(),
        2,
        "a quick match is a room of two seats"
    );
    let mut names = first.names().to_vec();
    names.sort();
    assert_eq!(names, ["q1".to_string(), "q2".to_string()]);
    assert_eq!(
        first.session().map(|s| *s.header()),
        second.session().map(|s| *s.header())
    );
}
