//! Generates puzzles over a range of seeds per kind and prints backtracking statistics and
//! throughput: `cargo run --release -p sevenbag-puzzle --example survey -- [SEEDS]`.

use std::time::Instant;

use sevenbag_puzzle::{Kind, Options, check, generate};

fn main() {
    let seeds: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    let mut configs = Vec::new();
    for kind in Kind::ALL {
        configs.push(Options::default_for(kind));
    }
    configs.push(Options {
        rows: 4,
        pieces: 10,
        ..Options::default_for(Kind::Pc)
    });
    configs.push(Options {
        rows: 4,
        pieces: 6,
        hold: true,
        ..Options::default_for(Kind::Pc)
    });
    configs.push(Options {
        rows: 3,
        pieces: 3,
        ..Options::default_for(Kind::TSpin)
    });
    configs.push(Options {
        rows: 4,
        pieces: 5,
        hold: true,
        ..Options::default_for(Kind::Dig)
    });
    for o in configs {
        let t = Instant::now();
        let (mut ok, mut failed, mut bad) = (0, 0, 0);
        let (mut steps, mut dead, mut restarts, mut deepest) = (0u64, 0u64, 0u64, 0u32);
        let mut diff = [0u32; 3];
        for seed in 0..seeds {
            match generate(&o, seed) {
                Ok(g) => {
                    ok += 1;
                    steps += g.stats.steps;
                    dead += g.stats.dead_ends;
                    restarts += u64::from(g.stats.restarts);
                    deepest = deepest.max(g.stats.deepest_backtrack);
                    if let Some(gr) = g.puzzle.grade {
                        diff[gr.difficulty() as usize] += 1;
                    }
                    if let Err(e) = check(&g.puzzle) {
                        bad += 1;
                        eprintln!("{o:?} seed {seed}: {e}");
                    }
                }
                Err(e) => {
                    failed += 1;
                    eprintln!("{o:?} seed {seed}: {e}");
                }
            }
        }
        let secs = t.elapsed().as_secs_f64();
        println!(
            "{} rows {} pieces {} hold {}: {ok} made, {failed} failed, {bad} check failures; {:.1} puzzles/s; per puzzle: {:.1} steps, {:.1} dead ends, {:.1} restarts, deepest backtrack {deepest}; easy/medium/hard {:?}",
            o.kind.name(),
            o.rows,
            o.pieces,
            o.hold,
            ok as f64 / secs,
            steps as f64 / ok.max(1) as f64,
            dead as f64 / ok.max(1) as f64,
            restarts as f64 / ok.max(1) as f64,
            diff
        );
    }
}
