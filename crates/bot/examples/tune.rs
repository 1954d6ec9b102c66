//! Tunes the evaluation weights by coordinate descent on versus games against El-Tetris.
//!
//! `cargo run --release -p sevenbag-bot --example tune -- [GAMES] [BEAM] [DEPTH] [ROUNDS]`
//! (defaults 24 32 6 2). The objective is the bot's attack per piece minus the share of games it
//! lost, over `GAMES` games on seeds 1000.. with alternating seats, both sides capped at four
//! pieces a second. Each round tries every weight 50% up and 50% down (at least 10) and keeps a
//! change that gains more than 0.005. `W=name=value,...` overrides starting weights; ROUNDS 0
//! just scores them. Deterministic: the same arguments print the same lines.

use sevenbag_bot::{BOT_HANDLING, Bot, BotConfig, Budget, Planner, Weights, play_game};
use sevenbag_core::MatchHeader;

/// The tunable weights by name, with getters and setters.
type Field = (&'static str, fn(&mut Weights) -> &mut i32);

const FIELDS: [Field; 30] = [
    ("height", |w| &mut w.height),
    ("top_half", |w| &mut w.top_half),
    ("top_quarter", |w| &mut w.top_quarter),
    ("bumpiness", |w| &mut w.bumpiness),
    ("bumpiness_sq", |w| &mut w.bumpiness_sq),
    ("row_transitions", |w| &mut w.row_transitions),
    ("cavity_cells", |w| &mut w.cavity_cells),
    ("overhang_cells", |w| &mut w.overhang_cells),
    ("covered_cells", |w| &mut w.covered_cells),
    ("well_depth", |w| &mut w.well_depth),
    ("max_well_depth", |w| &mut w.max_well_depth),
    ("tslot1", |w| &mut w.tslot[1]),
    ("tslot2", |w| &mut w.tslot[2]),
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
];

/// (objective, wins, attack per piece) of `w` over `games` games.
fn score(w: &Weights, games: u32, budget: Budget) -> (f64, u32, f64) {
    let config = BotConfig {
        planner: Planner::Search(budget),
        weights: *w,
        pps_cap_x100: Some(400),
    };
    let (mut attack, mut pieces, mut wins) = (0u64, 0u64, 0u32);
    for g in 0..games {
        let mut bot = Bot::with_config(config).with_weights(*w);
        let mut baseline = Bot::el_tetris(Some(400));
        let header = MatchHeader {
            handling: [BOT_HANDLING; 2],
            ..MatchHeader::versus(1000 + u64::from(g))
        };
        let (report, seat) = if g % 2 == 0 {
            (play_game(&mut bot, &mut baseline, header, 400), 0)
        } else {
            (play_game(&mut baseline, &mut bot, header, 400), 1)
        };
        attack += u64::from(report.attack[seat]);
        pieces += u64::from(report.pieces[seat]);
        wins += u32::from(report.winner.map(|s| s.index()) == Some(seat));
    }
    let app = attack as f64 / pieces.max(1) as f64;
    (app - f64::from(games - wins) / f64::from(games), wins, app)
}

fn arg(args: &[String], i: usize, default: usize) -> Result<usize, String> {
    args.get(i).map_or(Ok(default), |s| {
        s.parse().map_err(|e| format!("argument {i} ({s:?}): {e}"))
    })
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().collect();
    let games = arg(&args, 1, 24)? as u32;
    let budget = Budget {
        beam: arg(&args, 2, 32)?,
        depth: arg(&args, 3, 6)?,
    };
    let rounds = arg(&args, 4, 2)?;
    let mut w = Weights::DEFAULT;
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
    let (mut best, wins, app) = score(&w, games, budget);
    println!("start objective {best:.4} wins {wins}/{games} attack/piece {app:.3}");
    for round in 0..rounds {
        for (name, field) in FIELDS {
            let base = *field(&mut w);
            let step = (base.abs() / 2).max(10);
            for candidate in [base + step, base - step] {
                let mut trial = w;
                *field(&mut trial) = candidate;
                let (s, wins, app) = score(&trial, games, budget);
                if s > best + 0.005 {
                    println!(
                        "round {round} {name}: {base} -> {candidate} objective {s:.4} wins {wins} attack/piece {app:.3}"
                    );
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
