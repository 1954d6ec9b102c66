//! The Puzzles mode without drawing: which puzzle to make (difficulty presets, the daily
//! puzzle, share codes), making it off the frame, and a game in progress with its hint.
//!
//! Every rule lives elsewhere: the puzzle, its code and its grade come from `sevenbag_puzzle`,
//! the attempt is its [`Attempt`] on the core's own `Player`. The screen
//! ([`crate::puzzles`]) maps keys to the calls here and draws.

use std::sync::mpsc;

use sevenbag_core::{Handling, Input};
use sevenbag_puzzle::{Analysis, Attempt, Difficulty, Kind, Options, Status, Step, analyse};

mod request;

pub use request::{Made, Request, make};

/// Search nodes for the hint and the "still solvable?" check (a few hundred ms at most).
const ANALYSIS_NODES: u64 = 100_000;

/// The player's names for the kinds.
pub fn kind_label(kind: Kind) -> &'static str {
    match kind {
        Kind::Pc => "Perfect clear",
        Kind::TSpin => "T-spin",
        Kind::Dig => "Dig",
    }
}

/// The player's names for the difficulties.
pub fn difficulty_label(d: Difficulty) -> &'static str {
    match d {
        Difficulty::Easy => "Easy",
        Difficulty::Medium => "Medium",
        Difficulty::Hard => "Hard",
    }
}

/// The goal in words: "Perfect clear in 2 rows", "T-spin double to finish", "Clear the
/// garbage in 3 pieces".
pub fn goal_text(options: &Options) -> String {
    match options.kind {
        Kind::Pc => format!("Perfect clear in {} rows", options.rows),
        Kind::TSpin => {
            let name = if options.rows == 3 {
                "triple"
            } else {
                "double"
            };
            format!("T-spin {name} to finish")
        }
        Kind::Dig => format!("Clear the garbage in {} pieces", options.pieces),
    }
}

/// Days since 1970-01-01 in UTC, now.
pub fn today() -> u64 {
    crate::platform::clock::unix_nanos() / 1_000_000_000 / 86_400
}

/// Work on a thread of its own, polled once per frame.
pub struct Job<T> {
    rx: mpsc::Receiver<T>,
}

impl<T: Send + 'static> Job<T> {
    /// Runs `work` on a new thread; fails only if the system refuses a thread. A browser page
    /// has no threads: there the work runs at once, in this frame.
    pub fn spawn(work: impl FnOnce() -> T + Send + 'static) -> std::io::Result<Job<T>> {
        let (tx, rx) = mpsc::channel();
        #[cfg(target_arch = "wasm32")]
        {
            let _ = tx.send(work());
            Ok(Job { rx })
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            std::thread::Builder::new()
                .name("puzzle".into())
                .spawn(move || {
                    // The receiver is gone when the screen closed first: nothing to report to.
                    let _ = tx.send(work());
                })?;
            Ok(Job { rx })
        }
    }

    /// The result, once it is there.
    pub fn poll(&self) -> Option<T> {
        self.rx.try_recv().ok()
    }
}

/// What the hint shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hint {
    /// Hints are off.
    Off,
    /// The solver is still looking.
    Thinking,
    /// Place this next; `hold` when it is not the piece in play.
    Place {
        /// The placement.
        step: Step,
        /// The piece must come from the hold slot (or the queue, through hold).
        hold: bool,
    },
    /// No solution is left from here.
    NoSolution,
    /// The solver gave up within its budget.
    Unknown,
    /// The puzzle is solved: nothing left to hint.
    Solved,
}

/// A puzzle being played: the attempt, the solver's view of the current position, the hint.
pub struct PuzzleGame {
    /// What was made.
    pub made: Made,
    attempt: Attempt,
    /// The solver's answer for a position version, once known.
    known: Option<(u64, Analysis)>,
    /// The search under way, for a position version.
    running: Option<(u64, Job<Analysis>)>,
    hint_on: bool,
}

impl PuzzleGame {
    /// Starts playing `made` with the player's handling.
    pub fn new(made: Made, handling: Handling) -> PuzzleGame {
        let attempt = Attempt::new(made.puzzle.clone(), handling);
        // The start's own solution is already known: no search for the first hint.
        let known = Some((
            attempt.version(),
            Analysis::Solution(made.puzzle.solution.clone()),
        ));
        PuzzleGame {
            made,
            attempt,
            known,
            running: None,
            hint_on: false,
        }
    }

    /// The attempt.
    pub fn attempt(&self) -> &Attempt {
        &self.attempt
    }

    /// One simulation frame with the keys held.
    pub fn step(&mut self, input: Input) {
        self.attempt.step(input);
    }

    /// Takes back the last placement.
    pub fn undo(&mut self) {
        self.attempt.undo();
    }

    /// Back to the start.
    pub fn reset(&mut self) {
        self.attempt.reset();
    }

    /// Shows or hides the hint.
    pub fn toggle_hint(&mut self) {
        self.hint_on = !self.hint_on;
    }

    /// Once per frame: starts the solver on a new position (off the frame), and takes its
    /// answer when it arrives; "no solution" fails the attempt.
    pub fn poll(&mut self) {
        let v = self.attempt.version();
        if let Some((at, job)) = &self.running
            && let Some(answer) = job.poll()
        {
            let at = *at;
            if answer == Analysis::NoSolution {
                self.attempt.no_solution(at);
            }
            self.known = Some((at, answer));
            self.running = None;
        }
        let known = self.known.as_ref().is_some_and(|(at, _)| *at == v);
        let searching = self.running.as_ref().is_some_and(|(at, _)| *at == v);
        if !known && !searching && self.attempt.status() == Status::Playing {
            let position = self.attempt.position();
            match Job::spawn(move || analyse(&position, ANALYSIS_NODES)) {
                Ok(job) => self.running = Some((v, job)),
                // No thread: no hint and no early "no solution" for this position.
                Err(e) => {
                    tracing::warn!(%e, "no thread for the puzzle solver");
                    self.known = Some((v, Analysis::Unknown));
                }
            }
        }
    }

    /// Waits (a test helper's loop) until the solver has answered for the current position.
    #[cfg(test)]
    pub fn settle(&mut self) {
        for _ in 0..10_000 {
            self.poll();
            if self.running.is_none() {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
    }

    /// What the hint shows now.
    pub fn hint(&self) -> Hint {
        if !self.hint_on {
            return Hint::Off;
        }
        // A finished attempt starts no search: its hint comes from how it ended.
        match self.attempt.status() {
            Status::Playing => {}
            Status::Solved => return Hint::Solved,
            Status::Failed(_) => return Hint::NoSolution,
        }
        let v = self.attempt.version();
        match &self.known {
            Some((at, answer)) if *at == v => match answer {
                Analysis::Solution(steps) => steps.first().map_or(Hint::Unknown, |s| Hint::Place {
                    step: *s,
                    hold: self.attempt.current() != Some(s.piece.kind),
                }),
                Analysis::NoSolution => Hint::NoSolution,
                Analysis::Unknown => Hint::Unknown,
            },
            _ => Hint::Thinking,
        }
    }
}

#[cfg(test)]
mod tests {
    use sevenbag_bot::{CompileOptions, PlayerSim, Target, compile};

    use super::request::preset;
    use super::*;

    /// Plays the placement the hint shows, as key masks through [`PuzzleGame::step`].
    fn play_hint(game: &mut PuzzleGame) {
        game.settle();
        let Hint::Place { step, hold } = game.hint() else {
            panic!("no placement hinted: {:?}", game.hint());
        };
        play_step(game, step, hold);
    }

    /// Plays `step` (through hold when `hold`) as the key masks the bot's input compiler
    /// makes, one [`PuzzleGame::step`] per frame as the screen does.
    fn play_step(game: &mut PuzzleGame, step: Step, hold: bool) {
        let target = Target {
            kind: step.piece.kind,
            key: sevenbag_bot::movegen::cells_key(&step.piece),
            spin: step.spin,
            hold,
        };
        let a = game.attempt();
        let sim = PlayerSim::new(a.player(), a.rules(), 0);
        let inputs = compile(&sim, &target, CompileOptions::default()).expect("reachable");
        let placed = a.placed();
        for input in inputs {
            game.step(input);
            if game.attempt().placed() > placed {
                return;
            }
        }
        panic!("the placement did not lock");
    }

    #[test]
    fn playing_the_stored_solution_reaches_solved_for_every_kind_and_difficulty() {
        for kind in Kind::ALL {
            for difficulty in [Difficulty::Easy, Difficulty::Hard] {
                let request = Request::Exact {
                    options: preset(kind, difficulty),
                    seed: 5,
                };
                let made = make(&request).expect("makes");
                let steps = made.puzzle.solution.clone();
                let mut game = PuzzleGame::new(made, Handling::default());
                for step in steps {
                    assert_eq!(game.attempt().status(), Status::Playing);
                    let hold = game.attempt().current() != Some(step.piece.kind);
                    play_step(&mut game, step, hold);
                    game.poll();
                }
                assert_eq!(
                    game.attempt().status(),
                    Status::Solved,
                    "{kind:?} {difficulty:?}"
                );
            }
        }
    }

    #[test]
    fn following_the_hints_solves_a_generated_puzzle_of_every_kind() {
        for kind in Kind::ALL {
            let request = Request::Exact {
                options: preset(kind, Difficulty::Easy),
                seed: 11,
            };
            let made = make(&request).expect("makes");
            let mut game = PuzzleGame::new(made, Handling::default());
            game.toggle_hint();
            for _ in 0..game.made.puzzle.queue.len() {
                if game.attempt().status() != Status::Playing {
                    break;
                }
                play_hint(&mut game);
            }
            assert_eq!(game.attempt().status(), Status::Solved, "{kind:?}");
        }
    }

    #[test]
    fn undo_restores_the_players_exact_state() {
        let made = make(&Request::Exact {
            options: preset(Kind::Pc, Difficulty::Easy),
            seed: 3,
        })
        .expect("makes");
        let mut game = PuzzleGame::new(made, Handling::default());
        game.toggle_hint();
        let start = *game.attempt().player();
        play_hint(&mut game);
        let one = *game.attempt().player();
        assert_ne!(one, start);
        play_hint(&mut game);
        game.undo();
        assert_eq!(*game.attempt().player(), one);
        game.undo();
        assert_eq!(*game.attempt().player(), start);
        assert_eq!(game.attempt().placed(), 0);
    }

    /// The 2-row perfect clear puzzle (seed 7) with its hint on, hard-dropped every other frame
    /// until the attempt ends (at most 600 frames); `settle` waits for the solver each frame.
    fn hard_drops_until_over(settle: bool) -> PuzzleGame {
        let made = make(&Request::Exact {
            options: preset(Kind::Pc, Difficulty::Easy),
            seed: 7,
        })
        .expect("makes");
        let mut game = PuzzleGame::new(made, Handling::default());
        game.toggle_hint();
        for frame in 0..600 {
            if game.attempt().status() != Status::Playing {
                break;
            }
            game.step(if frame % 2 == 0 {
                Input::HARD_DROP
            } else {
                Input::NONE
            });
            if settle {
                game.settle();
            }
        }
        game
    }

    #[test]
    fn a_hopeless_position_fails_and_the_hint_says_so() {
        // A 2-row perfect clear: three pieces dropped flat from spawn stack too high to clear.
        let game = hard_drops_until_over(true);
        assert!(
            matches!(game.attempt().status(), Status::Failed(_)),
            "{:?}",
            game.attempt().status()
        );
    }

    #[test]
    fn the_hint_never_says_thinking_once_the_attempt_has_failed() {
        // Hard drops as fast as the frames allow, never waiting for the solver: the last piece
        // (or a top out) fails the attempt in a position no search was started for.
        let mut game = hard_drops_until_over(false);
        assert!(matches!(game.attempt().status(), Status::Failed(_)));
        game.settle();
        assert_eq!(game.hint(), Hint::NoSolution);
        game.undo();
        game.settle();
        assert_ne!(
            game.hint(),
            Hint::Thinking,
            "playing again, the solver answers"
        );
    }

    #[test]
    fn presets_are_valid_and_codes_read_back() {
        for kind in Kind::ALL {
            for d in Difficulty::ALL {
                assert_eq!(preset(kind, d).validate(), Ok(()), "{kind:?} {d:?}");
            }
        }
        assert!(Request::from_code("p24n-2s").is_ok());
        let err = Request::from_code("hello").expect_err("refused");
        assert!(err.contains("p24n-2s"), "{err}");
    }

    #[test]
    fn goals_read_as_people_write_them() {
        assert_eq!(
            goal_text(&Options::default_for(Kind::Pc)),
            "Perfect clear in 2 rows"
        );
        assert_eq!(
            goal_text(&Options::default_for(Kind::TSpin)),
            "T-spin double to finish"
        );
        assert_eq!(
            goal_text(&Options::default_for(Kind::Dig)),
            "Clear the garbage in 3 pieces"
        );
    }
}
