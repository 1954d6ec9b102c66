//! The rollback machinery both sessions share: `Rollback` over any [`Game`].
//!
//! It holds every seat's final inputs, a *predicted* game running ahead on guesses (each
//! unheard seat's last input repeated), a *confirmed* game stepped only on frames every seat
//! made final, a ring of snapshots of every guessed frame, and what is waiting to be sent. When
//! a seat's inputs differ from the guess it restores the snapshot of the first wrong frame and
//! re-simulates to where it was. The two-seat [`Session`](crate::Session) and the several-seat
//! [`BattleSession`](crate::BattleSession) wrap it with their own messages and logs.

use std::collections::VecDeque;

use sevenbag_protocol::{ClientMessage, HASH_INTERVAL};

/// A player confirms its frames at least this often, even when its keys do not change (every
/// frame in lockstep, and as often as the window if it is shorter).
pub const CONFIRM_INTERVAL: u32 = 4;

/// What a session's `advance` did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// One frame was simulated.
    Advanced,
    /// The next frame is too far past the opponent's confirmed inputs: nothing happened and the
    /// local input was dropped. Try again next tick.
    Stalled,
}

/// Counters of what prediction cost, for the net-stats overlay and the tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SessionStats {
    /// Frames advanced by a session's `advance` (not counting re-simulation).
    pub frames: u64,
    /// Times a prediction turned out wrong and the match was restored from a snapshot.
    pub rollbacks: u64,
    /// Frames simulated again after rollbacks.
    pub resimulated_frames: u64,
    /// Calls to a session's `advance` that stalled at the prediction window.
    pub stall_frames: u64,
    /// Deepest rollback, in frames.
    pub max_rollback_depth: u32,
    /// Times the session was rebuilt from a match log.
    pub rebuilds: u32,
    /// Desync notices received from the server.
    pub desyncs: u32,
}

/// A deterministic game a `Rollback` predicts, restores and confirms.
pub trait Game: Clone + std::fmt::Debug {
    /// One frame's inputs of every seat.
    type Inputs: Copy + std::fmt::Debug;
    /// Every seat's final inputs.
    type Logs: SeatLogs<Inputs = Self::Inputs>;
    /// What a session notes of each confirmed frame beside the hashes (round ends, boards).
    type Notes: Default + Clone + std::fmt::Debug;
    /// Whether the confirmed game stops stepping once decided (its last hash is then the one
    /// the server compares).
    const STOPS_WHEN_DECIDED: bool;

    /// Frames simulated so far.
    fn frame(&self) -> u32;
    /// Simulates one frame.
    fn step(&mut self, inputs: &Self::Inputs);
    /// The hash the server checks every [`HASH_INTERVAL`] confirmed frames.
    fn state_hash(&self) -> u64;
    /// Whether the match is decided.
    fn is_decided(&self) -> bool;
    /// The message that reports a confirmed hash.
    fn hash_report(frame: u32, hash: u64) -> ClientMessage;
    /// Notes what the confirmed game just did in frame `frame`.
    fn note(&self, frame: u32, notes: &mut Self::Notes);
}

/// Every seat's final inputs, and the guess for what is not final yet.
pub trait SeatLogs: Clone + std::fmt::Debug {
    /// One frame's inputs of every seat.
    type Inputs;
    /// Seats in the match.
    fn seats(&self) -> usize;
    /// Frames of `seat` whose inputs are final.
    fn confirmed(&self, seat: usize) -> u32;
    /// The inputs frame `frame` is simulated with: final ones where known, else each seat's last
    /// known input repeated.
    fn inputs_for(&self, frame: u32) -> Self::Inputs;
    /// Whether `inputs` gave `seat` its final input at `frame`.
    fn guessed(&self, seat: usize, frame: u32, inputs: &Self::Inputs) -> bool;

    /// The lowest confirmed frame of any seat: frames before it are final everywhere.
    fn all_confirmed(&self) -> u32 {
        (0..self.seats())
            .map(|s| self.confirmed(s))
            .min()
            .unwrap_or(0)
    }
}

/// A guessed frame's snapshot: the game before it and the inputs it was stepped with.
#[derive(Clone, Debug)]
struct Snapshot<G: Game> {
    /// State before the frame; `before.frame()` is the frame.
    before: G,
    /// Inputs the frame was simulated with (guesses for unconfirmed seats).
    inputs: G::Inputs,
}

/// Prediction, snapshots, rollback and the confirmed game of one client (see the module docs).
#[derive(Clone, Debug)]
pub(crate) struct Rollback<G: Game> {
    /// Our seat, or `None` for a spectator.
    pub(crate) local: Option<usize>,
    /// Final inputs per seat. The local seat's log is written by the session and always covers
    /// the predicted frame.
    pub(crate) logs: G::Logs,
    /// The game as shown: confirmed inputs where known, guesses after.
    pub(crate) predicted: G,
    /// The game stepped only on inputs every seat confirmed: the source of hashes and results.
    pub(crate) confirmed: G,
    /// Snapshots of every predicted frame still open to correction, oldest first and contiguous.
    ring: VecDeque<Snapshot<G>>,
    /// Our frames `0..sent_confirmed` have been handed out in batches.
    pub(crate) sent_confirmed: u32,
    /// Hash reports were handed out for frames up to this one (no repeats after a rebuild).
    hash_sent_through: u32,
    /// Hash reports waiting for the transport (they go out after the inputs they need).
    outgoing: VecDeque<ClientMessage>,
    /// Send every frame chosen so far at the next poll, even without a change: set on a stall,
    /// before a hash, at the end of the match and by `flush`.
    pub(crate) flush_due: bool,
    /// Every `HASH_INTERVAL`-th confirmed frame's hash.
    pub(crate) hashes: Vec<(u32, u64)>,
    /// What the game noted of the confirmed frames.
    pub(crate) notes: G::Notes,
    pub(crate) stats: SessionStats,
    /// A desync arrived: the next match log rebuilds on the same connection, so batches we sent
    /// are still on their way and must not be sent again.
    pub(crate) desync_pending: bool,
    /// The confirmed match is decided: the next batch is our last.
    closing: bool,
    /// The confirmed match is over and our last batch went out: nothing more to send.
    finished: bool,
}

impl<G: Game> Rollback<G> {
    /// At the start of `start`, with `logs` as they stand.
    pub(crate) fn new(start: G, logs: G::Logs, local: Option<usize>, window: u32) -> Self {
        Rollback {
            local,
            logs,
            predicted: start.clone(),
            confirmed: start,
            ring: VecDeque::with_capacity(window as usize + 2),
            sent_confirmed: 0,
            hash_sent_through: 0,
            outgoing: VecDeque::new(),
            flush_due: false,
            hashes: Vec::new(),
            notes: G::Notes::default(),
            stats: SessionStats::default(),
            desync_pending: false,
            closing: false,
            finished: false,
        }
    }

    /// The next frame the predicted game simulates.
    pub(crate) fn frame(&self) -> u32 {
        self.predicted.frame()
    }

    /// Snapshots currently held.
    pub(crate) fn snapshots(&self) -> usize {
        self.ring.len()
    }

    /// The lowest confirmed frame among the seats we do not play.
    pub(crate) fn remote_confirmed(&self) -> u32 {
        (0..self.logs.seats())
            .filter(|&s| Some(s) != self.local)
            .map(|s| self.logs.confirmed(s))
            .min()
            .unwrap_or(0)
    }

    /// Whether the next frame is within `window` of the slowest remote seat.
    pub(crate) fn can_advance(&self, window: u32) -> bool {
        self.frame() < self.remote_confirmed().saturating_add(window)
    }

    /// Whether our keys for frame `frame() + input_delay` are still to be recorded.
    pub(crate) fn needs_input(&self, input_delay: u32) -> bool {
        self.local
            .is_some_and(|s| self.logs.confirmed(s) <= self.frame() + input_delay)
    }

    /// Simulates the next frame, or stalls when it is past the window.
    pub(crate) fn advance(&mut self, window: u32) -> Step {
        if !self.can_advance(window) {
            self.stats.stall_frames += 1;
            // The others may be waiting on our unsent frames just as we wait on theirs.
            self.flush_due = true;
            return Step::Stalled;
        }
        let frame = self.frame();
        self.simulate_to(frame + 1);
        self.stats.frames += 1;
        self.advance_confirmed();
        Step::Advanced
    }

    /// After `seat`'s log moved from `old` to `new` confirmed frames: rolls back to the first
    /// frame whose guess for it was wrong, and moves the confirmed game on.
    pub(crate) fn correct(&mut self, seat: usize, old: u32, new: u32) {
        if new == old {
            return;
        }
        let logs = &self.logs;
        let wrong = self.ring.iter().position(|snap| {
            let f = snap.before.frame();
            (old..new).contains(&f) && !logs.guessed(seat, f, &snap.inputs)
        });
        if let Some(i) = wrong {
            self.rollback(i);
        }
        self.prune_ring();
        self.advance_confirmed();
    }

    /// Rebuilds from `logs` (a server's match log, merged): the confirmed game from `start`,
    /// the predicted one up to where we were (our log's end less `input_delay` for a player).
    /// `server_has` is how far the server holds our own frames.
    pub(crate) fn rebuild(
        &mut self,
        start: G,
        logs: G::Logs,
        after_desync: bool,
        server_has: Option<u32>,
        input_delay: u32,
    ) {
        if let (Some(s), Some(server_has)) = (self.local, server_has) {
            self.sent_confirmed = if after_desync {
                self.sent_confirmed.clamp(server_has, logs.confirmed(s))
            } else {
                server_has
            };
        }
        let keep_frame = self.frame();
        self.logs = logs;
        self.confirmed = start;
        self.hashes.clear();
        self.notes = G::Notes::default();
        self.finished = false;
        self.closing = false;
        self.advance_confirmed();
        let target = match self.local {
            Some(s) => self.logs.confirmed(s).saturating_sub(input_delay),
            None => keep_frame,
        }
        .max(self.confirmed.frame());
        self.predicted = self.confirmed.clone();
        self.ring.clear();
        self.simulate_to(target);
        self.stats.rebuilds += 1;
    }

    /// Our seat and its confirmed frames when some are unsent and the match is not finished.
    pub(crate) fn unsent(&mut self) -> Option<(usize, u32)> {
        let seat = self.local?;
        if self.finished {
            return None;
        }
        let have = self.logs.confirmed(seat);
        if self.sent_confirmed >= have {
            self.flush_due = false;
            if self.closing {
                self.finished = true;
            }
            return None;
        }
        Some((seat, have))
    }

    /// Whether a batch is due now: a flush, a change (`changed`), or [`CONFIRM_INTERVAL`]
    /// frames (fewer when the window is shorter) since the last batch.
    pub(crate) fn batch_due(&self, have: u32, changed: bool, window: u32) -> bool {
        let every = CONFIRM_INTERVAL.min(window.max(1));
        self.flush_due || changed || have - self.sent_confirmed >= every
    }

    /// The next hash report waiting to be sent.
    pub(crate) fn next_report(&mut self) -> Option<ClientMessage> {
        self.outgoing.pop_front()
    }

    /// Steps the predicted game up to `target`, leaving a snapshot for every guessed frame.
    fn simulate_to(&mut self, target: u32) {
        while self.predicted.frame() < target {
            let frame = self.predicted.frame();
            let inputs = self.logs.inputs_for(frame);
            if (0..self.logs.seats()).any(|s| self.logs.confirmed(s) <= frame) {
                self.ring.push_back(Snapshot {
                    before: self.predicted.clone(),
                    inputs,
                });
            }
            self.predicted.step(&inputs);
        }
    }

    /// Restores ring entry `i` (the first wrong frame) and re-simulates to where we were.
    fn rollback(&mut self, i: usize) {
        let target = self.frame();
        self.ring.truncate(i + 1);
        let Some(snap) = self.ring.pop_back() else {
            return;
        };
        let from = snap.before.frame();
        self.predicted = snap.before;
        let depth = target - from;
        self.stats.rollbacks += 1;
        self.stats.resimulated_frames += u64::from(depth);
        self.stats.max_rollback_depth = self.stats.max_rollback_depth.max(depth);
        tracing::trace!(from, depth, "rollback");
        self.simulate_to(target);
    }

    /// Drops snapshots of frames every seat has confirmed: they can no longer be wrong.
    fn prune_ring(&mut self) {
        let open_from = self.logs.all_confirmed();
        while self
            .ring
            .front()
            .is_some_and(|snap| snap.before.frame() < open_from)
        {
            self.ring.pop_front();
        }
    }

    /// Steps the confirmed game as far as every log goes, noting hashes and what the game notes.
    fn advance_confirmed(&mut self) {
        let target = self.logs.all_confirmed();
        while self.confirmed.frame() < target
            && !(G::STOPS_WHEN_DECIDED && self.confirmed.is_decided())
        {
            let frame = self.confirmed.frame();
            let inputs = self.logs.inputs_for(frame);
            let was_over = self.confirmed.is_decided();
            self.confirmed.step(&inputs);
            self.confirmed.note(frame, &mut self.notes);
            let done = frame + 1;
            if done.is_multiple_of(HASH_INTERVAL) {
                let hash = self.confirmed.state_hash();
                self.hashes.push((done, hash));
                if self.local.is_some() && done > self.hash_sent_through && !was_over {
                    // The server checks a hash only once it has simulated that far, so our
                    // frames up to it (maybe not sent yet) go first.
                    self.flush_due = true;
                    self.hash_sent_through = done;
                    self.outgoing.push_back(G::hash_report(done, hash));
                }
            }
        }
        if self.local.is_some() && !self.closing && self.confirmed.is_decided() {
            // The server needs every frame up to the deciding one: send them now, then stop.
            self.closing = true;
            self.flush_due = true;
        }
    }
}
