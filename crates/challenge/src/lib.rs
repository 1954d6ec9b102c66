//! The 2021 fixed-sequence challenge (geek.qq.com "鹅罗斯方块"): its own rules (not the guideline
//! core's), the record format, a verifier that scores records exactly as the organisers'
//! JavaScript did, and a beam-search solver. See docs/CHALLENGE.md.
//!
//! Dependencies: `bincode`/`serde` write solver checkpoints. No progress bar in here: the tool
//! (`sevenbag-tool challenge`) draws one with `indicatif` around the solver's progress
//! callback, so the game's browser build, which links this crate for the challenge mode, does
//! not pull `indicatif` → `web-time` → wasm-bindgen.

pub mod play;
pub mod record;
pub mod replay;
pub mod rules;
pub mod solver;

pub use record::{MAX_RECORD_BYTES, Op, Record, RecordError};
pub use replay::{EndReason, Game, Outcome, score};
pub use rules::{Board, Brick, Kind, MAX_BRICKS, Piece, Sequence, Step};
