//! Targeting in matches of more than two seats (SPEC §10): where each rule sends an attack.

mod common;

use common::battle::{
    Ffa, ffa, knock_out, perfect_clear, receivers, seat, start, teams, tsd, tsd_at, with_options,
};
use sevenbag_core::{BattleOptions, Targeting};

fn started(seats: u8, targeting: Targeting) -> Ffa {
    let mut b = ffa(seats, targeting);
    start(&mut b);
    b
}

#[test]
fn even_sends_each_attack_whole_to_the_next_seat_in_turn() {
    let mut b = started(4, Targeting::Even);

    let order: Vec<Vec<usize>> = (0..4).map(|_| receivers(tsd(&mut b, seat(0)))).collect();

    assert_eq!(order, [vec![1], vec![2], vec![3], vec![1]]);
}

#[test]
fn even_starts_after_the_sender() {
    let mut b = started(4, Targeting::Even);

    assert_eq!(receivers(tsd(&mut b, seat(2))), [3]);
    assert_eq!(receivers(tsd(&mut b, seat(2))), [0]);
}

#[test]
fn even_skips_seats_that_are_out() {
    let mut b = started(4, Targeting::Even);
    knock_out(&mut b, seat(2), seat(3));

    let order: Vec<Vec<usize>> = (0..3).map(|_| receivers(tsd(&mut b, seat(0)))).collect();

    assert_eq!(order, [vec![1], vec![3], vec![1]]);
}

#[test]
fn least_sends_to_the_seat_that_has_received_the_fewest_lines() {
    let mut b = started(4, Targeting::Least);

    assert_eq!(
        receivers(tsd(&mut b, seat(0))),
        [1],
        "all at 0: first after the sender"
    );
    assert_eq!(
        receivers(tsd(&mut b, seat(2))),
        [3],
        "0 and 3 at 0: 3 comes first after 2"
    );
    assert_eq!(
        receivers(tsd(&mut b, seat(0))),
        [2],
        "1 and 3 have 4 lines each"
    );
    assert_eq!(b.received(seat(1)), 4);
}

#[test]
fn divide_splits_evenly_and_the_remainder_goes_in_seat_order_after_the_sender() {
    let mut b = started(4, Targeting::Divide);

    let sent = tsd(&mut b, seat(2));

    assert_eq!(sent[..4], [1, 1, 0, 2]);
}

#[test]
fn divide_gives_one_line_each_when_there_are_fewer_lines_than_opponents() {
    let mut b = started(8, Targeting::Divide);

    let sent = tsd(&mut b, seat(5));

    assert_eq!(receivers(sent), [0, 1, 6, 7]);
    assert!(sent.iter().all(|&l| l <= 1));
}

#[test]
fn attackers_counters_the_seats_whose_garbage_waits_on_the_sender() {
    let mut b = started(4, Targeting::Attackers);
    let f = b.frame().0;
    b.player_mut(seat(0)).receive_from(1, f, 20, seat(3));

    let sent = tsd(&mut b, seat(0));

    assert_eq!(
        sent[..4],
        [0, 0, 0, 3],
        "4 lines, 1 cancelled, the rest to seat 3"
    );
}

#[test]
fn attackers_splits_among_several_attackers() {
    let mut b = started(5, Targeting::Attackers);
    let f = b.frame().0;
    b.player_mut(seat(1)).receive_from(1, f, 20, seat(0));
    b.player_mut(seat(1)).receive_from(1, f, 20, seat(3));

    let sent = perfect_clear(&mut b, seat(1));

    assert_eq!(sent[..5], [4, 0, 0, 4, 0], "10 lines, 2 cancelled, 8 split");
}

#[test]
fn attackers_with_nobody_attacking_sends_as_even() {
    let mut b = started(4, Targeting::Attackers);

    assert_eq!(receivers(tsd(&mut b, seat(0))), [1]);
    assert_eq!(receivers(tsd(&mut b, seat(0))), [2]);
}

#[test]
fn attackers_that_are_out_no_longer_count() {
    let mut b = started(4, Targeting::Attackers);
    let f = b.frame().0;
    b.player_mut(seat(0)).receive_from(1, f, 20, seat(2));
    knock_out(&mut b, seat(2), seat(3));

    assert_eq!(receivers(tsd(&mut b, seat(0))), [1]);
}

#[test]
fn kos_sends_to_the_seat_with_the_most_knock_outs() {
    let mut b = started(5, Targeting::Kos);
    knock_out(&mut b, seat(4), seat(3));

    assert_eq!(b.kos(seat(3)), 1);
    assert_eq!(receivers(tsd(&mut b, seat(0))), [3]);
}

#[test]
fn kos_ties_go_to_the_seat_that_received_the_fewest_lines() {
    let mut b = started(4, Targeting::Kos);

    assert_eq!(receivers(tsd(&mut b, seat(0))), [1]);
    assert_eq!(receivers(tsd(&mut b, seat(0))), [2]);
}

#[test]
fn random_draws_an_alive_opponent_from_the_senders_own_stream() {
    let mut b = started(8, Targeting::Random);
    knock_out(&mut b, seat(4), seat(0));
    let mut seen = Vec::new();

    for _ in 0..8 {
        let predicted = b.targets_of(seat(0));
        let sent = tsd(&mut b, seat(0));
        let got = receivers(sent);
        assert_eq!(got.len(), 1);
        assert!(predicted.contains(seat(got[0])), "{predicted:?} {got:?}");
        seen.push(got[0]);
    }

    assert!(!seen.contains(&0) && !seen.contains(&4), "{seen:?}");
    seen.sort_unstable();
    seen.dedup();
    assert!(seen.len() >= 3, "spread over several seats: {seen:?}");
}

#[test]
fn random_draws_are_the_same_for_the_same_seed() {
    let draws = || {
        let mut b = started(6, Targeting::Random);
        (0..6)
            .map(|_| receivers(tsd(&mut b, seat(2))))
            .collect::<Vec<_>>()
    };

    assert_eq!(draws(), draws());
}

#[test]
fn manual_sends_to_the_chosen_target() {
    let mut b = started(4, Targeting::Manual);

    assert_eq!(receivers(tsd_at(&mut b, seat(0), Some(seat(2)))), [2]);
    assert_eq!(receivers(tsd_at(&mut b, seat(0), Some(seat(2)))), [2]);
    assert_eq!(b.target(seat(0)), Some(seat(2)));
}

#[test]
fn manual_without_a_live_target_falls_back_to_even() {
    let mut b = started(4, Targeting::Manual);
    knock_out(&mut b, seat(2), seat(3));

    assert_eq!(
        receivers(tsd_at(&mut b, seat(0), Some(seat(2)))),
        [1],
        "dead"
    );
    assert_eq!(
        receivers(tsd_at(&mut b, seat(0), Some(seat(0)))),
        [3],
        "itself"
    );
    assert_eq!(receivers(tsd_at(&mut b, seat(0), None)), [1], "none");
}

#[test]
fn manual_on_a_teammate_falls_back_to_even() {
    let mut b = with_options(
        4,
        BattleOptions {
            targeting: Targeting::Manual,
            teams: teams(&[0, 1, 0, 1]),
            ..BattleOptions::default()
        },
    );
    start(&mut b);

    assert_eq!(receivers(tsd_at(&mut b, seat(0), Some(seat(2)))), [1]);
}

#[test]
fn targets_of_shows_where_the_next_attack_goes() {
    let mut b = started(4, Targeting::Even);
    assert_eq!(
        b.targets_of(seat(0))
            .iter()
            .map(|s| s.index())
            .collect::<Vec<_>>(),
        [1]
    );
    tsd(&mut b, seat(0));
    assert_eq!(
        b.targets_of(seat(0))
            .iter()
            .map(|s| s.index())
            .collect::<Vec<_>>(),
        [2]
    );

    let mut d = started(4, Targeting::Divide);
    assert_eq!(d.targets_of(seat(3)).len(), 3);
    tsd(&mut d, seat(3));
    assert_eq!(
        d.attackers_of(seat(1))
            .iter()
            .map(|s| s.index())
            .collect::<Vec<_>>(),
        [3]
    );
}

#[test]
fn garbage_never_goes_to_a_teammate() {
    let mut b = with_options(
        6,
        BattleOptions {
            targeting: Targeting::Divide,
            teams: teams(&[0, 1, 2, 0, 1, 2]),
            ..BattleOptions::default()
        },
    );
    start(&mut b);

    assert_eq!(receivers(perfect_clear(&mut b, seat(1))), [0, 2, 3, 5]);
}

#[test]
fn every_rule_sends_to_the_only_opponent_of_a_two_seat_match() {
    for targeting in Targeting::ALL {
        let mut b = started(2, targeting);
        assert_eq!(
            receivers(tsd_at(&mut b, seat(0), Some(seat(0)))),
            [1],
            "{targeting:?}"
        );
        assert_eq!(
            receivers(perfect_clear(&mut b, seat(1))),
            [0],
            "{targeting:?}"
        );
    }
}
