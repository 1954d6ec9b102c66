//! Where Max's attack against El-Tetris comes from: botmatch's setup (Max at 4 pieces a second
//! against the El-Tetris baseline, bot handling, seats alternating, seeds `SEED..SEED+GAMES`,
//! games up to 1,000 pieces), with the attack split by the bot's piece number, by kind of clear,
//! and by whether the game had a first-bag perfect clear (by piece 11) and a second one (pieces
//! 12–22), and what El-Tetris sent back over the same games.
//!
//! `cargo run --release -p sevenbag-bot --example attack_breakdown -- [SEED] [GAMES] [--games]`
//! (defaults 0 100); `--odds-limit N` caps the weighing of the odds of a perfect clear beyond
//! the queue at N move-generation calls (as the browser page does; 0: off); `--games` also
//! prints each game's clears (`piece:kind+attack`), El-Tetris's attacks (`eN@PqQ`: N lines,
//! its own queue cancelled first, after the bot's P pieces, leaving Q lines queued against the
//! bot) and the garbage that rose (`gN@P`: N lines after P pieces). It also prints the games
//! the bot did not win and the wall clock of its planning frames (those over 1 ms: the 99th
//! percentile and the slowest; these depend on the machine). The rest is deterministic, and its
//! total is `botmatch --level max`'s.
//!
//! `--ten` plays instead the ten 100-game seed sets the bot's El-Tetris figures are measured on
//! (from 0, 1000 and 5000, which tuning has seen, and the seven held-out sets from 2000, 3000,
//! 4000, 6000, 7000, 8000 and 9000), one set per core at a time, and prints a line a set and
//! the totals over all ten and over the held-out seven, each with its standard error (about 2.5
//! minutes on two cores). Seventeen sessions of keeping and dropping changes by these sets
//! made them read about 0.016 high (BENCHMARKS.md): decide on `--fresh` seeds instead.
//!
//! `--fresh SEED SETS` plays SETS sets of 100 games from SEED (seeds `SEED..SEED+100×SETS`, best
//! far from the ten sets, so no tuning has seen them), a set per core at a time, and prints each
//! set and the total with its standard error: how Max measures when the figure must be tighter
//! than the ten sets' (about 0.007). The standard error treats each game as one sample of
//! (attack, pieces), as a ratio estimate.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use sevenbag_bot::{BOT_HANDLING, Bot, BotConfig, Level};
use sevenbag_core::attack::Clear;
use sevenbag_core::{Match, MatchHeader, Seat, Spin};

/// Attack and pieces of a group of games, with the sums of squares their standard error needs.
#[derive(Clone, Copy, Default)]
struct Tally {
    games: u32,
    pieces: u64,
    attack: u64,
    /// Σ attack², Σ attack × pieces and Σ pieces² over the games.
    squares: [u64; 3],
}

impl Tally {
    fn add(&mut self, pieces: u32, attack: u32) {
        let (p, a) = (u64::from(pieces), u64::from(attack));
        self.games += 1;
        self.pieces += p;
        self.attack += a;
        self.squares[0] += a * a;
        self.squares[1] += a * p;
        self.squares[2] += p * p;
    }

    fn merge(&mut self, other: &Tally) {
        self.games += other.games;
        self.pieces += other.pieces;
        self.attack += other.attack;
        for (s, o) in self.squares.iter_mut().zip(other.squares) {
            *s += o;
        }
    }

    fn per_piece(&self) -> f64 {
        self.attack as f64 / self.pieces.max(1) as f64
    }

    /// The standard error of [`Tally::per_piece`] as an estimate of the bot's attack per piece
    /// over all games (the ratio estimator's: games are the samples, so a long game weighs by
    /// its pieces).
    fn standard_error(&self) -> f64 {
        let n = f64::from(self.games);
        if n < 2.0 {
            return f64::NAN;
        }
        let r = self.per_piece();
        let [aa, ap, pp] = self.squares.map(|s| s as f64);
        let residuals = (aa - 2.0 * r * ap + r * r * pp).max(0.0);
        let mean_pieces = self.pieces as f64 / n;
        (residuals / (n * (n - 1.0))).sqrt() / mean_pieces
    }
}

/// A short name for a lock's clear: `PC`, `4` (four lines), `ts2` (T-spin double), `mini1`.
fn clear_name(c: &Clear) -> String {
    if c.perfect {
        return "PC".into();
    }
    let spin = match c.spin {
        Spin::None => "",
        Spin::Mini => "mini",
        Spin::Full => "ts",
    };
    format!("{spin}{}", c.lines)
}

/// The `i`th positional argument (flags and `--odds-limit`'s value skipped), or `default`.
fn arg(positional: &[&String], i: usize, default: u64) -> Result<u64, String> {
    positional.get(i).map_or(Ok(default), |s| {
        s.parse()
            .map_err(|e| format!("argument {} ({s:?}): {e}", i + 1))
    })
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let odds_at = args.iter().position(|a| a == "--odds-limit");
    let odds_limit = match odds_at {
        Some(i) => args
            .get(i + 1)
            .and_then(|s| s.parse().ok())
            .ok_or("--odds-limit needs a number")?,
        None => sevenbag_bot::pc_odds::TOTAL_LIMIT,
    };
    let positional: Vec<&String> = args
        .iter()
        .enumerate()
        .filter(|&(i, a)| !a.starts_with("--") && odds_at.is_none_or(|o| i != o + 1))
        .map(|(_, a)| a)
        .collect();
    if args.iter().any(|a| a == "--ten") {
        return ten_sets(odds_limit);
    }
    let first_seed = arg(&positional, 0, 0)?;
    if args.iter().any(|a| a == "--fresh") {
        return fresh_sets(first_seed, arg(&positional, 1, 10)?, odds_limit);
    }
    let games = arg(&positional, 1, 100)?;
    let each_game = args.iter().any(|a| a == "--games");
    let set = play_set(first_seed, games, odds_limit, each_game);
    set.print(first_seed);
    Ok(())
}

/// What one set of games made, split every way the example prints.
#[derive(Default)]
struct SetReport {
    /// Attack and pieces by the bot's piece number, in tens (the last bucket holds the rest).
    by_piece: [(u64, u64); 10],
    /// Locks and attack by kind of clear (`none` for a lock that clears nothing).
    by_clear: BTreeMap<String, (u64, u64)>,
    /// By (first perfect clear, second perfect clear).
    by_class: BTreeMap<(bool, bool), Tally>,
    total: Tally,
    /// El-Tetris's attack and pieces over the same games: what it sends back.
    opponent: Tally,
    /// Games the bot did not win (El-Tetris won, or the piece cap came first).
    not_won: u32,
    /// Wall-clock time of each bot frame that took over a millisecond (a frame where it planned).
    slow_frames: Vec<std::time::Duration>,
}

/// Plays games `first_seed..first_seed + games` in botmatch's setup, printing each game's line
/// when `each_game`.
fn play_set(first_seed: u64, games: u64, odds_limit: u64, each_game: bool) -> SetReport {
    let mut set = SetReport::default();
    for g in 0..games {
        let seed = first_seed + g;
        let mut bot = Bot::with_config(BotConfig {
            pps_cap_x100: Some(400),
            ..Level::Max.config()
        })
        .with_perfect_clears(true)
        .with_pc_odds(odds_limit);
        let mut baseline = Bot::el_tetris(Some(400));
        let mut header = MatchHeader {
            handling: [BOT_HANDLING; 2],
            ..MatchHeader::versus(seed)
        };
        header.rules.first_to = 1;
        let mut m = Match::new(header);
        let seat = if g % 2 == 0 {
            Seat::First
        } else {
            Seat::Second
        };
        let mut log = String::new();
        let mut perfect = Vec::new();
        while m.winner().is_none() && m.frame().0 < 600_000 {
            if m.player(seat).stats().pieces >= 1000 {
                break;
            }
            let started = std::time::Instant::now();
            let mine = bot.next_input(&m, seat);
            let took = started.elapsed();
            if took.as_micros() >= 1000 {
                set.slow_frames.push(took);
            }
            let theirs = baseline.next_input(&m, seat.other());
            let (a, b) = if seat == Seat::First {
                (mine, theirs)
            } else {
                (theirs, mine)
            };
            m.step([a, b]);
            let events = m.player(seat).events();
            if events.garbage_risen > 0 {
                let placed = m.player(seat).stats().pieces;
                log.push_str(&format!(" g{}@{placed}", events.garbage_risen));
            }
            if let Some(lock) = m.player(seat.other()).events().locked
                && lock.attack.lines > 0
            {
                let placed = m.player(seat).stats().pieces;
                let queued = m.player(seat).garbage().total();
                log.push_str(&format!(" e{}@{placed}q{queued}", lock.attack.lines));
            }
            if let Some(lock) = events.locked {
                let n = m.player(seat).stats().pieces;
                let bucket = &mut set.by_piece[((n.max(1) - 1) / 10).min(9) as usize];
                bucket.0 += u64::from(lock.attack.lines);
                bucket.1 += 1;
                let name = if lock.clear.lines == 0 {
                    "none".to_string()
                } else {
                    clear_name(&lock.clear)
                };
                let c = set.by_clear.entry(name.clone()).or_default();
                c.0 += 1;
                c.1 += u64::from(lock.attack.lines);
                if lock.clear.lines > 0 {
                    log.push_str(&format!(" {n}:{name}+{}", lock.attack.lines));
                }
                if lock.clear.perfect {
                    perfect.push(n);
                }
            }
            if matches!(m.events().round_over, Some(None)) {
                break;
            }
        }
        set.not_won += u32::from(m.winner() != Some(seat));
        let st = m.player(seat).stats();
        set.total.add(st.pieces, st.attack);
        let os = m.player(seat.other()).stats();
        set.opponent.add(os.pieces, os.attack);
        let class = (
            perfect.iter().any(|&n| n <= 11),
            perfect.iter().any(|&n| (12..=22).contains(&n)),
        );
        set.by_class
            .entry(class)
            .or_default()
            .add(st.pieces, st.attack);
        if each_game {
            println!(
                "game {g} seed {seed}: {} pieces, attack {}, {:.3} |{log}",
                st.pieces,
                st.attack,
                f64::from(st.attack) / f64::from(st.pieces.max(1))
            );
        }
    }
    set
}

impl SetReport {
    /// Prints the set's figures.
    fn print(mut self, first_seed: u64) {
        println!(
            "{} games from seed {first_seed}: attack/piece {:.3} ({} lines over {} pieces), {} not won",
            self.total.games,
            self.total.per_piece(),
            self.total.attack,
            self.total.pieces,
            self.not_won
        );
        println!(
            "  El-Tetris sent {} lines over {} pieces ({:.3} a piece)",
            self.opponent.attack,
            self.opponent.pieces,
            self.opponent.per_piece()
        );
        self.slow_frames.sort();
        if let Some(slowest) = self.slow_frames.last() {
            let p99 = self.slow_frames[self.slow_frames.len() * 99 / 100];
            println!(
                "  bot frames over 1 ms: {}, 99th percentile of those {:.1} ms, slowest {:.1} ms",
                self.slow_frames.len(),
                p99.as_secs_f64() * 1e3,
                slowest.as_secs_f64() * 1e3
            );
        }
        for (i, (attack, pieces)) in self.by_piece.iter().enumerate().filter(|(_, b)| b.1 > 0) {
            let to = if i == 9 {
                "on".into()
            } else {
                (i * 10 + 10).to_string()
            };
            println!(
                "  pieces {:>3}–{to:<3} attack/piece {:.3} ({pieces} pieces)",
                i * 10 + 1,
                *attack as f64 / *pieces as f64
            );
        }
        for (name, (locks, attack)) in self.by_clear.iter() {
            println!("  {name:>5}: {locks:>5} locks, attack {attack}");
        }
        for ((first, second), t) in self.by_class.iter() {
            println!(
                "  first-bag PC {:<3} second PC {:<3} games {:>3}, {:>5.1} pieces each, attack/piece {:.3}",
                if *first { "yes" } else { "no" },
                if *second { "yes" } else { "no" },
                t.games,
                t.pieces as f64 / f64::from(t.games.max(1)),
                t.per_piece()
            );
        }
    }
}

/// The seed sets of Max's El-Tetris figures (first seeds of 100 games each): the three tuning has
/// seen, then the seven held out.
const TEN_SETS: [u64; 10] = [0, 1000, 5000, 2000, 3000, 4000, 6000, 7000, 8000, 9000];
/// How many of [`TEN_SETS`] tuning has seen.
const TUNED: usize = 3;

/// Plays 100 games from each seed of `seeds`, a set per core at a time.
fn play_sets(seeds: &[u64], odds_limit: u64) -> Result<Vec<SetReport>, String> {
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(seeds.len());
    let next = AtomicUsize::new(0);
    let reports: Vec<Mutex<Option<SetReport>>> = seeds.iter().map(|_| Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&seed) = seeds.get(i) else { break };
                    let report = play_set(seed, 100, odds_limit, false);
                    if let Ok(mut slot) = reports[i].lock() {
                        *slot = Some(report);
                    }
                }
            });
        }
    });
    seeds
        .iter()
        .zip(reports)
        .map(|(seed, slot)| {
            slot.into_inner()
                .map_err(|_| format!("the set from seed {seed} panicked"))?
                .ok_or_else(|| format!("the set from seed {seed} did not finish"))
        })
        .collect()
}

/// A total's line: attack per piece, lines over pieces, and the standard error.
fn total_line(t: &Tally) -> String {
    format!(
        "attack/piece {:.4} ({} lines over {} pieces, {} games), standard error {:.4}",
        t.per_piece(),
        t.attack,
        t.pieces,
        t.games,
        t.standard_error()
    )
}

/// Plays `sets` fresh sets of 100 games from `first_seed` (seeds no tuning has seen, for a
/// figure tighter than the ten sets') and prints each set's figure and the total with its
/// standard error.
fn fresh_sets(first_seed: u64, sets: u64, odds_limit: u64) -> Result<(), String> {
    let seeds: Vec<u64> = (0..sets).map(|i| first_seed + 100 * i).collect();
    let mut all = Tally::default();
    for (seed, report) in seeds.iter().zip(play_sets(&seeds, odds_limit)?) {
        let t = &report.total;
        println!(
            "seeds {seed}..{}: attack/piece {:.3} ({} lines over {} pieces), {} not won",
            seed + 99,
            t.per_piece(),
            t.attack,
            t.pieces,
            report.not_won
        );
        all.merge(t);
    }
    println!("all {sets} sets: {}", total_line(&all));
    Ok(())
}

/// Plays the ten sets, a set per core at a time, and prints a line a set and the totals.
fn ten_sets(odds_limit: u64) -> Result<(), String> {
    let reports = play_sets(&TEN_SETS, odds_limit)?;
    let (mut all, mut held_out, mut sum_of_rates) = (Tally::default(), Tally::default(), 0.0);
    for (i, (seed, report)) in TEN_SETS.iter().zip(&reports).enumerate() {
        let t = &report.total;
        let games_where = |first: bool, second: Option<bool>| -> u32 {
            report
                .by_class
                .iter()
                .filter(|((f, s), _)| *f == first && second.is_none_or(|x| x == *s))
                .map(|(_, t)| t.games)
                .sum()
        };
        println!(
            "seeds {seed}..{}{}: attack/piece {:.3} ({} lines over {} pieces), first-bag PCs {}, both PCs {}, {} not won",
            seed + 99,
            if i < TUNED { " (tuned)" } else { "" },
            t.per_piece(),
            t.attack,
            t.pieces,
            games_where(true, None),
            games_where(true, Some(true)),
            report.not_won
        );
        all.merge(t);
        sum_of_rates += t.per_piece();
        if i >= TUNED {
            held_out.merge(t);
        }
    }
    println!(
        "all ten: {}, mean of the ten sets {:.4}",
        total_line(&all),
        sum_of_rates / TEN_SETS.len() as f64
    );
    println!("held-out seven: {}", total_line(&held_out));
    Ok(())
}
