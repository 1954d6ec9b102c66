//! Solo records on PostgreSQL (Sprint, Blitz): a player's best, the boards and a run's place;
//! every accepted run is also added to `solo_runs`.

use postgres::Row;

use super::connection::MIGRATION_LOCK;
use super::{PostgresStorage, db, i, u, u32_of};
use crate::{PlayerId, SoloBoard, SoloRecordOutcome, SoloRun, SoloStanding, StorageError};

pub(super) fn record_solo(
    store: &PostgresStorage,
    run: &SoloRun,
) -> Result<SoloRecordOutcome, StorageError> {
    let mut conn = store.write()?;
    let mut tx = conn.transaction().map_err(db)?;
    // One player's runs are recorded one at a time, whichever instance takes them.
    tx.execute(
        "SELECT pg_advisory_xact_lock($1)",
        &[&(run.player.0 ^ MIGRATION_LOCK)],
    )
    .map_err(db)?;
    let old = solo_best_of(&mut tx, run.player, run.board).map_err(db)?;
    let personal_best = old
        .as_ref()
        .is_none_or(|old| run.board.beats(run.value(), old.value()));
    if personal_best {
        tx.execute(
            "INSERT INTO solo_records (player_id, mode, value, frames, lines, pieces, \
             score, recorded_unix, replay) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) \
             ON CONFLICT (player_id, mode) DO UPDATE SET value = EXCLUDED.value, \
             frames = EXCLUDED.frames, lines = EXCLUDED.lines, pieces = EXCLUDED.pieces, \
             score = EXCLUDED.score, recorded_unix = EXCLUDED.recorded_unix, \
             replay = EXCLUDED.replay",
            &[
                &run.player.0,
                &run.board.name(),
                &i(run.value()),
                &i64::from(run.frames),
                &i64::from(run.lines),
                &i64::from(run.pieces),
                &i(run.score),
                &i(run.recorded_unix),
                &run.replay,
            ],
        )
        .map_err(db)?;
    }
    tx.execute(
        "INSERT INTO solo_runs (player_id, mode, value, frames, lines, pieces, score, \
         recorded_unix, personal_best) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        &[
            &run.player.0,
            &run.board.name(),
            &i(run.value()),
            &i64::from(run.frames),
            &i64::from(run.lines),
            &i64::from(run.pieces),
            &i(run.score),
            &i(run.recorded_unix),
            &i64::from(personal_best),
        ],
    )
    .map_err(db)?;
    let best = if personal_best {
        Some(run)
    } else {
        old.as_ref()
    };
    let place = match best {
        Some(best) => solo_place(&mut tx, best).map_err(db)?,
        None => 0,
    };
    tx.commit().map_err(db)?;
    Ok(SoloRecordOutcome {
        personal_best,
        place,
    })
}

pub(super) fn solo_leaderboard(
    store: &PostgresStorage,
    board: SoloBoard,
    limit: u32,
) -> Result<Vec<SoloStanding>, StorageError> {
    // `solo_order` is one of our own constant strings, never outside input.
    let rows = store
        .read()?
        .query(
            &format!(
                "SELECT {SOLO_COLUMNS} FROM solo_records s JOIN players p \
                 ON p.id = s.player_id WHERE s.mode = $1 AND p.bot = 0 AND p.delisted = 0 \
                 ORDER BY {} LIMIT $2",
                solo_order(board)
            ),
            &[&board.name(), &i64::from(limit)],
        )
        .map_err(db)?;
    rows.iter()
        .zip(1..)
        .map(|(r, place)| {
            let (run, name) = solo_row(board, r).map_err(db)?;
            Ok(SoloStanding { place, name, run })
        })
        .collect()
}

pub(super) fn solo_best(
    store: &PostgresStorage,
    player: PlayerId,
    board: SoloBoard,
) -> Result<Option<SoloStanding>, StorageError> {
    let mut conn = store.read()?;
    let Some(run) = solo_best_of(&mut **conn, player, board).map_err(db)? else {
        return Ok(None);
    };
    let name: String = conn
        .query_one("SELECT name FROM players WHERE id = $1", &[&player.0])
        .and_then(|r| r.try_get(0))
        .map_err(db)?;
    let place = solo_place(&mut **conn, &run).map_err(db)?;
    Ok(Some(SoloStanding { place, name, run }))
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

/// Counts the rows of a board ahead of (value $2, recorded $3, player $4).
pub(super) fn solo_ahead_sql(board: SoloBoard) -> &'static str {
    match board {
        SoloBoard::Sprint => {
            "SELECT COUNT(*) FROM solo_records WHERE mode = $1 AND (value < $2 OR (value = $2 \
             AND (recorded_unix < $3 OR (recorded_unix = $3 AND player_id < $4)))) \
             AND player_id IN (SELECT id FROM players WHERE bot = 0 AND delisted = 0)"
        }
        SoloBoard::Blitz => {
            "SELECT COUNT(*) FROM solo_records WHERE mode = $1 AND (value > $2 OR (value = $2 \
             AND (recorded_unix < $3 OR (recorded_unix = $3 AND player_id < $4)))) \
             AND player_id IN (SELECT id FROM players WHERE bot = 0 AND delisted = 0)"
        }
    }
}

pub(super) fn solo_row(board: SoloBoard, r: &Row) -> Result<(SoloRun, String), postgres::Error> {
    Ok((
        SoloRun {
            player: PlayerId(r.try_get(0)?),
            board,
            frames: u32_of(r.try_get(1)?),
            lines: u32_of(r.try_get(2)?),
            pieces: u32_of(r.try_get(3)?),
            score: u(r.try_get(4)?),
            recorded_unix: u(r.try_get(5)?),
            replay: r.try_get(6)?,
        },
        r.try_get(7)?,
    ))
}

pub(super) fn solo_place(
    conn: &mut impl postgres::GenericClient,
    run: &SoloRun,
) -> Result<u64, postgres::Error> {
    let ahead: i64 = conn
        .query_one(
            solo_ahead_sql(run.board),
            &[
                &run.board.name(),
                &i(run.value()),
                &i(run.recorded_unix),
                &run.player.0,
            ],
        )?
        .try_get(0)?;
    Ok(u(ahead) + 1)
}

pub(super) fn solo_best_of(
    conn: &mut impl postgres::GenericClient,
    player: PlayerId,
    board: SoloBoard,
) -> Result<Option<SoloRun>, postgres::Error> {
    let row = conn.query_opt(
        &format!(
            "SELECT {SOLO_COLUMNS} FROM solo_records s JOIN players p ON p.id = s.player_id \
             WHERE s.player_id = $1 AND s.mode = $2"
        ),
        &[&player.0, &board.name()],
    )?;
    row.as_ref()
        .map(|r| solo_row(board, r).map(|(run, _)| run))
        .transpose()
}
