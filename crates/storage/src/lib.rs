//! # sevenbag-storage: what the server remembers
//!
//! Players (a hash of their secret key, their unique name, their Glicko-2 rating), every
//! finished match (players, ratings before and after, score, rules, duration, replay id, date,
//! per-player stats), every finished free-for-all or team match of 2 to 8 seats (`battle.rs`:
//! each seat's place, knock-outs, team, rounds and stats, the targeting; never rated), and each
//! player's best verified solo run per board (Sprint, Blitz) with its replay. A player's
//! history ([`Storage::recent_history`]) lists both kinds of match, newest first. [`Storage`] is the interface; [`SqliteStorage`] is the embedded default
//! (`--db ./sevenbag.db`); [`PostgresStorage`] (`--postgres URL`, folder `postgres/`) is the
//! same interface on PostgreSQL, for several server instances sharing one database.
//!
//! ## A player's statistics
//! [`Storage::rating_history`], [`Storage::seat_totals`] and [`Storage::solo_progression`]
//! (`stats.rs`) read what a statistics page shows: the rating after each ranked match (the
//! seats' `rating_after` columns), the per-seat stats summed over a player's latest matches of
//! both kinds, and the runs that raised a player's solo best. Every accepted solo run is kept
//! in `solo_runs` (migration 9, no replay bytes; the replay is kept for the best run only, in
//! `solo_records`), marked with whether it beat the best before it.
//!
//! ## Friends, notifications and direct messages
//! [`SocialStorage`] (folder `social/`, migration 5) keeps what players are to each other:
//! `friendships` holds two rows a pair, one per side (friends, request sent, request
//! received), written together in one transaction, so a player's friends (listed by name, a
//! page of at most [`social::MAX_PAGE`] with their total) and requests are one index range;
//! `players.friend_requests` says whom a player takes requests from (anyone, players they
//! share a stored match with, no one). `notifications` are kept until seen, at most
//! [`social::MAX_NOTIFICATIONS`] a player (seen ones dropped first), each kind a small
//! integer code; `direct_messages` between friends are filed under their pair. Blocks stay in
//! moderation's `blocks` table and win over all of it: while either of a pair blocks the
//! other, every social call reads the other as a player who does not exist.
//!
//! ## Published skins
//! [`SkinStorage`] (`skins.rs`, migration 8) keeps each published block skin's canonical PNG
//! under its content address, at most [`skins::MAX_SKINS_PER_PLAYER`] an identity; a skin the
//! operators remove ([`Action::RemoveSkin`], audited like every action) keeps its row without
//! its bytes, so the same pixels are not published again.
//!
//! ## Why rusqlite (bundled)
//! rusqlite is the maintained, thin SQLite binding; `bundled` compiles SQLite itself, so the
//! build needs no system library and no database at compile time. It is a fraction of sqlx's
//! compile time on two cores, and SQLite's API is synchronous anyway: the server runs every call
//! on a blocking thread (writes through one writer task), so an async driver would buy nothing
//! here. The trait is synchronous for the same reason; a Postgres backend can use the
//! `postgres` crate, or wrap an async client, behind it.
//!
//! ## Guarantees
//! - Schema migrations are versioned (`PRAGMA user_version`), applied in order at open, each in
//!   one transaction; a database from a newer server is refused, not touched.
//! - WAL journal with `synchronous = FULL`: a match is durable once [`Storage::record_match`]
//!   returns, whatever happens to the process afterwards.
//! - SQL is parameterised everywhere; no value is ever formatted into a statement.
//! - Opening reports a corrupt, locked, read-only or unreachable file as a [`StorageError`]
//!   that says which, for the server to print at start-up.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod battle;
mod columns;
#[cfg(any(test, feature = "fixtures"))]
pub mod fixtures;
mod migrations;
pub mod moderation;
mod postgres;
pub mod skins;
pub mod social;
mod sqlite;
mod stats;

use std::path::PathBuf;

pub use battle::{BattleRecord, BattleSeat, HistoryEntry, StoredBattle, ordinal};
pub use moderation::{
    Action, AddressBan, Audit, AuditEntry, AuditId, Closure, FlaggedMatch, InForce, MatchFlag,
    ModerationStorage, NewReport, Openness, PairLimit, PlayerFilter, PlayerRecord, PlayerSearch,
    Report, ReportId, Sanction, SanctionKind,
};
pub use postgres::PostgresStorage;
pub use skins::{SkinPut, SkinStorage};
pub use social::{
    DirectMessage, Friend, FriendPage, FriendState, MessageId, Notification, NotificationId,
    NotificationKind, NotificationPage, Page, Paged, PendingRequest, PendingRequests,
    RequestOutcome, RequestPolicy, SocialError, SocialStorage, UnknownCode,
};
pub use sqlite::SqliteStorage;
pub use stats::{RatingPoint, SeatTotals, SoloEntry};

/// A player's row id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PlayerId(pub i64);

/// A match's row id (also its id in the HTTP API).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MatchId(pub i64);

/// A Glicko-2 rating on the Glicko scale (1500 / 350 / 0.06 for a new player).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// The rating.
    pub rating: f64,
    /// Its deviation (RD).
    pub deviation: f64,
    /// Its volatility.
    pub volatility: f64,
}

impl Default for Rating {
    fn default() -> Self {
        Rating {
            rating: 1500.0,
            deviation: 350.0,
            volatility: 0.06,
        }
    }
}

/// A known player.
#[derive(Clone, Debug, PartialEq)]
pub struct Player {
    /// Row id.
    pub id: PlayerId,
    /// Display name, as chosen.
    pub name: String,
    /// Current rating (deviation as of `last_played_unix`; the caller applies decay).
    pub rating: Rating,
    /// Ranked matches finished.
    pub games: u32,
    /// Ranked matches won.
    pub wins: u32,
    /// When the player was created (Unix seconds).
    pub created_unix: u64,
    /// When the player last finished a ranked match.
    pub last_played_unix: Option<u64>,
}

/// A player to create.
#[derive(Clone, Debug)]
pub struct NewPlayer {
    /// SHA-256-sized hash of the player's secret key.
    pub key_hash: Vec<u8>,
    /// Hash of the recovery code.
    pub recovery_hash: Vec<u8>,
    /// Display name.
    pub name: String,
    /// The name's look-alike-folded form, unique among players.
    pub name_key: String,
    /// Unix seconds.
    pub created_unix: u64,
    /// The address (IPv4) or /64 (IPv6) it registers from, for the registration limits.
    pub registered_from: Option<String>,
}

/// Counters for one player over one match (summed over its rounds).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlayerStats {
    /// Pieces locked.
    pub pieces: u32,
    /// Lines of attack produced.
    pub attack: u32,
    /// Garbage lines cleared.
    pub garbage_cleared: u32,
    /// T-spin clears.
    pub t_spins: u32,
    /// Frames played.
    pub frames: u32,
    /// Pieces per second ×100 (computed by the core from the counters).
    pub pps_x100: u32,
    /// Attack per minute ×100.
    pub apm_x100: u32,
    /// Versus score ×100.
    pub vs_x100: u32,
}

/// One seat of a recorded match.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchSeat {
    /// The player, if they had an identity (guests have none).
    pub player: Option<PlayerId>,
    /// The name shown in the match.
    pub name: String,
    /// Rating before the match (ranked only).
    pub before: Option<Rating>,
    /// Rating after the match (ranked and counted only).
    pub after: Option<Rating>,
    /// Their stats.
    pub stats: PlayerStats,
}

/// How a match ended, as stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Seat index 0 or 1 won.
    Won(u8),
    /// No winner counts (a desync, or a shutdown): ratings did not change.
    Void,
}

/// A finished match.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchRecord {
    /// Whether it was ranked.
    pub ranked: bool,
    /// How it ended.
    pub outcome: Outcome,
    /// Why it ended (`top_out`, `forfeit`, `desync`, `shutdown`...).
    pub reason: String,
    /// Round wins per seat.
    pub score: [u8; 2],
    /// The rules, as JSON.
    pub rules: String,
    /// Frames played.
    pub duration_frames: u32,
    /// Replay id in the replay directory, if written.
    pub replay: Option<String>,
    /// Unix seconds at the start.
    pub started_unix: u64,
    /// Unix seconds at the end.
    pub ended_unix: u64,
    /// The two seats.
    pub seats: [MatchSeat; 2],
}

/// A stored match and its id.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredMatch {
    /// Its id.
    pub id: MatchId,
    /// What was recorded.
    pub record: MatchRecord,
}

/// Why a storage call failed.
#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    /// The file is not a SQLite database, or is damaged.
    #[error(
        "{path}: not a Sevenbag database or corrupt ({detail}); move it away or restore a backup"
    )]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// SQLite's words.
        detail: String,
    },
    /// Another process holds the database.
    #[error("{path}: the database is locked by another process (another server on the same file?)")]
    Locked {
        /// The file.
        path: PathBuf,
    },
    /// The file or its directory cannot be written.
    #[error("{path}: the database is read-only (check the file's and its directory's permissions)")]
    ReadOnly {
        /// The file.
        path: PathBuf,
    },
    /// The file cannot be opened or created.
    #[error("{path}: cannot open the database: {detail}")]
    Open {
        /// The file.
        path: PathBuf,
        /// Why.
        detail: String,
    },
    /// The database was written by a newer server.
    #[error(
        "{path}: schema version {found} is newer than this server's {known}; upgrade the server"
    )]
    TooNew {
        /// The file.
        path: PathBuf,
        /// The file's version.
        found: i64,
        /// Ours.
        known: i64,
    },
    /// The database is not empty and holds no Sevenbag schema: another program's, which is
    /// left untouched rather than migrated.
    #[error(
        "{path}: not a Sevenbag database (it holds other tables: {tables}); give a new file or \
         a Sevenbag database"
    )]
    NotOurs {
        /// The file (or the PostgreSQL database, without its password).
        path: PathBuf,
        /// The first few of its tables.
        tables: String,
    },
    /// The name (or a look-alike of it) belongs to another player.
    #[error("the name {0:?} is taken")]
    NameTaken(String),
    /// A key or recovery hash that is already registered.
    #[error("this key is already registered")]
    KeyTaken,
    /// No such player.
    #[error("no such player")]
    NoSuchPlayer,
    /// Any other database error.
    #[error("database error: {0}")]
    Db(String),
    /// No such report, flag or address ban (or it is already closed).
    #[error("no such {0}")]
    NotFound(String),
    /// A list is full (a block list at its limit).
    #[error("{0}")]
    Full(String),
}

/// A leaderboard row.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    /// 1-based place.
    pub place: u64,
    /// The player.
    pub player: Player,
}

/// A solo leaderboard: the ranked solo modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SoloBoard {
    /// 40-line Sprint: the value is the time in frames (60 a second), lower is better.
    Sprint,
    /// 2-minute Blitz: the value is the score, higher is better.
    Blitz,
}

impl SoloBoard {
    /// Both boards.
    pub const ALL: [SoloBoard; 2] = [SoloBoard::Sprint, SoloBoard::Blitz];

    /// Its name as stored and in URLs (`sprint`, `blitz`).
    pub const fn name(self) -> &'static str {
        match self {
            SoloBoard::Sprint => "sprint",
            SoloBoard::Blitz => "blitz",
        }
    }

    /// True when `new` beats `old` on this board (a tie does not).
    pub fn beats(self, new: u64, old: u64) -> bool {
        match self {
            SoloBoard::Sprint => new < old,
            SoloBoard::Blitz => new > old,
        }
    }
}

/// A verified solo run, as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SoloRun {
    /// Who ran it.
    pub player: PlayerId,
    /// Its board.
    pub board: SoloBoard,
    /// Frames of play from "GO" to the end.
    pub frames: u32,
    /// Lines cleared.
    pub lines: u32,
    /// Pieces locked.
    pub pieces: u32,
    /// Guideline score.
    pub score: u64,
    /// When the server accepted it (Unix seconds).
    pub recorded_unix: u64,
    /// The solo replay file it was verified from.
    pub replay: Vec<u8>,
}

impl SoloRun {
    /// The value the board ranks by: frames for a Sprint, score for a Blitz.
    pub fn value(&self) -> u64 {
        match self.board {
            SoloBoard::Sprint => u64::from(self.frames),
            SoloBoard::Blitz => self.score,
        }
    }
}

/// A solo leaderboard row: a player's best run on a board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SoloStanding {
    /// 1-based place.
    pub place: u64,
    /// The player's current name.
    pub name: String,
    /// Their best run.
    pub run: SoloRun,
}

/// What [`Storage::record_solo`] did with a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SoloRecordOutcome {
    /// The run beat the player's previous best (or was their first) and replaced it.
    pub personal_best: bool,
    /// The place of the player's best run on the board after the call.
    pub place: u64,
}

/// What the server stores. Calls block; the server makes them off its async threads. Its
/// moderation half is [`ModerationStorage`], its social half (friends, notifications, direct
/// messages) [`SocialStorage`], the published block skins [`SkinStorage`].
pub trait Storage:
    ModerationStorage + SocialStorage + SkinStorage + Send + Sync + std::fmt::Debug
{
    /// The player with this key hash.
    fn player_by_key(&self, key_hash: &[u8]) -> Result<Option<Player>, StorageError>;
    /// The player with this recovery-code hash.
    fn player_by_recovery(&self, recovery_hash: &[u8]) -> Result<Option<Player>, StorageError>;
    /// The player whose folded name is `name_key`.
    fn player_by_name_key(&self, name_key: &str) -> Result<Option<Player>, StorageError>;
    /// The player with this id.
    fn player(&self, id: PlayerId) -> Result<Option<Player>, StorageError>;
    /// Creates a player with the default rating.
    fn create_player(&self, new: &NewPlayer) -> Result<Player, StorageError>;
    /// Renames a player (`name_key` must be free or theirs).
    fn rename(&self, id: PlayerId, name: &str, name_key: &str) -> Result<(), StorageError>;
    /// Replaces a player's key hash (after a recovery) and recovery hash.
    fn rekey(
        &self,
        id: PlayerId,
        key_hash: &[u8],
        recovery_hash: &[u8],
    ) -> Result<(), StorageError>;
    /// Records a match and, in the same transaction, sets every seat's `after` rating (ranked,
    /// not void) and counts the game. Durable when it returns.
    fn record_match(&self, record: &MatchRecord) -> Result<MatchId, StorageError>;
    /// A stored match.
    fn get_match(&self, id: MatchId) -> Result<Option<StoredMatch>, StorageError>;
    /// A player's latest two-seat matches, newest first.
    fn recent_matches(
        &self,
        player: PlayerId,
        limit: u32,
    ) -> Result<Vec<StoredMatch>, StorageError>;
    /// Records a free-for-all or team match (never ranked: no rating changes). Durable when
    /// it returns.
    fn record_battle(&self, record: &BattleRecord) -> Result<MatchId, StorageError>;
    /// A stored battle (`None` for an unknown id or a two-seat match).
    fn get_battle(&self, id: MatchId) -> Result<Option<StoredBattle>, StorageError>;
    /// The stored battle whose replay is `replay` (a report's evidence), if any.
    fn battle_by_replay(&self, replay: &str) -> Result<Option<StoredBattle>, StorageError>;
    /// A player's latest matches of both kinds, newest first.
    fn recent_history(
        &self,
        player: PlayerId,
        limit: u32,
    ) -> Result<Vec<HistoryEntry>, StorageError>;
    /// The best-rated players with at least `min_games` ranked games, best first (players
    /// taken off the boards and bots are not listed).
    fn leaderboard(&self, limit: u32, min_games: u32) -> Result<Vec<Standing>, StorageError>;
    /// A player's place on that leaderboard (`None` if not on it).
    fn place_of(&self, id: PlayerId, min_games: u32) -> Result<Option<u64>, StorageError>;
    /// Every player, best rating first (for `sevenbag-tool ratings`).
    fn all_players(&self) -> Result<Vec<Player>, StorageError>;
    /// Keeps `run` if it is the player's first on its board or beats their best (a tie keeps
    /// the older run): only each player's best run per board is stored with its replay; every
    /// run is added to the player's run history ([`Storage::solo_progression`]) without it.
    fn record_solo(&self, run: &SoloRun) -> Result<SoloRecordOutcome, StorageError>;
    /// A board's best runs, one per player, best first (ties: the earlier run first; players
    /// taken off the boards and bots are not listed).
    fn solo_leaderboard(
        &self,
        board: SoloBoard,
        limit: u32,
    ) -> Result<Vec<SoloStanding>, StorageError>;
    /// A player's best run on a board, with its place.
    fn solo_best(
        &self,
        player: PlayerId,
        board: SoloBoard,
    ) -> Result<Option<SoloStanding>, StorageError>;
    /// A player's rating after each of their latest `limit` ranked, counted two-seat matches
    /// (those that stored a rating after), oldest first.
    fn rating_history(
        &self,
        player: PlayerId,
        limit: u32,
    ) -> Result<Vec<RatingPoint>, StorageError>;
    /// A player's seat stats summed over their latest `limit` matches of both kinds (two-seat,
    /// ranked or not, and battles), with how many those were and how many they won.
    fn seat_totals(&self, player: PlayerId, limit: u32) -> Result<SeatTotals, StorageError>;
    /// The latest `limit` of a player's runs on a board that beat their best before them (the
    /// first run included), oldest first: the progression of their personal best.
    fn solo_progression(
        &self,
        player: PlayerId,
        board: SoloBoard,
        limit: u32,
    ) -> Result<Vec<SoloEntry>, StorageError>;
}
