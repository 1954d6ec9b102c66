//! Challenge subcommands: `challenge sequence` prints the fixed brick sequence, `challenge score`
//! verifies and scores a record, `challenge solve` runs the beam-search solver. The rules,
//! record format and solver live in `sevenbag_challenge`; this module reads files and prints.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use sevenbag_challenge::solver::eval::Weights;
use sevenbag_challenge::solver::{self, Config, Limits, State};
use sevenbag_challenge::{MAX_BRICKS, Sequence, record, score};

/// Subcommands of the fixed-sequence challenge.
#[derive(clap::Subcommand, Debug)]
pub enum ChallengeCommand {
    /// The 2021 fixed-sequence challenge (docs/CHALLENGE.md).
    #[command(subcommand)]
    Challenge(ChallengeAction),
}

/// What to do.
#[derive(clap::Subcommand, Debug)]
pub enum ChallengeAction {
    /// Print the first N bricks as type letter + starting state (e.g. `Z0 I1 O2`).
    Sequence {
        #[arg(long, default_value_t = 24)]
        count: usize,
    },
    /// Validate and replay a record; print its score and why the game ended.
    Score {
        /// The record file (`N,C1,L4,D18,N,...`).
        record: PathBuf,
    },
    /// Search for a high-scoring record.
    Solve {
        /// Time budget in minutes (the beam width adapts to it unless --width is given).
        #[arg(long)]
        minutes: Option<f64>,
        /// Where to write the record.
        #[arg(long)]
        out: PathBuf,
        /// Worker threads.
        #[arg(long, default_value_t = 2)]
        threads: usize,
        /// Continue from this checkpoint (written beside --out as OUT.ckpt otherwise).
        #[arg(long)]
        resume: Option<PathBuf>,
        /// Fixed beam width: the run is then deterministic for any thread count.
        #[arg(long)]
        width: Option<usize>,
        /// Place only this many bricks (at most 9,999).
        #[arg(long, default_value_t = MAX_BRICKS - 1)]
        bricks: usize,
        /// Checkpoint file (default: OUT with `.ckpt` appended).
        #[arg(long)]
        checkpoint: Option<PathBuf>,
        /// Evaluation weights, comma-separated (see `Weights` in the solver's eval module).
        #[arg(long)]
        weights: Option<String>,
        /// No progress bar (for logs).
        #[arg(long)]
        quiet: bool,
    },
}

/// Runs a challenge subcommand.
pub fn run(command: ChallengeCommand) -> anyhow::Result<()> {
    let ChallengeCommand::Challenge(action) = command;
    match action {
        ChallengeAction::Sequence { count } => {
            let line: Vec<String> = Sequence::new()
                .take(count.min(MAX_BRICKS))
                .map(|b| format!("{}{}", b.kind.letter(), b.state))
                .collect();
            println!("{}", line.join(" "));
            Ok(())
        }
        ChallengeAction::Score { record } => {
            let rec = record::load(&record)?;
            let out = score(&rec);
            println!("score {}", out.score);
            println!("lines {}", out.lines);
            let c = out.clears;
            println!(
                "clears: singles {} doubles {} triples {} tetrises {}",
                c[1], c[2], c[3], c[4]
            );
            println!("bricks spawned {}", out.bricks);
            println!("ended: {}", out.end);
            Ok(())
        }
        ChallengeAction::Solve {
            minutes,
            out,
            threads,
            resume,
            width,
            bricks,
            checkpoint,
            weights,
            quiet,
        } => {
            let mut state = match &resume {
                Some(path) => State::load(path)?,
                None => State::new(Config {
                    width: width.unwrap_or(300),
                    adaptive: width.is_none() && minutes.is_some(),
                    threads: threads.max(1),
                    bricks: bricks.min(MAX_BRICKS - 1),
                    weights: match &weights {
                        Some(w) => w.parse().map_err(anyhow::Error::msg)?,
                        None => Weights::default(),
                    },
                }),
            };
            state.config.threads = threads.max(1);
            let checkpoint = checkpoint.or(resume).unwrap_or_else(|| {
                let mut p = out.clone().into_os_string();
                p.push(".ckpt");
                PathBuf::from(p)
            });
            let limits = Limits {
                budget: minutes.map(|m| Duration::from_secs_f64(m.max(0.0) * 60.0)),
                checkpoint: Some(checkpoint.clone()),
                checkpoint_every: Duration::from_secs(60),
            };
            let mut bar = Bar::new(state.config.bricks as u64, limits.budget, quiet);
            bar.bar.set_position(state.placed as u64);
            let result = solver::run(&mut state, &limits, &mut bar);
            bar.bar.finish();
            let line = state.best_line();
            let rec = solver::line_to_record(&line);
            let text = rec.to_text();
            std::fs::write(&out, format!("{text}\n"))
                .with_context(|| format!("cannot write {}", out.display()))?;
            let scored = score(&rec);
            println!(
                "placed {} bricks in {} s (width {}); record {} scores {} ({})",
                state.placed,
                state.elapsed_secs,
                state.config.width,
                out.display(),
                scored.score,
                scored.end
            );
            println!("checkpoint {}", checkpoint.display());
            result.map_err(Into::into)
        }
    }
}

/// The solver's progress bar: bricks, best score, bricks per second, time left.
struct Bar {
    bar: ProgressBar,
    start: std::time::Instant,
    budget: Option<Duration>,
}

impl Bar {
    fn new(len: u64, budget: Option<Duration>, quiet: bool) -> Self {
        let bar = if quiet {
            ProgressBar::hidden()
        } else {
            ProgressBar::new(len)
        };
        bar.set_style(
            ProgressStyle::with_template(
                "{elapsed_precise} [{bar:30}] {pos}/{len} bricks {per_sec} {msg}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        Bar {
            bar,
            start: std::time::Instant::now(),
            budget,
        }
    }
}

impl solver::Progress for Bar {
    fn update(&mut self, placed: usize, best_score: u64, width: usize) {
        self.bar.set_position(placed as u64);
        let left = match self.budget {
            Some(b) => format!("{}s left", b.saturating_sub(self.start.elapsed()).as_secs()),
            None => format!("eta {}s", self.bar.eta().as_secs()),
        };
        self.bar
            .set_message(format!("score {best_score} width {width} {left}"));
    }
}
