//! Property tests (proptest): the randomizers' guarantees (SPEC §4) and, for random but
//! human-like inputs, that matches never panic, pieces never overlap the stack, and simulation
//! is deterministic and restorable from a snapshot.
//!
//! Case counts are kept small so the whole core suite stays well under 30 s in debug builds.

mod common;

use common::tapes::{expand, key_run};
use proptest::prelude::*;
use sevenbag_core::{Input, Match, MatchHeader, PieceKind, Randomizer, Seat, sequence};

fn counts(pieces: &[PieceKind]) -> [usize; 7] {
    let mut counts = [0; 7];
    for p in pieces {
        counts[p.index()] += 1;
    }
    counts
}

fn play(header: MatchHeader, tapes: &[Vec<Input>; 2], mut check: impl FnMut(&Match)) -> Match {
    let mut m = Match::new(header);
    for (&a, &b) in tapes[0].iter().zip(&tapes[1]) {
        m.step([a, b]);
        check(&m);
    }
    m
}

/// Frames each random match runs: long enough for several rounds to end.
const FRAMES: usize = 4_000;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn every_7_pieces_from_a_bag_boundary_are_a_permutation(seed in any::<u64>()) {
        let pieces = sequence(Randomizer::SevenBag, seed, 140);
        for bag in pieces.chunks(7) {
            prop_assert_eq!(counts(bag), [1; 7], "{:?}", bag);
        }
    }

    #[test]
    fn no_more_than_12_pieces_come_between_two_of_one_kind(seed in any::<u64>()) {
        let pieces = sequence(Randomizer::SevenBag, seed, 140);
        for kind in PieceKind::ALL {
            let at: Vec<usize> = (0..pieces.len()).filter(|&i| pieces[i] == kind).collect();
            prop_assert!(at[0] <= 6);
            for pair in at.windows(2) {
                prop_assert!(pair[1] - pair[0] - 1 <= 12, "{:?} at {:?}", kind, pair);
            }
        }
    }

    #[test]
    fn every_14_pieces_of_the_14_bag_hold_each_piece_twice(seed in any::<u64>()) {
        let pieces = sequence(Randomizer::FourteenBag, seed, 140);
        for bag in pieces.chunks(14) {
            prop_assert_eq!(counts(bag), [2; 7], "{:?}", bag);
        }
    }

    #[test]
    fn the_same_seed_deals_the_same_sequence(seed in any::<u64>()) {
        for r in Randomizer::ALL {
            prop_assert_eq!(sequence(r, seed, 70), sequence(r, seed, 70));
        }
    }

    #[test]
    fn different_seeds_deal_different_sequences(a in any::<u64>(), b in any::<u64>()) {
        prop_assume!(a != b);
        for r in Randomizer::ALL {
            prop_assert_ne!(sequence(r, a, 70), sequence(r, b, 70), "{:?}", r);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    #[test]
    fn the_history_randomizer_rarely_repeats_one_of_the_last_4(seed in any::<u64>()) {
        let pieces = sequence(Randomizer::History, seed, 1_000);
        let repeats = (4..pieces.len())
            .filter(|&i| pieces[i - 4..i].contains(&pieces[i]))
            .count();
        prop_assert!(repeats < 100, "{} repeats in 1000", repeats);
    }

    #[test]
    fn random_play_never_panics_nor_overlaps_and_is_deterministic(
        seed in any::<u64>(),
        runs_1 in prop::collection::vec(key_run(), 50..200),
        runs_2 in prop::collection::vec(key_run(), 50..200),
    ) {
        let tapes = [expand(&runs_1, FRAMES), expand(&runs_2, FRAMES)];
        let header = MatchHeader::versus(seed);
        let mut overlaps = Vec::new();
        let first = play(header, &tapes, |m| {
            for seat in Seat::BOTH {
                let p = m.player(seat);
                if let Some(piece) = p.active() && p.board().collides(&piece) {
                    overlaps.push((m.frame().0, seat, piece));
                }
            }
        });
        prop_assert!(overlaps.is_empty(), "{:?}", overlaps);
        let second = play(header, &tapes, |_| {});
        prop_assert_eq!(first.state_hash(), second.state_hash());
        prop_assert_eq!(&first, &second);
    }

    #[test]
    fn restoring_a_snapshot_and_replaying_reaches_the_same_state(
        seed in any::<u64>(),
        runs_1 in prop::collection::vec(key_run(), 50..200),
        runs_2 in prop::collection::vec(key_run(), 50..200),
        split in 200usize..1_500,
    ) {
        let tapes = [expand(&runs_1, 1_600), expand(&runs_2, 1_600)];
        let mut m = Match::new(MatchHeader::versus(seed));
        let mut snapshot = None;
        let frames: Vec<[Input; 2]> = tapes[0].iter().zip(&tapes[1]).map(|(&a, &b)| [a, b]).collect();
        for (f, &keys) in frames.iter().enumerate() {
            if f == split {
                snapshot = Some((m.clone(), m.state_hash()));
            }
            m.step(keys);
        }
        let (mut restored, hash_at_split) = snapshot.expect("a snapshot");
        prop_assert_eq!(restored.state_hash(), hash_at_split);
        for &keys in &frames[split..] {
            restored.step(keys);
        }
        prop_assert_eq!(restored.state_hash(), m.state_hash());
    }
}
