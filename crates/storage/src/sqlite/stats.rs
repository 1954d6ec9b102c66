//! A player's statistics on SQLite: the rating history, the seat totals of their latest
//! matches and the progression of their solo bests (`crate::stats`).

use rusqlite::{Connection, params};

use super::seats::seat_rating;
use crate::stats::SEAT_WON;
use crate::{MatchId, PlayerId, RatingPoint, SeatTotals, SoloBoard, SoloEntry};

pub(super) fn rating_history(
    conn: &Connection,
    player: PlayerId,
    limit: u32,
) -> rusqlite::Result<Vec<RatingPoint>> {
    let mut stmt = conn.prepare_cached(
        "SELECT s.match_id, m.ended_unix, s.rating_after, s.deviation_after, s.volatility_after \
         FROM match_seats s JOIN matches m ON m.id = s.match_id \
         WHERE s.player_id = ?1 AND m.kind = 'versus' AND m.ranked != 0 \
         AND s.rating_after IS NOT NULL AND s.deviation_after IS NOT NULL \
         AND s.volatility_after IS NOT NULL ORDER BY s.match_id DESC LIMIT ?2",
    )?;
    let rows = stmt.query_map(params![player.0, limit], |r| {
        Ok((
            MatchId(r.get(0)?),
            r.get::<_, i64>(1)?.max(0) as u64,
            seat_rating(r, 2)?,
        ))
    })?;
    let mut points = Vec::new();
    for row in rows {
        let (match_id, ended_unix, rating) = row?;
        if let Some(rating) = rating {
            points.push(RatingPoint {
                match_id,
                ended_unix,
                rating,
            });
        }
    }
    points.reverse();
    Ok(points)
}

pub(super) fn seat_totals(
    conn: &Connection,
    player: PlayerId,
    limit: u32,
) -> rusqlite::Result<SeatTotals> {
    // `SEAT_WON` is one of our own constant strings, never outside input.
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT COUNT(*), COALESCE(SUM(won), 0), COALESCE(SUM(pieces), 0), \
         COALESCE(SUM(attack), 0), COALESCE(SUM(garbage_cleared), 0), COALESCE(SUM(frames), 0), \
         COALESCE(SUM(pps_x100), 0), COALESCE(SUM(apm_x100), 0), COALESCE(SUM(vs_x100), 0) \
         FROM (SELECT {SEAT_WON} AS won, s.pieces, s.attack, s.garbage_cleared, s.frames, \
         s.pps_x100, s.apm_x100, s.vs_x100 FROM match_seats s JOIN matches m \
         ON m.id = s.match_id WHERE s.player_id = ?1 ORDER BY s.match_id DESC LIMIT ?2)"
    ))?;
    stmt.query_row(params![player.0, limit], |r| {
        let n = |k: usize| r.get::<_, i64>(k).map(|v| v.max(0) as u64);
        Ok(SeatTotals {
            matches: u32::try_from(n(0)?).unwrap_or(u32::MAX),
            wins: u32::try_from(n(1)?).unwrap_or(u32::MAX),
            pieces: n(2)?,
            attack: n(3)?,
            garbage_cleared: n(4)?,
            frames: n(5)?,
            pps_x100: n(6)?,
            apm_x100: n(7)?,
            vs_x100: n(8)?,
        })
    })
}

pub(super) fn solo_progression(
    conn: &Connection,
    player: PlayerId,
    board: SoloBoard,
    limit: u32,
) -> rusqlite::Result<Vec<SoloEntry>> {
    let mut stmt = conn.prepare_cached(
        "SELECT frames, lines, pieces, score, recorded_unix FROM solo_runs \
         WHERE player_id = ?1 AND mode = ?2 AND personal_best = 1 ORDER BY id DESC LIMIT ?3",
    )?;
    let mut runs = stmt
        .query_map(params![player.0, board.name(), limit], |r| {
            Ok(SoloEntry {
                board,
                frames: r.get(0)?,
                lines: r.get(1)?,
                pieces: r.get(2)?,
                score: r.get::<_, i64>(3)?.max(0) as u64,
                recorded_unix: r.get::<_, i64>(4)?.max(0) as u64,
                personal_best: true,
            })
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    runs.reverse();
    Ok(runs)
}
