//! A slow game shows every verdict on its boards: two players that simulate only 8 times a
//! second (a loaded machine) with an input delay of 4 frames play three matches out, and each
//! time the server's `MatchOver` comes, each one's own boards go on to the end the server
//! decided and show its winner, whoever was behind the deciding frame (the end-to-end form of
//! `crates/netplay/tests/driver_end.rs`).

use std::time::Duration;

use sevenbag_core::Phase;
use sevenbag_netplay::{HeadlessClient, HeadlessConfig, RandomInputs, SessionOptions};
use sevenbag_protocol::{JoinRole, RoomOptions};
use sevenbag_tests::players::match_config;

const LIMIT: Duration = Duration::from_secs(60);
const MATCHES: u32 = 3;

async fn slow_player(url: &str, name: &str) -> HeadlessClient {
    let config = HeadlessConfig {
        tick_every: Some(Duration::from_millis(125)),
        session: SessionOptions {
            input_delay: 4,
            ..SessionOptions::default()
        },
        auto_input_delay: false,
        ..HeadlessConfig::new(name)
    };
    HeadlessClient::connect(url, config)
        .await
        .unwrap_or_else(|e| panic!("{name} connects: {e}"))
}

fn shown_winner(client: &HeadlessClient) -> Option<sevenbag_core::Seat> {
    match client.predicted().map(|m| m.phase()) {
        Some(Phase::MatchOver { winner }) => Some(winner),
        _ => None,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_players_boards_reach_the_servers_verdict() {
    let server = sevenbag_tests::start_server(match_config(Duration::from_millis(600))).await;
    let mut alice = slow_player(&server.url(), "alice").await;
    let options = RoomOptions {
        first_to: 1,
        ..RoomOptions::default()
    };
    let code = alice.create_room(options).await.expect("room");
    let mut bob = slow_player(&server.url(), "bob").await;
    bob.join_room(&code, JoinRole::Player).await.expect("join");
    let mut players = [alice, bob];
    // Three matches: which player's boards are behind the deciding frame varies.
    for n in 1..=MATCHES {
        for p in &mut players {
            p.ready().expect("ready");
        }
        let tasks = players.map(|mut client| {
            tokio::spawn(async move {
                let seed = u64::from(n) * 2 + client.seat().map_or(0, |s| s.index() as u64);
                let every = if seed % 2 == 0 { (4, 8) } else { (8, 14) };
                let mut keys = RandomInputs::new(seed).with_drop_every(every.0, every.1);
                let over = client
                    .run_until(&mut keys, LIMIT, |c| {
                        c.matches_started() == n && c.match_result().is_some()
                    })
                    .await;
                over.expect("the match ended");
                let winner = client.match_result().map(|r| r.winner);
                // The result card: the client keeps running at its slow pace, no keys held.
                let shown = client
                    .wait_for(Duration::from_secs(5), |c| shown_winner(c).is_some())
                    .await;
                assert!(
                    shown.is_ok() && shown_winner(&client) == winner,
                    "match {n}, {:?}: the server says {winner:?} won; the boards show {:?} at \
                     frame {:?} (confirmed {:?})",
                    client.seat(),
                    client.predicted().map(|m| m.phase()),
                    client.predicted().map(|m| m.frame().0),
                    client.confirmed().map(|m| m.frame().0),
                );
                client
            })
        });
        let [a, b] = tasks;
        players = [a.await.expect("player"), b.await.expect("player")];
    }
}
