//! The rollback session of a match of 2 to 8 seats: [`BattleSession`], the [`Session`] of
//! versus generalised to N − 1 remote input streams.
//!
//! It works as [`Session`] does and shares its options, stats and stepping result: every seat's
//! final keys and targets in a [`SeatLog`], a predicted [`Battle`] running ahead on each unheard
//! seat's last keys and target, a confirmed [`Battle`] stepped only on frames every seat has
//! confirmed (the source of the state hashes the server checks every [`HASH_INTERVAL`] frames:
//! the whole match's and each seat's board hash, so a desync names the seats that diverged),
//! and a ring of snapshots of every guessed frame. A batch from any
//! seat that differs from the guess rolls back to the earliest wrong frame of that seat and
//! re-simulates; as batches of different seats arrive one after another, every rollback
//! re-simulates with everything known by then, so the predicted match is always the one the
//! logs give. The next frame stalls when it is more than the window past the slowest remote
//! seat.
//!
//! [`Session`]: crate::Session

use sevenbag_core::{Battle, BattleHeader, MAX_SEATS, Seat, SeatInput};
use sevenbag_protocol::{
    ClientMessage, HASH_INTERVAL, InputChange, InputLogError, MAX_CHANGES_PER_MESSAGE, SeatLog,
    SeatSteps, ServerMessage, TargetChange,
};

use crate::rollback::{Game, Rollback, SeatLogs, SessionStats, Step};
use crate::session::{MAX_INPUT_DELAY, SessionOptions};

/// Inputs or a match log a [`BattleSession`] cannot accept.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BattleSessionError {
    /// A batch broke the input-log rules.
    #[error("inputs for seat {seat} refused: {source}")]
    Inputs {
        /// Whose inputs.
        seat: u8,
        /// What was wrong.
        #[source]
        source: InputLogError,
    },
    /// Inputs for our own seat arrived from outside.
    #[error("inputs for our own seat {0} arrived from the network")]
    OwnSeat(u8),
    /// A seat the match does not have.
    #[error("seat {0} is not in this match")]
    NoSuchSeat(u8),
    /// A match log of another match, or with lists that do not fit its seats.
    #[error("the match log does not fit this match: {0}")]
    BadLog(&'static str),
    /// The header does not make a match.
    #[error("match header refused: {0}")]
    Header(String),
}

/// One client's rollback session for a match of several seats (see the module docs).
#[derive(Clone, Debug)]
pub struct BattleSession {
    header: BattleHeader,
    /// Our battle seat, or `None` to spectate.
    local: Option<usize>,
    options: SessionOptions,
    /// Prediction, snapshots, the confirmed match and what to send; its notes are each seat's
    /// board hash beside every entry of its hashes, seat count per entry.
    core: Rollback<Box<Battle>>,
    /// The battle seats the server's last `BattleDesync` named.
    diverged: Vec<u8>,
}

impl BattleSession {
    /// A session at frame 0. `local` is our battle seat, or `None` to spectate.
    pub fn new(
        header: BattleHeader,
        local: Option<usize>,
        options: SessionOptions,
    ) -> Result<BattleSession, BattleSessionError> {
        header
            .validate()
            .map_err(|e| BattleSessionError::Header(e.to_string()))?;
        let start = Battle::new(header).map_err(|e| BattleSessionError::Header(e.to_string()))?;
        let n = start.seats();
        if local.is_some_and(|s| s >= n) {
            return Err(BattleSessionError::NoSuchSeat(local.unwrap_or(0) as u8));
        }
        let options = SessionOptions {
            input_delay: options.input_delay.min(MAX_INPUT_DELAY),
            ..options
        };
        let mut logs = vec![SeatLog::new(); n];
        if let Some(seat) = local {
            // Nobody could press a key in the first `input_delay` frames.
            if let Err(e) = logs[seat].extend(&[], &[], options.input_delay) {
                tracing::error!("cannot seed the local input log: {e}");
            }
        }
        Ok(BattleSession {
            header,
            local,
            options,
            core: Rollback::new(Box::new(start), logs, local, options.window),
            diverged: Vec::new(),
        })
    }

    /// A session fast-forwarded through a match log (`BattleLog`).
    pub fn from_log(
        header: BattleHeader,
        local: Option<usize>,
        options: SessionOptions,
        changes: &[Vec<InputChange>],
        targets: &[Vec<TargetChange>],
        confirmed: &[u32],
    ) -> Result<BattleSession, BattleSessionError> {
        let mut session = BattleSession::new(header, local, options)?;
        session.apply_log(changes, targets, confirmed)?;
        Ok(session)
    }

    /// The header simulated.
    pub fn header(&self) -> &BattleHeader {
        &self.header
    }

    /// Our battle seat.
    pub fn local_seat(&self) -> Option<usize> {
        self.local
    }

    /// The input delay and prediction window this session plays with.
    pub fn options(&self) -> SessionOptions {
        self.options
    }

    /// Changes the input delay during the match (capped at [`MAX_INPUT_DELAY`]), rewriting
    /// nothing (as [`crate::Session::set_input_delay`]): change it a frame at a time.
    pub fn set_input_delay(&mut self, delay: u32) {
        self.options.input_delay = delay.min(MAX_INPUT_DELAY);
    }

    /// Widens the prediction window during the match, up to the match's garbage travel (so a
    /// correction never reaches our own board); a narrower value is ignored.
    pub fn widen_window(&mut self, window: u32) {
        let cap = u32::from(self.header.rules.garbage_travel);
        self.options.window = self.options.window.max(window.min(cap));
    }

    /// The next frame the predicted match simulates.
    pub fn frame(&self) -> u32 {
        self.core.frame()
    }

    /// The match to draw.
    pub fn predicted(&self) -> &Battle {
        &self.core.predicted
    }

    /// The match stepped only on final inputs, up to the frame that decided it.
    pub fn confirmed(&self) -> &Battle {
        &self.core.confirmed
    }

    /// Seat `seat`'s final keys and targets.
    pub fn log(&self, seat: usize) -> Option<&SeatLog> {
        self.core.logs.get(seat)
    }

    /// What prediction cost so far.
    pub fn stats(&self) -> SessionStats {
        self.core.stats
    }

    /// Our hashes of the confirmed match: (frame, hash).
    pub fn hashes(&self) -> &[(u32, u64)] {
        &self.core.hashes
    }

    /// Every seat's board hash at `frame`, one of [`BattleSession::hashes`].
    pub fn seat_hashes_at(&self, frame: u32) -> Option<&[u64]> {
        let i = self.core.hashes.iter().position(|&(f, _)| f == frame)?;
        let n = self.core.logs.len();
        self.core.notes.seat_hashes.get(i * n..(i + 1) * n)
    }

    /// Rounds ended in the confirmed match, with the hash right after each.
    pub fn round_ends(&self) -> &[BattleRoundEnd] {
        &self.core.notes.round_ends
    }

    /// The battle seats whose boards the server's last `BattleDesync` said diverged (empty
    /// before any, or when only the match's shared state differed).
    pub fn diverged_seats(&self) -> &[u8] {
        &self.diverged
    }

    /// Whether the confirmed match is decided.
    pub fn is_over(&self) -> bool {
        self.core.confirmed.winner().is_some()
    }

    /// The lowest confirmed frame among the seats we do not play.
    pub fn remote_confirmed(&self) -> u32 {
        self.core.remote_confirmed()
    }

    /// Whether [`BattleSession::advance`] would simulate a frame now.
    pub fn can_advance(&self) -> bool {
        self.core.can_advance(self.options.window)
    }

    /// Whether [`BattleSession::advance`] would record its `local` keys: false for spectators,
    /// and while stalled once the keys for the waiting frame were given (as
    /// [`crate::Session::needs_input`]).
    pub fn needs_input(&self) -> bool {
        self.core.needs_input(self.options.input_delay)
    }

    /// Snapshots currently held for rollback.
    pub fn snapshots(&self) -> usize {
        self.core.snapshots()
    }

    /// Records `local` (keys and target) for frame `frame() + input_delay`, then simulates the
    /// next frame or stalls at the window (as [`crate::Session::advance`]).
    pub fn advance(&mut self, local: SeatInput) -> Step {
        let frame = self.frame();
        if self.needs_input()
            && let Some(seat) = self.local
        {
            let log = &mut self.core.logs[seat];
            let at = frame + self.options.input_delay;
            let last = log.last();
            let keys: &[InputChange] = &[InputChange {
                frame: at,
                input: local.keys,
            }];
            let target = [TargetChange {
                frame: at,
                target: local.target.map(|t| t.index() as u8),
            }];
            let keys = if local.keys != last.keys { keys } else { &[] };
            let targets: &[TargetChange] = if local.target != last.target {
                &target
            } else {
                &[]
            };
            if let Err(e) = log.extend(keys, targets, at + 1) {
                tracing::error!("local input at frame {at} refused by our own log: {e}");
            }
        }
        self.core.advance(self.options.window)
    }

    /// Takes a batch of another seat's keys and targets; rolls back when they differ from the
    /// guess.
    pub fn remote_inputs(
        &mut self,
        seat: usize,
        changes: &[InputChange],
        targets: &[TargetChange],
        confirmed: u32,
    ) -> Result<(), BattleSessionError> {
        if Some(seat) == self.local {
            return Err(BattleSessionError::OwnSeat(seat as u8));
        }
        let log = self
            .core
            .logs
            .get_mut(seat)
            .ok_or(BattleSessionError::NoSuchSeat(seat.min(255) as u8))?;
        let old = log.confirmed();
        log.extend(changes, targets, confirmed)
            .map_err(|source| BattleSessionError::Inputs {
                seat: seat as u8,
                source,
            })?;
        let new = log.confirmed();
        self.core.correct(seat, old, new);
        Ok(())
    }

    /// Takes a gathered entry as a window: it speaks for every frame from its base, which
    /// may overlap what we hold (a datagram's repeat, a catch-up): only the part past it is
    /// taken. One that starts past what we hold is left out (a later one fills the gap).
    fn remote_window(&mut self, entry: &SeatSteps) -> Result<(), BattleSessionError> {
        let seat = usize::from(entry.seat);
        let have = self.core.logs.get(seat).map_or(0, SeatLog::confirmed);
        let confirmed = entry.confirmed();
        if confirmed > sevenbag_protocol::MAX_MATCH_FRAMES {
            // Past the last frame: refused as a batch would be.
            return self.remote_inputs(seat, &[], &[], confirmed);
        }
        if confirmed <= have && Some(seat) != self.local {
            return Ok(());
        }
        if entry.base > have && Some(seat) != self.local {
            tracing::debug!(seat, have, from = entry.base, "inputs past a gap left out");
            return Ok(());
        }
        let keys: Vec<_> = entry
            .changes()
            .into_iter()
            .filter(|c| c.frame >= have)
            .collect();
        let targets: Vec<_> = (entry.target_changes().into_iter())
            .filter(|t| t.frame >= have)
            .collect();
        self.remote_inputs(seat, &keys, &targets, confirmed)
    }

    /// Applies relayed `BattleInputs` (one seat's or gathered), `BattleLog` and `Desync`; returns whether it was one.
    pub fn handle(&mut self, message: &ServerMessage) -> Result<bool, BattleSessionError> {
        match message {
            ServerMessage::BattleInputs {
                seat,
                changes,
                targets,
                confirmed,
            } => self
                .remote_inputs(usize::from(*seat), changes, targets, *confirmed)
                .map(|()| true),
            ServerMessage::BattleInputsGathered { frame, seats } => {
                for entry in sevenbag_protocol::gathered::unpack(*frame, seats) {
                    self.remote_window(&entry)?;
                }
                Ok(true)
            }
            ServerMessage::Desync { frame, .. } => {
                tracing::warn!(frame, "desync reported; waiting for the match log");
                self.core.stats.desyncs += 1;
                self.core.desync_pending = true;
                Ok(true)
            }
            ServerMessage::BattleDesync { frame, seats, .. } => {
                tracing::warn!(
                    frame,
                    ?seats,
                    "desync reported on these seats' boards; waiting for the match log"
                );
                self.core.stats.desyncs += 1;
                self.core.desync_pending = true;
                self.diverged = seats.clone();
                Ok(true)
            }
            ServerMessage::BattleDesyncBoards { frame, boards, .. } => {
                let ours = self.seat_hashes_at(*frame).unwrap_or_default();
                let seats: Vec<u8> = (0..boards.len().min(ours.len()))
                    .filter(|&s| boards[s] != ours[s])
                    .map(|s| s as u8)
                    .collect();
                tracing::warn!(
                    frame,
                    ?seats,
                    "desync reported; these seats' boards differ from the server's"
                );
                self.core.stats.desyncs += 1;
                self.core.desync_pending = true;
                self.diverged = seats;
                Ok(true)
            }
            ServerMessage::BattleLog {
                header,
                changes,
                targets,
                confirmed,
                ..
            } => {
                if **header != self.header {
                    return Err(BattleSessionError::BadLog("another match"));
                }
                self.apply_log(changes, targets, confirmed).map(|()| true)
            }
            _ => Ok(false),
        }
    }

    /// Rebuilds from the server's whole log (after a desync or a reconnect); our own log is
    /// kept where it extends the server's (as [`crate::Session::apply_log`]).
    pub fn apply_log(
        &mut self,
        changes: &[Vec<InputChange>],
        targets: &[Vec<TargetChange>],
        confirmed: &[u32],
    ) -> Result<(), BattleSessionError> {
        let n = self.core.logs.len();
        if changes.len() != n || targets.len() != n || confirmed.len() != n {
            return Err(BattleSessionError::BadLog("one list per seat"));
        }
        let after_desync = std::mem::take(&mut self.core.desync_pending);
        let mut logs = Vec::with_capacity(n);
        for s in 0..n {
            let theirs =
                SeatLog::from_lists(&changes[s], &targets[s], confirmed[s]).map_err(|source| {
                    BattleSessionError::Inputs {
                        seat: s as u8,
                        source,
                    }
                })?;
            let ours = &self.core.logs[s];
            let local = self.local == Some(s);
            let keep = local && ours.confirmed() > theirs.confirmed() && ours.extends(&theirs);
            logs.push(if keep { ours.clone() } else { theirs });
        }
        let start =
            Battle::new(self.header).map_err(|e| BattleSessionError::Header(e.to_string()))?;
        let server_has = self.local.map(|s| confirmed[s]);
        let delay = self.options.input_delay;
        self.core
            .rebuild(Box::new(start), logs, after_desync, server_has, delay);
        Ok(())
    }

    /// The next message to send: `BattleInputs` batches first, then `BattleHash` reports.
    pub fn poll_outgoing(&mut self) -> Option<ClientMessage> {
        self.next_batch().or_else(|| self.core.next_report())
    }

    /// Sends every local frame chosen so far at the next poll.
    pub fn flush(&mut self) {
        self.core.flush_due = true;
    }

    fn next_batch(&mut self) -> Option<ClientMessage> {
        let (seat, have) = self.core.unsent()?;
        let (keys, targets) = self.core.logs[seat].changes_from(self.core.sent_confirmed);
        let changed = !keys.is_empty() || !targets.is_empty();
        if !self.core.batch_due(have, changed, self.options.window) {
            return None;
        }
        // At most MAX_CHANGES_PER_MESSAGE of each list; a longer backlog goes out in several,
        // each confirming up to the first change it leaves out.
        let cut = [
            keys.get(MAX_CHANGES_PER_MESSAGE).map(|c| c.frame),
            targets.get(MAX_CHANGES_PER_MESSAGE).map(|c| c.frame),
        ];
        let confirmed = cut.into_iter().flatten().min().unwrap_or(have);
        let batch = ClientMessage::BattleInputs {
            changes: keys
                .iter()
                .take_while(|c| c.frame < confirmed)
                .copied()
                .collect(),
            targets: targets
                .into_iter()
                .take_while(|c| c.frame < confirmed)
                .collect(),
            confirmed,
        };
        self.core.sent_confirmed = confirmed;
        Some(batch)
    }
}

impl Game for Box<Battle> {
    type Inputs = [SeatInput; MAX_SEATS];
    type Logs = Vec<SeatLog>;
    type Notes = BattleNotes;
    // As the server's `BattleSim` does: the final hash is comparable.
    const STOPS_WHEN_DECIDED: bool = true;

    fn frame(&self) -> u32 {
        Battle::frame(self).0
    }

    fn step(&mut self, inputs: &[SeatInput; MAX_SEATS]) {
        Battle::step(self, inputs);
    }

    fn state_hash(&self) -> u64 {
        Battle::state_hash(self)
    }

    fn is_decided(&self) -> bool {
        self.winner().is_some()
    }

    fn hash_report(frame: u32, hash: u64) -> ClientMessage {
        // The whole match's hash alone; a mismatch brings the server's board hashes back
        // (`BattleDesyncBoards`) to name the diverged seats.
        ClientMessage::BattleHash { frame, hash }
    }

    fn note(&self, frame: u32, notes: &mut BattleNotes) {
        if (frame + 1).is_multiple_of(HASH_INTERVAL) {
            let boards = Seat::all(self.seats()).map(|s| self.seat_hash(s));
            notes.seat_hashes.extend(boards);
        }
        if let Some(winner) = self.events().round_over {
            let mut wins = [0; MAX_SEATS];
            for (slot, &w) in wins.iter_mut().zip(self.wins()) {
                *slot = w;
            }
            notes.round_ends.push(BattleRoundEnd {
                round: self.round(),
                winner: winner.map(|t| t.index() as u8),
                wins,
                frame,
                hash: Battle::state_hash(self),
            });
        }
    }
}

/// What a general session notes of its confirmed match beside the hashes.
#[derive(Clone, Debug, Default)]
pub struct BattleNotes {
    /// Every seat's board hash beside each recorded hash, the seat count per record.
    seat_hashes: Vec<u64>,
    /// The rounds that ended.
    round_ends: Vec<BattleRoundEnd>,
}

/// A round that ended in the confirmed match, with the state hash right after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BattleRoundEnd {
    /// Round number, from 0.
    pub round: u32,
    /// The winning team (`None` for a draw).
    pub winner: Option<u8>,
    /// Each team's round wins after this round (teams past the match's count at 0).
    pub wins: [u8; MAX_SEATS],
    /// The frame on which the round ended (as in the server's `BattleRoundOver`).
    pub frame: u32,
    /// [`Battle::state_hash`] right after that frame.
    pub hash: u64,
}

impl SeatLogs for Vec<SeatLog> {
    type Inputs = [SeatInput; MAX_SEATS];

    fn seats(&self) -> usize {
        self.len()
    }

    fn confirmed(&self, seat: usize) -> u32 {
        self[seat].confirmed()
    }

    fn inputs_for(&self, frame: u32) -> [SeatInput; MAX_SEATS] {
        let mut inputs = [SeatInput::NONE; MAX_SEATS];
        for (slot, log) in inputs.iter_mut().zip(self) {
            *slot = log.get(frame).unwrap_or_else(|| log.last());
        }
        inputs
    }

    fn guessed(&self, seat: usize, frame: u32, inputs: &[SeatInput; MAX_SEATS]) -> bool {
        self[seat].get(frame) == Some(inputs[seat])
    }
}
