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

use std::collections::VecDeque;

use sevenbag_core::{Battle, BattleHeader, MAX_SEATS, Seat, SeatInput};
use sevenbag_protocol::{
    ClientMessage, InputChange, InputLogError, MAX_CHANGES_PER_MESSAGE, SeatLog, SeatSteps,
    ServerMessage, TargetChange,
};

use crate::session::{
    CONFIRM_INTERVAL, HASH_INTERVAL, MAX_INPUT_DELAY, SessionOptions, SessionStats, Step,
};

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

/// A guessed frame's snapshot: the match before it and the inputs it was stepped with.
#[derive(Clone, Debug)]
struct Snapshot {
    before: Box<Battle>,
    inputs: [SeatInput; MAX_SEATS],
}

/// One client's rollback session for a match of several seats (see the module docs).
#[derive(Clone, Debug)]
pub struct BattleSession {
    header: BattleHeader,
    /// Our battle seat, or `None` to spectate.
    local: Option<usize>,
    options: SessionOptions,
    logs: Vec<SeatLog>,
    predicted: Box<Battle>,
    confirmed: Box<Battle>,
    ring: VecDeque<Snapshot>,
    sent_confirmed: u32,
    hash_sent_through: u32,
    outgoing: VecDeque<ClientMessage>,
    flush_due: bool,
    hashes: Vec<(u32, u64)>,
    /// Each seat's board hash beside every entry of `hashes`, seat count per entry.
    seat_hashes: Vec<u64>,
    /// The battle seats the server's last `BattleDesync` named.
    diverged: Vec<u8>,
    stats: SessionStats,
    desync_pending: bool,
    closing: bool,
    finished: bool,
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
            logs,
            predicted: Box::new(start),
            confirmed: Box::new(start),
            ring: VecDeque::with_capacity(options.window as usize + 2),
            sent_confirmed: 0,
            hash_sent_through: 0,
            outgoing: VecDeque::new(),
            flush_due: false,
            hashes: Vec::new(),
            seat_hashes: Vec::new(),
            diverged: Vec::new(),
            stats: SessionStats::default(),
            desync_pending: false,
            closing: false,
            finished: false,
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

    /// The next frame the predicted match simulates.
    pub fn frame(&self) -> u32 {
        self.predicted.frame().0
    }

    /// The match to draw.
    pub fn predicted(&self) -> &Battle {
        &self.predicted
    }

    /// The match stepped only on final inputs, up to the frame that decided it.
    pub fn confirmed(&self) -> &Battle {
        &self.confirmed
    }

    /// Seat `seat`'s final keys and targets.
    pub fn log(&self, seat: usize) -> Option<&SeatLog> {
        self.logs.get(seat)
    }

    /// What prediction cost so far.
    pub fn stats(&self) -> SessionStats {
        self.stats
    }

    /// Our hashes of the confirmed match: (frame, hash).
    pub fn hashes(&self) -> &[(u32, u64)] {
        &self.hashes
    }

    /// Every seat's board hash at `frame`, one of [`BattleSession::hashes`].
    pub fn seat_hashes_at(&self, frame: u32) -> Option<&[u64]> {
        let i = self.hashes.iter().position(|&(f, _)| f == frame)?;
        let n = self.logs.len();
        self.seat_hashes.get(i * n..(i + 1) * n)
    }

    /// The battle seats whose boards the server's last `BattleDesync` said diverged (empty
    /// before any, or when only the match's shared state differed).
    pub fn diverged_seats(&self) -> &[u8] {
        &self.diverged
    }

    /// Whether the confirmed match is decided.
    pub fn is_over(&self) -> bool {
        self.confirmed.winner().is_some()
    }

    /// The lowest confirmed frame among the seats we do not play.
    pub fn remote_confirmed(&self) -> u32 {
        self.logs
            .iter()
            .enumerate()
            .filter(|&(s, _)| Some(s) != self.local)
            .map(|(_, l)| l.confirmed())
            .min()
            .unwrap_or(0)
    }

    /// Whether [`BattleSession::advance`] would simulate a frame now.
    pub fn can_advance(&self) -> bool {
        self.frame() < self.remote_confirmed().saturating_add(self.options.window)
    }

    fn needs_input(&self) -> bool {
        self.local
            .is_some_and(|s| self.logs[s].confirmed() <= self.frame() + self.options.input_delay)
    }

    /// Records `local` (keys and target) for frame `frame() + input_delay`, then simulates the
    /// next frame or stalls at the window (as [`crate::Session::advance`]).
    pub fn advance(&mut self, local: SeatInput) -> Step {
        let frame = self.frame();
        if self.needs_input()
            && let Some(seat) = self.local
        {
            let log = &mut self.logs[seat];
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
        if !self.can_advance() {
            self.stats.stall_frames += 1;
            self.flush_due = true;
            return Step::Stalled;
        }
        self.simulate_to(frame + 1);
        self.stats.frames += 1;
        self.advance_confirmed();
        Step::Advanced
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
        if new == old {
            return Ok(());
        }
        let log = &self.logs[seat];
        let wrong = self.ring.iter().position(|snap| {
            let f = snap.before.frame().0;
            (old..new).contains(&f) && log.get(f) != Some(snap.inputs[seat])
        });
        if let Some(i) = wrong {
            self.rollback(i);
        }
        self.prune_ring();
        self.advance_confirmed();
        Ok(())
    }

    /// Takes a gathered entry as a window: it speaks for every frame from its base, which
    /// may overlap what we hold (a datagram's repeat, a catch-up): only the part past it is
    /// taken. One that starts past what we hold is left out (a later one fills the gap).
    fn remote_window(&mut self, entry: &SeatSteps) -> Result<(), BattleSessionError> {
        let seat = usize::from(entry.seat);
        let have = self.logs.get(seat).map_or(0, SeatLog::confirmed);
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
                self.stats.desyncs += 1;
                self.desync_pending = true;
                Ok(true)
            }
            ServerMessage::BattleDesync { frame, seats, .. } => {
                tracing::warn!(
                    frame,
                    ?seats,
                    "desync reported on these seats' boards; waiting for the match log"
                );
                self.stats.desyncs += 1;
                self.desync_pending = true;
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
                self.stats.desyncs += 1;
                self.desync_pending = true;
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
        let n = self.logs.len();
        if changes.len() != n || targets.len() != n || confirmed.len() != n {
            return Err(BattleSessionError::BadLog("one list per seat"));
        }
        let after_desync = std::mem::take(&mut self.desync_pending);
        let mut logs = Vec::with_capacity(n);
        for s in 0..n {
            let theirs =
                SeatLog::from_lists(&changes[s], &targets[s], confirmed[s]).map_err(|source| {
                    BattleSessionError::Inputs {
                        seat: s as u8,
                        source,
                    }
                })?;
            let ours = &self.logs[s];
            let local = self.local == Some(s);
            let keep = local && ours.confirmed() > theirs.confirmed() && ours.extends(&theirs);
            logs.push(if keep { ours.clone() } else { theirs });
        }
        if let Some(s) = self.local {
            let server_has = confirmed[s];
            self.sent_confirmed = if after_desync {
                self.sent_confirmed.clamp(server_has, logs[s].confirmed())
            } else {
                server_has
            };
        }
        let keep_frame = self.frame();
        self.logs = logs;
        *self.confirmed =
            Battle::new(self.header).map_err(|e| BattleSessionError::Header(e.to_string()))?;
        self.hashes.clear();
        self.seat_hashes.clear();
        self.finished = false;
        self.closing = false;
        self.advance_confirmed();
        let target = match self.local {
            Some(s) => self.logs[s]
                .confirmed()
                .saturating_sub(self.options.input_delay),
            None => keep_frame,
        }
        .max(self.confirmed.frame().0);
        self.predicted = self.confirmed.clone();
        self.ring.clear();
        self.simulate_to(target);
        self.stats.rebuilds += 1;
        Ok(())
    }

    /// The next message to send: `BattleInputs` batches first, then `BattleHash` reports.
    pub fn poll_outgoing(&mut self) -> Option<ClientMessage> {
        self.next_batch().or_else(|| self.outgoing.pop_front())
    }

    /// Sends every local frame chosen so far at the next poll.
    pub fn flush(&mut self) {
        self.flush_due = true;
    }

    fn inputs_for(&self, frame: u32) -> [SeatInput; MAX_SEATS] {
        let mut inputs = [SeatInput::NONE; MAX_SEATS];
        for (slot, log) in inputs.iter_mut().zip(&self.logs) {
            *slot = log.get(frame).unwrap_or_else(|| log.last());
        }
        inputs
    }

    fn simulate_to(&mut self, target: u32) {
        while self.predicted.frame().0 < target {
            let frame = self.predicted.frame().0;
            let inputs = self.inputs_for(frame);
            if self.logs.iter().any(|l| l.confirmed() <= frame) {
                self.ring.push_back(Snapshot {
                    before: self.predicted.clone(),
                    inputs,
                });
            }
            self.predicted.step(&inputs);
        }
    }

    fn rollback(&mut self, i: usize) {
        let target = self.frame();
        self.ring.truncate(i + 1);
        let Some(snap) = self.ring.pop_back() else {
            return;
        };
        let from = snap.before.frame().0;
        self.predicted = snap.before;
        let depth = target - from;
        self.stats.rollbacks += 1;
        self.stats.resimulated_frames += u64::from(depth);
        self.stats.max_rollback_depth = self.stats.max_rollback_depth.max(depth);
        self.simulate_to(target);
    }

    fn prune_ring(&mut self) {
        let open_from = self.logs.iter().map(SeatLog::confirmed).min().unwrap_or(0);
        while self
            .ring
            .front()
            .is_some_and(|snap| snap.before.frame().0 < open_from)
        {
            self.ring.pop_front();
        }
    }

    fn advance_confirmed(&mut self) {
        let target = self.logs.iter().map(SeatLog::confirmed).min().unwrap_or(0);
        // Stops once decided, as the server's `BattleSim` does: the final hash is comparable.
        while self.confirmed.frame().0 < target && self.confirmed.winner().is_none() {
            let frame = self.confirmed.frame().0;
            let inputs = self.inputs_for(frame);
            self.confirmed.step(&inputs);
            let done = frame + 1;
            if done.is_multiple_of(HASH_INTERVAL) {
                let hash = self.confirmed.state_hash();
                self.hashes.push((done, hash));
                let seats: Vec<u64> = Seat::all(self.confirmed.seats())
                    .map(|s| self.confirmed.seat_hash(s))
                    .collect();
                self.seat_hashes.extend_from_slice(&seats);
                if self.local.is_some() && done > self.hash_sent_through {
                    self.flush_due = true;
                    self.hash_sent_through = done;
                    // The whole match's hash alone; a mismatch brings the server's board
                    // hashes back (`BattleDesyncBoards`) to name the diverged seats.
                    self.outgoing
                        .push_back(ClientMessage::BattleHash { frame: done, hash });
                }
            }
        }
        if self.local.is_some() && !self.closing && self.is_over() {
            self.closing = true;
            self.flush_due = true;
        }
    }

    fn next_batch(&mut self) -> Option<ClientMessage> {
        let seat = self.local?;
        if self.finished {
            return None;
        }
        let log = &self.logs[seat];
        let have = log.confirmed();
        if self.sent_confirmed >= have {
            self.flush_due = false;
            if self.closing {
                self.finished = true;
            }
            return None;
        }
        let (keys, targets) = log.changes_from(self.sent_confirmed);
        let changed = !keys.is_empty() || !targets.is_empty();
        let every = CONFIRM_INTERVAL.min(self.options.window.max(1));
        if !(self.flush_due || changed || have - self.sent_confirmed >= every) {
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
        self.sent_confirmed = confirmed;
        Some(batch)
    }
}
