//! [`verify`]: re-simulating a replay of two seats and comparing it with what it recorded.

use sevenbag_core::Seat;

use super::Replay;
use super::error::ReplayError;
use super::reader::{check_hashes, result_agrees};
use super::records::{MatchResult, RoundRecord};
use super::sim::ConfirmedSim;

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
    let checked = check_hashes(&replay.hashes, sim.trail(), frames)?;
    if sim.rounds() != replay.rounds.as_slice() {
        return Err(ReplayError::RoundMismatch {
            recorded: replay.rounds.clone(),
            simulated: sim.rounds().to_vec(),
        });
    }
    let result = replay.result;
    let simulated = sim.winner();
    let consistent = result_agrees(result.reason, result.winner, simulated);
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
