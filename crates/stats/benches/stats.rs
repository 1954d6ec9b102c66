//! What the statistics cost: a long match's inputs re-simulated by the core alone, then again
//! through `sevenbag-stats` (`BattleStats`, the recorder `replay stats` uses), as frames per
//! second, nanoseconds per frame and the ratio of the two. The match is a 20-minute versus
//! replay (standard countdown and round breaks, first to 99) and an 8-seat free-for-all of 10
//! minutes, both played from human-like input tapes (the core bench's: a piece every 20–30
//! frames, blind placements, so rounds end in top-outs and a finesse search runs per piece).
//!
//! A plain `harness = false` binary (no criterion). Run:
//! `cargo bench -p sevenbag-stats --bench stats`; figures go to BENCHMARKS.md ("Match
//! statistics"). Each figure is the best of 3 repetitions over the whole replay.

use std::hint::black_box;
use std::time::{Duration, Instant};

#[path = "../../core/benches/support/tapes.rs"]
mod tapes;

use sevenbag_core::{Battle, BattleHeader, Input, MAX_SEATS, Match, MatchHeader, Phase, SeatInput};
use sevenbag_stats::BattleStats;
use tapes::{XorShift, human_tape};

/// 20 minutes of a versus match at 60 frames a second.
const VERSUS_FRAMES: usize = 20 * 60 * 60;
/// 10 minutes of an 8-seat match.
const BATTLE_FRAMES: usize = 10 * 60 * 60;
/// Each figure is the best of this many runs (the machine is shared).
const REPEATS: usize = 3;

/// A standard versus match (the countdown and round breaks a replay holds) that runs long.
fn versus_header() -> MatchHeader {
    let mut header = MatchHeader::versus(7);
    header.rules.first_to = 99;
    header
}

fn battle() -> Battle {
    let mut h = BattleHeader::new(7, MAX_SEATS as u8);
    h.rules.first_to = 99;
    Battle::new(h).expect("a valid header")
}

/// The tapes cut where the match is decided, if it is: the inputs a replay would hold.
fn versus_replay(tapes: &[Vec<Input>]) -> Vec<[Input; 2]> {
    let mut m = Match::new(versus_header());
    let mut frames = Vec::with_capacity(VERSUS_FRAMES);
    for inputs in tapes[0].iter().zip(&tapes[1]).take(VERSUS_FRAMES) {
        let inputs = [*inputs.0, *inputs.1];
        frames.push(inputs);
        m.step(inputs);
        if let Phase::MatchOver { .. } = m.phase() {
            break;
        }
    }
    frames
}

fn battle_replay(tapes: &[Vec<Input>]) -> Vec<[SeatInput; MAX_SEATS]> {
    let mut b = battle();
    let mut frames = Vec::with_capacity(BATTLE_FRAMES);
    for i in 0..BATTLE_FRAMES {
        let mut inputs = [SeatInput::NONE; MAX_SEATS];
        for (input, tape) in inputs.iter_mut().zip(tapes) {
            input.keys = tape[i];
        }
        frames.push(inputs);
        b.step(&inputs);
        if let Phase::MatchOver { .. } = b.phase() {
            break;
        }
    }
    frames
}

/// The fastest of [`REPEATS`] runs of `run`, with what the last returned.
fn best_of<T>(mut run: impl FnMut() -> T) -> (Duration, T) {
    let mut best = Duration::MAX;
    let mut out = None;
    for _ in 0..REPEATS {
        let start = Instant::now();
        let value = run();
        best = best.min(start.elapsed());
        out = Some(value);
    }
    (best, out.expect("at least one run"))
}

/// Prints one table row: the replay, its frames, seat pieces, both timings and their ratio.
fn row(name: &str, frames: usize, pieces: u32, plain: Duration, with: Duration) {
    let per = |d: Duration| d.as_secs_f64() * 1e9 / frames as f64;
    let fps = |d: Duration| frames as f64 / d.as_secs_f64() / 1e6;
    println!(
        "| {name} | {frames} | {pieces} | {:.2} million ({:.0} ns) | {:.2} million ({:.0} ns) | \
         ×{:.1} | {:.1} ms |",
        fps(plain),
        per(plain),
        fps(with),
        per(with),
        with.as_secs_f64() / plain.as_secs_f64(),
        with.as_secs_f64() * 1e3,
    );
}

fn main() {
    let mut rng = XorShift(0x5eed_f00d);
    let tapes: Vec<Vec<Input>> = (0..MAX_SEATS)
        .map(|_| human_tape(&mut rng, VERSUS_FRAMES))
        .collect();
    println!(
        "| replay | frames | pieces (all seats) | core alone: frames/s (per frame) | \
         with stats | cost | whole replay with stats |"
    );
    println!("|---|---|---|---|---|---|---|");

    let versus = versus_replay(&tapes);
    let (plain, hash) = best_of(|| {
        let mut m = Match::new(versus_header());
        for inputs in &versus {
            m.step(black_box(*inputs));
        }
        m.state_hash()
    });
    let (with, (stats_hash, pieces)) = best_of(|| {
        let mut m = Match::new(versus_header());
        let mut stats = BattleStats::for_match(&m);
        for inputs in &versus {
            stats.step_match(&mut m, black_box(*inputs));
        }
        let pieces = stats.seats().iter().map(|s| s.pieces).sum::<u32>();
        (m.state_hash(), pieces)
    });
    assert_eq!(hash, stats_hash, "the recorder does not change the game");
    row("versus, 20 min", versus.len(), pieces, plain, with);

    let ffa = battle_replay(&tapes);
    let (plain, hash) = best_of(|| {
        let mut b = battle();
        for inputs in &ffa {
            b.step(black_box(inputs));
        }
        b.state_hash()
    });
    let (with, (stats_hash, pieces)) = best_of(|| {
        let mut b = battle();
        let mut stats = BattleStats::new(&b);
        for inputs in &ffa {
            stats.step(&mut b, black_box(inputs));
        }
        let pieces = stats.seats().iter().map(|s| s.pieces).sum::<u32>();
        (b.state_hash(), pieces)
    });
    assert_eq!(hash, stats_hash, "the recorder does not change the game");
    row("8 seats, 10 min", ffa.len(), pieces, plain, with);
}
