//! The rollback session: one client's view of a match, transport-agnostic and synchronous.
//!
//! A [`Session`] holds both seats' confirmed inputs ([`InputLog`]s), a *predicted* [`Match`]
//! that runs ahead on guessed opponent inputs, and a *confirmed* [`Match`] that only ever steps on
//! inputs both seats have made final. Every predicted frame leaves a snapshot (a clone of the
//! match before the frame, plus the inputs it was stepped with) in a small ring; when real inputs
//! arrive that differ from the guess, the session restores the snapshot of the first wrong frame
//! and re-simulates up to where it was. When the next frame would be more than the prediction
//! window past the opponent's confirmed frame, [`Session::advance`] stalls instead; with a window
//! of 0 that is plain lockstep.
//!
//! The session never touches a socket or a clock: feed it the server's messages
//! ([`Session::handle`]) and one local input per frame ([`Session::advance`]), and send what
//! [`Session::poll_outgoing`] gives back. Pacing lives in [`crate::clock`].

use std::time::Duration;

use sevenbag_core::{Input, Match, MatchHeader, Seat};
use sevenbag_protocol::{
    ClientMessage, InputChange, InputLog, InputLogError, MAX_CHANGES_PER_MESSAGE, ServerMessage,
};

pub use crate::rollback::{CONFIRM_INTERVAL, SessionStats, Step};
use crate::rollback::{Game, Rollback, SeatLogs};

/// Default prediction window in frames (SPEC §6): at most this many frames are simulated on
/// guessed opponent inputs before the session waits.
pub const DEFAULT_WINDOW: u32 = 12;
/// Largest input delay a session accepts, in frames (8 frames is 133 ms: more is unplayable).
pub const MAX_INPUT_DELAY: u32 = 8;
/// A state hash is reported every this many confirmed frames: the protocol's one constant, which
/// the server and replays use too (two copies could drift and silently stop desync detection).
pub use sevenbag_protocol::HASH_INTERVAL;

/// How a session predicts and delays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SessionOptions {
    /// Most frames simulated past the opponent's confirmed frame; 0 is plain lockstep. For a
    /// spectator this is how far the displayed match may run ahead of the confirmed one.
    pub window: u32,
    /// Frames between a local key press and the frame it applies to (0..=[`MAX_INPUT_DELAY`]).
    /// Each frame of delay is one frame less to predict, so fewer and shallower rollbacks.
    pub input_delay: u32,
}

impl Default for SessionOptions {
    fn default() -> Self {
        SessionOptions {
            window: DEFAULT_WINDOW,
            input_delay: 0,
        }
    }
}

impl SessionOptions {
    /// Options for a player whose round trip to the server is `rtt`: prediction window `window`,
    /// and just enough input delay that the opponent's inputs (about one round trip away, plus
    /// half the confirmation interval and a frame of jitter) arrive before the window
    /// runs out. Without it, a round trip longer than the window makes both players stall every
    /// few frames and run slower than the server's clock. `None` (not measured yet) gives no
    /// delay.
    pub fn for_round_trip(rtt: Option<Duration>, window: u32) -> SessionOptions {
        SessionOptions::for_link(rtt, None, window)
    }

    /// [`SessionOptions::for_round_trip`] with room for jitter: the round trip counted is
    /// `rtt + 2 × jitter` (jitter = the clock's smoothed mean deviation, see
    /// [`Clock::jitter`](crate::Clock::jitter)), so a late batch within the usual spread still
    /// arrives inside the window. Capped at [`MAX_INPUT_DELAY`].
    pub fn for_link(
        rtt: Option<Duration>,
        jitter: Option<Duration>,
        window: u32,
    ) -> SessionOptions {
        let needed = Self::frames_needed(rtt, jitter, window) - f64::from(window);
        SessionOptions {
            window,
            input_delay: needed.ceil().clamp(0.0, f64::from(MAX_INPUT_DELAY)) as u32,
        }
    }

    /// [`SessionOptions::for_link`], then a prediction window widened (never narrowed, never
    /// past `max_window`, the match's garbage travel) to cover the rest of the trip plus
    /// [`SPIKE_MARGIN`] frames: at long round trips the capped input delay alone would leave
    /// every late batch a stall. Garbage travel stays at least the window, so a correction
    /// still never reaches back to what already happened on our own board.
    pub fn for_link_within(
        rtt: Option<Duration>,
        jitter: Option<Duration>,
        window: u32,
        max_window: u32,
    ) -> SessionOptions {
        let base = Self::for_link(rtt, jitter, window);
        let needed = Self::frames_needed(rtt, jitter, window).ceil() as u32 + SPIKE_MARGIN;
        let wide = needed.saturating_sub(base.input_delay);
        SessionOptions {
            window: wide.clamp(window, max_window.max(window)),
            input_delay: base.input_delay,
        }
    }

    /// Frames from an opponent's key press until it can be applied here: the round trip (with
    /// room for jitter), half the confirmation interval and a frame.
    fn frames_needed(rtt: Option<Duration>, jitter: Option<Duration>, window: u32) -> f64 {
        let rtt = rtt.map(|r| r + 2 * jitter.unwrap_or_default());
        // Whole milliseconds, so that 200 ms is exactly 12 frames.
        let rtt_frames = rtt.map_or(0.0, |r| r.as_millis() as f64 * 60.0 / 1000.0);
        let every = CONFIRM_INTERVAL.min(window.max(1));
        rtt_frames + f64::from(every) / 2.0 + 1.0
    }
}

/// Frames of prediction kept beyond the measured need for a spike of latency
/// ([`SessionOptions::for_link_within`]).
pub const SPIKE_MARGIN: u32 = 4;

/// A round that ended in the confirmed match, with the state hash right after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RoundEnd {
    /// Round number, from 0.
    pub round: u32,
    /// The round's winner (`None` for a draw).
    pub winner: Option<Seat>,
    /// Round wins after this round.
    pub wins: [u8; 2],
    /// The frame on which the round ended (as in the server's `RoundOver`).
    pub frame: u32,
    /// [`Match::state_hash`] right after that frame (after `frame + 1` frames).
    pub hash: u64,
}

/// Inputs or a match log the session cannot accept.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SessionError {
    /// A batch of inputs broke the input-log rules (rewrite, order, or a confirmation going back).
    #[error("inputs for {seat:?} refused: {source}")]
    Inputs {
        /// Whose inputs.
        seat: Seat,
        /// What was wrong with them.
        #[source]
        source: InputLogError,
    },
    /// Inputs for our own seat arrived from outside; only we decide those.
    #[error("inputs for our own seat {0:?} arrived from the network")]
    OwnSeat(Seat),
    /// A match log for another match (a different header).
    #[error("the match log is for another match")]
    OtherMatch,
}

/// One client's rollback session for one match (see the module docs).
#[derive(Clone, Debug)]
pub struct Session {
    /// Rules, seed and handlings every simulator agrees on.
    header: MatchHeader,
    /// Our seat, or `None` for a spectator (both seats then come from the network).
    local: Option<Seat>,
    options: SessionOptions,
    /// Prediction, snapshots, the confirmed match and what to send; its notes are the rounds
    /// the confirmed match ended.
    core: Rollback<Match>,
}

impl Session {
    /// A session at frame 0 of a match that is about to start.
    ///
    /// `local` is our seat, or `None` to spectate. An input delay above [`MAX_INPUT_DELAY`] is
    /// clamped to it.
    pub fn new(header: MatchHeader, local: Option<Seat>, options: SessionOptions) -> Session {
        let options = SessionOptions {
            input_delay: options.input_delay.min(MAX_INPUT_DELAY),
            ..options
        };
        let mut logs = [InputLog::new(), InputLog::new()];
        if let Some(seat) = local {
            // The first `input_delay` frames have no key pressed: nobody could press one yet.
            if let Err(e) = logs[seat.index()].extend(&[], options.input_delay) {
                tracing::error!("cannot seed the local input log: {e}");
            }
        }
        let core = Rollback::new(
            Match::new(header),
            logs,
            local.map(Seat::index),
            options.window,
        );
        Session {
            header,
            local,
            options,
            core,
        }
    }

    /// A session fast-forwarded through a match log: for spectators, late joiners and players
    /// coming back after a reconnect (`changes` and `confirmed` as in
    /// [`ServerMessage::MatchLog`]).
    pub fn from_log(
        header: MatchHeader,
        local: Option<Seat>,
        options: SessionOptions,
        changes: &[Vec<InputChange>; 2],
        confirmed: [u32; 2],
    ) -> Result<Session, SessionError> {
        let mut session = Session::new(header, local, options);
        session.apply_log(changes, confirmed)?;
        Ok(session)
    }

    /// The header the session simulates.
    pub fn header(&self) -> &MatchHeader {
        &self.header
    }

    /// Our seat, or `None` for a spectator.
    pub fn local_seat(&self) -> Option<Seat> {
        self.local
    }

    /// The options in force (input delay clamped).
    pub fn options(&self) -> SessionOptions {
        self.options
    }

    /// The next frame the predicted match will simulate (frames simulated so far).
    pub fn frame(&self) -> u32 {
        self.core.frame()
    }

    /// The match to draw: real inputs where known, predictions after.
    pub fn predicted(&self) -> &Match {
        &self.core.predicted
    }

    /// The match stepped only on inputs both seats confirmed: it never rolls back.
    pub fn confirmed(&self) -> &Match {
        &self.core.confirmed
    }

    /// Frames of `seat` whose inputs are final here.
    pub fn confirmed_frames(&self, seat: Seat) -> u32 {
        self.core.logs[seat.index()].confirmed()
    }

    /// Both seats' final inputs so far.
    pub fn input_log(&self, seat: Seat) -> &InputLog {
        &self.core.logs[seat.index()]
    }

    /// The lowest confirmed frame among the seats we do not play: how far the opponent (or, for a
    /// spectator, the slower player) has been heard from.
    pub fn remote_confirmed(&self) -> u32 {
        self.core.remote_confirmed()
    }

    /// Changes the input delay during the match (capped at [`MAX_INPUT_DELAY`]). Nothing is
    /// rewritten: a longer delay holds our last keys over the frames it skips (exactly what
    /// the opponent predicted for them), a shorter one skips asking for keys until the frame
    /// catches up with what is already recorded (a latching sampler loses no press). Change it
    /// by one frame at a time and the player sees no hitch. The prediction window, and so the
    /// deepest correction, does not change: garbage travel still covers it.
    pub fn set_input_delay(&mut self, delay: u32) {
        self.options.input_delay = delay.min(MAX_INPUT_DELAY);
    }

    /// Widens the prediction window during the match, up to the match's garbage travel (so a
    /// correction never reaches our own board); a narrower value is ignored.
    pub fn widen_window(&mut self, window: u32) {
        let cap = u32::from(self.header.rules.garbage_travel);
        self.options.window = self.options.window.max(window.min(cap));
    }

    /// Whether [`Session::advance`] would simulate a frame now, rather than stall.
    pub fn can_advance(&self) -> bool {
        self.core.can_advance(self.options.window)
    }

    /// Whether [`Session::advance`] would record its `local` keys: false for spectators, and
    /// while stalled once the keys for the waiting frame were given (later ones are dropped).
    pub fn needs_input(&self) -> bool {
        self.core.needs_input(self.options.input_delay)
    }

    /// Records `local` as our keys for frame `frame() + input_delay` (ignored for spectators, and
    /// when that frame's keys are already recorded), then simulates the next frame, predicting
    /// the seats not yet heard from, or stalls at the prediction window.
    ///
    /// Keys are recorded (and sent) even on a stall: in lockstep (window 0) each side must commit
    /// its keys for a frame before either can simulate it.
    pub fn advance(&mut self, local: Input) -> Step {
        let frame = self.frame();
        if self.needs_input()
            && let Some(seat) = self.local
        {
            let log = &mut self.core.logs[seat.index()];
            let at = frame + self.options.input_delay;
            let change = [InputChange {
                frame: at,
                input: local,
            }];
            let changes: &[InputChange] = if local != log.last() { &change } else { &[] };
            if let Err(e) = log.extend(changes, at + 1) {
                tracing::error!("local input at frame {at} refused by our own log: {e}");
            }
        }
        self.core.advance(self.options.window)
    }

    /// Simulates the next frame when every seat's inputs for it are final here (the confirmed
    /// match is past it), recording no keys: how a match the server has decided is shown to
    /// its end by a client whose boards run behind that end (its input delay, or a slow
    /// machine). False, simulating nothing, when some input for the frame is not final.
    pub fn advance_confirmed_frame(&mut self) -> bool {
        if self.frame() >= self.core.confirmed.frame().0 {
            return false;
        }
        self.core.advance(self.options.window) == Step::Advanced
    }

    /// Takes a batch of another seat's confirmed inputs (a relayed
    /// [`ServerMessage::Inputs`]); rolls back and re-simulates when they differ from what was
    /// predicted, and moves the confirmed match on.
    pub fn remote_inputs(
        &mut self,
        seat: Seat,
        changes: &[InputChange],
        confirmed: u32,
    ) -> Result<(), SessionError> {
        if Some(seat) == self.local {
            return Err(SessionError::OwnSeat(seat));
        }
        let log = &mut self.core.logs[seat.index()];
        let old = log.confirmed();
        log.extend(changes, confirmed)
            .map_err(|source| SessionError::Inputs { seat, source })?;
        let new = log.confirmed();
        self.core.correct(seat.index(), old, new);
        Ok(())
    }

    /// Takes a window of another seat's inputs (`ServerMessage::InputsFrom`: every change in
    /// `from..confirmed`), which may overlap what we hold: the overlap is a repeat and is
    /// skipped, the rest goes on as [`Session::remote_inputs`]. A window that starts past what
    /// we hold leaves a gap and is ignored (the server catches us up reliably).
    pub fn remote_window(
        &mut self,
        seat: Seat,
        from: u32,
        changes: &[InputChange],
        confirmed: u32,
    ) -> Result<(), SessionError> {
        if Some(seat) == self.local {
            return Err(SessionError::OwnSeat(seat));
        }
        let have = self.core.logs[seat.index()].confirmed();
        if confirmed <= have || from > have {
            return Ok(());
        }
        let start = changes.partition_point(|c| c.frame < have);
        self.remote_inputs(seat, &changes[start..], confirmed)
    }

    /// Applies the server messages a session cares about: relayed `Inputs` and `InputsFrom`,
    /// `Desync` and `MatchLog`. Returns whether the message was one of those.
    pub fn handle(&mut self, message: &ServerMessage) -> Result<bool, SessionError> {
        match message {
            ServerMessage::Inputs {
                seat,
                changes,
                confirmed,
            } => self
                .remote_inputs(*seat, changes, *confirmed)
                .map(|()| true),
            ServerMessage::InputsFrom {
                seat,
                from,
                changes,
                confirmed,
            } => self
                .remote_window(*seat, *from, changes, *confirmed)
                .map(|()| true),
            ServerMessage::Desync {
                frame,
                server_hash,
                your_hash,
            } => {
                tracing::warn!(
                    frame,
                    server_hash,
                    your_hash,
                    "desync reported; waiting for the match log"
                );
                self.core.stats.desyncs += 1;
                self.core.desync_pending = true;
                Ok(true)
            }
            ServerMessage::MatchLog {
                header,
                changes,
                confirmed,
                ..
            } => {
                if *header != self.header {
                    return Err(SessionError::OtherMatch);
                }
                self.apply_log(changes, *confirmed).map(|()| true)
            }
            _ => Ok(false),
        }
    }

    /// Rebuilds from the server's full input log: after a `Desync`, or after reconnecting.
    ///
    /// Our own log is kept when it extends the server's (frames we chose but the server has not
    /// heard yet). After a desync, batches already sent are still on their way over the same
    /// connection; otherwise (a new connection) everything past the server's confirmation is sent
    /// again.
    ///
    /// The other seats' logs are always the server's: a server restarted from its room log may
    /// know less of the opponent than we do, and the opponent re-sends from the server's
    /// confirmation; those re-sent inputs are relayed to us and must extend our log exactly.
    pub fn apply_log(
        &mut self,
        changes: &[Vec<InputChange>; 2],
        confirmed: [u32; 2],
    ) -> Result<(), SessionError> {
        let after_desync = std::mem::take(&mut self.core.desync_pending);
        let mut logs = [InputLog::new(), InputLog::new()];
        for seat in Seat::BOTH {
            let s = seat.index();
            let theirs = InputLog::from_changes(&changes[s], confirmed[s])
                .map_err(|source| SessionError::Inputs { seat, source })?;
            let ours = &self.core.logs[s];
            let local = self.local == Some(seat);
            logs[s] = if local && ours.confirmed() > theirs.confirmed() && extends(ours, &theirs) {
                ours.clone()
            } else {
                theirs
            };
        }
        if let Some(seat) = self.local {
            let (ours, theirs) = (&self.core.logs[seat.index()], &logs[seat.index()]);
            if !extends(ours, theirs) && !extends(theirs, ours) {
                tracing::warn!("the server's log of our inputs disagrees with ours; taking its");
            }
        }
        let server_has = self.local.map(|seat| confirmed[seat.index()]);
        let start = Match::new(self.header);
        let delay = self.options.input_delay;
        self.core
            .rebuild(start, logs, after_desync, server_has, delay);
        Ok(())
    }

    /// The next message to send, if any: `Inputs` batches first, then `StateHash` reports.
    ///
    /// Batches are cut when polled, so everything chosen since the last poll travels together:
    /// a caller that polls once per frame sends a batch on every key change and a confirmation
    /// at least every 4 frames; one that simulates several frames per poll sends fewer, fuller
    /// batches. Each hash goes out after the inputs it covers (the server checks a hash only
    /// once it has simulated that far).
    pub fn poll_outgoing(&mut self) -> Option<ClientMessage> {
        self.next_batch().or_else(|| self.core.next_report())
    }

    /// Sends every local frame chosen so far at the next poll, instead of waiting for the next
    /// change or the 4-frame confirmation.
    pub fn flush(&mut self) {
        self.core.flush_due = true;
    }

    /// What prediction has cost so far.
    pub fn stats(&self) -> SessionStats {
        self.core.stats
    }

    /// Our state hashes of the confirmed match, every [`HASH_INTERVAL`] frames: (frame, hash).
    pub fn hashes(&self) -> &[(u32, u64)] {
        &self.core.hashes
    }

    /// Rounds ended in the confirmed match, with the hash at the end of each.
    pub fn round_ends(&self) -> &[RoundEnd] {
        &self.core.notes
    }

    /// Whether the confirmed match is decided.
    pub fn is_over(&self) -> bool {
        self.core.confirmed.winner().is_some()
    }

    /// Snapshots currently held for rollback.
    pub fn snapshots(&self) -> usize {
        self.core.snapshots()
    }

    /// Our frames already handed out in `Inputs` batches.
    pub fn sent_confirmed(&self) -> u32 {
        self.core.sent_confirmed
    }

    /// The next `Inputs` batch, if one is due: at once when a key changed, else every
    /// [`CONFIRM_INTERVAL`] frames, or whenever a flush is due.
    fn next_batch(&mut self) -> Option<ClientMessage> {
        let (seat, have) = self.core.unsent()?;
        let sent = self.core.sent_confirmed;
        let log = &self.core.logs[seat];
        // Changes are in frame order, so the last one says whether any is unsent (this runs on
        // every poll; the search below only when a batch goes out).
        let changed = log.changes().last().is_some_and(|c| c.frame >= sent);
        // A window shorter than the interval needs confirmations at least that often.
        if !self.core.batch_due(have, changed, self.options.window) {
            return None;
        }
        let pending = log.changes_from(sent);
        // A batch carries at most MAX_CHANGES_PER_MESSAGE changes; a longer backlog (only after
        // a reconnect) goes out in several, each confirming up to its next change.
        let (changes, confirmed) = match pending.get(MAX_CHANGES_PER_MESSAGE) {
            Some(next) => (&pending[..MAX_CHANGES_PER_MESSAGE], next.frame),
            None => (pending, have),
        };
        let batch = ClientMessage::Inputs {
            changes: changes.to_vec(),
            confirmed,
        };
        self.core.sent_confirmed = confirmed;
        Some(batch)
    }
}

/// Whether `long` agrees with every frame `short` has confirmed.
fn extends(long: &InputLog, short: &InputLog) -> bool {
    long.confirmed() >= short.confirmed()
        && (0..short.confirmed()).all(|f| long.get(f) == short.get(f))
}

impl Game for Match {
    type Inputs = [Input; 2];
    type Logs = [InputLog; 2];
    type Notes = Vec<RoundEnd>;
    const STOPS_WHEN_DECIDED: bool = false;

    fn frame(&self) -> u32 {
        Match::frame(self).0
    }

    fn step(&mut self, inputs: &[Input; 2]) {
        Match::step(self, *inputs);
    }

    fn state_hash(&self) -> u64 {
        Match::state_hash(self)
    }

    fn is_decided(&self) -> bool {
        self.winner().is_some()
    }

    fn hash_report(frame: u32, hash: u64) -> ClientMessage {
        ClientMessage::StateHash { frame, hash }
    }

    fn note(&self, frame: u32, round_ends: &mut Vec<RoundEnd>) {
        if let Some(winner) = self.events().round_over {
            round_ends.push(RoundEnd {
                round: self.round(),
                winner,
                wins: self.wins(),
                frame,
                hash: Match::state_hash(self),
            });
        }
    }
}

impl SeatLogs for [InputLog; 2] {
    type Inputs = [Input; 2];

    fn seats(&self) -> usize {
        2
    }

    fn confirmed(&self, seat: usize) -> u32 {
        self[seat].confirmed()
    }

    fn inputs_for(&self, frame: u32) -> [Input; 2] {
        self.each_ref()
            .map(|log| log.get(frame).unwrap_or_else(|| log.last()))
    }

    fn guessed(&self, seat: usize, frame: u32, inputs: &[Input; 2]) -> bool {
        self[seat].get(frame) == Some(inputs[seat])
    }
}
