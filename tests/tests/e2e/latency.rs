//! End-to-end under latency: every client of a room of two seats talks to the server through a
//! loopback proxy that adds 50–150 ms with jitter each way. Prediction then goes wrong often
//! (rollbacks happen and are counted), yet results and hashes stay identical and no desync is
//! reported.

use std::collections::HashMap;
use std::time::Duration;

use sevenbag_netplay::{BattleClient, RandomInputs};
use sevenbag_protocol::{EndReason, JoinRole};
use sevenbag_tests::ffa::{all_ready, connect, idle, options, seated};
use sevenbag_tests::players::match_config;
use sevenbag_tests::proxy::{Proxy, ProxyConfig};

const MATCH_TIMEOUT: Duration = Duration::from_secs(50);

fn hashes(c: &BattleClient) -> HashMap<u32, u64> {
    c.session()
        .map(|s| s.hashes().iter().copied().collect())
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn results_survive_50_to_150_ms_of_jittery_latency() {
    let server = sevenbag_tests::start_server(match_config(Duration::from_millis(600))).await;
    let proxy = Proxy::start(server.addr(), ProxyConfig::default())
        .await
        .expect("proxy");
    let mut room = options(2);
    room.room.first_to = 2;
    let (mut players, code) = seated(&proxy.url(), room, 2).await;
    let mut eve = connect(&proxy.url(), "eve").await;
    eve.join(&code, JoinRole::Spectator)
        .await
        .expect("eve watches");
    // A few pings so the pacers know the round trip before the match starts.
    for c in &mut players {
        c.wait_for(Duration::from_secs(5), |c| c.round_trip().is_some())
            .await
            .expect("a pong comes back");
    }
    all_ready(&mut players);
    let mut tasks: Vec<_> = players
        .into_iter()
        .enumerate()
        .map(|(i, mut p)| {
            tokio::spawn(async move {
                let mut keys = RandomInputs::new(21 + i as u64)
                    .with_drop_every(4, 12)
                    .for_battle();
                p.play(&mut keys, MATCH_TIMEOUT)
                    .await
                    .expect("plays to the end");
                p
            })
        })
        .collect();
    tasks.push(tokio::spawn(async move {
        eve.play(&mut idle(), MATCH_TIMEOUT)
            .await
            .expect("eve sees the end");
        eve
    }));
    let mut clients = Vec::new();
    for t in tasks {
        clients.push(t.await.expect("task"));
    }

    let result = clients[0].outcome().cloned().expect("result");
    assert_eq!(result.reason, EndReason::TopOut);
    let first = hashes(&clients[0]);
    assert!(first.len() >= 3, "{} hashes", first.len());
    for c in &clients {
        assert_eq!(c.outcome(), Some(&result));
        let stats = c.session().map(|s| s.stats()).unwrap_or_default();
        assert_eq!(stats.desyncs, 0, "desync under latency");
        assert!(c.session_errors().is_empty(), "{:?}", c.session_errors());
        assert!(c.errors().is_empty(), "{:?}", c.errors());
        assert_eq!(c.round_ends(), clients[0].round_ends());
        for (frame, hash) in hashes(c) {
            if let Some(h) = first.get(&frame) {
                assert_eq!(*h, hash, "frame {frame}");
            }
        }
    }
    // Rollbacks happened and were counted; the round trip was measured through the proxy.
    let players = &clients[..2];
    let rollbacks: u64 = players
        .iter()
        .map(|c| c.session().map_or(0, |s| s.stats().rollbacks))
        .sum();
    assert!(rollbacks > 0, "no rollback at 100-300 ms round trips");
    for c in players {
        let ping = c.round_trip().expect("ping measured");
        assert!(
            ping >= Duration::from_millis(90),
            "ping {ping:?} through the proxy"
        );
        // The window may widen at distance, but never past garbage travel: a correction never
        // reaches back to what already happened on a player's own board.
        let session = c.session().expect("session");
        let stats = session.stats();
        let window = session.options().window;
        assert!(stats.max_rollback_depth <= window, "{stats:?}");
        assert!(window <= u32::from(session.header().rules.garbage_travel));
        // The round trip (100-300 ms with jitter) needs input delay, chosen during the match.
        assert!(session.options().input_delay > 0, "{:?}", session.options());
        eprintln!("{:?}: {:?}, {:?}", c.seat(), session.options(), stats);
    }
}
