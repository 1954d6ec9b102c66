//! `sevenbag-server`: the relay server binary. Parses flags, sets up logging (`RUST_LOG`), binds,
//! and runs the library's [`sevenbag_server::run`] until Ctrl-C or SIGTERM.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;
use clap::Parser;
use sevenbag_server::{Config, Limits};

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
            max_rooms: self.max_rooms,
            max_spectators: self.max_spectators,
            max_frames_ahead: self.max_frames_ahead,
            max_frames_behind: self.max_frames_behind,
            max_silence: seconds("max-silence", self.max_silence)?,
            max_frames_behind_sending: self.max_frames_behind_sending,
            hello_timeout: seconds("hello-timeout", self.hello_timeout)?,
            ping_interval: seconds("ping-interval", self.ping_interval)?,
            idle_timeout: seconds("idle-timeout", self.idle_timeout)?,
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
        })
    }
}

/// Completes on Ctrl-C, or on SIGTERM where there is one.
async fn shutdown_signal() {
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

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .init();
    let config = args.config()?;
    let listener = tokio::net::TcpListener::bind(&args.bind)
        .await
        .with_context(|| format!("cannot listen on {}", args.bind))?;
    sevenbag_server::run(listener, config, shutdown_signal()).await?;
    Ok(())
}
