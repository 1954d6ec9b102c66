//! The 2021 fixed-sequence challenge (geek.qq.com "鹅罗斯方块"): its own rules (not the guideline
//! core's), the record format, a verifier that scores records exactly as the organisers'
//! JavaScript did, and a beam-search solver. See docs/CHALLENGE.md.
//!
//! Dependencies: `indicatif` draws the solver's progress bar (the workspace's choice of a
//! well-kept progress library), `bincode`/`serde` write solver checkpoints.

pub mod play;
pub mod record;
pub mod replay;
pub mod rules;
pub mod solver;

pub use record::{MAX_RECORD_BYTES, Op, Record, RecordError};
pub use replay::{EndReason, Game, Outcome, score};
pub use rules::{Board, Brick, Kind, MAX_BRICKS, Piece, Sequence, Step};
