//! The read-only JSON API under `/api` (documented with examples in `docs/SERVER.md`).
//!
//! Every parameter is validated before the database sees it: names by the name rules, ids as
//! positive integers of at most 18 digits, `limit` within `1..=MAX_LIMIT`. Errors are JSON
//! `{"error": "..."}` with a 4xx status; `503` when the server keeps no database.
//!
//! `/api/players/{name}/stats` (a player's rating history, averages and solo bests) is in
//! `stats` (`api/stats.rs`). `/api/leaderboard/sprint` and `/api/leaderboard/blitz` list each
//! player's best verified solo run (see `crate::solo_records`). A player's own friends, requests and notifications
//! (`/api/me/...`, authenticated by their key) are in `crate::api_social`.

use std::sync::Arc;

use axum::Router;
use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde::Deserialize;
use serde_json::{Value, json};
use sevenbag_protocol::identity::{name_key, validate_name};
use sevenbag_storage::{
    HistoryEntry, MatchId, Outcome, Player, PlayerId, Rating, SoloBoard, SoloStanding,
    StorageError, StoredMatch,
};

use crate::db::{self, Db, LEADERBOARD_MIN_GAMES};
use crate::history::{battle_json, fit_only, place_text, stats_json};
use crate::ranked;
use crate::shared::Shared;

mod stats;

/// Largest `limit` of a list.
pub(crate) const MAX_LIMIT: u32 = 500;
/// Matches listed on a player's page.
const RECENT_MATCHES: u32 = 20;

/// The `/api` routes.
pub(crate) fn routes() -> Router<Arc<Shared>> {
    Router::new()
        .route("/api/leaderboard", get(leaderboard))
        .route("/api/leaderboard/sprint", get(sprint_board))
        .route("/api/leaderboard/blitz", get(blitz_board))
        .route("/api/players/{name}", get(player))
        .route("/api/players/{name}/stats", get(stats::player_stats))
        .route("/api/matches/{id}", get(one_match))
        .route("/api/matches/{id}/replay", get(replay))
        .merge(crate::api_social::routes())
        .layer(axum::middleware::map_response(json_errors))
}

/// Any error answer of an `/api` route that is not JSON yet (axum's own: a method the route
/// does not take, an extractor's rejection) becomes `{"error": "..."}` with the same status and
/// headers, as the API documents.
async fn json_errors(response: Response) -> Response {
    let status = response.status();
    let json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if json || !(status.is_client_error() || status.is_server_error()) {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let text = axum::body::to_bytes(body, 4096).await.unwrap_or_default();
    let text = String::from_utf8_lossy(&text);
    let message = match text.trim() {
        "" => status.canonical_reason().unwrap_or("error").to_lowercase(),
        text => text.to_string(),
    };
    let json = error(status, &message);
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static("application/json"),
    );
    Response::from_parts(parts, json.into_body())
}

/// An API error: its status and the text of `{"error": ...}`.
#[derive(Debug)]
pub(crate) struct ApiError {
    status: StatusCode,
    message: String,
}

impl ApiError {
    pub(crate) fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        error(self.status, &self.message)
    }
}

pub(crate) type ApiResult = Result<Response, ApiError>;

/// `?limit=N`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ListQuery {
    limit: Option<u32>,
}

fn limit(query: Result<Query<ListQuery>, QueryRejection>, default: u32) -> Result<u32, ApiError> {
    let bad = || {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            format!("limit must be a whole number from 1 to {MAX_LIMIT}"),
        )
    };
    let Query(q) = query.map_err(|_| bad())?;
    match q.limit {
        None => Ok(default),
        Some(n) if (1..=MAX_LIMIT).contains(&n) => Ok(n),
        Some(_) => Err(bad()),
    }
}

pub(crate) fn database(shared: &Shared) -> Result<&Db, ApiError> {
    shared.db.as_ref().ok_or_else(|| {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "this server keeps no database",
        )
    })
}

pub(crate) fn failed(e: StorageError) -> ApiError {
    tracing::error!(error = %e, "API database read failed");
    ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "database unavailable")
}

fn rating_json(r: Option<Rating>) -> Value {
    r.map_or(
        Value::Null,
        |r| json!({ "rating": round1(r.rating), "rd": round1(r.deviation) }),
    )
}

pub(crate) fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

fn player_json(p: &Player, place: Option<u64>, now: u64) -> Value {
    let r = ranked::decayed(p.rating, p.last_played_unix, now);
    json!({
        "name": p.name,
        "rating": round1(r.rating),
        "rd": round1(r.deviation),
        "volatility": r.volatility,
        "games": p.games,
        "wins": p.wins,
        "place": place,
        "created_unix": p.created_unix,
        "last_played_unix": p.last_played_unix,
    })
}

/// A stored match; `bots`: which of its players are declared bots (marked `"bot": true`).
fn match_json(m: &StoredMatch, bots: &[PlayerId]) -> Value {
    let r = &m.record;
    let seats: Vec<Value> = r
        .seats
        .iter()
        .map(|s| {
            json!({
                "name": s.name,
                "bot": s.player.is_some_and(|p| bots.contains(&p)),
                "ranked_player": s.player.is_some(),
                "before": rating_json(s.before),
                "after": rating_json(s.after),
                "stats": stats_json(&s.stats),
            })
        })
        .collect();
    json!({
        "id": m.id.0,
        "kind": "versus",
        "ranked": r.ranked,
        "winner": match r.outcome { Outcome::Won(seat) => Value::from(seat), Outcome::Void => Value::Null },
        "void": r.outcome == Outcome::Void,
        "reason": r.reason,
        "score": r.score,
        "rules": serde_json::from_str::<Value>(&r.rules).unwrap_or(Value::Null),
        "duration_frames": r.duration_frames,
        "duration_seconds": round1(f64::from(r.duration_frames) / 60.0),
        "replay": r.replay.as_ref().map(|_| format!("/api/matches/{}/replay", m.id.0)),
        "started_unix": r.started_unix,
        "ended_unix": r.ended_unix,
        "players": seats,
    })
}

/// `GET /api/leaderboard?limit=N`: the best players, best first.
async fn leaderboard(
    State(shared): State<Arc<Shared>>,
    query: Result<Query<ListQuery>, QueryRejection>,
) -> ApiResult {
    let limit = limit(query, 100)?;
    let rows = database(&shared)?
        .read(move |s| s.leaderboard(limit, LEADERBOARD_MIN_GAMES))
        .await
        .map_err(failed)?;
    let now = db::unix_now();
    let rows: Vec<Value> = rows
        .iter()
        .map(|row| player_json(&row.player, Some(row.place), now))
        .collect();
    Ok(axum::Json(rows).into_response())
}

/// A Sprint time in seconds, to the hundredth (truncated, as the game's clock shows it).
pub(crate) fn sprint_seconds(frames: u32) -> f64 {
    (u64::from(frames) * 100 / 60) as f64 / 100.0
}

/// "2026-11-23T10:31:07Z" of a Unix time in seconds.
pub(crate) fn utc_date(unix: u64) -> String {
    sevenbag_protocol::civil::CivilUtc::from_unix(unix).rfc3339()
}

fn solo_json(row: &SoloStanding) -> Value {
    let run = &row.run;
    let result = match run.board {
        SoloBoard::Sprint => Value::from(sprint_seconds(run.frames)),
        SoloBoard::Blitz => Value::from(run.score),
    };
    json!({
        "place": row.place,
        "name": row.name,
        "result": result,
        "frames": run.frames,
        "score": run.score,
        "lines": run.lines,
        "pieces": run.pieces,
        "date": utc_date(run.recorded_unix),
        "recorded_unix": run.recorded_unix,
    })
}

async fn solo_board(
    shared: &Shared,
    board: SoloBoard,
    query: Result<Query<ListQuery>, QueryRejection>,
) -> ApiResult {
    let limit = limit(query, 100)?;
    let rows = database(shared)?
        .read(move |s| s.solo_leaderboard(board, limit))
        .await
        .map_err(failed)?;
    let rows: Vec<Value> = rows.iter().map(solo_json).collect();
    Ok(axum::Json(rows).into_response())
}

/// `GET /api/leaderboard/sprint?limit=N`: each player's fastest verified 40-line Sprint.
async fn sprint_board(
    State(shared): State<Arc<Shared>>,
    query: Result<Query<ListQuery>, QueryRejection>,
) -> ApiResult {
    solo_board(&shared, SoloBoard::Sprint, query).await
}

/// `GET /api/leaderboard/blitz?limit=N`: each player's highest verified Blitz score.
async fn blitz_board(
    State(shared): State<Arc<Shared>>,
    query: Result<Query<ListQuery>, QueryRejection>,
) -> ApiResult {
    solo_board(&shared, SoloBoard::Blitz, query).await
}

/// `GET /api/players/{name}`: a player and their latest matches.
async fn player(
    State(shared): State<Arc<Shared>>,
    name: Result<Path<String>, PathRejection>,
) -> ApiResult {
    let key = player_key(name)?;
    let db = database(&shared)?;
    let found = db
        .read(move |s| {
            let Some(p) = s.player_by_name_key(&key)? else {
                return Ok(None);
            };
            let place = s.place_of(p.id, LEADERBOARD_MIN_GAMES)?;
            let recent = fit_only(s.recent_history(p.id, RECENT_MATCHES)?);
            let bots = s.bots_among(&players_of(&recent, Some(p.id)))?;
            Ok(Some((p, place, recent, bots)))
        })
        .await
        .map_err(failed)?;
    let Some((p, place, recent, bots)) = found else {
        return Err(ApiError::new(StatusCode::NOT_FOUND, "no such player"));
    };
    let mut body = player_json(&p, place, db::unix_now());
    body["bot"] = bots.contains(&p.id).into();
    body["recent_matches"] = recent.iter().map(|m| entry_json(m, &bots, p.id)).collect();
    Ok(axum::Json(body).into_response())
}

/// The folded name of a `{name}` path parameter, refused unless it is a valid player name (a
/// path that does not decode to UTF-8, `%ff%fe`, is a bad name like any other).
pub(crate) fn player_key(name: Result<Path<String>, PathRejection>) -> Result<String, ApiError> {
    let name = path_text(name);
    if validate_name(&name).is_err() {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "not a valid player name",
        ));
    }
    Ok(name_key(&name))
}

/// A path parameter, or "" when it does not decode to UTF-8 (then refused as malformed).
pub(crate) fn path_text(path: Result<Path<String>, PathRejection>) -> String {
    path.map(|Path(text)| text).unwrap_or_default()
}

fn match_id(id: &str) -> Result<MatchId, ApiError> {
    let valid = !id.is_empty() && id.len() <= 18 && id.bytes().all(|b| b.is_ascii_digit());
    match id.parse::<i64>() {
        Ok(n) if valid && n > 0 => Ok(MatchId(n)),
        _ => Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "a match id is a positive whole number",
        )),
    }
}

/// A row of a player's history; a battle's row also says where `me` placed (`"place"`:
/// "3rd of 8").
fn entry_json(m: &HistoryEntry, bots: &[PlayerId], me: PlayerId) -> Value {
    match m {
        HistoryEntry::Versus(m) => match_json(m, bots),
        HistoryEntry::Battle(b) => {
            let mut row = battle_json(b, bots);
            if let Some(seat) = b.record.seat_of(me) {
                row["place"] = place_text(&b.record, seat).into();
            }
            row
        }
    }
}

/// The match with this id, of either kind.
async fn stored(shared: &Shared, id: &str) -> Result<HistoryEntry, ApiError> {
    let id = match_id(id)?;
    database(shared)?
        .read(move |s| match s.get_match(id)? {
            Some(m) => Ok(Some(HistoryEntry::Versus(Box::new(m)))),
            None => Ok(s.get_battle(id)?.map(HistoryEntry::Battle)),
        })
        .await
        .map_err(failed)?
        .and_then(|m| fit_only(vec![m]).pop())
        .ok_or_else(|| ApiError::new(StatusCode::NOT_FOUND, "no such match"))
}

/// Every identity that played in `matches`, and `also`.
fn players_of(matches: &[HistoryEntry], also: Option<PlayerId>) -> Vec<PlayerId> {
    let seats = matches.iter().flat_map(|m| match m {
        HistoryEntry::Versus(m) => m.record.seats.iter().map(|s| s.player).collect::<Vec<_>>(),
        HistoryEntry::Battle(b) => b.record.seats.iter().map(|s| s.player).collect(),
    });
    let mut ids: Vec<PlayerId> = seats.flatten().chain(also).collect();
    ids.sort_unstable();
    ids.dedup();
    ids
}

/// `GET /api/matches/{id}`.
async fn one_match(
    State(shared): State<Arc<Shared>>,
    id: Result<Path<String>, PathRejection>,
) -> ApiResult {
    let m = stored(&shared, &path_text(id)).await?;
    let ids = players_of(std::slice::from_ref(&m), None);
    let bots = database(&shared)?
        .read(move |s| s.bots_among(&ids))
        .await
        .map_err(failed)?;
    let body = match &m {
        HistoryEntry::Versus(m) => match_json(m, &bots),
        HistoryEntry::Battle(b) => battle_json(b, &bots),
    };
    Ok(axum::Json(body).into_response())
}

/// `GET /api/matches/{id}/replay`: the replay file (`docs/REPLAY.md`).
async fn replay(
    State(shared): State<Arc<Shared>>,
    id: Result<Path<String>, PathRejection>,
) -> ApiResult {
    let replay = match stored(&shared, &path_text(id)).await? {
        HistoryEntry::Versus(m) => m.record.replay,
        HistoryEntry::Battle(b) => b.record.replay,
    };
    let Some(replay) = replay else {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "this match has no replay",
        ));
    };
    match shared.replays.get(&replay).await {
        Ok(bytes) => Ok((
            [
                (header::CONTENT_TYPE, "application/octet-stream".to_string()),
                (
                    header::CONTENT_DISPOSITION,
                    format!("attachment; filename=\"{replay}.sbrp\""),
                ),
            ],
            bytes,
        )
            .into_response()),
        Err(_) => Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "the replay file is gone",
        )),
    }
}

/// A JSON error body: `{"error": "..."}` with `status`.
pub(crate) fn error(status: StatusCode, message: &str) -> Response {
    (status, axum::Json(serde_json::json!({ "error": message }))).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sprint_times_are_seconds_to_the_hundredth() {
        assert_eq!(sprint_seconds(60 * 41 + 12), 41.2);
        assert_eq!(sprint_seconds(1), 0.01);
    }
}
