//! Two-seat matches on PostgreSQL: recording one, reading it back, and the recent lists.

use postgres::Client;
use postgres::types::ToSql;

use super::seats::{insert_seat, seat_rating, stats_at};
use super::{PostgresStorage, db, i, u, u32_of};
use crate::columns::{SEAT_RATINGS, SEAT_STATS, ratings_values};
use crate::{MatchId, MatchRecord, MatchSeat, Outcome, PlayerId, StorageError, StoredMatch};

pub(super) fn load_match(
    conn: &mut Client,
    id: MatchId,
) -> Result<Option<StoredMatch>, postgres::Error> {
    let Some(r) = conn.query_opt(
        "SELECT ranked, winner, reason, score_first, score_second, rules, duration_frames, \
         replay, started_unix, ended_unix FROM matches WHERE id = $1 AND kind = 'versus'",
        &[&id.0],
    )?
    else {
        return Ok(None);
    };
    let score = |v: i64| v.clamp(0, 255) as u8;
    let winner: Option<i64> = r.try_get(1)?;
    let rows = conn.query(
        &format!(
            "SELECT seat, player_id, name, {SEAT_RATINGS}, {SEAT_STATS} FROM match_seats \
             WHERE match_id = $1 ORDER BY seat"
        ),
        &[&id.0],
    )?;
    let mut seats = Vec::with_capacity(2);
    for s in &rows {
        seats.push(MatchSeat {
            player: s.try_get::<_, Option<i64>>(1)?.map(PlayerId),
            name: s.try_get(2)?,
            before: seat_rating(s, 3)?,
            after: seat_rating(s, 6)?,
            stats: stats_at(s, 9)?,
        });
    }
    let Ok(seats) = <[MatchSeat; 2]>::try_from(seats) else {
        return Ok(None);
    };
    Ok(Some(StoredMatch {
        id,
        record: MatchRecord {
            ranked: r.try_get(0)?,
            outcome: winner.map_or(Outcome::Void, |w| Outcome::Won(w.clamp(0, 1) as u8)),
            reason: r.try_get(2)?,
            score: [score(r.try_get(3)?), score(r.try_get(4)?)],
            rules: r.try_get(5)?,
            duration_frames: u32_of(r.try_get(6)?),
            replay: r.try_get(7)?,
            started_unix: u(r.try_get(8)?),
            ended_unix: u(r.try_get(9)?),
            seats,
        },
    }))
}

pub(super) fn record_match(
    store: &PostgresStorage,
    record: &MatchRecord,
) -> Result<MatchId, StorageError> {
    let mut conn = store.write()?;
    let mut tx = conn.transaction().map_err(db)?;
    let winner = match record.outcome {
        Outcome::Won(seat) => Some(i64::from(seat)),
        Outcome::Void => None,
    };
    let id: i64 = tx
        .query_one(
            "INSERT INTO matches (ranked, winner, reason, score_first, score_second, rules, \
             duration_frames, replay, started_unix, ended_unix) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id",
            &[
                &record.ranked,
                &winner,
                &record.reason,
                &i64::from(record.score[0]),
                &i64::from(record.score[1]),
                &record.rules,
                &i64::from(record.duration_frames),
                &record.replay,
                &i(record.started_unix),
                &i(record.ended_unix),
            ],
        )
        .and_then(|r| r.try_get(0))
        .map_err(db)?;
    for (seat, s) in record.seats.iter().enumerate() {
        let ratings = ratings_values(s.before, s.after);
        let ratings: Vec<&(dyn ToSql + Sync)> =
            ratings.iter().map(|v| v as &(dyn ToSql + Sync)).collect();
        insert_seat(
            &mut tx,
            id,
            seat,
            s.player,
            &s.name,
            &s.stats,
            SEAT_RATINGS,
            &ratings,
        )
        .map_err(db)?;
        if let (true, Some(player), Some(after)) = (record.ranked, s.player, s.after) {
            let won = i64::from(record.outcome == Outcome::Won(seat as u8));
            tx.execute(
                "UPDATE players SET rating = $1, deviation = $2, volatility = $3, \
                 games = games + 1, wins = wins + $4, last_played_unix = $5 WHERE id = $6",
                &[
                    &after.rating,
                    &after.deviation,
                    &after.volatility,
                    &won,
                    &i(record.ended_unix),
                    &player.0,
                ],
            )
            .map_err(db)?;
        }
    }
    tx.commit().map_err(db)?;
    Ok(MatchId(id))
}

pub(super) fn get_match(
    store: &PostgresStorage,
    id: MatchId,
) -> Result<Option<StoredMatch>, StorageError> {
    load_match(&mut **store.read()?, id).map_err(db)
}

pub(super) fn recent_matches(
    store: &PostgresStorage,
    player: PlayerId,
    limit: u32,
) -> Result<Vec<StoredMatch>, StorageError> {
    let mut conn = store.read()?;
    let ids = conn
        .query(
            "SELECT s.match_id FROM match_seats s JOIN matches m ON m.id = s.match_id \
             WHERE s.player_id = $1 AND m.kind = 'versus' ORDER BY s.match_id DESC LIMIT $2",
            &[&player.0, &i64::from(limit)],
        )
        .map_err(db)?;
    let mut matches = Vec::with_capacity(ids.len());
    for row in ids {
        let id: i64 = row.try_get(0).map_err(db)?;
        if let Some(m) = load_match(&mut conn, MatchId(id)).map_err(db)? {
            matches.push(m);
        }
    }
    Ok(matches)
}
