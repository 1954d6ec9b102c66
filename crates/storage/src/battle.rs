//! Free-for-all and team matches ("battles", 2 to 8 seats) as stored: each seat's place, knock-outs,
//! team and rounds, beside the match's rules and targeting. They sit in the same `matches` and
//! `match_seats` tables as two-seat matches (`kind = 'battle'`), are never ranked and never
//! change a rating; a player's history ([`crate::Storage::recent_history`]) lists both kinds.

use crate::{MatchId, PlayerId, PlayerStats, StoredMatch};

/// One seat of a recorded battle.
#[derive(Clone, Debug, PartialEq)]
pub struct BattleSeat {
    /// The player, if they had an identity (guests have none).
    pub player: Option<PlayerId>,
    /// The name shown in the match.
    pub name: String,
    /// Their place in the last round (1 is the winner; 0: undecided, a match cut short).
    pub placement: u8,
    /// Knock-outs credited to them, summed over the rounds.
    pub kos: u32,
    /// Their team in a team match (`None` when every seat plays for itself).
    pub team: Option<u8>,
    /// Rounds won by their team (by themselves without teams).
    pub rounds_won: u8,
    /// Their stats, summed over the rounds.
    pub stats: PlayerStats,
}

/// A finished free-for-all or team match.
#[derive(Clone, Debug, PartialEq)]
pub struct BattleRecord {
    /// The winning team (the winning seat's index without teams); `None`: no winner (a
    /// shutdown, an abandoned room).
    pub winner: Option<u8>,
    /// Why it ended (`top_out`, `shutdown`...).
    pub reason: String,
    /// The rules and battle options (targeting, badges, teams), as JSON.
    pub rules: String,
    /// The targeting rule's name (`even`, `kos`, `manual`...), for listings.
    pub targeting: String,
    /// Frames played.
    pub duration_frames: u32,
    /// Replay id in the replay directory, if written.
    pub replay: Option<String>,
    /// Unix seconds at the start.
    pub started_unix: u64,
    /// Unix seconds at the end.
    pub ended_unix: u64,
    /// Every seat, in battle seat order (2 to 8).
    pub seats: Vec<BattleSeat>,
}

impl BattleRecord {
    /// The seat of `player`, if they played.
    pub fn seat_of(&self, player: PlayerId) -> Option<usize> {
        self.seats.iter().position(|s| s.player == Some(player))
    }

    /// Whether the seat at `seat` won (its team did); `None` when nobody won.
    pub fn won(&self, seat: usize) -> Option<bool> {
        let winner = self.winner?;
        let s = self.seats.get(seat)?;
        Some(s.team.unwrap_or(seat as u8) == winner)
    }
}

/// A stored battle and its id (ids are shared with two-seat matches).
#[derive(Clone, Debug, PartialEq)]
pub struct StoredBattle {
    /// Its id.
    pub id: MatchId,
    /// What was recorded.
    pub record: BattleRecord,
}

/// One row of a player's history: a two-seat match or a battle.
#[derive(Clone, Debug, PartialEq)]
pub enum HistoryEntry {
    /// A two-seat match (ranked or not), boxed: it is twice a battle's size.
    Versus(Box<StoredMatch>),
    /// A free-for-all or team match.
    Battle(StoredBattle),
}

impl HistoryEntry {
    /// The match id.
    pub fn id(&self) -> MatchId {
        match self {
            HistoryEntry::Versus(m) => m.id,
            HistoryEntry::Battle(b) => b.id,
        }
    }
}

/// "1st", "2nd", "3rd", "4th"... of a place.
pub fn ordinal(place: u8) -> String {
    let suffix = match (place % 10, place % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{place}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinals_read_as_english() {
        let got: Vec<String> = [1, 2, 3, 4, 8, 11, 12, 13, 21].map(ordinal).to_vec();
        assert_eq!(
            got,
            [
                "1st", "2nd", "3rd", "4th", "8th", "11th", "12th", "13th", "21st"
            ]
        );
    }

    #[test]
    fn a_team_wins_together() {
        let seat = |team| BattleSeat {
            player: None,
            name: "x".into(),
            placement: 1,
            kos: 0,
            team,
            rounds_won: 0,
            stats: PlayerStats::default(),
        };
        let mut r = BattleRecord {
            winner: Some(1),
            reason: "top_out".into(),
            rules: "{}".into(),
            targeting: "even".into(),
            duration_frames: 0,
            replay: None,
            started_unix: 0,
            ended_unix: 0,
            seats: vec![seat(Some(0)), seat(Some(1)), seat(Some(1))],
        };
        assert_eq!(
            (r.won(0), r.won(1), r.won(2)),
            (Some(false), Some(true), Some(true))
        );
        r.seats.iter_mut().for_each(|s| s.team = None);
        assert_eq!((r.won(0), r.won(1)), (Some(false), Some(true)));
        r.winner = None;
        assert_eq!(r.won(1), None);
    }
}
