//! The values a replay of two seats records, and the limits on how many a file may hold.

use serde::{Deserialize, Serialize};
use sevenbag_core::{Input, Seat};

use crate::inputs::{InputLog, MAX_MATCH_FRAMES};
use crate::messages::{EndReason, InputChange};

/// The first four bytes of every replay file.
pub const REPLAY_MAGIC: [u8; 4] = *b"SBRP";
/// The format version this build writes and reads.
pub const REPLAY_FORMAT_VERSION: u16 = 1;
/// The largest replay file [`Replay::decode`](super::Replay::decode) accepts (64 MiB).
pub const MAX_REPLAY_BYTES: usize = 64 * 1024 * 1024;
/// A state hash is recorded (and reported by clients) after every this many frames.
pub const HASH_INTERVAL: u32 = 60;
/// File name extension of replay files (without the dot).
pub const REPLAY_EXTENSION: &str = "sbrp";

/// The most rounds a replay may record (a first-to-99 match with many drawn rounds fits).
pub const MAX_ROUNDS: usize = 1_000;
/// The most state hashes a replay may record: one per [`HASH_INTERVAL`] of the longest match.
pub const MAX_HASHES: usize = (MAX_MATCH_FRAMES / HASH_INTERVAL) as usize + 1;

/// One seat's inputs as recorded: every change, and how many frames are confirmed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatInputs {
    /// Changes in increasing frame order, all below `confirmed`.
    pub changes: Vec<InputChange>,
    /// Frames `0..confirmed` are final.
    pub confirmed: u32,
}

impl SeatInputs {
    /// The change list for a seat that held `masks[f]` on frame `f`, all of them confirmed.
    pub fn from_masks(masks: &[Input]) -> SeatInputs {
        SeatInputs {
            changes: InputLog::diff(masks, 0, Input::NONE),
            confirmed: masks.len() as u32,
        }
    }
}

/// A state hash at a frame: [`Match::state_hash`](sevenbag_core::Match::state_hash) after simulating frames `0..frame`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct FrameHash {
    /// Frames simulated.
    pub frame: u32,
    /// The hash at that point.
    pub hash: u64,
}

/// A round's result, as the simulation saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RoundRecord {
    /// Round number, from 0.
    pub round: u32,
    /// The round's winner (`None` for a draw).
    pub winner: Option<Seat>,
    /// Round wins of each seat after this round.
    pub wins: [u8; 2],
    /// The frame on which the round ended.
    pub frame: u32,
}

/// How the match ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MatchResult {
    /// The winner; `None` for a match cut short (server shutdown).
    pub winner: Option<Seat>,
    /// Why it ended.
    pub reason: EndReason,
    /// Frames the server had simulated when it ended.
    pub frames: u32,
}
