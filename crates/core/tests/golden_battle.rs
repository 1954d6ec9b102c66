//! Golden vectors for matches of more than two seats (SPEC §10): the final state of 3- and
//! 8-seat matches under each targeting rule, and of team matches with badges and the boost.
//!
//! **Changing any golden value here is a deliberate, documented rules change**, as in
//! `golden.rs`: these hashes are what every simulator of a free-for-all or team match agrees
//! on.
//!
//! Each match is 6,000 frames (100 seconds, two or three rounds) played by the stacking bots of
//! `common/stacker.rs` from the header's seed. The bots read the boards, so their keys depend
//! on the rules: a rules change moves these hashes, and so does any change to the bots — keep
//! them as they are. (The two-seat golden keeps its keys in a committed script instead; eight
//! seats' keys for fourteen matches would be megabytes.) To print the values after a deliberate
//! change: `cargo test -p sevenbag-core --test golden_battle -- --ignored --nocapture print`.

mod common;

use common::battle::{seat, teams};
use common::stacker::{Stacker, play};
use sevenbag_core::{Battle, BattleHeader, BattleOptions, MAX_SEATS, Targeting};

/// Frames each golden match runs.
const FRAMES: u32 = 6_000;
/// The seed of every golden match (and of its bots).
const SEED: u64 = 7;

/// One golden match: its seats and options, and what it must end in.
struct Golden {
    seats: u8,
    options: BattleOptions,
    /// Final `Battle::state_hash`.
    hash: u64,
    /// Rounds won by each team at the end.
    wins: &'static [u8],
}

fn rule(targeting: Targeting) -> BattleOptions {
    BattleOptions {
        targeting,
        ..BattleOptions::default()
    }
}

fn run(seats: u8, options: BattleOptions) -> (Battle, Tally) {
    let mut header = BattleHeader::new(SEED, seats);
    header.options = options;
    let mut b = Battle::new(header).expect("a valid header");
    let mut bots = Stacker::team(SEED, usize::from(seats));
    let mut tally = Tally::default();
    play(&mut b, &mut bots, FRAMES, |b| tally.record(b));
    (b, tally)
}

fn check(g: &Golden) {
    let (b, _) = run(g.seats, g.options);
    assert_eq!(b.frame().0, FRAMES);
    assert_eq!(b.wins(), g.wins);
    assert_eq!(
        b.state_hash(),
        g.hash,
        "state hash {:#018x}",
        b.state_hash()
    );
}

macro_rules! golden {
    ($($name:ident: $seats:expr, $options:expr, $hash:expr, $wins:expr;)*) => {
        /// Every golden match, for the tests that look at them all.
        const ALL: &[(&str, u8)] = &[$((stringify!($name), $seats)),*];

        fn options_of(name: &str) -> BattleOptions {
            match name {
                $(stringify!($name) => $options,)*
                _ => unreachable!("{name}"),
            }
        }

        $(
            #[test]
            fn $name() {
                check(&Golden { seats: $seats, options: $options, hash: $hash, wins: &$wins });
            }
        )*
    };
}

golden! {
    three_seats_even: 3, rule(Targeting::Even), 0x4bda_842e_8e3d_11d1, [2, 1, 0];
    three_seats_least: 3, rule(Targeting::Least), 0x8445_7203_4609_7965, [1, 0, 2];
    three_seats_divide: 3, rule(Targeting::Divide), 0x8d4d_661d_df09_f87c, [1, 0, 2];
    three_seats_attackers: 3, rule(Targeting::Attackers), 0xdbdd_4271_0458_6ce1, [1, 1, 0];
    three_seats_kos: 3, rule(Targeting::Kos), 0x8445_7203_4609_7965, [1, 0, 2];
    three_seats_random: 3, rule(Targeting::Random), 0x6b37_43e5_25cd_efd0, [1, 0, 2];
    three_seats_manual: 3, rule(Targeting::Manual), 0xf207_1731_fb80_26c5, [2, 0, 1];
    eight_seats_even: 8, rule(Targeting::Even), 0x158c_a2e7_9f6e_4509, [1, 0, 0, 0, 1, 0, 0, 0];
    eight_seats_least: 8, rule(Targeting::Least), 0x96ef_0112_cf03_9b6d, [0, 0, 0, 0, 1, 0, 1, 0];
    eight_seats_divide: 8, rule(Targeting::Divide), 0x6c4e_6d11_1712_2091, [1, 0, 0, 0, 1, 0, 0, 0];
    eight_seats_attackers: 8, rule(Targeting::Attackers), 0xb15a_1f3f_8b56_8f26, [0, 1, 1, 0, 0, 0, 0, 0];
    eight_seats_kos: 8, rule(Targeting::Kos), 0x90ce_442d_ad98_bacd, [1, 0, 1, 0, 0, 0, 0, 0];
    eight_seats_random: 8, rule(Targeting::Random), 0x8bc4_5c39_43c3_3a88, [0, 0, 1, 1, 0, 0, 0, 0];
    eight_seats_manual: 8, rule(Targeting::Manual), 0xa3a1_fe4a_c39f_7243, [0, 0, 0, 0, 1, 0, 1, 0];
    eight_seats_with_badges_by_kos: 8, BattleOptions {
        badges: true,
        ..rule(Targeting::Kos)
    }, 0x5adf_da27_218a_018a, [1, 0, 1, 0, 0, 0, 0, 0];
    four_teams_of_two_with_badges: 8, BattleOptions {
        badges: true,
        teams: teams(&[0, 1, 2, 3, 0, 1, 2, 3]),
        ..rule(Targeting::Even)
    }, 0x4d6a_b508_c7f3_5a0a, [0, 0, 2, 0];
    three_against_two_with_boost_and_badges: 5, BattleOptions {
        badges: true,
        team_boost: true,
        teams: teams(&[0, 0, 1, 0, 1]),
        ..rule(Targeting::Divide)
    }, 0x1873_7ee6_7cc5_696e, [1, 2];
}

/// What a golden match went through, totalled over its frames.
#[derive(Default, Debug)]
struct Tally {
    rounds: u32,
    knock_outs: u32,
    credited: u32,
    /// `sent[from][to]`: lines over the whole match.
    sent: [[u32; MAX_SEATS]; MAX_SEATS],
    /// Attacks that reached more than one seat.
    splits: u32,
    /// Lines routed to the sender's chosen target.
    to_chosen: u32,
    /// Attacks sent only to seats whose garbage waited on the sender when it locked.
    countered: u32,
    /// Frames on which some seat's attack was scaled (badges or boost).
    scaled: u32,
}

impl Tally {
    fn record(&mut self, b: &Battle) {
        let e = b.events();
        self.rounds += u32::from(e.round_over.is_some());
        for victim in e.knocked_out.iter() {
            self.knock_outs += 1;
            self.credited += u32::from(b.knocked_out_by(victim).is_some());
        }
        for from in 0..b.seats() {
            let to: Vec<usize> = (0..b.seats()).filter(|&t| e.sent[from][t] > 0).collect();
            self.splits += u32::from(to.len() > 1);
            let attackers = b.player(seat(from)).attackers_at_lock();
            let countered = to.iter().all(|&t| attackers.contains(seat(t)));
            self.countered += u32::from(!to.is_empty() && countered);
            for &t in &to {
                self.sent[from][t] += u32::from(e.sent[from][t]);
                if b.target(seat(from)) == Some(seat(t)) {
                    self.to_chosen += u32::from(e.sent[from][t]);
                }
            }
            let (num, den) = b.attack_scale(seat(from)).ratio();
            self.scaled += u32::from(num != den);
        }
    }
}

#[test]
fn the_golden_matches_exercise_the_rules_they_pin() {
    for &(name, seats) in ALL {
        let options = options_of(name);
        let (b, t) = run(seats, options);
        let n = usize::from(seats);
        assert!(t.rounds >= 2, "{name}: rounds end ({t:?})");
        assert!(t.credited >= 2, "{name}: knock-outs are credited ({t:?})");
        for from in 0..n {
            // Under `divide` a one-line attack always goes to the next seat: no spread to check.
            let reached = (0..n).filter(|&to| t.sent[from][to] > 0).count();
            if options.targeting != Targeting::Divide {
                assert!(
                    reached >= 2.min(n - 1),
                    "{name}: seat {from} attacks several seats"
                );
            }
            for to in 0..n {
                if b.team_of(seat(from)) == b.team_of(seat(to)) {
                    assert_eq!(t.sent[from][to], 0, "{name}: never to a teammate");
                }
            }
        }
        match options.targeting {
            Targeting::Divide => assert!(t.splits > 0, "{name}: attacks split ({t:?})"),
            Targeting::Attackers => assert!(t.countered > 0, "{name}: attackers are countered"),
            Targeting::Manual => assert!(t.to_chosen > 0, "{name}: chosen targets hit"),
            _ => {}
        }
        if options.badges || options.team_boost {
            assert!(t.scaled > 0, "{name}: attack is scaled ({t:?})");
        }
    }
}

/// Prints the values to pin. Run by hand only, for a deliberate rules change (see the module
/// doc).
#[test]
#[ignore = "prints the golden values; run by hand for a deliberate rules change"]
fn print() {
    for &(name, seats) in ALL {
        let (b, t) = run(seats, options_of(name));
        println!("{name}: {:#018x} {:?} {t:?}", b.state_hash(), b.wins());
    }
}
