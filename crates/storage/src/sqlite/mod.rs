//! The SQLite implementation: one writing connection and one reading connection (WAL lets
//! reads proceed while a write commits), each behind a mutex.
//!
//! ## Layout
//! [`Storage`] is implemented here, each method handing over to the file of its job:
//! `connection` (opening, the quick check, migrations), `players` (identities, renames, the
//! rating leaderboard), `matches` (two-seat matches and history), `battles` (matches of
//! several seats), `seats` (the `match_seats` rows both write and read), `solo` (solo records),
//! `stats` (a player's statistics: rating history, seat totals, solo progression), and
//! `moderation` and `social` (each its own trait).

mod battles;
mod connection;
mod matches;
mod moderation;
mod players;
mod seats;
mod skins;
mod social;
#[cfg(test)]
mod social_tests;
mod solo;
mod stats;
#[cfg(test)]
mod tests;

use std::path::PathBuf;
use std::sync::Mutex;

use rusqlite::{Connection, ErrorCode, Row};

use crate::columns::{LISTED, PLAYER_COLUMNS};

use crate::{
    BattleRecord, HistoryEntry, MatchId, MatchRecord, NewPlayer, Player, PlayerId, Rating,
    RatingPoint, SeatTotals, SoloBoard, SoloEntry, SoloRecordOutcome, SoloRun, SoloStanding,
    Standing, Storage, StorageError, StoredBattle, StoredMatch,
};

/// Players and matches in one SQLite file.
#[derive(Debug)]
pub struct SqliteStorage {
    path: PathBuf,
    writer: Mutex<Connection>,
    reader: Mutex<Connection>,
}

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

/// Whether `e` is one row's value not reading as its column's type (a damaged row), rather than
/// a failure of the database itself.
fn damaged_value(e: &rusqlite::Error) -> bool {
    matches!(
        e,
        rusqlite::Error::InvalidColumnType(..)
            | rusqlite::Error::FromSqlConversionFailure(..)
            | rusqlite::Error::IntegralValueOutOfRange(..)
    )
}

fn unix(t: u64) -> i64 {
    i64::try_from(t).unwrap_or(i64::MAX)
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

impl Storage for SqliteStorage {
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
        players::leaderboard(self, limit, min_games)
    }

    fn place_of(&self, id: PlayerId, min_games: u32) -> Result<Option<u64>, StorageError> {
        players::place_of(self, id, min_games)
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

    fn all_players(&self) -> Result<Vec<Player>, StorageError> {
        players::all_players(self)
    }

    fn rating_history(
        &self,
        player: PlayerId,
        limit: u32,
    ) -> Result<Vec<RatingPoint>, StorageError> {
        stats::rating_history(&self.read(), player, limit).map_err(db)
    }

    fn seat_totals(&self, player: PlayerId, limit: u32) -> Result<SeatTotals, StorageError> {
        stats::seat_totals(&self.read(), player, limit).map_err(db)
    }

    fn solo_progression(
        &self,
        player: PlayerId,
        board: SoloBoard,
        limit: u32,
    ) -> Result<Vec<SoloEntry>, StorageError> {
        stats::solo_progression(&self.read(), player, board, limit).map_err(db)
    }
}
