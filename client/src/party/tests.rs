//! Free-for-all practice without a window: the setup's header, targeting keys, and whole matches
//! of bots that end the same way from the same seed.

use sevenbag_bot::Level;
use sevenbag_core::{Battle, Handling, Input, Phase, Seat, Targeting};

use super::PartySetup;
use super::game::{Figures, PartyGame, YOU};
use crate::opponent::{AutoPlayer, Planning, SeatView, Stacker};

fn setup(bots: u8, targeting: Targeting, teams: u8) -> PartySetup {
    PartySetup {
        bots,
        level: Level::Medium,
        targeting,
        teams,
        badges: true,
        first_to: 1,
    }
}

#[test]
fn every_setup_makes_a_valid_match() {
    for bots in 1..=7 {
        for teams in 0..=4 {
            for targeting in Targeting::ALL {
                let header = setup(bots, targeting, teams).header(7, Handling::default());
                assert_eq!(header.validate(), Ok(()), "{bots} bots, {teams} teams");
                assert!(Battle::<8>::new(header).is_ok());
            }
        }
    }
}

#[test]
fn teams_are_dealt_in_turn_and_never_outnumber_the_seats() {
    let header = setup(5, Targeting::Even, 3).header(1, Handling::default());
    assert_eq!(
        header.options.teams.map(|t| t[..6].to_vec()),
        Some(vec![0, 1, 2, 0, 1, 2])
    );
    assert_eq!(
        setup(1, Targeting::Even, 2).teams_played(),
        None,
        "two seats: versus"
    );
    assert_eq!(
        setup(2, Targeting::Even, 4).teams_played(),
        None,
        "three seats, four teams"
    );
    assert_eq!(setup(3, Targeting::Even, 2).teams_played(), Some(2));
}

#[test]
fn the_bots_move_at_the_bot_handling_and_you_at_yours() {
    let yours = Handling {
        das: 12,
        ..Handling::default()
    };
    let header = setup(3, Targeting::Even, 0).header(1, yours);
    assert_eq!(header.handling[0], yours);
    assert!(
        header.handling[1..4]
            .iter()
            .all(|h| *h == sevenbag_bot::BOT_HANDLING)
    );
    assert!(
        header.handling[4..]
            .iter()
            .all(|h| *h == Handling::default())
    );
}

#[test]
fn tab_cycles_the_target_through_the_live_opponents_and_skips_teammates() {
    let mut game = PartyGame::with_planning(
        &setup(5, Targeting::Manual, 2),
        3,
        Handling::default(),
        Planning::Inline,
    )
    .expect("valid");
    // Teams 0,1,0,1,0,1: your opponents are seats 1, 3 and 5.
    let mut seen = Vec::new();
    for _ in 0..4 {
        game.cycle_target(1);
        seen.push(game.target().map(Seat::index));
    }
    assert_eq!(seen, [Some(1), Some(3), Some(5), Some(1)]);
    game.cycle_target(-1);
    assert_eq!(game.target().map(Seat::index), Some(5));
    assert!(
        !game.choose_target(Seat::new(2).expect("seat")),
        "a teammate"
    );
    assert!(game.choose_target(Seat::new(3).expect("seat")));
}

#[test]
fn your_target_reaches_the_core_as_the_seats_input() {
    let mut game = PartyGame::with_planning(
        &setup(3, Targeting::Manual, 0),
        3,
        Handling::default(),
        Planning::Inline,
    )
    .expect("valid");
    let third = Seat::new(2).expect("seat");
    assert!(game.choose_target(third));
    game.step(Input::NONE);
    assert_eq!(game.battle().target(YOU), Some(third));
    assert_eq!(
        game.battle().targets_of(YOU).iter().collect::<Vec<_>>(),
        [third]
    );
}

#[test]
fn under_manual_targeting_the_bots_aim_by_the_bots_rule() {
    let mut game = PartyGame::with_planning(
        &setup(4, Targeting::Manual, 0),
        5,
        Handling::default(),
        Planning::Inline,
    )
    .expect("valid");
    for _ in 0..600 {
        let before = *game.battle();
        game.step(Input::NONE);
        for seat in Seat::all(game.seats()).skip(1) {
            if game.battle().alive().contains(seat) {
                let aimed = sevenbag_bot::manual_target(&before, seat);
                assert_eq!(game.battle().target(seat), aimed, "{seat:?}");
            }
        }
    }
    let aimed: Vec<_> = Seat::all(game.seats())
        .skip(1)
        .map(|s| game.battle().target(s))
        .collect();
    assert!(aimed.iter().all(Option::is_some), "{aimed:?}");
}

#[test]
fn under_other_rules_the_bots_send_no_target() {
    let mut game = PartyGame::with_planning(
        &setup(3, Targeting::Even, 0),
        5,
        Handling::default(),
        Planning::Inline,
    )
    .expect("valid");
    for _ in 0..100 {
        game.step(Input::NONE);
    }
    for seat in Seat::all(game.seats()).skip(1) {
        assert_eq!(game.battle().target(seat), None);
    }
}

/// How a match played out: the results table, the rounds each team won, the final state hash.
#[derive(Debug, PartialEq)]
struct Outcome {
    results: Vec<(Seat, Figures)>,
    wins: Vec<u8>,
    hash: u64,
}

/// Plays a whole match of `setup` on `seed`, your seat played by a random stacker.
fn play_out(setup: &PartySetup, seed: u64) -> Outcome {
    let mut game =
        PartyGame::with_planning(setup, seed, sevenbag_bot::BOT_HANDLING, Planning::Inline)
            .expect("valid");
    let mut you = Stacker::new(seed, 3);
    for _ in 0..60 * 60 * 10 {
        let b = game.battle();
        if matches!(b.phase(), Phase::MatchOver { .. }) {
            return Outcome {
                results: game.results(),
                wins: b.wins().to_vec(),
                hash: b.state_hash(),
            };
        }
        let keys = you.next_for(SeatView::of_battle(b, YOU));
        game.step(keys);
    }
    panic!("the match did not end within ten minutes of play");
}

#[test]
fn a_free_for_all_of_bots_ends_the_same_way_from_the_same_seed() {
    let s = PartySetup {
        level: Level::Easy,
        ..setup(3, Targeting::Even, 0)
    };
    let outcome = play_out(&s, 11);
    let results = &outcome.results;
    assert_eq!(results.len(), 4);
    let mut places: Vec<u8> = results.iter().filter_map(|(_, f)| f.place).collect();
    places.sort_unstable();
    assert_eq!(
        places,
        [1, 2, 3, 4],
        "every seat is placed once: {results:?}"
    );
    let kos: u32 = results.iter().map(|(_, f)| f.kos).sum();
    assert!(kos <= 3, "{results:?}");
    assert!(results.iter().any(|(_, f)| f.sent > 0), "{results:?}");
    assert_eq!(play_out(&s, 11), outcome, "same seed, same match");
}

#[test]
fn eight_seats_in_two_teams_with_random_targeting_play_to_the_same_result() {
    let s = PartySetup {
        level: Level::Easy,
        badges: true,
        ..setup(7, Targeting::Random, 2)
    };
    let outcome = play_out(&s, 5);
    let results = &outcome.results;
    assert_eq!(results.len(), 8);
    let winners: Vec<usize> = results
        .iter()
        .filter(|(_, f)| f.place == Some(1))
        .map(|(s, _)| s.index() % 2)
        .collect();
    assert!(!winners.is_empty(), "{results:?}");
    assert!(
        winners.iter().all(|&t| t == winners[0]),
        "one team wins: {results:?}"
    );
    assert_eq!(play_out(&s, 5), outcome);
}

#[test]
fn a_match_of_two_rounds_adds_up_the_figures_of_both() {
    let s = PartySetup {
        level: Level::Easy,
        first_to: 2,
        ..setup(2, Targeting::Divide, 0)
    };
    let outcome = play_out(&s, 21);
    assert_eq!(outcome.wins.iter().copied().max(), Some(2), "{outcome:?}");
    let rounds: u8 = outcome.wins.iter().sum();
    let kos: u32 = outcome.results.iter().map(|(_, f)| f.kos).sum();
    // At most two knock-outs are credited a round (three seats).
    assert!(kos <= 2 * u32::from(rounds), "{outcome:?}");
    assert!(
        outcome.results.iter().all(|(_, f)| f.place.is_some()),
        "{outcome:?}"
    );
}

#[test]
fn a_match_continued_from_a_replays_frame_starts_where_it_stood_and_plays_on() {
    let setup = PartySetup::default();
    let mut watched = PartyGame::with_planning(
        &setup,
        7,
        sevenbag_core::Handling::default(),
        crate::opponent::Planning::Inline,
    )
    .expect("a valid setup");
    for _ in 0..400 {
        watched.step(sevenbag_core::Input::NONE);
    }
    let at = *watched.battle();
    let mut continued = PartyGame::from_battle(at, setup.level);
    assert_eq!(continued.battle().frame(), at.frame());
    assert_eq!(continued.battle().state_hash(), at.state_hash());
    assert_eq!(continued.seats(), at.seats());
    continued.step(sevenbag_core::Input::NONE);
    assert_eq!(continued.battle().frame().0, at.frame().0 + 1);
}
