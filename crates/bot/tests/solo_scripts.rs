//! Writes the input scripts the core's solo-mode golden tests replay (crates/core/tests/solo.rs).
//!
//! The scripts are the bot's keys for one Sprint and one Blitz, stored as key changes so the core's
//! goldens do not move when the bot's play changes. Regenerate (a deliberate act) with
//! `cargo test -p sevenbag-bot --release --test solo_scripts -- --ignored`, then update the golden
//! values in crates/core/tests/solo.rs.

use std::fmt::Write as _;

use sevenbag_bot::{BOT_HANDLING, Bot, Level};
use sevenbag_core::{Input, Solo, SoloHeader, SoloMode};

fn record(mode: SoloMode, seed: u64, level: Level) -> String {
    let header = SoloHeader {
        handling: BOT_HANDLING,
        ..SoloHeader::new(mode, seed)
    };
    let mut solo = Solo::new(header);
    let mut bot = Bot::new(level);
    let mut out = format!("# {} seed {seed}: frame key-mask changes\n", mode.name());
    let mut last = Input::NONE;
    while solo.result().is_none() {
        let input = if solo.countdown_left().is_some() {
            Input::NONE
        } else {
            bot.next_input_for(solo.player(), &header.rules, solo.frame())
        };
        if input != last {
            writeln!(out, "{} {:02x}", solo.frame(), input.0).ok();
            last = input;
        }
        solo.step(input);
    }
    writeln!(out, "end {}", solo.frame()).ok();
    out
}

#[test]
#[ignore = "writes the core's golden solo scripts; run deliberately"]
fn write_solo_scripts() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../core/tests/data");
    for (mode, file) in [
        (SoloMode::Sprint, "sprint.keys"),
        (SoloMode::Blitz, "blitz.keys"),
    ] {
        let text = record(mode, 7, Level::Medium);
        std::fs::write(format!("{dir}/{file}"), text).expect("write script");
    }
}
