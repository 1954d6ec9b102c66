//! The solo replay file: one player's Sprint, Blitz or Zen run, checked by re-simulating it.
//!
//! # File layout (format version 1, documented in `docs/REPLAY.md`)
//!
//! | offset | size | what |
//! | --- | --- | --- |
//! | 0 | 4 | magic `b"SBSO"` |
//! | 4 | 1 | format version, u8 ([`SOLO_FORMAT_VERSION`]) |
//! | 5 | n | body: [`SoloReplay`] encoded with bincode 2 (serde, standard config) |
//! | 5 + n | 8 | FNV-1a 64 ([`sevenbag_core::StateHasher`]) of bytes `0..5 + n`, u64 little-endian |
//!
//! The body holds the one-player header (mode, rules, seed, handling), the player's name, the
//! input changes with the count of frames they cover, the final result and the final state hash.
//! Decoding checks size, magic, version and checksum before the body, then every count against
//! the documented maxima ([`MAX_SOLO_BYTES`], [`MAX_MATCH_FRAMES`](crate::inputs::MAX_MATCH_FRAMES), [`MAX_NAME_CHARS`]) before
//! anything is simulated. [`verify_solo`] re-runs the inputs on [`Solo`] and compares the result
//! and hash: a run can be ranked (or refused) without trusting the file.

use serde::{Deserialize, Serialize};
use sevenbag_core::{HeaderError, Input, Solo, SoloHeader, SoloResult};

use crate::envelope::{Envelope, EnvelopeError, Limited, limited};
use crate::inputs::{InputLog, InputLogError};
use crate::messages::MAX_NAME_CHARS;
use crate::replay::SeatInputs;

/// The first four bytes of every solo replay file.
pub const SOLO_MAGIC: [u8; 4] = *b"SBSO";
/// The format version this build writes and reads.
pub const SOLO_FORMAT_VERSION: u8 = 1;
/// The largest solo replay [`SoloReplay::decode`] accepts (16 MiB: six hours of mashing every
/// frame is about 2 MiB of changes).
pub const MAX_SOLO_BYTES: usize = 16 * 1024 * 1024;
/// File name extension of solo replay files (without the dot).
pub const SOLO_EXTENSION: &str = "sbso";

const ENVELOPE: Envelope = Envelope {
    magic: SOLO_MAGIC,
    version: &[SOLO_FORMAT_VERSION],
    max_bytes: MAX_SOLO_BYTES,
};

type BodyConfig = Limited<MAX_SOLO_BYTES>;

const fn body_config() -> BodyConfig {
    limited::<MAX_SOLO_BYTES>()
}

/// A recorded solo run: everything needed to play it back and check its result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SoloReplay {
    /// Mode, rules, seed and handling.
    pub header: SoloHeader,
    /// The player's name.
    pub name: String,
    /// The inputs of every frame simulated, countdown included (`confirmed` is the frame count).
    pub inputs: SeatInputs,
    /// How the run ended, as the recording client saw it.
    pub result: SoloResult,
    /// [`Solo::state_hash`] after the last frame.
    pub final_hash: u64,
    /// When the run was recorded, in seconds since the Unix epoch.
    pub created_unix: u64,
}

/// Why a solo replay could not be read, or did not verify.
#[derive(Debug, thiserror::Error)]
pub enum SoloReplayError {
    /// The file does not start with `SBSO`.
    #[error("not a solo replay file: bad magic {found:02x?} (expected \"SBSO\")")]
    BadMagic {
        /// The first bytes found.
        found: Vec<u8>,
    },
    /// A format version this build cannot read.
    #[error("unsupported solo replay version {found} (this build reads version {supported})")]
    UnsupportedVersion {
        /// The file's version.
        found: u8,
        /// The version this build reads.
        supported: u8,
    },
    /// Shorter than a header and a checksum.
    #[error("corrupted: truncated file of {len} bytes")]
    Truncated {
        /// Bytes present.
        len: usize,
    },
    /// Larger than [`MAX_SOLO_BYTES`].
    #[error("solo replay of {len} bytes is over the {MAX_SOLO_BYTES}-byte limit")]
    TooLarge {
        /// Bytes present.
        len: usize,
    },
    /// The checksum does not match the bytes.
    #[error("corrupted: checksum mismatch (stored {stored:#018x}, computed {computed:#018x})")]
    Checksum {
        /// The checksum in the file.
        stored: u64,
        /// The checksum of the bytes.
        computed: u64,
    },
    /// The checksum matched but the body did not decode, or a count is out of range.
    #[error("malformed solo replay body: {0}")]
    Malformed(String),
    /// The body could not be encoded.
    #[error("cannot encode solo replay: {0}")]
    Encode(String),
    /// The header holds out-of-range rules or handling.
    #[error("solo replay header is invalid: {0}")]
    BadHeader(#[from] HeaderError),
    /// The recorded inputs are not a valid log.
    #[error("recorded inputs are invalid: {0}")]
    BadInputs(#[from] InputLogError),
    /// The re-simulation did not reach the recorded result.
    #[error("result differs: recorded {recorded:?}, simulated {simulated:?}")]
    ResultMismatch {
        /// The result in the file (boxed: results are large next to the other errors).
        recorded: Box<SoloResult>,
        /// The re-simulation's result (`None`: the inputs end before the run does).
        simulated: Option<Box<SoloResult>>,
    },
    /// The re-simulation reached the result but not the recorded state.
    #[error("final state hash differs: recorded {recorded:#018x}, simulated {simulated:#018x}")]
    HashMismatch {
        /// The hash in the file.
        recorded: u64,
        /// The re-simulation's hash.
        simulated: u64,
    },
}

impl From<EnvelopeError> for SoloReplayError {
    fn from(e: EnvelopeError) -> Self {
        match e {
            EnvelopeError::TooLarge { len } => SoloReplayError::TooLarge { len },
            EnvelopeError::BadMagic { found } => SoloReplayError::BadMagic { found },
            EnvelopeError::Truncated { len } => SoloReplayError::Truncated { len },
            EnvelopeError::Version { found } => SoloReplayError::UnsupportedVersion {
                found: u8::try_from(found).unwrap_or(u8::MAX),
                supported: SOLO_FORMAT_VERSION,
            },
            EnvelopeError::Checksum { stored, computed } => {
                SoloReplayError::Checksum { stored, computed }
            }
            EnvelopeError::Malformed(why) => SoloReplayError::Malformed(why),
        }
    }
}

impl SoloReplay {
    /// The replay of a finished run: `solo` after stepping `masks[f]` on each frame `f`.
    /// `None` while the run is not finished.
    pub fn record(solo: &Solo, name: &str, masks: &[Input], created_unix: u64) -> Option<Self> {
        Some(SoloReplay {
            header: *solo.header(),
            name: name.chars().take(MAX_NAME_CHARS).collect(),
            inputs: SeatInputs::from_masks(masks),
            result: solo.result()?,
            final_hash: solo.state_hash(),
            created_unix,
        })
    }

    /// Encodes the replay as a file: magic, version, body, checksum.
    pub fn encode(&self) -> Result<Vec<u8>, SoloReplayError> {
        ENVELOPE
            .seal(self, body_config())
            .map_err(SoloReplayError::Encode)
    }

    /// Decodes a solo replay file, checking size, magic, version and checksum before the body
    /// and every count after it. Never panics on any input.
    pub fn decode(bytes: &[u8]) -> Result<SoloReplay, SoloReplayError> {
        let replay: SoloReplay = ENVELOPE.open(bytes, body_config())?;
        replay.check_counts()?;
        Ok(replay)
    }

    /// Checks the name length, the input list's order and frame count, and the result's frame
    /// count against the documented maxima, before anything is expanded or simulated.
    pub fn check_counts(&self) -> Result<(), SoloReplayError> {
        if self.name.chars().count() > MAX_NAME_CHARS {
            return Err(SoloReplayError::Malformed(format!(
                "name is longer than {MAX_NAME_CHARS} characters"
            )));
        }
        InputLog::check(&self.inputs.changes, 0, self.inputs.confirmed)?;
        if self.result.frames > self.inputs.confirmed {
            return Err(SoloReplayError::Malformed(format!(
                "result after {} frames of play but only {} frames of inputs",
                self.result.frames, self.inputs.confirmed
            )));
        }
        Ok(())
    }

    /// The per-frame inputs, expanded (bounded by [`MAX_MATCH_FRAMES`](crate::inputs::MAX_MATCH_FRAMES) through
    /// [`SoloReplay::check_counts`]).
    pub fn masks(&self) -> Result<Vec<Input>, SoloReplayError> {
        let log = InputLog::from_changes(&self.inputs.changes, self.inputs.confirmed)?;
        Ok((0..self.inputs.confirmed)
            .map(|f| log.get(f).unwrap_or_default())
            .collect())
    }

    /// A one-line description for listings: name, mode and result.
    pub fn summary(&self) -> String {
        format!(
            "{}: {} {}",
            self.name,
            self.header.mode.name(),
            result_text(&self.result)
        )
    }
}

/// A result as a player reads it: "1:02.35" for a Sprint, "123,400 points" for a Blitz, lines
/// for Zen, and "topped out" for a run that did not reach its goal.
pub fn result_text(r: &SoloResult) -> String {
    use sevenbag_core::SoloMode;
    if !r.ranked() && r.mode != SoloMode::Zen {
        return format!("topped out ({} lines)", r.lines);
    }
    match r.mode {
        SoloMode::Sprint => clock(u64::from(r.frames)),
        SoloMode::Blitz => format!("{} points", group_digits(r.score)),
        SoloMode::Zen => format!("{} lines", r.lines),
    }
}

/// Frames (60 a second) as "m:ss.cc".
pub fn clock(frames: u64) -> String {
    let cs = frames * 100 / 60;
    format!("{}:{:02}.{:02}", cs / 6000, cs / 100 % 60, cs % 100)
}

/// `1234567` as "1,234,567".
pub fn group_digits(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// True when `new` beats `old`: a faster cleared Sprint, a higher-scoring Blitz. Unranked runs
/// (top-outs, Zen) never beat anything; any ranked run beats an unranked one.
pub fn beats(new: &SoloResult, old: &SoloResult) -> bool {
    use sevenbag_core::SoloMode;
    if !new.ranked() || new.mode != old.mode {
        return false;
    }
    if !old.ranked() {
        return true;
    }
    match new.mode {
        SoloMode::Sprint => new.frames < old.frames,
        SoloMode::Blitz => new.score > old.score,
        SoloMode::Zen => false,
    }
}

/// What [`verify_solo`] checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SoloVerifyReport {
    /// Frames re-simulated, countdown included.
    pub frames: u32,
    /// The result the re-simulation reached (equal to the recorded one).
    pub result: SoloResult,
    /// The re-simulation's final state hash (equal to the recorded one).
    pub final_hash: u64,
}

/// Re-simulates a solo replay with the core and checks the result and final hash. Pure: no I/O.
/// The run must end exactly on the last recorded frame.
pub fn verify_solo(replay: &SoloReplay) -> Result<SoloVerifyReport, SoloReplayError> {
    replay.header.rules.validate().map_err(HeaderError::from)?;
    replay
        .header
        .handling
        .validate()
        .map_err(HeaderError::from)?;
    replay.check_counts()?;
    let log = InputLog::from_changes(&replay.inputs.changes, replay.inputs.confirmed)?;
    let mut solo = Solo::new(replay.header);
    while solo.frame() < replay.inputs.confirmed && solo.result().is_none() {
        solo.step(log.get(solo.frame()).unwrap_or_default());
    }
    let simulated = solo.result();
    if simulated != Some(replay.result) || solo.frame() != replay.inputs.confirmed {
        return Err(SoloReplayError::ResultMismatch {
            recorded: Box::new(replay.result),
            simulated: simulated.map(Box::new),
        });
    }
    let hash = solo.state_hash();
    if hash != replay.final_hash {
        return Err(SoloReplayError::HashMismatch {
            recorded: replay.final_hash,
            simulated: hash,
        });
    }
    Ok(SoloVerifyReport {
        frames: solo.frame(),
        result: replay.result,
        final_hash: hash,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_are_grouped_by_thousands() {
        assert_eq!(group_digits(0), "0");
        assert_eq!(group_digits(999), "999");
        assert_eq!(group_digits(1000), "1,000");
        assert_eq!(group_digits(1_234_567), "1,234,567");
    }

    #[test]
    fn clock_shows_minutes_seconds_and_hundredths() {
        assert_eq!(clock(0), "0:00.00");
        assert_eq!(clock(60 * 83 + 30), "1:23.50");
    }
}
