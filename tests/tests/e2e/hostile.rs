//! End-to-end test 5: hostile clients are each cut with a clear reason, while a match next to
//! them, played by two scripted clients, finishes normally and the server keeps serving.
//!
//! One server with small limits. The honest match and every hostile client run at the same
//! time; each hostile case asserts the `Error` code (and for some the text) and a Close frame
//! with a reason. Cases: garbage bytes (as a frame, and as raw TCP), an oversized frame, a text
//! frame, a wrong version, inputs from a spectator, a batch rewriting confirmed frames, frames
//! far in the future, a message flood, a client that never reads, a silent client, and one that
//! never says hello.

use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;

use anyhow::{Context, ensure};
use sevenbag_core::{Input, MatchHeader, Seat};
use sevenbag_protocol::{
    ClientMessage, EndReason, ErrorCode, InputChange, JoinRole, MatchResult, Replay, RoomOptions,
    SeatInputs, ServerMessage,
};
use sevenbag_server::{Config, Limits};
use sevenbag_tests::{RawClient, fast_config, raw_tcp_exchange, scripted, start_server};
use tokio_tungstenite::tungstenite::protocol::CloseFrame;

/// Bound on every case (the whole test takes a few seconds).
const CASE_TIMEOUT: Duration = Duration::from_secs(20);
/// Seat First hard-drops every 6 frames, seat Second every 12: First tops out first.
const PERIODS: [u32; 2] = [6, 12];

fn config() -> Config {
    let base = fast_config();
    Config {
        limits: Limits {
            // Small enough that a non-reading client is found out after a few replies.
            send_queue: 32,
            send_queue_bytes: 1024 * 1024,
            idle_timeout: Duration::from_millis(1500),
            hello_timeout: Duration::from_millis(1500),
            ping_interval: Duration::from_millis(300),
            // Long enough to deliver the farewell to the slow reader once it reads again.
            close_grace: Duration::from_secs(5),
            ..base.limits
        },
        ..base
    }
}

/// The close frame must carry a reason.
fn assert_close(case: &str, frame: &Option<CloseFrame>) -> anyhow::Result<()> {
    let frame = frame
        .as_ref()
        .with_context(|| format!("{case}: no Close frame"))?;
    ensure!(
        !frame.reason.is_empty(),
        "{case}: Close frame without a reason"
    );
    Ok(())
}

/// Connects, greets, runs `attack`, and expects to be cut with `code`; returns the message.
async fn cut_after(
    addr: SocketAddr,
    case: &str,
    code: ErrorCode,
    attack: impl AsyncFnOnce(&mut RawClient) -> anyhow::Result<()>,
) -> anyhow::Result<String> {
    let mut client = RawClient::hello(addr, case).await?;
    attack(&mut client).await?;
    let (got, message, close) = client.expect_cut(CASE_TIMEOUT).await?;
    ensure!(
        got == code,
        "{case}: expected {code:?}, got {got:?}: {message}"
    );
    assert_close(case, &close)?;
    Ok(message)
}

async fn garbage_frame(addr: SocketAddr) -> anyhow::Result<()> {
    cut_after(addr, "garbage", ErrorCode::BadMessage, async |c| {
        c.send_binary(vec![0xff, 0x13, 0x37, 0x00, 0xfe, 0xed])
            .await
    })
    .await?;
    Ok(())
}

async fn garbage_tcp(addr: SocketAddr) -> anyhow::Result<()> {
    // Not even WebSocket: the handshake fails and the server closes the socket.
    let reply = raw_tcp_exchange(
        addr,
        b"\x16\x03\x01 definitely not http\r\n\r\n",
        CASE_TIMEOUT,
    )
    .await?;
    ensure!(
        !String::from_utf8_lossy(&reply).contains("101 Switching"),
        "garbage got upgraded"
    );
    Ok(())
}

async fn oversized(addr: SocketAddr) -> anyhow::Result<()> {
    cut_after(addr, "oversized", ErrorCode::TooLarge, async |c| {
        c.send_binary(vec![0u8; 200 * 1024]).await
    })
    .await?;
    Ok(())
}

async fn text_frame(addr: SocketAddr) -> anyhow::Result<()> {
    cut_after(addr, "text", ErrorCode::TextFrame, async |c| {
        c.send_text("{\"hello\": 1}").await
    })
    .await?;
    Ok(())
}

async fn wrong_version(addr: SocketAddr) -> anyhow::Result<()> {
    let mut c = RawClient::connect(addr).await?;
    c.send(&ClientMessage::Hello {
        version: 999,
        name: "time traveller".into(),
        handling: Default::default(),
        resume: None,
    })
    .await?;
    let (code, message, close) = c.expect_cut(CASE_TIMEOUT).await?;
    ensure!(code == ErrorCode::Version, "version: got {code:?}");
    ensure!(
        message
            == format!(
                "server is version {}, you have 999",
                sevenbag_protocol::PROTOCOL_VERSION
            ),
        "version message: {message}"
    );
    assert_close("version", &close)
}

async fn spectator_inputs(addr: SocketAddr, code: String) -> anyhow::Result<()> {
    let message = cut_after(addr, "spectator", ErrorCode::BadInput, async move |c| {
        c.send(&ClientMessage::JoinRoom {
            code: code.to_lowercase(),
            role: JoinRole::Spectator,
        })
        .await?;
        let seat = c
            .recv_until(CASE_TIMEOUT, |m| match m {
                ServerMessage::Joined { seat, .. } => Some(*seat),
                _ => None,
            })
            .await?;
        ensure!(seat.is_none(), "a spectator has no seat");
        c.send(&ClientMessage::Inputs {
            changes: vec![InputChange {
                frame: 0,
                input: Input::HARD_DROP,
            }],
            confirmed: 1,
        })
        .await
    })
    .await?;
    ensure!(message.contains("spectator"), "{message}");
    Ok(())
}

/// Mallory rewrites confirmed frames; then her opponent Trent, still in the match, confirms
/// frames far past the server's clock. Both are cut with `BadInput`.
async fn bad_players(addr: SocketAddr) -> anyhow::Result<()> {
    let mut mallory = RawClient::hello(addr, "mallory").await?;
    mallory
        .send(&ClientMessage::CreateRoom {
            options: RoomOptions::default(),
        })
        .await?;
    let code = mallory
        .recv_until(CASE_TIMEOUT, |m| match m {
            ServerMessage::Joined { code, .. } => Some(code.clone()),
            _ => None,
        })
        .await?;
    let mut trent = RawClient::hello(addr, "trent").await?;
    trent
        .send(&ClientMessage::JoinRoom {
            code,
            role: JoinRole::Player,
        })
        .await?;
    for c in [&mut mallory, &mut trent] {
        c.send(&ClientMessage::Ready).await?;
    }
    for c in [&mut mallory, &mut trent] {
        c.recv_until(CASE_TIMEOUT, |m| {
            matches!(m, ServerMessage::MatchStart { .. }).then_some(())
        })
        .await?;
    }
    mallory
        .send(&ClientMessage::Inputs {
            changes: vec![],
            confirmed: 10,
        })
        .await?;
    mallory
        .send(&ClientMessage::Inputs {
            changes: vec![InputChange {
                frame: 5,
                input: Input::LEFT,
            }],
            confirmed: 20,
        })
        .await?;
    let (code, message, close) = mallory.expect_cut(CASE_TIMEOUT).await?;
    ensure!(code == ErrorCode::BadInput, "rewrite: {code:?}: {message}");
    ensure!(message.contains("rewrites"), "rewrite: {message}");
    assert_close("rewrite", &close)?;

    // Trent sees Mallory's seat drop (the room stays usable for him)...
    trent
        .recv_until(CASE_TIMEOUT, |m| match m {
            ServerMessage::SeatStatus {
                seat: Seat::First, ..
            } => Some(()),
            _ => None,
        })
        .await?;
    // ...and then confirms a minute ahead of the match clock.
    trent
        .send(&ClientMessage::Inputs {
            changes: vec![],
            confirmed: 3600,
        })
        .await?;
    let (code, message, close) = trent.expect_cut(CASE_TIMEOUT).await?;
    ensure!(code == ErrorCode::BadInput, "future: {code:?}: {message}");
    ensure!(message.contains("match clock"), "future: {message}");
    assert_close("future", &close)
}

async fn flood(addr: SocketAddr) -> anyhow::Result<()> {
    cut_after(addr, "flood", ErrorCode::RateLimited, async |c| {
        for nonce in 0..2000 {
            c.feed(&ClientMessage::Pong { nonce }).await?;
        }
        c.flush().await
    })
    .await?;
    Ok(())
}

/// A replay file big enough (~400 KB) that a few copies fill the path to a non-reading client.
fn write_big_replay(dir: &Path) -> anyhow::Result<()> {
    let changes: Vec<InputChange> = (0..50_000u32)
        .map(|frame| InputChange {
            frame,
            input: if frame % 2 == 0 {
                Input::LEFT
            } else {
                Input::RIGHT
            },
        })
        .collect();
    let replay = Replay {
        header: MatchHeader::versus(1),
        names: ["big".into(), "file".into()],
        inputs: [
            SeatInputs {
                changes: changes.clone(),
                confirmed: 50_000,
            },
            SeatInputs {
                changes,
                confirmed: 50_000,
            },
        ],
        hashes: vec![],
        rounds: vec![],
        result: MatchResult {
            winner: None,
            reason: EndReason::Shutdown,
            frames: 0,
        },
        created_unix: 0,
    };
    // Written aside and renamed, as the server does: the server may be indexing the directory.
    let tmp = dir.join(".big.tmp");
    std::fs::write(&tmp, replay.encode()?)?;
    std::fs::rename(&tmp, dir.join("big.sbrp"))?;
    Ok(())
}

async fn slow_reader(addr: SocketAddr) -> anyhow::Result<()> {
    let mut c = RawClient::connect_with_recv_buffer(addr, 8 * 1024).await?;
    c.send(&RawClient::hello_message("sloth")).await?;
    // Ask for the big replay many times and read nothing: the kernel buffers fill, then the
    // server's queue (1 MiB), and the server cuts us instead of waiting.
    for _ in 0..64 {
        c.feed(&ClientMessage::GetReplay { id: "big".into() })
            .await?;
    }
    c.flush().await?;
    // The server is cut-happy after a dozen replies (about a second of work on a loaded machine
    // at most); only then do we start reading, and the farewell waits for us (close_grace 5 s).
    tokio::time::sleep(Duration::from_millis(2000)).await;
    let (code, message, close) = c.expect_cut(CASE_TIMEOUT).await?;
    ensure!(
        code == ErrorCode::SlowReader,
        "slow reader: {code:?}: {message}"
    );
    assert_close("slow reader", &close)
}

/// Silent at every layer: the WebSocket handshake and a `Hello` written by hand on a plain TCP
/// socket, then nothing, not even the Pong a WebSocket library or browser sends by itself for
/// the server's WebSocket ping (one that answers those is alive, and is not cut).
async fn silent(addr: SocketAddr) -> anyhow::Result<()> {
    let mut bytes = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n\
        Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\
        Sec-WebSocket-Version: 13\r\n\r\n"
        .to_vec();
    let hello = sevenbag_protocol::encode(&RawClient::hello_message("mime"))?;
    // One masked binary frame (a client's frames are masked; a zero key leaves the payload
    // as it is).
    bytes.push(0x82);
    match u16::try_from(hello.len()) {
        Ok(n) if n < 126 => bytes.push(0x80 | n as u8),
        Ok(n) => {
            bytes.push(0x80 | 126);
            bytes.extend_from_slice(&n.to_be_bytes());
        }
        Err(_) => anyhow::bail!("Hello too long"),
    }
    bytes.extend_from_slice(&[0; 4]);
    bytes.extend_from_slice(&hello);
    let reply = raw_tcp_exchange(addr, &bytes, CASE_TIMEOUT).await?;
    let text = String::from_utf8_lossy(&reply);
    ensure!(text.contains("101 Switching"), "not upgraded: {text}");
    ensure!(
        text.contains("nothing heard for"),
        "silent: not cut as silent: {text}"
    );
    Ok(())
}

/// Compact inputs (`InputsSince`) with nothing to count from are `BadInput` before any room
/// sees them (offsets past the last frame number are refused the same way: unit tests in
/// `sevenbag_protocol::compact`).
async fn compact_inputs(addr: SocketAddr) -> anyhow::Result<()> {
    let message = cut_after(
        addr,
        "compact without base",
        ErrorCode::BadInput,
        async |c| {
            c.send(&ClientMessage::InputsSince {
                steps: vec![],
                frames: 4,
            })
            .await
        },
    )
    .await?;
    ensure!(message.contains("InputsSince"), "no base: {message}");
    Ok(())
}

async fn no_hello(addr: SocketAddr) -> anyhow::Result<()> {
    let mut c = RawClient::connect(addr).await?;
    let (code, message, close) = c.expect_cut(CASE_TIMEOUT).await?;
    ensure!(code == ErrorCode::Timeout, "no hello: {code:?}: {message}");
    ensure!(message.contains("Hello"), "no hello: {message}");
    assert_close("no hello", &close)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_clients_are_cut_and_the_match_next_door_finishes() -> anyhow::Result<()> {
    let mut server = start_server(config()).await;
    let addr = server.addr();
    write_big_replay(server.replay_dir())?;

    // The honest match: first to 2, scripted inputs.
    let mut alice = RawClient::hello(addr, "alice").await?;
    alice
        .send(&ClientMessage::CreateRoom {
            options: RoomOptions {
                first_to: 2,
                ..RoomOptions::default()
            },
        })
        .await?;
    let code = alice
        .recv_until(CASE_TIMEOUT, |m| match m {
            ServerMessage::Joined { code, .. } => Some(code.clone()),
            _ => None,
        })
        .await?;
    let mut bob = RawClient::hello(addr, "bob").await?;
    bob.send(&ClientMessage::JoinRoom {
        code: code.clone(),
        role: JoinRole::Player,
    })
    .await?;
    alice.send(&ClientMessage::Ready).await?;
    bob.send(&ClientMessage::Ready).await?;
    let honest = async {
        let a = scripted::play(&mut alice, Seat::First, PERIODS[0], CASE_TIMEOUT);
        let b = scripted::play(&mut bob, Seat::Second, PERIODS[1], CASE_TIMEOUT);
        tokio::try_join!(a, b)
    };

    let started = std::time::Instant::now();
    let (
        outcomes,
        garbage,
        tcp,
        big,
        text,
        version,
        spectator,
        players,
        flooded,
        slow,
        mute,
        rude,
        compact,
    ) = tokio::join!(
        honest,
        garbage_frame(addr),
        garbage_tcp(addr),
        oversized(addr),
        text_frame(addr),
        wrong_version(addr),
        spectator_inputs(addr, code.clone()),
        bad_players(addr),
        flood(addr),
        slow_reader(addr),
        silent(addr),
        no_hello(addr),
        compact_inputs(addr),
    );
    for (case, result) in [
        ("garbage frame", garbage),
        ("garbage tcp", tcp),
        ("oversized", big),
        ("text frame", text),
        ("wrong version", version),
        ("spectator inputs", spectator),
        ("rewrite and far future", players),
        ("flood", flooded),
        ("slow reader", slow),
        ("silent", mute),
        ("no hello", rude),
        ("compact inputs", compact),
    ] {
        result.with_context(|| format!("case {case}"))?;
    }
    eprintln!("hostile cases and the match took {:?}", started.elapsed());

    // The match next door was not disturbed.
    let (a, b) = outcomes.context("the honest match")?;
    let (winner, rounds) = scripted::expected(a.header, PERIODS);
    assert_eq!(Some(a.winner), winner);
    assert_eq!(a.winner, Seat::Second);
    assert_eq!(a.reason, EndReason::TopOut);
    for o in [&a, &b] {
        assert_eq!(o.winner, a.winner);
        assert_eq!(o.rounds, rounds);
        assert_eq!(o.replay, a.replay);
        assert_eq!(o.desyncs, 0);
        assert!(o.errors.is_empty(), "{:?}", o.errors);
        assert!(o.hashes_sent > 0);
    }
    assert!(a.replay.is_some());

    // The server still serves: a new client connects and sees the replay.
    let mut late = RawClient::hello(addr, "latecomer").await?;
    late.send(&ClientMessage::ListReplays).await?;
    let list = late
        .recv_until(CASE_TIMEOUT, |m| match m {
            ServerMessage::Replays { list } => Some(list.clone()),
            _ => None,
        })
        .await?;
    assert!(
        list.iter().any(|(id, _)| Some(id) == a.replay.as_ref()),
        "{list:?}"
    );
    for c in [late, alice, bob] {
        c.close().await;
    }
    server.shutdown().await?;
    Ok(())
}
