//! `GET /api/players/{name}/stats?last=N`: a player's statistics as JSON (documented in
//! `docs/SERVER.md`, "A player's statistics").
//!
//! Everything comes from what the storage already keeps, in one read: the current rating, the
//! rating after each of the latest `N` ranked matches ([`Storage::rating_history`]), the
//! per-seat stats of the latest `N` matches of both kinds summed by the database
//! ([`Storage::seat_totals`]) and averaged here, each solo board's best run with its place, and
//! the runs that raised that best ([`Storage::solo_progression`]). Nothing is re-simulated.
//!
//! [`Storage::rating_history`]: sevenbag_storage::Storage::rating_history
//! [`Storage::seat_totals`]: sevenbag_storage::Storage::seat_totals
//! [`Storage::solo_progression`]: sevenbag_storage::Storage::solo_progression

use std::sync::Arc;

use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use serde::Deserialize;
use serde_json::{Value, json};
use sevenbag_storage::{RatingPoint, SeatTotals, SoloBoard, SoloEntry, SoloStanding};

use super::{ApiError, ApiResult, database, failed, player_key, round1, sprint_seconds, utc_date};
use crate::db;
use crate::ranked;
use crate::shared::Shared;

/// Matches counted when `?last=` is not given.
pub(crate) const DEFAULT_LAST: u32 = 20;
/// The largest `?last=`.
pub(crate) const MAX_LAST: u32 = 200;
/// Runs listed in each board's `pb_progression` (the latest ones).
pub(crate) const MAX_PROGRESSION: u32 = 100;

/// `?last=N`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct StatsQuery {
    last: Option<u32>,
}

fn last(query: Result<Query<StatsQuery>, QueryRejection>) -> Result<u32, ApiError> {
    let bad = || {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            format!("last must be a whole number from 1 to {MAX_LAST}"),
        )
    };
    let Query(q) = query.map_err(|_| bad())?;
    match q.last {
        None => Ok(DEFAULT_LAST),
        Some(n) if (1..=MAX_LAST).contains(&n) => Ok(n),
        Some(_) => Err(bad()),
    }
}

/// `sum / n / scale` to 2 decimals, `null` over no matches.
fn mean(sum: u64, n: u32, scale: f64) -> Value {
    if n == 0 {
        return Value::Null;
    }
    Value::from(round2(sum as f64 / f64::from(n) / scale))
}

/// The averages over the matches `t` sums: rates are each match's rate (as stored, ×100)
/// averaged, `attack` and `pieces` per match.
fn averages_json(t: &SeatTotals) -> Value {
    let n = t.matches;
    json!({
        "matches": n,
        "wins": t.wins,
        "pps": mean(t.pps_x100, n, 100.0),
        "apm": mean(t.apm_x100, n, 100.0),
        "vs": mean(t.vs_x100, n, 100.0),
        "attack": mean(t.attack, n, 1.0),
        "pieces": mean(t.pieces, n, 1.0),
    })
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

fn point_json(p: &RatingPoint) -> Value {
    json!({
        "match_id": p.match_id.0,
        "rating": round1(p.rating.rating),
        "rd": round1(p.rating.deviation),
        "date": utc_date(p.ended_unix),
        "ended_unix": p.ended_unix,
    })
}

/// A run's result: a Sprint's time in seconds to the hundredth, a Blitz's score.
fn result(board: SoloBoard, frames: u32, score: u64) -> Value {
    match board {
        SoloBoard::Sprint => Value::from(sprint_seconds(frames)),
        SoloBoard::Blitz => Value::from(score),
    }
}

fn run_json(r: &SoloEntry) -> Value {
    json!({
        "result": result(r.board, r.frames, r.score),
        "frames": r.frames,
        "score": r.score,
        "lines": r.lines,
        "pieces": r.pieces,
        "date": utc_date(r.recorded_unix),
        "recorded_unix": r.recorded_unix,
    })
}

fn best_json(b: &SoloStanding) -> Value {
    let r = &b.run;
    json!({
        "result": result(r.board, r.frames, r.score),
        "place": b.place,
        "frames": r.frames,
        "score": r.score,
        "lines": r.lines,
        "pieces": r.pieces,
        "date": utc_date(r.recorded_unix),
        "recorded_unix": r.recorded_unix,
    })
}

/// One board's best and its progression, read together.
type Board = (Option<SoloStanding>, Vec<SoloEntry>);

/// `GET /api/players/{name}/stats?last=N`.
pub(crate) async fn player_stats(
    State(shared): State<Arc<Shared>>,
    name: Result<Path<String>, PathRejection>,
    query: Result<Query<StatsQuery>, QueryRejection>,
) -> ApiResult {
    let key = player_key(name)?;
    let last = last(query)?;
    let db = database(&shared)?;
    let found = db
        .read(move |s| {
            let Some(p) = s.player_by_name_key(&key)? else {
                return Ok(None);
            };
            let history = s.rating_history(p.id, last)?;
            let totals = s.seat_totals(p.id, last)?;
            let mut boards: Vec<Board> = Vec::with_capacity(SoloBoard::ALL.len());
            for board in SoloBoard::ALL {
                boards.push((
                    s.solo_best(p.id, board)?,
                    s.solo_progression(p.id, board, MAX_PROGRESSION)?,
                ));
            }
            let bot = s.bots_among(&[p.id])?.contains(&p.id);
            Ok(Some((p, history, totals, boards, bot)))
        })
        .await
        .map_err(failed)?;
    let Some((p, history, totals, boards, bot)) = found else {
        return Err(ApiError::new(StatusCode::NOT_FOUND, "no such player"));
    };
    let r = ranked::decayed(p.rating, p.last_played_unix, db::unix_now());
    let mut bests = serde_json::Map::new();
    let mut progression = serde_json::Map::new();
    for (board, (best, runs)) in SoloBoard::ALL.into_iter().zip(&boards) {
        bests.insert(
            board.name().into(),
            best.as_ref().map_or(Value::Null, best_json),
        );
        progression.insert(
            board.name().into(),
            runs.iter().map(run_json).collect::<Vec<_>>().into(),
        );
    }
    let body = json!({
        "name": p.name,
        "bot": bot,
        "last": last,
        "rating": {
            "rating": round1(r.rating),
            "rd": round1(r.deviation),
            "games": p.games,
            "wins": p.wins,
        },
        "rating_history": history.iter().map(point_json).collect::<Vec<_>>(),
        "averages": averages_json(&totals),
        "personal_bests": bests,
        "pb_progression": progression,
    });
    Ok(axum::Json(body).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn averages_are_means_per_match_to_two_decimals_and_null_over_none() {
        let t = SeatTotals {
            matches: 3,
            wins: 2,
            pieces: 100,
            attack: 10,
            pps_x100: 200 + 250 + 301,
            apm_x100: 3000,
            vs_x100: 1,
            ..SeatTotals::default()
        };
        let v = averages_json(&t);
        assert_eq!(v["pps"], 2.5);
        assert_eq!(v["apm"], 10.0);
        assert_eq!(v["vs"], 0.0);
        assert_eq!(v["pieces"], 33.33);
        assert_eq!(v["attack"], 3.33);
        assert_eq!(
            (v["matches"].as_u64(), v["wins"].as_u64()),
            (Some(3), Some(2))
        );
        let none = averages_json(&SeatTotals::default());
        assert!(none["pps"].is_null() && none["pieces"].is_null());
        assert_eq!(none["matches"], 0);
    }
}
