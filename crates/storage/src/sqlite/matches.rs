//! Two-seat matches on SQLite: recording one, reading it back, and the recent lists.

use rusqlite::types::ToSql;
use rusqlite::{Connection, OptionalExtension, params};

use super::seats::{insert_seat, seat_rating, stats_at};
use super::{SqliteStorage, db, unix};
use crate::columns::{SEAT_RATINGS, SEAT_STATS, ratings_values};
use crate::{MatchId, MatchRecord, MatchSeat, Outcome, PlayerId, StorageError, StoredMatch};

pub(super) fn load_match(conn: &Connection, id: MatchId) -> rusqlite::Result<Option<StoredMatch>> {
    let head = conn
        .query_row(
            "SELECT ranked, winner, reason, score_first, score_second, rules, duration_frames, \
             replay, started_unix, ended_unix FROM matches WHERE id = ?1 AND kind = 'versus'",
            [id.0],
            |r| {
                Ok((
                    r.get::<_, bool>(0)?,
                    r.get::<_, Option<u8>>(1)?,
                    r.get::<_, String>(2)?,
                    [r.get::<_, u8>(3)?, r.get::<_, u8>(4)?],
                    r.get::<_, String>(5)?,
                    r.get::<_, u32>(6)?,
                    r.get::<_, Option<String>>(7)?,
                    r.get::<_, i64>(8)?.max(0) as u64,
                    r.get::<_, i64>(9)?.max(0) as u64,
                ))
            },
        )
        .optional()?;
    let Some((ranked, winner, reason, score, rules, duration_frames, replay, started, ended)) =
        head
    else {
        return Ok(None);
    };
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT seat, player_id, name, {SEAT_RATINGS}, {SEAT_STATS} FROM match_seats \
         WHERE match_id = ?1 ORDER BY seat"
    ))?;
    let seats = stmt
        .query_map([id.0], |r| {
            Ok(MatchSeat {
                player: r.get::<_, Option<i64>>(1)?.map(PlayerId),
                name: r.get(2)?,
                before: seat_rating(r, 3)?,
                after: seat_rating(r, 6)?,
                stats: stats_at(r, 9)?,
            })
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    let Ok(seats) = <[MatchSeat; 2]>::try_from(seats) else {
        return Err(rusqlite::Error::QueryReturnedNoRows);
    };
    Ok(Some(StoredMatch {
        id,
        record: MatchRecord {
            ranked,
            outcome: winner.map_or(Outcome::Void, Outcome::Won),
            reason,
            score,
            rules,
            duration_frames,
            replay,
            started_unix: started,
            ended_unix: ended,
            seats,
        },
    }))
}

pub(super) fn record_match(
    store: &SqliteStorage,
    record: &MatchRecord,
) -> Result<MatchId, StorageError> {
    let mut conn = store.write();
    let tx = conn.transaction().map_err(db)?;
    let winner = match record.outcome {
        Outcome::Won(seat) => Some(seat),
        Outcome::Void => None,
    };
    tx.execute(
        "INSERT INTO matches (ranked, winner, reason, score_first, score_second, rules, \
         duration_frames, replay, started_unix, ended_unix) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
        params![
            record.ranked,
            winner,
            record.reason,
            record.score[0],
            record.score[1],
            record.rules,
            record.duration_frames,
            record.replay,
            unix(record.started_unix),
            unix(record.ended_unix)
        ],
    )
    .map_err(db)?;
    let id = tx.last_insert_rowid();
    for (seat, s) in record.seats.iter().enumerate() {
        let ratings = ratings_values(s.before, s.after);
        let ratings: Vec<&dyn ToSql> = ratings.iter().map(|v| v as &dyn ToSql).collect();
        insert_seat(
            &tx,
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
            let won = record.outcome == Outcome::Won(seat as u8);
            tx.execute(
                "UPDATE players SET rating = ?1, deviation = ?2, volatility = ?3, \
                 games = games + 1, wins = wins + ?4, last_played_unix = ?5 WHERE id = ?6",
                params![
                    after.rating,
                    after.deviation,
                    after.volatility,
                    u32::from(won),
                    unix(record.ended_unix),
                    player.0
                ],
            )
            .map_err(db)?;
        }
    }
    tx.commit().map_err(db)?;
    Ok(MatchId(id))
}

pub(super) fn get_match(
    store: &SqliteStorage,
    id: MatchId,
) -> Result<Option<StoredMatch>, StorageError> {
    load_match(&store.read(), id).map_err(db)
}

pub(super) fn recent_matches(
    store: &SqliteStorage,
    player: PlayerId,
    limit: u32,
) -> Result<Vec<StoredMatch>, StorageError> {
    let conn = store.read();
    let ids = {
        let mut stmt = conn
            .prepare_cached(
                "SELECT s.match_id FROM match_seats s JOIN matches m ON m.id = s.match_id \
                 WHERE s.player_id = ?1 AND m.kind = 'versus' \
                 ORDER BY s.match_id DESC LIMIT ?2",
            )
            .map_err(db)?;
        stmt.query_map(params![player.0, limit], |r| r.get::<_, i64>(0))
            .map_err(db)?
            .collect::<rusqlite::Result<Vec<_>>>()
            .map_err(db)?
    };
    let mut matches = Vec::with_capacity(ids.len());
    for id in ids {
        if let Some(m) = load_match(&conn, MatchId(id)).map_err(db)? {
            matches.push(m);
        }
    }
    Ok(matches)
}
