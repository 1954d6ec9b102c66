//! Ranked play: Glicko-2 updates, deviation decay for inactive players, and the queue that
//! pairs players by rating with a window that widens while they wait.
//!
//! Why `skillratings`: a maintained crate with Glicko-2 as in Glickman's paper (checked against
//! the paper's worked example in this module's tests), so the maths is not ours to get wrong.
//!
//! # Rules
//! - A ranked match is one game of first-to-N rounds (`--ranked-first-to`, default 3); its result
//!   is one Glicko-2 game for each player.
//! - Deviation grows for inactivity: one Glicko-2 idle rating period per full week since the
//!   player's last ranked match, capped at 350.
//! - Pairing: a player accepts opponents within `WINDOW_START` rating points, widening by
//!   `WINDOW_GROWTH` per second of waiting, and anyone after `WINDOW_ANY`. A pair forms when
//!   each is inside the other's window; the closest such opponent wins.
//! - Void (no rating change): a desync the server detected, a server shutdown, or a match that
//!   ended while a seat was still inside its reconnect window (the dropped player did not lose
//!   by running out of time, and the one who stayed did not lose to a vanished opponent).

use std::time::Duration;

use sevenbag_protocol::Profile;
use sevenbag_storage::{Player, Rating};
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, decay_deviation, glicko2};

/// Seconds of inactivity per deviation-decay period.
pub(crate) const DECAY_PERIOD_SECS: u64 = 7 * 24 * 3600;
/// Rating difference accepted at once.
pub(crate) const WINDOW_START: f64 = 100.0;
/// Rating points added to the window per second waited.
pub(crate) const WINDOW_GROWTH: f64 = 20.0;
/// After this long anyone is accepted.
pub(crate) const WINDOW_ANY: Duration = Duration::from_secs(60);

fn to_glicko(r: Rating) -> Glicko2Rating {
    Glicko2Rating {
        rating: r.rating,
        deviation: r.deviation,
        volatility: r.volatility,
    }
}

fn from_glicko(r: Glicko2Rating) -> Rating {
    Rating {
        rating: r.rating,
        deviation: r.deviation,
        volatility: r.volatility,
    }
}

/// `rating` after the inactivity decay due at `now_unix`.
pub(crate) fn decayed(rating: Rating, last_played: Option<u64>, now_unix: u64) -> Rating {
    let Some(last) = last_played else {
        return rating;
    };
    let periods = now_unix.saturating_sub(last) / DECAY_PERIOD_SECS;
    let mut r = to_glicko(rating);
    for _ in 0..periods.min(64) {
        r = decay_deviation(&r);
        if r.deviation >= 350.0 {
            break;
        }
    }
    from_glicko(r)
}

/// Both ratings after a game that `winner` (0 or 1) won.
pub(crate) fn rate(a: Rating, b: Rating, winner: u8) -> (Rating, Rating) {
    let outcome = if winner == 0 {
        Outcomes::WIN
    } else {
        Outcomes::LOSS
    };
    let (a, b) = glicko2(
        &to_glicko(a),
        &to_glicko(b),
        &outcome,
        &Glicko2Config::new(),
    );
    (from_glicko(a), from_glicko(b))
}

/// A player's public profile at `now_unix`.
pub(crate) fn profile(player: &Player, place: Option<u64>, now_unix: u64) -> Profile {
    let r = decayed(player.rating, player.last_played_unix, now_unix);
    Profile {
        name: player.name.clone(),
        rating: r.rating.round().clamp(0.0, f64::from(u32::MAX)) as u32,
        deviation: r.deviation.round().clamp(0.0, 350.0) as u32,
        games: player.games,
        wins: player.wins,
        place: place.map(|p| p.min(u64::from(u32::MAX)) as u32),
    }
}

/// How far from its own rating a player waiting `waited` accepts an opponent.
pub(crate) fn window(waited: Duration) -> f64 {
    if waited >= WINDOW_ANY {
        return f64::INFINITY;
    }
    WINDOW_START + WINDOW_GROWTH * waited.as_secs_f64()
}

/// Who a connection plays as, once identified.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Identity {
    /// The player's row.
    pub(crate) id: sevenbag_storage::PlayerId,
    /// Their rating when they identified or last finished a ranked match (for pairing only).
    pub(crate) rating: f64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use skillratings::glicko2::glicko2_rating_period;

    /// Glickman's worked example ("Example of the Glicko-2 system", glicko2.pdf): a 1500/200
    /// player beats a 1400/30, loses to a 1550/100 and to a 1700/300, tau 0.5, and ends at
    /// 1464.06 / 151.52 / 0.05999.
    #[test]
    fn glicko2_matches_the_papers_worked_example() {
        let player = Glicko2Rating {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let opp = |rating, deviation| Glicko2Rating {
            rating,
            deviation,
            volatility: 0.06,
        };
        let results = [
            (opp(1400.0, 30.0), Outcomes::WIN),
            (opp(1550.0, 100.0), Outcomes::LOSS),
            (opp(1700.0, 300.0), Outcomes::LOSS),
        ];
        let config = Glicko2Config {
            tau: 0.5,
            ..Glicko2Config::new()
        };
        let after = glicko2_rating_period(&player, &results, &config);
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
    }

    #[test]
    fn the_winner_gains_and_the_loser_drops() {
        let (a, b) = rate(Rating::default(), Rating::default(), 0);
        assert!(a.rating > 1500.0 && b.rating < 1500.0);
        assert!(
            (a.rating - 1500.0 - (1500.0 - b.rating)).abs() < 1e-6,
            "symmetric"
        );
        assert!(a.deviation < 350.0 && b.deviation < 350.0);
    }

    #[test]
    fn deviation_grows_only_after_a_week_away() {
        let r = Rating {
            rating: 1800.0,
            deviation: 80.0,
            volatility: 0.06,
        };
        assert_eq!(decayed(r, Some(0), DECAY_PERIOD_SECS - 1), r);
        let later = decayed(r, Some(0), 3 * DECAY_PERIOD_SECS);
        assert!(later.deviation > 80.0 && later.deviation <= 350.0);
        assert_eq!(later.rating, 1800.0);
    }

    #[test]
    fn the_window_widens_with_waiting() {
        assert_eq!(window(Duration::ZERO), WINDOW_START);
        assert!(window(Duration::from_secs(10)) > window(Duration::from_secs(5)));
        assert!(window(WINDOW_ANY).is_infinite());
    }
}
