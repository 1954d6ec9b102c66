//! The one HTTP stack on the server's port: every accepted socket is an HTTP/1.1 connection
//! served by hyper, routed by axum; a WebSocket upgrade hands the socket to the game protocol
//! (`crate::client`), anything else is answered by a route.
//!
//! # Adding a route
//! Add it in [`router`] (static files, ...): a handler gets the server's [`Shared`] state
//! through axum's `State`. The operator routes (`/metrics`, `/healthz`, `/readyz`) are in
//! `crate::ops`, the API in `crate::api`, the admin API (`/admin/`) in `crate::admin`. Every route inherits the limits below; nothing
//! else is needed.
//!
//! # Limits (the same as the WebSocket path's)
//! - a connection holds one of `max_connections` permits for its whole life, HTTP or WebSocket;
//!   past them the socket is still answered, with `503` or a `ServerFull` WebSocket error;
//! - request headers: at most [`MAX_HEADER_BYTES`] and [`MAX_HEADERS`], read within
//!   `hello_timeout` (also how long an idle keep-alive connection stays open);
//! - request bodies: at most `max_message_bytes` (the API takes none);
//! - requests per connection: the messages' token bucket (`messages_per_second`, burst
//!   `message_burst`), `429` past it;
//! - a plain HTTP connection lives at most [`HTTP_CONNECTION_LIFETIME`], so a client that never
//!   reads its response cannot hold a permit forever.
//!
//! # Why hyper and axum
//! hyper is the HTTP implementation tokio's ecosystem is built on (no hand-written parsing), and
//! its upgrade API gives the raw socket back, which tokio-tungstenite wraps with our exact
//! `WebSocketConfig` (`connection::websocket`): the relay keeps every frame limit it had. axum
//! adds routing, typed extractors and JSON with little code, over the same hyper; its own
//! WebSocket extractor is not used because it would hide tungstenite's configuration.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Body;
use axum::extract::{DefaultBodyLimit, Request};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use futures_util::SinkExt;
use hyper::server::conn::http1;
use hyper::upgrade::OnUpgrade;
use hyper_util::rt::{TokioIo, TokioTimer};
use sevenbag_protocol::ErrorCode;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::OwnedSemaphorePermit;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::handshake::derive_accept_key;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tower::ServiceExt;
use tracing::{debug, info, warn};

use crate::admin;
use crate::api;
/// JSON error bodies live with the API (`api::error`); re-exported for the routes here.
pub(crate) use crate::api::error;
use crate::client;
use crate::connection;
use crate::limits::TokenBucket;
use crate::ops;
use crate::relay::{self, Cut};
use crate::shared::Shared;
use crate::shutdown::{Shutdown, TaskGuard};
use crate::web;

/// Largest request head (request line and headers), in bytes: a browser's is under 2 KiB.
pub(crate) const MAX_HEADER_BYTES: usize = 16 * 1024;
/// Most request headers.
pub(crate) const MAX_HEADERS: usize = 64;
/// Longest life of a connection that has not upgraded to a WebSocket.
pub(crate) const HTTP_CONNECTION_LIFETIME: Duration = Duration::from_secs(60);
/// Bytes read and thrown away while closing a refused WebSocket.
const REFUSE_LINGER_BYTES: usize = 64 * 1024;

/// Whether a connection got a permit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Admission {
    /// Served normally.
    Serve,
    /// The server is full: refused politely (`503`, or `ServerFull` over the WebSocket).
    Refuse,
}

/// Per-connection facts a handler can read from the request's extensions.
#[derive(Clone)]
struct Conn {
    /// Where the upgrade handler leaves the socket for the connection task.
    upgrade: Arc<Mutex<Option<OnUpgrade>>>,
}

/// The routes on the server's port. Add new ones here.
pub(crate) fn router(shared: Arc<Shared>) -> Router {
    let body_limit = shared.config.limits.max_message_bytes;
    // The browser game (`--web-dir`), or a page saying how to build it: a WebSocket upgrade on
    // its paths (`/` above all) still goes to the game protocol, before any of its routes.
    let site = web::routes(shared.config.web_dir.clone())
        .route_layer(axum::middleware::from_fn(websocket_first));
    Router::new()
        // Add routes here: `.merge(...)` a module's routes or `.route(path, get(handler))`.
        .merge(api::routes())
        .merge(admin::routes(shared.clone()))
        .merge(ops::routes())
        .merge(site)
        .fallback(websocket_or_not_found)
        .layer(DefaultBodyLimit::max(body_limit))
        .with_state(shared)
}

/// Serves one accepted socket — plain TCP, or a TLS stream after its handshake — HTTP requests
/// until it upgrades to a WebSocket (then the game protocol until it closes), the client goes
/// away, or a limit is hit.
pub(crate) async fn serve<S>(
    shared: Arc<Shared>,
    router: Router,
    socket: S,
    peer: SocketAddr,
    admission: Admission,
    _permit: OwnedSemaphorePermit,
    _guard: TaskGuard,
) where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let limits = shared.config.limits.clone();
    let mut shutdown = Shutdown::new(shared.shutdown.clone());
    let upgrade = Arc::new(Mutex::new(None));
    let conn = Conn {
        upgrade: upgrade.clone(),
    };
    let bucket = Arc::new(Mutex::new(TokenBucket::new(
        limits.messages_per_second,
        limits.message_burst,
        Instant::now(),
    )));
    let rate = (limits.messages_per_second, limits.message_burst);
    let service = hyper::service::service_fn(move |mut request: hyper::Request<_>| {
        let admitted = bucket
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take(Instant::now());
        request.extensions_mut().insert(conn.clone());
        let router = router.clone();
        async move {
            if !admitted {
                return Ok(error(
                    StatusCode::TOO_MANY_REQUESTS,
                    &format!(
                        "more than {} requests per second (burst {})",
                        rate.0, rate.1
                    ),
                ));
            }
            if admission == Admission::Refuse && !is_websocket_upgrade(request.headers()) {
                return Ok(error(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "the server is full; try again later",
                ));
            }
            router.oneshot(request.map(Body::new)).await
        }
    });
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.hello_timeout)
        .max_headers(MAX_HEADERS)
        .max_header_size(MAX_HEADER_BYTES)
        .max_buf_size(MAX_HEADER_BYTES.max(limits.max_message_bytes).max(8192));
    let connection = builder
        .serve_connection(TokioIo::new(socket), service)
        .with_upgrades();
    tokio::select! {
        served = tokio::time::timeout(HTTP_CONNECTION_LIFETIME, connection) => match served {
            Ok(Ok(())) => {}
            Ok(Err(e)) => debug!(%peer, error = %e, "HTTP connection ended with an error"),
            Err(_) => debug!(%peer, "HTTP connection reached its lifetime"),
        },
        _ = shutdown.recv() => return,
    }
    let pending = upgrade.lock().unwrap_or_else(|p| p.into_inner()).take();
    let Some(pending) = pending else {
        return;
    };
    // The 101 response is written; the socket is handed over at once.
    let io = tokio::select! {
        io = tokio::time::timeout(limits.hello_timeout, pending) => match io {
            Ok(Ok(io)) => io,
            Ok(Err(e)) => {
                info!(%peer, error = %e, "WebSocket upgrade failed");
                return;
            }
            Err(_) => {
                info!(%peer, "WebSocket upgrade timed out");
                return;
            }
        },
        _ = shutdown.recv() => return,
    };
    let ws = connection::websocket(io, &limits).await;
    match admission {
        Admission::Serve => client::serve(shared, ws, peer).await,
        Admission::Refuse => refuse(&shared, ws, peer).await,
    }
}

/// Tells a WebSocket client the server is full, within the hello timeout.
async fn refuse(shared: &Shared, mut ws: connection::Ws, peer: SocketAddr) {
    let limits = &shared.config.limits;
    warn!(%peer, max = limits.max_connections, "server full; refusing connection");
    let cut = Cut::error(ErrorCode::ServerFull, "the server is full; try again later");
    let refused = async {
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
        Some(())
    };
    if let Ok(Some(())) = tokio::time::timeout(limits.hello_timeout, refused).await {
        connection::linger(ws, limits.close_grace, REFUSE_LINGER_BYTES).await;
    }
}

/// Whether the request asks for a WebSocket (RFC 6455 §4.2.1).
fn is_websocket_upgrade(headers: &HeaderMap) -> bool {
    let has_token = |name: header::HeaderName, token: &str| {
        headers.get_all(name).iter().any(|v| {
            v.to_str()
                .is_ok_and(|v| v.split(',').any(|t| t.trim().eq_ignore_ascii_case(token)))
        })
    };
    has_token(header::UPGRADE, "websocket") && has_token(header::CONNECTION, "upgrade")
}

/// In front of routes that answer any path (the site): a WebSocket upgrade goes to the game.
async fn websocket_first(request: Request, next: axum::middleware::Next) -> Response {
    if is_websocket_upgrade(request.headers()) {
        websocket_or_not_found(request).await
    } else {
        next.run(request).await
    }
}

/// Any path: a WebSocket upgrade becomes a game connection; anything else is `404`.
async fn websocket_or_not_found(mut request: Request) -> Response {
    if !is_websocket_upgrade(request.headers()) {
        return error(StatusCode::NOT_FOUND, "no such page");
    }
    if request.method() != Method::GET {
        return error(
            StatusCode::METHOD_NOT_ALLOWED,
            "a WebSocket upgrade is a GET",
        );
    }
    let headers = request.headers();
    if headers.get(header::SEC_WEBSOCKET_VERSION) != Some(&HeaderValue::from_static("13")) {
        return (
            StatusCode::UPGRADE_REQUIRED,
            [(header::SEC_WEBSOCKET_VERSION, "13")],
            "WebSocket version 13 only",
        )
            .into_response();
    }
    let Some(key) = headers
        .get(header::SEC_WEBSOCKET_KEY)
        .filter(|k| k.len() == 24)
    else {
        return error(StatusCode::BAD_REQUEST, "missing or bad Sec-WebSocket-Key");
    };
    let accept = derive_accept_key(key.as_bytes());
    let Some(conn) = request.extensions().get::<Conn>().cloned() else {
        return error(StatusCode::INTERNAL_SERVER_ERROR, "no connection state");
    };
    let on_upgrade = hyper::upgrade::on(&mut request);
    *conn.upgrade.lock().unwrap_or_else(|p| p.into_inner()) = Some(on_upgrade);
    Response::builder()
        .status(StatusCode::SWITCHING_PROTOCOLS)
        .header(header::UPGRADE, "websocket")
        .header(header::CONNECTION, "Upgrade")
        .header(header::SEC_WEBSOCKET_ACCEPT, accept)
        .body(Body::empty())
        .unwrap_or_else(|_| error(StatusCode::INTERNAL_SERVER_ERROR, "bad upgrade response"))
}
