//! The PostgreSQL implementation (`--postgres URL`), for several server instances sharing
//! one database.
//!
//! ## Why the `postgres` crate
//! [`Storage`] is synchronous and the server already calls it on blocking threads, so the
//! synchronous client of rust-postgres (`postgres`, a thin wrapper over `tokio-postgres` with
//! its own small runtime) fits without an async layer; sqlx would bring its macros, its pool
//! and a second SQLite binding (which cannot share a binary with rusqlite's, see FACTS).
//!
//! ## Same guarantees as SQLite
//! - Versioned migrations (`sevenbag_schema.version`), applied in order at connect, each in one
//!   transaction under an advisory lock (two instances starting together migrate once); a
//!   database from a newer server is refused, not touched. The schema is the SQLite one in
//!   PostgreSQL's types (`BIGINT`, `DOUBLE PRECISION`, `BYTEA`).
//! - A match is durable once [`Storage::record_match`] returns (PostgreSQL's default
//!   `synchronous_commit`).
//! - Parameterised SQL only.
//! - One writing and one reading connection, each behind a mutex; a connection found closed
//!   (the database restarted) is opened again on the next call. Connecting times out after
//!   [`CONNECT_TIMEOUT`](connection::CONNECT_TIMEOUT) and every statement after
//!   [`STATEMENT_TIMEOUT_MS`](connection::STATEMENT_TIMEOUT_MS), unless the URL sets its own.
//!
//! ## Layout
//! [`Storage`] is implemented here, each method handing over to the file of its job:
//! `connection` (connecting, the connections' upkeep, migrations), `players` (identities,
//! renames, the rating leaderboard), `matches` (two-seat matches and history), `battles`
//! (matches of several seats), `seats` (the `match_seats` rows both write and read), `solo`
//! (solo records), `stats` (a player's statistics), and `moderation` and `social` (each its
//! own trait).

mod battles;
mod connection;
mod matches;
mod moderation;
mod players;
mod seats;
mod skins;
mod social;
mod solo;
mod stats;

use std::sync::Mutex;

use postgres::Row;
use postgres::error::SqlState;

use self::connection::Conn;
use crate::columns::{LISTED, PLAYER_COLUMNS};
use crate::{
    BattleRecord, HistoryEntry, MatchId, MatchRecord, NewPlayer, Player, PlayerId, Rating,
    RatingPoint, SeatTotals, SoloBoard, SoloEntry, SoloRecordOutcome, SoloRun, SoloStanding,
    Standing, Storage, StorageError, StoredBattle, StoredMatch,
};

/// Players and matches in a PostgreSQL database.
pub struct PostgresStorage {
    config: postgres::Config,
    /// The URL without its password, for logs.
    described: String,
    writer: Mutex<Conn>,
    reader: Mutex<Conn>,
}

impl std::fmt::Debug for PostgresStorage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PostgresStorage")
            .field("db", &self.described)
            .finish_non_exhaustive()
    }
}

fn u(v: i64) -> u64 {
    v.max(0) as u64
}

fn u32_of(v: i64) -> u32 {
    v.clamp(0, i64::from(u32::MAX)) as u32
}

fn i(v: u64) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}

fn player_row(row: &Row) -> Result<Player, postgres::Error> {
    Ok(Player {
        id: PlayerId(row.try_get(0)?),
        name: row.try_get(1)?,
        rating: Rating {
            rating: row.try_get(2)?,
            deviation: row.try_get(3)?,
            volatility: row.try_get(4)?,
        },
        games: u32_of(row.try_get(5)?),
        wins: u32_of(row.try_get(6)?),
        created_unix: u(row.try_get(7)?),
        last_played_unix: row.try_get::<_, Option<i64>>(8)?.map(u),
    })
}

fn db(e: postgres::Error) -> StorageError {
    // `postgres::Error` says only "db error"; the server's own words are in the detail.
    match e.as_db_error() {
        Some(d) => StorageError::Db(format!("{e}: {}", d.message())),
        None => StorageError::Db(e.to_string()),
    }
}

/// A unique-constraint failure on `players` as the error the caller can show.
fn unique(e: postgres::Error, name: &str) -> StorageError {
    if let Some(d) = e.as_db_error()
        && *d.code() == SqlState::UNIQUE_VIOLATION
    {
        let constraint = d.constraint().unwrap_or_default();
        if constraint.contains("name_key") {
            return StorageError::NameTaken(name.to_string());
        }
        if constraint.contains("key_hash") || constraint.contains("recovery_hash") {
            return StorageError::KeyTaken;
        }
    }
    db(e)
}

impl Storage for PostgresStorage {
    fn player_by_key(&self, key_hash: &[u8]) -> Result<Option<Player>, StorageError> {
        players::player_by_key(self, key_hash)
    }

    fn player_by_recovery(&self, recovery_hash: &[u8]) -> Result<Option<Player>, StorageError> {
        players::player_by_recovery(self, recovery_hash)
    }

    fn player_by_name_key(&self, name_key: &str) -> Result<Option<Player>, StorageError> {
        players::player_by_name_key(self, name_key)
    }

    fn player(&self, id: PlayerId) -> Result<Option<Player>, StorageError> {
        players::player(self, id)
    }

    fn create_player(&self, new: &NewPlayer) -> Result<Player, StorageError> {
        players::create_player(self, new)
    }

    fn rename(&self, id: PlayerId, name: &str, name_key: &str) -> Result<(), StorageError> {
        players::rename(self, id, name, name_key)
    }

    fn rekey(
        &self,
        id: PlayerId,
        key_hash: &[u8],
        recovery_hash: &[u8],
    ) -> Result<(), StorageError> {
        players::rekey(self, id, key_hash, recovery_hash)
    }

    fn record_match(&self, record: &MatchRecord) -> Result<MatchId, StorageError> {
        matches::record_match(self, record)
    }

    fn get_match(&self, id: MatchId) -> Result<Option<StoredMatch>, StorageError> {
        matches::get_match(self, id)
    }

    fn recent_matches(
        &self,
        player: PlayerId,
        limit: u32,
    ) -> Result<Vec<StoredMatch>, StorageError> {
        matches::recent_matches(self, player, limit)
    }

    fn record_battle(&self, record: &BattleRecord) -> Result<MatchId, StorageError> {
        battles::record(&mut **self.write()?, record).map_err(db)
    }

    fn get_battle(&self, id: MatchId) -> Result<Option<StoredBattle>, StorageError> {
        battles::load(&mut **self.read()?, id).map_err(db)
    }

    fn battle_by_replay(&self, replay: &str) -> Result<Option<StoredBattle>, StorageError> {
        battles::by_replay(&mut **self.read()?, replay).map_err(db)
    }

    fn recent_history(
        &self,
        player: PlayerId,
        limit: u32,
    ) -> Result<Vec<HistoryEntry>, StorageError> {
        battles::history(&mut **self.read()?, player, limit).map_err(db)
    }

    fn leaderboard(&self, limit: u32, min_games: u32) -> Result<Vec<Standing>, StorageError> {
        players::leaderboard(self, limit, min_games)
    }

    fn place_of(&self, id: PlayerId, min_games: u32) -> Result<Option<u64>, StorageError> {
        players::place_of(self, id, min_games)
    }

    fn all_players(&self) -> Result<Vec<Player>, StorageError> {
        players::all_players(self)
    }

    fn record_solo(&self, run: &SoloRun) -> Result<SoloRecordOutcome, StorageError> {
        solo::record_solo(self, run)
    }

    fn solo_leaderboard(
        &self,
        board: SoloBoard,
        limit: u32,
    ) -> Result<Vec<SoloStanding>, StorageError> {
        solo::solo_leaderboard(self, board, limit)
    }

    fn solo_best(
        &self,
        player: PlayerId,
        board: SoloBoard,
    ) -> Result<Option<SoloStanding>, StorageError> {
        solo::solo_best(self, player, board)
    }

    fn rating_history(
        &self,
        player: PlayerId,
        limit: u32,
    ) -> Result<Vec<RatingPoint>, StorageError> {
        stats::rating_history(self, player, limit)
    }

    fn seat_totals(&self, player: PlayerId, limit: u32) -> Result<SeatTotals, StorageError> {
        stats::seat_totals(self, player, limit)
    }

    fn solo_progression(
        &self,
        player: PlayerId,
        board: SoloBoard,
        limit: u32,
    ) -> Result<Vec<SoloEntry>, StorageError> {
        stats::solo_progression(self, player, board, limit)
    }
}

#[cfg(test)]
mod tests {
    use super::connection::describe;

    #[test]
    fn a_described_url_has_no_password() {
        assert_eq!(
            describe("postgres://ann:secret@db:5432/sevenbag"),
            "postgres://ann@db:5432/sevenbag"
        );
        assert_eq!(describe("host=/tmp user=ann"), "host=/tmp user=ann");
    }
}
