//! Online subcommands: `loadtest` runs many concurrent matches of headless clients against a
//! server and reports relay latency, traffic and the server's CPU and memory.
//!
//! Each match is two [`HeadlessClient`]s with random inputs in a fresh first-to-99 room (so it
//! lasts the whole run), each on its own tokio task, exactly as a player's client would run.
//! Matches start staggered over a ramp; the measurement window opens a second after every match
//! is set up and lasts `--seconds`. Relay latency is measured on this machine's clock: both players of a match
//! share a [`RelayProbe`] that notes when each `Inputs` batch was handed to the sender's network
//! task and when the opponent's client took the relayed copy, keyed by (seat, confirmed frame).
//! Server CPU and memory come from `/proc/PID/stat` and `/proc/PID/status`, for a server started
//! with `--spawn-server` or named with `--server-pid`.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use clap::Args;
use sevenbag_bot::{Bot, Level};
use sevenbag_netplay::{
    HeadlessClient, HeadlessConfig, HeadlessError, InputSource, MessageKind, NetStats,
    RandomInputs, RelayProbe, SessionStats,
    delay_proxy::{Proxy, ProxyConfig},
    from_fn,
};
use sevenbag_protocol::{ClientMessage, JoinRole, RoomOptions};

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
    /// Concurrent matches (two clients each).
    #[arg(long, default_value_t = 10)]
    matches: usize,
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
    /// queue (so ratings move under load). The server needs a database; `--spawn-server` gives
    /// it one in a temporary directory. Relay latency is not measured in this mode (the queue,
    /// not the tool, decides who plays whom).
    #[arg(long)]
    ranked: bool,
    /// One-way latency added to every client connection, each way, by an order-keeping delaying
    /// proxy on loopback (so the round trip is about twice this). 0 = direct.
    #[arg(long, default_value_t = 0)]
    latency_ms: u64,
    /// Jitter added to `--latency-ms`: each chunk is delayed by latency ± jitter, in order.
    #[arg(long, default_value_t = 0)]
    jitter_ms: u64,
    /// With --spawn-server: `kill -9` the server this many seconds into the window and start it
    /// again at once with the same flags. Players reconnect by themselves; the report says how
    /// many matches survived and how long the players took to resume.
    #[arg(long, requires = "spawn_server", value_name = "SECS")]
    kill_at: Option<f64>,
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
    let (urls, server_pid) = match (args.server.as_slice(), args.spawn_server) {
        (urls @ [_, ..], false) => {
            for url in urls {
                anyhow::ensure!(
                    url.starts_with("ws://127.") || url.starts_with("ws://localhost"),
                    "load tests run against loopback servers only (ws://127.x.x.x or localhost)"
                );
            }
            anyhow::ensure!(
                urls.len() == 1 || (args.latency_ms == 0 && args.jitter_ms == 0),
                "--latency-ms and --jitter-ms take one --server"
            );
            (urls.to_vec(), args.server_pid)
        }
        ([], true) => {
            let server = SpawnedServer::start(args.server_bin.clone(), args.matches, args.ranked)?;
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
    let report = runtime.block_on(async {
        // With --latency-ms/--jitter-ms every client goes through the delaying proxy.
        let proxy = if args.latency_ms > 0 || args.jitter_ms > 0 {
            let upstream = loopback_addr(&url)?;
            let config = ProxyConfig::latency(
                Duration::from_millis(args.latency_ms),
                Duration::from_millis(args.jitter_ms),
                1,
            );
            Some(Proxy::start(upstream, config).await?)
        } else {
            None
        };
        let urls = match &proxy {
            Some(p) => vec![p.url()],
            None => urls.clone(),
        };
        drive(&args, &urls, ramp, server_pid, spawned.as_mut()).await
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

/// A server process started for the run; killed when dropped.
struct SpawnedServer {
    child: Child,
    url: String,
    replay_dir: PathBuf,
    /// How it was started, to start it again the same way (`--kill-at`).
    bin: PathBuf,
    port: u16,
    matches: usize,
    ranked: bool,
}

impl SpawnedServer {
    fn start(bin: Option<PathBuf>, matches: usize, ranked: bool) -> anyhow::Result<SpawnedServer> {
        let bin = match bin {
            Some(bin) => bin,
            None => std::env::current_exe()
                .context("cannot find this tool's own path")?
                .with_file_name("sevenbag-server"),
        };
        anyhow::ensure!(
            bin.exists(),
            "no server binary at {} (build it: cargo build --release -p sevenbag-server, or pass --server-bin)",
            bin.display()
        );
        // A free port: bind :0, note it, let it go (the server binds it a moment later).
        let port = TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
        let replay_dir =
            std::env::temp_dir().join(format!("sevenbag-loadtest-{}", std::process::id()));
        std::fs::create_dir_all(&replay_dir)?;
        let child = Self::spawn(&bin, port, &replay_dir, matches, ranked)?;
        let server = SpawnedServer {
            child,
            url: format!("ws://127.0.0.1:{port}/"),
            replay_dir,
            bin,
            port,
            matches,
            ranked,
        };
        server.wait_listening()?;
        eprintln!(
            "started {} (pid {}) on {}",
            server.bin.display(),
            server.child.id(),
            server.url
        );
        Ok(server)
    }

    /// `kill -9` and start again with the same flags (same port, replay and room log
    /// directories); returns once the new process listens.
    fn kill_and_restart(&mut self) -> anyhow::Result<()> {
        self.child.kill()?;
        self.child.wait()?;
        self.child = Self::spawn(
            &self.bin,
            self.port,
            &self.replay_dir,
            self.matches,
            self.ranked,
        )?;
        self.wait_listening()
    }

    fn spawn(
        bin: &std::path::Path,
        port: u16,
        replay_dir: &std::path::Path,
        matches: usize,
        ranked: bool,
    ) -> anyhow::Result<Child> {
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(replay_dir.join("server.log"))?;
        let mut command = Command::new(bin);
        if ranked {
            command.arg("--db").arg(replay_dir.join("loadtest.db"));
        } else {
            command.arg("--no-db");
        }
        let child = command
            .arg("--bind")
            .arg(format!("127.0.0.1:{port}"))
            .arg("--replay-dir")
            .arg(replay_dir)
            .arg("--max-connections")
            .arg((2 * matches + 100).max(10_000).to_string())
            .arg("--max-rooms")
            .arg((matches + 10).max(5_000).to_string())
            .env(
                "RUST_LOG",
                std::env::var("RUST_LOG").unwrap_or_else(|_| "warn".into()),
            )
            .stdin(Stdio::null())
            .stdout(log.try_clone()?)
            .stderr(log)
            .spawn()
            .with_context(|| format!("cannot start {}", bin.display()))?;
        Ok(child)
    }

    /// Waits (bounded) until the server accepts connections.
    fn wait_listening(&self) -> anyhow::Result<()> {
        let deadline = Instant::now() + Duration::from_secs(10);
        while std::net::TcpStream::connect(("127.0.0.1", self.port)).is_err() {
            anyhow::ensure!(
                Instant::now() < deadline,
                "the server did not start listening in 10 s"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
        Ok(())
    }
}

impl Drop for SpawnedServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.replay_dir);
    }
}

/// What one player measured during the window.
#[derive(Debug, Default)]
struct PlayerOutcome {
    /// Took part for the whole window.
    ok: bool,
    error: Option<String>,
    traffic: NetStats,
    session: SessionStats,
    desyncs: usize,
    server_errors: usize,
    /// Input delay in frames at the end of the window.
    input_delay: Option<u32>,
    /// Smoothed round trip at the end of the window.
    ping: Option<Duration>,
    /// (First player of a match only) its two players started on different instances and
    /// met on one.
    cross_instance: bool,
}

/// Where the run is: players take their before/after readings when this changes.
const WARMUP: u8 = 0;
const MEASURING: u8 = 1;
const DONE: u8 = 2;

/// Runs every match and gathers the report.
async fn drive(
    args: &LoadtestArgs,
    urls: &[String],
    ramp: f64,
    server_pid: Option<u32>,
    mut spawned: Option<&mut SpawnedServer>,
) -> anyhow::Result<Report> {
    let t0 = Instant::now();
    let resumed = Arc::new(Resumed::default());
    resumed
        .expected
        .store(args.kill_at.is_some(), Ordering::Relaxed);
    let phase = Arc::new(AtomicU8::new(WARMUP));
    let settled = Arc::new(AtomicUsize::new(0));
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
        let ranked = args.ranked;
        let reconnect = args.kill_at.is_some();
        let resumed = Arc::clone(&resumed);
        let phase = Arc::clone(&phase);
        let settled = Arc::clone(&settled);
        // One task sets the match up, then each player plays on its own task.
        tasks.push(tokio::spawn(async move {
            tokio::time::sleep_until(start.into()).await;
            let setup = if ranked {
                ranked_setup(&pair, i, tick_frames).await
            } else {
                setup(&pair, i, probe, tick_frames, reconnect)
                    .await
                    .map_err(|e| e.to_string())
            };
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
                    ));
                    let pb = tokio::spawn(play(b, i as u64 * 2 + 1, keys, phase, resumed));
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
    // A second to settle, plus the few round trips a distant match needs to get going.
    let trip = Duration::from_millis(2 * (args.latency_ms + args.jitter_ms));
    tokio::time::sleep(Duration::from_secs(1) + 4 * trip).await;

    // The window: forget latencies from the ramp, note CPU times at both ends.
    for p in &probes {
        p.take_samples();
    }
    let cpu_start = server_pid.and_then(|pid| ProcStats::read(pid).ok());
    let self_start = ProcStats::read_self().ok();
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

/// How long after the ramp match setups may still finish.
const SETUP_GRACE: Duration = Duration::from_secs(30);

fn failed(error: String) -> PlayerOutcome {
    PlayerOutcome {
        error: Some(error),
        ..PlayerOutcome::default()
    }
}

/// Connects both players of match `i`, puts them in a room and readies them.
async fn setup(
    urls: &[String; 2],
    i: usize,
    probe: Arc<RelayProbe>,
    frames_per_tick: u32,
    reconnect: bool,
) -> Result<(HeadlessClient, HeadlessClient), HeadlessError> {
    let config = |name: String| HeadlessConfig {
        probe: Some(Arc::clone(&probe)),
        frames_per_tick,
        // The room's reconnect window (15 s by default).
        auto_reconnect: reconnect
            .then(|| Duration::from_secs(u64::from(RoomOptions::default().reconnect_seconds))),
        ..HeadlessConfig::new(name)
    };
    let mut a = HeadlessClient::connect(&urls[0], config(format!("load-{i}-a"))).await?;
    let options = RoomOptions {
        first_to: 99,
        ..RoomOptions::default()
    };
    let code = a.create_room(options).await?;
    // On another instance, `join_room` follows the redirect to the room's instance.
    let mut b = HeadlessClient::connect(&urls[1], config(format!("load-{i}-b"))).await?;
    b.join_room(&code, JoinRole::Player).await?;
    a.ready()?;
    b.ready()?;
    Ok((a, b))
}

/// Letters that no name folding touches, for generated names.
const NAME_LETTERS: &[u8] = b"cdefghjkmpqtuxy";

fn letters(mut n: u64, len: usize) -> String {
    let base = NAME_LETTERS.len() as u64;
    (0..len)
        .map(|_| {
            let c = NAME_LETTERS[(n % base) as usize] as char;
            n /= base;
            c
        })
        .collect()
}

fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// Connects both players of ranked match `i` with fresh identities and queues them; returns
/// once each is seated (the queue may pair them with players of other matches).
async fn ranked_setup(
    urls: &[String; 2],
    i: usize,
    frames_per_tick: u32,
) -> Result<(HeadlessClient, HeadlessClient), String> {
    let run = u64::from(std::process::id())
        ^ std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
    let join = |side: u64| async move {
        let name = format!("ld{}{}", letters(run, 4), letters(i as u64 * 2 + side, 4));
        let config = HeadlessConfig {
            frames_per_tick,
            ..HeadlessConfig::new(name.clone())
        };
        let url = &urls[side as usize];
        let mut c = HeadlessClient::connect(url, config)
            .await
            .map_err(|e| e.to_string())?;
        let mut key = [0u8; 32];
        let mut state = splitmix(run.rotate_left(17) ^ (i as u64 * 2 + side));
        for chunk in key.chunks_mut(8) {
            state = splitmix(state);
            chunk.copy_from_slice(&state.to_le_bytes());
        }
        c.send(ClientMessage::Register { key, name })
            .map_err(|e| e.to_string())?;
        // Identifies again and queues; a cluster may send the player to another instance.
        c.ranked_match(key, SETUP_GRACE)
            .await
            .map_err(|e| e.to_string())?;
        if let Some(e) = c.errors().first() {
            return Err(format!("{e:?}"));
        }
        Ok::<_, String>(c)
    };
    let (a, b) = tokio::join!(join(0), join(1));
    Ok((a?, b?))
}

/// Plays until the run is over, noting traffic and session counters over the window.
async fn play(
    mut client: HeadlessClient,
    seed: u64,
    keys: Keys,
    phase: Arc<AtomicU8>,
    resumed: Arc<Resumed>,
) -> PlayerOutcome {
    let mut keys = keys.source(seed);
    let limit = Duration::from_secs(MAX_SECONDS);
    // A lost connection ends a player's run, unless it reconnects by itself (`--kill-at`).
    let lost = |c: &HeadlessClient| !c.is_connected() && c.room().is_none();
    let lost_any = |c: &HeadlessClient| !c.is_connected();
    let reconnecting = resumed.expected();
    let first = client
        .run_until(&mut keys, limit, |c| {
            phase.load(Ordering::Relaxed) >= MEASURING
                || if reconnecting { lost(c) } else { lost_any(c) }
        })
        .await;
    let measured = phase.load(Ordering::Relaxed) == MEASURING;
    let before = client.stats();
    let mut seen = client.reconnects();
    let second = client
        .run_until(&mut keys, limit, |c| {
            if c.reconnects() > seen {
                seen = c.reconnects();
                resumed.reconnected();
            }
            phase.load(Ordering::Relaxed) >= DONE
                || if reconnecting { lost(c) } else { lost_any(c) }
        })
        .await;
    let after = client.stats();
    let mut outcome = PlayerOutcome {
        ok: measured && client.is_connected() && before.session.frames > 0,
        error: None,
        traffic: after.net.since(&before.net),
        session: SessionStats {
            frames: after.session.frames - before.session.frames,
            rollbacks: after.session.rollbacks - before.session.rollbacks,
            resimulated_frames: after.session.resimulated_frames
                - before.session.resimulated_frames,
            stall_frames: after.session.stall_frames - before.session.stall_frames,
            max_rollback_depth: after.session.max_rollback_depth,
            rebuilds: after.session.rebuilds,
            desyncs: after.session.desyncs,
        },
        desyncs: client.desyncs().len(),
        server_errors: client.errors().len(),
        input_delay: client.session().map(|s| s.options().input_delay),
        ping: after.ping,
        cross_instance: false,
    };
    if !outcome.ok {
        outcome.error = Some(format!(
            "{}: {:?} / {:?} / {:?}",
            client.names()[0],
            first.err(),
            second.err(),
            client.disconnect_reason()
        ));
    }
    let _ = client.leave();
    outcome
}

/// When the server was killed (`--kill-at`) and how long each player took to reconnect.
#[derive(Debug, Default)]
struct Resumed {
    expected: std::sync::atomic::AtomicBool,
    inner: std::sync::Mutex<(Option<Instant>, Vec<Duration>)>,
}

impl Resumed {
    fn killed(&self, at: Instant) {
        if let Ok(mut inner) = self.inner.lock() {
            inner.0 = Some(at);
        }
    }

    fn expected(&self) -> bool {
        self.expected.load(Ordering::Relaxed)
    }

    fn reconnected(&self) {
        if let Ok(mut inner) = self.inner.lock()
            && let Some(at) = inner.0
        {
            inner.1.push(at.elapsed());
        }
    }

    fn take(&self) -> Vec<Duration> {
        self.inner
            .lock()
            .map(|mut i| std::mem::take(&mut i.1))
            .unwrap_or_default()
    }
}

/// What `--kill-at` measured.
#[derive(Debug)]
struct KillReport {
    /// From the kill until the new process listened.
    restarted_in: Option<Duration>,
    /// From the kill until each player was back in its match.
    resumed: Vec<Duration>,
}

impl KillReport {
    /// The report's line: matches that survived (both players in the whole window; players
    /// come in pairs, one pair per match) and how long resuming took.
    fn line(self, at: f64, players: &[PlayerOutcome]) -> String {
        let survived = players.chunks(2).filter(|m| m.iter().all(|p| p.ok)).count();
        let mut resumed = self.resumed;
        resumed.sort_unstable();
        let q = |p: f64| {
            resumed
                .get(((resumed.len().max(1) - 1) as f64 * p).round() as usize)
                .map_or(f64::NAN, |d| d.as_secs_f64())
        };
        format!(
            "kill -9 at {at:.1} s into the window: {survived} of {} matches survived; server listening again after {:.2} s; players back in their match: {} of {}, p50 {:.2} s, max {:.2} s after the kill",
            players.len() / 2,
            self.restarted_in.map_or(f64::NAN, |d| d.as_secs_f64()),
            resumed.len(),
            players.len(),
            q(0.5),
            q(1.0),
        )
    }
}

/// CPU time and memory of a process, from /proc.
#[derive(Clone, Copy, Debug)]
struct ProcStats {
    /// utime + stime, in clock ticks (USER_HZ, 100 on Linux).
    cpu_ticks: u64,
    rss_kib: u64,
    at: Instant,
}

impl ProcStats {
    fn read(pid: u32) -> anyhow::Result<ProcStats> {
        Self::read_path(&format!("/proc/{pid}"))
    }

    fn read_self() -> anyhow::Result<ProcStats> {
        Self::read_path("/proc/self")
    }

    fn read_path(dir: &str) -> anyhow::Result<ProcStats> {
        let stat = std::fs::read_to_string(format!("{dir}/stat"))?;
        // Fields after the command name (which may hold spaces) start after the last ')'.
        let rest = stat
            .rsplit_once(')')
            .map(|(_, r)| r)
            .context("odd /proc stat")?;
        let fields: Vec<&str> = rest.split_whitespace().collect();
        // utime and stime are fields 14 and 15 of the whole line: 11 and 12 after ')'.
        let ticks = |i: usize| -> anyhow::Result<u64> {
            Ok(fields.get(i).context("short /proc stat")?.parse()?)
        };
        let cpu_ticks = ticks(11)? + ticks(12)?;
        let status = std::fs::read_to_string(format!("{dir}/status"))?;
        let rss_kib = status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse().ok())
            .unwrap_or(0);
        Ok(ProcStats {
            cpu_ticks,
            rss_kib,
            at: Instant::now(),
        })
    }

    /// CPU used between two readings, in percent of one core.
    fn cpu_percent(a: ProcStats, b: ProcStats) -> f64 {
        let secs = b.at.duration_since(a.at).as_secs_f64().max(1e-9);
        (b.cpu_ticks.saturating_sub(a.cpu_ticks)) as f64 / 100.0 / secs * 100.0
    }
}

/// The numbers printed at the end.
#[derive(Debug)]
struct Report {
    text: String,
    /// Players that did not take part in the whole window.
    failed: usize,
    /// Desyncs reported to any player.
    desyncs: usize,
}

impl Report {
    fn build(
        args: &LoadtestArgs,
        ramp: f64,
        mut latencies: Vec<u32>,
        players: Vec<PlayerOutcome>,
        server: Option<(ProcStats, ProcStats)>,
        generator: Option<(ProcStats, ProcStats)>,
        rss_peak: u64,
    ) -> Report {
        use std::fmt::Write as _;
        let secs = args.seconds as f64;
        let ok: Vec<&PlayerOutcome> = players.iter().filter(|p| p.ok).collect();
        let n = ok.len().max(1) as f64;
        let sum = |f: &dyn Fn(&PlayerOutcome) -> u64| ok.iter().map(|p| f(p)).sum::<u64>();
        latencies.sort_unstable();
        let pct = |p: f64| -> f64 {
            if latencies.is_empty() {
                return f64::NAN;
            }
            let i = ((latencies.len() as f64 - 1.0) * p).round() as usize;
            f64::from(latencies[i]) / 1000.0
        };
        let mut t = String::new();
        let _ = writeln!(
            t,
            "loadtest: {} matches ({} players), {} s window after a {:.1} s ramp",
            args.matches,
            players.len(),
            args.seconds,
            ramp
        );
        let _ = writeln!(
            t,
            "players in the window: {} ok, {} failed",
            ok.len(),
            players.len() - ok.len()
        );
        for p in players.iter().filter_map(|p| p.error.as_ref()).take(5) {
            let _ = writeln!(t, "  failure: {p}");
        }
        let _ = writeln!(
            t,
            "relay latency (send -> opponent receive): {} samples, p50 {:.2} ms, p99 {:.2} ms, p99.9 {:.2} ms, max {:.2} ms",
            latencies.len(),
            pct(0.5),
            pct(0.99),
            pct(0.999),
            pct(1.0)
        );
        let out_msgs = sum(&|p| p.traffic.messages_out) as f64;
        let in_msgs = sum(&|p| p.traffic.messages_in) as f64;
        let _ = writeln!(
            t,
            "messages/s: {:.0} client->server, {:.0} server->client ({:.1} / {:.1} per player)",
            out_msgs / secs,
            in_msgs / secs,
            out_msgs / secs / n,
            in_msgs / secs / n
        );
        let by_kind = |pick: &dyn Fn(&NetStats) -> &[u64; MessageKind::COUNT]| {
            MessageKind::ALL
                .iter()
                .map(|k| {
                    let count = sum(&|p| pick(&p.traffic)[*k as usize]) as f64;
                    format!("{} {:.1}", k.name(), count / secs / n)
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        let _ = writeln!(
            t,
            "messages per player-second by kind: up {}; down {}",
            by_kind(&|s| &s.kinds_out),
            by_kind(&|s| &s.kinds_in)
        );
        let _ = writeln!(
            t,
            "bytes per player per second (WebSocket frames): {:.0} B/s up, {:.0} B/s down",
            sum(&|p| p.traffic.bytes_out) as f64 / secs / n,
            sum(&|p| p.traffic.bytes_in) as f64 / secs / n
        );
        let frames = sum(&|p| p.session.frames) as f64;
        let _ = writeln!(
            t,
            "frames/s per player: {:.1}; rollbacks/s per player: {:.2} (re-simulated {:.1} frames/s); stall frames/s per player: {:.2}; max rollback depth {}",
            frames / secs / n,
            sum(&|p| p.session.rollbacks) as f64 / secs / n,
            sum(&|p| p.session.resimulated_frames) as f64 / secs / n,
            sum(&|p| p.session.stall_frames) as f64 / secs / n,
            ok.iter()
                .map(|p| p.session.max_rollback_depth)
                .max()
                .unwrap_or(0)
        );
        let _ = writeln!(
            t,
            "desyncs: {}, server errors: {}",
            players.iter().map(|p| p.desyncs).sum::<usize>(),
            players.iter().map(|p| p.server_errors).sum::<usize>()
        );
        match server {
            Some((a, b)) => {
                let _ = writeln!(
                    t,
                    "server: CPU {:.1}% of one core, RSS {:.1} MiB at the end (peak seen {:.1} MiB)",
                    ProcStats::cpu_percent(a, b),
                    b.rss_kib as f64 / 1024.0,
                    rss_peak.max(b.rss_kib) as f64 / 1024.0
                );
            }
            None => {
                let _ = writeln!(
                    t,
                    "server: not measured (use --spawn-server or --server-pid)"
                );
            }
        }
        if let Some((a, b)) = generator {
            let _ = writeln!(
                t,
                "load generator: CPU {:.1}% of one core, RSS {:.1} MiB",
                ProcStats::cpu_percent(a, b),
                b.rss_kib as f64 / 1024.0
            );
        }
        // Lines added after the original ones (scripts read those as they are).
        if args.latency_ms > 0 || args.jitter_ms > 0 {
            let _ = writeln!(
                t,
                "added latency: {} ± {} ms each way (order-keeping proxy)",
                args.latency_ms, args.jitter_ms
            );
        }
        let delays: Vec<u32> = ok.iter().filter_map(|p| p.input_delay).collect();
        let mut pings: Vec<u128> = ok
            .iter()
            .filter_map(|p| p.ping)
            .map(|d| d.as_millis())
            .collect();
        pings.sort_unstable();
        let _ = writeln!(
            t,
            "input delay (frames): min {}, max {}; round trip measured by players: p50 {} ms, max {} ms",
            delays.iter().min().copied().unwrap_or(0),
            delays.iter().max().copied().unwrap_or(0),
            pings.get(pings.len() / 2).copied().unwrap_or(0),
            pings.last().copied().unwrap_or(0)
        );
        if args.server.len() > 1 {
            let _ = writeln!(
                t,
                "cross-instance matches: {}",
                players.iter().filter(|p| p.cross_instance).count()
            );
        }
        // Issue #8's figure: the server's CPU time per connected player per second of play
        // (µs), so the goal (60 µs at 300 matches) is read straight off the report.
        if let Some((a, b)) = server
            && !players.is_empty()
        {
            let per_player_second =
                ProcStats::cpu_percent(a, b) / 100.0 * 1e6 / players.len() as f64;
            let _ = writeln!(t, "server CPU per player-second: {per_player_second:.0} µs");
        }
        Report {
            text: t,
            failed: players.len() - ok.len(),
            desyncs: players.iter().map(|p| p.desyncs).sum(),
        }
    }
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.text.trim_end())
    }
}
