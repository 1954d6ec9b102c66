//! Long solo games: the bot keeps its stack under control for thousands of pieces.
//!
//! The default test plays 2,000 pieces on three seeds at Easy and three at Medium (about seven
//! seconds in a debug build). Gravity rises after two minutes as in versus, so the slow levels
//! end these games at several G. The ignored test runs the stronger levels on more seeds:
//! `cargo test -p sevenbag-bot --release --test solo -- --ignored`.

use sevenbag_bot::{BOT_HANDLING, Bot, Level, play_solo};
use sevenbag_core::{Handling, Rules};

fn survives(level: Level, seeds: std::ops::Range<u64>, handling: Handling) {
    let rules = Rules::versus();
    for seed in seeds {
        let mut bot = Bot::new(level);
        let report = play_solo(&mut bot, &rules, handling, seed, 2000);
        assert!(
            !report.topped_out && report.pieces == 2000,
            "{} topped out on seed {seed}: {report:?}",
            level.name()
        );
        assert_eq!(bot.stats().fallbacks, 0, "seed {seed}: {:?}", bot.stats());
    }
}

#[test]
fn the_bot_never_tops_out_in_2000_pieces_of_solo_play() {
    survives(Level::Easy, 0..2, BOT_HANDLING);
    survives(Level::Easy, 2..3, Handling::default());
    survives(Level::Medium, 3..6, BOT_HANDLING);
}

#[test]
#[ignore = "minutes in a debug build; run with --release"]
fn every_searching_level_survives_2000_pieces_on_many_seeds() {
    for level in [Level::Medium, Level::Hard, Level::Max] {
        survives(level, 0..8, BOT_HANDLING);
    }
}
