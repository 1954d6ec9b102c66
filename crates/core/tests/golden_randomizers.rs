//! Golden sequences for every randomizer and for garbage holes (SPEC §4), beside the 7-bag ones
//! in `golden.rs`. **Changing a value here is a deliberate rules change**: saved replays of
//! those rules stop verifying (see the note at the top of `golden.rs`).

use sevenbag_core::garbage::GarbageQueue;
use sevenbag_core::rng::{ChaChaStream, StreamId};
use sevenbag_core::{Randomizer, sequence};

fn letters(randomizer: Randomizer, seed: u64) -> String {
    sequence(randomizer, seed, 70)
        .iter()
        .map(|p| p.letter())
        .collect()
}

#[test]
fn fourteen_bag_seed_0_deals_the_golden_70() {
    assert_eq!(
        letters(Randomizer::FourteenBag, 0),
        "STOOZZSTLIJJILZSTLTIJOZLJSIOTSISTLZIJOJZOLOISJJTZILLZSTOSJTOOISZLLJZTI"
    );
}

#[test]
fn fourteen_bag_seed_deadbeef_deals_the_golden_70() {
    assert_eq!(
        letters(Randomizer::FourteenBag, 0xDEAD_BEEF),
        "LTSOZZJLOSJTIITZOJJZTIOSSLILSITLOOLZZSJJTILOZTILTOIJZJSSOTZLOSJLSIIJTZ"
    );
}

#[test]
fn classic_seed_0_deals_the_golden_70() {
    assert_eq!(
        letters(Randomizer::Classic, 0),
        "LJLJZOZSJTITSOLLJSITJZSTSTLSZZOJOZOJIOJOIIISTTSJZLLJILOTZJISSILLZILJOJ"
    );
}

#[test]
fn classic_seed_deadbeef_deals_the_golden_70() {
    assert_eq!(
        letters(Randomizer::Classic, 0xDEAD_BEEF),
        "IOTITJTJOZJSTLTTZZOOTJSZOTITZSTSJLOSIZTSTITJJOTSOJJZZSLLZJJILZZTJOSJSI"
    );
}

#[test]
fn history_seed_0_deals_the_golden_70() {
    assert_eq!(
        letters(Randomizer::History, 0),
        "LJOZSTIOLJSITZLSOJZISTJZLIOTZJISLZJOTLZSITOJLSIZJLOISJZLTSIOLJZITOLJZT"
    );
}

#[test]
fn history_seed_deadbeef_deals_the_golden_70() {
    assert_eq!(
        letters(Randomizer::History, 0xDEAD_BEEF),
        "IOTJZSLTOJSZTIJLOSIZTJOSZLJITOSJIZLTJOSZTIOJLJSOILZTJILOTZSJITOLSIZJOL"
    );
}

/// Hole columns of 12 attacks of 3 lines each rising into seat `seat` of round `round`, with
/// `messiness` percent chance of each line after an attack's first moving its hole.
fn holes(seed: u64, round: u32, seat: u8, messiness: u8) -> String {
    let mut queue = GarbageQueue::new(ChaChaStream::new(seed, StreamId::Holes { round, seat }));
    let mut out = String::new();
    for attack in 0..12 {
        queue.push(3, attack, 0);
        queue.rise(attack, 3, messiness, |hole| {
            out.push(char::from(b'0' + hole as u8))
        });
    }
    out
}

#[test]
fn clean_garbage_holes_for_seed_0_are_golden() {
    assert_eq!(holes(0, 0, 0, 0), "555555555777444999999444333555111666");
}

#[test]
fn messy_garbage_holes_for_seed_0_are_golden() {
    assert_eq!(holes(0, 0, 1, 40), "666353498993990888223500111888132155");
}

#[test]
fn fully_messy_garbage_holes_of_a_later_round_are_golden() {
    assert_eq!(
        holes(0xDEAD_BEEF, 3, 0, 100),
        "141790348025916597935851780804626575"
    );
}
