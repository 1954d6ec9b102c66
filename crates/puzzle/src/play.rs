//! A puzzle played by hand, one frame at a time, on the core's own [`Player`].
//!
//! [`Attempt`] starts the player as [`crate::start_player`] does (the puzzle's board, an empty
//! hold, the puzzle's queue in front) and steps it with the keys held. It decides nothing about
//! movement, spins or clears: the core does. It only keeps the puzzle's own terms:
//!
//! - **The queue is the puzzle's.** Hold with an empty slot is ignored when it would bring in a
//!   piece beyond the puzzle's queue, and when the queue has run out with a piece still in the
//!   hold slot, that piece comes in next (the solver's rule, docs/PUZZLES.md).
//! - **The goal** is checked on every lock with [`crate::Goal::reached`]: reached is solved;
//!   the last piece placed without it, or a top out, is failed. Whether the position can still
//!   be solved is the solver's question ([`analyse`]), asked by the caller, which may take long
//!   enough to run off the frame; [`Attempt::no_solution`] records its answer.
//! - **Undo** restores the exact state (the whole `Player`) before the last placement.
//!
//! Gravity stays at the rules' base (it never rises): a puzzle has no clock.

use sevenbag_core::{Handling, Input, LockEvent, PieceKind, Player, Rules, StepContext};

use crate::model::{Puzzle, Step, puzzle_rules};
use crate::solve::{Limits, solve};
use crate::verify::start_player;

/// Where an attempt stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// Pieces are still to be placed.
    Playing,
    /// The goal was reached.
    Solved,
    /// The attempt cannot succeed any more.
    Failed(Failure),
}

/// Why an attempt failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Failure {
    /// Every piece of the queue was placed without reaching the goal.
    OutOfPieces,
    /// The stack reached the top.
    ToppedOut,
    /// The solver proved no solution is left from the current position.
    NoSolution,
}

impl Failure {
    /// A short sentence for the player.
    pub const fn describe(self) -> &'static str {
        match self {
            Failure::OutOfPieces => "out of pieces",
            Failure::ToppedOut => "topped out",
            Failure::NoSolution => "no solution is left from here",
        }
    }
}

/// The state at one moment: everything undo restores.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Snapshot {
    player: Player,
    /// Pieces locked so far.
    placed: usize,
    /// The held piece brought back in front of the queue when the queue ran out.
    returned: Option<PieceKind>,
}

/// A puzzle being played. See the module doc.
#[derive(Clone, Debug)]
pub struct Attempt {
    puzzle: Puzzle,
    rules: Rules,
    now: Snapshot,
    /// The resting states after 0, 1, 2, ... placements (`rests[0]` is the start).
    rests: Vec<Snapshot>,
    status: Status,
    /// Bumped whenever the position changes (a lock, undo, reset), so answers about an older
    /// position can be told apart.
    version: u64,
}

/// The rules a puzzle is played under: the puzzle rules, with gravity that never rises.
pub fn play_rules() -> Rules {
    Rules {
        gravity_rise_per_second: 0,
        ..puzzle_rules()
    }
}

impl Attempt {
    /// Starts `puzzle` with the player's `handling`.
    pub fn new(puzzle: Puzzle, handling: Handling) -> Attempt {
        let start = Snapshot {
            player: start_player(&puzzle, handling),
            placed: 0,
            returned: None,
        };
        Attempt {
            puzzle,
            rules: play_rules(),
            now: start,
            rests: vec![start],
            status: Status::Playing,
            version: 0,
        }
    }

    /// The puzzle.
    pub fn puzzle(&self) -> &Puzzle {
        &self.puzzle
    }

    /// The core's player, as it stands.
    pub fn player(&self) -> &Player {
        &self.now.player
    }

    /// The rules the player steps under.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Where the attempt stands.
    pub fn status(&self) -> Status {
        self.status
    }

    /// Pieces locked so far.
    pub fn placed(&self) -> usize {
        self.now.placed
    }

    /// Changes whenever the position (board, hold, queue) changes.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// Queue pieces neither placed, held nor in play, in the order they come.
    fn undrawn(&self) -> Vec<PieceKind> {
        let p = &self.now.player;
        let n = self.puzzle.queue.len();
        let taken =
            self.now.placed + usize::from(p.hold().is_some()) + usize::from(p.active().is_some());
        let count = n.saturating_sub(taken);
        match self.now.returned {
            Some(h) if count == 1 => vec![h],
            _ => self.puzzle.queue[n - count..].to_vec(),
        }
    }

    /// The pieces still to come after the one in play (or about to spawn), nearest first.
    pub fn preview(&self) -> Vec<PieceKind> {
        let mut next = self.undrawn();
        if self.now.player.active().is_none() && !next.is_empty() {
            next.remove(0);
        }
        next
    }

    /// Whether the hold key may act now: the puzzle has hold, and holding brings in a piece of
    /// the puzzle (a held piece to swap with, or a queue piece after the one in play).
    pub fn hold_allowed(&self) -> bool {
        let p = &self.now.player;
        if !self.puzzle.options.hold {
            return false;
        }
        if p.hold().is_some() {
            return true;
        }
        // With no piece in play, the spawn takes the first undrawn piece itself.
        let spare = usize::from(p.active().is_none());
        self.undrawn().len() > spare
    }

    /// Advances one frame with the keys in `input`; returns the lock, if the piece locked.
    /// Does nothing once the attempt is solved or failed.
    pub fn step(&mut self, input: Input) -> Option<LockEvent> {
        if self.status != Status::Playing {
            return None;
        }
        let input = if self.hold_allowed() {
            input
        } else {
            Input(input.0 & !Input::HOLD.0)
        };
        let frame = self.now.player.stats().frames;
        let ctx = StepContext {
            rules: &self.rules,
            frame,
            play_frame: frame,
        };
        self.now.player.step(input, ctx);
        if self.now.player.topped_out().is_some() {
            self.status = Status::Failed(Failure::ToppedOut);
            self.version += 1;
            return None;
        }
        let lock = self.now.player.events().locked?;
        self.now.placed += 1;
        let reached = self.puzzle.goal().reached(
            self.now.player.board(),
            lock.piece.kind,
            lock.clear.spin,
            lock.clear.lines,
        );
        if reached {
            self.status = Status::Solved;
        } else if self.now.placed >= self.puzzle.queue.len() {
            self.status = Status::Failed(Failure::OutOfPieces);
        } else if self.undrawn().is_empty()
            && let Some(h) = self.now.player.hold()
        {
            // The queue ran out: the held piece comes in next, as the solver plays it.
            let previous = self.now.player.last_input();
            self.now.player.set_hold(None);
            self.now.player.set_spawn_next(h, previous);
            self.now.returned = Some(h);
        }
        self.rests.push(self.now);
        self.version += 1;
        Some(lock)
    }

    /// Takes back the last placement: the exact state before it (the piece in play goes back
    /// to its spawn). With nothing placed, this is [`Attempt::reset`].
    pub fn undo(&mut self) {
        if self.rests.len() > 1 {
            self.rests.pop();
        }
        self.restore();
    }

    /// Back to the start.
    pub fn reset(&mut self) {
        self.rests.truncate(1);
        self.restore();
    }

    fn restore(&mut self) {
        if let Some(&rest) = self.rests.last() {
            self.now = rest;
        }
        self.status = Status::Playing;
        self.version += 1;
    }

    /// Records the solver's proof that no solution is left, if it is about this position
    /// (`version` is [`Attempt::version`] when the question was asked).
    pub fn no_solution(&mut self, version: u64) {
        if version == self.version && self.status == Status::Playing {
            self.status = Status::Failed(Failure::NoSolution);
        }
    }

    /// The current position as a puzzle of its own: this board, and as queue the held piece,
    /// the piece in play and the pieces to come. A hold slot holding `h` before a queue `q` can
    /// play the same orders as an empty slot before `h` then `q`, so the solver's empty-hold
    /// start describes it exactly.
    pub fn position(&self) -> Puzzle {
        let p = &self.now.player;
        let mut queue: Vec<PieceKind> = p.hold().into_iter().collect();
        queue.extend(p.active().map(|a| a.kind));
        queue.extend(self.undrawn());
        Puzzle {
            options: self.puzzle.options,
            seed: self.puzzle.seed,
            board: *p.board(),
            queue,
            solution: Vec::new(),
            grade: None,
        }
    }

    /// The kind of the piece in play, or of the one about to spawn.
    pub fn current(&self) -> Option<PieceKind> {
        let p = &self.now.player;
        p.active()
            .map(|a| a.kind)
            .or_else(|| self.undrawn().first().copied())
    }
}

/// What the solver says about a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Analysis {
    /// A solution from here, in play order.
    Solution(Vec<Step>),
    /// The whole search found none: the position cannot be solved.
    NoSolution,
    /// The search ran out of its node budget without an answer.
    Unknown,
}

/// Searches `position` (from [`Attempt::position`]) for one solution within `max_nodes`.
pub fn analyse(position: &Puzzle, max_nodes: u64) -> Analysis {
    let report = solve(position, Limits { cap: 1, max_nodes });
    match report.first {
        Some(steps) => Analysis::Solution(steps),
        None if report.complete => Analysis::NoSolution,
        None => Analysis::Unknown,
    }
}

#[cfg(test)]
mod tests {
    use sevenbag_bot::{CompileOptions, PlayerSim, Target, compile};

    use super::*;
    use crate::model::{Kind, Options};

    fn puzzle(kind: Kind, hold: bool, seed: u64) -> Puzzle {
        let options = Options {
            hold,
            ..Options::default_for(kind)
        };
        crate::generate(&options, seed).expect("generates").puzzle
    }

    /// Plays `step` (taken with hold when it is not the current piece) through the core.
    fn place(a: &mut Attempt, step: Step) -> LockEvent {
        let target = Target {
            kind: step.piece.kind,
            key: sevenbag_bot::movegen::cells_key(&step.piece),
            spin: step.spin,
            hold: a.current() != Some(step.piece.kind),
        };
        let sim = PlayerSim::new(a.player(), a.rules(), 0);
        let inputs = compile(&sim, &target, CompileOptions::default()).expect("reachable");
        for input in inputs {
            if let Some(lock) = a.step(input) {
                return lock;
            }
        }
        panic!("no lock");
    }

    #[test]
    fn playing_the_solution_solves_every_kind_with_and_without_hold() {
        for kind in Kind::ALL {
            for hold in [false, true] {
                let p = puzzle(kind, hold, 3);
                let mut a = Attempt::new(p.clone(), Handling::default());
                for (i, step) in p.solution.iter().enumerate() {
                    assert_eq!(a.status(), Status::Playing, "{kind:?} step {i}");
                    place(&mut a, *step);
                }
                assert_eq!(a.status(), Status::Solved, "{kind:?} hold {hold}");
                assert_eq!(
                    a.step(Input::HARD_DROP),
                    None,
                    "a solved attempt stands still"
                );
            }
        }
    }

    #[test]
    fn undo_restores_the_exact_state_before_the_last_placement() {
        let p = puzzle(Kind::Pc, true, 5);
        let mut a = Attempt::new(p.clone(), Handling::default());
        let start = a.now;
        place(&mut a, p.solution[0]);
        let after_one = a.now;
        place(&mut a, p.solution[1]);
        assert_eq!(a.placed(), 2);
        a.undo();
        assert_eq!(a.now, after_one);
        a.undo();
        assert_eq!(a.now, start);
        a.undo();
        assert_eq!(a.now, start, "undo with nothing placed stays at the start");
        place(&mut a, p.solution[0]);
        a.reset();
        assert_eq!(a.now, start);
    }

    #[test]
    fn dropping_every_piece_anywhere_runs_out_of_pieces() {
        let p = puzzle(Kind::Dig, false, 1);
        let mut a = Attempt::new(p.clone(), Handling::default());
        let mut frames = 0;
        while a.status() == Status::Playing && frames < 1000 {
            // Hard drop on alternate frames: each a fresh press.
            let input = if frames % 2 == 0 {
                Input::HARD_DROP
            } else {
                Input::NONE
            };
            a.step(input);
            frames += 1;
        }
        assert!(
            matches!(
                a.status(),
                Status::Failed(Failure::OutOfPieces) | Status::Solved
            ),
            "{:?}",
            a.status()
        );
        assert!(a.placed() <= p.queue.len());
    }

    #[test]
    fn hold_never_brings_in_a_piece_beyond_the_queue() {
        let p = puzzle(Kind::TSpin, true, 2);
        let mut a = Attempt::new(p.clone(), Handling::default());
        // Hold, then drop, alternately: the pieces seen are the puzzle's only.
        let mut seen = Vec::new();
        for frame in 0..2000 {
            if a.status() != Status::Playing {
                break;
            }
            let input = match frame % 4 {
                0 => Input::HOLD,
                2 => Input::HARD_DROP,
                _ => Input::NONE,
            };
            if let Some(lock) = a.step(input) {
                seen.push(lock.piece.kind);
            }
        }
        assert!(seen.len() <= p.queue.len());
        let mut queue = p.queue.clone();
        for k in seen {
            let i = queue.iter().position(|&q| q == k).expect("a puzzle piece");
            queue.remove(i);
        }
    }

    #[test]
    fn the_start_position_has_a_solution_and_a_stale_no_solution_is_ignored() {
        let p = puzzle(Kind::Pc, false, 4);
        let mut a = Attempt::new(p, Handling::default());
        assert!(matches!(
            analyse(&a.position(), 100_000),
            Analysis::Solution(_)
        ));
        let v = a.version();
        a.undo();
        a.no_solution(v);
        assert_eq!(a.status(), Status::Playing, "an older position's answer");
        a.no_solution(a.version());
        assert_eq!(a.status(), Status::Failed(Failure::NoSolution));
    }
}
