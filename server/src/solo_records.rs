//! Solo records that cannot be faked: a client submits a finished Sprint or Blitz as its solo
//! replay file (`SubmitSolo`); the server decodes it, re-simulates it with the core, and keeps
//! only the result its own simulation reached, under the identified player.
//!
//! # What is checked, in order (each refusal is a `BadReplay` error that says which)
//! 1. The server has a database (`Unavailable`) and the connection is identified
//!    (`NotIdentified`; guests cannot hold records).
//! 2. The file decodes: size, magic, version, checksum, bounded counts (`SoloReplay::decode`).
//! 3. It is a ranked mode (Sprint or Blitz, not Zen) on the standard rules (`Rules::versus()`;
//!    only handling is the player's choice), claims a finished run (a cleared Sprint, a Blitz
//!    that ran its time), and its frame count is within the mode's cap ([`MAX_SPRINT_FRAMES`]
//!    of play for a Sprint; a Blitz is exactly its two minutes) — all before simulating.
//! 4. Re-simulation on a blocking thread (`verify_solo`): the inputs must reach the recorded
//!    result and final state hash on the last recorded frame. At most [`MAX_VERIFYING`] run at
//!    once; each is bounded by step 3's frame cap (measured in `BENCHMARKS.md`).
//!
//! Then the run is stored through the database writer; only each player's best per mode is kept
//! (`Storage::record_solo`), and the answer is `SoloRecorded` with the run's place.

use std::time::Instant;

use sevenbag_core::solo::BLITZ_FRAMES;
use sevenbag_core::{Rules, SoloMode, SoloResult};
use sevenbag_protocol::solo_replay::{group_digits, result_text};
use sevenbag_protocol::{ErrorCode, SoloReplay, SoloReplayError, verify_solo};
use sevenbag_storage::{SoloBoard, SoloRecordOutcome, SoloRun, StorageError};
use tokio::sync::Semaphore;
use tracing::{error, info};

use crate::db;
use crate::lobby::Refusal;
use crate::ranked::Identity;
use crate::shared::Shared;

/// The longest Sprint accepted, in frames of play after the countdown: 30 minutes.
pub(crate) const MAX_SPRINT_FRAMES: u32 = 30 * 60 * 60;
/// Re-simulations running at once, server-wide (more wait their turn).
pub(crate) const MAX_VERIFYING: usize = 2;

static VERIFYING: Semaphore = Semaphore::const_new(MAX_VERIFYING);

fn bad(message: impl Into<String>) -> Refusal {
    (ErrorCode::BadReplay, message.into())
}

/// The board a result belongs on (`None` for Zen).
pub(crate) fn board(mode: SoloMode) -> Option<SoloBoard> {
    match mode {
        SoloMode::Sprint => Some(SoloBoard::Sprint),
        SoloMode::Blitz => Some(SoloBoard::Blitz),
        SoloMode::Zen => None,
    }
}

/// The checks that need no simulation (step 3 above).
pub(crate) fn precheck(replay: &SoloReplay) -> Result<SoloBoard, Refusal> {
    let header = &replay.header;
    let Some(board) = board(header.mode) else {
        return Err(bad("Zen runs have no leaderboard"));
    };
    if replay.result.mode != header.mode {
        return Err(bad("the result's mode differs from the header's"));
    }
    if header.rules != Rules::versus() {
        return Err(bad(
            "only runs on the standard rules are ranked (this one changes the rules)",
        ));
    }
    if !replay.result.ranked() {
        return Err(bad(format!(
            "a {} that did not reach its goal is not ranked: {}",
            header.mode.name(),
            result_text(&replay.result)
        )));
    }
    let countdown = u32::from(header.rules.countdown_frames);
    let cap = match board {
        SoloBoard::Sprint => MAX_SPRINT_FRAMES,
        SoloBoard::Blitz => BLITZ_FRAMES,
    };
    if replay.inputs.confirmed > countdown + cap {
        return Err(bad(format!(
            "{} frames of inputs: a ranked {} has at most {} after the countdown",
            replay.inputs.confirmed,
            header.mode.name(),
            cap
        )));
    }
    Ok(board)
}

/// What a failed re-simulation means, for people.
pub(crate) fn verify_refusal(e: &SoloReplayError) -> Refusal {
    let text = |r: &SoloResult| match (r.ranked(), r.mode) {
        (true, SoloMode::Sprint) => format!(
            "{} ({} lines, {} points)",
            result_text(r),
            r.lines,
            group_digits(r.score)
        ),
        (true, _) => format!("{} ({} lines)", result_text(r), r.lines),
        (false, _) => result_text(r),
    };
    match e {
        SoloReplayError::ResultMismatch {
            recorded,
            simulated: None,
        } => bad(format!(
            "the inputs end before the run does: the replay claims {}, but its inputs do not \
             finish the run",
            text(recorded)
        )),
        SoloReplayError::ResultMismatch {
            recorded,
            simulated: Some(simulated),
        } => bad(format!(
            "the inputs re-simulate to {}, not the {} the replay claims",
            text(simulated),
            text(recorded)
        )),
        SoloReplayError::HashMismatch { .. } => {
            bad("the inputs re-simulate to the claimed result but not to the recorded final state")
        }
        other => bad(format!("the replay does not verify: {other}")),
    }
}

/// Decodes, checks and re-simulates `bytes`: the result the server computed. Blocking (CPU).
pub(crate) fn verify_bytes(bytes: &[u8]) -> Result<(SoloBoard, SoloResult, u32), Refusal> {
    let replay =
        SoloReplay::decode(bytes).map_err(|e| bad(format!("not a valid solo replay: {e}")))?;
    let board = precheck(&replay)?;
    let report = verify_solo(&replay).map_err(|e| verify_refusal(&e))?;
    Ok((board, report.result, report.frames))
}

/// Handles a `SubmitSolo`: checks, re-simulates off the async threads, stores.
pub(crate) async fn submit(
    shared: &Shared,
    identity: Option<Identity>,
    bytes: Vec<u8>,
) -> Result<(SoloResult, SoloRecordOutcome), Refusal> {
    let Some(db) = shared.db.as_ref() else {
        return Err((
            ErrorCode::Unavailable,
            "this server keeps no database: there are no solo records".to_string(),
        ));
    };
    let Some(identity) = identity else {
        return Err((
            ErrorCode::NotIdentified,
            "solo records need an identity: Register or Identify first".to_string(),
        ));
    };
    let permit = VERIFYING
        .acquire()
        .await
        .map_err(|_| bad("the server is not verifying runs"))?;
    let started = Instant::now();
    let (bytes, verified) = tokio::task::spawn_blocking(move || {
        let verified = verify_bytes(&bytes);
        (bytes, verified)
    })
    .await
    .map_err(|e| {
        error!(error = %e, "solo verification task failed");
        bad("the server could not verify the run; try again")
    })?;
    drop(permit);
    let took = started.elapsed();
    let (board, result, frames) = match verified {
        Ok(v) => v,
        Err(refusal) => {
            info!(player = identity.id.0, reason = %refusal.1, "solo run refused");
            return Err(refusal);
        }
    };
    let run = SoloRun {
        player: identity.id,
        board,
        frames: result.frames,
        lines: result.lines,
        pieces: result.pieces,
        score: result.score,
        recorded_unix: db::unix_now(),
        replay: bytes,
    };
    let outcome = db
        .write(move |s| s.record_solo(&run))
        .await
        .map_err(|e: StorageError| {
            error!(error = %e, "cannot store a solo run");
            (
                ErrorCode::Unavailable,
                "the server's database failed; try again later".to_string(),
            )
        })?;
    info!(
        player = identity.id.0,
        mode = board.name(),
        result = %result_text(&result),
        frames_simulated = frames,
        verify_us = took.as_micros() as u64,
        personal_best = outcome.personal_best,
        place = outcome.place,
        "solo run recorded"
    );
    Ok((result, outcome))
}
