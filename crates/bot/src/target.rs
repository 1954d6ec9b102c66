//! Whom a bot attacks when the room's targeting rule is `manual` (the player chooses): a
//! simple, deterministic rule read off the match, so every client computes the same choice.
//!
//! 1. Hit back: if live opponents have garbage waiting on our board, the candidates are them;
//!    otherwise every live opponent (teammates never are).
//! 2. Among the candidates, the highest stack: the nearest knock-out (knock-outs end the round
//!    sooner and, with badges, raise our attack).
//! 3. Equal stacks go to the lowest seat.
//!
//! Under the other rules the core picks the receivers and ignores any target sent.

use sevenbag_core::{Battle, Seat};

/// The seat `me` should target under the `manual` rule, `None` when no opponent is left.
pub fn manual_target(battle: &Battle, me: Seat) -> Option<Seat> {
    let live = battle.alive().without(battle.members(battle.team_of(me)));
    let attackers = battle.attackers_of(me).and(live);
    let candidates = if attackers.is_empty() {
        live
    } else {
        attackers
    };
    // `max_by_key` keeps the last of equals: walk the seats from the highest down.
    candidates
        .iter()
        .rev()
        .max_by_key(|&s| battle.player(s).board().stack_height())
}

#[cfg(test)]
mod tests {
    use super::*;
    use sevenbag_core::{BattleHeader, Input, SeatInput};

    fn battle(seats: u8) -> Battle {
        Battle::new(BattleHeader::new(7, seats)).expect("valid")
    }

    /// Plays `frames` frames with `keys` for each seat.
    fn play(b: &mut Battle, frames: u32, keys: impl Fn(usize, u32) -> Input) {
        for f in 0..frames {
            let mut inputs = [SeatInput::NONE; sevenbag_core::MAX_SEATS];
            for (i, input) in inputs.iter_mut().enumerate().take(b.seats()) {
                input.keys = keys(i, f);
            }
            b.step(&inputs);
        }
    }

    #[test]
    fn with_level_boards_the_lowest_other_seat_is_chosen() {
        let b = battle(4);
        assert_eq!(manual_target(&b, Seat::First), Seat::new(1));
        assert_eq!(manual_target(&b, Seat::new(1).unwrap()), Seat::new(0));
    }

    #[test]
    fn the_highest_stack_is_chosen() {
        let mut b = battle(4);
        // Seat 2 hard drops often, the others never: its stack is the highest.
        play(&mut b, 400, |i, f| {
            if i == 2 && f % 30 == 0 {
                Input::HARD_DROP
            } else {
                Input::NONE
            }
        });
        assert!(b.alive().contains(Seat::new(2).unwrap()), "still in");
        assert!(b.player(Seat::new(2).unwrap()).board().stack_height() > 0);
        assert_eq!(manual_target(&b, Seat::First), Seat::new(2));
        assert_eq!(manual_target(&b, Seat::new(3).unwrap()), Seat::new(2));
    }

    #[test]
    fn the_same_match_gives_the_same_choice() {
        let mut a = battle(8);
        let mut b = battle(8);
        let keys = |i: usize, f: u32| {
            if (f + i as u32 * 3).is_multiple_of(7) {
                Input::HARD_DROP
            } else {
                Input::NONE
            }
        };
        play(&mut a, 300, keys);
        play(&mut b, 300, keys);
        for s in Seat::all(8) {
            assert_eq!(manual_target(&a, s), manual_target(&b, s));
            assert_ne!(manual_target(&a, s), Some(s), "never itself");
        }
    }
}
