//! # sevenbag-puzzle: generated puzzles, proved solvable
//!
//! Puzzles are never drawn from a stored list: [`generate`] builds one from a seed, backwards
//! from a solution, with a backtracking constraint search (see [`generate`]'s module). The
//! [`solve`] search counts distinct solutions on the bot's move generation and grades the
//! puzzle; [`check`] replays a solution through the core's own `Player`. Nothing here is a
//! second rules engine: reachability and spins come from `sevenbag-bot`'s move generation
//! (which asks the core), locks and clears from `sevenbag-core`.
//!
//! The text format is in [`format`] and docs/PUZZLES.md; share codes and the daily puzzle in
//! [`code`]; a puzzle played by hand on the core's `Player` (the game's Puzzles mode) in
//! [`play`].
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod code;
pub mod format;
pub mod generate;
pub mod model;
pub mod play;
pub mod solve;
pub mod verify;

pub use code::{CodeError, code, daily, parse_code};
pub use format::{ParseError, parse, to_text};
pub use generate::{GenError, GenLimits, GenStats, Generated, generate, generate_with};
pub use model::{Difficulty, Goal, Grade, Kind, Options, OptionsError, Puzzle, Step, puzzle_rules};
pub use play::{Analysis, Attempt, Failure, Status, analyse, play_rules};
pub use solve::{Limits, Report, solve};
pub use verify::{CheckError, check, start_player};

/// Generates puzzles from `seed`, `seed + 1`, ... (at most `tries`) until one grades as `want`;
/// returns the last one made if none does. The returned puzzle's `seed` is the one to share.
pub fn generate_graded(
    options: &Options,
    seed: u64,
    want: Difficulty,
    tries: u32,
) -> Result<Generated, GenError> {
    let mut last = None;
    for i in 0..u64::from(tries.max(1)) {
        let g = generate(options, seed.wrapping_add(i))?;
        if g.puzzle.grade.map(|g| g.difficulty()) == Some(want) {
            return Ok(g);
        }
        last = Some(g);
    }
    last.ok_or(GenError::Options(OptionsError::Pieces(
        options.kind,
        options.pieces,
    )))
}
