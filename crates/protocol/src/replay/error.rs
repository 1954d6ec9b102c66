//! [`ReplayError`]: why a replay file could not be read, or did not verify.

use sevenbag_core::{HeaderError, Seat};

use super::records::{MAX_REPLAY_BYTES, MatchResult, REPLAY_FORMAT_VERSION, RoundRecord};
use crate::envelope::EnvelopeError;
use crate::inputs::InputLogError;

/// Why a replay could not be read, or did not verify.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// The file does not start with `SBRP`.
    #[error("not a replay file: bad magic {found:02x?} (expected \"SBRP\")")]
    BadMagic {
        /// The first bytes found.
        found: Vec<u8>,
    },
    /// A format version this build cannot read.
    #[error("unsupported replay format version {found} (this build reads version {supported})")]
    UnsupportedVersion {
        /// The file's version.
        found: u16,
        /// The version this build reads.
        supported: u16,
    },
    /// Shorter than a header and a checksum.
    #[error("corrupted: truncated file of {len} bytes")]
    Truncated {
        /// Bytes present.
        len: usize,
    },
    /// Larger than [`MAX_REPLAY_BYTES`].
    #[error("replay of {len} bytes is over the {MAX_REPLAY_BYTES}-byte limit")]
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
    /// The checksum matched but the body did not decode (a writer bug or a hand-made file).
    #[error("malformed replay body: {0}")]
    Malformed(String),
    /// The body could not be encoded.
    #[error("cannot encode replay: {0}")]
    Encode(String),
    /// The header holds out-of-range rules or handling.
    #[error("replay header is invalid: {0}")]
    BadHeader(#[from] HeaderError),
    /// A seat's recorded inputs are not a valid log.
    #[error("inputs of seat {seat} are invalid: {error}")]
    BadInputs {
        /// Seat index (0 or 1).
        seat: usize,
        /// What was wrong.
        error: InputLogError,
    },
    /// A recorded hash disagrees with the re-simulation.
    #[error(
        "state hash mismatch at frame {frame}: recorded {recorded:#018x}, simulated {simulated:#018x}"
    )]
    HashMismatch {
        /// Frame of the hash.
        frame: u32,
        /// The hash in the replay.
        recorded: u64,
        /// The hash of the re-simulation.
        simulated: u64,
    },
    /// A recorded hash lies past the recorded inputs, or off the hash interval.
    #[error("recorded hash at frame {frame} cannot be checked (inputs end at frame {simulated})")]
    HashOutOfRange {
        /// Frame of the hash.
        frame: u32,
        /// Frames the inputs allow simulating.
        simulated: u32,
    },
    /// The rounds of the re-simulation differ from the recorded ones.
    #[error("round results differ: recorded {recorded:?}, simulated {simulated:?}")]
    RoundMismatch {
        /// Rounds in the replay.
        recorded: Vec<RoundRecord>,
        /// Rounds of the re-simulation.
        simulated: Vec<RoundRecord>,
    },
    /// A two-seat replay was asked for and the file holds a match of another shape.
    #[error(
        "a match of {seats} seats (or with rules two seats do not have), not a two-seat replay"
    )]
    NotTwoSeats {
        /// Seats in the file.
        seats: usize,
    },
    /// The match result of the re-simulation differs from the recorded one.
    #[error(
        "match result differs: recorded {recorded:?}, simulated winner {simulated:?} after {frames} frames"
    )]
    ResultMismatch {
        /// The result in the replay.
        recorded: MatchResult,
        /// The re-simulation's winner (if the match ended on the boards).
        simulated: Option<Seat>,
        /// Frames simulated.
        frames: u32,
    },
}

impl From<EnvelopeError> for ReplayError {
    fn from(e: EnvelopeError) -> Self {
        match e {
            EnvelopeError::TooLarge { len } => ReplayError::TooLarge { len },
            EnvelopeError::BadMagic { found } => ReplayError::BadMagic { found },
            EnvelopeError::Truncated { len } => ReplayError::Truncated { len },
            EnvelopeError::Version { found } => ReplayError::UnsupportedVersion {
                found: u16::try_from(found).unwrap_or(u16::MAX),
                supported: REPLAY_FORMAT_VERSION,
            },
            EnvelopeError::Checksum { stored, computed } => {
                ReplayError::Checksum { stored, computed }
            }
            EnvelopeError::Malformed(why) => ReplayError::Malformed(why),
        }
    }
}
