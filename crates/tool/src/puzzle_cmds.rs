//! Puzzle subcommands: `puzzle gen` makes a puzzle and prints it with one solution, `puzzle
//! check FILE` replays that solution through the core, `puzzle solve FILE` counts solutions.
//! The format is docs/PUZZLES.md; all the work is in `sevenbag_puzzle`.

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use sevenbag_protocol::file::read_limited;
use sevenbag_puzzle::{Difficulty, Kind, Limits, Options, Puzzle};

/// Subcommands over generated puzzles.
#[derive(clap::Subcommand, Debug)]
pub enum PuzzleCommand {
    /// Generate, check and solve puzzles (perfect clear, T-spin, dig).
    #[command(subcommand)]
    Puzzle(PuzzleAction),
}

/// What to do.
#[derive(clap::Subcommand, Debug)]
pub enum PuzzleAction {
    /// Generate a puzzle from a seed and print it with one solution (docs/PUZZLES.md).
    Gen {
        /// pc, tspin or dig.
        #[arg(long, value_parser = parse_kind, required_unless_present = "code")]
        kind: Option<Kind>,
        /// Generator seed.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// PC height (2, 4), T-spin lines (2, 3) or garbage rows (1-4); default per kind.
        #[arg(long)]
        rows: Option<u8>,
        /// Pieces in the queue; default per kind.
        #[arg(long)]
        pieces: Option<u8>,
        /// Allow hold.
        #[arg(long)]
        hold: bool,
        /// Try seeds from --seed on (at most 50) until one grades easy, medium or hard.
        #[arg(long, value_parser = parse_difficulty)]
        difficulty: Option<Difficulty>,
        /// A share code (e.g. p24n-2s) instead of --kind/--seed/--rows/--pieces/--hold.
        #[arg(long, conflicts_with_all = ["kind", "rows", "pieces", "hold"])]
        code: Option<String>,
    },
    /// Replay a puzzle file's solution through the core; exit 0 only if it reaches the goal.
    Check {
        /// The puzzle file.
        file: PathBuf,
    },
    /// Count the distinct solutions of a puzzle file (up to a cap).
    Solve {
        /// The puzzle file.
        file: PathBuf,
        /// Stop counting at this many solutions.
        #[arg(long, default_value_t = 100)]
        cap: u32,
        /// Stop after this many search nodes.
        #[arg(long, default_value_t = 2_000_000)]
        max_nodes: u64,
    },
}

fn parse_kind(s: &str) -> Result<Kind, String> {
    Kind::from_name(s).ok_or_else(|| format!("unknown kind `{s}`: pc, tspin or dig"))
}

fn parse_difficulty(s: &str) -> Result<Difficulty, String> {
    Difficulty::from_name(s)
        .ok_or_else(|| format!("unknown difficulty `{s}`: easy, medium or hard"))
}

/// Runs a puzzle subcommand.
pub fn run(command: PuzzleCommand) -> anyhow::Result<()> {
    let PuzzleCommand::Puzzle(action) = command;
    match action {
        PuzzleAction::Gen {
            kind,
            seed,
            rows,
            pieces,
            hold,
            difficulty,
            code,
        } => {
            let (options, seed) = match code {
                Some(c) => sevenbag_puzzle::parse_code(&c).context("bad puzzle code")?,
                None => {
                    let kind = kind.context("--kind is required")?;
                    let d = Options::default_for(kind);
                    let options = Options {
                        kind,
                        rows: rows.unwrap_or(d.rows),
                        pieces: pieces.unwrap_or(d.pieces),
                        hold,
                    };
                    (options, seed)
                }
            };
            let generated = match difficulty {
                Some(want) => sevenbag_puzzle::generate_graded(&options, seed, want, 50)?,
                None => sevenbag_puzzle::generate(&options, seed)?,
            };
            let p = &generated.puzzle;
            print!("{}", sevenbag_puzzle::to_text(p));
            eprintln!(
                "code {} · {} placements tried, {} dead ends, {} restarts",
                sevenbag_puzzle::code(&p.options, p.seed),
                generated.stats.steps,
                generated.stats.dead_ends,
                generated.stats.restarts
            );
        }
        PuzzleAction::Check { file } => {
            let puzzle = load(&file)?;
            match sevenbag_puzzle::check(&puzzle) {
                Ok(frames) => println!(
                    "ok: {} placements reach the goal ({}) in {frames} frames",
                    puzzle.solution.len(),
                    sevenbag_puzzle::format::goal_text(&puzzle.goal())
                ),
                Err(e) => bail!("{}: the solution does not check out: {e}", file.display()),
            }
        }
        PuzzleAction::Solve {
            file,
            cap,
            max_nodes,
        } => {
            let puzzle = load(&file)?;
            let report = sevenbag_puzzle::solve(&puzzle, Limits { cap, max_nodes });
            let grade = report.grade();
            println!(
                "{}{} solutions ({}), {} search nodes, difficulty {}",
                report.solutions,
                if report.complete { "" } else { "+" },
                if report.complete {
                    "exact"
                } else {
                    "stopped at the cap or node limit"
                },
                report.nodes,
                grade.difficulty().name()
            );
            if report.solutions == 0 && report.complete {
                bail!("{}: no solution exists", file.display());
            }
        }
    }
    Ok(())
}

fn load(file: &Path) -> anyhow::Result<Puzzle> {
    let bytes = read_limited(file, sevenbag_puzzle::format::MAX_BYTES as u64)
        .with_context(|| format!("cannot read {}", file.display()))?;
    let text =
        String::from_utf8(bytes).with_context(|| format!("{}: not UTF-8 text", file.display()))?;
    sevenbag_puzzle::parse(&text).with_context(|| format!("{}", file.display()))
}
