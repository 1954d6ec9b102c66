//! Free-for-all and team matches on SQLite: written beside two-seat matches (`kind = 'battle'`),
//! read back one by one or in a player's history.

use rusqlite::{Connection, OptionalExtension, params};

use super::matches::load_match;
use super::seats::{insert_seat, stats_at};
use super::unix;
use crate::columns::{BATTLE_SEAT, SEAT_STATS};
use crate::{BattleRecord, BattleSeat, HistoryEntry, MatchId, PlayerId, StoredBattle};

/// Inserts the match and its seats in one transaction.
pub(super) fn record(conn: &mut Connection, record: &BattleRecord) -> rusqlite::Result<MatchId> {
    let tx = conn.transaction()?;
    tx.execute(
        "INSERT INTO matches (kind, ranked, winner, reason, score_first, score_second, rules, \
         targeting, duration_frames, replay, started_unix, ended_unix) \
         VALUES ('battle', 0, ?1, ?2, 0, 0, ?3, ?4, ?5, ?6, ?7, ?8)",
        params![
            record.winner,
            record.reason,
            record.rules,
            record.targeting,
            record.duration_frames,
            record.replay,
            unix(record.started_unix),
            unix(record.ended_unix)
        ],
    )?;
    let id = tx.last_insert_rowid();
    for (seat, s) in record.seats.iter().enumerate() {
        insert_seat(
            &tx,
            id,
            seat,
            s.player,
            &s.name,
            &s.stats,
            BATTLE_SEAT,
            &[&s.placement, &s.kos, &s.team, &s.rounds_won],
        )?;
    }
    tx.commit()?;
    Ok(MatchId(id))
}

/// The battle with this id (`None` for a two-seat match or an unknown id).
pub(super) fn load(conn: &Connection, id: MatchId) -> rusqlite::Result<Option<StoredBattle>> {
    let head = conn
        .query_row(
            "SELECT winner, reason, rules, targeting, duration_frames, replay, started_unix, \
             ended_unix FROM matches WHERE id = ?1 AND kind = 'battle'",
            [id.0],
            |r| {
                Ok(BattleRecord {
                    winner: r.get(0)?,
                    reason: r.get(1)?,
                    rules: r.get(2)?,
                    targeting: r.get::<_, Option<String>>(3)?.unwrap_or_default(),
                    duration_frames: r.get(4)?,
                    replay: r.get(5)?,
                    started_unix: r.get::<_, i64>(6)?.max(0) as u64,
                    ended_unix: r.get::<_, i64>(7)?.max(0) as u64,
                    seats: Vec::new(),
                })
            },
        )
        .optional()?;
    let Some(mut record) = head else {
        return Ok(None);
    };
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT player_id, name, {SEAT_STATS}, {BATTLE_SEAT} FROM match_seats \
         WHERE match_id = ?1 ORDER BY seat"
    ))?;
    record.seats = stmt
        .query_map([id.0], |r| {
            Ok(BattleSeat {
                player: r.get::<_, Option<i64>>(0)?.map(PlayerId),
                name: r.get(1)?,
                stats: stats_at(r, 2)?,
                placement: r.get::<_, Option<u8>>(10)?.unwrap_or(0),
                kos: r.get::<_, Option<u32>>(11)?.unwrap_or(0),
                team: r.get(12)?,
                rounds_won: r.get::<_, Option<u8>>(13)?.unwrap_or(0),
            })
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(Some(StoredBattle { id, record }))
}

/// The battle whose replay is `replay` (the first, should ids ever repeat).
pub(super) fn by_replay(conn: &Connection, replay: &str) -> rusqlite::Result<Option<StoredBattle>> {
    let id: Option<i64> = conn.query_row(
        "SELECT MIN(id) FROM matches WHERE replay = ?1 AND kind = 'battle'",
        [replay],
        |r| r.get(0),
    )?;
    match id {
        Some(id) => load(conn, MatchId(id)),
        None => Ok(None),
    }
}

/// A player's latest matches of both kinds, newest first.
pub(super) fn history(
    conn: &Connection,
    player: PlayerId,
    limit: u32,
) -> rusqlite::Result<Vec<HistoryEntry>> {
    let ids = {
        let mut stmt = conn.prepare_cached(
            "SELECT s.match_id, m.kind FROM match_seats s JOIN matches m ON m.id = s.match_id \
             WHERE s.player_id = ?1 ORDER BY s.match_id DESC LIMIT ?2",
        )?;
        stmt.query_map(params![player.0, limit], |r| {
            Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?))
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?
    };
    let mut rows = Vec::with_capacity(ids.len());
    for (id, kind) in ids {
        let id = MatchId(id);
        let row = if kind == "battle" {
            load(conn, id)?.map(HistoryEntry::Battle)
        } else {
            load_match(conn, id)?.map(|m| HistoryEntry::Versus(Box::new(m)))
        };
        rows.extend(row);
    }
    Ok(rows)
}
