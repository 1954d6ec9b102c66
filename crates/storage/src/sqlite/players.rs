//! Players on SQLite: identities (key, recovery code, name), renames and re-keys, and the
//! rating leaderboard.

use rusqlite::{OptionalExtension, params};

use super::{LISTED, PLAYER_COLUMNS, SqliteStorage, damaged_value, db, player_row, unique, unix};
use crate::{NewPlayer, Player, PlayerId, Rating, Standing, StorageError};

pub(super) fn player_by_key(
    store: &SqliteStorage,
    key_hash: &[u8],
) -> Result<Option<Player>, StorageError> {
    store.one_player("key_hash", &key_hash)
}

pub(super) fn player_by_recovery(
    store: &SqliteStorage,
    recovery_hash: &[u8],
) -> Result<Option<Player>, StorageError> {
    store.one_player("recovery_hash", &recovery_hash)
}

pub(super) fn player_by_name_key(
    store: &SqliteStorage,
    name_key: &str,
) -> Result<Option<Player>, StorageError> {
    store.one_player("name_key", &name_key)
}

pub(super) fn player(store: &SqliteStorage, id: PlayerId) -> Result<Option<Player>, StorageError> {
    store.one_player("id", &id.0)
}

pub(super) fn create_player(
    store: &SqliteStorage,
    new: &NewPlayer,
) -> Result<Player, StorageError> {
    let start = Rating::default();
    let conn = store.write();
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

pub(super) fn rename(
    store: &SqliteStorage,
    id: PlayerId,
    name: &str,
    name_key: &str,
) -> Result<(), StorageError> {
    let changed = store
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

pub(super) fn rekey(
    store: &SqliteStorage,
    id: PlayerId,
    key_hash: &[u8],
    recovery_hash: &[u8],
) -> Result<(), StorageError> {
    let changed = store
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

/// The best `limit` listed players with `min_games`. A row whose values do not read as their
/// columns' types (SQLite keeps whatever was written: a hand edit, another program) is left
/// out with a logged warning, so one damaged player cannot take the whole board down; the
/// board then shows one row fewer, and places count the rows shown.
pub(super) fn leaderboard(
    store: &SqliteStorage,
    limit: u32,
    min_games: u32,
) -> Result<Vec<Standing>, StorageError> {
    let conn = store.read();
    let mut stmt = conn
        .prepare_cached(&format!(
            "SELECT {PLAYER_COLUMNS} FROM players WHERE games >= ?1 AND {LISTED} \
             ORDER BY rating DESC, id LIMIT ?2"
        ))
        .map_err(db)?;
    let mut players = Vec::new();
    let rows = stmt
        .query_map(params![min_games, limit], |r| {
            Ok((r.get::<_, i64>(0).ok(), player_row(r)))
        })
        .map_err(db)?;
    for row in rows {
        match row.map_err(db)? {
            (_, Ok(player)) => players.push(player),
            (id, Err(e)) if damaged_value(&e) => {
                tracing::warn!(player = ?id, error = %e, "a damaged player row is left off the leaderboard");
            }
            (_, Err(e)) => return Err(db(e)),
        }
    }
    Ok(players
        .into_iter()
        .zip(1..)
        .map(|(player, place)| Standing { place, player })
        .collect())
}

pub(super) fn place_of(
    store: &SqliteStorage,
    id: PlayerId,
    min_games: u32,
) -> Result<Option<u64>, StorageError> {
    let conn = store.read();
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

pub(super) fn all_players(store: &SqliteStorage) -> Result<Vec<Player>, StorageError> {
    let conn = store.read();
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
