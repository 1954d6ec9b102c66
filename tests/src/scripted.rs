//! Scripted players: a [`RawClient`] that hard-drops every `period` frames, paced to the
//! server's match clock, and reports state hashes like a real client.
//!
//! Two scripted players with different periods make a short, predictable match: pieces pile up
//! in the middle, and the faster dropper tops out first. [`expected`] computes the outcome with
//! the core alone, so a test can check the server's result against it.

use std::time::Duration;

use anyhow::{Context, bail};
use sevenbag_core::{Input, MatchHeader, Seat};
use sevenbag_protocol::{
    ClientMessage, ConfirmedSim, EndReason, ErrorCode, InputLog, RoundRecord, ServerMessage,
};
use tokio::time::Instant;

use crate::{Event, RawClient};

/// How far ahead of its estimate of the server's clock a scripted player confirms. Below the
/// server's 120-frame limit, with a second of margin for clock estimate error.
pub const LEAD_FRAMES: u32 = 60;
/// A scripted player never confirms past this frame (five minutes).
pub const MAX_FRAMES: u32 = 5 * 60 * 60;

/// The scripted key mask: hard drop on every frame that is a multiple of `period`.
pub fn mask(period: u32, frame: u32) -> Input {
    if frame.is_multiple_of(period.max(2)) {
        Input::HARD_DROP
    } else {
        Input::NONE
    }
}

/// The whole script of a seat for frames `0..frames`, as a change list.
pub fn script(period: u32, frames: u32) -> Vec<sevenbag_protocol::InputChange> {
    let masks: Vec<Input> = (0..frames).map(|f| mask(period, f)).collect();
    InputLog::diff(&masks, 0, Input::NONE)
}

/// What the core alone says two scripted players reach: (winner, rounds), simulated from
/// `header` with each seat's period.
pub fn expected(header: MatchHeader, periods: [u32; 2]) -> (Option<Seat>, Vec<RoundRecord>) {
    let mut sim = ConfirmedSim::new(header);
    for seat in Seat::BOTH {
        let changes = script(periods[seat.index()], MAX_FRAMES);
        // The script is a valid log by construction (increasing, below MAX_FRAMES).
        let _ = sim.extend(seat, &changes, MAX_FRAMES);
    }
    sim.advance();
    (sim.winner(), sim.rounds().to_vec())
}

/// What a scripted player saw of its match.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The player's seat.
    pub seat: Seat,
    /// The match header from `MatchStart`.
    pub header: MatchHeader,
    /// Every `RoundOver`, in order.
    pub rounds: Vec<RoundRecord>,
    /// `MatchOver`'s winner.
    pub winner: Seat,
    /// `MatchOver`'s reason.
    pub reason: EndReason,
    /// `MatchOver`'s replay id.
    pub replay: Option<String>,
    /// `Desync`s received.
    pub desyncs: u32,
    /// State hashes sent.
    pub hashes_sent: usize,
    /// Non-fatal errors received.
    pub errors: Vec<(ErrorCode, String)>,
}

/// Plays one match as `seat`: waits for `MatchStart`, then sends the script paced to the
/// server's clock plus a state hash every 60 frames, until `MatchOver` (bounded by `limit`).
pub async fn play(
    client: &mut RawClient,
    seat: Seat,
    period: u32,
    limit: Duration,
) -> anyhow::Result<Outcome> {
    let deadline = Instant::now() + limit;
    let (header, start_in_ms) = client
        .recv_until(limit, |m| match m {
            ServerMessage::MatchStart {
                header,
                start_in_ms,
                ..
            } => Some((*header, *start_in_ms)),
            _ => None,
        })
        .await
        .context("waiting for MatchStart")?;
    // Our frame 0 is no earlier than the server's (the message took time to arrive), so our
    // clock estimate lags the server's: confirming LEAD_FRAMES past it stays within the limit.
    let frame0 = Instant::now() + Duration::from_millis(u64::from(start_in_ms));
    let mut sim = ConfirmedSim::new(header);
    let mut confirmed = 0u32;
    let mut last = Input::NONE;
    let mut hashes_sent = 0usize;
    let mut rounds = Vec::new();
    let mut desyncs = 0;
    let mut errors = Vec::new();
    while Instant::now() < deadline {
        let elapsed = Instant::now().saturating_duration_since(frame0);
        let now_frame = (elapsed.as_millis() * 60 / 1000) as u32;
        let target = (now_frame + LEAD_FRAMES).min(MAX_FRAMES);
        if target > confirmed {
            let masks: Vec<Input> = (confirmed..target).map(|f| mask(period, f)).collect();
            let changes = InputLog::diff(&masks, confirmed, last);
            last = masks.last().copied().unwrap_or(last);
            sim.extend(seat, &changes, target)
                .context("own script refused by the local log")?;
            client
                .send(&ClientMessage::Inputs {
                    changes,
                    confirmed: target,
                })
                .await?;
            confirmed = target;
        }
        if let Some(event) = client.poll_event(Duration::from_millis(16)).await? {
            match event {
                Event::Message(ServerMessage::Inputs {
                    seat: s,
                    changes,
                    confirmed,
                }) if s != seat => {
                    sim.extend(s, &changes, confirmed)
                        .context("opponent's relayed inputs do not extend the log")?;
                }
                Event::Message(ServerMessage::RoundOver {
                    round,
                    winner,
                    wins,
                    frame,
                }) => rounds.push(RoundRecord {
                    round,
                    winner,
                    wins,
                    frame,
                }),
                Event::Message(ServerMessage::MatchOver {
                    winner,
                    reason,
                    replay,
                }) => {
                    return Ok(Outcome {
                        seat,
                        header,
                        rounds,
                        winner,
                        reason,
                        replay,
                        desyncs,
                        hashes_sent,
                        errors,
                    });
                }
                Event::Message(ServerMessage::Desync { .. }) => desyncs += 1,
                Event::Message(ServerMessage::Error {
                    code,
                    message,
                    fatal,
                }) => {
                    if fatal {
                        bail!("cut by the server: {code:?}: {message}");
                    }
                    errors.push((code, message));
                }
                Event::Message(_) => {}
                Event::Closed(frame) => bail!("connection closed mid-match: {frame:?}"),
            }
        }
        sim.advance();
        while let Some(h) = sim.hashes().get(hashes_sent).copied() {
            client
                .send(&ClientMessage::StateHash {
                    frame: h.frame,
                    hash: h.hash,
                })
                .await?;
            hashes_sent += 1;
        }
    }
    bail!("no MatchOver within {limit:?}")
}

/// What a scripted player saw of a match in a room of the general kind.
#[derive(Clone, Debug)]
pub struct BattleOutcome {
    /// The player's battle seat.
    pub seat: Seat,
    /// The match header from `BattleStart`.
    pub header: sevenbag_core::BattleHeader,
    /// Every `BattleRoundOver`'s winning team, in order.
    pub rounds: Vec<Option<u8>>,
    /// `BattleOver`'s winning team, as a seat (two seats without teams: team is seat).
    pub winner: Option<Seat>,
    /// `BattleOver`'s reason.
    pub reason: EndReason,
    /// `BattleOver`'s replay id.
    pub replay: Option<String>,
    /// Non-fatal errors received.
    pub errors: Vec<(ErrorCode, String)>,
}

/// Plays one match of a room of the general kind (quick and ranked matches) from room seat
/// `room_seat` (`BattleJoined`'s): waits for `BattleStart`, then sends the script paced to the server's clock as `BattleInputs` for our
/// battle seat, until `BattleOver` (bounded by `limit`). The other seats' inputs are not
/// simulated: the server's verdict is the outcome.
pub async fn play_battle(
    client: &mut RawClient,
    room_seat: u8,
    period: u32,
    limit: Duration,
) -> anyhow::Result<BattleOutcome> {
    let deadline = Instant::now() + limit;
    let (header, room_seats, start_in_ms) = client
        .recv_until(limit, |m| match m {
            ServerMessage::BattleStart {
                header,
                room_seats,
                start_in_ms,
                ..
            } => Some((**header, room_seats.clone(), *start_in_ms)),
            _ => None,
        })
        .await
        .context("waiting for BattleStart")?;
    let seat = room_seats
        .iter()
        .position(|&s| s == room_seat)
        .and_then(Seat::new)
        .context("our seat in BattleStart")?;
    let frame0 = Instant::now() + Duration::from_millis(u64::from(start_in_ms));
    let mut confirmed = 0u32;
    let mut last = Input::NONE;
    let mut rounds = Vec::new();
    let mut errors = Vec::new();
    while Instant::now() < deadline {
        let elapsed = Instant::now().saturating_duration_since(frame0);
        let now_frame = (elapsed.as_millis() * 60 / 1000) as u32;
        let target = (now_frame + LEAD_FRAMES).min(MAX_FRAMES);
        if target > confirmed {
            let masks: Vec<Input> = (confirmed..target).map(|f| mask(period, f)).collect();
            let changes = InputLog::diff(&masks, confirmed, last);
            last = masks.last().copied().unwrap_or(last);
            client
                .send(&ClientMessage::BattleInputs {
                    changes,
                    targets: Vec::new(),
                    confirmed: target,
                })
                .await?;
            confirmed = target;
        }
        if let Some(event) = client.poll_event(Duration::from_millis(16)).await? {
            match event {
                Event::Message(ServerMessage::BattleRoundOver { winner, .. }) => {
                    rounds.push(winner)
                }
                Event::Message(ServerMessage::BattleOver {
                    winner,
                    reason,
                    replay,
                    ..
                }) => {
                    return Ok(BattleOutcome {
                        seat,
                        header,
                        rounds,
                        winner: winner.and_then(|w| Seat::new(usize::from(w))),
                        reason,
                        replay,
                        errors,
                    });
                }
                Event::Message(ServerMessage::Error {
                    code,
                    message,
                    fatal,
                }) => {
                    if fatal {
                        bail!("cut by the server: {code:?}: {message}");
                    }
                    errors.push((code, message));
                }
                Event::Message(_) => {}
                Event::Closed(frame) => bail!("connection closed mid-match: {frame:?}"),
            }
        }
    }
    bail!("no BattleOver within {limit:?}")
}
