//! The accept loop and the state every task shares.
//!
//! After mini-redis's `server.rs`: the listener accepts, sets `TCP_NODELAY`, takes a connection
//! permit and spawns one task per connection (`crate::http`: HTTP, then the WebSocket if it
//! upgrades); failed accepts back off instead of spinning. With TLS the connection's task does
//! the handshake first, within `Limits::tls_handshake_timeout`, holding the permit: a client
//! that sends garbage or nothing costs one permit for at most that long and is logged.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use tokio::net::TcpListener;
use tokio::sync::{Semaphore, watch};
use tokio_rustls::TlsAcceptor;
use tracing::{debug, info, warn};

use crate::Config;
use crate::db::Db;
use crate::http::{self, Admission};
use crate::lobby::Lobby;
use crate::metrics::{GaugeGuard, Metrics};
use crate::replay::ReplayStore;
use crate::shutdown::{Draining, Shutdown, Tasks};

/// Connections being refused (`ServerFull`) at once; past this, extra sockets are just closed.
/// Refusing politely costs a handshake each, so it is bounded too.
const MAX_REFUSING: usize = 64;

/// State shared by every connection and room task.
#[derive(Debug)]
pub(crate) struct Shared {
    /// The configuration the server was started with.
    pub(crate) config: Config,
    /// Rooms, tokens and the quick-match queue.
    pub(crate) lobby: std::sync::Mutex<Lobby>,
    /// The replay directory.
    pub(crate) replays: ReplayStore,
    /// Identities, ratings and history, when the server has a database.
    pub(crate) db: Option<Db>,
    /// The server's epoch for `Pong { server_ms }`.
    pub(crate) epoch: Instant,
    /// `true` once shutdown began; each task wraps a clone in a `Shutdown`.
    pub(crate) shutdown: watch::Receiver<bool>,
    /// Tracks running tasks so `run` can wait for them.
    pub(crate) tasks: Tasks,
    /// Set once a graceful drain has begun.
    pub(crate) draining: Draining,
    /// The Prometheus metrics (`/metrics`).
    pub(crate) metrics: Metrics,
    /// Running matches' room logs, unless turned off.
    pub(crate) room_logs: Option<crate::durable::RoomLogs>,
    /// This instance's cluster membership (`--redis`), if any.
    pub(crate) cluster: Option<Arc<crate::cluster::Cluster>>,
    /// Next connection id.
    next_client: AtomicU64,
}

/// Where a server keeps what outlives a connection: replays, the database, room logs.
pub(crate) struct Stores {
    /// Finished matches' replays.
    pub(crate) replays: ReplayStore,
    /// Identities, ratings and history, if kept.
    pub(crate) db: Option<Db>,
    /// Running matches' room logs, unless turned off.
    pub(crate) room_logs: Option<crate::durable::RoomLogs>,
}

impl Shared {
    /// Shared state for a server with `config`.
    pub(crate) fn new(
        config: Config,
        stores: Stores,
        metrics: Metrics,
        cluster: Option<Arc<crate::cluster::Cluster>>,
        shutdown: watch::Receiver<bool>,
        tasks: Tasks,
    ) -> Shared {
        let Stores {
            replays,
            db,
            room_logs,
        } = stores;
        Shared {
            config,
            lobby: std::sync::Mutex::new(Lobby::default()),
            replays,
            db,
            epoch: Instant::now(),
            shutdown,
            tasks,
            draining: Draining::default(),
            metrics,
            room_logs,
            cluster,
            next_client: AtomicU64::new(1),
        }
    }

    /// A fresh connection id.
    pub(crate) fn next_client_id(&self) -> u64 {
        self.next_client.fetch_add(1, Ordering::Relaxed)
    }
}

/// A hint for the log when a handshake fails because the peer does not speak TLS at all (the
/// usual mistake: `ws://` or `http://` to a TLS port).
fn tls_hint(e: &std::io::Error) -> &'static str {
    use tokio_rustls::rustls::{Error, InvalidMessage};
    match e.get_ref().and_then(|inner| inner.downcast_ref::<Error>()) {
        Some(Error::InvalidMessage(InvalidMessage::InvalidContentType)) => {
            "not TLS: plain HTTP or ws:// to the TLS port? Use https:// or wss://"
        }
        _ => "",
    }
}

/// Accepts connections until the future is dropped (by `run`, on shutdown).
pub(crate) async fn accept_loop(
    shared: &Arc<Shared>,
    listener: TcpListener,
    tls: Option<TlsAcceptor>,
) {
    // Each connection task holds a permit; when none is left, new sockets are refused with
    // `ServerFull` instead of being queued, so a client learns why at once.
    let connections = Arc::new(Semaphore::new(shared.config.limits.max_connections));
    let refusing = Arc::new(Semaphore::new(MAX_REFUSING));
    let router = http::router(shared.clone());
    let mut backoff = Duration::from_millis(10);
    loop {
        let (socket, peer) = match listener.accept().await {
            Ok(accepted) => {
                backoff = Duration::from_millis(10);
                accepted
            }
            Err(e) => {
                // Usually out of file descriptors: spinning would make it worse. Back off and
                // retry rather than stop serving everyone already connected.
                warn!(error = %e, backoff_ms = backoff.as_millis() as u64, "accept failed");
                tokio::time::sleep(backoff).await;
                backoff = (backoff * 2).min(Duration::from_secs(1));
                continue;
            }
        };
        if let Err(e) = socket.set_nodelay(true) {
            debug!(%peer, error = %e, "cannot set TCP_NODELAY");
        }
        let Some(guard) = shared.tasks.guard() else {
            return;
        };
        let (permit, admission) = match connections.clone().try_acquire_owned() {
            Ok(permit) => (permit, Admission::Serve),
            Err(_) => match refusing.clone().try_acquire_owned() {
                Ok(permit) => (permit, Admission::Refuse),
                Err(_) => {
                    warn!(%peer, "server full; closing the socket");
                    continue;
                }
            },
        };
        let (shared, router, tls) = (shared.clone(), router.clone(), tls.clone());
        tokio::spawn(async move {
            let _socket = GaugeGuard::new(&shared.metrics.sockets);
            let Some(acceptor) = tls else {
                http::serve(shared, router, socket, peer, admission, permit, guard).await;
                return;
            };
            let timeout = shared.config.limits.tls_handshake_timeout;
            let mut shutdown = Shutdown::new(shared.shutdown.clone());
            let handshake = tokio::select! {
                done = tokio::time::timeout(timeout, acceptor.accept(socket)) => done,
                _ = shutdown.recv() => return,
            };
            match handshake {
                Ok(Ok(stream)) => {
                    http::serve(shared, router, stream, peer, admission, permit, guard).await;
                }
                Ok(Err(e)) => {
                    shared.metrics.cut("tls_handshake");
                    info!(%peer, error = %e, hint = tls_hint(&e), "TLS handshake failed; connection closed");
                }
                Err(_) => {
                    shared.metrics.cut("tls_handshake");
                    info!(%peer, timeout_s = timeout.as_secs_f64(), "TLS handshake timed out; connection closed");
                }
            }
        });
    }
}
