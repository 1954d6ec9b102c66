//! How the server runs: [`Config`], where room logs live, and the defaults.

use std::path::PathBuf;
use std::time::Duration;

use crate::battle_queue::QuickBattleConfig;
use crate::cluster::ClusterConfig;
use crate::durable::{DEFAULT_FLUSH_EVERY, ROOM_LOG_SUBDIR};
use crate::limits::Limits;
use crate::moderation::ModerationConfig;
use crate::tls::TlsFiles;

/// How long a drain waits for running matches by default: a first-to-3 match rarely lasts
/// longer than five minutes.
pub const DEFAULT_DRAIN_TIMEOUT: Duration = Duration::from_secs(300);

/// How long the ready players of a quick-play room wait for the others (twice the queue's
/// countdown: time to notice the room and press ready, short of a stall).
const DEFAULT_READY_TIMEOUT: Duration = Duration::from_secs(20);

/// How long a connection may send nothing of its own before friends see it away.
pub const DEFAULT_AWAY_AFTER: Duration = Duration::from_secs(300);

/// Replays kept by default: about 10 000 matches of a few KB each is tens of MB of disk.
pub const DEFAULT_REPLAY_KEEP: usize = 10_000;

/// How the server runs.
#[derive(Clone, Debug)]
pub struct Config {
    /// Where replays are written (created if missing).
    pub replay_dir: PathBuf,
    /// Most replays kept in `replay_dir`; the oldest are deleted as new ones arrive (0: all).
    pub replay_keep: usize,
    /// Limits on clients.
    pub limits: Limits,
    /// Shown to clients in `Welcome`.
    pub server_name: String,
    /// Time from `MatchStart` to frame 0 (`start_in_ms`).
    pub start_delay: Duration,
    /// Test/LAN option: overrides every room's `countdown_frames` (the in-game "3, 2, 1").
    pub countdown_frames: Option<u16>,
    /// Test/LAN option: overrides every room's `round_break_frames`.
    pub round_break_frames: Option<u16>,
    /// The SQLite database for identities, ratings and history; `None` turns them off.
    pub db: Option<PathBuf>,
    /// Round wins that win a ranked match.
    pub ranked_first_to: u8,
    /// Quick play of several seats: how many players and how long a wait start a room.
    pub quick_battle: QuickBattleConfig,
    /// In a quick-play room of several seats, how long the ready players wait for the others:
    /// then the seats not ready are given up (their players watch) and the rest start.
    /// Zero: they wait as long as it takes.
    pub quick_battle_ready_timeout: Duration,
    /// Serve TLS (`wss://`, `https://`) with this certificate instead of plain TCP.
    pub tls: Option<TlsFiles>,
    /// Longest a drain ([`run_with_drain`](crate::run_with_drain)) waits for running matches
    /// before shutting down.
    pub drain_timeout: Duration,
    /// Where running matches' room logs are kept, so they survive a crash or a restart.
    pub room_logs: RoomLogDir,
    /// How often a room writes its new inputs to its log: the most play a crash can lose.
    pub room_log_flush: Duration,
    /// Join a cluster of instances on one Redis (`--redis`, `--public-url`): shared queues
    /// and room directory. `None`: one box, everything in memory.
    pub cluster: Option<ClusterConfig>,
    /// Keep identities, ratings, history and solo records in PostgreSQL at this URL
    /// (`--postgres`) instead of the SQLite file in `db`.
    pub postgres: Option<String>,
    /// Serve the browser build of the game from this directory (`--web-dir`): `GET /`,
    /// the game's links (`/room/CODE`...) and its files (`web/`). `None`: `GET /` answers a
    /// page saying how to build it. The binary fills in [`default_dir`](crate::default_dir) when
    /// `--web-dir` is not given.
    pub web_dir: Option<PathBuf>,
    /// The admin API, sybil and farming limits, bots and screening (`docs/MODERATION.md`).
    pub moderation: ModerationConfig,
    /// Offer the datagram path: WebTransport on UDP at the listener's port number (the
    /// default). `false` (`--no-datagrams`): everything over the WebSocket.
    pub datagrams: bool,
    /// A connection that sends nothing of its own (clock probes and match inputs aside) for
    /// this long reads `Away` to friends until its next message (`--away-after`; zero: never).
    pub away_after: Duration,
    /// Take published block skins (`PublishSkin`; the default, with a database). `false`
    /// (`--no-skins`): publishing is refused in words and every board shows to others in the
    /// default blocks; skins already stored are still served to clients that ask.
    pub skins: bool,
}

/// Where the room logs live (`docs/SERVER.md`, "Surviving a crash or a restart").
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum RoomLogDir {
    /// `<replay_dir>/rooms` (the default).
    #[default]
    UnderReplays,
    /// This directory.
    At(PathBuf),
    /// No room logs: a crash ends running matches.
    Off,
}

impl Config {
    /// The room log directory in force, or `None` when room logs are off.
    pub fn room_log_dir(&self) -> Option<PathBuf> {
        match &self.room_logs {
            RoomLogDir::UnderReplays => Some(self.replay_dir.join(ROOM_LOG_SUBDIR)),
            RoomLogDir::At(dir) => Some(dir.clone()),
            RoomLogDir::Off => None,
        }
    }
}

impl Default for Config {
    fn default() -> Self {
        Config {
            replay_dir: PathBuf::from("./replays"),
            replay_keep: DEFAULT_REPLAY_KEEP,
            limits: Limits::default(),
            server_name: "sevenbag".to_string(),
            start_delay: Duration::from_millis(1000),
            countdown_frames: None,
            round_break_frames: None,
            db: None,
            ranked_first_to: 3,
            quick_battle: QuickBattleConfig::default(),
            quick_battle_ready_timeout: DEFAULT_READY_TIMEOUT,
            tls: None,
            drain_timeout: DEFAULT_DRAIN_TIMEOUT,
            room_logs: RoomLogDir::UnderReplays,
            room_log_flush: DEFAULT_FLUSH_EVERY,
            cluster: None,
            postgres: None,
            web_dir: None,
            moderation: ModerationConfig::default(),
            datagrams: true,
            away_after: DEFAULT_AWAY_AFTER,
            skins: true,
        }
    }
}
