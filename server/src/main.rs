//! `sevenbag-server`: the relay server binary. Parses flags, sets up logging (`RUST_LOG`, text
//! or JSON lines), binds, and runs the library's [`sevenbag_server::run_with_drain`]: the first
//! Ctrl-C or SIGTERM drains (running matches finish, for at most `--drain-timeout`), a second
//! one stops at once.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;
use clap::{Parser, ValueEnum};
use sevenbag_server::{
    ClusterConfig, Config, Limits, ModerationConfig, QuickBattleConfig, RoomLogDir, TlsFiles,
};
use tokio::sync::watch;

/// How log lines are written to stderr.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum LogFormat {
    /// One human-readable line per event.
    Text,
    /// One JSON object per line (for log shippers: Loki, Elasticsearch, CloudWatch...).
    Json,
}

/// Command-line flags of the server. Every limit defaults to `docs/PROTOCOL.md`'s value.
#[derive(Parser, Debug)]
#[command(
    version,
    about = "Sevenbag relay server: rooms, input relay, spectators, replays"
)]
struct Args {
    /// Address to listen on.
    #[arg(long, default_value = "0.0.0.0:7878")]
    bind: String,
    /// Directory where finished matches' replays are written (created if missing).
    #[arg(long, default_value = "./replays")]
    replay_dir: PathBuf,
    /// Most replays kept in the replay directory; the oldest are deleted as new ones are
    /// written (0 keeps all).
    #[arg(long, default_value_t = sevenbag_server::DEFAULT_REPLAY_KEEP)]
    replay_keep: usize,
    /// Name shown to clients.
    #[arg(long, default_value = "sevenbag")]
    name: String,
    /// Largest message a client may send, in bytes.
    #[arg(long, default_value_t = Limits::default().max_message_bytes)]
    max_message_bytes: usize,
    /// Most input changes in one Inputs message.
    #[arg(long, default_value_t = Limits::default().max_changes_per_message)]
    max_changes: usize,
    /// Messages per second per connection (token bucket rate).
    #[arg(long, default_value_t = Limits::default().messages_per_second)]
    rate: u32,
    /// Messages per connection in a burst (token bucket size).
    #[arg(long, default_value_t = Limits::default().message_burst)]
    burst: u32,
    /// Messages queued for a client before it is dropped as a slow reader.
    #[arg(long, default_value_t = Limits::default().send_queue)]
    send_queue: usize,
    /// Bytes queued for a client before it is dropped as a slow reader.
    #[arg(long, default_value_t = Limits::default().send_queue_bytes)]
    send_queue_bytes: usize,
    /// Most concurrent connections.
    #[arg(long, default_value_t = Limits::default().max_connections)]
    max_connections: usize,
    /// Datagram sessions one address may hold at once (0: no limit).
    #[arg(long, default_value_t = Limits::default().datagram_sessions_per_address)]
    datagram_sessions_per_address: usize,
    /// Datagrams one address's sessions may send per second between them (0: no limit; the
    /// burst is twice this).
    #[arg(long, default_value_t = Limits::default().datagrams_per_address_per_second)]
    datagrams_per_address: u32,
    /// Most rooms open at once.
    #[arg(long, default_value_t = Limits::default().max_rooms)]
    max_rooms: usize,
    /// Most spectators in one room.
    #[arg(long, default_value_t = Limits::default().max_spectators)]
    max_spectators: usize,
    /// How many frames a player's inputs may run ahead of the server's match clock.
    #[arg(long, default_value_t = Limits::default().max_frames_ahead)]
    max_frames_ahead: u32,
    /// Frames a connected player's inputs may lag the match clock before the slow-or-silent
    /// rule applies (docs/SERVER.md).
    #[arg(long, default_value_t = Limits::default().max_frames_behind)]
    max_frames_behind: u32,
    /// Seconds without any inputs after which a player that far behind has gone silent and
    /// forfeits.
    #[arg(long, default_value_t = Limits::default().max_silence.as_secs_f64())]
    max_silence: f64,
    /// Frames behind at which a player still sending inputs forfeits (could not catch up).
    #[arg(long, default_value_t = Limits::default().max_frames_behind_sending)]
    max_frames_behind_sending: u32,
    /// Seconds allowed for the handshake and Hello.
    #[arg(long, default_value_t = Limits::default().hello_timeout.as_secs_f64())]
    hello_timeout: f64,
    /// Seconds between the server's pings.
    #[arg(long, default_value_t = Limits::default().ping_interval.as_secs_f64())]
    ping_interval: f64,
    /// Seconds of silence after which a connection is dropped.
    #[arg(long, default_value_t = Limits::default().idle_timeout.as_secs_f64())]
    idle_timeout: f64,
    /// Milliseconds from MatchStart to frame 0.
    #[arg(long, default_value_t = 1000)]
    start_delay_ms: u64,
    /// LAN/testing: countdown frames for every room (overrides the rules).
    #[arg(long)]
    countdown_frames: Option<u16>,
    /// LAN/testing: frames between rounds for every room (overrides the rules).
    #[arg(long)]
    round_break_frames: Option<u16>,
    /// SQLite database for identities, ratings and match history (created and migrated).
    #[arg(long, default_value = "./sevenbag.db")]
    db: PathBuf,
    /// Run without a database: no identities, ranked play or history.
    #[arg(long, conflicts_with = "db")]
    no_db: bool,
    /// Round wins that win a ranked match.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(1..=99))]
    ranked_first_to: u8,
    /// Quick play of several seats: players who start a free-for-all room when the countdown
    /// runs out (eight start one at once).
    #[arg(long, default_value_t = QuickBattleConfig::default().needed,
          value_parser = clap::value_parser!(u8).range(3..=8), value_name = "N")]
    quick_battle_players: u8,
    /// Quick play of several seats: seconds from the moment enough players wait to the start.
    #[arg(long, default_value_t = QuickBattleConfig::default().countdown.as_secs_f64(), value_name = "SECS")]
    quick_battle_countdown: f64,
    /// Round wins that win a quick-play free-for-all match.
    #[arg(long, default_value_t = QuickBattleConfig::default().first_to,
          value_parser = clap::value_parser!(u8).range(1..=99))]
    quick_battle_first_to: u8,
    /// Quick play of several seats: seconds the ready players of a room wait for the others
    /// before the seats not ready are given up and the rest start (0: they wait).
    #[arg(long, default_value_t = Config::default().quick_battle_ready_timeout.as_secs_f64(), value_name = "SECS")]
    quick_battle_ready_timeout: f64,
    /// Serve TLS (wss://, https://) with this PEM certificate chain (e.g. certbot's
    /// fullchain.pem). Needs --tls-key.
    #[arg(long, requires = "tls_key", value_name = "PEM")]
    tls_cert: Option<PathBuf>,
    /// The PEM private key for --tls-cert (e.g. certbot's privkey.pem).
    #[arg(long, requires = "tls_cert", value_name = "PEM")]
    tls_key: Option<PathBuf>,
    /// Do not offer the datagram path (WebTransport on UDP at the same port): everything
    /// over the WebSocket.
    #[arg(long)]
    no_datagrams: bool,
    /// Take no published block skins: players' skins show only on their own screens.
    #[arg(long)]
    no_skins: bool,
    /// Seconds allowed for a TLS handshake.
    #[arg(long, default_value_t = Limits::default().tls_handshake_timeout.as_secs_f64())]
    tls_handshake_timeout: f64,
    /// On SIGTERM or Ctrl-C, seconds to let running matches finish before stopping (a second
    /// signal stops at once).
    #[arg(long, default_value_t = sevenbag_server::DEFAULT_DRAIN_TIMEOUT.as_secs_f64(), value_name = "SECS")]
    drain_timeout: f64,
    /// Seconds a connection may send nothing of its own before its friends see it away (0:
    /// never).
    #[arg(long, default_value_t = sevenbag_server::Config::default().away_after.as_secs_f64(), value_name = "SECS")]
    away_after: f64,
    /// Where running matches' room logs are kept, so a crash or a restart does not end them
    /// (default: the `rooms` folder of --replay-dir). Start again with the same flags to take
    /// the matches up.
    #[arg(long, value_name = "DIR", conflicts_with = "no_room_logs")]
    room_log_dir: Option<PathBuf>,
    /// Keep no room logs: a crash or restart ends running matches.
    #[arg(long)]
    no_room_logs: bool,
    /// Milliseconds between a room's writes to its log: the most play a crash can lose.
    #[arg(long, default_value_t = sevenbag_server::DEFAULT_FLUSH_EVERY.as_millis() as u64, value_name = "MS",
          value_parser = clap::value_parser!(u64).range(1..=10_000))]
    room_log_flush_ms: u64,
    /// Log lines as human-readable text or as JSON objects, one per line.
    #[arg(long, value_enum, default_value_t = LogFormat::Text)]
    log_format: LogFormat,
    /// Join a cluster: the quick-match and ranked queues and the room directory live in this
    /// Redis (redis://host:port/db), shared with the other instances. Needs --public-url.
    #[arg(long, requires = "public_url", value_name = "URL")]
    redis: Option<String>,
    /// The ws:// or wss:// URL at which players reach this instance (other instances send
    /// players here with it).
    #[arg(long, requires = "redis", value_name = "URL")]
    public_url: Option<String>,
    /// Seconds this instance's directory and queue entries outlive its last heartbeat.
    #[arg(long, default_value_t = sevenbag_server::DEFAULT_CLUSTER_TTL.as_secs_f64(), value_name = "SECS")]
    cluster_ttl: f64,
    /// Keep identities, ratings, match history and solo records in PostgreSQL
    /// (postgres://user:password@host/db) instead of the SQLite --db file.
    #[arg(long, conflicts_with = "no_db", value_name = "URL")]
    postgres: Option<String>,
    /// Serve the browser game from this directory (what `bash client/web/build` writes to
    /// target/web; without this flag the server looks in ./target/web, then in web/ beside its
    /// binary's folder, then in the target/web of the source tree it was built from): GET /
    /// plays on this server,
    /// /room/CODE, /watch/CODE, /replay/ID and /puzzle/CODE open the game there.
    #[arg(long, value_name = "DIR")]
    web_dir: Option<PathBuf>,
    #[command(flatten)]
    moderation: ModerationArgs,
}

/// Moderation and fair play (docs/MODERATION.md).
#[derive(clap::Args, Debug)]
struct ModerationArgs {
    /// Turn the admin API on (/admin/ on the server's port): one bearer token per line,
    /// `NAME:TOKEN` or `TOKEN` (24 to 256 characters). Without it /admin/ answers 404.
    #[arg(long, value_name = "FILE")]
    admin_token_file: Option<PathBuf>,
    /// New identities one address (IPv4) or /64 (IPv6) may register per hour (0: no limit).
    #[arg(long, default_value_t = 3, value_name = "N")]
    registrations_per_hour: u32,
    /// New identities one address or /64 may register per 24 hours (0: no limit).
    #[arg(long, default_value_t = 10, value_name = "N")]
    registrations_per_day: u32,
    /// Ranked matches the same two identities may play against each other per 24 hours
    /// (0: no limit).
    #[arg(long, default_value_t = 5, value_name = "N")]
    ranked_pair_daily: u32,
    /// Let ranked play pair two identities connected from the same address (or /64).
    #[arg(long)]
    ranked_same_address: bool,
    /// Let declared bots queue for ranked play (load tests of the ranked queue only).
    #[arg(long)]
    ranked_bots: bool,
    /// Do not screen ranked matches for inhuman input (they are then always rated).
    #[arg(long)]
    no_screening: bool,
    /// Reports one identity may file per hour.
    #[arg(long, default_value_t = 5, value_name = "N")]
    reports_per_hour: u32,
    /// Reports one identity may file per 24 hours.
    #[arg(long, default_value_t = 20, value_name = "N")]
    reports_per_day: u32,
}

impl ModerationArgs {
    fn config(&self) -> ModerationConfig {
        let limit = |n: u32| (n > 0).then_some(n);
        let defaults = ModerationConfig::default();
        ModerationConfig {
            admin_token_file: self.admin_token_file.clone(),
            registrations_per_hour: limit(self.registrations_per_hour),
            registrations_per_day: limit(self.registrations_per_day),
            ranked_pair_daily: limit(self.ranked_pair_daily),
            ranked_same_address: self.ranked_same_address,
            ranked_bots: self.ranked_bots,
            screening: defaults.screening.filter(|_| !self.no_screening),
            reports_per_hour: self.reports_per_hour,
            reports_per_day: self.reports_per_day,
            ..defaults
        }
    }
}

fn seconds(name: &str, value: f64) -> anyhow::Result<Duration> {
    Duration::try_from_secs_f64(value)
        .ok()
        .filter(|d| !d.is_zero())
        .with_context(|| format!("--{name} must be a positive number of seconds, not {value}"))
}

impl Args {
    fn config(&self) -> anyhow::Result<Config> {
        let limits = Limits {
            max_message_bytes: self.max_message_bytes,
            max_changes_per_message: self.max_changes,
            messages_per_second: self.rate,
            message_burst: self.burst,
            send_queue: self.send_queue,
            send_queue_bytes: self.send_queue_bytes,
            max_connections: self.max_connections,
            datagram_sessions_per_address: self.datagram_sessions_per_address,
            datagrams_per_address_per_second: self.datagrams_per_address,
            datagrams_per_address_burst: self.datagrams_per_address.saturating_mul(2),
            max_rooms: self.max_rooms,
            max_spectators: self.max_spectators,
            max_frames_ahead: self.max_frames_ahead,
            max_frames_behind: self.max_frames_behind,
            max_silence: seconds("max-silence", self.max_silence)?,
            max_frames_behind_sending: self.max_frames_behind_sending,
            hello_timeout: seconds("hello-timeout", self.hello_timeout)?,
            ping_interval: seconds("ping-interval", self.ping_interval)?,
            idle_timeout: seconds("idle-timeout", self.idle_timeout)?,
            tls_handshake_timeout: seconds("tls-handshake-timeout", self.tls_handshake_timeout)?,
            ..Limits::default()
        };
        Ok(Config {
            replay_dir: self.replay_dir.clone(),
            replay_keep: self.replay_keep,
            limits,
            server_name: self.name.clone(),
            start_delay: Duration::from_millis(self.start_delay_ms),
            countdown_frames: self.countdown_frames,
            round_break_frames: self.round_break_frames,
            db: (!self.no_db).then(|| self.db.clone()),
            ranked_first_to: self.ranked_first_to,
            quick_battle: QuickBattleConfig {
                needed: self.quick_battle_players,
                countdown: seconds("quick-battle-countdown", self.quick_battle_countdown)?,
                first_to: self.quick_battle_first_to,
            },
            quick_battle_ready_timeout: Duration::try_from_secs_f64(
                self.quick_battle_ready_timeout,
            )
            .ok()
            .with_context(|| {
                format!(
                    "--quick-battle-ready-timeout must be a number of seconds, not {}",
                    self.quick_battle_ready_timeout
                )
            })?,
            tls: match (&self.tls_cert, &self.tls_key) {
                (Some(cert), Some(key)) => Some(TlsFiles {
                    cert: cert.clone(),
                    key: key.clone(),
                }),
                _ => None,
            },
            drain_timeout: Duration::try_from_secs_f64(self.drain_timeout)
                .ok()
                .with_context(|| {
                    format!(
                        "--drain-timeout must be a number of seconds, not {}",
                        self.drain_timeout
                    )
                })?,
            room_logs: match (&self.room_log_dir, self.no_room_logs) {
                (_, true) => RoomLogDir::Off,
                (Some(dir), false) => RoomLogDir::At(dir.clone()),
                (None, false) => RoomLogDir::UnderReplays,
            },
            room_log_flush: Duration::from_millis(self.room_log_flush_ms),
            cluster: match (&self.redis, &self.public_url) {
                (Some(redis_url), Some(public_url)) => Some(ClusterConfig {
                    redis_url: redis_url.clone(),
                    public_url: public_url.clone(),
                    ttl: seconds("cluster-ttl", self.cluster_ttl)?,
                }),
                _ => None,
            },
            postgres: self.postgres.clone(),
            web_dir: self.web_dir.clone().or_else(default_web_dir),
            moderation: self.moderation.config(),
            datagrams: !self.no_datagrams,
            skins: !self.no_skins,
            away_after: Duration::try_from_secs_f64(self.away_after)
                .ok()
                .with_context(|| {
                    format!(
                        "--away-after must be a number of seconds, not {}",
                        self.away_after
                    )
                })?,
        })
    }
}

/// Without `--web-dir`: the browser build where `client/web/build` puts it, if it is there
/// (logged either way, so an operator sees what `/` serves).
fn default_web_dir() -> Option<PathBuf> {
    let found = sevenbag_server::default_dir();
    match &found {
        Some(dir) => tracing::info!(dir = %dir.display(), "serving the browser game"),
        None => tracing::warn!(
            looked_in = ?sevenbag_server::default_dirs(),
            "no browser build of the game in these folders: build it with `bash client/web/build` \
             in the source tree or pass --web-dir DIR (until then / says how)"
        ),
    }
    found
}

/// Completes on Ctrl-C, or on SIGTERM where there is one.
async fn signal() {
    let ctrl_c = async {
        if let Err(e) = tokio::signal::ctrl_c().await {
            tracing::error!(error = %e, "cannot listen for Ctrl-C");
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(e) => {
                tracing::error!(error = %e, "cannot listen for SIGTERM");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => tracing::info!("Ctrl-C received"),
        _ = terminate => tracing::info!("SIGTERM received"),
    }
}

/// Counts signals into `count` forever (a fresh listener each time, so none is missed between
/// the first and the second).
async fn count_signals(count: watch::Sender<u32>) {
    loop {
        signal().await;
        count.send_modify(|n| *n += 1);
    }
}

/// Completes once `at_least` signals have arrived.
async fn signals(mut count: watch::Receiver<u32>, at_least: u32) {
    if count.wait_for(|n| *n >= at_least).await.is_err() {
        std::future::pending::<()>().await;
    }
}

fn init_logging(format: LogFormat) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt().with_env_filter(filter);
    match format {
        LogFormat::Text => builder.init(),
        // Span fields are flattened into each event's object, so a line stands on its own.
        LogFormat::Json => builder.json().flatten_event(true).init(),
    }
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    init_logging(args.log_format);
    let config = args.config()?;
    let listener = tokio::net::TcpListener::bind(&args.bind)
        .await
        .with_context(|| format!("cannot listen on {}", args.bind))?;
    let (count, counted) = watch::channel(0);
    tokio::spawn(count_signals(count));
    sevenbag_server::run_with_drain(
        listener,
        config,
        signals(counted.clone(), 1),
        signals(counted, 2),
    )
    .await?;
    Ok(())
}
