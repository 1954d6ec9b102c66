//! Replays a puzzle's solution through the core's own [`Player`] and checks the goal.
//!
//! The player gets the puzzle's board ([`Player::set_board`]), an empty hold and the puzzle's
//! queue in front of its own ([`Player::set_spawn_next`], analysis hooks the bot uses too).
//! Each step is turned into key masks by the bot's input compiler and stepped frame by frame;
//! the lock must fill the step's cells with its spin. Nothing here decides a rule.

use sevenbag_bot::{CompileOptions, PlayerSim, Sim, Step as SimStep, Target, compile};
use sevenbag_core::{Handling, Input, Player};

use crate::model::{Puzzle, puzzle_rules};

/// Why a solution does not check out.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CheckError {
    /// The solution is empty.
    #[error("the solution has no placements")]
    Empty,
    /// More placements than the queue has pieces.
    #[error("the solution has {steps} placements but the queue only {queue} pieces")]
    TooLong {
        /// Placements.
        steps: usize,
        /// Queue length.
        queue: usize,
    },
    /// A step holds in a puzzle without hold.
    #[error("placement {0} uses hold, but this puzzle has hold off")]
    HoldOff(usize),
    /// The core could not be driven to the placement.
    #[error(
        "placement {step} ({kind} {rot} {x} {y}) cannot be reached in the core from that position and queue"
    )]
    Unreachable {
        /// 1-based placement number.
        step: usize,
        /// Piece letter.
        kind: char,
        /// Rotation name.
        rot: &'static str,
        /// Column.
        x: i8,
        /// Row.
        y: i8,
    },
    /// The lock did not match the step.
    #[error("placement {0} locked somewhere else than written")]
    Mismatch(usize),
    /// The player topped out.
    #[error("the player topped out at placement {0}")]
    ToppedOut(usize),
    /// All steps played but the goal was not reached.
    #[error("all {0} placements played but the goal ({1}) is not reached")]
    GoalMissed(usize, String),
}

/// Plays `puzzle.solution` through the core; `Ok(frames)` when the last lock reaches the goal.
pub fn check(puzzle: &Puzzle) -> Result<u32, CheckError> {
    let steps = &puzzle.solution;
    if steps.is_empty() {
        return Err(CheckError::Empty);
    }
    if steps.len() > puzzle.queue.len() {
        return Err(CheckError::TooLong {
            steps: steps.len(),
            queue: puzzle.queue.len(),
        });
    }
    if let Some(i) = steps.iter().position(|s| s.hold && !puzzle.options.hold) {
        return Err(CheckError::HoldOff(i + 1));
    }
    let mut sim = start_sim(puzzle);
    let goal = puzzle.goal();
    let mut frames = 0u32;
    for (i, step) in steps.iter().enumerate() {
        let target = Target {
            kind: step.piece.kind,
            key: sevenbag_bot::movegen::cells_key(&step.piece),
            spin: step.spin,
            hold: step.hold,
        };
        let unreachable = || CheckError::Unreachable {
            step: i + 1,
            kind: step.piece.kind.letter(),
            rot: step.piece.rotation.name(),
            x: step.piece.x,
            y: step.piece.y,
        };
        let inputs = compile(&sim, &target, CompileOptions::default()).ok_or_else(unreachable)?;
        let mut locked = None;
        for input in inputs {
            frames += 1;
            match sim.step(input) {
                SimStep::Locked(piece, spin) => {
                    locked = Some((piece, spin));
                    break;
                }
                SimStep::ToppedOut => return Err(CheckError::ToppedOut(i + 1)),
                SimStep::Moving => {}
            }
        }
        let Some((piece, spin)) = locked else {
            return Err(unreachable());
        };
        if sevenbag_bot::movegen::cells_key(&piece) != target.key || spin != step.spin {
            return Err(CheckError::Mismatch(i + 1));
        }
        let lines = sim.player.events().locked.map_or(0, |l| l.clear.lines);
        if i + 1 == steps.len() {
            if goal.reached(sim.player.board(), piece.kind, spin, lines) {
                return Ok(frames);
            }
            return Err(CheckError::GoalMissed(steps.len(), describe_goal(puzzle)));
        }
    }
    Err(CheckError::GoalMissed(steps.len(), describe_goal(puzzle)))
}

fn describe_goal(puzzle: &Puzzle) -> String {
    crate::format::goal_text(&puzzle.goal())
}

/// A frame-exact simulator at the puzzle's start: board set, hold empty, the puzzle's queue
/// next (the core's own queue of seed 0 behind it), default handling. The client uses the same
/// start for its Puzzles mode.
pub fn start_player(puzzle: &Puzzle, handling: Handling) -> Player {
    let rules = puzzle_rules();
    let mut player = Player::new(&rules, handling, 0, 0, 0);
    player.set_board(puzzle.board);
    player.set_hold(None);
    for &kind in puzzle.queue.iter().rev() {
        player.set_spawn_next(kind, Input(0));
    }
    player
}

fn start_sim(puzzle: &Puzzle) -> PlayerSim {
    let player = start_player(puzzle, Handling::default());
    PlayerSim::new(&player, &puzzle_rules(), 0)
}
