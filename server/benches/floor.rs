//! The floor under any relay: the CPU a process spends per player-second when it does nothing
//! but read small messages from loopback TCP sockets and write each one to the paired socket,
//! at a given message rate. No WebSocket framing, no decoding, no rooms: one task per pair,
//! the leanest tokio relay there is. What the real server spends above this is its own; what
//! this costs is the kernel's loopback TCP path and the wake-ups, and no user-space change to
//! the server can go below it at the same message rate.
//!
//! Run: `cargo bench -p sevenbag-server --bench floor` (optimised; a plain binary, no
//! criterion). `FLOOR_PLAYERS` (600), `FLOOR_RATES` (messages a second each way per player,
//! comma-separated; `4,8,12,23,60`), `FLOOR_SECONDS` (10) and `FLOOR_THREADS` (the relay's
//! tokio workers, 0 = one thread; 2) change the run; `FLOOR_RELAY_CPU=N`
//! runs the relay under `taskset -c N`. `FLOOR_HOPS=1` relays the way the server
//! does instead: a reader task per socket hands each message to a task per pair ("the room"),
//! which hands it to the other socket's writer task, over bounded channels: what the server's
//! three tasks per relayed message cost over one. `FLOOR_WS=1` relays WebSocket frames instead
//! of raw bytes: the players are tokio-tungstenite clients (their frames masked, as browsers'
//! are), the relay answers the handshake and relays each binary message to the paired socket
//! as a frame of its own, one task per pair, with the server's tungstenite settings: what
//! WebSocket framing alone costs on top of the TCP floor. The relay is this same binary started
//! again as a child (so its CPU time is its own, read from `/proc` per thread); the players are tasks of
//! this process. Loopback only, bounded in time. Figures go to BENCHMARKS.md ("The floor under
//! any relay").

use std::process::Stdio;
use std::time::{Duration, Instant};

use std::io::BufRead;

use futures_util::{SinkExt, StreamExt};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::{Bytes, Message};

/// Payload of one message: about an `Inputs` batch with one key change in a WebSocket frame.
#[path = "shared/relay_cpu.rs"]
mod relay_cpu;
use relay_cpu::relay_command;

const MESSAGE: [u8; 12] = [7; 12];
/// The child's role is chosen by this variable (the value is the worker count).
const RELAY_ROLE: &str = "SEVENBAG_FLOOR_RELAY_THREADS";
/// Set (to anything) for the three-task relay, see the module docs.
const HOPS: &str = "FLOOR_HOPS";
/// Set (to anything) for the WebSocket relay, see the module docs.
const WS: &str = "FLOOR_WS";

fn main() {
    if let Ok(threads) = std::env::var(RELAY_ROLE) {
        relay(threads.parse().unwrap_or(2));
        return;
    }
    let players = env_or("FLOOR_PLAYERS", 600).max(2) / 2 * 2;
    let seconds = env_or("FLOOR_SECONDS", 10).clamp(1, 120);
    let threads = env_or("FLOOR_THREADS", 2).min(64);
    let rates = std::env::var("FLOOR_RATES").unwrap_or_else(|_| "4,8,12,23,60".into());
    let shape = if std::env::var_os(WS).is_some() {
        "WebSocket frames, one task per pair"
    } else if std::env::var_os(HOPS).is_some() {
        "reader -> room -> writer tasks"
    } else {
        "one task per pair"
    };
    println!("players {players}, relay workers {threads}, {shape}, {seconds} s a rate");
    println!("| messages/s each way per player | relay CPU (one core) | µs per player-second |");
    println!("|---|---|---|");
    for rate in rates
        .split(',')
        .filter_map(|r| r.trim().parse::<u64>().ok())
    {
        let rate = rate.clamp(1, 1000);
        let (cpu, per_player) = measure(players, rate, seconds, threads);
        println!("| {rate} | {:.1}% | {per_player:.0} |", cpu * 100.0);
    }
}

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// One run at `rate`: start a relay child, connect the players, measure the child's CPU.
fn measure(players: u64, rate: u64, seconds: u64, threads: u64) -> (f64, f64) {
    let exe = std::env::current_exe().expect("own path");
    let mut child = relay_command(exe)
        .env(RELAY_ROLE, threads.to_string())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start the relay");
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().expect("relay stdout"))
        .read_line(&mut line)
        .expect("relay port");
    let port: u16 = line.trim().parse().expect("a port");
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("runtime");
    let result = runtime.block_on(play(child.id(), port, players, rate, seconds));
    let _ = child.kill();
    let _ = child.wait();
    result
}

/// The players: each sends `MESSAGE` `rate` times a second for the window (plus a second
/// either side) and reads whatever its pair relays back.
async fn play(relay: u32, port: u16, players: u64, rate: u64, seconds: u64) -> (f64, f64) {
    let period = Duration::from_micros(1_000_000 / rate);
    let until = Instant::now() + Duration::from_secs(seconds + 2);
    let mut tasks = Vec::new();
    for i in 0..players {
        let stream = TcpStream::connect(("127.0.0.1", port))
            .await
            .expect("connect");
        stream.set_nodelay(true).expect("nodelay");
        // Spread the players' sends over the period, as independent players would be.
        let phase = Duration::from_micros(i * 7919 % period.as_micros() as u64);
        if std::env::var_os(WS).is_some() {
            // The handshake in the player's task: the relay answers a pair's two together.
            let url = format!("ws://127.0.0.1:{port}/");
            tasks.push(tokio::spawn(async move {
                let (ws, _) = tokio_tungstenite::client_async(url, stream)
                    .await
                    .expect("WebSocket handshake");
                ws_player(ws, period, phase, until).await;
            }));
        } else {
            tasks.push(tokio::spawn(player(stream, period, phase, until)));
        }
    }
    tokio::time::sleep(Duration::from_secs(1)).await;
    let (cpu0, t0) = (cpu_seconds(relay), Instant::now());
    tokio::time::sleep(Duration::from_secs(seconds)).await;
    let cpu = (cpu_seconds(relay) - cpu0) / t0.elapsed().as_secs_f64();
    for task in tasks {
        let _ = task.await;
    }
    (cpu, cpu * 1e6 / players as f64)
}

async fn player(stream: TcpStream, period: Duration, phase: Duration, until: Instant) {
    let (mut read, mut write) = stream.into_split();
    let reader = tokio::spawn(async move {
        let mut buf = [0u8; 512];
        while matches!(read.read(&mut buf).await, Ok(n) if n > 0) {}
    });
    tokio::time::sleep(phase).await;
    let mut tick = tokio::time::interval(period);
    while Instant::now() < until {
        tick.tick().await;
        if write.write_all(&MESSAGE).await.is_err() {
            break;
        }
    }
    drop(write);
    reader.abort();
}

/// A WebSocket player: as [`player`], each message one masked binary frame whose payload
/// makes the frame the server sends on as long as `MESSAGE`.
async fn ws_player(
    ws: WebSocketStream<TcpStream>,
    period: Duration,
    phase: Duration,
    until: Instant,
) {
    let (mut write, mut read) = ws.split();
    let reader = tokio::spawn(async move { while let Some(Ok(_)) = read.next().await {} });
    tokio::time::sleep(phase).await;
    let mut tick = tokio::time::interval(period);
    let payload = Bytes::copy_from_slice(&MESSAGE[2..]);
    while Instant::now() < until {
        tick.tick().await;
        if write.send(Message::Binary(payload.clone())).await.is_err() {
            break;
        }
    }
    let _ = write.close().await;
    reader.abort();
}

/// CPU time of `pid` in seconds: the on-CPU nanoseconds of each of its threads
/// (`/proc/PID/task/*/schedstat`, what `perf stat -e task-clock` counts), so a window at 20
/// players is read to the microsecond; the relay's threads live as long as it does. Falls back
/// to user plus system time (`/proc/PID/stat`, ticks of 1/100 s) where schedstat is missing.
fn cpu_seconds(pid: u32) -> f64 {
    let on_cpu = std::fs::read_dir(format!("/proc/{pid}/task"))
        .ok()
        .and_then(|tasks| {
            tasks
                .map(|task| {
                    let path = task.ok()?.path().join("schedstat");
                    let text = std::fs::read_to_string(path).ok()?;
                    text.split(' ').next()?.parse::<u64>().ok()
                })
                .sum::<Option<u64>>()
        });
    if let Some(ns) = on_cpu {
        return ns as f64 / 1e9;
    }
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("/proc stat");
    let fields: Vec<&str> = stat[stat.rfind(')').expect("comm") + 2..]
        .split(' ')
        .collect();
    let ticks: u64 =
        fields[11].parse::<u64>().expect("utime") + fields[12].parse::<u64>().expect("stime");
    ticks as f64 / 100.0
}

/// The relay child: accepts connections two at a time and relays each pair's bytes both ways
/// in one task (no queue, no hop), printing its port first.
fn relay(threads: usize) {
    let runtime = if threads == 0 {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
    } else {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(threads)
            .enable_all()
            .build()
    }
    .expect("runtime");
    runtime.block_on(async {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        println!("{}", listener.local_addr().expect("addr").port());
        loop {
            let Ok((a, _)) = listener.accept().await else {
                return;
            };
            let Ok((b, _)) = listener.accept().await else {
                return;
            };
            let _ = (a.set_nodelay(true), b.set_nodelay(true));
            if std::env::var_os(WS).is_some() {
                tokio::spawn(ws_pair(a, b));
            } else if std::env::var_os(HOPS).is_some() {
                tokio::spawn(pair_with_hops(a, b));
            } else {
                tokio::spawn(pair(a, b));
            }
        }
    });
}

async fn pair(a: TcpStream, b: TcpStream) {
    let (mut a_read, mut a_write) = a.into_split();
    let (mut b_read, mut b_write) = b.into_split();
    let (mut from_a, mut from_b) = ([0u8; 512], [0u8; 512]);
    loop {
        let sent = tokio::select! {
            n = a_read.read(&mut from_a) => match n {
                Ok(n) if n > 0 => b_write.write_all(&from_a[..n]).await,
                _ => return,
            },
            n = b_read.read(&mut from_b) => match n {
                Ok(n) if n > 0 => a_write.write_all(&from_b[..n]).await,
                _ => return,
            },
        };
        if sent.is_err() {
            return;
        }
    }
}

/// The server's shape: each socket's reader sends what it reads to the pair's room task, which
/// sends it on to the other socket's writer task.
async fn pair_with_hops(a: TcpStream, b: TcpStream) {
    use tokio::sync::mpsc;
    let (a_read, a_write) = a.into_split();
    let (b_read, b_write) = b.into_split();
    let (room_tx, mut room_rx) = mpsc::channel::<(bool, Vec<u8>)>(256);
    for (from_a, mut read) in [(true, a_read), (false, b_read)] {
        let room = room_tx.clone();
        tokio::spawn(async move {
            let mut buf = [0u8; 512];
            while let Ok(n @ 1..) = read.read(&mut buf).await {
                if room.send((from_a, buf[..n].to_vec())).await.is_err() {
                    return;
                }
            }
        });
    }
    drop(room_tx);
    let mut writers = [a_write, b_write].map(|mut write| {
        let (tx, mut rx) = mpsc::channel::<Vec<u8>>(256);
        tokio::spawn(async move {
            while let Some(bytes) = rx.recv().await {
                if write.write_all(&bytes).await.is_err() {
                    return;
                }
            }
        });
        tx
    });
    while let Some((from_a, bytes)) = room_rx.recv().await {
        let to = &mut writers[usize::from(from_a)];
        if to.send(bytes).await.is_err() {
            return;
        }
    }
}

/// The WebSocket relay of one pair: both handshakes answered, then every binary message read
/// from one side written (and flushed) to the other as a frame of its own, in one task. The
/// read buffer is the server's (`connection::websocket`).
async fn ws_pair(a: TcpStream, b: TcpStream) {
    let config = WebSocketConfig::default().read_buffer_size(512);
    let (Ok(a), Ok(b)) = (
        tokio_tungstenite::accept_async_with_config(a, Some(config)).await,
        tokio_tungstenite::accept_async_with_config(b, Some(config)).await,
    ) else {
        return;
    };
    let (mut a_write, mut a_read) = a.split();
    let (mut b_write, mut b_read) = b.split();
    loop {
        let sent = tokio::select! {
            m = a_read.next() => match m {
                Some(Ok(m @ Message::Binary(_))) => b_write.send(m).await,
                Some(Ok(_)) => Ok(()),
                _ => return,
            },
            m = b_read.next() => match m {
                Some(Ok(m @ Message::Binary(_))) => a_write.send(m).await,
                Some(Ok(_)) => Ok(()),
                _ => return,
            },
        };
        if sent.is_err() {
            return;
        }
    }
}
