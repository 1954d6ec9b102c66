//! Online subcommands: `loadtest` runs many concurrent matches of headless clients against a
//! server and reports relay latency, traffic and the server's CPU and memory.
//!
//! Each match is two [`HeadlessClient`](sevenbag_netplay::HeadlessClient)s with random inputs in a fresh first-to-99 room (so it
//! lasts the whole run), each on its own tokio task, exactly as a player's client would run.
//! Matches start staggered over a ramp; the measurement window opens a second after every
//! player's match has begun (bounded: one that has not by then fails, saying so) and lasts
//! `--seconds`. `--latency-ms`, `--jitter-ms` and `--loss` put every client behind an impairing
//! proxy (`sevenbag_netplay::delay_proxy`). Relay latency is measured on this machine's clock: both players of a match
//! share a [`RelayProbe`] that notes when each `Inputs` batch was handed to the sender's network
//! task and when the opponent's client took the relayed copy, keyed by (seat, confirmed frame).
//! Server CPU and memory come from `/proc/PID/stat` and `/proc/PID/status`, for a server started
//! with `--spawn-server` or named with `--server-pid`.
//!
//! `--social N` loads friends, presence and notifications instead of matches (`net_cmds/social.rs`).

mod players;
mod report;
mod rooms;
mod server;
mod social;

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use clap::Args;
use sevenbag_bot::{Bot, Level};
use sevenbag_netplay::{
    InputSource, RandomInputs, RelayProbe,
    delay_proxy::{Loss, Proxy, ProxyConfig},
    from_fn,
    udp_proxy::UdpProxy,
};

use players::{DONE, MEASURING, Resumed, SETUP_GRACE, WARMUP, failed, play, setup};
use report::{KillReport, ProcStats, Report};
use server::{Flavor, SpawnedServer};

/// Subcommands that work with servers.
#[derive(clap::Subcommand, Debug)]
pub enum NetCommand {
    /// Run N concurrent matches of headless clients with random inputs against a server and
    /// report relay latency, messages and bytes per second, and the server's CPU and RSS.
    Loadtest(LoadtestArgs),
}

/// Arguments of `loadtest`.
#[derive(Args, Debug)]
pub struct LoadtestArgs {
    /// Server to load, `ws://127.0.0.1:PORT/` (loopback only). Give it several times for
    /// instances of one cluster (`--redis`): the players are spread over them, each match's
    /// two players on different instances where there are two, and the report adds
    /// `cross-instance matches: N`.
    #[arg(long, conflicts_with = "spawn_server")]
    server: Vec<String>,
    /// Start a `sevenbag-server` on a free loopback port for the run (preferred: its CPU and
    /// memory are then measured too).
    #[arg(long)]
    spawn_server: bool,
    /// The server binary for `--spawn-server` (default: `sevenbag-server` next to this tool).
    #[arg(long)]
    server_bin: Option<PathBuf>,
    /// PID of the server given with `--server`, to read its CPU time and memory.
    #[arg(long)]
    server_pid: Option<u32>,
    /// Concurrent matches (two clients each), or rooms with `--players-per-room`.
    #[arg(long, default_value_t = 10)]
    matches: usize,
    /// Players per room, 2 to 8: general rooms of this many players instead of two-seat
    /// rooms' matches (2: the general room playing a versus match; inputs on the path `--path`
    /// picks, `--latency-ms`/`--jitter-ms`/`--loss` as in two-seat runs; not with --bot,
    /// --kill-at, or several --server).
    #[arg(long, value_name = "N")]
    players_per_room: Option<usize>,
    /// Length of the measurement window, in seconds.
    #[arg(long, default_value_t = 20)]
    seconds: u64,
    /// Seconds over which match starts are spread (default: matches / 200, 1 to 20).
    #[arg(long)]
    ramp_seconds: Option<f64>,
    /// Random play: least frames between hard drops.
    #[arg(long, default_value_t = 8)]
    drop_min: u32,
    /// Random play: most frames between hard drops.
    #[arg(long, default_value_t = 24)]
    drop_max: u32,
    /// Play with the bot at this level (beginner, easy, medium, hard, max) instead of random keys.
    #[arg(long, value_parser = parse_level)]
    bot: Option<Level>,
    /// Frames each client simulates per wake-up (1 = 60 Hz like the game; 2 halves the load
    /// generator's timer wake-ups, leaving more CPU to the server). Messages are handled on
    /// arrival either way.
    #[arg(long, default_value_t = 2)]
    tick_frames: u32,
    /// Play ranked matches: every player registers a generated identity and joins the ranked
    /// queue (so ratings move under load), which seats pairs in rooms of two seats (as
    /// `--players-per-room 2`, with one ranked match per pair, first to
    /// `--ranked-first-to`). The server needs a database; `--spawn-server` gives
    /// it one in a temporary directory. Relay latency is not measured in this mode (the queue,
    /// not the tool, decides who plays whom). Load players declare themselves bots, which a
    /// server refuses in ranked play unless started with `--ranked-bots` (and, from one
    /// machine, `--ranked-same-address`, `--ranked-pair-daily 0` and no registration limits):
    /// `--spawn-server` does that.
    #[arg(long)]
    ranked: bool,
    /// One-way latency added to every client connection, each way, by an order-keeping delaying
    /// proxy on loopback (so the round trip is about twice this). 0 = direct.
    #[arg(long, default_value_t = 0)]
    latency_ms: u64,
    /// Jitter added to `--latency-ms`: each chunk is delayed by latency ± jitter, in order.
    #[arg(long, default_value_t = 0)]
    jitter_ms: u64,
    /// Packet loss, in percent, each way. On the WebSocket (TCP) a lost chunk is not dropped
    /// but delivered `RETRANSMIT_DELAY` (220 ms) late, holding back every chunk behind it, as a
    /// TCP retransmission does (docs/NETPLAY.md, "Loss").
    #[arg(long, default_value_t = 0.0, value_name = "PERCENT")]
    loss: f64,
    /// Losses come in bursts of 1 to this many chunks or datagrams in a row.
    #[arg(long, default_value_t = 1, value_name = "N")]
    loss_burst: u32,
    /// Which path carries the players' inputs: `datagrams` (WebTransport over UDP, falling
    /// back to the WebSocket where it cannot open; the players' default) or `websocket` only.
    /// With `--loss`, datagrams are dropped for real by a UDP proxy on the TCP proxy's port
    /// number; loss starts with the measurement window, so every player starts on its path.
    #[arg(long, value_enum, default_value_t = InputPath::Datagrams)]
    path: InputPath,
    /// With --spawn-server: `kill -9` the server this many seconds into the window and start it
    /// again at once with the same flags. Players reconnect by themselves; the report says how
    /// many matches survived and how long the players took to resume.
    #[arg(long, requires = "spawn_server", value_name = "SECS")]
    kill_at: Option<f64>,
    /// Friends and presence instead of matches: N identified players befriend each other in
    /// rings, appear offline and online again twice, invite a friend into a room, and the
    /// report's last line counts the presence pushes, invites and notifications delivered
    /// (`social: presence A/B delivered, ...`; non-zero exit on any loss). The server needs a
    /// database and no per-address registration limit: `--spawn-server` starts one so.
    #[arg(long, value_name = "N", conflicts_with_all = ["players_per_room", "ranked", "bot", "kill_at"])]
    social: Option<usize>,
}

impl LoadtestArgs {
    /// Whether clients go through the impairing proxy (latency, jitter or loss).
    fn impaired(&self) -> bool {
        self.latency_ms > 0 || self.jitter_ms > 0 || self.loss > 0.0
    }
}

/// `--path`: what carries the players' inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum InputPath {
    /// Datagrams (WebTransport), the WebSocket for the rest.
    Datagrams,
    /// Everything over the WebSocket.
    Websocket,
}

/// The impairing proxies every client goes through: TCP for the WebSocket, UDP on the same port
/// number for the datagrams.
struct Impairment {
    tcp: Proxy,
    udp: UdpProxy,
    loss: Loss,
}

impl Impairment {
    /// Turns the loss on (at the start of the measurement window).
    fn start_loss(&self) {
        self.tcp.set_loss(self.loss);
        self.udp.set_loss(self.loss);
    }
}

fn parse_level(s: &str) -> Result<Level, String> {
    Level::from_name(s).ok_or_else(|| {
        let names: Vec<_> = Level::ALL.iter().map(|l| l.name()).collect();
        format!("unknown bot level {s:?}: use one of {}", names.join(", "))
    })
}

/// How the load players choose their keys.
#[derive(Clone, Copy, Debug)]
enum Keys {
    /// Random keys with a hard drop every `min..=max` frames.
    Random(u32, u32),
    /// The bot at this level.
    Bot(Level),
}

impl Keys {
    fn source(self, seed: u64) -> Box<dyn InputSource + Send> {
        match self {
            Keys::Random(min, max) => Box::new(RandomInputs::new(seed).with_drop_every(min, max)),
            Keys::Bot(level) => {
                let mut bot = Bot::new(level);
                Box::new(from_fn(move |m, seat| bot.next_input(m, seat)))
            }
        }
    }
}

/// Runs an online subcommand.
pub fn run(command: NetCommand) -> anyhow::Result<()> {
    match command {
        NetCommand::Loadtest(args) => loadtest(args),
    }
}

/// Longest window accepted, so a typo cannot load the machine for hours.
const MAX_SECONDS: u64 = 600;
/// Most matches accepted (the server's default room limit).
const MAX_MATCHES: usize = 5_000;
/// Most one-way latency or jitter accepted, in ms.
const MAX_LATENCY_MS: u64 = 2_000;
/// Most loss accepted, in percent.
const MAX_LOSS_PERCENT: f64 = 50.0;
/// Longest loss burst accepted.
const MAX_LOSS_BURST: u32 = 20;

fn loadtest(args: LoadtestArgs) -> anyhow::Result<()> {
    anyhow::ensure!(
        (1..=MAX_MATCHES).contains(&args.matches),
        "--matches must be 1..={MAX_MATCHES}"
    );
    anyhow::ensure!(
        (1..=MAX_SECONDS).contains(&args.seconds),
        "--seconds must be 1..={MAX_SECONDS}"
    );
    anyhow::ensure!(
        args.drop_min >= 1 && args.drop_max >= args.drop_min,
        "bad drop interval"
    );
    anyhow::ensure!(
        args.latency_ms <= MAX_LATENCY_MS && args.jitter_ms <= MAX_LATENCY_MS,
        "--latency-ms and --jitter-ms must be 0..={MAX_LATENCY_MS}"
    );
    anyhow::ensure!(
        (0.0..=MAX_LOSS_PERCENT).contains(&args.loss)
            && (1..=MAX_LOSS_BURST).contains(&args.loss_burst),
        "--loss must be 0..={MAX_LOSS_PERCENT} (percent) and --loss-burst 1..={MAX_LOSS_BURST}"
    );
    let ramp = args
        .ramp_seconds
        .unwrap_or((args.matches as f64 / 200.0).clamp(1.0, 20.0));
    anyhow::ensure!(
        (0.0..=120.0).contains(&ramp),
        "--ramp-seconds must be 0..=120"
    );

    if let Some(at) = args.kill_at {
        anyhow::ensure!(
            at >= 0.0 && at < args.seconds as f64 && !args.ranked,
            "--kill-at must fall inside the window (0..--seconds), and not with --ranked"
        );
    }
    let mut spawned = None;
    let flavor = match (args.ranked, args.social) {
        (true, _) => Flavor::Ranked,
        (false, Some(_)) => Flavor::Social,
        (false, None) => Flavor::Plain,
    };
    let (urls, server_pid) = match (args.server.as_slice(), args.spawn_server) {
        (urls @ [_, ..], false) => {
            for url in urls {
                anyhow::ensure!(
                    url.starts_with("ws://127.") || url.starts_with("ws://localhost"),
                    "load tests run against loopback servers only (ws://127.x.x.x or localhost)"
                );
            }
            anyhow::ensure!(
                urls.len() == 1 || !args.impaired(),
                "--latency-ms, --jitter-ms and --loss take one --server"
            );
            (urls.to_vec(), args.server_pid)
        }
        ([], true) => {
            let rooms = args.social.unwrap_or(args.matches);
            let server = SpawnedServer::start(args.server_bin.clone(), rooms, flavor)?;
            let url = server.url.clone();
            let pid = server.child.id();
            spawned = Some(server);
            (vec![url], Some(pid))
        }
        _ => bail!("give either --server URL (once or more) or --spawn-server"),
    };
    let url = urls[0].clone();

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the tokio runtime")?;
    if let Some(n) = args.social {
        anyhow::ensure!(!args.impaired(), "--social takes no impairment");
        let report = runtime.block_on(social::run(urls, n, args.seconds));
        let rss = server_pid.and_then(|pid| ProcStats::read(pid).ok());
        drop(spawned);
        let report = report?;
        eprintln!(
            "{} players, {} failed; {} invited friends joined; notifications {} sent, {} delivered; {:.1} s{}",
            report.players,
            report.failed,
            report.joins,
            report.notifications.0,
            report.notifications.1,
            report.took.as_secs_f64(),
            rss.map_or(String::new(), |r| format!(
                "; server RSS {} MiB",
                r.rss_kib / 1024
            )),
        );
        if !report.clean() {
            eprintln!("loadtest --social failed: something was lost or a player failed");
        }
        // The report's line is the run's last; scripts read the exit status.
        println!("{}", report.line());
        if !report.clean() {
            drop(runtime);
            std::process::exit(1);
        }
        return Ok(());
    }
    // Ranked matches are rooms of the general kind: two seats each, seated by the queue.
    let players_per_room = match (args.players_per_room, args.ranked) {
        (None, true) => Some(2),
        (n, _) => n,
    };
    if let Some(n) = players_per_room {
        let seats = sevenbag_protocol::MIN_ROOM_SEATS..=sevenbag_protocol::MAX_ROOM_SEATS;
        anyhow::ensure!(
            seats.contains(&n),
            "--players-per-room must be {}..={}",
            seats.start(),
            seats.end()
        );
        anyhow::ensure!(
            args.bot.is_none() && args.kill_at.is_none() && urls.len() == 1,
            "--players-per-room and --ranked take one server and random keys"
        );
        anyhow::ensure!(
            !args.ranked || n == 2,
            "--ranked plays matches of two players"
        );
        let result = runtime.block_on(async {
            let proxy = impairment(&args, &url).await?;
            let url = proxy.as_ref().map_or(url.clone(), |p| p.tcp.url());
            let result = rooms::run(&url, server_pid, n, &args, proxy.as_ref()).await;
            if let Some(p) = &proxy {
                let (relayed, dropped) = p.udp.counts();
                eprintln!("UDP proxy: {relayed} datagrams relayed, {dropped} dropped");
            }
            result
        });
        drop(spawned);
        return result;
    }
    let report = runtime.block_on(async {
        let proxy = impairment(&args, &url).await?;
        let urls = match &proxy {
            Some(p) => vec![p.tcp.url()],
            None => urls.clone(),
        };
        let report = drive(
            &args,
            &urls,
            ramp,
            server_pid,
            spawned.as_mut(),
            proxy.as_ref(),
        )
        .await;
        if let Some(p) = &proxy {
            let (relayed, dropped) = p.udp.counts();
            eprintln!("UDP proxy: {relayed} datagrams relayed, {dropped} dropped");
        }
        report
    });
    drop(spawned);
    let report = report?;
    println!("{report}");
    // Scripts and CI read the exit status: a failed player or any desync fails the run.
    anyhow::ensure!(
        report.failed == 0 && report.desyncs == 0,
        "loadtest failed: {} players failed, {} desyncs",
        report.failed,
        report.desyncs
    );
    Ok(())
}

/// With --latency-ms/--jitter-ms/--loss, the impairing proxies every client goes through
/// (lossless until the window opens); `None` without impairment.
async fn impairment(args: &LoadtestArgs, url: &str) -> anyhow::Result<Option<Impairment>> {
    if !args.impaired() {
        return Ok(None);
    }
    let upstream = loopback_addr(url)?;
    let config = ProxyConfig::latency(
        Duration::from_millis(args.latency_ms),
        Duration::from_millis(args.jitter_ms),
        1,
    );
    let (tcp, udp) = Proxy::start_pair(upstream, config, config).await?;
    Ok(Some(Impairment {
        tcp,
        udp,
        loss: Loss::bursts(args.loss / 100.0, args.loss_burst),
    }))
}

/// The socket address of a `ws://HOST:PORT/` loopback URL (for the delaying proxy).
fn loopback_addr(url: &str) -> anyhow::Result<std::net::SocketAddr> {
    use std::net::ToSocketAddrs as _;
    let host_port = url
        .strip_prefix("ws://")
        .and_then(|r| r.split('/').next())
        .context("the server URL must look like ws://127.0.0.1:PORT/")?;
    host_port
        .to_socket_addrs()?
        .find(|a| a.ip().is_loopback())
        .context("the server URL is not a loopback address")
}

/// Runs every match and gathers the report.
async fn drive(
    args: &LoadtestArgs,
    urls: &[String],
    ramp: f64,
    server_pid: Option<u32>,
    mut spawned: Option<&mut SpawnedServer>,
    impairment: Option<&Impairment>,
) -> anyhow::Result<Report> {
    let t0 = Instant::now();
    let resumed = Arc::new(Resumed::new(args.kill_at.is_some()));
    let phase = Arc::new(AtomicU8::new(WARMUP));
    let settled = Arc::new(AtomicUsize::new(0));
    // Players whose match has begun (they simulated a frame), and players set up to play.
    let playing = Arc::new(AtomicUsize::new(0));
    let set_up = Arc::new(AtomicUsize::new(0));
    let mut probes = Vec::with_capacity(args.matches);
    let mut tasks = Vec::with_capacity(args.matches);
    for i in 0..args.matches {
        let probe = Arc::new(RelayProbe::new());
        probes.push(Arc::clone(&probe));
        let start = t0 + Duration::from_secs_f64(ramp * i as f64 / args.matches as f64);
        // Match i's two players start on instances i and i + 1 (the same one if only one).
        let pair = [
            urls[i % urls.len()].clone(),
            urls[(i + 1) % urls.len()].clone(),
        ];
        let keys = match args.bot {
            Some(level) => Keys::Bot(level),
            None => Keys::Random(args.drop_min, args.drop_max),
        };
        let tick_frames = args.tick_frames;
        let datagrams = args.path == InputPath::Datagrams;
        let reconnect = args.kill_at.is_some();
        let resumed = Arc::clone(&resumed);
        let phase = Arc::clone(&phase);
        let settled = Arc::clone(&settled);
        let playing = Arc::clone(&playing);
        let set_up = Arc::clone(&set_up);
        // One task sets the match up, then each player plays on its own task.
        tasks.push(tokio::spawn(async move {
            tokio::time::sleep_until(start.into()).await;
            let setup = setup(&pair, i, probe, tick_frames, reconnect, datagrams)
                .await
                .map_err(|e| e.to_string());
            if setup.is_ok() {
                set_up.fetch_add(2, Ordering::Relaxed);
            }
            settled.fetch_add(1, Ordering::Relaxed);
            match setup {
                Ok((a, b)) => {
                    // Both players ended up on one instance; they came from two.
                    let cross = pair[0] != pair[1] && a.url() == b.url();
                    let pa = tokio::spawn(play(
                        a,
                        i as u64 * 2,
                        keys,
                        Arc::clone(&phase),
                        Arc::clone(&resumed),
                        Arc::clone(&playing),
                    ));
                    let pb = tokio::spawn(play(b, i as u64 * 2 + 1, keys, phase, resumed, playing));
                    let mut a = pa.await.unwrap_or_else(|e| failed(e.to_string()));
                    let b = pb.await.unwrap_or_else(|e| failed(e.to_string()));
                    a.cross_instance = cross;
                    vec![a, b]
                }
                Err(e) => vec![failed(format!("setup: {e}")), failed(format!("setup: {e}"))],
            }
        }));
    }

    // Wait (bounded) until every match is set up, then a second for them to settle.
    let setup_deadline = t0 + Duration::from_secs_f64(ramp) + SETUP_GRACE;
    while settled.load(Ordering::Relaxed) < args.matches && Instant::now() < setup_deadline {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let late = args.matches - settled.load(Ordering::Relaxed);
    if late > 0 {
        eprintln!("{late} matches still setting up; measuring without them");
    }
    // The window opens once every player set up is playing (its match began: at a long round
    // trip with loss, a match set up last can take seconds), bounded; then a second to settle.
    // A player still not playing then is reported as failed, saying so.
    let trip = Duration::from_millis(2 * (args.latency_ms + args.jitter_ms));
    let start_deadline = Instant::now() + Duration::from_secs(10) + 8 * trip;
    while playing.load(Ordering::Relaxed) < set_up.load(Ordering::Relaxed)
        && Instant::now() < start_deadline
    {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let waiting = set_up
        .load(Ordering::Relaxed)
        .saturating_sub(playing.load(Ordering::Relaxed));
    if waiting > 0 {
        eprintln!("{waiting} players' matches have not begun; measuring without them");
    }
    tokio::time::sleep(Duration::from_secs(1)).await;

    // The window: forget latencies from the ramp, note CPU times at both ends.
    for p in &probes {
        p.take_samples();
    }
    let cpu_start = server_pid.and_then(|pid| ProcStats::read(pid).ok());
    let self_start = ProcStats::read_self().ok();
    if let Some(impairment) = impairment {
        impairment.start_loss();
    }
    phase.store(MEASURING, Ordering::Relaxed);
    let window_start = Instant::now();
    let window_end = window_start + Duration::from_secs(args.seconds);
    let mut kill_at = args
        .kill_at
        .map(|s| window_start + Duration::from_secs_f64(s));
    let mut restarted_in = None;
    let mut rss_peak = 0u64;
    while Instant::now() < window_end {
        if let (Some(at), Some(server)) = (kill_at, spawned.as_deref_mut())
            && Instant::now() >= at
        {
            kill_at = None;
            let killed = Instant::now();
            resumed.killed(killed);
            tokio::task::block_in_place(|| server.kill_and_restart())?;
            restarted_in = Some(killed.elapsed());
            eprintln!(
                "killed the server with SIGKILL and started it again (listening after {:?})",
                killed.elapsed()
            );
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
        if let Some(s) = server_pid.and_then(|pid| ProcStats::read(pid).ok()) {
            rss_peak = rss_peak.max(s.rss_kib);
        }
    }
    phase.store(DONE, Ordering::Relaxed);
    let cpu_end = server_pid.and_then(|pid| ProcStats::read(pid).ok());
    let self_end = ProcStats::read_self().ok();
    let mut latencies: Vec<u32> = Vec::new();
    for p in &probes {
        latencies.extend(p.take_samples());
    }

    let mut players = Vec::with_capacity(args.matches * 2);
    for t in tasks {
        // Players notice the end within a frame or two; a stuck one is not waited for long.
        match tokio::time::timeout(Duration::from_secs(10), t).await {
            Ok(Ok(outcomes)) => players.extend(outcomes),
            Ok(Err(e)) => players.push(failed(e.to_string())),
            Err(_) => players.push(failed("did not stop".into())),
        }
    }
    let kill = args.kill_at.map(|at| {
        KillReport {
            restarted_in,
            resumed: resumed.take(),
        }
        .line(at, &players)
    });
    let report = Report::build(
        args,
        ramp,
        latencies,
        players,
        cpu_start.zip(cpu_end),
        self_start.zip(self_end),
        rss_peak,
    );
    Ok(match kill {
        Some(line) => Report {
            text: format!("{}\n{line}", report.text.trim_end()),
            ..report
        },
        None => report,
    })
}
