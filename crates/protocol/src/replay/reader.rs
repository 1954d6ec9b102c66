//! What the replay files of two seats ([`super::Replay`], format version 1) and of several
//! (`BattleReplay`, version 2) share: the envelope and its version check, the counts checked
//! before anything is simulated, the trail of state hashes a simulation records, and the
//! comparison of a re-simulation with what a file recorded. A format says what it holds through
//! [`Recording`]; [`encode`], [`decode`] and [`check_counts`] do the rest for both.

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::error::ReplayError;
use super::records::{
    FrameHash, HASH_INTERVAL, MAX_HASHES, MAX_REPLAY_BYTES, MAX_ROUNDS, REPLAY_MAGIC,
};
use crate::envelope::{Envelope, Limited, limited};
use crate::inputs::{InputLogError, MAX_MATCH_FRAMES};
use crate::messages::{EndReason, MAX_NAME_CHARS};

type BodyConfig = Limited<MAX_REPLAY_BYTES>;

const fn body_config() -> BodyConfig {
    limited::<MAX_REPLAY_BYTES>()
}

/// The envelope of replay format `version`: magic `SBRP`, the version, the 64 MiB limit.
pub(crate) const fn envelope(version: &'static [u8]) -> Envelope {
    Envelope {
        magic: REPLAY_MAGIC,
        version,
        max_bytes: MAX_REPLAY_BYTES,
    }
}

/// A replay body of some seat count: what the shared reader needs to know of it.
pub(crate) trait Recording: Serialize + DeserializeOwned {
    /// The format version this body is written under.
    const VERSION: u16;
    /// The envelope with that version.
    const ENVELOPE: Envelope;
    /// Each seat's name.
    fn names(&self) -> &[String];
    /// Checks the per-seat lists against the seat count (first, before anything else).
    fn check_seat_lists(&self) -> Result<(), ReplayError> {
        Ok(())
    }
    /// Checks each seat's recorded inputs; on a bad one, its seat and what is wrong.
    fn check_inputs(&self) -> Result<(), (usize, InputLogError)>;
    /// The recorded state hashes.
    fn hashes(&self) -> &[FrameHash];
    /// How many rounds are recorded.
    fn round_count(&self) -> usize;
    /// Frames simulated when the match ended.
    fn result_frames(&self) -> u32;
}

/// Encodes a replay as a file: magic, version, body, checksum.
pub(crate) fn encode<R: Recording>(replay: &R) -> Result<Vec<u8>, ReplayError> {
    R::ENVELOPE
        .seal(replay, body_config())
        .map_err(ReplayError::Encode)
}

/// Decodes a replay file, checking magic, version and checksum before the body, then every
/// count ([`check_counts`]).
pub(crate) fn decode<R: Recording>(bytes: &[u8]) -> Result<R, ReplayError> {
    let replay: R =
        R::ENVELOPE
            .open(bytes, body_config())
            .map_err(|e| match ReplayError::from(e) {
                ReplayError::UnsupportedVersion { found, .. } => ReplayError::UnsupportedVersion {
                    found,
                    supported: R::VERSION,
                },
                other => other,
            })?;
    check_counts(&replay)?;
    Ok(replay)
}

/// Checks every count a file claims against the documented maxima ([`MAX_MATCH_FRAMES`],
/// [`MAX_HASHES`], [`MAX_ROUNDS`], [`MAX_NAME_CHARS`]) and the input lists' order, and that
/// no name holds an invisible character (a bidi override, a control: names the server gives
/// never do), before anything is expanded or simulated: a forged count is refused in
/// microseconds.
pub(crate) fn check_counts<R: Recording>(replay: &R) -> Result<(), ReplayError> {
    replay.check_seat_lists()?;
    if let Some(seat) = replay
        .names()
        .iter()
        .position(|name| name.chars().count() > MAX_NAME_CHARS)
    {
        return Err(ReplayError::Malformed(format!(
            "name of seat {seat} is longer than {MAX_NAME_CHARS} characters"
        )));
    }
    if let Some(seat) = replay
        .names()
        .iter()
        .position(|name| name.chars().any(crate::visible::is_invisible))
    {
        return Err(ReplayError::Malformed(format!(
            "name of seat {seat} holds an invisible or control character"
        )));
    }
    replay
        .check_inputs()
        .map_err(|(seat, error)| ReplayError::BadInputs { seat, error })?;
    let hashes = replay.hashes().len();
    if hashes > MAX_HASHES {
        return Err(ReplayError::Malformed(format!(
            "{hashes} state hashes is more than the longest match has ({MAX_HASHES})"
        )));
    }
    let rounds = replay.round_count();
    if rounds > MAX_ROUNDS {
        return Err(ReplayError::Malformed(format!(
            "{rounds} rounds is more than a replay may hold ({MAX_ROUNDS})"
        )));
    }
    let frames = replay.result_frames();
    if frames > MAX_MATCH_FRAMES {
        return Err(ReplayError::Malformed(format!(
            "result at frame {frames} is past the longest match ({MAX_MATCH_FRAMES} frames)"
        )));
    }
    Ok(())
}

/// The state hashes a simulation records, one every [`HASH_INTERVAL`] frames.
#[derive(Clone, Debug, Default)]
pub(crate) struct HashTrail {
    hashes: Vec<FrameHash>,
}

impl HashTrail {
    /// Records `hash` if `frame` (frames simulated) is on the interval; says whether it did.
    pub(crate) fn record(&mut self, frame: u32, hash: impl FnOnce() -> u64) -> bool {
        let due = frame.is_multiple_of(HASH_INTERVAL);
        if due {
            self.hashes.push(FrameHash {
                frame,
                hash: hash(),
            });
        }
        due
    }

    /// Every hash recorded, in frame order.
    pub(crate) fn all(&self) -> &[FrameHash] {
        &self.hashes
    }

    /// The position of the hash after frames `0..frame` in [`HashTrail::all`], if that point
    /// was reached and `frame` is on the interval.
    pub(crate) fn index_of(&self, frame: u32) -> Option<usize> {
        if frame == 0 || !frame.is_multiple_of(HASH_INTERVAL) {
            return None;
        }
        let i = (frame / HASH_INTERVAL - 1) as usize;
        self.hashes.get(i).filter(|h| h.frame == frame).map(|_| i)
    }

    /// The hash after frames `0..frame`, if recorded.
    pub(crate) fn at(&self, frame: u32) -> Option<u64> {
        self.index_of(frame).map(|i| self.hashes[i].hash)
    }
}

/// Compares every `recorded` hash with the re-simulation's `trail` (which simulated `frames`
/// frames); returns how many were compared.
pub(crate) fn check_hashes(
    recorded: &[FrameHash],
    trail: &HashTrail,
    frames: u32,
) -> Result<usize, ReplayError> {
    for rec in recorded {
        let simulated = trail.at(rec.frame).ok_or(ReplayError::HashOutOfRange {
            frame: rec.frame,
            simulated: frames,
        })?;
        if simulated != rec.hash {
            return Err(ReplayError::HashMismatch {
                frame: rec.frame,
                recorded: rec.hash,
                simulated,
            });
        }
    }
    Ok(recorded.len())
}

/// Whether a recorded end (`reason`, `recorded` winner) agrees with the re-simulation's
/// winner (`simulated`, `None` while the boards have not decided).
pub(crate) fn result_agrees<W: PartialEq>(
    reason: EndReason,
    recorded: Option<W>,
    simulated: Option<W>,
) -> bool {
    match reason {
        // Decided on the boards: the re-simulation must reach the same winner.
        EndReason::TopOut => recorded.is_some() && simulated == recorded,
        // Decided off the boards: the boards must not have decided it first.
        EndReason::Forfeit => recorded.is_some() && simulated.is_none(),
        EndReason::Shutdown | EndReason::Abandoned => recorded.is_none() && simulated.is_none(),
    }
}
