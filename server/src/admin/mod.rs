//! The admin API under `/admin/` (`docs/MODERATION.md` lists every route with examples).
//!
//! - **Off** without `--admin-token-file`: every `/admin` path answers `404`, as any unknown
//!   page does.
//! - **Authentication first**: every request under `/admin` (unknown paths and wrong methods
//!   included) needs `Authorization: Bearer TOKEN`, checked in constant time
//!   (`crate::moderation`'s tokens) before anything else is looked at; a missing or wrong
//!   token is `401`, counted in `sevenbag_moderation_total{event="admin_unauthorized"}`. So an
//!   unauthenticated caller learns nothing, not even whether a player or a route exists.
//! - **Hostile input**: bodies are JSON objects with known fields only (`deny_unknown_fields`),
//!   within the server's body limit; every field is checked (reasons 1–500 characters without
//!   control characters, names by the name rules, ranges as CIDR, end dates in the future, ids
//!   as positive whole numbers) and refused with `400` and what is wrong.
//! - **Every action is audited**: the action and its audit entry (who, what, when, why) are
//!   written in one transaction. The audit log is read-only here: no route changes it.
//!
//! Layout: this file (routes, authentication, checks); `players.rs` (list, search, sanctions,
//! renames, leaderboards, bot marks); `cases.rs` (reports, flagged matches); `records.rs` (the
//! audit log, address bans, replays by id); `skins.rs` (taking a published skin down).

mod cases;
mod players;
mod records;
mod skins;

use std::sync::Arc;

use axum::Json;
use axum::Router;
use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{Query, Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get, post};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use sevenbag_storage::{Action, Audit, AuditId, StorageError};

use crate::api::error;
use crate::db::{Db, unix_now};
use crate::shared::Shared;

/// Longest reason an operator may give, in characters.
pub(crate) const MAX_REASON_CHARS: usize = 500;
/// Longest a sanction may be set to last (beyond it: with no end date).
const MAX_SANCTION_SECS: u64 = 100 * 365 * 24 * 3600;
/// Largest `limit` of a listing.
const MAX_LIMIT: u32 = 500;

/// The operator a request was authenticated as (the token's name).
#[derive(Clone, Debug)]
struct Operator(String);

/// The `/admin` routes, behind the token check.
pub(crate) fn routes(shared: Arc<Shared>) -> Router<Arc<Shared>> {
    Router::new()
        .route("/admin/players", get(players::list))
        .route("/admin/players/{id}", get(players::one))
        .route("/admin/players/{id}/ban", post(players::ban))
        .route("/admin/players/{id}/unban", post(players::unban))
        .route("/admin/players/{id}/mute", post(players::mute))
        .route("/admin/players/{id}/unmute", post(players::unmute))
        .route("/admin/players/{id}/rename", post(players::rename))
        .route("/admin/players/{id}/delist", post(players::delist))
        .route("/admin/players/{id}/relist", post(players::relist))
        .route("/admin/players/{id}/bot", post(players::bot))
        .route("/admin/reports", get(cases::reports))
        .route("/admin/reports/{id}", get(cases::report))
        .route("/admin/reports/{id}/close", post(cases::close))
        .route("/admin/flagged", get(cases::flagged))
        .route("/admin/flagged/{match_id}/review", post(cases::review))
        .route("/admin/audit", get(records::audit))
        .route(
            "/admin/address-bans",
            get(records::address_bans).post(records::ban_address),
        )
        .route("/admin/address-bans/{id}/lift", post(records::lift))
        .route("/admin/replays/{id}", get(records::replay))
        .route("/admin/skins/{id}/remove", post(skins::remove))
        .route("/admin", any(not_found))
        .route("/admin/", any(not_found))
        .route("/admin/{*rest}", any(not_found))
        .layer(middleware::from_fn_with_state(shared, authenticate))
}

/// In front of every `/admin` route: `404` when the API is off, `401` without a valid token.
async fn authenticate(
    State(shared): State<Arc<Shared>>,
    mut request: Request,
    next: Next,
) -> Response {
    let Some(tokens) = shared.moderation.admin() else {
        return error(StatusCode::NOT_FOUND, "no such page");
    };
    let presented = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.as_bytes().strip_prefix(b"Bearer "))
        .map(<[u8]>::trim_ascii);
    let operator = presented.and_then(|t| tokens.check(t)).map(str::to_string);
    let Some(operator) = operator else {
        shared.metrics.moderation("admin_unauthorized");
        tracing::info!("admin API: a request without a valid token was refused");
        let mut refused = error(
            StatusCode::UNAUTHORIZED,
            "send a valid admin token: Authorization: Bearer TOKEN",
        );
        refused.headers_mut().insert(
            header::WWW_AUTHENTICATE,
            header::HeaderValue::from_static("Bearer realm=\"sevenbag-admin\""),
        );
        return refused;
    };
    request.extensions_mut().insert(Operator(operator));
    next.run(request).await
}

async fn not_found() -> Response {
    error(StatusCode::NOT_FOUND, "no such admin route")
}

/// An admin API error: its status and text.
#[derive(Debug)]
pub(crate) struct Refused(StatusCode, String);

impl IntoResponse for Refused {
    fn into_response(self) -> Response {
        error(self.0, &self.1)
    }
}

type Answer = Result<Response, Refused>;

fn bad(message: impl Into<String>) -> Refused {
    Refused(StatusCode::BAD_REQUEST, message.into())
}

fn database(shared: &Shared) -> Result<&Db, Refused> {
    shared.db.as_ref().ok_or(Refused(
        StatusCode::SERVICE_UNAVAILABLE,
        "this server keeps no database: moderation needs one".into(),
    ))
}

/// A storage failure as the operator should see it.
fn failed(e: StorageError) -> Refused {
    match e {
        StorageError::NoSuchPlayer => Refused(StatusCode::NOT_FOUND, "no such player".into()),
        StorageError::NotFound(what) => Refused(StatusCode::NOT_FOUND, format!("no such {what}")),
        StorageError::NameTaken(name) => Refused(
            StatusCode::CONFLICT,
            format!("the name {name:?} (or one that looks like it) is taken"),
        ),
        e => {
            tracing::error!(error = %e, "admin API database call failed");
            Refused(
                StatusCode::SERVICE_UNAVAILABLE,
                "database unavailable".into(),
            )
        }
    }
}

/// A JSON body of known fields only.
fn body<T: DeserializeOwned>(body: Result<Json<T>, JsonRejection>) -> Result<T, Refused> {
    body.map(|Json(b)| b).map_err(|e| {
        bad(format!(
            "the body is not the JSON this route takes: {}",
            e.body_text()
        ))
    })
}

/// Query parameters of known names only.
fn query<T>(q: Result<Query<T>, QueryRejection>) -> Result<T, Refused> {
    q.map(|Query(q)| q)
        .map_err(|e| bad(format!("bad query parameters: {}", e.body_text())))
}

/// A positive whole number of at most 19 digits (a path's id).
fn positive_id(text: &str, what: &str) -> Result<i64, Refused> {
    let digits = !text.is_empty() && text.len() <= 19 && text.bytes().all(|b| b.is_ascii_digit());
    match text.parse::<i64>() {
        Ok(n) if digits && n > 0 => Ok(n),
        _ => Err(bad(format!("{what} is a positive whole number"))),
    }
}

/// An operator's reason: trimmed, 1 to [`MAX_REASON_CHARS`] characters, no control characters.
fn reason(text: &str) -> Result<String, Refused> {
    let text = text.trim();
    let chars = text.chars().count();
    if chars == 0 || chars > MAX_REASON_CHARS || text.chars().any(char::is_control) {
        return Err(bad(format!(
            "a reason is 1 to {MAX_REASON_CHARS} characters, without control characters"
        )));
    }
    Ok(text.to_string())
}

/// An end date: in the future and within a hundred years.
fn until(until_unix: Option<u64>) -> Result<Option<u64>, Refused> {
    let now = unix_now();
    match until_unix {
        None => Ok(None),
        Some(t) if t > now && t - now <= MAX_SANCTION_SECS => Ok(Some(t)),
        Some(_) => Err(bad(
            "until_unix is a Unix time in the future (at most 100 years away); leave it out for no end date",
        )),
    }
}

/// A listing's `limit`: 1 to [`MAX_LIMIT`], `default` when absent.
fn limit(limit: Option<u32>, default: u32) -> Result<u32, Refused> {
    match limit {
        None => Ok(default),
        Some(n) if (1..=MAX_LIMIT).contains(&n) => Ok(n),
        Some(_) => Err(bad(format!(
            "limit is a whole number from 1 to {MAX_LIMIT}"
        ))),
    }
}

/// Applies `action` with its audit entry, applies it to this instance's live connections (the
/// moderation sync's own step), and answers `{"ok": true, "audit_id": N}`.
async fn act(
    shared: &Shared,
    operator: &Operator,
    action: Action,
    why: String,
    detail: Value,
) -> Answer {
    let db = database(shared)?;
    let (name, target) = sevenbag_storage::moderation::describe(&action);
    let audit = Audit {
        actor: operator.0.clone(),
        action: name.to_string(),
        target: target.clone(),
        reason: why,
        detail: detail.to_string(),
        at_unix: unix_now(),
    };
    let AuditId(id) = db
        .write(move |s| s.moderate(&action, &audit))
        .await
        .map_err(failed)?;
    shared.metrics.moderation("admin_action");
    // In force here before the answer; other instances follow within their sync interval.
    if let Err(e) = crate::moderation::follow(&shared.moderation, db).await {
        tracing::warn!(error = %e, "moderation: the action is stored but not applied here yet");
    }
    tracing::info!(operator = %operator.0, action = name, target = %target, audit_id = id, "admin action");
    Ok(Json(json!({ "ok": true, "audit_id": id })).into_response())
}

/// `{"reason": "..."}`: the body of actions that take only a reason.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Why {
    pub(super) reason: String,
}
