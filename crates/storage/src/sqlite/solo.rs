//! Solo records on SQLite (Sprint, Blitz): a player's best, the boards and a run's place; every
//! accepted run is also added to `solo_runs`.

use rusqlite::{Connection, OptionalExtension, Row, params};

use super::{SqliteStorage, db, unix};
use crate::{PlayerId, SoloBoard, SoloRecordOutcome, SoloRun, SoloStanding, StorageError};

pub(super) fn record_solo(
    store: &SqliteStorage,
    run: &SoloRun,
) -> Result<SoloRecordOutcome, StorageError> {
    store.record_solo_in(run).map_err(db)
}

pub(super) fn solo_leaderboard(
    store: &SqliteStorage,
    board: SoloBoard,
    limit: u32,
) -> Result<Vec<SoloStanding>, StorageError> {
    store.solo_rows(board, limit).map_err(db)
}

pub(super) fn solo_best(
    store: &SqliteStorage,
    player: PlayerId,
    board: SoloBoard,
) -> Result<Option<SoloStanding>, StorageError> {
    store.solo_best_in(player, board).map_err(db)
}

pub(super) const SOLO_COLUMNS: &str = "s.player_id, s.frames, s.lines, s.pieces, s.score, \
                            s.recorded_unix, s.replay, p.name";

/// `ORDER BY` of a board: best value first, then the earlier run, then the older player.
pub(super) fn solo_order(board: SoloBoard) -> &'static str {
    match board {
        SoloBoard::Sprint => "s.value ASC, s.recorded_unix ASC, s.player_id ASC",
        SoloBoard::Blitz => "s.value DESC, s.recorded_unix ASC, s.player_id ASC",
    }
}

/// Counts the rows of a board ahead of (value ?2, recorded ?3, player ?4).
pub(super) fn solo_ahead_sql(board: SoloBoard) -> &'static str {
    match board {
        SoloBoard::Sprint => {
            "SELECT COUNT(*) FROM solo_records WHERE mode = ?1 AND (value < ?2 OR (value = ?2 \
             AND (recorded_unix < ?3 OR (recorded_unix = ?3 AND player_id < ?4)))) \
             AND player_id IN (SELECT id FROM players WHERE bot = 0 AND delisted = 0)"
        }
        SoloBoard::Blitz => {
            "SELECT COUNT(*) FROM solo_records WHERE mode = ?1 AND (value > ?2 OR (value = ?2 \
             AND (recorded_unix < ?3 OR (recorded_unix = ?3 AND player_id < ?4)))) \
             AND player_id IN (SELECT id FROM players WHERE bot = 0 AND delisted = 0)"
        }
    }
}

pub(super) fn solo_row(board: SoloBoard, r: &Row<'_>) -> rusqlite::Result<(SoloRun, String)> {
    Ok((
        SoloRun {
            player: PlayerId(r.get(0)?),
            board,
            frames: r.get(1)?,
            lines: r.get(2)?,
            pieces: r.get(3)?,
            score: r.get::<_, i64>(4)?.max(0) as u64,
            recorded_unix: r.get::<_, i64>(5)?.max(0) as u64,
            replay: r.get(6)?,
        },
        r.get(7)?,
    ))
}

/// The place of a run on its board (1 + the rows ahead of it).
pub(super) fn solo_place(conn: &Connection, run: &SoloRun) -> rusqlite::Result<u64> {
    let ahead: i64 = conn.query_row(
        solo_ahead_sql(run.board),
        params![
            run.board.name(),
            unix(run.value()),
            unix(run.recorded_unix),
            run.player.0
        ],
        |r| r.get(0),
    )?;
    Ok(ahead.max(0) as u64 + 1)
}

pub(super) fn solo_best_of(
    conn: &Connection,
    player: PlayerId,
    board: SoloBoard,
) -> rusqlite::Result<Option<SoloRun>> {
    conn.query_row(
        &format!(
            "SELECT {SOLO_COLUMNS} FROM solo_records s JOIN players p ON p.id = s.player_id \
             WHERE s.player_id = ?1 AND s.mode = ?2"
        ),
        params![player.0, board.name()],
        |r| solo_row(board, r).map(|(run, _)| run),
    )
    .optional()
}

impl SqliteStorage {
    pub(super) fn record_solo_in(&self, run: &SoloRun) -> rusqlite::Result<SoloRecordOutcome> {
        let mut conn = self.write();
        let tx = conn.transaction()?;
        let old = solo_best_of(&tx, run.player, run.board)?;
        let personal_best = old
            .as_ref()
            .is_none_or(|old| run.board.beats(run.value(), old.value()));
        if personal_best {
            tx.execute(
                "INSERT OR REPLACE INTO solo_records (player_id, mode, value, frames, lines, \
                 pieces, score, recorded_unix, replay) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
                params![
                    run.player.0,
                    run.board.name(),
                    unix(run.value()),
                    run.frames,
                    run.lines,
                    run.pieces,
                    unix(run.score),
                    unix(run.recorded_unix),
                    run.replay
                ],
            )?;
        }
        tx.execute(
            "INSERT INTO solo_runs (player_id, mode, value, frames, lines, pieces, score, \
             recorded_unix, personal_best) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
            params![
                run.player.0,
                run.board.name(),
                unix(run.value()),
                run.frames,
                run.lines,
                run.pieces,
                unix(run.score),
                unix(run.recorded_unix),
                personal_best
            ],
        )?;
        let best = if personal_best {
            Some(run)
        } else {
            old.as_ref()
        };
        let place = match best {
            Some(best) => solo_place(&tx, best)?,
            None => 0,
        };
        tx.commit()?;
        Ok(SoloRecordOutcome {
            personal_best,
            place,
        })
    }
}

impl SqliteStorage {
    pub(super) fn solo_rows(
        &self,
        board: SoloBoard,
        limit: u32,
    ) -> rusqlite::Result<Vec<SoloStanding>> {
        let conn = self.read();
        // `solo_order` is one of our own constant strings, never outside input.
        let mut stmt = conn.prepare_cached(&format!(
            "SELECT {SOLO_COLUMNS} FROM solo_records s JOIN players p ON p.id = s.player_id \
             WHERE s.mode = ?1 AND p.bot = 0 AND p.delisted = 0 ORDER BY {} LIMIT ?2",
            solo_order(board)
        ))?;
        let rows = stmt
            .query_map(params![board.name(), limit], |r| solo_row(board, r))?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(rows
            .into_iter()
            .zip(1..)
            .map(|((run, name), place)| SoloStanding { place, name, run })
            .collect())
    }

    pub(super) fn solo_best_in(
        &self,
        player: PlayerId,
        board: SoloBoard,
    ) -> rusqlite::Result<Option<SoloStanding>> {
        let conn = self.read();
        let Some(run) = solo_best_of(&conn, player, board)? else {
            return Ok(None);
        };
        let name: String =
            conn.query_row("SELECT name FROM players WHERE id = ?1", [player.0], |r| {
                r.get(0)
            })?;
        let place = solo_place(&conn, &run)?;
        Ok(Some(SoloStanding { place, name, run }))
    }
}
