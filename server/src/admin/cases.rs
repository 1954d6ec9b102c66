//! `/admin/reports` and `/admin/flagged`: players' reports, with links to the replays they
//! name, closed with an action; ranked matches the screening flagged, reviewed.
//!
//! Report ids are random 63-bit numbers, sent as strings (JavaScript loses precision past
//! 2^53); they mean nothing without a token.

use std::sync::Arc;

use axum::Json;
use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{Extension, Path, Query, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use serde::Deserialize;
use serde_json::{Value, json};
use sevenbag_storage::{Action, FlaggedMatch, MatchId, Openness, Report, ReportId};

use super::{
    Answer, Operator, Refused, act, bad, body, database, failed, limit, positive_id, query, reason,
    until,
};
use crate::shared::Shared;

/// `?state=open|closed|all&limit=N`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct CaseQuery {
    state: Option<String>,
    limit: Option<u32>,
}

fn openness(state: Option<&str>) -> Result<Openness, Refused> {
    match state {
        None | Some("open") => Ok(Openness::Open),
        Some("closed") => Ok(Openness::Closed),
        Some("all") => Ok(Openness::All),
        Some(_) => Err(bad("state is open, closed or all")),
    }
}

fn closure_json(c: &Option<sevenbag_storage::Closure>) -> Value {
    c.as_ref().map_or(
        Value::Null,
        |c| json!({ "at_unix": c.at_unix, "by": c.by, "resolution": c.resolution }),
    )
}

fn report_json(r: &Report) -> Value {
    let f = &r.filed;
    json!({
        "id": f.id.0.to_string(),
        "created_unix": f.created_unix,
        "category": f.category,
        "text": f.text,
        "reporter": { "id": f.reporter.0, "name": r.reporter_name },
        "reported": { "id": f.reported.0, "name": r.reported_name },
        "replay": f.replay,
        // The replay file straight from this instance (where the match was played, if the
        // reporter was in it); once stored, the match and its replay through the public API.
        "replay_url": f.replay.as_ref().map(|id| format!("/admin/replays/{id}")),
        "match_id": r.match_id.map(|m| m.0),
        "match_url": r.match_id.map(|m| format!("/api/matches/{}", m.0)),
        "match_replay_url": r.match_id.map(|m| format!("/api/matches/{}/replay", m.0)),
        "closed": closure_json(&r.closed),
    })
}

fn report_id(id: &str) -> Result<ReportId, Refused> {
    positive_id(id, "a report id").map(ReportId)
}

/// `GET /admin/reports`: open reports, oldest first (or closed / all, newest first).
pub(super) async fn reports(
    State(shared): State<Arc<Shared>>,
    q: Result<Query<CaseQuery>, QueryRejection>,
) -> Answer {
    let q = query(q)?;
    let which = openness(q.state.as_deref())?;
    let limit = limit(q.limit, 100)?;
    let rows = database(&shared)?
        .read(move |s| s.reports(which, limit))
        .await
        .map_err(failed)?;
    let reports: Vec<Value> = rows.iter().map(report_json).collect();
    Ok(Json(json!({ "reports": reports })).into_response())
}

/// `GET /admin/reports/{id}`.
pub(super) async fn report(State(shared): State<Arc<Shared>>, Path(id): Path<String>) -> Answer {
    let id = report_id(&id)?;
    let found = database(&shared)?
        .read(move |s| s.report(id))
        .await
        .map_err(failed)?;
    match found {
        Some(r) => Ok(Json(report_json(&r)).into_response()),
        None => Err(Refused(StatusCode::NOT_FOUND, "no such report".into())),
    }
}

/// `{"action": "dismiss|ban|mute|rename|delist", "reason": "...", "until_unix": N, "name": "..."}`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Closing {
    action: String,
    reason: String,
    until_unix: Option<u64>,
    name: Option<String>,
}

/// `POST /admin/reports/{id}/close`: acts on the reported player (its own audit entry), then
/// closes the report with the action's name as its resolution.
pub(super) async fn close(
    State(shared): State<Arc<Shared>>,
    Extension(operator): Extension<Operator>,
    Path(id): Path<String>,
    b: Result<Json<Closing>, JsonRejection>,
) -> Answer {
    let id = report_id(&id)?;
    let b = body(b)?;
    let why = reason(&b.reason)?;
    let until_unix = until(b.until_unix)?;
    let found = database(&shared)?
        .read(move |s| s.report(id))
        .await
        .map_err(failed)?;
    let Some(found) = found.filter(|r| r.closed.is_none()) else {
        return Err(Refused(StatusCode::NOT_FOUND, "no such open report".into()));
    };
    let player = found.filed.reported;
    let (resolution, action) = match b.action.as_str() {
        "dismiss" => ("dismissed", None),
        "ban" => (
            "banned",
            Some(Action::Ban {
                player,
                reason: why.clone(),
                until_unix,
            }),
        ),
        "mute" => (
            "muted",
            Some(Action::Mute {
                player,
                reason: why.clone(),
                until_unix,
            }),
        ),
        "delist" => (
            "delisted",
            Some(Action::Listed {
                player,
                listed: false,
            }),
        ),
        "rename" => {
            let (name, name_key) =
                crate::identity::checked_name(b.name.as_deref().unwrap_or_default())
                    .map_err(|(_, e)| bad(format!("name: {e}")))?;
            (
                "renamed",
                Some(Action::Rename {
                    player,
                    name_key,
                    name,
                }),
            )
        }
        _ => return Err(bad("action is dismiss, ban, mute, rename or delist")),
    };
    if !matches!(b.action.as_str(), "ban" | "mute") && b.until_unix.is_some() {
        return Err(bad("until_unix goes with ban and mute only"));
    }
    if b.action != "rename" && b.name.is_some() {
        return Err(bad("name goes with rename only"));
    }
    if let Some(action) = action {
        let detail = json!({ "report": id.0.to_string(), "until_unix": until_unix });
        act(&shared, &operator, action, why.clone(), detail).await?;
    }
    let closing = Action::CloseReport {
        report: id,
        resolution: resolution.to_string(),
    };
    act(
        &shared,
        &operator,
        closing,
        why,
        json!({ "resolution": resolution }),
    )
    .await
}

fn flag_json(f: &FlaggedMatch) -> Value {
    let id = f.flag.match_id.0;
    json!({
        "match_id": id,
        "seat": f.flag.seat,
        "player_id": f.flag.player.map(|p| p.0),
        "name": f.name,
        "rule": f.flag.rule,
        "detail": f.flag.detail,
        "created_unix": f.flag.created_unix,
        "match_url": format!("/api/matches/{id}"),
        "replay_url": format!("/api/matches/{id}/replay"),
        "review": closure_json(&f.review),
    })
}

/// `GET /admin/flagged`: ranked matches flagged for inhuman input (open: awaiting review).
pub(super) async fn flagged(
    State(shared): State<Arc<Shared>>,
    q: Result<Query<CaseQuery>, QueryRejection>,
) -> Answer {
    let q = query(q)?;
    let which = openness(q.state.as_deref())?;
    let limit = limit(q.limit, 100)?;
    let rows = database(&shared)?
        .read(move |s| s.flagged(which, limit))
        .await
        .map_err(failed)?;
    let flagged: Vec<Value> = rows.iter().map(flag_json).collect();
    Ok(Json(json!({ "flagged": flagged })).into_response())
}

/// `{"verdict": "human|cheat", "reason": "..."}`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Reviewing {
    verdict: String,
    reason: String,
}

/// `POST /admin/flagged/{match_id}/review`: closes the review (the match stays unrated either
/// way; a cheat is then banned with `/admin/players/{id}/ban`).
pub(super) async fn review(
    State(shared): State<Arc<Shared>>,
    Extension(operator): Extension<Operator>,
    Path(id): Path<String>,
    b: Result<Json<Reviewing>, JsonRejection>,
) -> Answer {
    let match_id = MatchId(positive_id(&id, "a match id")?);
    let b = body(b)?;
    let why = reason(&b.reason)?;
    if !matches!(b.verdict.as_str(), "human" | "cheat") {
        return Err(bad("verdict is human or cheat"));
    }
    let action = Action::ReviewFlag {
        match_id,
        verdict: b.verdict.clone(),
    };
    act(
        &shared,
        &operator,
        action,
        why,
        json!({ "verdict": b.verdict }),
    )
    .await
}
