//! The bot's benchmarks, printed as a table (no criterion): move generation speed on named
//! boards, the bot's speed at each level, and the strongest level against El-Tetris.
//!
//! `cargo bench -p sevenbag-bot` (set `BOT_BENCH_GAMES` to change the 100 versus games).

use std::hint::black_box;
use std::time::Instant;

use sevenbag_bot::{
    BOT_HANDLING, BitBoard, Bot, Level, MoveGen, play_game, play_solo, spawn_position,
};
use sevenbag_core::{MatchHeader, PieceKind, Rules, Seat};

/// Boards named for what they test, top row first.
const BOARDS: [(&str, &[&str]); 3] = [
    ("empty", &[]),
    (
        "typical",
        &[
            "......#...",
            "#....###..",
            "##..####.#",
            "###.######",
            "####.#####",
        ],
    ),
    (
        "messy",
        &[
            "#...#.....",
            "##..##..#.",
            "#.#.###.##",
            "##.##.####",
            "#.####.###",
            "###.####.#",
            ".#########",
            "####.#####",
        ],
    ),
];

fn movegen_bench() {
    println!("## movegen (current piece, no hold; all 7 kinds in turn)");
    println!(
        "{:<8} {:>12} {:>14} {:>16}",
        "board", "µs/piece", "placements", "placements/s"
    );
    for (name, rows) in BOARDS {
        let board = BitBoard::from_rows(rows);
        let mut movegen = MoveGen::new();
        let mut out = Vec::new();
        let starts: Vec<_> = PieceKind::ALL
            .iter()
            .filter_map(|&k| spawn_position(&board, k))
            .collect();
        let rounds = 20_000;
        let mut total = 0usize;
        let t = Instant::now();
        for i in 0..rounds {
            out.clear();
            let start = starts[i % starts.len()];
            movegen.generate(black_box(&board), start, true, false, &mut out);
            total += out.len();
        }
        let secs = t.elapsed().as_secs_f64();
        println!(
            "{name:<8} {:>12.2} {:>14.1} {:>16.0}",
            secs * 1e6 / rounds as f64,
            total as f64 / rounds as f64,
            total as f64 / secs
        );
    }
}

fn level_bench() {
    println!();
    println!("## levels (solo, 200 pieces, seed 1, bot handling)");
    println!(
        "{:<9} {:>10} {:>14} {:>16} {:>12}",
        "level", "game pps", "ms/piece", "compute pps", "attack/piece"
    );
    let rules = Rules::versus();
    for level in Level::ALL {
        let mut bot = Bot::new(level);
        let t = Instant::now();
        let report = play_solo(&mut bot, &rules, BOT_HANDLING, 1, 200);
        let secs = t.elapsed().as_secs_f64();
        let ms = secs * 1000.0 / f64::from(report.pieces);
        println!(
            "{:<9} {:>10.2} {:>14.2} {:>16.0} {:>12.3}",
            level.name(),
            f64::from(report.pieces) * 60.0 / f64::from(report.frames),
            ms,
            1000.0 / ms,
            f64::from(report.attack) / f64::from(report.pieces)
        );
    }
}

fn versus_bench() {
    let games: u32 = std::env::var("BOT_BENCH_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100);
    let level = Level::Max;
    println!();
    println!(
        "## {} vs El-Tetris ({games} games, seeds 0.., alternating seats, same cap, bot handling)",
        level.name()
    );
    let (mut wins, mut losses, mut pieces, mut attack, mut frames) = (0, 0, 0u64, 0u64, 0u64);
    let (mut opp_pieces, mut opp_attack) = (0u64, 0u64);
    let t = Instant::now();
    for g in 0..games {
        let mut bot = Bot::new(level);
        let mut baseline = Bot::el_tetris(level.config().pps_cap_x100);
        let header = MatchHeader {
            handling: [BOT_HANDLING; 2],
            ..MatchHeader::versus(u64::from(g))
        };
        let seat = if g % 2 == 0 {
            Seat::First
        } else {
            Seat::Second
        };
        let report = if seat == Seat::First {
            play_game(&mut bot, &mut baseline, header, 1000)
        } else {
            play_game(&mut baseline, &mut bot, header, 1000)
        };
        let i = seat.index();
        pieces += u64::from(report.pieces[i]);
        attack += u64::from(report.attack[i]);
        opp_pieces += u64::from(report.pieces[1 - i]);
        opp_attack += u64::from(report.attack[1 - i]);
        frames += u64::from(report.frames);
        match report.winner {
            Some(w) if w == seat => wins += 1,
            Some(_) => losses += 1,
            None => {}
        }
    }
    println!(
        "wins {wins}/{games} ({:.1}%), losses {losses}, draws {}",
        100.0 * f64::from(wins) / f64::from(games),
        games - wins - losses
    );
    println!(
        "bot attack/piece {:.3}, El-Tetris attack/piece {:.3}, bot pps {:.2}, {:.1} pieces a game",
        attack as f64 / pieces as f64,
        opp_attack as f64 / opp_pieces.max(1) as f64,
        pieces as f64 * 60.0 / frames as f64,
        pieces as f64 / f64::from(games)
    );
    println!("wall clock {:.1} s", t.elapsed().as_secs_f64());
}

fn main() {
    // `cargo bench` passes `--bench`; a filter argument selects sections.
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let wants = |name: &str| filter.is_empty() || filter.iter().any(|f| name.contains(f.as_str()));
    if wants("movegen") {
        movegen_bench();
    }
    if wants("levels") {
        level_bench();
    }
    if wants("versus") {
        versus_bench();
    }
}
