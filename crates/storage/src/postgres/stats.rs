//! A player's statistics on PostgreSQL: the rating history, the seat totals of their latest
//! matches and the progression of their solo bests (`crate::stats`), as on SQLite.

use super::seats::seat_rating;
use super::{PostgresStorage, db, u, u32_of};
use crate::stats::SEAT_WON;
use crate::{MatchId, PlayerId, RatingPoint, SeatTotals, SoloBoard, SoloEntry, StorageError};

pub(super) fn rating_history(
    store: &PostgresStorage,
    player: PlayerId,
    limit: u32,
) -> Result<Vec<RatingPoint>, StorageError> {
    let rows = store
        .read()?
        .query(
            "SELECT s.match_id, m.ended_unix, s.rating_after, s.deviation_after, \
             s.volatility_after FROM match_seats s JOIN matches m ON m.id = s.match_id \
             WHERE s.player_id = $1 AND m.kind = 'versus' AND m.ranked \
             AND s.rating_after IS NOT NULL AND s.deviation_after IS NOT NULL \
             AND s.volatility_after IS NOT NULL ORDER BY s.match_id DESC LIMIT $2",
            &[&player.0, &i64::from(limit)],
        )
        .map_err(db)?;
    let mut points = Vec::with_capacity(rows.len());
    for r in rows.iter().rev() {
        if let Some(rating) = seat_rating(r, 2).map_err(db)? {
            points.push(RatingPoint {
                match_id: MatchId(r.try_get(0).map_err(db)?),
                ended_unix: u(r.try_get(1).map_err(db)?),
                rating,
            });
        }
    }
    Ok(points)
}

pub(super) fn seat_totals(
    store: &PostgresStorage,
    player: PlayerId,
    limit: u32,
) -> Result<SeatTotals, StorageError> {
    // `SEAT_WON` is one of our own constant strings, never outside input. `SUM` of `BIGINT`
    // is `NUMERIC` in PostgreSQL, hence the casts.
    let r = store
        .read()?
        .query_one(
            &format!(
                "SELECT COUNT(*), COALESCE(SUM(won), 0)::BIGINT, \
                 COALESCE(SUM(pieces), 0)::BIGINT, COALESCE(SUM(attack), 0)::BIGINT, \
                 COALESCE(SUM(garbage_cleared), 0)::BIGINT, COALESCE(SUM(frames), 0)::BIGINT, \
                 COALESCE(SUM(pps_x100), 0)::BIGINT, COALESCE(SUM(apm_x100), 0)::BIGINT, \
                 COALESCE(SUM(vs_x100), 0)::BIGINT \
                 FROM (SELECT {SEAT_WON} AS won, s.pieces, s.attack, s.garbage_cleared, \
                 s.frames, s.pps_x100, s.apm_x100, s.vs_x100 FROM match_seats s JOIN matches m \
                 ON m.id = s.match_id WHERE s.player_id = $1 ORDER BY s.match_id DESC \
                 LIMIT $2) AS latest"
            ),
            &[&player.0, &i64::from(limit)],
        )
        .map_err(db)?;
    let n = |k: usize| r.try_get::<_, i64>(k).map(u).map_err(db);
    Ok(SeatTotals {
        matches: u32_of(r.try_get(0).map_err(db)?),
        wins: u32_of(r.try_get(1).map_err(db)?),
        pieces: n(2)?,
        attack: n(3)?,
        garbage_cleared: n(4)?,
        frames: n(5)?,
        pps_x100: n(6)?,
        apm_x100: n(7)?,
        vs_x100: n(8)?,
    })
}

pub(super) fn solo_progression(
    store: &PostgresStorage,
    player: PlayerId,
    board: SoloBoard,
    limit: u32,
) -> Result<Vec<SoloEntry>, StorageError> {
    let rows = store
        .read()?
        .query(
            "SELECT frames, lines, pieces, score, recorded_unix FROM solo_runs \
             WHERE player_id = $1 AND mode = $2 AND personal_best = 1 \
             ORDER BY id DESC LIMIT $3",
            &[&player.0, &board.name(), &i64::from(limit)],
        )
        .map_err(db)?;
    rows.iter()
        .rev()
        .map(|r| {
            Ok(SoloEntry {
                board,
                frames: u32_of(r.try_get(0).map_err(db)?),
                lines: u32_of(r.try_get(1).map_err(db)?),
                pieces: u32_of(r.try_get(2).map_err(db)?),
                score: u(r.try_get(3).map_err(db)?),
                recorded_unix: u(r.try_get(4).map_err(db)?),
                personal_best: true,
            })
        })
        .collect()
}
