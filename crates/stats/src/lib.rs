//! # sevenbag-stats: match statistics read from the rules core's own events
//!
//! For every seat of a match of 2 to 8 seats (a versus match is a two-seat one) and for a solo
//! run, this crate counts what the player did: pieces, frames of play, clears by kind, T-spins
//! by kind and lines, perfect clears, the longest combo and back-to-back chain, attack produced,
//! cancelled, sent, garbage received, tanked, discarded and cleared, holds, finesse faults,
//! top-outs and per-second series; and it derives the community's rates from those counts
//! when reporting (PPS, APM, VS, APP, DS/s). `docs/STATS.md` defines every number.
//!
//! ## How it is fed
//! [`BattleStats::step`] (or [`BattleStats::step_match`], [`SoloStats::step`]) steps the core
//! game one frame and records every board around the step: [`SeatRecorder::before`] keeps the
//! board and keys as they were, [`SeatRecorder::after`] reads the core's `PlayerEvents` (the
//! lock with its clear, attack, cancelling and back-to-back, holds, risen garbage, the top-out),
//! the battle's routing of attack (`BattleEvents::sent`), its knock-out credit and discarded
//! garbage. Every number is defined against these events, never re-derived from boards, so the
//! statistics cannot disagree with the rules (replay parsers that guess at queued versus risen
//! garbage disagree with each other by 10–20%).
//!
//! ## Determinism
//! Counts are integers; no clocks, no hashing containers, no threads. The same inputs give the
//! same counts on every machine. Rates ([`Rates`]) are computed from the counts only when
//! reporting, as `f64` divisions of integers rounded to 2 decimals, which IEEE 754 makes exact
//! and portable.
//!
//! ## Formulas
//! `seconds = frames / 60`; `PPS = pieces / seconds`; `APM = attack / seconds × 60`;
//! `VS = (attack + garbage_cleared) / seconds × 100`; `APP = attack / pieces`;
//! `DS/s = garbage_cleared / seconds` (so `DS/s = VS/100 − APM/60` and `APP = APM / (PPS × 60)`,
//! as the community writes them). `attack` is before cancelling: `attack = cancelled + sent`.
//!
//! ## Finesse faults
//! A fault is a key press beyond the fewest that put the piece in the same cells from its
//! spawn: presses are new key-downs of left, right, soft drop and the three rotations (a held
//! DAS is one press; hard drop and hold do not count), and the fewest come from a breadth-first
//! search over the core's movement with gravity off. Details and edge cases: [`finesse`].
//!
//! ## Design decision: the bot's finesse search, not a copy
//! The fewest-presses search already exists as `sevenbag_bot::finesse`, and the solo screen
//! counts its faults with it. Depending on the bot for it (rather than copying 100 lines of
//! search) keeps one definition of a finesse fault, so the solo screen and these statistics
//! always agree. The bot depends on the core only, is itself deterministic (budgets in nodes,
//! never time), and the game, the server and the tool all link it already, so nothing is
//! built that was not built before. Everything else here uses the core alone.
//!
//! ## Layout
//! - [`counts`]: [`SeatStats`], the integer counters, with [`Spins`], [`Death`], [`Spike`], [`Series`].
//! - [`recorder`]: [`SeatRecorder`], one board read around each step.
//! - [`finesse`]: what a press and a fault are.
//! - [`observe`]: [`BattleStats`] and [`SoloStats`], which step a game and record it.
//! - [`report`]: [`Rates`], [`SeatReport`] and [`timeline`].
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod counts;
pub mod finesse;
pub mod observe;
pub mod recorder;
pub mod report;

pub use counts::{
    Cause, Death, FRAMES_PER_SECOND, SPIKE_GAP, SPIKE_LINES, SeatStats, Series, Spike, Spins,
};
pub use finesse::{FinesseTracker, PieceFinesse, counted_presses, fewest_presses};
pub use observe::{BattleStats, SoloStats};
pub use recorder::{MatchFacts, SeatRecorder};
pub use report::{Rates, SeatReport, TimePoint, timeline};
