//! Tunes Max's evaluation weights by coordinate descent on versus games against El-Tetris.
//!
//! `cargo run --release -p sevenbag-bot --example tune -- [GAMES] [ROUNDS] [SEED...]`
//! (defaults 100 1 0 1000 5000). Each candidate plays Max as botmatch does (its beam and depth,
//! perfect-clear search and opener, 4 pieces a second, bot handling, seats alternating, at most
//! 1,000 pieces) over `GAMES` games from each seed; the objective is the attack per piece over
//! all of them minus the share of games lost. Each round tries every weight a third up and a
//! third down (at least 10) and keeps a change that gains more than `MIN_GAIN`. The games run on
//! every core. `W=name=value,...` overrides starting weights; ROUNDS 0 just scores them.
//! Deterministic: the same arguments print the same lines. Check what it finds on seeds it was
//! not given before keeping it.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use sevenbag_bot::{BOT_HANDLING, Bot, BotConfig, Level, Weights, play_game};
use sevenbag_core::MatchHeader;

/// A candidate must beat the best so far by this much to be kept (the chaos between two
/// weight sets on the same 300 games is about ±0.01).
const MIN_GAIN: f64 = 0.008;

/// The tunable weights by name, with getters and setters.
type Field = (&'static str, fn(&mut Weights) -> &mut i32);

const FIELDS: [Field; 38] = [
    ("height", |w| &mut w.height),
    ("top_half", |w| &mut w.top_half),
    ("top_quarter", |w| &mut w.top_quarter),
    ("bumpiness", |w| &mut w.bumpiness),
    ("bumpiness_sq", |w| &mut w.bumpiness_sq),
    ("row_transitions", |w| &mut w.row_transitions),
    ("cavity_cells", |w| &mut w.cavity_cells),
    ("cavity_cells_sq", |w| &mut w.cavity_cells_sq),
    ("overhang_cells", |w| &mut w.overhang_cells),
    ("overhang_cells_sq", |w| &mut w.overhang_cells_sq),
    ("covered_cells", |w| &mut w.covered_cells),
    ("covered_cells_sq", |w| &mut w.covered_cells_sq),
    ("well_depth", |w| &mut w.well_depth),
    ("max_well_depth", |w| &mut w.max_well_depth),
    ("well_column0", |w| &mut w.well_column[0]),
    ("well_column4", |w| &mut w.well_column[4]),
    ("well_column9", |w| &mut w.well_column[9]),
    ("tslot1", |w| &mut w.tslot[1]),
    ("tslot2", |w| &mut w.tslot[2]),
    ("tslot3", |w| &mut w.tslot[3]),
    ("back_to_back", |w| &mut w.back_to_back),
    ("incoming", |w| &mut w.incoming),
    ("clear1", |w| &mut w.clear[1]),
    ("clear2", |w| &mut w.clear[2]),
    ("clear3", |w| &mut w.clear[3]),
    ("clear4", |w| &mut w.clear[4]),
    ("tspin1", |w| &mut w.tspin[1]),
    ("tspin2", |w| &mut w.tspin[2]),
    ("tspin3", |w| &mut w.tspin[3]),
    ("mini1", |w| &mut w.mini[1]),
    ("mini2", |w| &mut w.mini[2]),
    ("b2b_clear", |w| &mut w.b2b_clear),
    ("combo_garbage", |w| &mut w.combo_garbage),
    ("attack", |w| &mut w.attack),
    ("wasted_t", |w| &mut w.wasted_t),
    ("perfect_clear", |w| &mut w.perfect_clear),
    ("move_cost", |w| &mut w.move_cost),
    ("tslot0", |w| &mut w.tslot[0]),
];

/// Attack, pieces and a win of Max with weights `w` in game `g` of the set from `seed`.
fn game(w: &Weights, seed: u64, g: u64) -> (u64, u64, u32) {
    let config = BotConfig {
        weights: *w,
        pps_cap_x100: Some(400),
        ..Level::Max.config()
    };
    let mut bot = Bot::with_config(config).with_perfect_clears(true);
    let mut baseline = Bot::el_tetris(Some(400));
    let header = MatchHeader {
        handling: [BOT_HANDLING; 2],
        ..MatchHeader::versus(seed + g)
    };
    let (report, seat) = if g.is_multiple_of(2) {
        (play_game(&mut bot, &mut baseline, header, 1000), 0)
    } else {
        (play_game(&mut baseline, &mut bot, header, 1000), 1)
    };
    (
        u64::from(report.attack[seat]),
        u64::from(report.pieces[seat]),
        u32::from(report.winner.map(|s| s.index()) == Some(seat)),
    )
}

/// (objective, losses, attack per piece) of `w` over `games` games from each of `seeds`.
fn score(w: &Weights, games: u64, seeds: &[u64]) -> (f64, u32, f64) {
    let jobs: Vec<(u64, u64)> = seeds
        .iter()
        .flat_map(|&s| (0..games).map(move |g| (s, g)))
        .collect();
    let next = AtomicUsize::new(0);
    let total = Mutex::new((0u64, 0u64, 0u32));
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                while let Some(&(seed, g)) = jobs.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let (a, p, won) = game(w, seed, g);
                    let mut t = total.lock().unwrap_or_else(|e| e.into_inner());
                    t.0 += a;
                    t.1 += p;
                    t.2 += won;
                }
            });
        }
    });
    let (attack, pieces, wins) = total.into_inner().unwrap_or_else(|e| e.into_inner());
    let played = jobs.len() as u32;
    let app = attack as f64 / pieces.max(1) as f64;
    let losses = played - wins;
    (app - f64::from(losses) / f64::from(played), losses, app)
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize, default: u64| -> Result<u64, String> {
        args.get(i).map_or(Ok(default), |s| {
            s.parse()
                .map_err(|e| format!("argument {} ({s:?}): {e}", i + 1))
        })
    };
    let games = number(0, 100)?;
    let rounds = number(1, 1)?;
    let mut seeds = (2..args.len())
        .map(|i| number(i, 0))
        .collect::<Result<Vec<_>, _>>()?;
    if seeds.is_empty() {
        seeds = vec![0, 1000, 5000];
    }
    let mut w = Level::Max.config().weights;
    if let Ok(spec) = std::env::var("W") {
        for kv in spec.split(',').filter(|s| !s.is_empty()) {
            let (name, value) = kv
                .split_once('=')
                .ok_or(format!("W: {kv:?} is not name=value"))?;
            let field = FIELDS
                .iter()
                .find(|(n, _)| *n == name)
                .ok_or(format!("W: no weight called {name:?}"))?;
            *field.1(&mut w) = value.parse().map_err(|e| format!("W: {kv:?}: {e}"))?;
        }
    }
    let (mut best, losses, app) = score(&w, games, &seeds);
    println!("start objective {best:.4} losses {losses} attack/piece {app:.4}");
    for round in 0..rounds {
        for (name, field) in FIELDS {
            let base = *field(&mut w);
            let step = (base.abs() / 3).max(10);
            for candidate in [base + step, base - step] {
                let mut trial = w;
                *field(&mut trial) = candidate;
                let (s, losses, app) = score(&trial, games, &seeds);
                let kept = s > best + MIN_GAIN;
                println!(
                    "round {round} {name}: {base} -> {candidate} objective {s:.4} losses {losses} attack/piece {app:.4}{}",
                    if kept { " kept" } else { "" }
                );
                if kept {
                    best = s;
                    w = trial;
                    break;
                }
            }
        }
        println!("after round {round}: {w:?}");
    }
    Ok(())
}
