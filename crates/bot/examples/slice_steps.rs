//! The steps of Max's thoughts spread over the smallest slices (`Bot::think_more(1)`, as the
//! browser page runs them): how long the longest take, by search, natively. The page's bot
//! (beam `BEAM`, the odds of a perfect clear capped at 6,000 move generations) plays the first
//! seat against the El-Tetris baseline for `SEEDS` games; each step is timed `RUNS` times (the
//! games are deterministic) and its least time kept, so the other jobs of a shared machine
//! count as little as they can.
//!
//! `cargo run --release -p sevenbag-bot --example slice_steps -- [BEAM] [SEEDS] [RUNS]`

use std::time::{Duration, Instant};

use sevenbag_bot::{BOT_HANDLING, Bot, BotConfig, Drive, Level, Planner};
use sevenbag_core::{Input, Match, MatchHeader, Seat};

/// One timed step: how long, in which part of a thought, and where.
struct Step {
    took: Duration,
    stage: &'static str,
    at: String,
}

fn main() {
    let arg = |i: usize, default: u64| {
        std::env::args()
            .nth(i)
            .and_then(|a| a.parse().ok())
            .unwrap_or(default)
    };
    let (beam, seeds, runs) = (arg(1, 32) as usize, arg(2, 3), arg(3, 3));
    let mut least: Vec<Step> = Vec::new();
    let mut plans = 0;
    for _ in 0..runs {
        let (steps, n) = play(beam, seeds);
        plans = n;
        if least.is_empty() {
            least = steps;
        } else {
            for (l, s) in least.iter_mut().zip(steps) {
                l.took = l.took.min(s.took);
            }
        }
    }
    let thinking: Duration = least
        .iter()
        .filter(|s| s.stage != "adopt")
        .map(|s| s.took)
        .sum();
    least.sort_by_key(|s| std::cmp::Reverse(s.took));
    println!(
        "beam {beam}, {seeds} games: {plans} plans, {} steps, {:.2} ms thinking a plan",
        least.len(),
        thinking.as_secs_f64() * 1e3 / plans.max(1) as f64
    );
    for s in least.iter().take(10) {
        println!(
            "{:>8.3} ms  {:14} {}",
            s.took.as_secs_f64() * 1e3,
            s.stage,
            s.at
        );
    }
    for stage in [
        "begin",
        "perfect clear",
        "opener",
        "beam search",
        "odds",
        "adopt",
    ] {
        let v: Vec<&Step> = least.iter().filter(|s| s.stage == stage).collect();
        if let Some(most) = v.first() {
            let sum: Duration = v.iter().map(|s| s.took).sum();
            println!(
                "{stage:14} {:>7} steps, longest {:.3} ms, 99th centile {:.3} ms, mean {:.1} µs",
                v.len(),
                most.took.as_secs_f64() * 1e3,
                v[v.len() / 100].took.as_secs_f64() * 1e3,
                sum.as_secs_f64() * 1e6 / v.len() as f64
            );
        }
    }
}

/// Plays the games once, timing every step; also the number of plans.
fn play(beam: usize, seeds: u64) -> (Vec<Step>, usize) {
    let mut steps = Vec::new();
    let mut plans = 0;
    for seed in 0..seeds {
        let mut config: BotConfig = Level::Max.config();
        if let Planner::Search(b) = &mut config.planner {
            b.beam = beam;
        }
        let mut bot = Bot::with_config(config)
            .with_perfect_clears(true)
            .with_pc_odds(6000);
        let mut other = Bot::el_tetris(Some(200));
        let mut m = Match::new(MatchHeader {
            handling: [BOT_HANDLING; 2],
            ..MatchHeader::versus(seed)
        });
        for _ in 0..6000 {
            if Seat::BOTH
                .iter()
                .any(|&s| m.player(s).topped_out().is_some())
            {
                break;
            }
            let input = match bot.drive(&m, Seat::First) {
                Drive::Input(i) => i,
                Drive::Think => {
                    let (player, rules, frame) =
                        (m.player(Seat::First), m.header().rules, m.frame().0);
                    let at = |call: &str| format!("seed {seed}, frame {frame}{call}");
                    let t = Instant::now();
                    bot.begin_think(player, &rules, frame);
                    steps.push(Step {
                        took: t.elapsed(),
                        stage: "begin",
                        at: at(""),
                    });
                    let mut call = 0;
                    let thought = loop {
                        let stage = bot.thinking_stage().unwrap_or("none");
                        let t = Instant::now();
                        let done = bot.think_more(1);
                        steps.push(Step {
                            took: t.elapsed(),
                            stage,
                            at: at(&format!(", step {call}")),
                        });
                        call += 1;
                        if let Some(thought) = done {
                            break thought;
                        }
                    };
                    plans += 1;
                    let t = Instant::now();
                    let input = bot
                        .adopt(player, &rules, frame, &thought)
                        .unwrap_or(Input::NONE);
                    steps.push(Step {
                        took: t.elapsed(),
                        stage: "adopt",
                        at: at(""),
                    });
                    input
                }
            };
            let other_input = other.next_input(&m, Seat::Second);
            m.step([input, other_input]);
        }
    }
    (steps, plans)
}
