//! Which board a spectator of a room sees large: the seat leading by VS (the default, as a
//! viewer of a crowded room wants the one to watch), or a seat picked by hand. The lead
//! changes hands only once a seat has been ahead for [`SETTLE_FRAMES`], so the large board
//! does not flick between two close players; a seat that tops out is left at once.

use sevenbag_core::{Battle, Seat};

/// Frames a seat must lead by VS before the large board follows it (two seconds).
pub const SETTLE_FRAMES: u32 = 120;

/// What the spectator follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Watch {
    /// The seat leading by VS, with a challenger ahead since a frame.
    Leader {
        /// The seat shown.
        shown: Seat,
        /// A seat ahead of it, and the battle frame it went ahead at.
        ahead: Option<(Seat, u32)>,
    },
    /// This seat, whatever happens.
    Picked(Seat),
}

impl Default for Watch {
    fn default() -> Watch {
        Watch::Leader {
            shown: Seat::First,
            ahead: None,
        }
    }
}

impl Watch {
    /// The seat drawn large.
    pub fn shown(self) -> Seat {
        match self {
            Watch::Leader { shown, .. } | Watch::Picked(shown) => shown,
        }
    }

    /// Whether the leader is followed (not a seat picked by hand).
    pub fn follows_leader(self) -> bool {
        matches!(self, Watch::Leader { .. })
    }

    /// Follows the leader again, from the seat shown now.
    pub fn follow_leader(&mut self) {
        *self = Watch::Leader {
            shown: self.shown(),
            ahead: None,
        };
    }

    /// Picks the seat `step` places on from the one shown (wrapping over `seats`).
    pub fn pick_next(&mut self, seats: usize, step: i32) {
        let seats = seats.max(1) as i32;
        let at = (self.shown().index() as i32 + step).rem_euclid(seats) as usize;
        *self = Watch::Picked(Seat::new(at).unwrap_or(Seat::First));
    }

    /// Follows `battle` one frame: the leader by VS among the seats still in the round.
    pub fn update(&mut self, battle: &Battle) {
        let alive: Vec<(Seat, u32)> = battle
            .alive()
            .iter()
            .map(|s| (s, battle.player(s).stats().vs_x100()))
            .collect();
        self.step(battle.frame().0, &alive);
    }

    /// One frame at battle frame `frame`, with `alive` the seats still in the round and
    /// their VS (×100) this round.
    pub fn step(&mut self, frame: u32, alive: &[(Seat, u32)]) {
        let Watch::Leader { shown, ahead } = self else {
            return;
        };
        let Some(best) = leader(alive) else {
            return;
        };
        if best == *shown {
            *ahead = None;
        } else if !alive.iter().any(|&(s, _)| s == *shown) {
            // The followed player is out: show the leader at once.
            *shown = best;
            *ahead = None;
        } else {
            match *ahead {
                Some((seat, since)) if seat == best => {
                    if frame.saturating_sub(since) >= SETTLE_FRAMES {
                        *shown = best;
                        *ahead = None;
                    }
                }
                _ => *ahead = Some((best, frame)),
            }
        }
    }
}

/// The seat of `alive` with the highest VS (the lowest seat among equals), or `None` when
/// every seat is out.
pub fn leader(alive: &[(Seat, u32)]) -> Option<Seat> {
    alive
        .iter()
        .max_by_key(|&&(s, vs)| (vs, std::cmp::Reverse(s.index())))
        .map(|&(s, _)| s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat(i: usize) -> Seat {
        Seat::new(i).expect("a seat")
    }

    /// Steps `watch` over `frames` frames from `from` with the same standings.
    fn hold(watch: &mut Watch, from: u32, frames: u32, alive: &[(Seat, u32)]) {
        for f in from..from + frames {
            watch.step(f, alive);
        }
    }

    #[test]
    fn a_spectator_follows_the_leader_by_vs_from_the_start() {
        let mut w = Watch::default();
        hold(&mut w, 0, 1, &[(seat(0), 10), (seat(1), 50), (seat(2), 30)]);
        assert_eq!(w.shown(), seat(0), "a new leader waits its turn");
        hold(
            &mut w,
            1,
            SETTLE_FRAMES,
            &[(seat(0), 10), (seat(1), 50), (seat(2), 30)],
        );
        assert_eq!(w.shown(), seat(1));
        assert!(w.follows_leader());
    }

    #[test]
    fn a_lead_that_changes_hands_back_and_forth_keeps_the_board_still() {
        let mut w = Watch::Leader {
            shown: seat(0),
            ahead: None,
        };
        for k in 0..10 {
            let f = k * (SETTLE_FRAMES / 2);
            let (a, b) = if k % 2 == 0 { (40, 41) } else { (41, 40) };
            hold(&mut w, f, SETTLE_FRAMES / 2, &[(seat(0), a), (seat(1), b)]);
        }
        assert_eq!(w.shown(), seat(0));
    }

    #[test]
    fn a_followed_player_who_tops_out_is_left_at_once() {
        let mut w = Watch::Leader {
            shown: seat(2),
            ahead: None,
        };
        w.step(500, &[(seat(0), 10), (seat(1), 20)]);
        assert_eq!(w.shown(), seat(1));
    }

    #[test]
    fn equal_vs_goes_to_the_lower_seat() {
        assert_eq!(leader(&[(seat(3), 70), (seat(1), 70)]), Some(seat(1)));
        assert_eq!(leader(&[]), None);
    }

    #[test]
    fn a_picked_board_stays_until_the_leader_is_followed_again() {
        let mut w = Watch::default();
        w.pick_next(4, -1);
        assert_eq!(w, Watch::Picked(seat(3)));
        hold(&mut w, 0, 3 * SETTLE_FRAMES, &[(seat(0), 90), (seat(3), 1)]);
        assert_eq!(w.shown(), seat(3));
        w.follow_leader();
        hold(&mut w, 0, SETTLE_FRAMES + 1, &[(seat(0), 90), (seat(3), 1)]);
        assert_eq!(w.shown(), seat(0));
    }
}
