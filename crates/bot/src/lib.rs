//! # sevenbag-bot: a versus bot that plays through the same keys as a person
//!
//! The bot reads a [`Match`](sevenbag_core::Match) (or a lone
//! [`Player`](sevenbag_core::Player)) and answers, each frame, with the key mask to hold:
//! [`Bot::next_input`]. It never touches the game state; the core simulates its keys like anyone
//! else's, so a bot can sit in a netplay room, a replay or a load test unchanged.
//!
//! ## How a piece is played
//! 1. [`movegen`] finds every final placement of the current piece and of the hold option on a
//!    column [`BitBoard`] (cold-clear's layout): taps, SRS rotations with their kicks (180° when
//!    the room allows it) and soft drops, so tucks and spins are found; the T-spin kind of each
//!    comes from the core's own [`sevenbag_core::t_spin`].
//! 2. [`search`] runs a beam search over the current piece, the hold slot and the five visible
//!    next pieces (the bot plans on the frame after the spawn, when the fifth is shown), scoring
//!    lines of play with [`eval`]: El-Tetris-style board terms plus versus terms (attack, spins,
//!    back-to-back, combo, T slots, incoming garbage). Budgets are counted in nodes, never in
//!    time, so the same position always gets the same move.
//! 3. [`inputs`] turns the chosen placement into per-frame masks under the player's DAS, ARR,
//!    SDF and the room's gravity, checking every frame on a [`PlayerSim`], a copy of a core
//!    [`Player`](sevenbag_core::Player) (the [`Bot`] driver copies the real one, so its plan is
//!    exact); the driver replans whenever the game is not where the plan expected.
//!
//! [`Level`] sets a pieces-per-second cap, a planner and weights. [`eltetris`] is the classic
//! one-piece El-Tetris player, kept as the yardstick (and the Beginner level); [`arena`] plays
//! bot games for the tool, the tests and the benchmarks. docs/BOT.md has the measurements behind
//! the levels and the tool formats.
//!
//! ## Design decision: exact inputs over fast inputs
//! Move generation ignores gravity (it would multiply the states by the frames), but nothing
//! the bot sends is trusted to that model: the compiler re-plans from wherever the frame-exact
//! simulator says the piece is, and the driver only plays a placement once a copy of the core
//! has locked it in the intended cells with the intended spin. The cost is a few microseconds per
//! piece; the gain is that the bot never disagrees with the rules.
//!
//! ## Layout
//! - [`bitboard`]: the `[u64; 10]` column board, collision, drops, clears.
//! - [`movegen`]: placements and shortest abstract paths.
//! - [`sim`]: the frame-exact piece simulator (a copy of the core `Player`).
//! - [`inputs`]: paths to per-frame key masks.
//! - [`eval`]: weights, static board value, placement rewards.
//! - [`finesse`]: the fewest presses to a placement, for finesse faults in solo play.
//! - [`search`]: beam search over the queue.
//! - [`pc`]: perfect-clear search over the known pieces (Max).
//! - [`opener`]: the first-bag perfect-clear opener and its book (Max).
//! - [`eltetris`]: the baseline opponent.
//! - [`level`]: levels and bot configuration.
//! - [`bot`]: the per-frame driver.
//! - [`arena`]: bot-vs-bot and solo games.
//! - [`target`]: whom a bot attacks under the `manual` targeting rule of rooms of several seats.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod arena;
pub mod bitboard;
pub mod bot;
pub mod eltetris;
pub mod eval;
pub mod finesse;
pub mod inputs;
pub mod level;
pub mod movegen;
pub mod opener;
pub mod pc;
pub mod pc_odds;
pub mod search;
pub mod sim;
pub mod target;

pub use arena::{Driver, GameReport, SoloReport, play_game, play_solo};
pub use bitboard::BitBoard;
pub use bot::{Bot, BotStats, Drive, PositionKey, Thought};
pub use eval::Weights;
pub use inputs::{CompileOptions, Target, compile};
pub use level::{BOT_HANDLING, BotConfig, Level, Planner};
pub use movegen::{Move, MoveGen, Placement, find_moves, spawn_position};
pub use search::{Budget, Choice, Root, Searcher};
pub use sim::{PlayerSim, Sim, Step};
pub use target::manual_target;
