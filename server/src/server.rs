//! The accept loop and the state every task shares.
//!
//! After mini-redis's `server.rs`: the listener accepts, sets `TCP_NODELAY`, takes a connection
//! permit and spawns one task per connection; failed accepts back off instead of spinning.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use futures_util::SinkExt;
use sevenbag_protocol::ErrorCode;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, watch};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tracing::{debug, warn};

use crate::Config;
use crate::client;
use crate::connection;
use crate::lobby::Lobby;
use crate::relay::{self, Cut};
use crate::replay::ReplayStore;
use crate::shutdown::{TaskGuard, Tasks};

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
    /// The server's epoch for `Pong { server_ms }`.
    pub(crate) epoch: Instant,
    /// `true` once shutdown began; each task wraps a clone in a `Shutdown`.
    pub(crate) shutdown: watch::Receiver<bool>,
    /// Tracks running tasks so `run` can wait for them.
    pub(crate) tasks: Tasks,
    /// Next connection id.
    next_client: AtomicU64,
}

impl Shared {
    /// Shared state for a server with `config`.
    pub(crate) fn new(
        config: Config,
        replays: ReplayStore,
        shutdown: watch::Receiver<bool>,
        tasks: Tasks,
    ) -> Shared {
        Shared {
            config,
            lobby: std::sync::Mutex::new(Lobby::default()),
            replays,
            epoch: Instant::now(),
            shutdown,
            tasks,
            next_client: AtomicU64::new(1),
        }
    }

    /// A fresh connection id.
    pub(crate) fn next_client_id(&self) -> u64 {
        self.next_client.fetch_add(1, Ordering::Relaxed)
    }
}

/// Accepts connections until the future is dropped (by `run`, on shutdown).
pub(crate) async fn accept_loop(shared: &Arc<Shared>, listener: TcpListener) {
    // Each connection task holds a permit; when none is left, new sockets are refused with
    // `ServerFull` instead of being queued, so a client learns why at once.
    let connections = Arc::new(Semaphore::new(shared.config.limits.max_connections));
    let refusing = Arc::new(Semaphore::new(MAX_REFUSING));
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
        match connections.clone().try_acquire_owned() {
            Ok(permit) => {
                tokio::spawn(client::serve(shared.clone(), socket, peer, permit, guard));
            }
            Err(_) => match refusing.clone().try_acquire_owned() {
                Ok(permit) => {
                    tokio::spawn(refuse(shared.clone(), socket, peer, permit, guard));
                }
                Err(_) => warn!(%peer, "server full; closing the socket"),
            },
        }
    }
}

/// Tells a client the server is full, politely and within the hello timeout.
async fn refuse(
    shared: Arc<Shared>,
    socket: TcpStream,
    peer: SocketAddr,
    _permit: OwnedSemaphorePermit,
    _guard: TaskGuard,
) {
    let limits = &shared.config.limits;
    warn!(%peer, max = limits.max_connections, "server full; refusing connection");
    let cut = Cut::error(ErrorCode::ServerFull, "the server is full; try again later");
    let refused = async {
        let mut ws = connection::accept(socket, limits).await.ok()?;
        if let Some(bytes) = cut.last.as_ref().and_then(relay::encode) {
            ws.send(Message::Binary(bytes)).await.ok()?;
        }
        if let Some((code, reason)) = cut.close.clone() {
            let frame = CloseFrame {
                code,
                reason: reason.into(),
            };
            ws.send(Message::Close(Some(frame))).await.ok()?;
        }
        Some(ws)
    };
    if let Ok(Some(ws)) = tokio::time::timeout(limits.hello_timeout, refused).await {
        connection::linger(ws, limits.close_grace, 64 * 1024).await;
    }
}
