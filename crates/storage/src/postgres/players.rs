//! Players on PostgreSQL: identities (key, recovery code, name), renames and re-keys, and the
//! rating leaderboard.

use super::{LISTED, PLAYER_COLUMNS, PostgresStorage, db, i, player_row, u, unique};
use crate::{NewPlayer, Player, PlayerId, Rating, Standing, StorageError};

pub(super) fn player_by_key(
    store: &PostgresStorage,
    key_hash: &[u8],
) -> Result<Option<Player>, StorageError> {
    store.one_player("key_hash", &key_hash)
}

pub(super) fn player_by_recovery(
    store: &PostgresStorage,
    recovery_hash: &[u8],
) -> Result<Option<Player>, StorageError> {
    store.one_player("recovery_hash", &recovery_hash)
}

pub(super) fn player_by_name_key(
    store: &PostgresStorage,
    name_key: &str,
) -> Result<Option<Player>, StorageError> {
    store.one_player("name_key", &name_key)
}

pub(super) fn player(
    store: &PostgresStorage,
    id: PlayerId,
) -> Result<Option<Player>, StorageError> {
    store.one_player("id", &id.0)
}

pub(super) fn create_player(
    store: &PostgresStorage,
    new: &NewPlayer,
) -> Result<Player, StorageError> {
    let start = Rating::default();
    let row = store
        .write()?
        .query_one(
            "INSERT INTO players (key_hash, recovery_hash, name, name_key, rating, \
             deviation, volatility, created_unix, registered_from) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id",
            &[
                &new.key_hash,
                &new.recovery_hash,
                &new.name,
                &new.name_key,
                &start.rating,
                &start.deviation,
                &start.volatility,
                &i(new.created_unix),
                &new.registered_from,
            ],
        )
        .map_err(|e| unique(e, &new.name))?;
    Ok(Player {
        id: PlayerId(row.try_get(0).map_err(db)?),
        name: new.name.clone(),
        rating: start,
        games: 0,
        wins: 0,
        created_unix: new.created_unix,
        last_played_unix: None,
    })
}

pub(super) fn rename(
    store: &PostgresStorage,
    id: PlayerId,
    name: &str,
    name_key: &str,
) -> Result<(), StorageError> {
    let changed = store
        .write()?
        .execute(
            "UPDATE players SET name = $1, name_key = $2 WHERE id = $3",
            &[&name, &name_key, &id.0],
        )
        .map_err(|e| unique(e, name))?;
    if changed == 0 {
        return Err(StorageError::NoSuchPlayer);
    }
    Ok(())
}

pub(super) fn rekey(
    store: &PostgresStorage,
    id: PlayerId,
    key_hash: &[u8],
    recovery_hash: &[u8],
) -> Result<(), StorageError> {
    let changed = store
        .write()?
        .execute(
            "UPDATE players SET key_hash = $1, recovery_hash = $2 WHERE id = $3",
            &[&key_hash, &recovery_hash, &id.0],
        )
        .map_err(|e| unique(e, ""))?;
    if changed == 0 {
        return Err(StorageError::NoSuchPlayer);
    }
    Ok(())
}

pub(super) fn leaderboard(
    store: &PostgresStorage,
    limit: u32,
    min_games: u32,
) -> Result<Vec<Standing>, StorageError> {
    let rows = store
        .read()?
        .query(
            &format!(
                "SELECT {PLAYER_COLUMNS} FROM players WHERE games >= $1 AND {LISTED} \
                 ORDER BY rating DESC, id LIMIT $2"
            ),
            &[&i64::from(min_games), &i64::from(limit)],
        )
        .map_err(db)?;
    rows.iter()
        .zip(1..)
        .map(|(row, place)| {
            Ok(Standing {
                place,
                player: player_row(row).map_err(db)?,
            })
        })
        .collect()
}

pub(super) fn place_of(
    store: &PostgresStorage,
    id: PlayerId,
    min_games: u32,
) -> Result<Option<u64>, StorageError> {
    let mut conn = store.read()?;
    let me = conn
        .query_opt(
            &format!("SELECT rating, games FROM players WHERE id = $1 AND {LISTED}"),
            &[&id.0],
        )
        .map_err(db)?;
    let Some(me) = me else { return Ok(None) };
    let rating: f64 = me.try_get(0).map_err(db)?;
    let games: i64 = me.try_get(1).map_err(db)?;
    if games < i64::from(min_games) {
        return Ok(None);
    }
    let above: i64 = conn
        .query_one(
            &format!(
                "SELECT COUNT(*) FROM players WHERE games >= $1 AND {LISTED} \
                 AND (rating > $2 OR (rating = $2 AND id < $3))"
            ),
            &[&i64::from(min_games), &rating, &id.0],
        )
        .and_then(|r| r.try_get(0))
        .map_err(db)?;
    Ok(Some(u(above) + 1))
}

pub(super) fn all_players(store: &PostgresStorage) -> Result<Vec<Player>, StorageError> {
    let rows = store
        .read()?
        .query(
            &format!("SELECT {PLAYER_COLUMNS} FROM players ORDER BY rating DESC, id"),
            &[],
        )
        .map_err(db)?;
    rows.iter().map(|r| player_row(r).map_err(db)).collect()
}
