//! What the server pays to check a submitted solo run: decode the replay file and re-simulate
//! it with the core (`SoloReplay::decode` + `verify_solo`, exactly the server's `SubmitSolo`
//! work besides the database write), for the committed 40-line Sprint sample and a scripted
//! 2-minute Blitz.
//!
//! Run: `cargo bench -p sevenbag-protocol --bench solo_verify` (optimised; a plain binary, no
//! criterion). Figures go to BENCHMARKS.md ("## Solo records"). Each figure is the best of 5
//! repetitions of a loop bounded in time (about a second in all).

use std::hint::black_box;
use std::time::{Duration, Instant};

use sevenbag_core::{Handling, Input, Solo, SoloHeader, SoloMode};
use sevenbag_protocol::{SoloReplay, verify_solo};

/// The committed Sprint sample (the core's scripted run, seed 7).
const SPRINT: &[u8] = include_bytes!("../tests/golden/solo_sprint_v1.sbso");
/// The core's scripted Blitz key changes.
const BLITZ_KEYS: &str = include_str!("../../core/tests/data/blitz.keys");

/// Plays a `frame mask` script on a fresh run of `mode`, as the game records it.
fn record(mode: SoloMode, script: &str) -> SoloReplay {
    let mut changes = Vec::new();
    let mut end = 0;
    for line in script.lines().filter(|l| !l.starts_with('#')) {
        let mut words = line.split_whitespace();
        match (words.next(), words.next()) {
            (Some("end"), Some(f)) => end = f.parse().expect("end frame"),
            (Some(f), Some(m)) => changes.push((
                f.parse::<u32>().expect("frame"),
                Input(u8::from_str_radix(m, 16).expect("mask")),
            )),
            _ => panic!("bad script line {line:?}"),
        }
    }
    let handling = Handling {
        das: 6,
        arr: 0,
        dcd: 0,
        sdf: 0,
        irs: true,
        ihs: true,
    };
    let mut solo = Solo::new(SoloHeader {
        handling,
        ..SoloHeader::new(mode, 7)
    });
    let mut keys = Input::NONE;
    let mut next = changes.iter().peekable();
    let mut played = Vec::new();
    for frame in 0..end {
        if solo.result().is_some() {
            break;
        }
        while let Some(&(_, input)) = next.next_if(|(f, _)| *f <= frame) {
            keys = input;
        }
        solo.step(keys);
        played.push(keys);
    }
    SoloReplay::record(&solo, "bench", &played, 1_700_000_000).expect("the run finished")
}

/// Best time of one decode + re-simulation over 5 repetitions of ~100 ms each.
fn measure(bytes: &[u8]) -> Duration {
    let mut best = Duration::MAX;
    for _ in 0..5 {
        let started = Instant::now();
        let mut runs = 0u32;
        while started.elapsed() < Duration::from_millis(100) {
            let replay = SoloReplay::decode(black_box(bytes)).expect("decodes");
            black_box(verify_solo(&replay).expect("verifies"));
            runs += 1;
        }
        best = best.min(started.elapsed() / runs);
    }
    best
}

fn main() {
    let blitz = record(SoloMode::Blitz, BLITZ_KEYS)
        .encode()
        .expect("encode");
    println!(
        "| run | file bytes | frames simulated | seconds of play | decode + verify | CPU per second of play |"
    );
    println!("|---|---|---|---|---|---|");
    for (name, bytes) in [
        ("40-line Sprint (sample)", SPRINT),
        ("2-minute Blitz", &blitz[..]),
    ] {
        let replay = SoloReplay::decode(bytes).expect("decodes");
        let frames = replay.inputs.confirmed;
        let played = f64::from(replay.result.frames) / 60.0;
        let took = measure(bytes);
        println!(
            "| {name} | {} | {frames} | {played:.1} | {:.1} µs | {:.2} µs |",
            bytes.len(),
            took.as_secs_f64() * 1e6,
            took.as_secs_f64() * 1e6 / played
        );
    }
}
