//! What a player's statistics page reads: [`RatingPoint`]s of their rating history,
//! [`SeatTotals`] of their latest matches and the [`SoloEntry`] rows of their solo run history.

use crate::{MatchId, Rating, SoloBoard};

/// A player's rating as one of their ranked matches left it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatingPoint {
    /// The match.
    pub match_id: MatchId,
    /// When it ended (Unix seconds).
    pub ended_unix: u64,
    /// The player's rating after it.
    pub rating: Rating,
}

/// One player's seat stats summed over a number of matches (rates ×100 summed as stored, so
/// their mean is the sum over `matches`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SeatTotals {
    /// Matches counted.
    pub matches: u32,
    /// Of those, matches the player (or their team) won.
    pub wins: u32,
    /// Pieces locked.
    pub pieces: u64,
    /// Lines of attack produced.
    pub attack: u64,
    /// Garbage lines cleared.
    pub garbage_cleared: u64,
    /// Frames played.
    pub frames: u64,
    /// Each match's pieces per second ×100, summed.
    pub pps_x100: u64,
    /// Each match's attack per minute ×100, summed.
    pub apm_x100: u64,
    /// Each match's versus score ×100, summed.
    pub vs_x100: u64,
}

/// One accepted solo run as the run history keeps it (no replay).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SoloEntry {
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
    /// Whether it beat the player's best before it (or was their first on the board).
    pub personal_best: bool,
}

/// The win of a `match_seats s` row of `matches m`: the match's winner is the seat's team, or
/// the seat itself without teams (every two-seat row has no team).
pub(crate) const SEAT_WON: &str = "CASE WHEN m.winner = COALESCE(s.team, s.seat) THEN 1 ELSE 0 END";
