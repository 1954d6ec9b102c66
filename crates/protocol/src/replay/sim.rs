//! [`ConfirmedSim`]: a two-seat match stepped exactly as far as both seats are confirmed.

use sevenbag_core::{Match, MatchHeader, Seat};

use super::reader::HashTrail;
use super::records::{FrameHash, RoundRecord, SeatInputs};
use crate::inputs::{InputLog, InputLogError};
use crate::messages::InputChange;

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
    hashes: HashTrail,
    rounds: Vec<RoundRecord>,
}

impl ConfirmedSim {
    /// A simulation at frame 0 with empty logs.
    pub fn new(header: MatchHeader) -> ConfirmedSim {
        ConfirmedSim {
            game: Match::new(header),
            logs: [InputLog::new(), InputLog::new()],
            hashes: HashTrail::default(),
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
        self.advance_with(|_| {})
    }

    /// [`ConfirmedSim::advance`], calling `on_round_over` with the match as it stands on the
    /// frame each round ends (before the next round resets the boards and their counters).
    pub fn advance_with(&mut self, mut on_round_over: impl FnMut(&Match)) -> Vec<SimEvent> {
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
                on_round_over(&self.game);
            }
            if let Some(winner) = ev.match_over {
                events.push(SimEvent::MatchOver { winner, frame: f });
            }
            let game = &self.game;
            self.hashes.record(game.frame().0, || game.state_hash());
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

    /// Hashes recorded so far (one every [`HASH_INTERVAL`](super::HASH_INTERVAL) frames).
    pub fn hashes(&self) -> &[FrameHash] {
        self.hashes.all()
    }

    /// The recorded hash after simulating frames `0..frame`, if that point was reached and
    /// `frame` is a multiple of [`HASH_INTERVAL`](super::HASH_INTERVAL).
    pub fn hash_at(&self, frame: u32) -> Option<u64> {
        self.hashes.at(frame)
    }

    /// The hashes, for [`super::verify`].
    pub(crate) fn trail(&self) -> &HashTrail {
        &self.hashes
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
