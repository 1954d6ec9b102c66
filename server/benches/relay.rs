//! Relay latency of the server over loopback WebSockets: how long from one player's `Inputs`
//! leaving its socket to the relayed `Inputs` arriving at the opponent, with the server idle and
//! with background rooms playing at the protocol's normal rate (a batch every 4 frames per player).
//!
//! Run: `cargo bench -p sevenbag-server --bench relay` (optimised; a plain binary, no criterion).
//! Figures go to BENCHMARKS.md ("Relay bench"). Everything is on 127.0.0.1 and bounded in time.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use sevenbag_core::{Handling, Input};
use sevenbag_protocol::{
    ClientMessage, InputChange, JoinRole, PROTOCOL_VERSION, RoomOptions, ServerMessage,
};
use sevenbag_server::{Config, Limits};
use tokio::net::TcpStream;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::Message;

type Ws = WebSocketStream<TcpStream>;

const PROBES: usize = 2000;
const BATCH_INTERVAL: Duration = Duration::from_micros(66_667);

async fn connect(addr: SocketAddr, name: &str) -> Ws {
    let tcp = TcpStream::connect(addr).await.expect("connect");
    tcp.set_nodelay(true).expect("nodelay");
    let (mut ws, _) = tokio_tungstenite::client_async(format!("ws://{addr}/"), tcp)
        .await
        .expect("handshake");
    send(
        &mut ws,
        &ClientMessage::Hello {
            version: PROTOCOL_VERSION,
            name: name.into(),
            handling: Handling::default(),
            resume: None,
        },
    )
    .await;
    ws
}

async fn send(ws: &mut Ws, m: &ClientMessage) {
    let bytes = sevenbag_protocol::encode(m).expect("encode");
    ws.send(Message::Binary(bytes.into())).await.expect("send");
}

async fn until<T>(ws: &mut Ws, mut pick: impl FnMut(ServerMessage) -> Option<T>) -> T {
    loop {
        let frame = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .expect("message in time")
            .expect("open")
            .expect("ok");
        if let Message::Binary(b) = frame {
            let m = sevenbag_protocol::decode_server(&b).expect("decode");
            if let ServerMessage::Ping { nonce } = m {
                send(ws, &ClientMessage::Pong { nonce }).await;
                continue;
            }
            if let Some(t) = pick(m) {
                return t;
            }
        }
    }
}

/// Two players in a started match.
async fn pair(addr: SocketAddr, n: usize) -> (Ws, Ws) {
    let mut a = connect(addr, &format!("a{n}")).await;
    send(
        &mut a,
        &ClientMessage::CreateRoom {
            options: RoomOptions::default(),
        },
    )
    .await;
    let code = until(&mut a, |m| match m {
        ServerMessage::Joined { code, .. } => Some(code),
        _ => None,
    })
    .await;
    let mut b = connect(addr, &format!("b{n}")).await;
    send(
        &mut b,
        &ClientMessage::JoinRoom {
            code,
            role: JoinRole::Player,
        },
    )
    .await;
    send(&mut a, &ClientMessage::Ready).await;
    send(&mut b, &ClientMessage::Ready).await;
    for ws in [&mut a, &mut b] {
        until(ws, |m| {
            matches!(m, ServerMessage::MatchStart { .. }).then_some(())
        })
        .await;
    }
    (a, b)
}

/// A background player: a batch every 4 frames (with a key change every other batch), reading
/// everything it is sent, until `end`.
async fn background(mut ws: Ws, end: Instant) {
    let mut confirmed = 0u32;
    let mut next = Instant::now();
    while Instant::now() < end {
        if Instant::now() >= next {
            confirmed += 4;
            let changes = if confirmed.is_multiple_of(8) {
                vec![InputChange {
                    frame: confirmed - 2,
                    input: Input::LEFT,
                }]
            } else {
                vec![InputChange {
                    frame: confirmed - 2,
                    input: Input::NONE,
                }]
            };
            send(&mut ws, &ClientMessage::Inputs { changes, confirmed }).await;
            next += BATCH_INTERVAL;
        }
        let wait = next.saturating_duration_since(Instant::now());
        if let Ok(Some(Ok(Message::Binary(b)))) = tokio::time::timeout(wait, ws.next()).await
            && let Ok(ServerMessage::Ping { nonce }) = sevenbag_protocol::decode_server(&b)
        {
            send(&mut ws, &ClientMessage::Pong { nonce }).await;
        }
    }
}

/// Sends `PROBES` batches from `a`, one at a time, and times each relay to `b`.
async fn probe(a: &mut Ws, b: &mut Ws) -> Vec<Duration> {
    let mut out = Vec::with_capacity(PROBES);
    for k in 1..=PROBES as u32 {
        let t = Instant::now();
        send(
            a,
            &ClientMessage::Inputs {
                changes: vec![],
                confirmed: k,
            },
        )
        .await;
        until(b, |m| match m {
            ServerMessage::Inputs { confirmed, .. } if confirmed == k => Some(()),
            _ => None,
        })
        .await;
        out.push(t.elapsed());
        // Roughly the rate of a real client, so the probe is not itself a flood.
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    out.sort();
    out
}

fn pct(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let dir = std::env::temp_dir().join(format!("sevenbag-relay-bench-{}", std::process::id()));
    let config = Config {
        replay_dir: dir.clone(),
        start_delay: Duration::ZERO,
        limits: Limits {
            // The probe confirms a frame per message, far faster than real time.
            max_frames_ahead: u32::MAX / 2,
            messages_per_second: 100_000,
            message_burst: 100_000,
            ..Limits::default()
        },
        ..Config::default()
    };
    let server = sevenbag_server::spawn(config).await.expect("server");
    let addr = server.addr();
    println!("relay latency, {PROBES} probes each (p50 / p99 / max)");
    for rooms in [0usize, 100, 400] {
        let end = Instant::now() + Duration::from_secs(600);
        let mut tasks = Vec::new();
        for n in 0..rooms {
            let (a, b) = pair(addr, n).await;
            tasks.push(tokio::spawn(background(a, end)));
            tasks.push(tokio::spawn(background(b, end)));
        }
        // Let the background settle into its rhythm.
        tokio::time::sleep(Duration::from_millis(500)).await;
        let (mut a, mut b) = pair(addr, 10_000 + rooms).await;
        let lat = probe(&mut a, &mut b).await;
        println!(
            "{rooms:>4} background rooms ({:>5} msgs/s in): {:?} / {:?} / {:?}",
            rooms * 2 * 15,
            pct(&lat, 0.5),
            pct(&lat, 0.99),
            lat[lat.len() - 1]
        );
        for t in tasks {
            t.abort();
        }
    }
    let _ = server.shutdown().await;
    let _ = std::fs::remove_dir_all(dir);
}
