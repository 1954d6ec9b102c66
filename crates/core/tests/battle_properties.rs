//! Property tests for matches of 2 to 8 seats: a two-seat match is the versus match whatever
//! the options, simulation is deterministic and restorable, and garbage is conserved.
//!
//! Case counts are kept small so the core suite stays quick in debug builds.

mod common;

use common::battle::seat;
use common::stacker::{Stacker, play};
use common::tapes::{expand, key_run};
use proptest::prelude::*;
use sevenbag_core::{
    Battle, BattleHeader, BattleOptions, Input, MAX_SEATS, Match, MatchHeader, SeatInput, Targeting,
};

/// Options for `seats` seats: any rule, badges and boost on or off, and without teams or with
/// `teams` teams (seat k in team k mod `teams`).
fn options(seats: u8) -> impl Strategy<Value = BattleOptions> {
    let max_teams = seats.min(4);
    (
        0..Targeting::ALL.len(),
        any::<bool>(),
        any::<bool>(),
        1..=max_teams,
    )
        .prop_map(move |(rule, badges, team_boost, teams)| BattleOptions {
            targeting: Targeting::ALL[rule],
            badges,
            team_boost,
            teams: (teams >= 2).then(|| {
                std::array::from_fn(|i| match i < usize::from(seats) {
                    true => (i % usize::from(teams)) as u8,
                    false => 0,
                })
            }),
        })
}

fn header(seed: u64, seats: u8, options: BattleOptions) -> BattleHeader {
    let mut header = BattleHeader::new(seed, seats);
    header.options = options;
    header
}

/// Totals one round's garbage from its events, to check conservation.
#[derive(Default)]
struct Ledger {
    cancelled: u64,
}

impl Ledger {
    /// Lines sent this round, and lines received this round accounted for: risen, cancelled,
    /// discarded on a knock-out, or still waiting.
    fn balance(&mut self, b: &Battle) -> (u64, u64, u64) {
        if b.events().new_round {
            self.cancelled = 0;
        }
        let seats = (0..b.seats()).map(seat);
        let mut sent = 0;
        let mut routed = 0;
        let mut accounted = 0;
        for s in seats {
            let p = b.player(s);
            if let Some(lock) = p.events().locked {
                self.cancelled += u64::from(lock.cancelled);
            }
            sent += u64::from(p.stats().sent);
            routed += u64::from(b.received(s));
            accounted += u64::from(p.stats().garbage_received)
                + u64::from(b.discarded(s))
                + u64::from(p.garbage().total());
        }
        (sent, routed, accounted + self.cancelled)
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn a_two_seat_battle_is_the_versus_match_whatever_the_options(
        seed in any::<u64>(),
        options in options(2),
        runs_1 in prop::collection::vec(key_run(), 50..200),
        runs_2 in prop::collection::vec(key_run(), 50..200),
    ) {
        let tapes = [expand(&runs_1, 3_000), expand(&runs_2, 3_000)];
        let mut versus = Match::new(MatchHeader::versus(seed));
        let mut battle: Battle = Battle::new(header(seed, 2, options)).expect("valid");
        for (&a, &b) in tapes[0].iter().zip(&tapes[1]) {
            versus.step([a, b]);
            let mut inputs = [SeatInput::NONE; MAX_SEATS];
            inputs[0].keys = a;
            inputs[1].keys = b;
            inputs[0].target = Some(seat(0));
            battle.step(&inputs);
            prop_assert_eq!(battle.state_hash(), versus.state_hash(), "frame {}", versus.frame().0);
            prop_assert_eq!(battle.wins(), versus.wins());
            prop_assert_eq!(
                battle.events().round_over.map(|w| w.map(|t| t.index())),
                versus.events().round_over.map(|w| w.map(|s| s.index()))
            );
        }
    }

    #[test]
    fn a_match_is_deterministic_and_restorable_from_a_snapshot(
        seed in any::<u64>(),
        (seats, options) in (3u8..=8).prop_flat_map(|n| (Just(n), options(n))),
        split in 200usize..2_500,
    ) {
        let header = header(seed, seats, options);
        let mut first: Battle = Battle::new(header).expect("valid");
        let mut snapshot = None;
        let mut frame = 0;
        let tape = play(&mut first, &mut Stacker::team(seed, usize::from(seats)), 3_000, |b| {
            frame += 1;
            if frame == split {
                snapshot = Some((*b, b.state_hash()));
            }
        });
        let mut second: Battle = Battle::new(header).expect("valid");
        for inputs in &tape {
            second.step(inputs);
        }
        prop_assert_eq!(second.state_hash(), first.state_hash());
        prop_assert_eq!(&second, &first);
        let (mut restored, at_split) = snapshot.expect("a snapshot");
        prop_assert_eq!(restored.state_hash(), at_split);
        for inputs in &tape[split..] {
            restored.step(inputs);
        }
        prop_assert_eq!(restored.state_hash(), first.state_hash());
        for s in (0..usize::from(seats)).map(seat) {
            prop_assert_eq!(restored.seat_hash(s), first.seat_hash(s));
        }
    }

    #[test]
    fn garbage_sent_is_received_cancelled_discarded_or_still_waiting(
        seed in any::<u64>(),
        seats in 2u8..=8,
        rule in 0..Targeting::ALL.len(),
        badges in any::<bool>(),
    ) {
        let options = BattleOptions {
            targeting: Targeting::ALL[rule],
            badges,
            ..BattleOptions::default()
        };
        let mut b: Battle = Battle::new(header(seed, seats, options)).expect("valid");
        let mut ledger = Ledger::default();
        let mut failures = Vec::new();
        let mut total_sent = 0;
        play(&mut b, &mut Stacker::team(seed, usize::from(seats)), 4_000, |b| {
            let (sent, routed, accounted) = ledger.balance(b);
            total_sent = total_sent.max(sent);
            if sent != routed || routed != accounted {
                failures.push((b.frame().0, sent, routed, accounted));
            }
        });
        prop_assert!(failures.is_empty(), "{:?}", &failures[..failures.len().min(5)]);
        prop_assert!(total_sent > 0, "garbage was sent");
    }
}

#[test]
fn keys_alone_make_a_two_seat_battle_step_like_a_match() {
    // The plain conversion the two-seat API uses: keys with no target.
    assert_eq!(
        SeatInput::from(Input::HOLD),
        SeatInput {
            keys: Input::HOLD,
            target: None
        }
    );
}
