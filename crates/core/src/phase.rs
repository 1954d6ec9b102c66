//! Where a match stands in time: frame numbers and the phases of a match's rounds.

use serde::{Deserialize, Serialize};

use crate::seat::Seat;

/// A frame number of a match (60 per second, from 0).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub struct Frame(pub u32);

/// Where a match stands. `W` is who wins a round: a [`Seat`] in the two-seat
/// [`crate::Match`], a [`crate::Team`] in a [`crate::Battle`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Phase<W = Seat> {
    /// "3, 2, 1": play begins at frame `go_at`.
    Countdown {
        /// The first frame of play.
        go_at: u32,
    },
    /// The boards are live.
    Playing,
    /// A round just ended; the next countdown starts at `next_at`.
    RoundOver {
        /// Who won the round (`None` for a drawn two-seat round).
        winner: Option<W>,
        /// Frame the next round's countdown starts.
        next_at: u32,
    },
    /// The match is decided.
    MatchOver {
        /// The match winner.
        winner: W,
    },
}

impl<W> Phase<W> {
    /// The same phase with its winner mapped by `f`.
    pub fn map<V>(self, f: impl Fn(W) -> V) -> Phase<V> {
        match self {
            Phase::Countdown { go_at } => Phase::Countdown { go_at },
            Phase::Playing => Phase::Playing,
            Phase::RoundOver { winner, next_at } => Phase::RoundOver {
                winner: winner.map(f),
                next_at,
            },
            Phase::MatchOver { winner } => Phase::MatchOver { winner: f(winner) },
        }
    }
}
