//! What screening one ranked match for inhuman input costs the database writer
//! (`sevenbag_server::screen`, docs/MODERATION.md "Screening ranked matches"): the repository's
//! bot plays itself (Medium and Max, first to 1, at most two minutes of play), once, untimed;
//! then the screening of that match is timed `SCREEN_RUNS` (20) times.
//!
//! Run: `cargo bench -p sevenbag-server --bench screen` (optimised; a plain binary).

use std::time::Instant;

use sevenbag_bot::{Bot, Level};
use sevenbag_core::{Input, Match, MatchHeader, Seat};
use sevenbag_protocol::SeatInputs;
use sevenbag_server::screen::{ScreenBounds, screen};

/// Plays `level` against itself for at most `frames`: the header and both seats' inputs.
fn bot_match(level: Level, seed: u64, frames: u32) -> (MatchHeader, [SeatInputs; 2]) {
    let mut header = MatchHeader::versus(seed);
    header.rules.first_to = 1;
    let mut m = Match::new(header);
    let mut bots = [Bot::new(level), Bot::new(level)];
    let mut masks: [Vec<Input>; 2] = [Vec::new(), Vec::new()];
    while m.winner().is_none() && m.frame().0 < frames {
        let keys = [
            bots[0].next_input(&m, Seat::First),
            bots[1].next_input(&m, Seat::Second),
        ];
        masks[0].push(keys[0]);
        masks[1].push(keys[1]);
        m.step(keys);
    }
    (
        header,
        [
            SeatInputs::from_masks(&masks[0]),
            SeatInputs::from_masks(&masks[1]),
        ],
    )
}

fn main() {
    let runs: u32 = std::env::var("SCREEN_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20)
        .clamp(1, 1000);
    let bounds = ScreenBounds::default();
    for (level, seed) in [(Level::Medium, 1), (Level::Max, 0)] {
        let (header, inputs) = bot_match(level, seed, 2 * 60 * 60);
        let frames = inputs[0].confirmed;
        let started = Instant::now();
        let mut found = Vec::new();
        for _ in 0..runs {
            found = screen(&header, &inputs, &bounds);
        }
        let each = started.elapsed() / runs;
        let rules: Vec<&str> = found.iter().map(|f| f.rule).collect();
        println!(
            "{level:?} against itself, {frames} frames ({:.0} s of play): screening took {:.2} ms \
             ({:.1} us per second of play); flagged: {rules:?}",
            f64::from(frames) / 60.0,
            each.as_secs_f64() * 1000.0,
            each.as_secs_f64() * 1e6 / (f64::from(frames) / 60.0)
        );
    }
}
