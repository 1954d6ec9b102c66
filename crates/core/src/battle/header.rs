//! What a match of 2 to 8 seats is built from: rules, seed, every seat's handling, and the
//! room's options for targeting, badges and teams (SPEC §10).

use serde::{Deserialize, Serialize};

use crate::attack::AttackScale;
use crate::rules::{Handling, HeaderError, MatchHeader, Rules};
use crate::seat::{MAX_SEATS, MAX_TEAMS, Seat, SeatSet, Team};

/// How a seat's attack picks its receivers among the alive seats of other teams (SPEC §10).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Targeting {
    /// Each attack whole to the next opponent in turn after the one last attacked.
    #[default]
    Even,
    /// Each attack whole to the opponent that has received the fewest lines this round.
    Least,
    /// Each attack split evenly among all opponents.
    Divide,
    /// Each attack split among the opponents whose garbage waits on the sender's board.
    Attackers,
    /// Each attack whole to the opponent with the most knock-outs.
    Kos,
    /// Each attack whole to an opponent drawn from the sender's own ChaCha stream.
    Random,
    /// Each attack whole to the target the sender chose (an input).
    Manual,
}

impl Targeting {
    /// Every rule, for listings.
    pub const ALL: [Targeting; 7] = [
        Targeting::Even,
        Targeting::Least,
        Targeting::Divide,
        Targeting::Attackers,
        Targeting::Kos,
        Targeting::Random,
        Targeting::Manual,
    ];

    /// The rule's name as typed by users.
    pub const fn name(self) -> &'static str {
        match self {
            Targeting::Even => "even",
            Targeting::Least => "least",
            Targeting::Divide => "divide",
            Targeting::Attackers => "attackers",
            Targeting::Kos => "kos",
            Targeting::Random => "random",
            Targeting::Manual => "manual",
        }
    }

    /// The rule called `name`.
    pub fn from_name(name: &str) -> Option<Targeting> {
        Self::ALL.into_iter().find(|t| t.name() == name)
    }
}

/// The room options of a match of more than two seats. The defaults make a two-seat match the
/// versus match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BattleOptions {
    /// How attacks pick their receivers.
    pub targeting: Targeting,
    /// Badges: knock-outs earn badge points that multiply attack (SPEC §10).
    pub badges: bool,
    /// The team of each seat (2 to 4 teams, numbered by first seat: seat 0 plays for team 0,
    /// each new team takes the next number; entries past the seat count are 0). `None`:
    /// every seat plays for itself.
    pub teams: Option<[u8; MAX_SEATS]>,
    /// Attack × (largest team size ÷ own team size), rounded down.
    pub team_boost: bool,
}

/// Everything every simulator of a match of 2 to 8 seats must agree on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BattleHeader {
    /// The room's rules.
    pub rules: Rules,
    /// The match seed; every random stream derives from it.
    pub seed: u64,
    /// How many seats play, 2 to [`MAX_SEATS`].
    pub seats: u8,
    /// Each seat's handling; entries past `seats` are the default.
    pub handling: [Handling; MAX_SEATS],
    /// Targeting, badges and teams.
    pub options: BattleOptions,
}

impl BattleHeader {
    /// `seats` seats with versus rules, default handling and default options.
    pub fn new(seed: u64, seats: u8) -> BattleHeader {
        BattleHeader {
            rules: Rules::versus(),
            seed,
            seats,
            handling: [Handling::default(); MAX_SEATS],
            options: BattleOptions::default(),
        }
    }

    /// The two-seat match of a versus header.
    pub fn versus(header: &MatchHeader) -> BattleHeader {
        let mut handling = [Handling::default(); MAX_SEATS];
        handling[..2].copy_from_slice(&header.handling);
        BattleHeader {
            rules: header.rules,
            seed: header.seed,
            seats: 2,
            handling,
            options: BattleOptions::default(),
        }
    }

    /// Checks the rules, every seat's handling, the seat count and the teams.
    pub fn validate(&self) -> Result<(), BattleError> {
        Lineup::new(self, MAX_SEATS)?;
        self.rules.validate().map_err(HeaderError::from)?;
        for h in &self.handling[..usize::from(self.seats)] {
            h.validate().map_err(HeaderError::from)?;
        }
        Ok(())
    }
}

/// Why a match header was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BattleError {
    /// Fewer than 2 seats, or more than the match holds.
    #[error("{seats} seats: a match has 2 to {capacity}")]
    Seats {
        /// Seats asked for.
        seats: u8,
        /// The most this match type holds.
        capacity: usize,
    },
    /// Handling past the seat count that is not the default.
    #[error("handling is given for seat {0}, past the seat count")]
    StrayHandling(usize),
    /// The team list is not 2 to 4 teams numbered by first seat.
    #[error("teams {0:?}: 2 to 4 teams, numbered 0, 1, … in order of their first seat")]
    Teams([u8; MAX_SEATS]),
    /// A rules or handling value is out of range.
    #[error(transparent)]
    Header(#[from] HeaderError),
}

/// Who plays with whom, derived once from the header: each seat's team, the team sizes and the
/// attack scale the team boost gives each seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Lineup {
    pub(crate) seats: u8,
    pub(crate) teams: u8,
    team_of: [u8; MAX_SEATS],
    boost: [AttackScale; MAX_SEATS],
}

impl Lineup {
    /// Checks the seat count against `capacity` and the teams, and derives the line-up.
    pub(crate) fn new(header: &BattleHeader, capacity: usize) -> Result<Lineup, BattleError> {
        let n = usize::from(header.seats);
        if !(2..=capacity.min(MAX_SEATS)).contains(&n) {
            return Err(BattleError::Seats {
                seats: header.seats,
                capacity: capacity.min(MAX_SEATS),
            });
        }
        if let Some(i) = (n..MAX_SEATS).find(|&i| header.handling[i] != Handling::default()) {
            return Err(BattleError::StrayHandling(i));
        }
        let mut team_of = [0u8; MAX_SEATS];
        let teams = match header.options.teams {
            None => {
                for (i, t) in team_of.iter_mut().enumerate().take(n) {
                    *t = i as u8;
                }
                n as u8
            }
            Some(list) => {
                let mut next = 0u8;
                for (i, &t) in list.iter().enumerate() {
                    let fits = if i < n { t <= next } else { t == 0 };
                    if !fits || usize::from(t) >= MAX_TEAMS {
                        return Err(BattleError::Teams(list));
                    }
                    if i < n && t == next {
                        next += 1;
                    }
                }
                if next < 2 {
                    return Err(BattleError::Teams(list));
                }
                team_of = list;
                next
            }
        };
        let mut size = [0u16; MAX_SEATS];
        for &t in &team_of[..n] {
            size[usize::from(t)] += 1;
        }
        let largest = size.iter().copied().max().unwrap_or(1);
        let mut boost = [AttackScale::ONE; MAX_SEATS];
        if header.options.team_boost {
            for (b, &t) in boost.iter_mut().zip(&team_of).take(n) {
                *b = AttackScale::new(largest, size[usize::from(t)]).unwrap_or(AttackScale::ONE);
            }
        }
        Ok(Lineup {
            seats: n as u8,
            teams,
            team_of,
            boost,
        })
    }

    /// Two seats, no teams, no boost: the versus line-up.
    pub(crate) fn two_seats() -> Lineup {
        let mut team_of = [0u8; MAX_SEATS];
        team_of[1] = 1;
        Lineup {
            seats: 2,
            teams: 2,
            team_of,
            boost: [AttackScale::ONE; MAX_SEATS],
        }
    }

    /// The team `seat` plays for.
    pub(crate) fn team_of(&self, seat: Seat) -> Team {
        Team::raw(self.team_of[seat.index()])
    }

    /// The seats of `team`.
    pub(crate) fn members(&self, team: Team) -> SeatSet {
        Seat::all(usize::from(self.seats))
            .filter(|&s| self.team_of(s) == team)
            .collect()
    }

    /// The team boost's scale for `seat` (1 without the option).
    pub(crate) fn boost(&self, seat: Seat) -> AttackScale {
        self.boost[seat.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_teams(seats: u8, teams: &[u8]) -> BattleHeader {
        let mut list = [0; MAX_SEATS];
        list[..teams.len()].copy_from_slice(teams);
        let mut h = BattleHeader::new(1, seats);
        h.options.teams = Some(list);
        h
    }

    #[test]
    fn two_to_eight_seats_are_accepted() {
        for seats in 2..=8 {
            assert_eq!(BattleHeader::new(1, seats).validate(), Ok(()));
        }
        for seats in [0, 1, 9] {
            assert!(BattleHeader::new(1, seats).validate().is_err(), "{seats}");
        }
    }

    #[test]
    fn teams_are_numbered_by_their_first_seat() {
        assert_eq!(with_teams(4, &[0, 1, 0, 1]).validate(), Ok(()));
        assert_eq!(with_teams(8, &[0, 1, 2, 3, 3, 2, 1, 0]).validate(), Ok(()));
        assert!(with_teams(4, &[1, 0, 1, 0]).validate().is_err());
        assert!(with_teams(4, &[0, 2, 1, 1]).validate().is_err());
    }

    #[test]
    fn a_team_match_has_2_to_4_teams() {
        assert!(with_teams(4, &[0, 0, 0, 0]).validate().is_err());
        assert!(with_teams(5, &[0, 1, 2, 3, 4]).validate().is_err());
        assert!(
            with_teams(3, &[0, 1, 0, 1]).validate().is_err(),
            "a stray entry"
        );
    }

    #[test]
    fn the_team_boost_scales_smaller_teams_up() {
        let mut h = with_teams(5, &[0, 0, 0, 1, 1]);
        h.options.team_boost = true;
        let lineup = Lineup::new(&h, MAX_SEATS).expect("valid");
        let seat = |i| Seat::new(i).expect("seat");
        assert_eq!(lineup.boost(seat(0)).apply(4), 4);
        assert_eq!(lineup.boost(seat(3)).apply(4), 6);
        assert_eq!(lineup.members(lineup.team_of(seat(4))).len(), 2);
    }
}
