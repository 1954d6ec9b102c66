//! `loadtest --players-per-room N` (2 to 8): general rooms instead of two-seat rooms'
//! matches (2: a general room playing a versus match, to measure it beside a two-seat room). Each room is N [`BattleClient`]s with the two-seat players' random keys in a fresh first-to-99
//! free-for-all room (so it lasts the run: rounds follow one another), created by its first
//! player and joined by code by the others, every client on its own tokio task. After a
//! second of play the window opens for `--seconds`; then every client stops and the report
//! gives desyncs, failures, traffic per player-second within the window (by message kind, on
//! the WebSocket and as datagrams, as the two-seat report does) and the server's CPU per
//! player-second. Inputs go as datagrams (`--path datagrams`, the players' default) or over
//! the WebSocket only (`--path websocket`). With `--latency-ms`, `--jitter-ms` or `--loss`
//! every client goes through the impairing proxies, as in two-seat runs (loss from the window
//! on).

use std::time::{Duration, Instant};

use sevenbag_core::{Battle, SeatInput};
use sevenbag_netplay::{BattleClient, MessageKind, NetStats, RandomInputs, TransportPath};
use sevenbag_protocol::{BattleRoomOptions, JoinRole};

use super::report::ProcStats;

/// What one client did.
struct Outcome {
    error: Option<String>,
    desyncs: u32,
    rollbacks: u64,
    /// Frames stalled at the prediction window within the measurement window.
    stalls: u64,
    /// Traffic within the measurement window.
    traffic: NetStats,
}

/// When each room's players play: until `window_from`, then (measured) until `window_to`,
/// then a little more.
#[derive(Clone, Copy)]
struct Schedule {
    window_from: Instant,
    window_to: Instant,
    end: Instant,
    drop: (u32, u32),
    datagrams: bool,
    /// Frames each client simulates per wake-up (`--tick-frames`, as the two-seat players).
    tick_frames: u32,
    /// `--ranked`: the two players register fresh identities and the ranked queue seats
    /// them (a room of two seats, rated, started at once) instead of a room by code.
    ranked: bool,
}

/// The two-seat load players' random keys ([`RandomInputs`], a hard drop every `min..=max`
/// frames), so both kinds of room are measured with the same play.
fn keys(seed: u64, min: u32, max: u32) -> impl FnMut(&Battle, usize) -> SeatInput + Send {
    RandomInputs::new(seed)
        .with_drop_every(min, max)
        .for_battle()
}

/// A player that failed before it could play.
fn failed(e: String) -> Outcome {
    Outcome {
        error: Some(e),
        desyncs: 0,
        rollbacks: 0,
        stalls: 0,
        traffic: NetStats::default(),
    }
}

async fn room(url: String, i: usize, n: usize, at: Schedule) -> Vec<Outcome> {
    if at.ranked {
        return match ranked_pair(&url, i, at).await {
            Ok(pair) => play_room(pair.into(), i, at).await,
            Err(e) => (0..n).map(|_| failed(format!("setup: {e}"))).collect(),
        };
    }
    let mut players = Vec::with_capacity(n);
    let mut options = BattleRoomOptions::ffa(n as u8);
    options.room.first_to = 99;
    let mut code = String::new();
    for s in 0..n {
        let name = format!("r{i}p{s}");
        let joined = async {
            let mut c = BattleClient::connect_with(&url, &name, at.datagrams).await?;
            c.set_frames_per_tick(at.tick_frames);
            if s == 0 {
                code = c.create(options).await?;
            } else {
                c.join(&code, JoinRole::Player).await?;
            }
            Ok::<_, sevenbag_netplay::HeadlessError>(c)
        };
        match joined.await {
            Ok(c) => players.push(c),
            Err(e) => return (0..n).map(|_| failed(format!("setup: {e}"))).collect(),
        }
    }
    // Ready once everyone sits: a room starts as soon as every seated player is ready.
    for c in players.iter_mut() {
        if let Err(e) = c.ready() {
            return (0..n).map(|_| failed(format!("ready: {e}"))).collect();
        }
    }
    play_room(players, i, at).await
}

/// Two load players of ranked match `i`, each with a fresh identity (registered, then queued
/// together: the queue pairs them, or anyone else waiting).
async fn ranked_pair(
    url: &str,
    i: usize,
    at: Schedule,
) -> Result<[BattleClient; 2], sevenbag_netplay::HeadlessError> {
    let run = u64::from(std::process::id())
        ^ std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
    let join = |side: u64| async move {
        let seed = run.rotate_left(17) ^ (i as u64 * 2 + side);
        let letters = super::players::letters;
        let name = format!("ld{}{}", letters(run, 4), letters(i as u64 * 2 + side, 4));
        let mut c = BattleClient::connect_with(url, &name, at.datagrams).await?;
        c.set_frames_per_tick(at.tick_frames);
        let key = super::players::generated_key(seed);
        c.send(sevenbag_protocol::ClientMessage::DeclareBot)?;
        c.send(sevenbag_protocol::ClientMessage::Register { key, name })?;
        c.ranked_match(key, super::SETUP_GRACE).await?;
        Ok::<_, sevenbag_netplay::HeadlessError>(c)
    };
    let (a, b) = tokio::join!(join(0), join(1));
    Ok([a?, b?])
}

/// Plays the seated, readied `players` of room `i` through the schedule; one outcome each.
async fn play_room(players: Vec<BattleClient>, i: usize, at: Schedule) -> Vec<Outcome> {
    let n = players.len();
    let tasks: Vec<_> = players
        .into_iter()
        .enumerate()
        .map(|(s, mut c)| {
            tokio::spawn(async move {
                let mut k = keys((i * 8 + s) as u64 + 1, at.drop.0, at.drop.1);
                if let Err(e) = c.wait_for_start(Duration::from_secs(10)).await {
                    return Outcome {
                        error: Some(format!("no start: {e}")),
                        desyncs: 0,
                        rollbacks: 0,
                        stalls: 0,
                        traffic: c.traffic(),
                    };
                }
                let until = |t: Instant| t.saturating_duration_since(Instant::now());
                c.play_for(&mut k, until(at.window_from)).await;
                let stalled = |c: &BattleClient| c.session().map_or(0, |s| s.stats().stall_frames);
                let (before, stalls_before) = (c.traffic(), stalled(&c));
                c.play_for(&mut k, until(at.window_to)).await;
                let traffic = c.traffic().since(&before);
                let stalls = stalled(&c).saturating_sub(stalls_before);
                c.play_for(&mut k, until(at.end)).await;
                let stats = c.session().map(|s| s.stats()).unwrap_or_default();
                let error = c
                    .disconnect_reason()
                    .map(|r| format!("disconnected: {r}"))
                    .or_else(|| {
                        (!c.session_errors().is_empty())
                            .then(|| format!("{:?}", c.session_errors()))
                    });
                Outcome {
                    error,
                    desyncs: stats.desyncs,
                    rollbacks: stats.rollbacks,
                    stalls,
                    traffic,
                }
            })
        })
        .collect();
    let mut out = Vec::with_capacity(n);
    for t in tasks {
        out.push(t.await.unwrap_or_else(|e| failed(e.to_string())));
    }
    out
}

/// Runs `rooms` rooms of `n` players against `url` and prints the report; fails on any
/// failed player or desync.
pub(super) async fn run(
    url: &str,
    server_pid: Option<u32>,
    n: usize,
    args: &super::LoadtestArgs,
    impairment: Option<&super::Impairment>,
) -> anyhow::Result<()> {
    let (rooms, seconds) = (args.matches, args.seconds);
    let drop = (args.drop_min, args.drop_max);
    let datagrams = args.path == super::InputPath::Datagrams;
    let tick_frames = args.tick_frames;
    // Setup, a second of play, the window, a little after it.
    let warmup = Duration::from_secs(1);
    let window = Duration::from_secs(seconds);
    let started = Instant::now();
    // A player's setup takes a few round trips through the proxy, a room's players one after
    // another (rooms at once).
    let trip = 2 * (args.latency_ms + args.jitter_ms);
    let setup_allowance = Duration::from_secs(5)
        + Duration::from_millis(20 * (rooms * n) as u64 + 4 * trip * n as u64);
    let window_from = started + setup_allowance + warmup;
    let at = Schedule {
        window_from,
        window_to: window_from + window,
        end: window_from + window + Duration::from_millis(500),
        drop,
        datagrams,
        tick_frames,
        ranked: args.ranked,
    };
    let tasks: Vec<_> = (0..rooms)
        .map(|i| tokio::spawn(room(url.to_owned(), i, n, at)))
        .collect();
    tokio::time::sleep_until((started + setup_allowance + warmup).into()).await;
    if let Some(p) = impairment {
        p.start_loss();
    }
    let cpu_start = server_pid.and_then(|pid| ProcStats::read(pid).ok());
    tokio::time::sleep(window).await;
    let cpu_end = server_pid.and_then(|pid| ProcStats::read(pid).ok());
    let mut players = Vec::with_capacity(rooms * n);
    for t in tasks {
        players.extend(t.await.map_err(|e| anyhow::anyhow!("a room's task: {e}"))?);
    }
    let failed: Vec<&String> = players.iter().filter_map(|p| p.error.as_ref()).collect();
    let desyncs: u32 = players.iter().map(|p| p.desyncs).sum();
    let rollbacks: u64 = players.iter().map(|p| p.rollbacks).sum();
    let total = players.len() as f64;
    // Traffic within the window: per player-second of it.
    let secs = window.as_secs_f64();
    let per = |f: fn(&NetStats) -> u64| {
        players.iter().map(|p| f(&p.traffic)).sum::<u64>() as f64 / total / secs
    };
    println!("rooms: {rooms} of {n} players ({} players)", players.len());
    println!("failed players: {}", failed.len());
    for e in failed.iter().take(5) {
        println!("  {e}");
    }
    println!("desyncs: {desyncs}");
    println!(
        "rollbacks per player-second: {:.2}",
        rollbacks as f64 / total / secs
    );
    let stalls: u64 = players.iter().map(|p| p.stalls).sum();
    println!(
        "stall frames per player-second (window): {:.2}",
        stalls as f64 / total / secs
    );
    println!(
        "per player-second: {:.1} messages / {:.0} bytes up, {:.1} messages / {:.0} bytes down",
        per(|t| t.messages_out),
        per(|t| t.bytes_out),
        per(|t| t.messages_in),
        per(|t| t.bytes_in)
    );
    let by_kind = |pick: fn(&NetStats) -> &[u64; MessageKind::COUNT]| {
        MessageKind::ALL
            .iter()
            .map(|&k| {
                let count: u64 = players.iter().map(|p| pick(&p.traffic)[k as usize]).sum();
                format!("{} {:.1}", k.name(), count as f64 / total / secs)
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    println!(
        "messages per player-second by kind: up {}; down {}",
        by_kind(|t| &t.kinds_out),
        by_kind(|t| &t.kinds_in)
    );
    let on_datagrams = players
        .iter()
        .filter(|p| p.traffic.path == TransportPath::Datagrams)
        .count();
    println!(
        "inputs carried by (end of window): {on_datagrams} players on datagrams, {} on the WebSocket",
        players.len() - on_datagrams
    );
    let (udp_up, udp_down) = (per(|t| t.udp_bytes_out), per(|t| t.udp_bytes_in));
    println!(
        "datagrams per player-second: {:.1} up, {:.1} down; UDP payload (QUIC included) {udp_up:.0} B/s up, {udp_down:.0} B/s down",
        per(|t| t.datagrams_out),
        per(|t| t.datagrams_in),
    );
    println!(
        "bandwidth per player (WebSocket frames + UDP payload): {:.0} B/s up, {:.0} B/s down",
        per(|t| t.bytes_out) + udp_up,
        per(|t| t.bytes_in) + udp_down
    );
    if let (Some(a), Some(b)) = (cpu_start, cpu_end) {
        let percent = ProcStats::cpu_percent(a, b);
        let micros = percent / 100.0 * 1e6 / total;
        println!("server CPU: {percent:.1}% of a core, {micros:.0} µs per player-second");
    }
    anyhow::ensure!(
        failed.is_empty() && desyncs == 0,
        "loadtest failed: {} players failed, {desyncs} desyncs",
        failed.len()
    );
    Ok(())
}
