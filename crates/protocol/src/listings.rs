//! Rows of the server's lists that the game shows: its match replays ([`ReplayListing`]) and
//! its solo leaderboards ([`SoloRow`]).

use serde::{Deserialize, Serialize};
use sevenbag_core::{MAX_SEATS, Seat};

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

/// The second name of a row of several seats: how many played besides the first name
/// ("7 others"); [`ReplayListing::several_seats`] reads it back.
pub(crate) fn others(count: usize) -> String {
    format!("{count} others")
}

impl ReplayListing {
    /// How many seats played, when this row is a match of several seats'. The row has room for
    /// two names, so `BattleReplay::listing` writes the winner (or seat 0 when none) and
    /// "N others" ([`others`]), no round score and never ranked; a row of that shape reads
    /// back as N + 1 seats, any other as `None` (a two-seat match). A two-seat row matches
    /// only if its second player is named like "3 others" and the match ended 0–0, unranked,
    /// not won by that player.
    pub fn several_seats(&self) -> Option<usize> {
        let count: usize = self.names[1].strip_suffix(" others")?.parse().ok()?;
        let shape = self.score == [0, 0] && !self.ranked && self.winner != Some(Seat::Second);
        (shape && (1..MAX_SEATS).contains(&count) && !self.names[1].starts_with(['+', '0']))
            .then_some(count + 1)
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn row(names: [&str; 2], score: [u8; 2], ranked: bool) -> ReplayListing {
        ReplayListing {
            id: "1-ACDEF-1".into(),
            names: names.map(str::to_owned),
            winner: Some(Seat::First),
            reason: EndReason::TopOut,
            score,
            frames: 600,
            created_unix: 0,
            ranked,
        }
    }

    #[test]
    fn a_row_of_several_seats_reads_back_its_seat_count() {
        assert_eq!(
            row(["p0", &others(7)], [0, 0], false).several_seats(),
            Some(8)
        );
        assert_eq!(
            row(["p0", &others(1)], [0, 0], false).several_seats(),
            Some(2)
        );
    }

    #[test]
    fn a_two_seat_row_is_not_read_as_several_seats() {
        assert_eq!(row(["ann", "bo"], [0, 0], false).several_seats(), None);
        assert_eq!(
            row(["ann", "3 others"], [2, 1], false).several_seats(),
            None
        );
        assert_eq!(row(["ann", "3 others"], [0, 0], true).several_seats(), None);
        for odd in ["8 others", "0 others", "03 others", "+3 others", "others"] {
            assert_eq!(
                row(["ann", odd], [0, 0], false).several_seats(),
                None,
                "{odd}"
            );
        }
    }
}
