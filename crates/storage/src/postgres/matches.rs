//! Two-seat matches on PostgreSQL: recording one, reading it back, and the recent lists.

use postgres::{Client, Row};

use super::{PostgresStorage, db, i, u, u32_of};
use crate::{
    MatchId, MatchRecord, MatchSeat, Outcome, PlayerId, PlayerStats, Rating, StorageError,
    StoredMatch,
};

pub(super) fn seat_rating(row: &Row, at: usize) -> Result<Option<Rating>, postgres::Error> {
    let rating: Option<f64> = row.try_get(at)?;
    let deviation: Option<f64> = row.try_get(at + 1)?;
    let volatility: Option<f64> = row.try_get(at + 2)?;
    Ok(match (rating, deviation, volatility) {
        (Some(rating), Some(deviation), Some(volatility)) => Some(Rating {
            rating,
            deviation,
            volatility,
        }),
        _ => None,
    })
}

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
        "SELECT seat, player_id, name, rating_before, deviation_before, volatility_before, \
         rating_after, deviation_after, volatility_after, pieces, attack, garbage_cleared, \
         t_spins, frames, pps_x100, apm_x100, vs_x100 FROM match_seats WHERE match_id = $1 \
         ORDER BY seat",
        &[&id.0],
    )?;
    let mut seats = Vec::with_capacity(2);
    for s in &rows {
        seats.push(MatchSeat {
            player: s.try_get::<_, Option<i64>>(1)?.map(PlayerId),
            name: s.try_get(2)?,
            before: seat_rating(s, 3)?,
            after: seat_rating(s, 6)?,
            stats: PlayerStats {
                pieces: u32_of(s.try_get(9)?),
                attack: u32_of(s.try_get(10)?),
                garbage_cleared: u32_of(s.try_get(11)?),
                t_spins: u32_of(s.try_get(12)?),
                frames: u32_of(s.try_get(13)?),
                pps_x100: u32_of(s.try_get(14)?),
                apm_x100: u32_of(s.try_get(15)?),
                vs_x100: u32_of(s.try_get(16)?),
            },
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
        let before = s.before.map(|r| (r.rating, r.deviation, r.volatility));
        let after = s.after.map(|r| (r.rating, r.deviation, r.volatility));
        tx.execute(
            "INSERT INTO match_seats (match_id, seat, player_id, name, rating_before, \
             deviation_before, volatility_before, rating_after, deviation_after, \
             volatility_after, pieces, attack, garbage_cleared, t_spins, frames, pps_x100, \
             apm_x100, vs_x100) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, \
             $17, $18)",
            &[
                &id,
                &(seat as i64),
                &s.player.map(|p| p.0),
                &s.name,
                &before.map(|b| b.0),
                &before.map(|b| b.1),
                &before.map(|b| b.2),
                &after.map(|a| a.0),
                &after.map(|a| a.1),
                &after.map(|a| a.2),
                &i64::from(s.stats.pieces),
                &i64::from(s.stats.attack),
                &i64::from(s.stats.garbage_cleared),
                &i64::from(s.stats.t_spins),
                &i64::from(s.stats.frames),
                &i64::from(s.stats.pps_x100),
                &i64::from(s.stats.apm_x100),
                &i64::from(s.stats.vs_x100),
            ],
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
