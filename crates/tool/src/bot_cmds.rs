//! Bot subcommands: `movegen` lists every placement of a piece on a board, `botmatch` plays
//! bot-vs-bot versus games (against El-Tetris, itself or any TBP bot) and prints wins, attack per
//! piece, pieces per second and top outs; `tbp` speaks the Tetris Bot Protocol on stdin/stdout.
//!
//! Both output formats are documented in docs/BOT.md.

mod botmatch;

use std::path::PathBuf;

use anyhow::Context as _;
use clap::Args;
use sevenbag_bot::{BOT_HANDLING, Level, PlayerSim, Target, compile, find_moves};
use sevenbag_core::{Board, Handling, Input, PieceKind, Preset, Spin};

/// Subcommands that inspect and measure the bot.
#[derive(clap::Subcommand, Debug)]
pub enum BotCommand {
    /// Print every placement of a piece (and of the hold piece) on a board, one per line:
    /// `piece rotation x y spin frames` (docs/BOT.md).
    Movegen(MovegenArgs),
    /// Play bot-vs-bot versus games on real matches and print wins, attack per piece, pieces
    /// per second and top outs.
    Botmatch(botmatch::BotmatchArgs),
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

/// Runs a bot subcommand.
pub fn run(command: BotCommand) -> anyhow::Result<()> {
    match command {
        BotCommand::Movegen(args) => movegen(args),
        BotCommand::Botmatch(args) => botmatch::run(args),
        BotCommand::Tbp(args) => {
            let stdin = std::io::stdin();
            let stdout = std::io::stdout();
            sevenbag_tbp::serve(args.level, &mut stdin.lock(), &mut stdout.lock())
                .context("TBP session failed")
        }
    }
}
