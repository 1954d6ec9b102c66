//! A player's statistics as the game's profile shows them (`GetPlayerStats` → `PlayerStats`):
//! the averages over their latest matches and the runs that raised each solo best. The same
//! figures as the server's `GET /api/players/NAME/stats`, in whole numbers (rates in
//! hundredths), so the wire carries no floats.

use serde::{Deserialize, Deserializer, Serialize};

/// Most matches `GetPlayerStats` averages over (`last`).
pub const MAX_STATS_LAST: u32 = 200;
/// Most runs of one solo board's progression a `PlayerStats` lists (the latest ones).
pub const MAX_PROGRESSION_RUNS: usize = 100;

/// A player's statistics (answer to `GetPlayerStats`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PlayerStats {
    /// The player's current name.
    pub name: String,
    /// How many of the latest matches were asked for.
    pub last: u32,
    /// Means over those matches.
    pub averages: MatchAverages,
    /// The 40-line Sprint runs that beat the player's best before them, oldest first.
    #[serde(deserialize_with = "at_most_runs")]
    pub sprint: Vec<ProgressRun>,
    /// The same for the 2-minute Blitz.
    #[serde(deserialize_with = "at_most_runs")]
    pub blitz: Vec<ProgressRun>,
}

/// Means over a player's latest matches of every kind, each match weighed alike; every mean is
/// in hundredths and 0 when `matches` is 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MatchAverages {
    /// Matches counted (at most the `last` asked).
    pub matches: u32,
    /// Matches among them the player (or their team) won.
    pub wins: u32,
    /// Pieces per second.
    pub pps_x100: u32,
    /// Attack per minute.
    pub apm_x100: u32,
    /// Versus score.
    pub vs_x100: u32,
    /// Lines of attack produced per match.
    pub attack_x100: u32,
    /// Pieces locked per match.
    pub pieces_x100: u32,
}

/// One verified solo run of a personal-best progression.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ProgressRun {
    /// Frames from "GO" to the end (a Sprint's time).
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

impl MatchAverages {
    /// The means of `sums` over `matches`, in hundredths, rounded half up; `rates_x100` are
    /// already in hundredths (pps, apm, vs), `attack` and `pieces` whole.
    pub fn from_sums(
        matches: u32,
        wins: u32,
        rates_x100: [u64; 3],
        attack: u64,
        pieces: u64,
    ) -> Self {
        let mean = |sum_x100: u64| -> u32 {
            if matches == 0 {
                return 0;
            }
            let n = u64::from(matches);
            u32::try_from((sum_x100 + n / 2) / n).unwrap_or(u32::MAX)
        };
        MatchAverages {
            matches,
            wins,
            pps_x100: mean(rates_x100[0]),
            apm_x100: mean(rates_x100[1]),
            vs_x100: mean(rates_x100[2]),
            attack_x100: mean(attack.saturating_mul(100)),
            pieces_x100: mean(pieces.saturating_mul(100)),
        }
    }
}

/// Decodes a progression of at most [`MAX_PROGRESSION_RUNS`] runs.
fn at_most_runs<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<ProgressRun>, D::Error> {
    let runs = Vec::<ProgressRun>::deserialize(d)?;
    if runs.len() > MAX_PROGRESSION_RUNS {
        return Err(serde::de::Error::invalid_length(
            runs.len(),
            &"at most 100 runs of a progression",
        ));
    }
    Ok(runs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn averages_are_means_per_match_in_hundredths_rounded() {
        // Three matches: pps 1.50 + 2.00 + 1.01, 10 + 11 + 12 attack, 100 + 90 + 81 pieces.
        let a = MatchAverages::from_sums(3, 2, [451, 9000, 10000], 33, 271);
        assert_eq!(a.pps_x100, 150);
        assert_eq!(a.apm_x100, 3000);
        assert_eq!(a.vs_x100, 3333);
        assert_eq!(a.attack_x100, 1100);
        assert_eq!(a.pieces_x100, 9033);
        assert_eq!((a.matches, a.wins), (3, 2));
    }

    #[test]
    fn no_matches_average_to_zero() {
        assert_eq!(
            MatchAverages::from_sums(0, 0, [0; 3], 0, 0),
            MatchAverages::default()
        );
    }
}
