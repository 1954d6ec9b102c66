//! `/admin/audit` (read only), `/admin/address-bans` and `/admin/replays/{id}`.

use std::sync::Arc;

use axum::Json;
use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{Extension, Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use serde::Deserialize;
use serde_json::{Value, json};
use sevenbag_protocol::moderation::valid_replay_id;
use sevenbag_storage::{Action, AddressBan, AuditId};

use super::{
    Answer, Operator, Refused, Why, act, bad, body, database, failed, limit, positive_id, query,
    reason, until,
};
use crate::moderation::parse_range;
use crate::shared::Shared;

/// `?limit=N&before=ID`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct AuditQuery {
    limit: Option<u32>,
    /// Entries older than this id (the next page).
    before: Option<u64>,
}

/// `GET /admin/audit`: the audit log, newest first. There is no route that changes it.
pub(super) async fn audit(
    State(shared): State<Arc<Shared>>,
    q: Result<Query<AuditQuery>, QueryRejection>,
) -> Answer {
    let q = query(q)?;
    let limit = limit(q.limit, 100)?;
    let before = match q.before {
        None => None,
        Some(b) => Some(AuditId(positive_id(&b.to_string(), "before")?)),
    };
    let rows = database(&shared)?
        .read(move |s| s.audit_log(before, limit))
        .await
        .map_err(failed)?;
    let entries: Vec<Value> = rows
        .iter()
        .map(|e| {
            let a = &e.audit;
            json!({
                "id": e.id.0,
                "at_unix": a.at_unix,
                "actor": a.actor,
                "action": a.action,
                "target": a.target,
                "reason": a.reason,
                "detail": serde_json::from_str::<Value>(&a.detail).unwrap_or(Value::Null),
            })
        })
        .collect();
    Ok(Json(json!({ "entries": entries })).into_response())
}

fn address_ban_json(b: &AddressBan) -> Value {
    json!({
        "id": b.id,
        "network": b.network,
        "reason": b.reason,
        "since_unix": b.created_unix,
        "until_unix": b.until_unix,
        "lifted_unix": b.lifted_unix,
        "in_force": b.in_force(crate::db::unix_now()),
    })
}

/// `GET /admin/address-bans`: every address ban, newest first.
pub(super) async fn address_bans(State(shared): State<Arc<Shared>>) -> Answer {
    let rows = database(&shared)?
        .read(|s| s.address_bans(super::MAX_LIMIT))
        .await
        .map_err(failed)?;
    let bans: Vec<Value> = rows.iter().map(address_ban_json).collect();
    Ok(Json(json!({ "address_bans": bans })).into_response())
}

/// `{"network": "203.0.113.0/24", "reason": "...", "until_unix": N}`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Banning {
    network: String,
    reason: String,
    until_unix: Option<u64>,
}

/// `POST /admin/address-bans`: bans a range (connections from it are refused at `Hello`).
pub(super) async fn ban_address(
    State(shared): State<Arc<Shared>>,
    Extension(operator): Extension<Operator>,
    b: Result<Json<Banning>, JsonRejection>,
) -> Answer {
    let b = body(b)?;
    let why = reason(&b.reason)?;
    let until_unix = until(b.until_unix)?;
    let net = parse_range(&b.network).map_err(|e| bad(e.to_string()))?;
    let network = net.to_string();
    let action = Action::BanAddress {
        network: network.clone(),
        reason: why.clone(),
        until_unix,
    };
    let detail = json!({ "network": network, "until_unix": until_unix });
    act(&shared, &operator, action, why, detail).await
}

/// `POST /admin/address-bans/{id}/lift`.
pub(super) async fn lift(
    State(shared): State<Arc<Shared>>,
    Extension(operator): Extension<Operator>,
    Path(id): Path<String>,
    b: Result<Json<Why>, JsonRejection>,
) -> Answer {
    let id = positive_id(&id, "an address ban id")?;
    let why = reason(&body(b)?.reason)?;
    act(
        &shared,
        &operator,
        Action::LiftAddressBan { id },
        why,
        json!({}),
    )
    .await
}

/// `GET /admin/replays/{id}`: a replay file of this instance by its id (the evidence of a
/// report, before or after its match is stored).
pub(super) async fn replay(State(shared): State<Arc<Shared>>, Path(id): Path<String>) -> Answer {
    if !valid_replay_id(&id) {
        return Err(bad("not a replay id"));
    }
    match shared.replays.get(&id).await {
        Ok(bytes) => Ok((
            [
                (header::CONTENT_TYPE, "application/octet-stream".to_string()),
                (
                    header::CONTENT_DISPOSITION,
                    format!("attachment; filename=\"{id}.sbrp\""),
                ),
            ],
            bytes,
        )
            .into_response()),
        Err(_) => Err(Refused(
            StatusCode::NOT_FOUND,
            "this instance has no replay with that id".into(),
        )),
    }
}
