//! Hostile datagram senders: each is refused, dropped and counted, or cut with a clear reason,
//! while a match beside them, played over datagrams by two headless players, finishes normally.
//!
//! Cases: a forged ticket, a ticket used twice, junk on the UDP port (nothing answered: no
//! amplification), malformed datagrams (dropped, counted, then the connection cut), repeated
//! sequence numbers (dropped, counted), an oversized datagram (dropped, counted), a flood (cut
//! with `RateLimited` and a reason), and a spectator sending inputs as datagrams (cut with
//! `BadInput`).

use std::net::SocketAddr;
use std::time::Duration;

use anyhow::{Context, ensure};
use sevenbag_netplay::{DatagramStatus, TransportPath};
use sevenbag_protocol::datagram::{InputWindow, MAX_DATAGRAM_BYTES, Uplink};
use sevenbag_protocol::{ErrorCode, JoinRole, RoomOptions};
use sevenbag_server::{Config, Limits};
use sevenbag_tests::datagram_session::{open, routed, with_session};
use sevenbag_tests::players::{finished, match_config, play, room};
use sevenbag_tests::{RawClient, http};

const CASE_TIMEOUT: Duration = Duration::from_secs(15);

fn config() -> Config {
    let base = match_config(Duration::from_millis(300));
    Config {
        limits: Limits {
            // A player sends about 30 a second; a flood of 500 at once is far over this.
            datagrams_per_second: 120,
            datagram_burst: 240,
            ..base.limits
        },
        ..base
    }
}

async fn metric(addr: SocketAddr, line_start: &str) -> anyhow::Result<f64> {
    let (_, body) = http::get(addr, "/metrics").await?;
    let text = String::from_utf8_lossy(&body);
    let line = text
        .lines()
        .find(|l| l.starts_with(line_start))
        .with_context(|| format!("no metric {line_start}"))?;
    Ok(line.rsplit(' ').next().unwrap_or("0").parse()?)
}

async fn dropped(addr: SocketAddr, reason: &str) -> anyhow::Result<f64> {
    metric(
        addr,
        &format!("sevenbag_datagrams_dropped_total{{reason=\"{reason}\"}}"),
    )
    .await
}

/// Waits until `reason`'s drop count is at least `n` over `base`: the server has handled the
/// datagrams that a case sent.
async fn dropped_since(addr: SocketAddr, reason: &str, base: f64, n: f64) -> anyhow::Result<()> {
    let deadline = tokio::time::Instant::now() + CASE_TIMEOUT;
    loop {
        let now = dropped(addr, reason).await?;
        if now - base >= n {
            return Ok(());
        }
        ensure!(
            tokio::time::Instant::now() < deadline,
            "{reason}: {} dropped, not {n}, within {CASE_TIMEOUT:?}",
            now - base
        );
        // The next look at /metrics; the outcome, not this pause, ends the wait.
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

async fn forged_ticket(addr: SocketAddr) -> anyhow::Result<()> {
    let mut client = RawClient::hello(addr, "forger").await?;
    let (_, hash) = client.datagram_ticket(CASE_TIMEOUT).await?;
    ensure!(
        open(addr, &[0x42; 16], hash).await.is_err(),
        "a forged ticket opened a session"
    );
    let refused = metric(
        addr,
        "sevenbag_datagram_sessions_refused_total{reason=\"bad_token\"}",
    )
    .await?;
    ensure!(refused >= 1.0, "refusal counted: {refused}");
    Ok(())
}

async fn ticket_used_twice(addr: SocketAddr) -> anyhow::Result<()> {
    let mut client = RawClient::hello(addr, "twice").await?;
    let (token, hash) = client.datagram_ticket(CASE_TIMEOUT).await?;
    let _first = open(addr, &token, hash).await?;
    ensure!(
        open(addr, &token, hash).await.is_err(),
        "a ticket opened a second session"
    );
    Ok(())
}

async fn junk_gets_no_answer(addr: SocketAddr) -> anyhow::Result<()> {
    let socket = tokio::net::UdpSocket::bind("127.0.0.1:0").await?;
    socket.connect(addr).await?;
    for junk in [
        vec![0u8; 1200],
        vec![0xc3; 1200],
        b"GET / HTTP/1.1\r\n\r\n".to_vec(),
    ] {
        socket.send(&junk).await?;
    }
    let mut buf = [0u8; 2048];
    let answer = tokio::time::timeout(Duration::from_millis(500), socket.recv(&mut buf)).await;
    ensure!(
        !matches!(answer, Ok(Ok(n)) if n > 0),
        "junk on the UDP port was answered"
    );
    Ok(())
}

async fn malformed(addr: SocketAddr) -> anyhow::Result<()> {
    let before = dropped(addr, "malformed").await?;
    let (mut client, session) = with_session(addr, "garbler").await?;
    for i in 0..30u8 {
        // The server closes the session once it has had enough.
        if session
            .send_datagram(vec![0xff, i, 0xfe, 0xed, 0xff, 0xff])
            .is_err()
        {
            break;
        }
    }
    let (code, message, close) = client.expect_cut(CASE_TIMEOUT).await?;
    ensure!(code == ErrorCode::BadMessage, "malformed: got {code:?}");
    ensure!(message.contains("malformed datagrams"), "{message}");
    ensure!(close.is_some_and(|c| !c.reason.is_empty()), "a reason");
    let after = dropped(addr, "malformed").await?;
    ensure!(after - before >= 21.0, "counted {before} -> {after}");
    Ok(())
}

async fn replayed_and_oversized(addr: SocketAddr) -> anyhow::Result<()> {
    let (replayed0, large0) = (
        dropped(addr, "replayed").await?,
        dropped(addr, "too_large").await?,
    );
    let (mut client, session) = with_session(addr, "repeater").await?;
    let up = Uplink {
        seq: 5,
        ..Uplink::default()
    };
    for seq in [5, 5, 4, 1] {
        let bytes = Uplink { seq, ..up.clone() }.encode()?;
        session.send_datagram(bytes)?;
    }
    // QUIC carries datagrams over the protocol's limit (else this case could not be made, and
    // the limit would be the transport's own).
    let max = session.max_datagram_size().unwrap_or(0);
    ensure!(
        max > MAX_DATAGRAM_BYTES,
        "the session carries at most {max} bytes: no datagram over the {MAX_DATAGRAM_BYTES}-byte \
         limit can be sent"
    );
    session.send_datagram(vec![0u8; MAX_DATAGRAM_BYTES + 1])?;
    dropped_since(addr, "replayed", replayed0, 3.0)
        .await
        .context("three repeats dropped")?;
    dropped_since(addr, "too_large", large0, 1.0)
        .await
        .context("the oversized one dropped")?;
    // Dropped, not cut: the connection is still fine.
    client
        .send(&sevenbag_protocol::ClientMessage::Ping { nonce: 1 })
        .await?;
    let pong = client.recv_within(CASE_TIMEOUT).await?;
    ensure!(
        matches!(pong, sevenbag_protocol::ServerMessage::Pong { .. }),
        "{pong:?}"
    );
    Ok(())
}

async fn flood(addr: SocketAddr) -> anyhow::Result<()> {
    let (mut client, session) = with_session(addr, "flooder").await?;
    for seq in 1..=600u32 {
        let bytes = Uplink {
            seq,
            ..Uplink::default()
        }
        .encode()?;
        if session.send_datagram(bytes).is_err() {
            break;
        }
    }
    let (code, message, close) = client.expect_cut(CASE_TIMEOUT).await?;
    ensure!(code == ErrorCode::RateLimited, "flood: got {code:?}");
    ensure!(message.contains("datagram flood"), "{message}");
    ensure!(close.is_some_and(|c| !c.reason.is_empty()), "a reason");
    Ok(())
}

async fn spectator_inputs(addr: SocketAddr, code: String) -> anyhow::Result<()> {
    let (mut client, session) = with_session(addr, "peeker").await?;
    client
        .send(&sevenbag_protocol::ClientMessage::JoinRoom {
            code,
            role: JoinRole::Spectator,
        })
        .await?;
    // Joined, then the room (and maybe the match log): then it is a spectator of the room.
    client
        .recv_until(CASE_TIMEOUT, |m| {
            matches!(m, sevenbag_protocol::ServerMessage::Joined { .. }).then_some(())
        })
        .await?;
    routed(&mut client).await?;
    for seq in 1..=5 {
        let bytes = Uplink {
            seq,
            inputs: Some(InputWindow::new(0, &[], 10)),
            ..Uplink::default()
        }
        .encode()?;
        if session.send_datagram(bytes).is_err() {
            break;
        }
    }
    let (got, message, _) = client.expect_cut(CASE_TIMEOUT).await?;
    ensure!(
        got == ErrorCode::BadInput,
        "spectator: got {got:?}: {message}"
    );
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_datagram_senders_are_refused_dropped_or_cut_while_a_match_plays_on() {
    let server = sevenbag_tests::start_server(config()).await;
    let addr = server.addr();
    let options = RoomOptions {
        first_to: 2,
        ..RoomOptions::default()
    };
    let (mut alice, mut bob, _, code) = room(&server.url(), options, false).await;
    for c in [&mut alice, &mut bob] {
        c.wait_for(Duration::from_secs(3), |c| {
            c.datagram_status() == DatagramStatus::Open
        })
        .await
        .expect("on datagrams");
    }
    alice.ready().expect("ready");
    bob.ready().expect("ready");
    let honest = vec![
        play(alice, Some(71), (4, 12), Duration::from_secs(60)),
        play(bob, Some(72), (4, 12), Duration::from_secs(60)),
    ];
    let (a, b, c, d, e, f, g) = tokio::join!(
        forged_ticket(addr),
        ticket_used_twice(addr),
        junk_gets_no_answer(addr),
        malformed(addr),
        replayed_and_oversized(addr),
        flood(addr),
        spectator_inputs(addr, code),
    );
    for (case, result) in [
        ("forged ticket", a),
        ("ticket used twice", b),
        ("junk", c),
        ("malformed", d),
        ("replayed and oversized", e),
        ("flood", f),
        ("spectator inputs", g),
    ] {
        result.with_context(|| format!("case {case}")).unwrap();
    }
    let clients = finished(honest).await;
    for c in &clients {
        assert!(c.desyncs().is_empty(), "{:?}", c.desyncs());
        assert!(c.errors().is_empty(), "{:?}", c.errors());
        assert_eq!(c.path(), TransportPath::Datagrams);
    }
    assert_eq!(clients[0].match_result(), clients[1].match_result());
}
