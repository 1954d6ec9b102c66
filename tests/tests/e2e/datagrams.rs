//! End-to-end on the datagram path: headless players open WebTransport sessions to the real
//! server (the same port number, over UDP) and send their inputs as datagrams.
//! - Directly: the match ends exactly as on the WebSocket (results, hashes, the server's
//!   replay holds every input), spectators watch over the WebSocket as before.
//! - Through loopback proxies that delay both paths and really drop datagrams (10% in bursts):
//!   no input is lost, no desync.
//! - Where UDP is blocked: the clients stay on the WebSocket, having given up within 2 s.
//! - When the datagram path dies in the middle of a match: the clients fall back to the
//!   WebSocket by themselves and the match finishes.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use sevenbag_netplay::delay_proxy::{Loss, Proxy, ProxyConfig};
use sevenbag_netplay::{DatagramStatus, HeadlessClient, TransportPath};
use sevenbag_protocol::replay_file::open_two_seats;
use sevenbag_protocol::{EndReason, InputLog, Replay, RoomOptions};
use sevenbag_tests::players::{finished, match_config, play, room};

const MATCH_TIMEOUT: Duration = Duration::from_secs(60);

fn first_to(n: u8) -> RoomOptions {
    RoomOptions {
        first_to: n,
        ..RoomOptions::default()
    }
}

/// Waits until `client` has settled on a path (open, or given up), at most `limit`.
async fn settled(client: &mut HeadlessClient, limit: Duration) -> DatagramStatus {
    let _ = client
        .wait_for(limit, |c| {
            matches!(
                c.datagram_status(),
                DatagramStatus::Open | DatagramStatus::Failed
            )
        })
        .await;
    client.datagram_status()
}

/// The checks every finished match passes, whatever carried it: the same result, rounds and
/// hashes everywhere, no desync or refused input, and the server's replay holds every input
/// each player made up to the end of the match.
async fn same_everywhere(clients: &mut [HeadlessClient]) -> Replay {
    let result = clients[0].match_result().cloned().expect("result");
    assert_eq!(result.reason, EndReason::TopOut);
    let hashes: HashMap<u32, u64> = clients[0].hashes().iter().copied().collect();
    assert!(hashes.len() >= 2, "{} hashes", hashes.len());
    for c in clients.iter() {
        assert_eq!(c.match_result(), Some(&result));
        assert!(c.desyncs().is_empty(), "desync: {:?}", c.desyncs());
        assert!(c.session_errors().is_empty(), "{:?}", c.session_errors());
        assert!(c.errors().is_empty(), "{:?}", c.errors());
        assert_eq!(c.round_results(), clients[0].round_results());
        for (frame, hash) in c.hashes() {
            if let Some(h) = hashes.get(frame) {
                assert_eq!(h, hash, "frame {frame}");
            }
        }
    }
    let id = result.replay.clone().expect("a replay");
    let bytes = clients[0].fetch_replay(&id).await.expect("replay bytes");
    let replay = open_two_seats(&bytes).expect("replay decodes");
    for c in clients.iter().filter(|c| c.seat().is_some()) {
        let seat = c.seat().expect("seated");
        let ours = c.session().expect("session").input_log(seat);
        let theirs = &replay.inputs[seat.index()];
        let server = InputLog::from_changes(&theirs.changes, theirs.confirmed).expect("log");
        assert!(
            server.confirmed() <= ours.confirmed(),
            "{seat:?}: the server holds frames the player never made"
        );
        for f in 0..server.confirmed() {
            assert_eq!(server.get(f), ours.get(f), "{seat:?} frame {f}");
        }
    }
    replay
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_over_datagrams_ends_as_on_the_websocket() {
    let server = sevenbag_tests::start_server(match_config(Duration::from_millis(300))).await;
    assert!(server.datagram_addr().is_some(), "the datagram path runs");
    let (mut alice, mut bob, eve, _) = room(&server.url(), first_to(2), true).await;
    for c in [&mut alice, &mut bob] {
        assert_eq!(
            settled(c, Duration::from_secs(3)).await,
            DatagramStatus::Open
        );
        assert_eq!(c.path(), TransportPath::Datagrams);
    }
    alice.ready().expect("ready");
    bob.ready().expect("ready");
    let mut clients = finished(vec![
        play(alice, Some(31), (4, 12), MATCH_TIMEOUT),
        play(bob, Some(32), (4, 12), MATCH_TIMEOUT),
        play(eve.expect("spectator"), None, (4, 12), MATCH_TIMEOUT),
    ])
    .await;
    same_everywhere(&mut clients).await;
    for c in &clients[..2] {
        let net = c.stats().net;
        assert_eq!(net.path, TransportPath::Datagrams);
        assert!(
            net.datagrams_out > 50 && net.datagrams_in > 50,
            "inputs went as datagrams: {net:?}"
        );
        assert!(net.udp_bytes_out > 0 && net.udp_bytes_in > 0, "{net:?}");
        // Inputs went as datagrams: the WebSocket carried none of ours.
        assert_eq!(
            net.kinds_out[sevenbag_netplay::MessageKind::Inputs as usize],
            0,
            "{net:?}"
        );
    }
    // Between matches the path stays up (clock probes keep it alive; nothing of the match is
    // repeated or awaited any more).
    for c in clients.iter_mut().take(2) {
        let _ = c.wait_for(Duration::from_secs(3), |_| false).await;
        assert_eq!(c.path(), TransportPath::Datagrams, "{:?}", c.stats());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn datagrams_dropped_for_real_lose_no_input() {
    let server = sevenbag_tests::start_server(match_config(Duration::from_millis(600))).await;
    let latency = ProxyConfig::latency(Duration::from_millis(30), Duration::from_millis(5), 7);
    let (proxy, udp) = Proxy::start_pair(server.addr(), latency, latency)
        .await
        .expect("proxies");
    let (mut alice, mut bob, _, _) = room(&proxy.url(), first_to(2), false).await;
    for c in [&mut alice, &mut bob] {
        assert_eq!(
            settled(c, Duration::from_secs(5)).await,
            DatagramStatus::Open
        );
        c.wait_for(Duration::from_secs(5), |c| c.stats().ping.is_some())
            .await
            .expect("a pong");
    }
    // Loss from here on (a handshake under 10% loss may take longer than the 2 s a client
    // gives it, and is not what this checks).
    proxy.set_loss(Loss::bursts(0.02, 2));
    udp.set_loss(Loss::bursts(0.10, 3));
    alice.ready().expect("ready");
    bob.ready().expect("ready");
    let mut clients = finished(vec![
        play(alice, Some(41), (4, 12), MATCH_TIMEOUT),
        play(bob, Some(42), (4, 12), MATCH_TIMEOUT),
    ])
    .await;
    same_everywhere(&mut clients).await;
    let (relayed, dropped) = udp.counts();
    assert!(
        dropped * 30 > relayed,
        "the proxy dropped datagrams: {dropped} of {}",
        relayed + dropped
    );
    for c in &clients {
        assert_eq!(c.path(), TransportPath::Datagrams, "{:?}", c.stats());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn where_udp_is_blocked_the_clients_stay_on_the_websocket() {
    let server = sevenbag_tests::start_server(match_config(Duration::from_millis(300))).await;
    // A TCP proxy whose UDP twin drops everything: the WebSocket works, UDP does not.
    let (proxy, udp) = Proxy::start_pair(
        server.addr(),
        ProxyConfig::latency(Duration::ZERO, Duration::ZERO, 1),
        ProxyConfig::latency(Duration::ZERO, Duration::ZERO, 1),
    )
    .await
    .expect("proxies");
    udp.set_blocked(true);
    let started = Instant::now();
    let (mut alice, mut bob, _, _) = room(&proxy.url(), first_to(2), false).await;
    for c in [&mut alice, &mut bob] {
        assert_eq!(
            settled(c, Duration::from_secs(4)).await,
            DatagramStatus::Failed
        );
    }
    assert!(
        started.elapsed() < Duration::from_millis(2500),
        "both gave the datagram path up within 2 s of connecting ({:?})",
        started.elapsed()
    );
    alice.ready().expect("ready");
    bob.ready().expect("ready");
    let mut clients = finished(vec![
        play(alice, Some(51), (4, 12), MATCH_TIMEOUT),
        play(bob, Some(52), (4, 12), MATCH_TIMEOUT),
    ])
    .await;
    same_everywhere(&mut clients).await;
    for c in &clients {
        assert_eq!(c.path(), TransportPath::WebSocket);
        assert_eq!(c.stats().net.datagrams_in, 0);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_datagram_path_that_dies_mid_match_falls_back_by_itself() {
    let server = sevenbag_tests::start_server(match_config(Duration::from_millis(300))).await;
    let direct = ProxyConfig::latency(Duration::from_millis(5), Duration::ZERO, 3);
    let (proxy, udp) = Proxy::start_pair(server.addr(), direct, direct)
        .await
        .expect("proxies");
    let (mut alice, mut bob, _, _) = room(&proxy.url(), first_to(3), false).await;
    for c in [&mut alice, &mut bob] {
        assert_eq!(
            settled(c, Duration::from_secs(3)).await,
            DatagramStatus::Open
        );
    }
    alice.ready().expect("ready");
    bob.ready().expect("ready");
    let tasks = vec![
        play(alice, Some(61), (6, 14), MATCH_TIMEOUT),
        play(bob, Some(62), (6, 14), MATCH_TIMEOUT),
    ];
    // Two seconds in, UDP stops passing, both ways, for good.
    tokio::time::sleep(Duration::from_secs(2)).await;
    udp.set_blocked(true);
    let mut clients = finished(tasks).await;
    same_everywhere(&mut clients).await;
    for c in clients.iter_mut() {
        // A match that ended less than 2 s after UDP stopped may leave the last check to the
        // clock probes between matches: 2 s without an answer at most.
        let _ = c
            .wait_for(Duration::from_secs(3), |c| {
                c.path() == TransportPath::WebSocket
            })
            .await;
        assert_eq!(c.path(), TransportPath::WebSocket, "{:?}", c.stats());
        // Failed, or already opening a fresh session (a retry after the fallback, which UDP
        // still blocked cannot open): never open.
        let status = c.datagram_status();
        assert!(
            matches!(status, DatagramStatus::Failed | DatagramStatus::Opening),
            "{status:?}"
        );
        assert!(c.stats().net.datagrams_in > 0, "datagrams were used first");
    }
}
