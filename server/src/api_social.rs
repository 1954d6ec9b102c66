//! A player's own friends, requests and notifications as JSON under `/api/me` (documented in
//! `docs/SERVER.md`, "HTTP API"), for pages and tools outside the game.
//!
//! Every route needs `Authorization: Bearer KEY`, `KEY` the player's secret key as the game
//! keeps it (64 hex digits, `client/src/identity.rs`). It is looked up exactly as the
//! WebSocket's `Identify { key }` is (`crate::identity::identify`: a hash of the key, found
//! by index; the key itself is never compared). A missing, malformed or unknown key gets the
//! same `401` with the same words, so the answer never says whether a player exists.

use std::sync::Arc;

use axum::Router;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde::Deserialize;
use serde_json::{Value, json};
use sevenbag_protocol::ErrorCode;
use sevenbag_protocol::social::{
    MAX_FRIENDS_PER_PAGE, MatchKind, Notification, NotificationKind, PendingEntry, PresenceState,
};
use sevenbag_storage::{Page, PlayerId};

use crate::identity;
use crate::refusal::Refusal;
use crate::shared::Shared;
use crate::social;

/// Friends on one page of `/api/me/friends`.
const PER_PAGE: u32 = MAX_FRIENDS_PER_PAGE as u32;

/// What every refused key reads.
const UNAUTHORIZED: &str = "send your player key: Authorization: Bearer KEY (64 hex digits)";

/// The `/api/me` routes.
pub(crate) fn routes() -> Router<Arc<Shared>> {
    Router::new()
        .route("/api/me/friends", get(friends))
        .route("/api/me/requests", get(requests))
        .route("/api/me/notifications", get(notifications))
}

/// `{"error": message}` with `status`.
fn error(status: StatusCode, message: &str) -> Response {
    (status, axum::Json(json!({ "error": message }))).into_response()
}

fn unauthorized() -> Response {
    let mut refused = error(StatusCode::UNAUTHORIZED, UNAUTHORIZED);
    refused.headers_mut().insert(
        header::WWW_AUTHENTICATE,
        header::HeaderValue::from_static("Bearer realm=\"sevenbag\""),
    );
    refused
}

/// The answer to a refusal from the database side.
fn failed((code, message): Refusal) -> Response {
    match code {
        ErrorCode::UnknownKey => unauthorized(),
        _ => {
            tracing::warn!(?code, %message, "a /api/me read failed");
            error(StatusCode::SERVICE_UNAVAILABLE, "database unavailable")
        }
    }
}

/// 64 hex digits (either case) as the key's 32 bytes.
fn parse_key(text: &[u8]) -> Option<[u8; 32]> {
    if text.len() != 64 {
        return None;
    }
    let mut key = [0u8; 32];
    for (byte, pair) in key.iter_mut().zip(text.chunks_exact(2)) {
        let pair = std::str::from_utf8(pair).ok()?;
        *byte = u8::from_str_radix(pair, 16).ok()?;
    }
    Some(key)
}

/// The player whose key the request carries, or the response refusing it.
async fn me(shared: &Shared, headers: &HeaderMap) -> Result<PlayerId, Response> {
    if shared.db.is_none() {
        return Err(error(
            StatusCode::SERVICE_UNAVAILABLE,
            "this server keeps no database",
        ));
    }
    let key = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.as_bytes().strip_prefix(b"Bearer "))
        .map(<[u8]>::trim_ascii)
        .and_then(parse_key);
    let Some(key) = key else {
        return Err(unauthorized());
    };
    match identity::identify(shared, key).await {
        Ok(outcome) => Ok(outcome.identity.id),
        Err(refusal) => Err(failed(refusal)),
    }
}

/// A presence as JSON: `{"state": "offline" | "online" | "away" | "in_match" | "spectating"}`,
/// with `kind` (`versus`, `ranked`, `free_for_all`) and `code` in a match, `code` when
/// spectating.
pub(crate) fn presence_json(state: &PresenceState) -> Value {
    match state {
        PresenceState::Offline => json!({ "state": "offline" }),
        PresenceState::Online => json!({ "state": "online" }),
        PresenceState::Away => json!({ "state": "away" }),
        PresenceState::InMatch { kind, code } => {
            let kind = match kind {
                MatchKind::Versus => "versus",
                MatchKind::Ranked => "ranked",
                MatchKind::FreeForAll => "free_for_all",
            };
            json!({ "state": "in_match", "kind": kind, "code": code })
        }
        PresenceState::Spectating { code } => json!({ "state": "spectating", "code": code }),
    }
}

fn kind_text(kind: NotificationKind) -> &'static str {
    match kind {
        NotificationKind::FriendRequest => "friend_request",
        NotificationKind::FriendAccepted => "friend_accepted",
        NotificationKind::Invite => "invite",
        NotificationKind::DirectMessage => "direct_message",
        NotificationKind::TournamentMatchReady => "tournament_match_ready",
        NotificationKind::Other => "other",
    }
}

fn notification_json(n: &Notification) -> Value {
    // Stored content is JSON text; one that does not parse is given as a string.
    let content = serde_json::from_str::<Value>(&n.content)
        .unwrap_or_else(|_| Value::from(n.content.clone()));
    json!({
        "id": n.id,
        "kind": kind_text(n.kind),
        "subject": n.subject,
        "content": content,
        "created_unix": n.created_unix,
    })
}

fn pending_json(list: &[PendingEntry]) -> Vec<Value> {
    list.iter()
        .map(|r| json!({ "name": r.name, "sent_unix": r.sent_unix }))
        .collect()
}

/// `?page=N`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PageQuery {
    page: Option<u32>,
}

/// `GET /api/me/friends?page=N`: page `N` (from 0) of the player's friends, 100 a page, in
/// name order, each with their presence; with the total.
async fn friends(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    query: Result<Query<PageQuery>, QueryRejection>,
) -> Response {
    let id = match me(&shared, &headers).await {
        Ok(id) => id,
        Err(refused) => return refused,
    };
    let page = query.ok().and_then(|Query(q)| {
        let n = q.page.unwrap_or(0);
        n.checked_mul(PER_PAGE).map(|offset| (n, offset))
    });
    let Some((n, offset)) = page else {
        return error(
            StatusCode::BAD_REQUEST,
            "page must be a whole number from 0",
        );
    };
    let page = Page {
        offset,
        limit: PER_PAGE,
    };
    match social::friends(&shared.services, &shared.presence, id, page).await {
        Ok(read) => {
            let rows: Vec<Value> = read
                .friends
                .iter()
                .map(|f| {
                    json!({
                        "name": f.name,
                        "since_unix": f.since_unix,
                        "presence": presence_json(&f.presence),
                    })
                })
                .collect();
            axum::Json(json!({
                "page": n,
                "per_page": PER_PAGE,
                "total": read.total,
                "friends": rows,
            }))
            .into_response()
        }
        Err(refusal) => failed(refusal),
    }
}

/// `GET /api/me/requests`: the player's waiting friend requests, received and sent.
async fn requests(State(shared): State<Arc<Shared>>, headers: HeaderMap) -> Response {
    let id = match me(&shared, &headers).await {
        Ok(id) => id,
        Err(refused) => return refused,
    };
    match social::pending_requests(&shared.services, id).await {
        Ok((incoming, outgoing)) => axum::Json(json!({
            "incoming": pending_json(&incoming),
            "outgoing": pending_json(&outgoing),
        }))
        .into_response(),
        Err(refusal) => failed(refusal),
    }
}

/// `GET /api/me/notifications`: the player's unseen notifications, newest first.
async fn notifications(State(shared): State<Arc<Shared>>, headers: HeaderMap) -> Response {
    let id = match me(&shared, &headers).await {
        Ok(id) => id,
        Err(refused) => return refused,
    };
    match social::unseen(&shared.services, id).await {
        Ok(list) => {
            let rows: Vec<Value> = list.iter().map(notification_json).collect();
            axum::Json(json!({ "notifications": rows })).into_response()
        }
        Err(refusal) => failed(refusal),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_64_hex_digits_of_either_case() {
        let hex = "a5".repeat(31) + "0F";
        let key = parse_key(hex.as_bytes()).expect("a key");
        assert_eq!((key[0], key[31]), (0xa5, 0x0f));
        assert!(parse_key(&hex.as_bytes()[..62]).is_none());
        assert!(parse_key(("g".repeat(64)).as_bytes()).is_none());
        assert!(parse_key("é".repeat(32).as_bytes()).is_none());
    }

    #[test]
    fn presence_reads_as_a_state_with_its_room() {
        let playing = PresenceState::InMatch {
            kind: MatchKind::FreeForAll,
            code: "ACDEF".into(),
        };
        assert_eq!(
            presence_json(&playing),
            json!({"state": "in_match", "kind": "free_for_all", "code": "ACDEF"})
        );
        assert_eq!(
            presence_json(&PresenceState::Offline),
            json!({"state": "offline"})
        );
    }
}
