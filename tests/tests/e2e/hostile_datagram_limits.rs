//! What one connection and one address may hold of the datagram path (docs/NETPLAY.md, "Bad
//! input"): one session per connection (asking again replaces it), a datagram budget the
//! connection keeps across its sessions, a number of sessions per address, and a datagram budget
//! an address's sessions share. A client over a budget is cut with a reason; others carry on.
//!
//! A second address is 127.0.0.2 (all of 127.0.0.0/8 is loopback on Linux); where it cannot be
//! bound, the tests needing it skip with a line saying so.

use std::net::SocketAddr;
use std::time::Duration;

use anyhow::{Context, ensure};
use sevenbag_protocol::datagram::{Downlink, SESSION_PATH, Uplink, token_hex};
use sevenbag_protocol::{ClientMessage, ErrorCode, ServerMessage};
use sevenbag_server::Limits;
use sevenbag_tests::datagram_session::{OPEN_TIMEOUT, open, with_session};
use sevenbag_tests::{RawClient, TestServer, fast_config, http, start_server};
use wtransport::error::ConnectionError;
use wtransport::tls::Sha256Digest;
use wtransport::{ClientConfig, Connection, Endpoint};

const LIMIT: Duration = Duration::from_secs(15);

/// A fast test server ([`fast_config`]) with its limits changed by `change`.
async fn server(change: impl FnOnce(&mut Limits)) -> TestServer {
    let mut config = fast_config();
    change(&mut config.limits);
    start_server(config).await
}

/// A datagram session opened from `local` (`127.0.0.2:0`), with a ticket of `client`.
async fn open_from(
    local: &str,
    addr: SocketAddr,
    client: &mut RawClient,
) -> anyhow::Result<Connection> {
    let (token, hash) = client.datagram_ticket(OPEN_TIMEOUT).await?;
    let hash = hash.context("a self-signed server announces its hash")?;
    let config = ClientConfig::builder()
        .with_bind_address(local.parse()?)
        .with_server_certificate_hashes([Sha256Digest::new(hash)])
        .build();
    let endpoint = Endpoint::client(config)?;
    let url = format!(
        "https://127.0.0.1:{}{SESSION_PATH}{}",
        addr.port(),
        token_hex(&token)
    );
    Ok(tokio::time::timeout(OPEN_TIMEOUT, endpoint.connect(url))
        .await
        .context("connect timed out")??)
}

/// Whether this machine can send from 127.0.0.2 (the second address of these tests).
fn second_address_usable() -> bool {
    let usable = std::net::UdpSocket::bind("127.0.0.2:0").is_ok();
    if !usable {
        eprintln!("SKIPPED: cannot bind 127.0.0.2, the second loopback address these tests use");
    }
    usable
}

/// Sends datagrams `seqs` on `session` (stops early if the session is gone).
fn send(session: &Connection, seqs: std::ops::RangeInclusive<u32>) -> anyhow::Result<()> {
    for seq in seqs {
        let bytes = Uplink {
            seq,
            ..Uplink::default()
        }
        .encode()?;
        if session.send_datagram(bytes).is_err() {
            break;
        }
    }
    Ok(())
}

/// Sends a clock probe as datagram `seq` and waits for its answer: the session is served.
async fn answered(session: &Connection, seq: u32) -> anyhow::Result<()> {
    let nonce = 7000 + u64::from(seq);
    let bytes = Uplink {
        seq,
        ping: Some(nonce),
        ..Uplink::default()
    }
    .encode()?;
    session.send_datagram(bytes)?;
    tokio::time::timeout(LIMIT, async {
        loop {
            let d = session.receive_datagram().await?;
            let down = Downlink::decode(&d.payload())?;
            if down.pong.is_some_and(|p| p.nonce == nonce) {
                return anyhow::Ok(());
            }
        }
    })
    .await
    .context("no answer to a clock probe")?
}

/// The WebSocket answers a `Ping`: the connection was not cut.
async fn still_connected(client: &mut RawClient) -> anyhow::Result<()> {
    client.send(&ClientMessage::Ping { nonce: 1 }).await?;
    client
        .recv_until(LIMIT, |m| {
            matches!(m, ServerMessage::Pong { .. }).then_some(())
        })
        .await
}

async fn refused(addr: SocketAddr, reason: &str) -> anyhow::Result<f64> {
    let (_, body) = http::get(addr, "/metrics").await?;
    let text = String::from_utf8_lossy(&body);
    let start = format!("sevenbag_datagram_sessions_refused_total{{reason=\"{reason}\"}}");
    let line = text
        .lines()
        .find(|l| l.starts_with(&start))
        .with_context(|| format!("no metric {start}"))?;
    Ok(line.rsplit(' ').next().unwrap_or("0").parse()?)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn asking_for_datagrams_again_replaces_the_open_session() -> anyhow::Result<()> {
    let server = server(|_| {}).await;
    let addr = server.addr();
    let (mut client, mut session) = with_session(addr, "repeater").await?;
    answered(&session, 1).await?;
    for round in 0..5 {
        client.send(&ClientMessage::Datagrams { on: true }).await?;
        let (token, hash) = client.datagram_ticket(OPEN_TIMEOUT).await?;
        let next = open(addr, &token, hash).await?;
        let ended = tokio::time::timeout(LIMIT, session.closed())
            .await
            .with_context(|| format!("round {round}: the replaced session stayed open"))?;
        // Closed by the server, not left to time out.
        ensure!(
            matches!(ended, ConnectionError::ApplicationClosed(_)),
            "round {round}: the replaced session ended by {ended}"
        );
        answered(&next, 2).await?;
        session = next;
    }
    still_connected(&mut client).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_keeps_its_datagram_budget_across_its_sessions() -> anyhow::Result<()> {
    // Thirty in a burst, then one a second: a fresh session does not start a fresh budget.
    let server = server(|l| {
        l.datagrams_per_second = 1;
        l.datagram_burst = 30;
    })
    .await;
    let addr = server.addr();
    let (mut client, first) = with_session(addr, "resetter").await?;
    send(&first, 1..=20)?;
    answered(&first, 21).await?;
    client.send(&ClientMessage::Datagrams { on: true }).await?;
    let (token, hash) = client.datagram_ticket(OPEN_TIMEOUT).await?;
    let second = open(addr, &token, hash).await?;
    send(&second, 1..=20)?;
    let (code, message, close) = client.expect_cut(LIMIT).await?;
    ensure!(code == ErrorCode::RateLimited, "got {code:?}: {message}");
    ensure!(message.contains("datagram flood"), "{message}");
    ensure!(close.is_some_and(|c| !c.reason.is_empty()), "a reason");
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_address_holds_few_datagram_sessions_and_other_addresses_still_open_theirs()
-> anyhow::Result<()> {
    if !second_address_usable() {
        return Ok(());
    }
    let server = server(|l| {
        l.datagram_sessions_per_address = 2;
    })
    .await;
    let addr = server.addr();
    let (_a, _one) = with_session(addr, "one").await?;
    let (_b, _two) = with_session(addr, "two").await?;
    let mut third = RawClient::hello(addr, "three").await?;
    ensure!(
        open_from("127.0.0.1:0", addr, &mut third).await.is_err(),
        "a third session from one address opened"
    );
    ensure!(refused(addr, "address_full").await? >= 1.0, "counted");
    // The refused client still plays over its WebSocket.
    still_connected(&mut third).await?;
    let mut elsewhere = RawClient::hello(addr, "elsewhere").await?;
    let session = open_from("127.0.0.2:0", addr, &mut elsewhere).await?;
    answered(&session, 1).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_address_over_its_datagram_budget_is_cut_while_another_address_carries_on()
-> anyhow::Result<()> {
    if !second_address_usable() {
        return Ok(());
    }
    // Each connection may send 1000 in a burst; an address 50 between all its sessions.
    let server = server(|l| {
        l.datagrams_per_second = 1000;
        l.datagram_burst = 1000;
        l.datagrams_per_address_per_second = 1;
        l.datagrams_per_address_burst = 50;
    })
    .await;
    let addr = server.addr();
    let (mut a, first) = with_session(addr, "first").await?;
    send(&first, 1..=35)?;
    answered(&first, 36).await?;
    let mut b = RawClient::hello(addr, "second").await?;
    let second = open_from("127.0.0.1:0", addr, &mut b).await?;
    send(&second, 1..=35)?;
    let (code, message, _) = b.expect_cut(LIMIT).await?;
    ensure!(code == ErrorCode::RateLimited, "got {code:?}: {message}");
    ensure!(message.contains("your address"), "{message}");
    // Another address has a budget of its own, and the first connection was not cut.
    let mut c = RawClient::hello(addr, "elsewhere").await?;
    let third = open_from("127.0.0.2:0", addr, &mut c).await?;
    send(&third, 1..=35)?;
    answered(&third, 36).await?;
    still_connected(&mut c).await?;
    still_connected(&mut a).await
}
