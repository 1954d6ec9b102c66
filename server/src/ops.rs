//! Routes for operators rather than players: `GET /metrics` (Prometheus text format),
//! `GET /healthz` (the process is alive and serving) and `GET /readyz` (it should get new
//! players: not draining, its database answers, and Redis answers when it is in a cluster). `docs/SERVER.md` shows how to use them.
//!
//! They are ordinary routes on the game's port, so they share its limits; a deployment that
//! does not want them public blocks the paths at its proxy or firewall.

use std::sync::Arc;

use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use sevenbag_storage::PlayerId;

use crate::shared::Shared;

/// The Prometheus text exposition format's content type.
const PROMETHEUS_TEXT: &str = "text/plain; version=0.0.4; charset=utf-8";

/// The operator routes.
pub(crate) fn routes() -> Router<Arc<Shared>> {
    Router::new()
        .route("/metrics", get(metrics))
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
}

/// `GET /metrics`: every `sevenbag_*` metric.
async fn metrics(State(shared): State<Arc<Shared>>) -> Response {
    match shared.metrics.render() {
        Ok(text) => ([(header::CONTENT_TYPE, PROMETHEUS_TEXT)], text).into_response(),
        Err(e) => {
            tracing::error!(error = %e, "cannot render metrics");
            (StatusCode::INTERNAL_SERVER_ERROR, "cannot render metrics\n").into_response()
        }
    }
}

/// `GET /healthz`: `200 ok` whenever the server answers at all.
async fn healthz() -> &'static str {
    "ok\n"
}

/// `GET /readyz`: `200 ready` when the server takes new players; `503` with the reason while
/// draining, when the database does not answer a cheap query, or when Redis does not answer
/// `PING` (`--redis`).
async fn readyz(State(shared): State<Arc<Shared>>) -> Response {
    if shared.draining.is_draining() {
        return (StatusCode::SERVICE_UNAVAILABLE, "draining\n").into_response();
    }
    if let Some(db) = &shared.db {
        // A primary-key lookup of a player that cannot exist: touches the database file and
        // nothing else.
        if let Err(e) = db.read(|s| s.player(PlayerId(0))).await {
            tracing::warn!(error = %e, "readiness: the database does not answer");
            return (StatusCode::SERVICE_UNAVAILABLE, "database unavailable\n").into_response();
        }
    }
    if let Some(cluster) = &shared.cluster
        && let Err(e) = cluster.ready().await
    {
        tracing::warn!(error = %e, "readiness: redis does not answer");
        return (StatusCode::SERVICE_UNAVAILABLE, "redis unavailable\n").into_response();
    }
    (StatusCode::OK, "ready\n").into_response()
}
