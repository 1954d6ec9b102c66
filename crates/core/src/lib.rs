//! # sevenbag-core: the deterministic rules of Sevenbag
//!
//! A match's state is a pure function of its header (rules, seed, every seat's [`Handling`],
//! and for more than two seats the targeting, badge and team options) and the per-frame
//! [`Input`] of each seat. Every client, spectator, the server and replay playback run this
//! crate and reach the same state bit for bit, checked by [`Match::state_hash`] and
//! [`Battle::state_hash`].
//!
//! ## Determinism contract
//! - No floats, no clocks, no I/O, no threads, no `HashMap` iteration.
//! - Randomness only from ChaCha8 (`rand_chacha`) keyed from the match seed, with our own
//!   bounded sampling ([`rng`]); never `rand`'s shuffles or ranges, whose values may change.
//! - Golden vectors in `tests/golden.rs` pin piece sequences and the final hash of a scripted
//!   match, and `tests/golden_battle.rs` the final hashes of 3- and 8-seat and team matches;
//!   changing any of them is a deliberate, documented rules change.
//!
//! ## Layout
//! - [`piece`]: `PieceKind`, `Rotation`, `Piece` and the cell table.
//! - [`board`]: the 10 × 40 bit-row board.
//! - [`srs`]: the SRS offset tables and 180° kicks.
//! - [`rng`], [`bag`]: ChaCha streams and the randomizers.
//! - [`rules`]: `Rules`, presets, `Handling`, `MatchHeader`.
//! - [`input`]: the per-frame key mask.
//! - [`attack`], [`garbage`]: clears to lines sent, and incoming garbage.
//! - [`player`]: one board stepped one frame at a time.
//! - [`seat`], [`phase`]: seats, teams and seat sets; frames and the phases of a match.
//! - [`battle`]: a match of 2 to 8 seats (targeting, knock-outs, placements, badges, teams).
//! - [`versus`]: the two-seat `Match`, the two-seat face of a `Battle`.
//! - [`solo`], [`score`]: one-player Sprint, Blitz and Zen, and guideline scoring with levels.
//! - [`hash`]: the FNV-1a state hash over canonical bytes.
//!
//! ## Snapshot size
//! `Match` and `Battle` are heap-free; their sizes are printed by the `core` benchmark and
//! recorded in BENCHMARKS.md (`Match` 1,936 bytes, `Battle` of 8 seats about 7 KB on 64-bit
//! targets), so a rollback snapshot is one copy.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod attack;
pub mod bag;
pub mod battle;
pub mod board;
pub mod garbage;
pub mod hash;
pub mod input;
pub mod phase;
pub mod piece;
pub mod player;
pub mod rng;
pub mod rules;
pub mod score;
pub mod seat;
pub mod solo;
pub mod srs;
pub mod versus;

pub use attack::{AttackResult, AttackScale, Clear, Spin};
pub use bag::{PREVIEW, PieceQueue, Randomizer, sequence};
pub use battle::{
    Battle, BattleError, BattleEvents, BattleHeader, BattleOptions, SeatInput, Targeting,
};
pub use board::{Board, CellKind, HEIGHT, VISIBLE_HEIGHT, WIDTH};
pub use hash::StateHasher;
pub use input::Input;
pub use phase::{Frame, Phase};
pub use piece::{Piece, PieceKind, Rotation};
pub use player::{FLIP_KICK, LockEvent, Player, PlayerEvents, Stats, StepContext, TopOut, t_spin};
pub use rules::{Handling, HeaderError, MatchHeader, Preset, Rules, RulesError};
pub use score::Score;
pub use seat::{MAX_SEATS, MAX_TEAMS, Seat, SeatSet, Team};
pub use solo::{Solo, SoloEnd, SoloHeader, SoloMode, SoloPhase, SoloResult};
pub use versus::{Match, MatchEvents};
