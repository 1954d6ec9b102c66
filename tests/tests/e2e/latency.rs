//! End-to-end under latency: every client talks to the server through a loopback proxy that
//! adds 50–150 ms with jitter each way. Prediction then goes wrong often (rollbacks happen and
//! are counted), yet results and hashes stay identical and no desync is reported.

use std::collections::HashMap;
use std::time::Duration;

use sevenbag_protocol::{EndReason, RoomOptions};
use sevenbag_tests::players::{finished, match_config, play, room};
use sevenbag_tests::proxy::{Proxy, ProxyConfig};

const MATCH_TIMEOUT: Duration = Duration::from_secs(50);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn results_survive_50_to_150_ms_of_jittery_latency() {
    let server = sevenbag_tests::start_server(match_config(Duration::from_millis(600))).await;
    let proxy = Proxy::start(server.addr(), ProxyConfig::default())
        .await
        .expect("proxy");
    let options = RoomOptions {
        first_to: 2,
        ..RoomOptions::default()
    };
    let (mut alice, mut bob, eve, _) = room(&proxy.url(), options, true).await;
    // A few pings so the pacers know the round trip before the match starts.
    for c in [&mut alice, &mut bob] {
        c.wait_for(Duration::from_secs(5), |c| c.stats().ping.is_some())
            .await
            .expect("a pong comes back");
    }
    alice.ready().expect("ready");
    bob.ready().expect("ready");

    let clients = finished(vec![
        play(alice, Some(21), (4, 12), MATCH_TIMEOUT),
        play(bob, Some(22), (4, 12), MATCH_TIMEOUT),
        play(eve.expect("spectator"), None, (4, 12), MATCH_TIMEOUT),
    ])
    .await;

    let result = clients[0].match_result().cloned().expect("result");
    assert_eq!(result.reason, EndReason::TopOut);
    let rounds = clients[0].round_results().to_vec();
    let hashes: HashMap<u32, u64> = clients[0].hashes().iter().copied().collect();
    assert!(hashes.len() >= 3, "{} hashes", hashes.len());
    for c in &clients {
        assert_eq!(c.match_result(), Some(&result));
        assert!(
            c.desyncs().is_empty(),
            "desync under latency: {:?}",
            c.desyncs()
        );
        assert!(c.session_errors().is_empty(), "{:?}", c.session_errors());
        assert!(c.errors().is_empty(), "{:?}", c.errors());
        assert_eq!(c.round_results(), rounds.as_slice());
        assert_eq!(c.round_ends(), clients[0].round_ends());
        for (frame, hash) in c.hashes() {
            if let Some(h) = hashes.get(frame) {
                assert_eq!(h, hash, "frame {frame}");
            }
        }
    }
    // Rollbacks happened and were counted; the round trip was measured through the proxy.
    let players = &clients[..2];
    let rollbacks: u64 = players.iter().map(|c| c.stats().session.rollbacks).sum();
    assert!(rollbacks > 0, "no rollback at 100-300 ms round trips");
    for c in players {
        let stats = c.stats();
        let ping = stats.ping.expect("ping measured");
        assert!(
            ping >= Duration::from_millis(90),
            "ping {ping:?} through the proxy"
        );
        // The window may widen at distance, but never past garbage travel: a correction never
        // reaches back to what already happened on a player's own board.
        let session = c.session().expect("session");
        let window = session.options().window;
        assert!(stats.session.max_rollback_depth <= window, "{stats:?}");
        assert!(window <= u32::from(session.header().rules.garbage_travel));
        // The round trip (100-300 ms with jitter) needs input delay, chosen during the match.
        assert!(session.options().input_delay > 0, "{:?}", session.options());
        eprintln!(
            "{:?}: {:?}, {:?}",
            c.seat(),
            c.session().map(|s| s.options()),
            stats
        );
    }
}
