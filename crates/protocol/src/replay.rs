//! The replay file format, and the confirmed-input simulation shared by the server and playback.
//!
//! # File layout (format version 1, documented in `docs/REPLAY.md`)
//!
//! | offset | size | what |
//! | --- | --- | --- |
//! | 0 | 4 | magic `b"SBRP"` |
//! | 4 | 2 | format version, u16 little-endian ([`REPLAY_FORMAT_VERSION`]) |
//! | 6 | n | body: [`Replay`] encoded with bincode 2 (serde, standard config) |
//! | 6 + n | 8 | FNV-1a 64 ([`checksum`]) of bytes `0..6 + n`, u64 little-endian |
//!
//! The checksum is checked before the body is decoded, so a flipped byte anywhere is reported as
//! [`ReplayError::Checksum`] ("corrupted: checksum mismatch"), never as a confusing decode error.
//!
//! # Simulation
//! [`ConfirmedSim`] holds a [`Match`] and both seats' [`InputLog`]s and steps the match exactly as
//! far as both seats are confirmed, recording a state hash every [`HASH_INTERVAL`] frames and every
//! round result. The server runs one per match as the authority on results; [`verify`] runs one
//! over a replay's logs and compares. Neither contains rules: they only call [`Match::step`].

use serde::{Deserialize, Serialize};
use sevenbag_core::{HeaderError, Input, Match, MatchHeader, Seat};

use crate::envelope::{Envelope, EnvelopeError, Limited, limited};
pub use crate::envelope::{checksum, forge_checksum};
use crate::inputs::{InputLog, InputLogError, MAX_MATCH_FRAMES};
use crate::messages::{EndReason, InputChange, MAX_NAME_CHARS};

/// The first four bytes of every replay file.
pub const REPLAY_MAGIC: [u8; 4] = *b"SBRP";
/// The format version this build writes and reads.
pub const REPLAY_FORMAT_VERSION: u16 = 1;
/// The largest replay file [`Replay::decode`] accepts (64 MiB).
pub const MAX_REPLAY_BYTES: usize = 64 * 1024 * 1024;
/// A state hash is recorded (and reported by clients) after every this many frames.
pub const HASH_INTERVAL: u32 = 60;
/// File name extension of replay files (without the dot).
pub const REPLAY_EXTENSION: &str = "sbrp";

/// The most rounds a replay may record (a first-to-99 match with many drawn rounds fits).
pub const MAX_ROUNDS: usize = 1_000;
/// The most state hashes a replay may record: one per [`HASH_INTERVAL`] of the longest match.
pub const MAX_HASHES: usize = (MAX_MATCH_FRAMES / HASH_INTERVAL) as usize + 1;

const ENVELOPE: Envelope = Envelope {
    magic: REPLAY_MAGIC,
    version: &REPLAY_FORMAT_VERSION.to_le_bytes(),
    max_bytes: MAX_REPLAY_BYTES,
};

type BodyConfig = Limited<MAX_REPLAY_BYTES>;

const fn body_config() -> BodyConfig {
    limited::<MAX_REPLAY_BYTES>()
}

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

/// A state hash at a frame: [`Match::state_hash`] after simulating frames `0..frame`.
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

/// A whole recorded match: everything needed to play it back and check it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Replay {
    /// Rules, seed and both handlings.
    pub header: MatchHeader,
    /// Names of seats 0 and 1.
    pub names: [String; 2],
    /// Each seat's recorded inputs.
    pub inputs: [SeatInputs; 2],
    /// State hashes every [`HASH_INTERVAL`] frames, increasing.
    pub hashes: Vec<FrameHash>,
    /// Every round's result, in order.
    pub rounds: Vec<RoundRecord>,
    /// The match result.
    pub result: MatchResult,
    /// When the replay was written, in seconds since the Unix epoch.
    pub created_unix: u64,
}

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

impl Replay {
    /// The replay of the match `sim` has simulated so far: its header, both seats' inputs, the
    /// hashes and rounds it recorded, and the given result (the server's, or a test's).
    pub fn record(
        sim: &ConfirmedSim,
        names: [String; 2],
        winner: Option<Seat>,
        reason: EndReason,
        created_unix: u64,
    ) -> Replay {
        Replay {
            header: *sim.game().header(),
            names,
            inputs: sim.seat_inputs(),
            hashes: sim.hashes().to_vec(),
            rounds: sim.rounds().to_vec(),
            result: MatchResult {
                winner,
                reason,
                frames: sim.frame(),
            },
            created_unix,
        }
    }

    /// Plays both seats' whole input lists from `header` until the match is decided or the
    /// inputs end, and records it (the simulation's winner, `reason`): how tools and tests
    /// make a replay without a server. A list the server would refuse is refused here too.
    pub fn play_out(
        header: MatchHeader,
        inputs: &[SeatInputs; 2],
        names: [String; 2],
        reason: EndReason,
        created_unix: u64,
    ) -> Result<Replay, InputLogError> {
        let mut sim = ConfirmedSim::new(header);
        for seat in Seat::BOTH {
            let i = &inputs[seat.index()];
            sim.extend(seat, &i.changes, i.confirmed)?;
        }
        sim.advance();
        let winner = sim.winner();
        Ok(Replay::record(&sim, names, winner, reason, created_unix))
    }

    /// Encodes the replay as a file: magic, version, body, checksum.
    pub fn encode(&self) -> Result<Vec<u8>, ReplayError> {
        ENVELOPE
            .seal(self, body_config())
            .map_err(ReplayError::Encode)
    }

    /// Decodes a replay file, checking magic, version and checksum before the body.
    pub fn decode(bytes: &[u8]) -> Result<Replay, ReplayError> {
        let replay: Replay = ENVELOPE.open(bytes, body_config())?;
        replay.check_counts()?;
        Ok(replay)
    }

    /// Checks every count the file claims against the documented maxima ([`MAX_MATCH_FRAMES`],
    /// [`MAX_HASHES`], [`MAX_ROUNDS`], [`MAX_NAME_CHARS`]) and the input lists' order, before
    /// anything is expanded or simulated: a forged count is refused in microseconds.
    pub fn check_counts(&self) -> Result<(), ReplayError> {
        for (seat, name) in self.names.iter().enumerate() {
            if name.chars().count() > MAX_NAME_CHARS {
                return Err(ReplayError::Malformed(format!(
                    "name of seat {seat} is longer than {MAX_NAME_CHARS} characters"
                )));
            }
        }
        for (seat, inputs) in self.inputs.iter().enumerate() {
            InputLog::check(&inputs.changes, 0, inputs.confirmed)
                .map_err(|error| ReplayError::BadInputs { seat, error })?;
        }
        if self.hashes.len() > MAX_HASHES {
            return Err(ReplayError::Malformed(format!(
                "{} state hashes is more than the longest match has ({MAX_HASHES})",
                self.hashes.len()
            )));
        }
        if self.rounds.len() > MAX_ROUNDS {
            return Err(ReplayError::Malformed(format!(
                "{} rounds is more than a replay may hold ({MAX_ROUNDS})",
                self.rounds.len()
            )));
        }
        if self.result.frames > MAX_MATCH_FRAMES {
            return Err(ReplayError::Malformed(format!(
                "result at frame {} is past the longest match ({MAX_MATCH_FRAMES} frames)",
                self.result.frames
            )));
        }
        Ok(())
    }

    /// A one-line description: names, result and length, for listings.
    pub fn summary(&self) -> String {
        let [a, b] = &self.names;
        let wins = self.rounds.last().map_or([0, 0], |r| r.wins);
        let secs = self.result.frames / 60;
        let length = format!("{}:{:02}", secs / 60, secs % 60);
        let outcome = match (self.result.winner, self.result.reason) {
            (Some(w), EndReason::Forfeit) => {
                format!("{} won by forfeit", self.names[w.index()])
            }
            (Some(w), _) => format!(
                "{} won {}-{}",
                self.names[w.index()],
                wins[w.index()],
                wins[w.other().index()]
            ),
            (None, _) => "unfinished".to_string(),
        };
        format!("{a} vs {b}: {outcome}, {length}")
    }
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

/// Something the simulation saw while advancing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SimEvent {
    /// A round ended (the last round of a match included).
    RoundOver(RoundRecord),
    /// The match ended on the boards.
    MatchOver {
        /// The match winner.
        winner: Seat,
        /// The frame on which it ended.
        frame: u32,
    },
}

/// A match stepped exactly as far as both seats' inputs are confirmed; it records hashes and
/// rounds as it goes and stops for good once the match is decided.
#[derive(Clone, Debug)]
pub struct ConfirmedSim {
    game: Match,
    logs: [InputLog; 2],
    hashes: Vec<FrameHash>,
    rounds: Vec<RoundRecord>,
}

impl ConfirmedSim {
    /// A simulation at frame 0 with empty logs.
    pub fn new(header: MatchHeader) -> ConfirmedSim {
        ConfirmedSim {
            game: Match::new(header),
            logs: [InputLog::new(), InputLog::new()],
            hashes: Vec::new(),
            rounds: Vec::new(),
        }
    }

    /// Appends a batch of `seat`'s inputs (see [`InputLog::extend`]); a refused batch changes
    /// nothing. Call [`ConfirmedSim::advance`] afterwards.
    pub fn extend(
        &mut self,
        seat: Seat,
        changes: &[InputChange],
        confirmed: u32,
    ) -> Result<(), InputLogError> {
        self.logs[seat.index()].extend(changes, confirmed)
    }

    /// Steps the match over every frame both seats have confirmed (until it is decided) and
    /// returns what happened.
    pub fn advance(&mut self) -> Vec<SimEvent> {
        let limit = self.logs[0].confirmed().min(self.logs[1].confirmed());
        let mut events = Vec::new();
        while self.game.winner().is_none() && self.game.frame().0 < limit {
            let f = self.game.frame().0;
            // Both logs hold frame `f`: it is below both confirmations (checked just above).
            let inputs = [
                self.logs[0].get(f).unwrap_or_default(),
                self.logs[1].get(f).unwrap_or_default(),
            ];
            self.game.step(inputs);
            let ev = *self.game.events();
            if let Some(winner) = ev.round_over {
                let record = RoundRecord {
                    round: self.game.round(),
                    winner,
                    wins: self.game.wins(),
                    frame: f,
                };
                self.rounds.push(record);
                events.push(SimEvent::RoundOver(record));
            }
            if let Some(winner) = ev.match_over {
                events.push(SimEvent::MatchOver { winner, frame: f });
            }
            let done = self.game.frame().0;
            if done.is_multiple_of(HASH_INTERVAL) {
                self.hashes.push(FrameHash {
                    frame: done,
                    hash: self.game.state_hash(),
                });
            }
        }
        events
    }

    /// The match as simulated so far.
    pub fn game(&self) -> &Match {
        &self.game
    }

    /// Frames simulated so far.
    pub fn frame(&self) -> u32 {
        self.game.frame().0
    }

    /// The match winner, once decided.
    pub fn winner(&self) -> Option<Seat> {
        self.game.winner()
    }

    /// The input log of `seat`.
    pub fn log(&self, seat: Seat) -> &InputLog {
        &self.logs[seat.index()]
    }

    /// Hashes recorded so far (one every [`HASH_INTERVAL`] frames).
    pub fn hashes(&self) -> &[FrameHash] {
        &self.hashes
    }

    /// The recorded hash after simulating frames `0..frame`, if that point was reached and
    /// `frame` is a multiple of [`HASH_INTERVAL`].
    pub fn hash_at(&self, frame: u32) -> Option<u64> {
        if frame == 0 || !frame.is_multiple_of(HASH_INTERVAL) {
            return None;
        }
        let i = (frame / HASH_INTERVAL - 1) as usize;
        self.hashes
            .get(i)
            .filter(|h| h.frame == frame)
            .map(|h| h.hash)
    }

    /// Round results so far.
    pub fn rounds(&self) -> &[RoundRecord] {
        &self.rounds
    }

    /// Each seat's recorded inputs, as stored in a replay.
    pub fn seat_inputs(&self) -> [SeatInputs; 2] {
        [Seat::First, Seat::Second].map(|s| SeatInputs {
            changes: self.logs[s.index()].changes().to_vec(),
            confirmed: self.logs[s.index()].confirmed(),
        })
    }
}

/// What [`verify`] checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyReport {
    /// Frames re-simulated.
    pub frames: u32,
    /// Recorded hashes compared (all matched).
    pub hashes_checked: usize,
    /// Rounds re-simulated (all matched the recording).
    pub rounds: Vec<RoundRecord>,
    /// The recorded (and confirmed) result.
    pub result: MatchResult,
    /// The re-simulation's state hash at its last frame.
    pub final_hash: u64,
}

/// Re-simulates a replay with the core and checks every recorded hash, every round and the
/// result. Pure: no I/O.
pub fn verify(replay: &Replay) -> Result<VerifyReport, ReplayError> {
    replay.header.validate()?;
    let mut sim = ConfirmedSim::new(replay.header);
    for seat in Seat::BOTH {
        let rec = &replay.inputs[seat.index()];
        sim.extend(seat, &rec.changes, rec.confirmed)
            .map_err(|error| ReplayError::BadInputs {
                seat: seat.index(),
                error,
            })?;
    }
    sim.advance();
    let frames = sim.frame();
    let mut checked = 0;
    for rec in &replay.hashes {
        let simulated = sim.hash_at(rec.frame).ok_or(ReplayError::HashOutOfRange {
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
        checked += 1;
    }
    if sim.rounds() != replay.rounds.as_slice() {
        return Err(ReplayError::RoundMismatch {
            recorded: replay.rounds.clone(),
            simulated: sim.rounds().to_vec(),
        });
    }
    let result = replay.result;
    let simulated = sim.winner();
    let consistent = match result.reason {
        // Decided on the boards: the re-simulation must reach the same winner.
        EndReason::TopOut => result.winner.is_some() && simulated == result.winner,
        // Decided off the boards: the boards must not have decided it first.
        EndReason::Forfeit => result.winner.is_some() && simulated.is_none(),
        EndReason::Shutdown => result.winner.is_none() && simulated.is_none(),
    };
    if !consistent || frames != result.frames {
        return Err(ReplayError::ResultMismatch {
            recorded: result,
            simulated,
            frames,
        });
    }
    Ok(VerifyReport {
        frames,
        hashes_checked: checked,
        rounds: sim.rounds().to_vec(),
        result,
        final_hash: sim.game().state_hash(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use sevenbag_core::Input;

    /// Seat 0 hard-drops every 6 frames, seat 1 every 12: seat 0 tops out first.
    fn scripted(period: u32, frames: u32) -> SeatInputs {
        let masks: Vec<Input> = (0..frames)
            .map(|f| {
                if f % period == 0 {
                    Input::HARD_DROP
                } else {
                    Input::NONE
                }
            })
            .collect();
        SeatInputs::from_masks(&masks)
    }

    fn recorded_match() -> Replay {
        let mut header = MatchHeader::versus(42);
        header.rules.first_to = 1;
        header.rules.countdown_frames = 10;
        let inputs = [scripted(6, 2000), scripted(12, 2000)];
        let names = ["ann".into(), "bob".into()];
        Replay::play_out(header, &inputs, names, EndReason::TopOut, 1_700_000_000).unwrap()
    }

    #[test]
    fn round_trip_and_verify() {
        let replay = recorded_match();
        assert_eq!(replay.result.winner, Some(Seat::Second));
        assert!(!replay.hashes.is_empty());
        let bytes = replay.encode().unwrap();
        assert_eq!(&bytes[..4], b"SBRP");
        let back = Replay::decode(&bytes).unwrap();
        assert_eq!(back, replay);
        let report = verify(&back).unwrap();
        assert_eq!(report.hashes_checked, replay.hashes.len());
        assert_eq!(report.frames, replay.result.frames);
        assert!(
            replay.summary().contains("bob won 1-0"),
            "{}",
            replay.summary()
        );
    }

    #[test]
    fn every_flipped_byte_is_reported_not_panicked() {
        let bytes = recorded_match().encode().unwrap();
        for i in 0..bytes.len() {
            let mut bad = bytes.clone();
            bad[i] ^= 0x40;
            let err = Replay::decode(&bad).unwrap_err();
            match i {
                0..4 => assert!(matches!(err, ReplayError::BadMagic { .. }), "{i}: {err}"),
                4..6 => assert!(
                    matches!(err, ReplayError::UnsupportedVersion { .. }),
                    "{i}: {err}"
                ),
                _ => assert!(matches!(err, ReplayError::Checksum { .. }), "{i}: {err}"),
            }
        }
        for len in 0..bytes.len() {
            assert!(Replay::decode(&bytes[..len]).is_err());
        }
        let err = Replay::decode(&bytes[..bytes.len() - 1]).unwrap_err();
        assert!(err.to_string().starts_with("corrupted"), "{err}");
    }

    #[test]
    fn a_tampered_hash_or_result_fails_verification() {
        let mut replay = recorded_match();
        replay.hashes[0].hash ^= 1;
        assert!(matches!(
            verify(&replay),
            Err(ReplayError::HashMismatch { frame: 60, .. })
        ));
        let mut replay = recorded_match();
        replay.result.winner = Some(Seat::First);
        assert!(matches!(
            verify(&replay),
            Err(ReplayError::ResultMismatch { .. })
        ));
        let mut replay = recorded_match();
        replay.rounds.clear();
        assert!(matches!(
            verify(&replay),
            Err(ReplayError::RoundMismatch { .. })
        ));
    }

    #[test]
    fn hash_at_reads_the_interval() {
        let replay = recorded_match();
        let mut sim = ConfirmedSim::new(replay.header);
        for seat in Seat::BOTH {
            let i = &replay.inputs[seat.index()];
            sim.extend(seat, &i.changes, i.confirmed).unwrap();
        }
        sim.advance();
        assert_eq!(sim.hash_at(60), Some(replay.hashes[0].hash));
        assert_eq!(sim.hash_at(61), None);
        assert_eq!(sim.hash_at(0), None);
        assert_eq!(sim.hash_at(60 * 10_000), None);
    }

    /// A forged replay: both seats claim 4,294,967,294 confirmed frames, with the
    /// checksum recomputed as anyone can. It must be refused at once, before any expansion.
    #[test]
    fn a_forged_frame_count_is_refused_before_anything_is_allocated() {
        let mut replay = recorded_match();
        for seat in &mut replay.inputs {
            seat.confirmed = u32::MAX - 1;
        }
        let bytes = replay.encode().unwrap();
        let started = std::time::Instant::now();
        let err = Replay::decode(&bytes).unwrap_err();
        assert!(started.elapsed() < std::time::Duration::from_secs(1));
        assert!(
            matches!(
                err,
                ReplayError::BadInputs {
                    seat: 0,
                    error: InputLogError::TooLong { .. }
                }
            ),
            "{err}"
        );
        assert!(err.to_string().contains("seat 0"), "{err}");
        // verify() on a replay built in memory goes through the same check.
        assert!(matches!(
            verify(&replay),
            Err(ReplayError::BadInputs { .. })
        ));
    }

    #[test]
    fn too_many_hashes_or_rounds_are_refused() {
        let mut replay = recorded_match();
        replay.hashes = vec![replay.hashes[0]; MAX_HASHES + 1];
        let err = Replay::decode(&replay.encode().unwrap()).unwrap_err();
        assert!(err.to_string().contains("state hashes"), "{err}");
        let mut replay = recorded_match();
        replay.rounds = vec![replay.rounds[0]; MAX_ROUNDS + 1];
        let err = Replay::decode(&replay.encode().unwrap()).unwrap_err();
        assert!(err.to_string().contains("rounds"), "{err}");
    }

    #[test]
    fn an_overlong_name_is_refused() {
        let mut replay = recorded_match();
        replay.names[1] = "x".repeat(MAX_NAME_CHARS + 1);
        let err = Replay::decode(&replay.encode().unwrap()).unwrap_err();
        assert!(err.to_string().contains("seat 1"), "{err}");
    }
}
