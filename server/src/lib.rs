//! # sevenbag-server: the relay server
//!
//! Serves one port over HTTP (WebSocket upgrades for the game, a read-only JSON API), runs
//! rooms, relays each player's inputs at once to the opponent and to spectators, simulates
//! every match itself as the authority on results, and keeps a replay of every match. The session flow it implements is `docs/PROTOCOL.md`;
//! operating it is `docs/SERVER.md`.
//!
//! ```no_run
//! # async fn demo() -> std::io::Result<()> {
//! // In tests and in the game's LAN host: a server on 127.0.0.1 and a free port.
//! let server = sevenbag_server::spawn(sevenbag_server::Config::default()).await?;
//! println!("connect to {}", server.url());
//! server.shutdown().await.ok();
//! # Ok(()) }
//! ```
//!
//! ## Layout
//! - [`Config`], [`Limits`], [`run`], [`spawn`], [`ServerHandle`]: this file and `limits.rs`.
//! - `server.rs`: the accept loop (`TCP_NODELAY`, connection permits, the TLS handshake);
//!   `services.rs`: what rooms and connections share (config, stores, metrics, shutdown);
//!   `shared.rs`: that plus the lobby and the cluster, for connections and routes; `tls.rs`: loading the certificate (why rustls with `ring`: there).
//! - `http.rs`: the one HTTP stack on the port (hyper + axum): the WebSocket upgrade and every
//!   HTTP route, with the same limits; add routes in `http::router`. Why hyper and axum: there.
//!   `/metrics`, `/healthz` and `/readyz` are there too; `metrics.rs` holds the Prometheus
//!   metrics (why the `prometheus` crate: there).
//! - `client.rs`: one task per connection: handshake, message handling, how a connection ends.
//! - `connection.rs`: WebSocket frames ↔ messages, size limits, the lingering close.
//! - `datagram/`: the datagram path: WebTransport (HTTP/3 over QUIC) on the port's UDP twin,
//!   tickets binding a session to its WebSocket connection, the self-signed certificate, limits
//!   (why `wtransport`: there); `room/dgram.rs`: how a room answers players on it.
//! - `relay.rs`: bounded per-client send queues; a slow reader is cut, never awaited.
//! - `lobby/`: room codes, resume tokens, the quick-match and ranked queues (a handle; the
//!   cluster hears of room codes through the `CodeBook` trait); `waiting.rs`: the ranked
//!   queue's pairing and the `Control` messages to a waiting connection.
//! - `ranked.rs`: Glicko-2, deviation decay, the rating window; `db.rs`: the storage handle
//!   (reads on blocking threads, writes through one writer task); `identity.rs`: keys, names,
//!   recovery codes; `api.rs`: the read-only JSON API; `solo_records.rs`: solo runs submitted
//!   as replays, re-simulated and kept as per-mode records.
//! - `room/`: one task per room, owning its seats, spectators and match (`seats.rs`: joins,
//!   resumes, leaves; `play.rs`: the match, inputs, results; `persist.rs`: its durable log).
//! - `cluster/`: several instances on one Redis (`--redis`): the shared queues and room
//!   directory, heartbeats and TTLs, redirects (why redirect and not relay: there).
//! - `moderation/`: sanctions as every instance enforces them, registration and ranked-pairing
//!   limits, bots, reports and block lists (`docs/MODERATION.md`); `admin/`: the admin API
//!   under `/admin/` (bearer tokens, constant-time check); `screen.rs`: ranked matches
//!   screened for inhuman input.
//! - `web/`: the browser build of the game (`--web-dir`, else `target/web`): `/`, the game's
//!   links (`/room/CODE`, `/watch/CODE`, `/replay/ID`, `/puzzle/CODE`) and its files
//!   (why tower-http's `ServeFile`: there).
//! - `replay.rs`: the replay directory (atomic writes, listing, reads).
//! - `durable/`: room logs, so running matches survive a crash or a restart (the file format,
//!   the writer task, reading them back at start-up).
//! - `limits.rs`: limits and the token bucket; `shutdown.rs`: the shutdown signal, task
//!   tracking and the graceful drain.
//!
//! ## Design: modules import one way
//! No module imports a module that imports it (the workspace test `tests/tests/module_graph.rs`
//! checks, file by file and between top-level modules): a module gets what it needs from its
//! caller as a handle (`Arc<Services>`, `Arc<Lobby>`), a channel or a trait object
//! (`room::Directory`, `lobby::CodeBook`).
//!
//! ## Design: nobody waits on a client
//! Rooms and the lobby never `await` anything a client controls. Messages to clients go through
//! bounded queues with `try_send`; a client that falls behind is disconnected with `SlowReader`
//! (see `relay.rs`). The only waits are on the server's own tasks (a room's inbox, a replay
//! write), so one bad connection cannot stall anyone else.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod admin;
mod api;
mod battle_queue;
mod client;
mod cluster;
mod connection;
mod datagram;
mod db;
mod durable;
mod gate;
mod history;
mod http;
mod identity;
mod limits;
mod lobby;
mod metrics;
mod moderation;
mod ops;
mod quick_battle;
mod ranked;
mod record;
mod refusal;
mod relay;
mod replay;
mod room;
pub mod screen;
mod server;
mod services;
mod shared;
mod shutdown;
mod solo_boards;
mod solo_records;
mod standings;
mod tls;
mod verdicts;
mod waiting;
mod web;

use std::future::Future;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use tokio::net::TcpListener;
use tokio::sync::{oneshot, watch};
use tokio::task::JoinHandle;
use tracing::info;

pub use battle_queue::QuickBattleConfig;
pub use cluster::{ClusterConfig, ClusterError, DEFAULT_TTL as DEFAULT_CLUSTER_TTL};
pub use durable::{DEFAULT_FLUSH_EVERY, ROOM_LOG_SUBDIR};
pub use limits::Limits;
pub use moderation::{AdminTokenError, ModerationConfig};
pub use screen::ScreenBounds;
pub use tls::{TlsError, TlsFiles};
pub use web::{WebDirError, default_dir, default_dirs};

/// How long a drain waits for running matches by default: a first-to-3 match rarely lasts
/// longer than five minutes.
pub const DEFAULT_DRAIN_TIMEOUT: Duration = Duration::from_secs(300);

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
    /// Serve TLS (`wss://`, `https://`) with this certificate instead of plain TCP.
    pub tls: Option<TlsFiles>,
    /// Longest a drain ([`run_with_drain`]) waits for running matches before shutting down.
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
    /// page saying how to build it. The binary fills in [`default_dir`] when `--web-dir` is
    /// not given.
    pub web_dir: Option<PathBuf>,
    /// The admin API, sybil and farming limits, bots and screening (`docs/MODERATION.md`).
    pub moderation: ModerationConfig,
    /// Offer the datagram path: WebTransport on UDP at the listener's port number (the
    /// default). `false` (`--no-datagrams`): everything over the WebSocket.
    pub datagrams: bool,
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
            tls: None,
            drain_timeout: DEFAULT_DRAIN_TIMEOUT,
            room_logs: RoomLogDir::UnderReplays,
            room_log_flush: DEFAULT_FLUSH_EVERY,
            cluster: None,
            postgres: None,
            web_dir: None,
            moderation: ModerationConfig::default(),
            datagrams: true,
        }
    }
}

/// Why the server could not run.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// The replay directory could not be created or read.
    #[error("cannot use replay directory {path}: {source}")]
    ReplayDir {
        /// The directory.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The database could not be opened or migrated.
    #[error(transparent)]
    Db(#[from] sevenbag_storage::StorageError),
    /// The TLS certificate or key could not be loaded.
    #[error(transparent)]
    Tls(#[from] TlsError),
    /// The room log directory could not be created.
    #[error("cannot use room log directory {path}: {source}")]
    RoomLogDir {
        /// The directory.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The cluster could not be joined (`--redis`, `--public-url`).
    #[error(transparent)]
    Cluster(#[from] ClusterError),
    /// The metrics registry refused a metric (a server bug).
    #[error("cannot set up metrics: {0}")]
    Metrics(String),
    /// The web directory (`--web-dir`) is missing or holds no `index.html`.
    #[error(transparent)]
    WebDir(#[from] WebDirError),
    /// The server task panicked or was cancelled.
    #[error("server task failed: {0}")]
    Task(String),
    /// The admin token file (`--admin-token-file`) is missing or malformed.
    #[error(transparent)]
    AdminTokens(#[from] AdminTokenError),
}

/// Runs the server on `listener` until `shutdown` completes, then tells every client
/// (`Shutdown`), writes the replays of unfinished matches, and returns once every task is done.
pub async fn run(
    listener: TcpListener,
    config: Config,
    shutdown: impl Future<Output = ()>,
) -> Result<(), ServerError> {
    run_with_drain(listener, config, std::future::pending(), shutdown).await
}

/// [`run`] with a graceful drain: when `drain` completes the server stops opening rooms,
/// starting matches and queueing players (they hear a non-fatal `Shutdown` error), `/readyz`
/// answers `503`, and running matches play on — for at most [`Config::drain_timeout`]. When
/// the last one has finished and its replay and result are written, or the timeout passes, or
/// `stop` completes (a second signal), the server shuts down as [`run`] does.
pub async fn run_with_drain(
    listener: TcpListener,
    config: Config,
    drain: impl Future<Output = ()>,
    stop: impl Future<Output = ()>,
) -> Result<(), ServerError> {
    let udp = if config.datagrams {
        udp_twin(&listener)
    } else {
        None
    };
    serve(listener, udp, config, drain, stop).await
}

/// The UDP socket at the listener's address, for the datagram path; `None` (with a warning:
/// clients then stay on the WebSocket) when the port is taken on UDP.
fn udp_twin(listener: &TcpListener) -> Option<std::net::UdpSocket> {
    let addr = listener.local_addr().ok()?;
    match std::net::UdpSocket::bind(addr).and_then(|s| s.set_nonblocking(true).map(|()| s)) {
        Ok(socket) => Some(socket),
        Err(e) => {
            tracing::warn!(%addr, error = %e, "cannot bind UDP on the server's port: no datagram path, clients stay on the WebSocket");
            None
        }
    }
}

/// [`run_with_drain`] with the datagram path's socket already bound (or none).
async fn serve(
    listener: TcpListener,
    udp: Option<std::net::UdpSocket>,
    mut config: Config,
    drain: impl Future<Output = ()>,
    stop: impl Future<Output = ()>,
) -> Result<(), ServerError> {
    if let Some(dir) = &config.web_dir {
        config.web_dir = Some(web::resolve_root(dir)?);
    }
    let tls = match &config.tls {
        Some(files) => Some(tls::acceptor(files)?),
        None => None,
    };
    let metrics = metrics::Metrics::new().map_err(|e| ServerError::Metrics(e.to_string()))?;
    let moderation = Arc::new(moderation::Moderation::new(config.moderation.clone())?);
    // Indexing reads every replay file: off the async runtime.
    let (dir, keep) = (config.replay_dir.clone(), config.replay_keep);
    let replays = tokio::task::spawn_blocking(move || replay::ReplayStore::open(&dir, keep))
        .await
        .map_err(|e| ServerError::Task(e.to_string()))?
        .map_err(|source| ServerError::ReplayDir {
            path: config.replay_dir.clone(),
            source,
        })?;
    let storage = open_storage(&config, &metrics).await?;
    if let Some(db) = &storage {
        moderation::load(&moderation, db).await?;
    }
    let cluster = match &config.cluster {
        Some(c) => Some(cluster::Cluster::join(c).await?),
        None => None,
    };
    let room_logs = match config.room_log_dir() {
        Some(dir) => Some(
            durable::RoomLogs::start(dir.clone(), config.room_log_flush)
                .map_err(|source| ServerError::RoomLogDir { path: dir, source })?,
        ),
        None => None,
    };
    let (shutdown_tx, shutdown_rx) = watch::channel(false);
    let (tasks, mut all_done) = shutdown::Tasks::new();
    let replay_dir = config.replay_dir.display().to_string();
    let drain_timeout = config.drain_timeout;
    let stores = services::Stores {
        replays,
        db: storage,
        room_logs,
    };
    let services = services::Services::new(config, stores, metrics, shutdown_rx, tasks);
    let datagrams = match udp {
        Some(socket) => match datagram::DatagramService::start(
            socket,
            services.config.tls.as_ref(),
            services.config.limits.clone(),
            services.metrics.clone(),
            services.epoch,
            services.shutdown.clone(),
            &services.tasks,
        ) {
            Ok(service) => Some(service),
            Err(e) => {
                tracing::warn!(error = %e, "no datagram path: clients stay on the WebSocket");
                None
            }
        },
        None => None,
    };
    let shared = Arc::new(shared::Shared::new(
        services, cluster, moderation, datagrams,
    ));
    lobby::start_matchmaker(&shared.lobby);
    quick_battle::start(&shared.lobby);
    moderation::start_sync(shared.moderation.clone(), shared.services.clone());
    restore_rooms(&shared.lobby).await;
    cluster::start(shared.cluster.clone(), &shared.lobby);
    info!(addr = ?listener.local_addr().ok(), replay_dir, tls = tls.is_some(), "listening");

    let drained = async {
        drain.await;
        lobby::begin_drain(&shared.lobby, drain_timeout);
        let running = shared.metrics.matches_running.clone();
        shutdown::wait_drained(move || running.get(), drain_timeout).await;
    };
    tokio::select! {
        // The accept loop only ends if the tracker is closed, which happens below. It keeps
        // running while draining: players may reconnect to their match, probes ask /readyz.
        _ = server::accept_loop(&shared, listener, tls) => {}
        _ = drained => info!("drained; shutting down"),
        _ = stop => info!("shutting down"),
    }
    // 1. Every connection and room task sees the signal (the listener is already dropped).
    let _ = shutdown_tx.send(true);
    // 2. No new task may start, and our own sender goes away...
    shared.tasks.close();
    // 3. ...so this returns `None` exactly when the last task (and its replay write) is done.
    let _ = all_done.recv().await;
    // 4. Every room has handed over its match: store them all before returning.
    if let Some(db) = &shared.db {
        db.close().await;
    }
    // 5. Every room has flushed its log (kept for a restart, or removed): write it all.
    if let Some(logs) = &shared.room_logs {
        logs.close().await;
    }
    info!("server stopped");
    Ok(())
}

/// Takes up every match whose room log survived the last run (see `durable/`).
async fn restore_rooms(lobby: &Arc<lobby::Lobby>) {
    let Some(dir) = lobby
        .services
        .room_logs
        .as_ref()
        .map(|l| l.dir().to_path_buf())
    else {
        return;
    };
    let loaded = tokio::task::spawn_blocking(move || durable::load_all(&dir))
        .await
        .unwrap_or_default();
    let found = loaded.len();
    let mut restored = 0;
    for log in loaded {
        let log = match log {
            durable::AnyLoaded::Versus(log) => log,
            durable::AnyLoaded::Battle(log) => {
                let code = log.open.code.clone();
                if lobby::restore_battle_room(lobby, *log) {
                    restored += 1;
                } else {
                    tracing::warn!(room = %code, "room log not restored: the code is taken or the server is full");
                }
                continue;
            }
        };
        let (code, options) = (log.open.code.clone(), log.open.options);
        if lobby::restore_room(lobby, code.clone(), options, room::Start::Restored(log)) {
            restored += 1;
        } else {
            tracing::warn!(room = %code, "room log not restored: the code is taken or the server is full");
        }
    }
    if found > 0 {
        info!(found, restored, "rooms restored from their logs");
    }
}

/// Opens the database the configuration names: PostgreSQL (`postgres`), else the SQLite file
/// (`db`), else none. Off the async runtime: both clients block.
async fn open_storage(
    config: &Config,
    metrics: &metrics::Metrics,
) -> Result<Option<db::Db>, ServerError> {
    let storage: Arc<dyn sevenbag_storage::Storage> = if let Some(url) = &config.postgres {
        let url = url.clone();
        let opened =
            tokio::task::spawn_blocking(move || sevenbag_storage::PostgresStorage::connect(&url))
                .await
                .map_err(|e| ServerError::Task(e.to_string()))??;
        info!(db = %opened.describe(), "database open (PostgreSQL)");
        Arc::new(opened)
    } else if let Some(path) = &config.db {
        let path = path.clone();
        let opened =
            tokio::task::spawn_blocking(move || sevenbag_storage::SqliteStorage::open(&path))
                .await
                .map_err(|e| ServerError::Task(e.to_string()))??;
        info!(db = %opened.path().display(), "database open");
        Arc::new(opened)
    } else {
        return Ok(None);
    };
    Ok(Some(db::Db::start(
        storage,
        metrics.clone(),
        config.moderation.screening,
    )))
}

/// A server started by [`spawn`]. Dropping it signals shutdown without waiting.
#[derive(Debug)]
pub struct ServerHandle {
    addr: SocketAddr,
    /// The datagram path's UDP address (the same port), when it runs.
    udp: Option<SocketAddr>,
    tls: bool,
    stop: Option<oneshot::Sender<()>>,
    drain: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<Result<(), ServerError>>>,
}

impl ServerHandle {
    /// The address the server listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The datagram path's UDP address (the listener's port number), if it was bound.
    pub fn datagram_addr(&self) -> Option<SocketAddr> {
        self.udp
    }

    /// `ws://127.0.0.1:PORT/`, or `wss://` when the server serves TLS.
    pub fn url(&self) -> String {
        let scheme = if self.tls { "wss" } else { "ws" };
        format!("{scheme}://{}/", self.addr)
    }

    /// Starts a graceful drain (what SIGTERM does to the binary); see [`run_with_drain`].
    /// [`ServerHandle::wait`] then returns when the server has stopped by itself.
    pub fn drain(&mut self) {
        if let Some(drain) = self.drain.take() {
            let _ = drain.send(());
        }
    }

    /// Waits until the server stops on its own (after [`ServerHandle::drain`]), without
    /// signalling anything.
    pub async fn wait(mut self) -> Result<(), ServerError> {
        match self.task.take() {
            Some(task) => task.await.map_err(|e| ServerError::Task(e.to_string()))?,
            None => Ok(()),
        }
    }

    /// Shuts the server down and waits until every client was told and every replay written.
    pub async fn shutdown(mut self) -> Result<(), ServerError> {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        self.wait().await
    }
}

/// Binds `127.0.0.1:0` (and, for the datagram path, UDP on the same port: the rare port taken
/// on UDP is another try), starts [`run_with_drain`] on a task, and returns its handle.
pub async fn spawn(config: Config) -> std::io::Result<ServerHandle> {
    let mut tries = 0;
    loop {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        if !config.datagrams {
            return spawn_inner(listener, None, config).await;
        }
        tries += 1;
        match udp_twin(&listener) {
            Some(udp) => return spawn_inner(listener, Some(udp), config).await,
            None if tries < 20 => continue,
            None => return spawn_inner(listener, None, config).await,
        }
    }
}

/// [`spawn`] on a listener the caller bound (so it knows the address first, e.g. for
/// [`ClusterConfig::public_url`]); the datagram path binds UDP at its address.
pub async fn spawn_on(listener: TcpListener, config: Config) -> std::io::Result<ServerHandle> {
    let udp = if config.datagrams {
        udp_twin(&listener)
    } else {
        None
    };
    spawn_inner(listener, udp, config).await
}

async fn spawn_inner(
    listener: TcpListener,
    udp: Option<std::net::UdpSocket>,
    config: Config,
) -> std::io::Result<ServerHandle> {
    std::fs::create_dir_all(&config.replay_dir)?;
    if let Some(dir) = &config.web_dir {
        web::resolve_root(dir).map_err(std::io::Error::other)?;
    }
    let addr = listener.local_addr()?;
    let tls = config.tls.is_some();
    let (stop, stopped) = oneshot::channel::<()>();
    let (drain, drained) = oneshot::channel::<()>();
    // The stop signal fires on `send` or when the handle (and so the sender) is dropped; the
    // drain signal only on `send`.
    let udp_addr = udp.as_ref().and_then(|u| u.local_addr().ok());
    let serving = serve(
        listener,
        udp,
        config,
        async move {
            if drained.await.is_err() {
                std::future::pending::<()>().await;
            }
        },
        async move {
            let _ = stopped.await;
        },
    );
    // A server that stops on an error (its database, Redis or a directory at start) closes its
    // port at once; say why where it happens, not only to whoever awaits the handle.
    let task = tokio::spawn(async move {
        let result = serving.await;
        if let Err(e) = &result {
            tracing::error!(%addr, error = %e, "the server stopped on an error");
        }
        result
    });
    Ok(ServerHandle {
        addr,
        udp: udp_addr,
        tls,
        stop: Some(stop),
        drain: Some(drain),
        task: Some(task),
    })
}
