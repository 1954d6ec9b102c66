//! Opening the SQLite file: its connections, the quick check at start and the schema's
//! migrations.

use std::path::Path;
use std::sync::mpsc::RecvTimeoutError;
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use rusqlite::{Connection, ErrorCode, OpenFlags, OptionalExtension};

use super::{PLAYER_COLUMNS, SqliteStorage, db, player_row};
use crate::migrations::MIGRATIONS;
use crate::{Player, StorageError};

/// How long a statement waits for a lock held by another connection before failing.
pub(super) const BUSY_TIMEOUT: Duration = Duration::from_secs(2);

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
        // Before anything is written to it (the journal mode is kept in the file).
        ours(path, &writer)?;
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

    pub(super) fn write(&self) -> MutexGuard<'_, Connection> {
        self.writer.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub(super) fn read(&self) -> MutexGuard<'_, Connection> {
        self.reader.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub(super) fn one_player(
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

pub(super) fn connect(path: &Path) -> Result<Connection, StorageError> {
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
pub(super) const QUICK_CHECK_ERRORS: u32 = 5;

/// `PRAGMA quick_check` of the whole file (every b-tree page, table and index, without
/// comparing index entries to table rows: O(N), where `integrity_check` is O(N log N)), so a
/// file damaged beyond its header is refused at start with the message a bad header gets,
/// instead of failing at the first write. A watchdog thread interrupts the check after
/// `limit`; then it is logged as not finished and start-up goes on.
pub(super) fn quick_check(
    path: &Path,
    conn: &Connection,
    limit: Duration,
) -> Result<(), StorageError> {
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

/// Most table names a [`StorageError::NotOurs`] lists.
const TABLES_SHOWN: usize = 5;

/// Refuses a database that is not ours: one with tables but no schema version (another
/// program's), or a version but no `players` table (another program that sets
/// `user_version`). An empty file, or one of ours at any version, passes; a version newer than
/// ours is left for [`migrate`] to refuse as too new.
pub(super) fn ours(path: &Path, conn: &Connection) -> Result<(), StorageError> {
    let classify = |e: rusqlite::Error| classify(path, e);
    let version: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .map_err(classify)?;
    if version > MIGRATIONS.len() as i64 {
        return Ok(());
    }
    let tables: Vec<String> = conn
        .prepare(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' \
             ORDER BY name",
        )
        .and_then(|mut s| {
            s.query_map([], |r| r.get(0))?
                .collect::<rusqlite::Result<_>>()
        })
        .map_err(classify)?;
    let is_ours = if version == 0 {
        tables.is_empty()
    } else {
        tables.iter().any(|t| t == "players")
    };
    if is_ours {
        return Ok(());
    }
    let mut shown: Vec<&str> = tables
        .iter()
        .take(TABLES_SHOWN)
        .map(String::as_str)
        .collect();
    if tables.is_empty() {
        shown.push("none, but a schema version of its own");
    } else if tables.len() > TABLES_SHOWN {
        shown.push("...");
    }
    Err(StorageError::NotOurs {
        path: path.to_path_buf(),
        tables: shown.join(", "),
    })
}

/// Brings the file to the newest schema, one transaction per migration.
pub(super) fn migrate(path: &Path, conn: &Connection) -> Result<(), StorageError> {
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
pub(super) fn classify(path: &Path, e: rusqlite::Error) -> StorageError {
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
