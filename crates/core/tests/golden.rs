//! Golden vectors (SPEC §4): pinned piece sequences and the final state of a scripted match.
//!
//! **Changing any golden value here is a deliberate, documented rules change.** These values
//! are what every client, the server and every saved replay agree on; if a change to the core
//! moves one of them, either the change is a bug, or it is a rules change that must be written
//! up (RULES.md, the changelog) and the values updated in the same commit, knowing that replays
//! recorded before it no longer verify.
//!
//! The scripted match is `tests/data/golden_match.script`, in the `sevenbag-tool sim` format
//! (docs/SCRIPT.md). It was produced once by the generator in `golden/autoplay.rs`
//! (`cargo test -p sevenbag-core --test golden -- --ignored regenerate_golden_script`), and
//! the committed file, not the generator, is what the test reads.

#[path = "golden/autoplay.rs"]
mod autoplay;
mod common;

use common::script;
use sevenbag_core::{Phase, Randomizer, Seat, sequence};

/// The first 70 pieces of the 7-bag for seed 0.
const SEVEN_BAG_SEED_0: &str =
    "TIOJZSLIJLOTSZJILTOZSLSTZOJIIZJLTOSSZLJITOJZTLOSIOJTSZLIJOSLITZSIZTLJO";
/// The first 70 pieces of the 7-bag for seed 1.
const SEVEN_BAG_SEED_1: &str =
    "OISZTLJOSLZITJLZJITOSTLSZIOJSZJOTLIOLZISTJZIJSTLOTOILJSZOITLJSZLOIJTZS";
/// The first 70 pieces of the 7-bag for seed 0xDEADBEEF.
const SEVEN_BAG_SEED_DEADBEEF: &str =
    "STOJLZIOSZLJITSOIJZLTLSJTZIOZIJTLSOJISOLZTZOLJSTIZISOLJTSIZTJLOSZOTIJL";

/// The golden script, as committed.
const GOLDEN_SCRIPT: &str = include_str!("data/golden_match.script");
/// Its final `Match::state_hash`.
const GOLDEN_HASH: u64 = 0x2e61_26b8_28bb_6b84;
/// Its final frame (frames simulated).
const GOLDEN_FRAME: u32 = 3_600;
/// Rounds won by each seat at the end.
const GOLDEN_WINS: [u8; 2] = [1, 0];
/// Pieces locked by each seat in the round in play at the end.
const GOLDEN_PIECES: [u32; 2] = [35, 38];

fn letters(seed: u64) -> String {
    sequence(Randomizer::SevenBag, seed, 70)
        .iter()
        .map(|p| p.letter())
        .collect()
}

#[test]
fn seven_bag_seed_0_deals_the_golden_70() {
    assert_eq!(letters(0), SEVEN_BAG_SEED_0);
}

#[test]
fn seven_bag_seed_1_deals_the_golden_70() {
    assert_eq!(letters(1), SEVEN_BAG_SEED_1);
}

#[test]
fn seven_bag_seed_deadbeef_deals_the_golden_70() {
    assert_eq!(letters(0xDEAD_BEEF), SEVEN_BAG_SEED_DEADBEEF);
}

#[test]
fn the_golden_script_ends_in_the_golden_state() {
    let m = script::parse(GOLDEN_SCRIPT).run();

    assert_eq!(m.frame().0, GOLDEN_FRAME);
    assert_eq!(m.phase(), Phase::Playing);
    assert_eq!(m.wins(), GOLDEN_WINS);
    let pieces = Seat::BOTH.map(|s| m.player(s).stats().pieces);
    assert_eq!(pieces, GOLDEN_PIECES);
    assert_eq!(
        m.state_hash(),
        GOLDEN_HASH,
        "state hash {:016x}",
        m.state_hash()
    );
}

#[test]
fn the_golden_script_exercises_the_rules_it_pins() {
    let s = script::parse(GOLDEN_SCRIPT);
    let inputs = s.inputs();
    let mut m = sevenbag_core::Match::new(s.header);
    let mut seen = Seen::default();
    for keys in inputs {
        m.step(keys);
        seen.record(&m);
    }
    assert!(seen.rounds_ended >= 1, "a round ends");
    for seat in 0..2 {
        assert!(seen.holds[seat] > 0, "seat {seat} holds");
        assert!(seen.rotations[seat] > 20, "seat {seat} rotates");
        assert!(seen.lines[seat] > 10, "seat {seat} clears lines");
        assert!(seen.sent[seat] > 0, "seat {seat} sends garbage");
        assert!(seen.risen[seat] > 0, "garbage rises on seat {seat}");
    }
    assert!(seen.t_spins > 0, "a T-spin");
}

/// What happened over a run, totalled across rounds.
#[derive(Default, Debug)]
struct Seen {
    rounds_ended: u32,
    holds: [u32; 2],
    rotations: [u32; 2],
    lines: [u32; 2],
    sent: [u32; 2],
    risen: [u32; 2],
    t_spins: u32,
}

impl Seen {
    fn record(&mut self, m: &sevenbag_core::Match) {
        self.rounds_ended += u32::from(m.events().round_over.is_some());
        for seat in Seat::BOTH {
            let i = seat.index();
            let e = m.player(seat).events();
            self.holds[i] += u32::from(e.held);
            self.rotations[i] += u32::from(e.rotated);
            self.risen[i] += u32::from(e.garbage_risen);
            if let Some(lock) = e.locked {
                self.lines[i] += u32::from(lock.clear.lines);
                self.sent[i] += u32::from(lock.sent);
                self.t_spins +=
                    u32::from(lock.clear.lines > 0 && lock.clear.spin != sevenbag_core::Spin::None);
            }
        }
    }
}

/// Regenerates `tests/data/golden_match.script` and prints the values to pin. Run by hand only,
/// as part of a deliberate rules change (see the module doc).
#[test]
#[ignore = "rewrites the golden script; run by hand for a deliberate rules change"]
fn regenerate_golden_script() {
    let (header, tape) = autoplay::play(7, GOLDEN_FRAME);
    let intro = "The golden match: two bots, 3,600 frames (one minute) of versus play.\n\
        Generated by `cargo test -p sevenbag-core --test golden -- --ignored \
        regenerate_golden_script`\n(crates/core/tests/golden/autoplay.rs). \
        Its final state is pinned in crates/core/tests/golden.rs.";
    let text = autoplay::script_text(&header, &tape, intro);
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/golden_match.script"
    );
    std::fs::write(path, &text).expect("write the script");
    let m = script::parse(&text).run();
    let mut seen = Seen::default();
    let mut replay = sevenbag_core::Match::new(header);
    for keys in script::parse(&text).inputs() {
        replay.step(keys);
        seen.record(&replay);
    }
    println!("hash {:016x}", m.state_hash());
    println!(
        "frame {} wins {:?} phase {:?}",
        m.frame().0,
        m.wins(),
        m.phase()
    );
    println!(
        "pieces {:?}",
        Seat::BOTH.map(|s| m.player(s).stats().pieces)
    );
    println!("{seen:?}");
    for seed in [0, 1, 0xDEAD_BEEF] {
        println!("{seed:#x} {}", letters(seed));
    }
}
