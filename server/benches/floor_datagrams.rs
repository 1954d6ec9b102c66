//! The floor under any datagram relay: the CPU a process spends per player-second when it does
//! nothing but receive WebTransport datagrams from one session and send each to the paired
//! session, at a given rate. The same crate and QUIC stack as the server's datagram path
//! (`wtransport` on `quinn`, rustls with `ring`, a self-signed certificate), one task per pair,
//! no decoding, no rooms: what the real server spends above this is its own; what this costs
//! is QUIC (encryption, acknowledgements, the state machines) and the kernel's loopback UDP path.
//!
//! Run: `cargo bench -p sevenbag-server --bench floor_datagrams` (optimised; a plain binary).
//! `FLOOR_PLAYERS` (200), `FLOOR_RATES` (datagrams a second each way per player,
//! comma-separated; `20,40,60`), `FLOOR_SECONDS` (10), `FLOOR_BYTES` (payload bytes, 24: about
//! an uplink with one key change) and `FLOOR_THREADS` (the relay's tokio workers, 0 = one
//! thread; 2) change the run; `FLOOR_RELAY_CPU=N`
//! runs the relay under `taskset -c N`. The relay is this binary started again as a child (so its CPU
//! time is its own, from `/proc`); the players are sessions of one client endpoint in this
//! process. Loopback only, bounded in time. Figures go to BENCHMARKS.md ("Netplay through
//! loss").

use std::io::BufRead;
use std::process::Stdio;
use std::time::{Duration, Instant};

use wtransport::tls::Sha256Digest;
use wtransport::{ClientConfig, Endpoint, Identity, ServerConfig};

/// The child's role is chosen by this variable (the value is the worker count).
#[path = "shared/relay_cpu.rs"]
mod relay_cpu;
use relay_cpu::relay_command;

const RELAY_ROLE: &str = "SEVENBAG_FLOOR_DATAGRAM_RELAY_THREADS";

fn main() {
    if let Ok(threads) = std::env::var(RELAY_ROLE) {
        relay(threads.parse().unwrap_or(2));
        return;
    }
    let players = env_or("FLOOR_PLAYERS", 200).max(2) / 2 * 2;
    let seconds = env_or("FLOOR_SECONDS", 10).clamp(1, 120);
    let threads = env_or("FLOOR_THREADS", 2).min(64);
    let bytes = env_or("FLOOR_BYTES", 24).clamp(1, 1000) as usize;
    let rates = std::env::var("FLOOR_RATES").unwrap_or_else(|_| "20,40,60".into());
    println!(
        "players {players}, relay workers {threads}, {bytes}-byte datagrams, {seconds} s a rate"
    );
    println!("| datagrams/s each way per player | relay CPU (one core) | µs per player-second |");
    println!("|---|---|---|");
    for rate in rates
        .split(',')
        .filter_map(|r| r.trim().parse::<u64>().ok())
    {
        let rate = rate.clamp(1, 1000);
        let (cpu, per_player) = measure(players, rate, seconds, threads, bytes);
        println!("| {rate} | {:.1}% | {per_player:.0} |", cpu * 100.0);
    }
}

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// One run at `rate`: start a relay child, open the players' sessions, measure the child.
fn measure(players: u64, rate: u64, seconds: u64, threads: u64, bytes: usize) -> (f64, f64) {
    let exe = std::env::current_exe().expect("own path");
    let mut child = relay_command(exe)
        .env(RELAY_ROLE, threads.to_string())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start the relay");
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().expect("relay stdout"))
        .read_line(&mut line)
        .expect("relay port and hash");
    let (port, hash) = line.trim().split_once(' ').expect("port and hash");
    let port: u16 = port.parse().expect("a port");
    let hash = hex32(hash);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("runtime");
    let result = runtime.block_on(play(child.id(), port, hash, players, rate, seconds, bytes));
    let _ = child.kill();
    let _ = child.wait();
    result
}

fn hex32(s: &str) -> [u8; 32] {
    let mut out = [0u8; 32];
    for (i, b) in out.iter_mut().enumerate() {
        *b = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).expect("hex");
    }
    out
}

/// The players: each sends a datagram `rate` times a second for the window (plus a second
/// either side) and reads whatever its pair relays back.
#[allow(clippy::too_many_arguments)]
async fn play(
    relay: u32,
    port: u16,
    hash: [u8; 32],
    players: u64,
    rate: u64,
    seconds: u64,
    bytes: usize,
) -> (f64, f64) {
    let config = ClientConfig::builder()
        .with_bind_address("127.0.0.1:0".parse().expect("addr"))
        .with_server_certificate_hashes([Sha256Digest::new(hash)])
        .build();
    let endpoint = Endpoint::client(config).expect("client endpoint");
    let period = Duration::from_micros(1_000_000 / rate);
    let until = Instant::now() + Duration::from_secs(seconds + 2);
    let mut tasks = Vec::new();
    for i in 0..players {
        let session = endpoint
            .connect(format!("https://127.0.0.1:{port}/"))
            .await
            .expect("a session");
        // Spread the players' sends over the period, as independent players would be.
        let phase = Duration::from_micros(i * 7919 % period.as_micros() as u64);
        tasks.push(tokio::spawn(async move {
            let reader = {
                let session = session.clone();
                tokio::spawn(async move { while session.receive_datagram().await.is_ok() {} })
            };
            tokio::time::sleep(phase).await;
            let mut tick = tokio::time::interval(period);
            let payload = vec![7u8; bytes];
            while Instant::now() < until {
                tick.tick().await;
                if session.send_datagram(payload.clone()).is_err() {
                    break;
                }
            }
            reader.abort();
        }));
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

/// User plus system CPU time of `pid`, in seconds (`/proc/PID/stat`, clock ticks of 1/100 s).
fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("/proc stat");
    let fields: Vec<&str> = stat[stat.rfind(')').expect("comm") + 2..]
        .split(' ')
        .collect();
    let ticks: u64 =
        fields[11].parse::<u64>().expect("utime") + fields[12].parse::<u64>().expect("stime");
    ticks as f64 / 100.0
}

/// The relay child: accepts sessions two at a time and relays each pair's datagrams both ways
/// in one task, printing its port and certificate hash first.
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
        let identity = Identity::self_signed(["localhost", "127.0.0.1"]).expect("certificate");
        let hash = identity.certificate_chain().as_slice()[0].hash();
        let config = ServerConfig::builder()
            .with_bind_address("127.0.0.1:0".parse().expect("addr"))
            .with_identity(identity)
            .build();
        let endpoint = Endpoint::server(config).expect("server endpoint");
        let port = endpoint.local_addr().expect("addr").port();
        let hex: String = hash.as_ref().iter().map(|b| format!("{b:02x}")).collect();
        println!("{port} {hex}");
        loop {
            let a = accept(&endpoint).await;
            let b = accept(&endpoint).await;
            tokio::spawn(pair(a, b));
        }
    });
}

async fn accept(
    endpoint: &Endpoint<wtransport::endpoint::endpoint_side::Server>,
) -> wtransport::Connection {
    loop {
        let request = endpoint.accept().await.await;
        if let Ok(request) = request
            && let Ok(connection) = request.accept().await
        {
            return connection;
        }
    }
}

async fn pair(a: wtransport::Connection, b: wtransport::Connection) {
    loop {
        tokio::select! {
            d = a.receive_datagram() => match d {
                Ok(d) => { let _ = b.send_datagram(d.payload()); }
                Err(_) => return,
            },
            d = b.receive_datagram() => match d {
                Ok(d) => { let _ = a.send_datagram(d.payload()); }
                Err(_) => return,
            },
        }
    }
}
