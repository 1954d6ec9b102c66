//! The SQLite implementation: one writing connection and one reading connection (WAL lets
//! reads proceed while a write commits), each behind a mutex.

use std::path::{Path, PathBuf};
use std::sync::mpsc::RecvTimeoutError;
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use rusqlite::{Connection, ErrorCode, OpenFlags, OptionalExtension, Row, params};

use crate::migrations::MIGRATIONS;
use crate::{
    BattleRecord, HistoryEntry, MatchId, MatchRecord, MatchSeat, NewPlayer, Outcome, Player,
    PlayerId, PlayerStats, Rating, SoloBoard, SoloRecordOutcome, SoloRun, SoloStanding, Standing,
    Storage, StorageError, StoredBattle, StoredMatch,
};

/// How long a statement waits for a lock held by another connection before failing.
const BUSY_TIMEOUT: Duration = Duration::from_secs(2);

/// Players and matches in one SQLite file.
#[derive(Debug)]
pub struct SqliteStorage {
    path: PathBuf,
    writer: Mutex<Connection>,
    reader: Mutex<Connection>,
}

const PLAYER_COLUMNS: &str = "id, name, rating, deviation, volatility, games, wins, \
                              created_unix, last_played_unix";

/// Who the leaderboards list: neither bots nor players an operator took off the boards.
const LISTED: &str = "bot = 0 AND delisted = 0";

fn player_row(row: &Row<'_>) -> rusqlite::Result<Player> {
    Ok(Player {
        id: PlayerId(row.get(0)?),
        name: row.get(1)?,
        rating: Rating {
            rating: row.get(2)?,
            deviation: row.get(3)?,
            volatility: row.get(4)?,
        },
        games: row.get(5)?,
        wins: row.get(6)?,
        created_unix: row.get::<_, i64>(7)?.max(0) as u64,
        last_played_unix: row.get::<_, Option<i64>>(8)?.map(|t| t.max(0) as u64),
    })
}

fn unix(t: u64) -> i64 {
    i64::try_from(t).unwrap_or(i64::MAX)
}

impl SqliteStorage {
    /// Opens (creating if missing) and migrates the database at `path`.
    pub fn open(path: &Path) -> Result<SqliteStorage, StorageError> {
        let writer = connect(path)?;
        // Refuse a file we may not write at once, not at the first match.
        if writer.is_readonly("main").unwrap_or(false) {
            return Err(StorageError::ReadOnly {
                path: path.to_path_buf(),
            });
        }
        quick_check(path, &writer, QUICK_CHECK_LIMIT)?;
        let classify = |e: rusqlite::Error| classify(path, e);
        writer
            .pragma_update_and_check(None, "journal_mode", "WAL", |r| r.get::<_, String>(0))
            .map_err(classify)?;
        writer
            .pragma_update(None, "synchronous", "FULL")
            .map_err(classify)?;
        writer
            .pragma_update(None, "foreign_keys", "ON")
            .map_err(classify)?;
        migrate(path, &writer)?;
        let reader = connect(path)?;
        Ok(SqliteStorage {
            path: path.to_path_buf(),
            writer: Mutex::new(writer),
            reader: Mutex::new(reader),
        })
    }

    /// The file this storage uses.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn write(&self) -> MutexGuard<'_, Connection> {
        self.writer.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn read(&self) -> MutexGuard<'_, Connection> {
        self.reader.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn one_player(
        &self,
        column: &str,
        value: &dyn rusqlite::ToSql,
    ) -> Result<Option<Player>, StorageError> {
        // `column` is one of our own constant names, never outside input.
        let sql = format!("SELECT {PLAYER_COLUMNS} FROM players WHERE {column} = ?1");
        self.read()
            .query_row(&sql, [value], player_row)
            .optional()
            .map_err(db)
    }
}

fn connect(path: &Path) -> Result<Connection, StorageError> {
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
        | OpenFlags::SQLITE_OPEN_CREATE
        | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = Connection::open_with_flags(path, flags).map_err(|e| classify(path, e))?;
    conn.busy_timeout(BUSY_TIMEOUT)
        .map_err(|e| classify(path, e))?;
    Ok(conn)
}

/// Longest [`quick_check`] may run at start: a 917 MB database took 2.4–3.6 s on a loaded
/// 2-core machine, so files up to about 2.5 GB are checked whole; a larger one is checked this
/// long, then served with a warning, so start-up is never held up longer.
pub const QUICK_CHECK_LIMIT: Duration = Duration::from_secs(10);

/// Errors `PRAGMA quick_check` lists before it stops (the first is what the error shows).
const QUICK_CHECK_ERRORS: u32 = 5;

/// `PRAGMA quick_check` of the whole file (every b-tree page, table and index, without
/// comparing index entries to table rows: O(N), where `integrity_check` is O(N log N)), so a
/// file damaged beyond its header is refused at start with the message a bad header gets,
/// instead of failing at the first write. A watchdog thread interrupts the check after
/// `limit`; then it is logged as not finished and start-up goes on.
fn quick_check(path: &Path, conn: &Connection, limit: Duration) -> Result<(), StorageError> {
    let (done, finished) = std::sync::mpsc::channel::<()>();
    let interrupt = conn.get_interrupt_handle();
    let watchdog = std::thread::spawn(move || {
        let late = finished.recv_timeout(limit) == Err(RecvTimeoutError::Timeout);
        if late {
            interrupt.interrupt();
        }
        late
    });
    let rows = (|| {
        let mut statement = conn.prepare(&format!("PRAGMA quick_check({QUICK_CHECK_ERRORS})"))?;
        let rows = statement.query_map([], |r| r.get::<_, String>(0))?;
        rows.collect::<rusqlite::Result<Vec<String>>>()
    })();
    // The statement is finalised here, so a late interrupt finds nothing to stop.
    drop(done);
    let late = watchdog.join().unwrap_or(false);
    match rows {
        Ok(rows) if rows.len() == 1 && rows[0] == "ok" => Ok(()),
        Ok(rows) => Err(StorageError::Corrupt {
            path: path.to_path_buf(),
            detail: format!("quick_check: {}", rows.join("; ")),
        }),
        Err(e) if late && e.sqlite_error_code() == Some(ErrorCode::OperationInterrupted) => {
            tracing::warn!(
                path = %path.display(),
                limit_s = limit.as_secs_f64(),
                "database integrity check (PRAGMA quick_check) not finished in time; started without it"
            );
            Ok(())
        }
        Err(e) => Err(classify(path, e)),
    }
}

/// Brings the file to the newest schema, one transaction per migration.
fn migrate(path: &Path, conn: &Connection) -> Result<(), StorageError> {
    let classify = |e: rusqlite::Error| classify(path, e);
    let known = MIGRATIONS.len() as i64;
    let found: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .map_err(classify)?;
    if found > known {
        return Err(StorageError::TooNew {
            path: path.to_path_buf(),
            found,
            known,
        });
    }
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(found.max(0) as usize) {
        let version = i as i64 + 1;
        conn.execute_batch(&format!(
            "BEGIN IMMEDIATE; {sql}; PRAGMA user_version = {version}; COMMIT;"
        ))
        .map_err(|e| {
            let _ = conn.execute_batch("ROLLBACK");
            classify(e)
        })?;
    }
    Ok(())
}

/// Maps SQLite's error to what the operator should hear.
fn classify(path: &Path, e: rusqlite::Error) -> StorageError {
    let path = path.to_path_buf();
    match e.sqlite_error_code() {
        Some(ErrorCode::NotADatabase | ErrorCode::DatabaseCorrupt) => StorageError::Corrupt {
            path,
            detail: e.to_string(),
        },
        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => StorageError::Locked { path },
        Some(ErrorCode::ReadOnly) => StorageError::ReadOnly { path },
        Some(ErrorCode::CannotOpen | ErrorCode::PermissionDenied) => StorageError::Open {
            path,
            detail: e.to_string(),
        },
        _ => StorageError::Db(format!("{}: {e}", path.display())),
    }
}

fn db(e: rusqlite::Error) -> StorageError {
    StorageError::Db(e.to_string())
}

/// A unique-constraint failure on `players` as the error the caller can show.
fn unique(e: rusqlite::Error, name: &str) -> StorageError {
    let text = e.to_string();
    if e.sqlite_error_code() == Some(ErrorCode::ConstraintViolation) {
        if text.contains("name_key") {
            return StorageError::NameTaken(name.to_string());
        }
        if text.contains("key_hash") || text.contains("recovery_hash") {
            return StorageError::KeyTaken;
        }
    }
    db(e)
}

fn seat_rating(row: &Row<'_>, at: usize) -> rusqlite::Result<Option<Rating>> {
    let rating: Option<f64> = row.get(at)?;
    let deviation: Option<f64> = row.get(at + 1)?;
    let volatility: Option<f64> = row.get(at + 2)?;
    Ok(match (rating, deviation, volatility) {
        (Some(rating), Some(deviation), Some(volatility)) => Some(Rating {
            rating,
            deviation,
            volatility,
        }),
        _ => None,
    })
}

fn load_match(conn: &Connection, id: MatchId) -> rusqlite::Result<Option<StoredMatch>> {
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
    let mut stmt = conn.prepare_cached(
        "SELECT seat, player_id, name, rating_before, deviation_before, volatility_before, \
         rating_after, deviation_after, volatility_after, pieces, attack, garbage_cleared, \
         t_spins, frames, pps_x100, apm_x100, vs_x100 FROM match_seats WHERE match_id = ?1 \
         ORDER BY seat",
    )?;
    let seats = stmt
        .query_map([id.0], |r| {
            Ok(MatchSeat {
                player: r.get::<_, Option<i64>>(1)?.map(PlayerId),
                name: r.get(2)?,
                before: seat_rating(r, 3)?,
                after: seat_rating(r, 6)?,
                stats: PlayerStats {
                    pieces: r.get(9)?,
                    attack: r.get(10)?,
                    garbage_cleared: r.get(11)?,
                    t_spins: r.get(12)?,
                    frames: r.get(13)?,
                    pps_x100: r.get(14)?,
                    apm_x100: r.get(15)?,
                    vs_x100: r.get(16)?,
                },
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

impl Storage for SqliteStorage {
    fn player_by_key(&self, key_hash: &[u8]) -> Result<Option<Player>, StorageError> {
        self.one_player("key_hash", &key_hash)
    }

    fn player_by_recovery(&self, recovery_hash: &[u8]) -> Result<Option<Player>, StorageError> {
        self.one_player("recovery_hash", &recovery_hash)
    }

    fn player_by_name_key(&self, name_key: &str) -> Result<Option<Player>, StorageError> {
        self.one_player("name_key", &name_key)
    }

    fn player(&self, id: PlayerId) -> Result<Option<Player>, StorageError> {
        self.one_player("id", &id.0)
    }

    fn create_player(&self, new: &NewPlayer) -> Result<Player, StorageError> {
        let start = Rating::default();
        let conn = self.write();
        conn.execute(
            "INSERT INTO players (key_hash, recovery_hash, name, name_key, rating, deviation, \
             volatility, created_unix, registered_from) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
            params![
                new.key_hash,
                new.recovery_hash,
                new.name,
                new.name_key,
                start.rating,
                start.deviation,
                start.volatility,
                unix(new.created_unix),
                new.registered_from
            ],
        )
        .map_err(|e| unique(e, &new.name))?;
        Ok(Player {
            id: PlayerId(conn.last_insert_rowid()),
            name: new.name.clone(),
            rating: start,
            games: 0,
            wins: 0,
            created_unix: new.created_unix,
            last_played_unix: None,
        })
    }

    fn rename(&self, id: PlayerId, name: &str, name_key: &str) -> Result<(), StorageError> {
        let changed = self
            .write()
            .execute(
                "UPDATE players SET name = ?1, name_key = ?2 WHERE id = ?3",
                params![name, name_key, id.0],
            )
            .map_err(|e| unique(e, name))?;
        if changed == 0 {
            return Err(StorageError::NoSuchPlayer);
        }
        Ok(())
    }

    fn rekey(
        &self,
        id: PlayerId,
        key_hash: &[u8],
        recovery_hash: &[u8],
    ) -> Result<(), StorageError> {
        let changed = self
            .write()
            .execute(
                "UPDATE players SET key_hash = ?1, recovery_hash = ?2 WHERE id = ?3",
                params![key_hash, recovery_hash, id.0],
            )
            .map_err(|e| unique(e, ""))?;
        if changed == 0 {
            return Err(StorageError::NoSuchPlayer);
        }
        Ok(())
    }

    fn record_match(&self, record: &MatchRecord) -> Result<MatchId, StorageError> {
        let mut conn = self.write();
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
            let before = s.before.map(|r| (r.rating, r.deviation, r.volatility));
            let after = s.after.map(|r| (r.rating, r.deviation, r.volatility));
            tx.execute(
                "INSERT INTO match_seats (match_id, seat, player_id, name, rating_before, \
                 deviation_before, volatility_before, rating_after, deviation_after, \
                 volatility_after, pieces, attack, garbage_cleared, t_spins, frames, pps_x100, \
                 apm_x100, vs_x100) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, \
                 ?17, ?18)",
                params![
                    id,
                    seat as i64,
                    s.player.map(|p| p.0),
                    s.name,
                    before.map(|b| b.0),
                    before.map(|b| b.1),
                    before.map(|b| b.2),
                    after.map(|a| a.0),
                    after.map(|a| a.1),
                    after.map(|a| a.2),
                    s.stats.pieces,
                    s.stats.attack,
                    s.stats.garbage_cleared,
                    s.stats.t_spins,
                    s.stats.frames,
                    s.stats.pps_x100,
                    s.stats.apm_x100,
                    s.stats.vs_x100
                ],
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

    fn get_match(&self, id: MatchId) -> Result<Option<StoredMatch>, StorageError> {
        load_match(&self.read(), id).map_err(db)
    }

    fn recent_matches(
        &self,
        player: PlayerId,
        limit: u32,
    ) -> Result<Vec<StoredMatch>, StorageError> {
        let conn = self.read();
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

    fn record_battle(&self, record: &BattleRecord) -> Result<MatchId, StorageError> {
        battles::record(&mut self.write(), record).map_err(db)
    }

    fn get_battle(&self, id: MatchId) -> Result<Option<StoredBattle>, StorageError> {
        battles::load(&self.read(), id).map_err(db)
    }

    fn battle_by_replay(&self, replay: &str) -> Result<Option<StoredBattle>, StorageError> {
        battles::by_replay(&self.read(), replay).map_err(db)
    }

    fn recent_history(
        &self,
        player: PlayerId,
        limit: u32,
    ) -> Result<Vec<HistoryEntry>, StorageError> {
        battles::history(&self.read(), player, limit).map_err(db)
    }

    fn leaderboard(&self, limit: u32, min_games: u32) -> Result<Vec<Standing>, StorageError> {
        let conn = self.read();
        let mut stmt = conn
            .prepare_cached(&format!(
                "SELECT {PLAYER_COLUMNS} FROM players WHERE games >= ?1 AND {LISTED} \
                 ORDER BY rating DESC, id LIMIT ?2"
            ))
            .map_err(db)?;
        let players = stmt
            .query_map(params![min_games, limit], player_row)
            .map_err(db)?
            .collect::<rusqlite::Result<Vec<_>>>()
            .map_err(db)?;
        Ok(players
            .into_iter()
            .zip(1..)
            .map(|(player, place)| Standing { place, player })
            .collect())
    }

    fn place_of(&self, id: PlayerId, min_games: u32) -> Result<Option<u64>, StorageError> {
        let conn = self.read();
        let me = conn
            .query_row(
                &format!("SELECT rating, games FROM players WHERE id = ?1 AND {LISTED}"),
                [id.0],
                |r| Ok((r.get::<_, f64>(0)?, r.get::<_, u32>(1)?)),
            )
            .optional()
            .map_err(db)?;
        let Some((rating, _)) = me.filter(|&(_, games)| games >= min_games) else {
            return Ok(None);
        };
        let above: i64 = conn
            .query_row(
                &format!(
                    "SELECT COUNT(*) FROM players WHERE games >= ?1 AND {LISTED} \
                     AND (rating > ?2 OR (rating = ?2 AND id < ?3))"
                ),
                params![min_games, rating, id.0],
                |r| r.get(0),
            )
            .map_err(db)?;
        Ok(Some(above.max(0) as u64 + 1))
    }

    fn record_solo(&self, run: &SoloRun) -> Result<SoloRecordOutcome, StorageError> {
        self.record_solo_in(run).map_err(db)
    }

    fn solo_leaderboard(
        &self,
        board: SoloBoard,
        limit: u32,
    ) -> Result<Vec<SoloStanding>, StorageError> {
        self.solo_rows(board, limit).map_err(db)
    }

    fn solo_best(
        &self,
        player: PlayerId,
        board: SoloBoard,
    ) -> Result<Option<SoloStanding>, StorageError> {
        self.solo_best_in(player, board).map_err(db)
    }

    fn all_players(&self) -> Result<Vec<Player>, StorageError> {
        let conn = self.read();
        let mut stmt = conn
            .prepare_cached(&format!(
                "SELECT {PLAYER_COLUMNS} FROM players ORDER BY rating DESC, id"
            ))
            .map_err(db)?;
        stmt.query_map([], player_row)
            .map_err(db)?
            .collect::<rusqlite::Result<Vec<_>>>()
            .map_err(db)
    }
}

const SOLO_COLUMNS: &str = "s.player_id, s.frames, s.lines, s.pieces, s.score, \
                            s.recorded_unix, s.replay, p.name";

/// `ORDER BY` of a board: best value first, then the earlier run, then the older player.
fn solo_order(board: SoloBoard) -> &'static str {
    match board {
        SoloBoard::Sprint => "s.value ASC, s.recorded_unix ASC, s.player_id ASC",
        SoloBoard::Blitz => "s.value DESC, s.recorded_unix ASC, s.player_id ASC",
    }
}

/// Counts the rows of a board ahead of (value ?2, recorded ?3, player ?4).
fn solo_ahead_sql(board: SoloBoard) -> &'static str {
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

fn solo_row(board: SoloBoard, r: &Row<'_>) -> rusqlite::Result<(SoloRun, String)> {
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
fn solo_place(conn: &Connection, run: &SoloRun) -> rusqlite::Result<u64> {
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

fn solo_best_of(
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
    fn record_solo_in(&self, run: &SoloRun) -> rusqlite::Result<SoloRecordOutcome> {
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
    fn solo_rows(&self, board: SoloBoard, limit: u32) -> rusqlite::Result<Vec<SoloStanding>> {
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

    fn solo_best_in(
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

mod battles;
mod moderation;
#[cfg(test)]
mod tests;
