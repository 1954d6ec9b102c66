//! What the server pays to check a submitted solo run: decode the replay file and re-simulate
//! it with the core (`SoloReplay::decode` + `verify_solo`, exactly the server's `SubmitSolo`
//! work besides the database write), for the committed 40-line Sprint sample and a scripted
//! 2-minute Blitz.
//!
//! Run: `cargo bench -p sevenbag-protocol --bench solo_verify` (optimised; a plain binary, no
//! criterion). Figures go to BENCHMARKS.md ("Solo records"). Each figure is the best of 5
//! repetitions of a loop bounded in time (about a second in all).

use std::hint::black_box;
use std::time::{Duration, Instant};

use sevenbag_core::SoloMode;
use sevenbag_protocol::{SoloReplay, key_script, verify_solo};

/// The committed Sprint sample (the core's scripted run, seed 7).
const SPRINT: &[u8] = include_bytes!("../tests/golden/solo_sprint_v1.sbso");
/// The core's scripted Blitz key changes.
const BLITZ_KEYS: &str = include_str!("../../core/tests/data/blitz.keys");

/// Plays a key script on a fresh run of `mode`, as the game records it.
fn record(mode: SoloMode, script: &str) -> SoloReplay {
    key_script::record(mode, script, "bench")
        .expect("script")
        .expect("the run finished")
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
