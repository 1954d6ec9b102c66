//! Free-for-all and team matches on PostgreSQL, as `sqlite/battles.rs` on SQLite.

use postgres::Client;

use super::matches::load_match;
use super::seats::{insert_seat, stats_at};
use super::{i, u, u32_of};
use crate::columns::{BATTLE_SEAT, SEAT_STATS};
use crate::{BattleRecord, BattleSeat, HistoryEntry, MatchId, PlayerId, StoredBattle};

fn small(v: Option<i64>) -> u8 {
    v.unwrap_or(0).clamp(0, 255) as u8
}

/// Inserts the match and its seats in one transaction.
pub(super) fn record(conn: &mut Client, record: &BattleRecord) -> Result<MatchId, postgres::Error> {
    let mut tx = conn.transaction()?;
    let id: i64 = tx
        .query_one(
            "INSERT INTO matches (kind, ranked, winner, reason, score_first, score_second, \
             rules, targeting, duration_frames, replay, started_unix, ended_unix) \
             VALUES ('battle', FALSE, $1, $2, 0, 0, $3, $4, $5, $6, $7, $8) RETURNING id",
            &[
                &record.winner.map(i64::from),
                &record.reason,
                &record.rules,
                &record.targeting,
                &i64::from(record.duration_frames),
                &record.replay,
                &i(record.started_unix),
                &i(record.ended_unix),
            ],
        )?
        .try_get(0)?;
    for (seat, s) in record.seats.iter().enumerate() {
        insert_seat(
            &mut tx,
            id,
            seat,
            s.player,
            &s.name,
            &s.stats,
            BATTLE_SEAT,
            &[
                &i64::from(s.placement),
                &i64::from(s.kos),
                &s.team.map(i64::from),
                &i64::from(s.rounds_won),
            ],
        )?;
    }
    tx.commit()?;
    Ok(MatchId(id))
}

/// The battle with this id (`None` for a two-seat match or an unknown id).
pub(super) fn load(
    conn: &mut Client,
    id: MatchId,
) -> Result<Option<StoredBattle>, postgres::Error> {
    let Some(r) = conn.query_opt(
        "SELECT winner, reason, rules, targeting, duration_frames, replay, started_unix, \
         ended_unix FROM matches WHERE id = $1 AND kind = 'battle'",
        &[&id.0],
    )?
    else {
        return Ok(None);
    };
    let mut record = BattleRecord {
        winner: r.try_get::<_, Option<i64>>(0)?.map(|w| small(Some(w))),
        reason: r.try_get(1)?,
        rules: r.try_get(2)?,
        targeting: r.try_get::<_, Option<String>>(3)?.unwrap_or_default(),
        duration_frames: u32_of(r.try_get(4)?),
        replay: r.try_get(5)?,
        started_unix: u(r.try_get(6)?),
        ended_unix: u(r.try_get(7)?),
        seats: Vec::new(),
    };
    let rows = conn.query(
        &format!(
            "SELECT player_id, name, {SEAT_STATS}, {BATTLE_SEAT} FROM match_seats \
             WHERE match_id = $1 ORDER BY seat"
        ),
        &[&id.0],
    )?;
    for s in &rows {
        record.seats.push(BattleSeat {
            player: s.try_get::<_, Option<i64>>(0)?.map(PlayerId),
            name: s.try_get(1)?,
            stats: stats_at(s, 2)?,
            placement: small(s.try_get(10)?),
            kos: u32_of(s.try_get::<_, Option<i64>>(11)?.unwrap_or(0)),
            team: s.try_get::<_, Option<i64>>(12)?.map(|t| small(Some(t))),
            rounds_won: small(s.try_get(13)?),
        });
    }
    Ok(Some(StoredBattle { id, record }))
}

/// The battle whose replay is `replay` (the first, should ids ever repeat).
pub(super) fn by_replay(
    conn: &mut Client,
    replay: &str,
) -> Result<Option<StoredBattle>, postgres::Error> {
    let id: Option<i64> = conn
        .query_one(
            "SELECT MIN(id) FROM matches WHERE replay = $1 AND kind = 'battle'",
            &[&replay],
        )?
        .try_get(0)?;
    match id {
        Some(id) => load(conn, MatchId(id)),
        None => Ok(None),
    }
}

/// A player's latest matches of both kinds, newest first.
pub(super) fn history(
    conn: &mut Client,
    player: PlayerId,
    limit: u32,
) -> Result<Vec<HistoryEntry>, postgres::Error> {
    let ids = conn.query(
        "SELECT s.match_id, m.kind FROM match_seats s JOIN matches m ON m.id = s.match_id \
         WHERE s.player_id = $1 ORDER BY s.match_id DESC LIMIT $2",
        &[&player.0, &i64::from(limit)],
    )?;
    let mut rows = Vec::with_capacity(ids.len());
    for row in ids {
        let id = MatchId(row.try_get(0)?);
        let kind: String = row.try_get(1)?;
        let entry = if kind == "battle" {
            load(conn, id)?.map(HistoryEntry::Battle)
        } else {
            load_match(conn, id)?.map(|m| HistoryEntry::Versus(Box::new(m)))
        };
        rows.extend(entry);
    }
    Ok(rows)
}
