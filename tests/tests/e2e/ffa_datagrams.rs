//! End-to-end: rooms of several seats on the datagram path. Headless battle clients open
//! WebTransport sessions by default and send their keys and targets as datagrams; the room
//! sends each one datagram per flush with every opponent's new inputs.
//! - Eight players through loopback proxies that delay both paths and really drop datagrams
//!   (in bursts): no input is lost, no desync, every client ends on the server's replay hash.
//! - Hostile datagram senders beside such a match: a player naming itself as its target in a
//!   datagram and a spectator sending inputs in a seat's name are cut with `BadInput`, a flood
//!   is cut with `RateLimited`; the players play on.
//! - State hashes ride the datagrams: no `BattleHash` goes over the WebSocket while the path is
//!   open, and a player lying about its hash in a datagram is answered `BattleDesyncBoards`
//!   and the match log, rebuilds, and ends on the replay's hash like everyone.

use std::time::Duration;

use anyhow::ensure;
use sevenbag_core::{Battle, Input, Seat, SeatInput};
use sevenbag_netplay::delay_proxy::{Loss, Proxy, ProxyConfig};
use sevenbag_netplay::{BattleClient, DatagramStatus, MessageKind, TransportPath};
use sevenbag_protocol::battle_datagram::{BattleUplink, window_from};
use sevenbag_protocol::{
    AnyReplay, BattleRoomOptions, ClientMessage, ErrorCode, JoinRole, ServerMessage, TargetChange,
    read_any, verify_battle,
};
use sevenbag_server::{Config, Limits};
use sevenbag_tests::datagram_session::{OPEN_TIMEOUT, routed, with_session};
use sevenbag_tests::players::match_config;

const MATCH_TIMEOUT: Duration = Duration::from_secs(90);

/// Hard drops every 10 to 25 frames, moves between, and now and then a new target.
fn keys(seed: u64) -> impl FnMut(&Battle, usize) -> SeatInput + Send {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move |n: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % n
    };
    let (mut wait, mut target) = (0u64, None);
    move |battle: &Battle, me: usize| {
        let n = battle.seats() as u64;
        if target.is_none() || next(120) == 0 {
            target = Seat::new((me + 1 + next(n - 1) as usize) % n as usize);
        }
        let keys = if wait == 0 {
            wait = 10 + next(16);
            Input::HARD_DROP
        } else {
            wait -= 1;
            [Input::LEFT, Input::RIGHT, Input::ROTATE_CW, Input::NONE][next(6).min(3) as usize]
        };
        SeatInput { keys, target }
    }
}

fn options(seats: u8) -> BattleRoomOptions {
    let mut o = BattleRoomOptions::ffa(seats);
    o.room.first_to = 1;
    o
}

/// `n` players seated in a new room at `url`, each on an open datagram path.
async fn seated_on_datagrams(url: &str, n: usize) -> (Vec<BattleClient>, String) {
    let mut players: Vec<BattleClient> = Vec::new();
    let mut code = String::new();
    for i in 0..n {
        let mut p = BattleClient::connect(url, &format!("p{i}"))
            .await
            .expect("connects");
        if i == 0 {
            code = p.create(options(n as u8)).await.expect("create");
        } else {
            let seat = p.join(&code, JoinRole::Player).await.expect("join");
            assert_eq!(seat, Some(i as u8));
        }
        players.push(p);
    }
    for p in players.iter_mut() {
        p.wait_for(Duration::from_secs(5), |c| {
            c.datagram_status() == DatagramStatus::Open
        })
        .await
        .expect("the datagram path opens");
    }
    (players, code)
}

/// Readies everyone and plays each to the end on its own task.
async fn play_all(mut players: Vec<BattleClient>) -> Vec<BattleClient> {
    for p in players.iter_mut() {
        p.ready().expect("ready");
    }
    let tasks: Vec<_> = (players.into_iter().enumerate())
        .map(|(i, mut p)| {
            tokio::spawn(async move {
                let mut keys = keys(i as u64 + 11);
                p.play(&mut keys, MATCH_TIMEOUT)
                    .await
                    .expect("plays to the end");
                p
            })
        })
        .collect();
    let mut out = Vec::new();
    for t in tasks {
        out.push(t.await.expect("task"));
    }
    out
}

/// Every player ends on the hash of the replay the server kept (re-simulated), with no desync
/// and no refused input, and sent its inputs and hashes as datagrams, none over the WebSocket.
async fn all_agree_with_the_replay(players: &mut [BattleClient]) {
    agree_with_the_replay(players, None).await;
}

/// As [`all_agree_with_the_replay`], but player `liar` (if any) had exactly one desync.
async fn agree_with_the_replay(players: &mut [BattleClient], liar: Option<usize>) {
    let outcome = players[0].outcome().cloned().expect("a result");
    let id = outcome.replay.clone().expect("a replay");
    let bytes = players[0].fetch_replay(&id).await.expect("replay bytes");
    let Ok(AnyReplay::Battle(replay)) = read_any(&bytes) else {
        panic!("a replay of format version 2");
    };
    let report = verify_battle(&replay).expect("the replay verifies");
    for (i, p) in players.iter().enumerate() {
        let session = p.session().expect("a match");
        assert_eq!(p.outcome(), Some(&outcome));
        assert!(session.is_over());
        assert_eq!(session.confirmed().state_hash(), report.final_hash);
        let desyncs = u32::from(liar == Some(i));
        assert_eq!(session.stats().desyncs, desyncs, "player {i}");
        assert!(p.session_errors().is_empty(), "{:?}", p.session_errors());
        let net = p.traffic();
        assert_eq!(p.path(), TransportPath::Datagrams, "{net:?}");
        assert!(net.datagrams_out > 30 && net.datagrams_in > 30, "{net:?}");
        // State hashes went as datagrams too.
        assert_eq!(net.kinds_out[MessageKind::StateHash as usize], 0, "{net:?}");
        // No relay of inputs over the WebSocket but a rare catch-up.
        let ws_inputs = net.kinds_in[MessageKind::Inputs as usize];
        assert!(
            ws_inputs * 10 < net.datagrams_in,
            "inputs came as datagrams: {net:?}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn eight_players_over_lossy_datagrams_lose_no_input_and_agree_with_the_replay() {
    let server = sevenbag_tests::start_server(match_config(Duration::from_millis(600))).await;
    let latency = ProxyConfig::latency(Duration::from_millis(20), Duration::from_millis(5), 9);
    let (proxy, udp) = Proxy::start_pair(server.addr(), latency, latency)
        .await
        .expect("proxies");
    let (players, _) = seated_on_datagrams(&proxy.url(), 8).await;
    // Loss from here on (the handshakes are not what this checks).
    udp.set_loss(Loss::bursts(0.05, 3));
    let mut players = play_all(players).await;
    all_agree_with_the_replay(&mut players).await;
    let (relayed, dropped) = udp.counts();
    assert!(
        dropped * 50 > relayed,
        "the proxy dropped datagrams: {dropped} of {}",
        relayed + dropped
    );
}

fn hostile_config() -> Config {
    let base = match_config(Duration::from_millis(300));
    Config {
        limits: Limits {
            // A player sends about 30 a second; a flood of 600 at once is far over this.
            datagrams_per_second: 120,
            datagram_burst: 240,
            ..base.limits
        },
        ..base
    }
}

/// A spectator of the room sends inputs as datagrams, in seat 0's name: cut with `BadInput`.
async fn spectator_in_a_seats_name(addr: std::net::SocketAddr, code: String) -> anyhow::Result<()> {
    let (mut client, session) = with_session(addr, "spoofer").await?;
    client
        .send(&ClientMessage::JoinRoom {
            code,
            role: JoinRole::Spectator,
        })
        .await?;
    client
        .recv_until(OPEN_TIMEOUT, |m| {
            matches!(m, ServerMessage::BattleJoined { .. }).then_some(())
        })
        .await?;
    routed(&mut client).await?;
    for seq in 1..=5 {
        let bytes = BattleUplink {
            seq,
            inputs: Some(window_from(0, 0, &[], &[], 10)),
            ..BattleUplink::default()
        }
        .encode()?;
        if session.send_datagram(bytes).is_err() {
            break;
        }
    }
    let (got, message, _) = client.expect_cut(OPEN_TIMEOUT).await?;
    ensure!(
        got == ErrorCode::BadInput,
        "spoofer: got {got:?}: {message}"
    );
    Ok(())
}

/// A spectator floods battle datagrams: cut with `RateLimited` and a reason.
async fn flood(addr: std::net::SocketAddr, code: String) -> anyhow::Result<()> {
    let (mut client, session) = with_session(addr, "flooder").await?;
    client
        .send(&ClientMessage::JoinRoom {
            code,
            role: JoinRole::Spectator,
        })
        .await?;
    for seq in 1..=600u32 {
        let bytes = BattleUplink {
            seq,
            acks: vec![seq, 0],
            ..BattleUplink::default()
        }
        .encode()?;
        if session.send_datagram(bytes).is_err() {
            break;
        }
    }
    let (code, message, _) = client.expect_cut(OPEN_TIMEOUT).await?;
    ensure!(code == ErrorCode::RateLimited, "flood: got {code:?}");
    ensure!(message.contains("datagram flood"), "{message}");
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_datagram_senders_in_a_big_room_are_cut_and_the_players_play_on() {
    let server = sevenbag_tests::start_server(hostile_config()).await;
    let addr = server.addr();
    let (mut players, code) = seated_on_datagrams(&server.url(), 4).await;
    let mut liar = players.pop().expect("seat 3");
    liar.ready().expect("ready");
    let match_task = tokio::spawn(play_all(players));
    liar.wait_for_start(Duration::from_secs(5))
        .await
        .expect("starts");
    // Until its datagram path is open its inputs would go on the WebSocket: wait for it.
    for _ in 0..50 {
        if liar.path() == TransportPath::Datagrams {
            break;
        }
        liar.idle_for(Duration::from_millis(100)).await;
    }
    assert_eq!(
        liar.path(),
        TransportPath::Datagrams,
        "the liar's path opens"
    );
    // Its own seat as its target, in a datagram.
    liar.send(ClientMessage::BattleInputs {
        changes: vec![],
        targets: vec![TargetChange {
            frame: 0,
            target: Some(3),
        }],
        confirmed: 1,
    })
    .expect("send");
    liar.wait_disconnected(Duration::from_secs(10))
        .await
        .expect("the liar is cut");
    let error = liar.errors().last().cloned().expect("the liar hears why");
    assert_eq!(error.code, ErrorCode::BadInput, "{}", error.message);
    assert!(error.message.contains("target"), "{}", error.message);
    // The lie left as a datagram. When the cut closes the datagram session before the
    // WebSocket, the client falls back and hands its unacknowledged inputs to the WebSocket
    // too, after the fact: an input message there is then the fallback's, not the lie's path.
    let net = liar.traffic();
    assert!(net.datagrams_out > 0, "sent as a datagram: {net:?}");
    assert!(
        net.kinds_out[MessageKind::Inputs as usize] == 0 || net.path == TransportPath::WebSocket,
        "inputs on the WebSocket only by the fallback: {net:?}"
    );
    let (spoofed, flooded) = tokio::join!(
        spectator_in_a_seats_name(addr, code.clone()),
        flood(addr, code)
    );
    spoofed.expect("the spoofer is cut");
    flooded.expect("the flooder is cut");
    let mut players = match_task.await.expect("the match task");
    all_agree_with_the_replay(&mut players).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hash_lie_in_a_datagram_is_answered_with_the_boards_and_the_log() {
    let server = sevenbag_tests::start_server(match_config(Duration::from_millis(600))).await;
    let (mut players, _) = seated_on_datagrams(&server.url(), 3).await;
    let mut liar = players.pop().expect("seat 2");
    liar.ready().expect("ready");
    let match_task = tokio::spawn(play_all(players));
    liar.wait_for_start(Duration::from_secs(5))
        .await
        .expect("starts");
    let mut keys = keys(2 + 11);
    liar.play_for(&mut keys, Duration::from_secs(2)).await;
    assert_eq!(
        liar.path(),
        TransportPath::Datagrams,
        "the liar's path is open"
    );
    liar.send(ClientMessage::BattleHash {
        frame: sevenbag_protocol::HASH_INTERVAL,
        hash: 0x5eed_1e55,
    })
    .expect("send");
    liar.play(&mut keys, MATCH_TIMEOUT)
        .await
        .expect("the liar plays to the end");
    assert!(liar.errors().is_empty(), "not cut: {:?}", liar.errors());
    let mut players = match_task.await.expect("the match task");
    players.push(liar);
    agree_with_the_replay(&mut players, Some(2)).await;
}
