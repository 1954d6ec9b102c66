//! `botmatch`: bot-vs-bot versus games on real matches, against El-Tetris, itself or any TBP
//! bot. A match with an outside (TBP) bot is played fairly: the bot is told the game in TBP's
//! standard flow (or restarted every piece, `--restart every-piece`), both sides get the same
//! wall-clock allowance a piece (`--think-ms`; thinking past it costs the seat frames), our bot
//! thinks on a thread of its own, each side can be pinned to a core (`--pin`), and the CPU time
//! each side used is read from `/proc` and printed per game and in total. The output format is
//! in docs/BOT.md.

use std::time::{Duration, Instant};

use clap::Args;
use sevenbag_bot::{Bot, BotConfig, BotStats, Driver, GameReport, Level, play_game};
use sevenbag_core::{Handling, MatchHeader, Preset, Seat};
use sevenbag_tbp::{
    FlowCounts, Restart, TbpLimits, TbpPlayer, TbpProcess, ThinkTimes, ThreadedBot, cpu,
};

use super::{parse_handling, parse_level, parse_preset};

/// Arguments of `botmatch`.
#[derive(Args, Debug)]
pub struct BotmatchArgs {
    /// Games to play (the bot alternates seats; game g uses seed `seed + g` for both sides).
    #[arg(long, default_value_t = 10)]
    games: u32,
    /// A game ends in a draw when a side has placed this many pieces.
    #[arg(long, default_value_t = 1000)]
    pieces: u32,
    /// The bot's level: beginner, easy, medium, hard or max.
    #[arg(long, default_value = "max", value_parser = parse_level)]
    level: Level,
    /// The opponent: `eltetris` (the baseline, at the same speed cap), `self`, or
    /// `tbp:COMMAND` (any Tetris Bot Protocol bot, started with `sh -c COMMAND`).
    #[arg(long, default_value = "eltetris", value_parser = parse_opponent)]
    opponent: Opponent,
    /// Put a Tetris Bot Protocol bot in the bot's seat instead of our bot at `--level`:
    /// `tbp:COMMAND`. Measures an outside bot against the same opponents and seeds (e.g.
    /// Cold Clear 2 against El-Tetris); `--level` then only sets the default speed cap.
    #[arg(long, value_name = "tbp:COMMAND", value_parser = parse_player)]
    player: Option<String>,
    /// Pieces-per-second cap of both sides (default: the level's own cap).
    #[arg(long)]
    pps: Option<f64>,
    /// With a TBP bot in the match: the wall-clock allowance a piece of every side. The TBP bot
    /// is asked for its move after this long; our bot's thought, and a TBP bot's late answer,
    /// cost the seat the time past it in frames.
    #[arg(long, default_value_t = 100)]
    think_ms: u64,
    /// TBP bot: longest wait for a move (or for `info`/`ready`), in milliseconds.
    #[arg(long, default_value_t = 5000)]
    move_limit_ms: u64,
    /// TBP bot: `on-mismatch` (TBP's standard flow: `start` once, then `play` + `new_piece`;
    /// `stop` + `start` only when the game no longer matches the bot's picture, as when garbage
    /// rose) or `every-piece` (`stop` + `start` before every piece).
    #[arg(long, default_value = "on-mismatch", value_parser = parse_restart)]
    restart: Restart,
    /// With a TBP bot in the match: pin the bot's seat to core A and the opponent to core B
    /// (`A,B`): our bot's thinking thread, or a TBP bot's process and threads. This process's
    /// match loop runs beside our own bot.
    #[arg(long, value_name = "A,B", value_parser = parse_pin)]
    pin: Option<[usize; 2]>,
    /// First seed.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Rules preset: versus, classic or chaos.
    #[arg(long, default_value = "versus", value_parser = parse_preset)]
    preset: Preset,
    /// Handling of both sides: `bot` (DAS 6, ARR 0, SDF 0) or `default` (DAS 10, ARR 2, SDF 20).
    #[arg(long, default_value = "bot", value_parser = parse_handling)]
    handling: Handling,
    /// Print one line per game.
    #[arg(long)]
    verbose: bool,
}

/// Who the bot plays in `botmatch`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Opponent {
    /// The El-Tetris baseline.
    ElTetris,
    /// Another bot of the same level.
    SelfPlay,
    /// A TBP bot run as a child process.
    Tbp(String),
}

fn parse_opponent(s: &str) -> Result<Opponent, String> {
    match s {
        "eltetris" => Ok(Opponent::ElTetris),
        "self" => Ok(Opponent::SelfPlay),
        _ => match s.strip_prefix("tbp:") {
            Some(cmd) if !cmd.trim().is_empty() => Ok(Opponent::Tbp(cmd.to_string())),
            _ => Err(format!(
                "unknown opponent {s:?}: use eltetris, self or tbp:COMMAND"
            )),
        },
    }
}

fn parse_player(s: &str) -> Result<String, String> {
    match s.strip_prefix("tbp:") {
        Some(cmd) if !cmd.trim().is_empty() => Ok(cmd.to_string()),
        _ => Err(format!("unknown player {s:?}: use tbp:COMMAND")),
    }
}

fn parse_restart(s: &str) -> Result<Restart, String> {
    Restart::from_name(s)
        .ok_or_else(|| format!("unknown restart policy {s:?}: use on-mismatch or every-piece"))
}

fn parse_pin(s: &str) -> Result<[usize; 2], String> {
    let cores: Vec<usize> = s
        .split(',')
        .map(|c| c.trim().parse::<usize>())
        .collect::<Result<_, _>>()
        .map_err(|_| format!("bad --pin {s:?}: use two core numbers, e.g. 0,1"))?;
    match cores[..] {
        [a, b] => Ok([a, b]),
        _ => Err(format!("bad --pin {s:?}: use two core numbers, e.g. 0,1")),
    }
}

/// One side of a game.
enum Side {
    /// Our bot, thinking on the match's thread (matches without an outside bot).
    Inline(Box<Bot>),
    /// Our bot, thinking on a thread of its own (matches with an outside bot).
    Threaded(Box<ThreadedBot>),
    /// An outside bot.
    Tbp(Box<TbpPlayer>),
}

impl Side {
    fn driver(&mut self) -> &mut dyn Driver {
        match self {
            Side::Inline(b) => b.as_mut(),
            Side::Threaded(b) => b.as_mut(),
            Side::Tbp(t) => t.as_mut(),
        }
    }

    /// The CPU time this side's thinking used so far (`None`: not measured).
    fn cpu(&self) -> Option<Duration> {
        match self {
            Side::Inline(_) => None,
            Side::Threaded(b) => b.cpu(),
            Side::Tbp(t) => cpu::process_tree_cpu(t.pid()),
        }
    }

    fn times(&self) -> Option<&ThinkTimes> {
        match self {
            Side::Inline(_) => None,
            Side::Threaded(b) => Some(b.times()),
            Side::Tbp(t) => Some(t.times()),
        }
    }

    fn bot_stats(&self) -> Option<&BotStats> {
        match self {
            Side::Inline(b) => Some(b.stats()),
            Side::Threaded(b) => Some(b.stats()),
            Side::Tbp(_) => None,
        }
    }

    /// Pins this side's thinking to `core`; says what was pinned.
    fn pin(&self, core: usize) -> anyhow::Result<String> {
        Ok(match self {
            Side::Inline(_) => String::new(),
            Side::Threaded(b) => match b.tid() {
                Some(tid) => format!("our bot's thinking thread ({tid})"),
                None => "our bot's thinking thread".into(),
            },
            Side::Tbp(t) => {
                let n = cpu::pin_process_tree(t.pid(), core)?;
                format!("the TBP bot's {n} threads")
            }
        })
    }
}

/// Totals for one side over all games.
#[derive(Default)]
struct Totals {
    wins: u32,
    pieces: u64,
    attack: u64,
    frames: u64,
    top_outs: u32,
    /// CPU time measured, and the pieces of the games it was measured in.
    cpu: Option<(Duration, u64)>,
    times: Option<ThinkTimes>,
    flow: Option<FlowCounts>,
    bot: Option<BotStats>,
}

impl Totals {
    fn line(&self, name: &str) -> String {
        let app = self.attack as f64 / self.pieces.max(1) as f64;
        let pps = self.pieces as f64 * 60.0 / self.frames.max(1) as f64;
        format!(
            "{name:<9} wins {:>4}  attack/piece {app:.3}  pieces/s {pps:.2}  top outs {}",
            self.wins, self.top_outs
        )
    }

    /// `cpu 24.1 ms/piece (total 400.2 s)  thinking 25.3 ms/piece, longest 201 ms, late 1 (2
    /// frames)`, or `None` when nothing was measured.
    fn compute_line(&self, name: &str) -> Option<String> {
        let cpu = match self.cpu {
            Some((t, pieces)) => format!(
                "cpu {:.1} ms/piece (total {:.1} s)",
                ms(t) / pieces.max(1) as f64,
                t.as_secs_f64()
            ),
            None => "cpu not measured".into(),
        };
        let t = self.times?;
        Some(format!(
            "{name:<9} {cpu}  thinking {:.1} ms/piece, longest {:.0} ms, late {} ({} frames)",
            ms(t.mean()),
            ms(t.max),
            t.late,
            t.late_frames
        ))
    }

    fn add_game(&mut self, report: &GameReport, seat: Seat, side: &Side, cpu: Option<Duration>) {
        let i = seat.index();
        self.pieces += u64::from(report.pieces[i]);
        self.attack += u64::from(report.attack[i]);
        self.frames += u64::from(report.frames);
        self.top_outs += u32::from(report.topped_out[i]);
        self.wins += u32::from(report.winner == Some(seat));
        if let Some(c) = cpu {
            let (t, n) = self.cpu.get_or_insert_default();
            *t += c;
            *n += u64::from(report.pieces[i]);
        }
        if let Some(t) = side.times() {
            self.times.get_or_insert_default().add(t);
        }
        if let Side::Tbp(t) = side {
            self.flow.get_or_insert_default().add(t.counts());
        }
        if let Some(s) = side.bot_stats() {
            let b = self.bot.get_or_insert_default();
            b.plans += s.plans;
            b.replans += s.replans;
            b.compile_failures += s.compile_failures;
            b.fallbacks += s.fallbacks;
            b.nodes += s.nodes;
        }
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// The load averages, for the record.
fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

/// How the sides are made, game after game.
struct Setup<'a> {
    args: &'a BotmatchArgs,
    config: BotConfig,
    limits: TbpLimits,
    /// Whether an outside bot plays (then our bots think on threads of their own).
    fair: bool,
}

impl Setup<'_> {
    fn our_bot(&self, core: Option<usize>) -> anyhow::Result<Side> {
        let bot = Bot::with_config(self.config).with_perfect_clears(self.args.level == Level::Max);
        Ok(if self.fair {
            Side::Threaded(Box::new(ThreadedBot::new(bot, self.limits, core)?))
        } else {
            Side::Inline(Box::new(bot))
        })
    }

    fn tbp(&self, cmd: &str) -> anyhow::Result<Side> {
        let process = TbpProcess::spawn(cmd, self.limits.move_limit)?;
        Ok(Side::Tbp(Box::new(
            TbpPlayer::new(process, self.limits)
                .with_restart(self.args.restart)
                .charging_overruns(),
        )))
    }

    /// The bot's seat and the opponent, each pinned to its core when asked.
    fn sides(&self) -> anyhow::Result<[Side; 2]> {
        let [a, b] = match self.args.pin {
            Some([a, b]) => [Some(a), Some(b)],
            None => [None, None],
        };
        let player = match &self.args.player {
            Some(cmd) => self.tbp(cmd)?,
            None => self.our_bot(a)?,
        };
        let opponent = match &self.args.opponent {
            Opponent::ElTetris => Side::Inline(Box::new(Bot::el_tetris(self.config.pps_cap_x100))),
            Opponent::SelfPlay => self.our_bot(b)?,
            Opponent::Tbp(cmd) => self.tbp(cmd)?,
        };
        Ok([player, opponent])
    }
}

/// Runs `botmatch`.
pub fn run(args: BotmatchArgs) -> anyhow::Result<()> {
    anyhow::ensure!(args.games > 0, "--games must be at least 1");
    anyhow::ensure!(args.pieces > 0, "--pieces must be at least 1");
    let pps_cap_x100 = match args.pps {
        Some(p) => {
            anyhow::ensure!(p > 0.0 && p <= 60.0, "--pps must be above 0 and at most 60");
            Some((p * 100.0).round() as u32)
        }
        None => args.level.config().pps_cap_x100,
    };
    let fair = args.player.is_some() || matches!(args.opponent, Opponent::Tbp(_));
    anyhow::ensure!(
        fair || args.pin.is_none(),
        "--pin is for matches with a TBP bot"
    );
    let setup = Setup {
        args: &args,
        config: BotConfig {
            pps_cap_x100,
            ..args.level.config()
        },
        limits: TbpLimits {
            think: Duration::from_millis(args.think_ms),
            move_limit: Duration::from_millis(args.move_limit_ms),
            pps_cap_x100,
        },
        fair,
    };
    if let Some([a, b]) = args.pin {
        // The match loop (and El-Tetris, when it plays) runs beside our own bot.
        let main = if args.player.is_none() { a } else { b };
        cpu::pin_current_thread(main)?;
    }
    if fair {
        let pin = match args.pin {
            Some([a, b]) => format!("bot's seat on core {a}, opponent on core {b}"),
            None => "not pinned to cores".into(),
        };
        println!(
            "TBP flow: {}; {} ms of wall clock a piece each; {pin}; load {}",
            args.restart.describe(),
            args.think_ms,
            load()
        );
    }
    let mut names = [None, None];
    let mut totals = [Totals::default(), Totals::default()];
    let mut draws = 0;
    let started = Instant::now();
    for g in 0..args.games {
        let mut sides = setup.sides()?;
        if let Some(cores) = args.pin {
            for (side, core) in sides.iter().zip(cores) {
                let what = side.pin(core)?;
                if g == 0 && !what.is_empty() {
                    println!("pinned {what} to core {core}");
                }
            }
        }
        let cpu_before = sides.each_ref().map(Side::cpu);
        let seed = args.seed.wrapping_add(u64::from(g));
        let header = MatchHeader {
            rules: args.preset.rules(),
            handling: [args.handling; 2],
            ..MatchHeader::versus(seed)
        };
        // The bot takes seat 0 in even games and seat 1 in odd ones.
        let bot_seat = if g % 2 == 0 {
            Seat::First
        } else {
            Seat::Second
        };
        let [player, opponent] = &mut sides;
        let report = if bot_seat == Seat::First {
            play_game(player.driver(), opponent.driver(), header, args.pieces)
        } else {
            play_game(opponent.driver(), player.driver(), header, args.pieces)
        };
        let cpu_used = [0, 1].map(|i| {
            let after = sides[i].cpu()?;
            Some(after.saturating_sub(cpu_before[i]?))
        });
        let [player, opponent] = &mut sides;
        if let Some(failure) = player
            .driver()
            .failure()
            .or_else(|| opponent.driver().failure())
        {
            anyhow::bail!("game {g} (seed {seed}): {failure}");
        }
        for (name, side) in names.iter_mut().zip(sides.iter_mut()) {
            if name.is_none() {
                *name = side.driver().name();
            }
        }
        let seats = [bot_seat, bot_seat.other()];
        for i in 0..2 {
            totals[i].add_game(&report, seats[i], &sides[i], cpu_used[i]);
        }
        if report.winner.is_none() {
            draws += 1;
        }
        if args.verbose {
            println!(
                "{}",
                game_line(g, seed, &report, bot_seat, &sides, cpu_used)
            );
        }
    }
    let elapsed = started.elapsed();
    let [player_name, opponent_name] = names;
    let opponent = match &args.opponent {
        Opponent::ElTetris => "eltetris".to_string(),
        Opponent::SelfPlay => "self".to_string(),
        Opponent::Tbp(cmd) => format!("TBP bot {} ({cmd})", opponent_name.unwrap_or_default()),
    };
    let player = match &args.player {
        Some(cmd) => format!("TBP bot {} ({cmd})", player_name.unwrap_or_default()),
        None => format!("level {}", args.level.name()),
    };
    println!(
        "{} games, {player} vs {opponent}, up to {} pieces, draws {draws}",
        args.games, args.pieces
    );
    println!("{}", totals[0].line("bot"));
    println!("{}", totals[1].line("opponent"));
    for (t, name) in totals.iter().zip(["bot", "opponent"]) {
        if let Some(line) = t.compute_line(name) {
            println!("{line}");
        }
        if let Some(flow) = &t.flow {
            println!(
                "{name:<9} TBP flow {}: {}",
                args.restart.name(),
                flow.summary()
            );
        }
    }
    if args.player.is_none()
        && let Some(b) = &totals[0].bot
    {
        println!(
            "bot plans {}, replans {}, unreachable placements {}, fallback drops {}, search nodes {}",
            b.plans, b.replans, b.compile_failures, b.fallbacks, b.nodes
        );
    }
    let load = if fair {
        format!(", load {}", load())
    } else {
        String::new()
    };
    println!(
        "time {:.1} s, {:.2} ms wall clock per bot piece (both sides and the match){load}",
        elapsed.as_secs_f64(),
        elapsed.as_secs_f64() * 1000.0 / totals[0].pieces.max(1) as f64,
    );
    Ok(())
}

/// `game 3 seed 3: bot  pieces 120/118  attack 130/101` and, when measured, `  cpu ms/piece
/// 24.1/245.0  restarts 4`.
fn game_line(
    g: u32,
    seed: u64,
    report: &GameReport,
    bot_seat: Seat,
    sides: &[Side; 2],
    cpu: [Option<Duration>; 2],
) -> String {
    let who = match report.winner {
        Some(s) if s == bot_seat => "bot",
        Some(_) => "opponent",
        None => "draw",
    };
    let [b, o] = [bot_seat.index(), bot_seat.other().index()];
    let mut line = format!(
        "game {g} seed {seed}: {who}  pieces {}/{}  attack {}/{}",
        report.pieces[b], report.pieces[o], report.attack[b], report.attack[o],
    );
    if cpu.iter().any(Option::is_some) {
        let per_piece = |c: Option<Duration>, pieces: u32| {
            c.map_or("-".into(), |c| {
                format!("{:.1}", ms(c) / f64::from(pieces.max(1)))
            })
        };
        line += &format!(
            "  cpu ms/piece {}/{}",
            per_piece(cpu[0], report.pieces[b]),
            per_piece(cpu[1], report.pieces[o])
        );
    }
    let restarts: Vec<String> = sides
        .iter()
        .filter_map(|s| match s {
            Side::Tbp(t) => Some(t.counts().total_restarts().to_string()),
            _ => None,
        })
        .collect();
    if !restarts.is_empty() {
        line += &format!("  restarts {}", restarts.join("/"));
    }
    line
}
