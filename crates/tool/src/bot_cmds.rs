//! Bot subcommands: `movegen` lists every placement of a piece on a board, `botmatch` plays
//! bot-vs-bot versus games (against El-Tetris, itself or any TBP bot) and prints wins, attack per
//! piece, pieces per second and top outs; `tbp` speaks the Tetris Bot Protocol on stdin/stdout.
//!
//! Both output formats are documented in docs/BOT.md.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::Context as _;
use clap::Args;
use sevenbag_bot::{
    BOT_HANDLING, Bot, BotConfig, Driver, Level, PlayerSim, Target, compile, find_moves, play_game,
};
use sevenbag_core::{Board, Handling, Input, MatchHeader, PieceKind, Preset, Seat, Spin};
use sevenbag_tbp::{TbpLimits, TbpPlayer, TbpProcess};

/// Subcommands that inspect and measure the bot.
#[derive(clap::Subcommand, Debug)]
pub enum BotCommand {
    /// Print every placement of a piece (and of the hold piece) on a board, one per line:
    /// `piece rotation x y spin frames` (docs/BOT.md).
    Movegen(MovegenArgs),
    /// Play bot-vs-bot versus games on real matches and print wins, attack per piece, pieces
    /// per second and top outs.
    Botmatch(BotmatchArgs),
    /// Speak the Tetris Bot Protocol on stdin/stdout with our bot (docs/BOT.md).
    Tbp(TbpArgs),
}

/// Arguments of `tbp`.
#[derive(Args, Debug)]
pub struct TbpArgs {
    /// The search budget: easy, medium, hard or max.
    #[arg(long, default_value = "max", value_parser = parse_level)]
    level: Level,
}

/// Arguments of `movegen`.
#[derive(Args, Debug)]
pub struct MovegenArgs {
    /// Board file: rows of `.` (empty) and `#` (filled), top row first, last line is row 0.
    #[arg(long)]
    board: PathBuf,
    /// The piece to place (I, O, T, S, Z, J or L).
    #[arg(long, value_parser = parse_piece)]
    piece: PieceKind,
    /// The piece a hold would swap in (the hold slot, or the next piece if it is empty).
    #[arg(long, value_parser = parse_piece)]
    hold: Option<PieceKind>,
    /// Turn the 180° rotation off.
    #[arg(long)]
    no_180: bool,
    /// DAS in frames for the input count.
    #[arg(long, default_value_t = Handling::default().das)]
    das: u8,
    /// ARR in frames (0: to the wall at once).
    #[arg(long, default_value_t = Handling::default().arr)]
    arr: u8,
    /// Soft drop factor (0: instant).
    #[arg(long, default_value_t = Handling::default().sdf)]
    sdf: u8,
    /// Also print each frame's keys after the count.
    #[arg(long)]
    keys: bool,
}

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
    /// TBP opponent: wall-clock thinking time per piece, in milliseconds.
    #[arg(long, default_value_t = 100)]
    think_ms: u64,
    /// TBP opponent: longest wait for a move (or for `info`/`ready`), in milliseconds.
    #[arg(long, default_value_t = 5000)]
    move_limit_ms: u64,
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

fn parse_piece(s: &str) -> Result<PieceKind, String> {
    let mut chars = s.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => PieceKind::from_letter(c),
        _ => None,
    }
    .ok_or_else(|| format!("unknown piece {s:?}: use one of I O T S Z J L"))
}

fn parse_level(s: &str) -> Result<Level, String> {
    Level::from_name(s)
        .ok_or_else(|| format!("unknown level {s:?}: use beginner, easy, medium, hard or max"))
}

fn parse_handling(s: &str) -> Result<Handling, String> {
    match s {
        "bot" => Ok(BOT_HANDLING),
        "default" => Ok(Handling::default()),
        _ => Err(format!("unknown handling {s:?}: use bot or default")),
    }
}

fn parse_preset(s: &str) -> Result<Preset, String> {
    Preset::from_name(s)
        .ok_or_else(|| format!("unknown preset {s:?}: use versus, classic or chaos"))
}

/// Reads a board file: rows of `.`/`#`, top first, as `Board::from_rows`.
fn read_board(path: &PathBuf) -> anyhow::Result<Board> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read board {}", path.display()))?;
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim_end)
        .filter(|l| !l.is_empty())
        .collect();
    anyhow::ensure!(
        lines.len() <= 40,
        "board {} has more than 40 rows",
        path.display()
    );
    for (i, line) in lines.iter().enumerate() {
        anyhow::ensure!(
            line.chars().count() == 10 && line.chars().all(|c| c == '.' || c == '#'),
            "board {} line {}: expected 10 characters of '.' or '#', got {line:?}",
            path.display(),
            i + 1
        );
    }
    Ok(Board::from_rows(&lines))
}

/// One frame's keys as a token: `<` left, `>` right, `v` soft drop, `V` hard drop, `c` clockwise,
/// `a` counter-clockwise, `f` 180°, `h` hold, `.` nothing.
fn keys_token(input: Input) -> String {
    let names = [
        (Input::HOLD, 'h'),
        (Input::ROTATE_CW, 'c'),
        (Input::ROTATE_CCW, 'a'),
        (Input::ROTATE_180, 'f'),
        (Input::LEFT, '<'),
        (Input::RIGHT, '>'),
        (Input::SOFT_DROP, 'v'),
        (Input::HARD_DROP, 'V'),
    ];
    let token: String = names
        .iter()
        .filter(|(k, _)| input.contains(*k))
        .map(|&(_, c)| c)
        .collect();
    if token.is_empty() { ".".into() } else { token }
}

fn spin_name(spin: Spin) -> &'static str {
    match spin {
        Spin::None => "none",
        Spin::Mini => "mini",
        Spin::Full => "full",
    }
}

fn movegen(args: MovegenArgs) -> anyhow::Result<()> {
    let board = read_board(&args.board)?;
    let rules = sevenbag_core::Rules {
        allow_180: !args.no_180,
        ..sevenbag_core::Rules::versus()
    };
    let handling = Handling {
        das: args.das,
        arr: args.arr,
        sdf: args.sdf,
        ..Handling::default()
    };
    handling
        .validate()
        .map_err(|e| anyhow::anyhow!("bad handling: {e}"))?;
    let mut placements = find_moves(&board, args.piece, args.hold, rules.allow_180);
    placements.sort_by_key(|p| (p.hold, p.piece.rotation, p.piece.x, p.piece.y));
    let sim = PlayerSim::before_spawn(&board, args.piece, args.hold, &rules, handling, Input::NONE);
    for p in &placements {
        let inputs = compile(&sim, &Target::from(p), Default::default());
        let count = inputs
            .as_ref()
            .map_or_else(|| "-".to_string(), |i| i.len().to_string());
        let mut line = format!(
            "{} {} {} {} {} {}",
            p.piece.kind.letter(),
            p.piece.rotation.name(),
            p.piece.x,
            p.piece.y,
            spin_name(p.spin),
            count
        );
        if args.keys
            && let Some(inputs) = inputs
        {
            for i in inputs {
                line.push(' ');
                line.push_str(&keys_token(i));
            }
        }
        println!("{line}");
    }
    Ok(())
}

/// Totals for one side over all games.
#[derive(Default)]
struct Side {
    wins: u32,
    pieces: u64,
    attack: u64,
    frames: u64,
    top_outs: u32,
}

impl Side {
    fn line(&self, name: &str) -> String {
        let app = self.attack as f64 / self.pieces.max(1) as f64;
        let pps = self.pieces as f64 * 60.0 / self.frames.max(1) as f64;
        format!(
            "{name:<9} wins {:>4}  attack/piece {app:.3}  pieces/s {pps:.2}  top outs {}",
            self.wins, self.top_outs
        )
    }
}

fn botmatch(args: BotmatchArgs) -> anyhow::Result<()> {
    anyhow::ensure!(args.games > 0, "--games must be at least 1");
    anyhow::ensure!(args.pieces > 0, "--pieces must be at least 1");
    let pps_cap_x100 = match args.pps {
        Some(p) => {
            anyhow::ensure!(p > 0.0 && p <= 60.0, "--pps must be above 0 and at most 60");
            Some((p * 100.0).round() as u32)
        }
        None => args.level.config().pps_cap_x100,
    };
    let make_bot = || {
        Bot::with_config(BotConfig {
            pps_cap_x100,
            ..args.level.config()
        })
        .with_perfect_clears(args.level == Level::Max)
    };
    let limits = TbpLimits {
        think: Duration::from_millis(args.think_ms),
        move_limit: Duration::from_millis(args.move_limit_ms),
        pps_cap_x100,
    };
    let make_tbp = |cmd: &str| -> anyhow::Result<TbpPlayer> {
        Ok(TbpPlayer::new(
            TbpProcess::spawn(cmd, limits.move_limit)?,
            limits,
        ))
    };
    let make_opponent = || -> anyhow::Result<Box<dyn Driver>> {
        Ok(match &args.opponent {
            Opponent::ElTetris => Box::new(Bot::el_tetris(pps_cap_x100)),
            Opponent::SelfPlay => Box::new(make_bot()),
            Opponent::Tbp(cmd) => Box::new(make_tbp(cmd)?),
        })
    };
    let mut tbp_name = None;
    let mut player_name = None;
    let mut sides = [Side::default(), Side::default()];
    let mut draws = 0;
    let started = Instant::now();
    let mut bot_stats = sevenbag_bot::BotStats::default();
    for g in 0..args.games {
        let mut bot = make_bot();
        let mut outside = args.player.as_deref().map(make_tbp).transpose()?;
        let player: &mut dyn Driver = match &mut outside {
            Some(tbp) => tbp,
            None => &mut bot,
        };
        let mut opponent = make_opponent()?;
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
        let report = if bot_seat == Seat::First {
            play_game(player, opponent.as_mut(), header, args.pieces)
        } else {
            play_game(opponent.as_mut(), player, header, args.pieces)
        };
        if let Some(failure) = player.failure().or_else(|| opponent.failure()) {
            anyhow::bail!("game {g} (seed {seed}): {failure}");
        }
        if tbp_name.is_none() {
            tbp_name = opponent.name();
        }
        if player_name.is_none() {
            player_name = player.name();
        }
        let st = bot.stats();
        bot_stats.plans += st.plans;
        bot_stats.replans += st.replans;
        bot_stats.compile_failures += st.compile_failures;
        bot_stats.fallbacks += st.fallbacks;
        bot_stats.nodes += st.nodes;
        for (side, seat) in [(0, bot_seat), (1, bot_seat.other())] {
            let s = &mut sides[side];
            let i = seat.index();
            s.pieces += u64::from(report.pieces[i]);
            s.attack += u64::from(report.attack[i]);
            s.frames += u64::from(report.frames);
            s.top_outs += u32::from(report.topped_out[i]);
            s.wins += u32::from(report.winner == Some(seat));
        }
        if report.winner.is_none() {
            draws += 1;
        }
        if args.verbose {
            let who = match report.winner {
                Some(s) if s == bot_seat => "bot",
                Some(_) => "opponent",
                None => "draw",
            };
            println!(
                "game {g} seed {seed}: {who}  pieces {}/{}  attack {}/{}",
                report.pieces[bot_seat.index()],
                report.pieces[bot_seat.other().index()],
                report.attack[bot_seat.index()],
                report.attack[bot_seat.other().index()],
            );
        }
    }
    let elapsed = started.elapsed();
    let opponent = match &args.opponent {
        Opponent::ElTetris => "eltetris".to_string(),
        Opponent::SelfPlay => "self".to_string(),
        Opponent::Tbp(cmd) => format!("TBP bot {} ({cmd})", tbp_name.unwrap_or_default()),
    };
    let player = match &args.player {
        Some(cmd) => format!("TBP bot {} ({cmd})", player_name.unwrap_or_default()),
        None => format!("level {}", args.level.name()),
    };
    println!(
        "{} games, {player} vs {opponent}, up to {} pieces, draws {draws}",
        args.games, args.pieces
    );
    println!("{}", sides[0].line("bot"));
    println!("{}", sides[1].line("opponent"));
    if args.player.is_some() {
        // Our bot did not play: no planning figures to give.
        return Ok(());
    }
    println!(
        "bot plans {}, replans {}, unreachable placements {}, fallback drops {}, search nodes {}",
        bot_stats.plans,
        bot_stats.replans,
        bot_stats.compile_failures,
        bot_stats.fallbacks,
        bot_stats.nodes
    );
    println!(
        "time {:.1} s, {:.2} ms wall clock per bot piece (both sides and the match)",
        elapsed.as_secs_f64(),
        elapsed.as_secs_f64() * 1000.0 / sides[0].pieces.max(1) as f64,
    );
    Ok(())
}

/// Runs a bot subcommand.
pub fn run(command: BotCommand) -> anyhow::Result<()> {
    match command {
        BotCommand::Movegen(args) => movegen(args),
        BotCommand::Botmatch(args) => botmatch(args),
        BotCommand::Tbp(args) => {
            let stdin = std::io::stdin();
            let stdout = std::io::stdout();
            sevenbag_tbp::serve(args.level, &mut stdin.lock(), &mut stdout.lock())
                .context("TBP session failed")
        }
    }
}
