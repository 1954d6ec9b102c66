//! The solver: a beam search over the whole known sequence. Each layer places one brick on every
//! board of the beam in every resting position reachable by the allowed steps, ranks children
//! by score plus [`eval::evaluate`], and keeps the best with per-fullness quotas. Runs are bounded
//! by a brick count and/or a time budget, report progress to a callback (the tool draws it as an
//! `indicatif` bar), and write checkpoints that `resume` continues from.

pub mod beam;
pub mod eval;
pub mod movegen;

use crate::record::Record;
use crate::rules::{Board, Brick, MAX_BRICKS, Sequence, Step};
use beam::{Link, Node};
use eval::Weights;
use movegen::{Placement, path_to, piece_at};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use thiserror::Error;

/// The last brick that can score (brick 10,000's lock never does).
pub const LAST_SCORING_BRICK: usize = MAX_BRICKS - 1;
/// Checkpoint format version.
const CHECKPOINT_VERSION: u32 = 1;
/// Beam width used to finish the game once the time budget is spent.
const FINISH_WIDTH: usize = 32;
/// Largest checkpoint read back (256 MiB).
const MAX_CHECKPOINT_BYTES: u64 = 256 << 20;

/// Solver settings.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Config {
    /// Beam width; with `budget` set, only the starting width (it then adapts to the clock).
    pub width: usize,
    /// Whether the width adapts so the run ends within `budget`.
    pub adaptive: bool,
    pub threads: usize,
    /// Bricks to place (at most 9,999).
    pub bricks: usize,
    pub weights: Weights,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            width: 200,
            adaptive: false,
            threads: 2,
            bricks: LAST_SCORING_BRICK,
            weights: Weights::default(),
        }
    }
}

/// Solver failures.
#[derive(Debug, Error)]
pub enum SolveError {
    #[error("checkpoint {path}: {error}")]
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error("checkpoint {0}: not a sevenbag challenge checkpoint of this version")]
    BadCheckpoint(PathBuf),
    #[error("the beam died at brick {0}: every board topped out")]
    Died(usize),
}

/// The whole search state: what a checkpoint holds.
#[derive(Serialize, Deserialize)]
pub struct State {
    version: u32,
    pub config: Config,
    /// Bricks placed so far.
    pub placed: usize,
    pub nodes: Vec<Node>,
    /// `history[k]` links layer k's nodes (after brick k+1) to layer k-1.
    history: Vec<Vec<Link>>,
    /// Search time spent before this process (for the time budget across resumes).
    pub elapsed_secs: u64,
}

impl State {
    /// A fresh search.
    pub fn new(config: Config) -> Self {
        State {
            version: CHECKPOINT_VERSION,
            config,
            placed: 0,
            nodes: vec![Node {
                board: Board::default(),
                score: 0,
                value: 0,
            }],
            history: Vec::new(),
            elapsed_secs: 0,
        }
    }

    /// Loads a checkpoint.
    pub fn load(path: &Path) -> Result<Self, SolveError> {
        use std::io::Read;
        let io = |error| SolveError::Io {
            path: path.to_path_buf(),
            error,
        };
        let mut bytes = Vec::new();
        std::fs::File::open(path)
            .map_err(io)?
            .take(MAX_CHECKPOINT_BYTES)
            .read_to_end(&mut bytes)
            .map_err(io)?;
        let cfg = bincode::config::standard().with_limit::<{ 256 << 20 }>();
        let (state, _): (State, usize) = bincode::serde::decode_from_slice(&bytes, cfg)
            .map_err(|_| SolveError::BadCheckpoint(path.to_path_buf()))?;
        if state.version != CHECKPOINT_VERSION
            || state.history.len() != state.placed
            || state.nodes.is_empty()
        {
            return Err(SolveError::BadCheckpoint(path.to_path_buf()));
        }
        Ok(state)
    }

    /// Writes a checkpoint atomically (temp file, then rename).
    pub fn save(&self, path: &Path) -> Result<(), SolveError> {
        let io = |error| SolveError::Io {
            path: path.to_path_buf(),
            error,
        };
        let bytes = bincode::serde::encode_to_vec(self, bincode::config::standard())
            .map_err(|_| SolveError::BadCheckpoint(path.to_path_buf()))?;
        let tmp = path.with_extension("tmp");
        std::fs::write(&tmp, bytes).map_err(io)?;
        std::fs::rename(&tmp, path).map_err(io)
    }

    /// The best node's score.
    pub fn best_score(&self) -> u64 {
        self.nodes.iter().map(|n| n.score).max().unwrap_or(0)
    }

    /// Drops history entries no live node descends from, so memory stays small.
    fn compact(&mut self) {
        let mut live: Vec<u32> = (0..self.nodes.len() as u32).collect();
        for layer in (0..self.history.len()).rev() {
            let links = &mut self.history[layer];
            let kept: Vec<Link> = live.iter().map(|&i| links[i as usize]).collect();
            // Re-index parents densely in the previous layer.
            let mut parents: Vec<u32> = kept.iter().map(|l| l.parent).collect();
            parents.sort_unstable();
            parents.dedup();
            let remapped: Vec<Link> = kept
                .iter()
                .map(|l| Link {
                    parent: parents.binary_search(&l.parent).unwrap_or(0) as u32,
                    placement: l.placement,
                })
                .collect();
            *links = remapped;
            live = parents;
        }
    }

    /// The placements leading to the best node (one per brick placed).
    pub fn best_line(&self) -> Vec<Placement> {
        let best = (0..self.nodes.len())
            .max_by_key(|&i| (self.nodes[i].score, std::cmp::Reverse(i)))
            .unwrap_or(0);
        let mut line = Vec::with_capacity(self.history.len());
        let mut at = best as u32;
        for layer in self.history.iter().rev() {
            let link = layer[at as usize];
            line.push(link.placement);
            at = link.parent;
        }
        line.reverse();
        line
    }
}

/// Progress reporting hooks (the CLI draws a bar; tests pass `()`).
pub trait Progress {
    fn update(&mut self, _placed: usize, _best_score: u64, _width: usize) {}
}
impl Progress for () {}

/// When to stop and where to checkpoint.
pub struct Limits {
    /// Total search-time budget (counting time before a resume).
    pub budget: Option<Duration>,
    pub checkpoint: Option<PathBuf>,
    pub checkpoint_every: Duration,
}

/// Runs the search until all bricks are placed. Once the time budget is spent the remaining
/// bricks are placed at a narrow width; the run stops for good at 105% of the budget + 10 s.
pub fn run(
    state: &mut State,
    limits: &Limits,
    progress: &mut dyn Progress,
) -> Result<(), SolveError> {
    let sequence = Sequence::all();
    let start = Instant::now();
    let spent_before = Duration::from_secs(state.elapsed_secs);
    let mut last_checkpoint = Instant::now();
    let mut width = state.config.width.max(1);
    let mut window = (Instant::now(), state.placed);
    let target = state.config.bricks.min(LAST_SCORING_BRICK);
    let mut finishing = false;
    while state.placed < target {
        let brick = sequence[state.placed];
        let (nodes, links) = beam::step(
            &state.nodes,
            brick,
            width,
            &state.config.weights,
            state.config.threads,
        );
        if nodes.is_empty() {
            return Err(SolveError::Died(state.placed + 1));
        }
        state.nodes = nodes;
        state.history.push(links);
        state.placed += 1;
        let spent = spent_before + start.elapsed();
        if state.placed.is_multiple_of(64) {
            state.compact();
        }
        if let (true, Some(budget)) = (state.config.adaptive, limits.budget)
            && !finishing
            && state.placed.is_multiple_of(50)
        {
            // Width for the remaining bricks to finish inside the budget.
            let per_brick = window.0.elapsed().as_secs_f64() / (state.placed - window.1) as f64;
            let left = budget.saturating_sub(spent).as_secs_f64();
            // Aim to finish at 92% of the budget, leaving room for load spikes and the record.
            let want = left * 0.92 / (target - state.placed).max(1) as f64;
            let ratio = (want / per_brick.max(1e-9)).clamp(0.5, 1.5);
            width = ((width as f64 * ratio) as usize).clamp(16, 100_000);
            window = (Instant::now(), state.placed);
        }
        progress.update(state.placed, state.best_score(), width);
        // Out of time: finish the game at a narrow width (seconds for thousands of bricks)
        // rather than leave a short record; stop for good after a grace period.
        let over_budget = limits.budget.is_some_and(|b| spent >= b);
        let past_grace = limits
            .budget
            .is_some_and(|b| spent >= b + b / 20 + Duration::from_secs(10));
        if over_budget && !finishing {
            finishing = true;
            width = width.min(FINISH_WIDTH);
        }
        if let Some(path) = &limits.checkpoint
            && (last_checkpoint.elapsed() >= limits.checkpoint_every
                || past_grace
                || state.placed == target)
        {
            state.elapsed_secs = spent.as_secs();
            state.config.width = width;
            state.compact();
            state.save(path)?;
            last_checkpoint = Instant::now();
        }
        if past_grace {
            break;
        }
    }
    state.elapsed_secs = (spent_before + start.elapsed()).as_secs();
    state.config.width = width;
    Ok(())
}

/// Turns a line of placements into a record, finding each brick's step path.
/// Stops early (shorter record) if a placement cannot be reached.
pub fn line_to_record(line: &[Placement]) -> Record {
    let mut board = Board::default();
    let mut bricks: Vec<Vec<Step>> = Vec::with_capacity(line.len());
    for (brick, &p) in Sequence::new().zip(line) {
        let Some(path) = path_to(&board, brick, p) else {
            break;
        };
        if path.is_empty() || path.len() > crate::record::MAX_STEPS_PER_BRICK as usize {
            break;
        }
        board.write(&piece_at(brick, p));
        board.clear_lines();
        bricks.push(path);
    }
    Record::from_bricks(bricks.iter().map(|b| b.as_slice()))
}

/// The brick placed at 0-based index `i`.
pub fn brick(i: usize) -> Brick {
    Sequence::new().nth(i).unwrap_or(Brick {
        kind: crate::rules::Kind::I,
        state: 0,
    })
}
