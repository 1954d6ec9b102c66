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
//! - [`run`], [`run_with_drain`] and the public names: this file; [`Config`]: `config.rs`;
//!   [`Limits`]: `limits.rs`; [`ServerError`]: `error.rs`; [`spawn`], [`ServerHandle`]:
//!   `handle.rs`; `startup.rs`: opening the stores, restoring rooms, the accept loop until a
//!   drain or a stop, the ordered shutdown.
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
//!   recovery codes; `api.rs`: the read-only JSON API, `api_social.rs` its `/api/me` routes
//!   (a player's friends, requests and notifications, by key), `api/stats.rs` a player's
//!   statistics (`/api/players/NAME/stats`); `solo_records.rs`: solo runs submitted
//!   as replays, re-simulated and kept as per-mode records.
//! - `room/`: one task per room, owning its seats, spectators and match (`seats.rs`: joins,
//!   resumes, leaves; `play.rs`: the match, inputs, results; `persist.rs`: its durable log).
//! - `cluster/`: several instances on one Redis (`--redis`): the shared queues and room
//!   directory, heartbeats and TTLs, redirects (why redirect and not relay: there), and the
//!   pub/sub channel that carries presence and notifications between instances.
//! - `moderation/`: sanctions as every instance enforces them, registration and ranked-pairing
//!   limits, bots, reports and block lists (`docs/MODERATION.md`); `admin/`: the admin API
//!   under `/admin/` (bearer tokens, constant-time check); `screen.rs`: ranked matches
//!   screened for inhuman input.
//! - `social/`: friends, presence and notifications (requests, the presence
//!   book and the sink that reads each connection's match from what it is sent, notifications
//!   kept until seen, rate limits).
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
//! No module imports a module that imports it (the workspace test `tests/tests/checks/module_graph.rs`
//! checks, file by file and between top-level modules): a module gets what it needs from its
//! caller as a handle (`Arc<Services>`, `Arc<Lobby>`), a channel or a trait object
//! (`room::Directory`, `lobby::CodeBook`).
//!
//! ## Design: nobody waits on a client
//! Rooms and the lobby never `await` anything a client controls. Messages to clients go through
//! bounded queues with `try_send`; a client that falls behind is disconnected with `SlowReader`
//! (see `relay.rs`). The only waits are on the server's own tasks (a room's inbox or lock, a
//! replay write), so one bad connection cannot stall anyone else.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod admin;
mod api;
mod api_social;
mod battle_queue;
mod client;
mod cluster;
mod config;
mod connection;
mod datagram;
mod db;
mod durable;
mod error;
mod gate;
mod handle;
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
mod skins;
mod social;
mod solo_boards;
mod solo_records;
mod standings;
mod startup;
mod tls;
mod verdicts;
mod waiting;
mod web;

use std::future::Future;

use tokio::net::TcpListener;

use startup::{serve, udp_twin};

pub use battle_queue::QuickBattleConfig;
pub use cluster::{ClusterConfig, ClusterError, DEFAULT_TTL as DEFAULT_CLUSTER_TTL};
pub use config::{Config, DEFAULT_DRAIN_TIMEOUT, DEFAULT_REPLAY_KEEP, RoomLogDir};
pub use durable::{DEFAULT_FLUSH_EVERY, ROOM_LOG_SUBDIR};
pub use error::ServerError;
pub use handle::{ServerHandle, spawn, spawn_on};
pub use limits::Limits;
pub use moderation::{AdminTokenError, ModerationConfig};
pub use screen::ScreenBounds;
pub use tls::{TlsError, TlsFiles};
pub use web::{WebDirError, default_dir, default_dirs};

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
