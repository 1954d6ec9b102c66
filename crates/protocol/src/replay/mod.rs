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

mod error;
pub(crate) mod reader;
mod records;
mod sim;
mod verify;

use serde::{Deserialize, Serialize};
#[cfg(doc)]
use sevenbag_core::Match;
use sevenbag_core::{MatchHeader, Seat};

pub use self::error::ReplayError;
use self::reader::Recording;
pub use self::records::{
    FrameHash, HASH_INTERVAL, MAX_HASHES, MAX_REPLAY_BYTES, MAX_ROUNDS, MatchResult,
    REPLAY_EXTENSION, REPLAY_FORMAT_VERSION, REPLAY_MAGIC, RoundRecord, SeatInputs,
};
pub use self::sim::{ConfirmedSim, SimEvent};
pub use self::verify::{VerifyReport, verify};
use crate::envelope::Envelope;
pub use crate::envelope::{checksum, forge_checksum};
#[cfg(doc)]
use crate::inputs::MAX_MATCH_FRAMES;
use crate::inputs::{InputLog, InputLogError};
use crate::messages::EndReason;
#[cfg(doc)]
use crate::messages::MAX_NAME_CHARS;

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
        reader::encode(self)
    }

    /// Decodes a replay file, checking magic, version and checksum before the body.
    pub fn decode(bytes: &[u8]) -> Result<Replay, ReplayError> {
        reader::decode(bytes)
    }

    /// Checks every count the file claims against the documented maxima ([`MAX_MATCH_FRAMES`],
    /// [`MAX_HASHES`], [`MAX_ROUNDS`], [`MAX_NAME_CHARS`]) and the input lists' order, before
    /// anything is expanded or simulated: a forged count is refused in microseconds.
    pub fn check_counts(&self) -> Result<(), ReplayError> {
        reader::check_counts(self)
    }

    /// This replay as the server's list shows it, under `id` (`ranked` is the server's to say:
    /// the file does not record it).
    pub fn listing(&self, id: &str, ranked: bool) -> crate::ReplayListing {
        crate::ReplayListing {
            id: id.to_owned(),
            names: self.names.clone(),
            winner: self.result.winner,
            reason: self.result.reason,
            score: self.rounds.last().map_or([0, 0], |r| r.wins),
            frames: self.result.frames,
            created_unix: self.created_unix,
            ranked,
        }
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
            (None, EndReason::Abandoned) => "no result (nobody came back)".to_string(),
            (None, _) => "unfinished".to_string(),
        };
        format!("{a} vs {b}: {outcome}, {length}")
    }
}

impl Recording for Replay {
    const VERSION: u16 = REPLAY_FORMAT_VERSION;
    const ENVELOPE: Envelope = reader::envelope(&REPLAY_FORMAT_VERSION.to_le_bytes());

    fn names(&self) -> &[String] {
        &self.names
    }

    fn check_inputs(&self) -> Result<(), (usize, InputLogError)> {
        for (seat, inputs) in self.inputs.iter().enumerate() {
            InputLog::check(&inputs.changes, 0, inputs.confirmed).map_err(|error| (seat, error))?;
        }
        Ok(())
    }

    fn hashes(&self) -> &[FrameHash] {
        &self.hashes
    }

    fn round_count(&self) -> usize {
        self.rounds.len()
    }

    fn result_frames(&self) -> u32 {
        self.result.frames
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::messages::MAX_NAME_CHARS;
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
