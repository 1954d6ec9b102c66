//! One finished match of a player's history seat by seat ([`MatchDetail`], the answer to
//! `GetMatchDetail`): who sat where, their place, knock-outs, rounds and the figures the server
//! keeps. A free-for-all or team match has 2 to 8 seats; a two-seat match (ranked or not) reads
//! the same way with its two seats, so every row of a profile opens one table.
//!
//! Everything here arrives from the network: the codec bounds the bytes, the seat list is
//! refused past 8 entries on decode, and [`MatchDetail::validate`] checks the rest before a
//! client shows it.

use serde::{Deserialize, Serialize};

use crate::battle::MAX_ROOM_SEATS;
use crate::messages::MAX_NAME_CHARS;

/// Longest word in [`MatchDetail::reason`] and [`MatchDetail::targeting`], in bytes.
pub const MAX_DETAIL_WORD: usize = 16;

/// One seat of a finished match, as the server stored it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SeatDetail {
    /// The name shown in the match (at most [`MAX_NAME_CHARS`] characters).
    pub name: String,
    /// They played without an identity (no profile to open).
    pub guest: bool,
    /// A declared bot.
    pub bot: bool,
    /// Their team in a team match (0 to 3); `None` when every seat plays for itself.
    pub team: Option<u8>,
    /// Their final place, 1 for the winner (their team's place in a team match); 0 when the
    /// match was cut short before it was decided.
    pub placement: u8,
    /// Knock-outs credited to them over the rounds (0 in a two-seat match).
    pub kos: u32,
    /// Rounds won by their team (by themselves without teams).
    pub rounds_won: u8,
    /// Pieces locked.
    pub pieces: u32,
    /// Lines of attack sent.
    pub attack: u32,
    /// Garbage lines cleared.
    pub garbage_cleared: u32,
    /// T-spin clears.
    pub t_spins: u32,
    /// Pieces per second ×100.
    pub pps_x100: u32,
    /// Attack per minute ×100.
    pub apm_x100: u32,
    /// Rating change, rounded (ranked and counted two-seat matches only).
    pub rating_change: Option<i32>,
}

/// A finished match, every seat in seat order (answer to `GetMatchDetail`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MatchDetail {
    /// The match id (as in `RecentMatch::id` and `/api/matches/{id}`).
    pub id: u64,
    /// A free-for-all or team match (`false`: a two-seat match).
    pub battle: bool,
    /// Whether it was ranked (two-seat matches only).
    pub ranked: bool,
    /// The targeting rule's name (`even`, `kos`...); empty for a two-seat match.
    pub targeting: String,
    /// Why it ended (`top_out`, `forfeit`, `shutdown`...).
    pub reason: String,
    /// The winning team (the winning seat without teams); `None`: nobody won.
    pub winner: Option<u8>,
    /// Frames played (60 a second).
    pub duration_frames: u32,
    /// When it ended, in Unix seconds.
    pub ended_unix: u64,
    /// The replay's id for `GetReplay`, if one was written.
    pub replay: Option<String>,
    /// Every seat, in seat order (2 to 8).
    #[serde(deserialize_with = "crate::battle::at_most_seats")]
    pub seats: Vec<SeatDetail>,
}

/// Why a [`MatchDetail`] cannot be shown.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum DetailError {
    /// Fewer than 2 or more than 8 seats.
    #[error("a match has 2 to {MAX_ROOM_SEATS} seats, not {0}")]
    Seats(usize),
    /// A name that is empty or too long.
    #[error("seat {0}'s name is not 1 to {MAX_NAME_CHARS} characters")]
    Name(usize),
    /// A place past the number of seats.
    #[error("seat {0} is placed past the last seat")]
    Placement(usize),
    /// A team past the fourth, or teams on some seats only.
    #[error("seat {0}'s team is out of range")]
    Team(usize),
    /// A winner that is no team or seat of the match.
    #[error("the winner is no seat or team of the match")]
    Winner,
    /// A reason, targeting or replay id too long.
    #[error("a word of the match is too long")]
    Word,
}

impl SeatDetail {
    /// `name`'s seat, an account's playing for itself, placed `placement`, with every figure
    /// zero (the caller sets the ones it has).
    pub fn new(name: impl Into<String>, placement: u8) -> Self {
        SeatDetail {
            name: name.into(),
            guest: false,
            bot: false,
            team: None,
            placement,
            kos: 0,
            rounds_won: 0,
            pieces: 0,
            attack: 0,
            garbage_cleared: 0,
            t_spins: 0,
            pps_x100: 0,
            apm_x100: 0,
            rating_change: None,
        }
    }
}

impl MatchDetail {
    /// Whether the seats play in teams.
    pub fn teams(&self) -> bool {
        self.seats.iter().any(|s| s.team.is_some())
    }

    /// Whether the seat at `seat` won (its team did); `None` when nobody won.
    pub fn won(&self, seat: usize) -> Option<bool> {
        let winner = self.winner?;
        let s = self.seats.get(seat)?;
        Some(s.team.unwrap_or(seat as u8) == winner)
    }

    /// Checks what a peer sent: 2 to 8 seats, names of 1 to [`MAX_NAME_CHARS`] characters,
    /// places within the seats, teams 0 to 3 on every seat or none, a winner that exists,
    /// short words.
    pub fn validate(&self) -> Result<(), DetailError> {
        let n = self.seats.len();
        if !(2..=MAX_ROOM_SEATS).contains(&n) {
            return Err(DetailError::Seats(n));
        }
        let teams = self.teams();
        for (i, s) in self.seats.iter().enumerate() {
            let chars = s.name.chars().count();
            if chars == 0 || chars > MAX_NAME_CHARS || s.name.chars().any(char::is_control) {
                return Err(DetailError::Name(i));
            }
            if usize::from(s.placement) > n {
                return Err(DetailError::Placement(i));
            }
            if s.team.is_some() != teams || s.team.is_some_and(|t| t > 3) {
                return Err(DetailError::Team(i));
            }
        }
        if let Some(w) = self.winner {
            let exists = if teams {
                self.seats.iter().any(|s| s.team == Some(w))
            } else {
                usize::from(w) < n
            };
            if !exists {
                return Err(DetailError::Winner);
            }
        }
        let words = [&self.reason, &self.targeting];
        if words.iter().any(|w| w.len() > MAX_DETAIL_WORD)
            || self.replay.as_ref().is_some_and(|r| r.len() > 64)
        {
            return Err(DetailError::Word);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn three() -> MatchDetail {
        MatchDetail {
            id: 4,
            battle: true,
            ranked: false,
            targeting: "even".into(),
            reason: "top_out".into(),
            winner: Some(2),
            duration_frames: 600,
            ended_unix: 0,
            replay: Some("r1".into()),
            seats: vec![
                SeatDetail::new("ann", 3),
                SeatDetail::new("bob", 2),
                SeatDetail::new("cat", 1),
            ],
        }
    }

    #[test]
    fn a_three_seat_match_is_valid_and_its_winner_won() {
        let d = three();
        assert_eq!(d.validate(), Ok(()));
        assert_eq!((d.won(0), d.won(2)), (Some(false), Some(true)));
    }

    #[test]
    fn a_lone_seat_or_a_ninth_is_refused() {
        let mut d = three();
        d.seats.truncate(1);
        assert_eq!(d.validate(), Err(DetailError::Seats(1)));
        let mut d = three();
        d.seats = (0..9)
            .map(|i| SeatDetail::new(format!("p{i}"), 0))
            .collect();
        assert_eq!(d.validate(), Err(DetailError::Seats(9)));
    }

    #[test]
    fn bad_names_places_teams_and_winners_are_refused() {
        let mut d = three();
        d.seats[1].name = "x".repeat(MAX_NAME_CHARS + 1);
        assert_eq!(d.validate(), Err(DetailError::Name(1)));
        let mut d = three();
        d.seats[0].placement = 4;
        assert_eq!(d.validate(), Err(DetailError::Placement(0)));
        let mut d = three();
        d.seats[0].team = Some(1);
        assert_eq!(d.validate(), Err(DetailError::Team(1)));
        let mut d = three();
        d.winner = Some(3);
        assert_eq!(d.validate(), Err(DetailError::Winner));
        let mut d = three();
        d.reason = "x".repeat(MAX_DETAIL_WORD + 1);
        assert_eq!(d.validate(), Err(DetailError::Word));
    }

    #[test]
    fn a_team_wins_together() {
        let mut d = three();
        for (s, t) in d.seats.iter_mut().zip([0, 1, 1]) {
            s.team = Some(t);
        }
        d.winner = Some(1);
        assert_eq!(d.validate(), Ok(()));
        assert_eq!((d.won(0), d.won(1)), (Some(false), Some(true)));
    }
}
