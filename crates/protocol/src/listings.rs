//! Rows of the server's lists that the game shows: its match replays ([`ReplayListing`]) and
//! its solo leaderboards ([`SoloRow`]).

use serde::{Deserialize, Serialize};
use sevenbag_core::Seat;

use crate::messages::EndReason;

/// Most solo leaderboard rows one `GetSoloLeaderboard` returns.
pub const MAX_SOLO_ROWS: u32 = 100;

/// One replay the server keeps, as `ListReplayInfo` lists it: enough to tell two matches of the
/// same players apart (when, how long, the score, ranked or not).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ReplayListing {
    /// The replay id, for `GetReplay`.
    pub id: String,
    /// The players, seat 0 and 1.
    pub names: [String; 2],
    /// The winner (`None`: unfinished or no result).
    pub winner: Option<Seat>,
    /// How the match ended.
    pub reason: EndReason,
    /// Round wins, seat 0 and 1.
    pub score: [u8; 2],
    /// Frames played (60 a second).
    pub frames: u32,
    /// When the replay was written, in Unix seconds.
    pub created_unix: u64,
    /// Whether the match was ranked.
    pub ranked: bool,
}

/// A player's best verified solo run on a leaderboard (answer to `GetSoloLeaderboard`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SoloRow {
    /// Place on the board, from 1.
    pub place: u32,
    /// The player's current name.
    pub name: String,
    /// Frames from "GO" to the end (a Sprint's time; a Blitz's is always two minutes).
    pub frames: u32,
    /// Guideline score (a Blitz's result).
    pub score: u64,
    /// Lines cleared.
    pub lines: u32,
    /// Pieces locked.
    pub pieces: u32,
    /// When the server accepted the run, in Unix seconds.
    pub recorded_unix: u64,
}
