//! The accept loop. The state every task shares is `services.rs` (what rooms need) and
//! `shared.rs` (that plus the lobby and the cluster, for connections).
//!
//! After mini-redis's `server.rs`: the listener accepts, sets `TCP_NODELAY`, takes a connection
//! permit and spawns one task per connection (`crate::http`: HTTP, then the WebSocket if it
//! upgrades); failed accepts back off instead of spinning. With TLS the connection's task does
//! the handshake first, within `Limits::tls_handshake_timeout`, holding the permit: a client
//! that sends garbage or nothing costs one permit for at most that long and is logged.

use std::sync::Arc;
use std::time::Duration;

use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tokio_rustls::TlsAcceptor;
use tracing::{debug, info, warn};

use crate::http::{self, Admission};
use crate::metrics::GaugeGuard;
use crate::shared::Shared;
use crate::shutdown::Shutdown;

/// Connections being refused (`ServerFull`) at once; past this, extra sockets are just closed.
/// Refusing politely costs a handshake each, so it is bounded too.
const MAX_REFUSING: usize = 64;

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
