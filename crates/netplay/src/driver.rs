//! [`MatchDriver`]: one match driven from server messages, whatever the transport.
//!
//! The headless client and the GUI's online controller play a match the same way: `MatchStart`
//! (or a `MatchLog` for a match we have no session of) builds a [`Session`] and a [`Pacer`];
//! relayed `Inputs`, `Desync` and a later `MatchLog` go to the session; `RoundOver` and
//! `MatchOver` are the results as the server announced them; each tick simulates the frames the
//! pacer says are due, with keys from an [`InputSource`], and what the session produced is
//! polled with [`MatchDriver::poll_outgoing`]. The driver owns that part and the [`Clock`]
//! whose round trip the pacer needs. It is synchronous and sends nothing itself: when to ping,
//! what to do with outgoing messages while the connection is down, lobby state and notices stay
//! with the caller.

use crate::time::Instant;

use sevenbag_core::{Input, Match, MatchHeader, Seat};
use sevenbag_protocol::{ClientMessage, EndReason, ServerMessage};

use crate::clock::{Clock, Pacer};
use crate::inputs::InputSource;
use crate::retune::{DelayTuner, LinkReading};
use crate::session::{Session, SessionError, SessionOptions, Step};

/// A round result the server announced (`RoundOver`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoundResult {
    /// Round number, from 0.
    pub round: u32,
    /// Winner (`None` for a draw).
    pub winner: Option<Seat>,
    /// Round wins so far.
    pub wins: [u8; 2],
    /// The frame at which the server saw it.
    pub frame: u32,
}

/// The match result the server announced (`MatchOver`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchResult {
    /// Match winner.
    pub winner: Seat,
    /// How it ended.
    pub reason: EndReason,
    /// Replay id, if the server kept one.
    pub replay: Option<String>,
}

/// A match the server ended without a winner (`MatchVoid`): nobody's result changes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VoidResult {
    /// Why there is no winner (neither player came back: [`EndReason::Abandoned`]).
    pub reason: EndReason,
    /// Replay id, if the server kept one.
    pub replay: Option<String>,
}

/// How a [`MatchDriver`] sets up each match's session and pacing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DriverConfig {
    /// Prediction window and (least) input delay when playing.
    pub session: SessionOptions,
    /// Raise the input delay at the start of each match to what the measured round trip needs
    /// ([`SessionOptions::for_round_trip`]); `session.input_delay` is then the least delay.
    pub auto_input_delay: bool,
    /// Prediction window when spectating (0: show only confirmed frames).
    pub spectate_window: u32,
    /// When balancing frame advantage, count the opponent as our input delay further behind
    /// their confirmed frame (the GUI does; the headless client does not).
    pub balance_input_delay: bool,
}

/// What [`MatchDriver::handle`] made of a server message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DriverEvent {
    /// Not a match message (or `Joined`, whose seat the driver notes): the caller's to handle.
    Other,
    /// Applied: relayed inputs, a desync notice, a round result, a pong.
    Applied,
    /// A new match began (`MatchStart`, or a `MatchLog` of a match we had no session of).
    Started,
    /// A `MatchLog` rebuilt our own session (after a reconnect or a desync); the clock is kept.
    Rebuilt,
    /// The server announced the match result ([`MatchDriver::match_result`]), or that the match
    /// has none ([`MatchDriver::void_result`]).
    Over,
    /// The session refused relayed inputs or a match log. `new_match`: it was the log of a
    /// match we had no session of, so no match started.
    Refused {
        /// What was wrong.
        error: SessionError,
        /// A `MatchLog` that would have started a match.
        new_match: bool,
    },
}

/// A match driven from server messages at the pacer's pace (see the module docs).
#[derive(Debug)]
pub struct MatchDriver {
    config: DriverConfig,
    clock: Clock,
    seat: Option<Seat>,
    names: [String; 2],
    session: Option<Session>,
    pacer: Option<Pacer>,
    /// A match is running: frames are simulated on the pacer's clock.
    live: bool,
    /// The server announced the end, but the frames it confirmed are not all shown yet (a
    /// spectator, or anyone, running behind the match clock): they are still stepped, on the
    /// pacer's clock, up to the confirmed end (see [`MatchDriver::is_showing`]).
    finishing: bool,
    matches_started: u32,
    rounds: Vec<RoundResult>,
    match_result: Option<MatchResult>,
    /// The server ended the match without a winner.
    void_result: Option<VoidResult>,
    /// The input delay's re-estimates over the match.
    tuner: DelayTuner,
}

pub use crate::retune::RETUNE_FRAMES;

impl MatchDriver {
    /// No match yet, no seat; the clock starts at `now`.
    pub fn new(config: DriverConfig, now: Instant) -> MatchDriver {
        MatchDriver {
            config,
            clock: Clock::new(now),
            seat: None,
            names: [String::new(), String::new()],
            session: None,
            pacer: None,
            live: false,
            finishing: false,
            matches_started: 0,
            rounds: Vec::new(),
            match_result: None,
            void_result: None,
            tuner: DelayTuner::default(),
        }
    }

    /// Handles a server message at `at`: the match messages (`MatchStart`, `MatchLog`,
    /// `Inputs`, `Desync`, `RoundOver`, `MatchOver`), `Pong` for the clock, and `Joined` for our
    /// seat in the next match (it still returns [`DriverEvent::Other`]).
    pub fn handle(&mut self, message: &ServerMessage, at: Instant) -> DriverEvent {
        match message {
            ServerMessage::Joined { seat, .. } => {
                self.seat = *seat;
                DriverEvent::Other
            }
            ServerMessage::MatchStart {
                header,
                names,
                start_in_ms,
            } => {
                let options = self.session_options(header);
                self.session = Some(Session::new(*header, self.seat, options));
                self.pacer = Some(Pacer::from_match_start(
                    at,
                    *start_in_ms,
                    self.clock.rtt(),
                    options.window,
                ));
                self.start_match(names.clone());
                DriverEvent::Started
            }
            ServerMessage::MatchLog {
                header,
                names,
                changes,
                confirmed,
                now_frame,
            } => {
                let same = self.session.as_ref().is_some_and(|s| s.header() == header);
                if same && let Some(session) = &mut self.session {
                    // Our own session, after a reconnect or a desync: rebuild, keep the clock.
                    return match session.handle(message) {
                        Ok(_) => {
                            self.finish_late_frames();
                            DriverEvent::Rebuilt
                        }
                        Err(error) => {
                            tracing::warn!("match log refused: {error}");
                            DriverEvent::Refused {
                                error,
                                new_match: false,
                            }
                        }
                    };
                }
                let options = self.session_options(header);
                match Session::from_log(*header, self.seat, options, changes, *confirmed) {
                    Ok(session) => {
                        self.session = Some(session);
                        self.pacer = Some(Pacer::from_now_frame(
                            at,
                            *now_frame,
                            self.clock.rtt(),
                            options.window,
                        ));
                        self.start_match(names.clone());
                        DriverEvent::Started
                    }
                    Err(error) => {
                        tracing::warn!("match log refused: {error}");
                        DriverEvent::Refused {
                            error,
                            new_match: true,
                        }
                    }
                }
            }
            ServerMessage::Inputs { .. } | ServerMessage::InputsFrom { .. } => {
                if let Some(session) = &mut self.session
                    && let Err(error) = session.handle(message)
                {
                    tracing::warn!("relayed inputs refused: {error}");
                    return DriverEvent::Refused {
                        error,
                        new_match: false,
                    };
                }
                self.finish_late_frames();
                DriverEvent::Applied
            }
            ServerMessage::Desync { .. } => {
                if let Some(session) = &mut self.session {
                    let _ = session.handle(message);
                }
                DriverEvent::Applied
            }
            ServerMessage::RoundOver {
                round,
                winner,
                wins,
                frame,
            } => {
                self.rounds.push(RoundResult {
                    round: *round,
                    winner: *winner,
                    wins: *wins,
                    frame: *frame,
                });
                DriverEvent::Applied
            }
            ServerMessage::MatchOver {
                winner,
                reason,
                replay,
            } => {
                self.match_result = Some(MatchResult {
                    winner: *winner,
                    reason: *reason,
                    replay: replay.clone(),
                });
                // Whoever is behind the server's end shows the rest of what it confirmed.
                self.finishing = self.live && self.behind_confirmed();
                self.live = false;
                DriverEvent::Over
            }
            ServerMessage::MatchVoid { reason, replay } => {
                self.void_result = Some(VoidResult {
                    reason: *reason,
                    replay: replay.clone(),
                });
                self.finishing = self.live && self.behind_confirmed();
                self.live = false;
                DriverEvent::Over
            }
            ServerMessage::Pong { nonce, server_ms } => {
                self.clock.pong(*nonce, *server_ms, at);
                DriverEvent::Applied
            }
            _ => DriverEvent::Other,
        }
    }

    /// Frames due at `now` (0 unless a match is live or still showing its end).
    pub fn frames_due(&self, now: Instant) -> u32 {
        match (self.is_showing(), &self.session, &self.pacer) {
            (true, Some(s), Some(p)) => p.frames_due(now, s.frame()),
            _ => 0,
        }
    }

    /// When the frame `ahead` frames past the current one is due, while a match is live or
    /// still showing its end.
    pub fn next_due(&self, ahead: u32) -> Option<Instant> {
        match (self.is_showing(), &self.session, &self.pacer) {
            (true, Some(s), Some(p)) => Some(p.next_due(s.frame() + ahead)),
            _ => None,
        }
    }

    /// Whether frames are still being stepped: the match is live, or it is over on the server
    /// and we are still showing the frames it confirmed before the end.
    pub fn is_showing(&self) -> bool {
        self.live || self.finishing
    }

    /// Inputs that arrived after the server's verdict (a datagram overtaken by the
    /// WebSocket's `MatchOver`) moved the confirmed match past the boards shown: show those
    /// frames too.
    fn finish_late_frames(&mut self) {
        let over = self.match_result.is_some() || self.void_result.is_some();
        if over && !self.live && self.behind_confirmed() {
            self.finishing = true;
        }
    }

    /// Whether the confirmed match (the server's frames) is ahead of the one shown.
    fn behind_confirmed(&self) -> bool {
        self.session
            .as_ref()
            .is_some_and(|s| s.frame() < s.confirmed().frame().0)
    }

    /// Simulates one frame with keys from `input` for our seat (asked only when the session
    /// uses them), and balances the pacer. False when nothing was simulated: a stall at the
    /// prediction window (the pacer then waits with us), no session, or no match running (once
    /// over, only the frames the server confirmed before its end are still shown).
    pub fn step<I: InputSource + ?Sized>(&mut self, now: Instant, input: &mut I) -> bool {
        if !self.live {
            // Over (or stopped): only the frames the server confirmed before its end remain.
            return self.finishing && self.step_to_the_end();
        }
        let (Some(session), Some(pacer)) = (&mut self.session, &mut self.pacer) else {
            return false;
        };
        let keys = match session.local_seat() {
            Some(seat) if session.needs_input() => input.next_input(session.predicted(), seat),
            _ => Input::NONE,
        };
        if session.advance(keys) == Step::Stalled {
            // The clock waits with us rather than race once inputs arrive.
            pacer.stalled(now, session.frame());
            return false;
        }
        if session.local_seat().is_some() {
            if self.config.auto_input_delay {
                let link = LinkReading {
                    rtt: self.clock.rtt(),
                    jitter: self.clock.jitter(),
                    max_window: u32::from(session.header().rules.garbage_travel),
                };
                let (current, stalls) = (session.options(), session.stats().stall_frames);
                let retune =
                    self.tuner
                        .retune(session.frame(), link, self.config.session, current, stalls);
                if let Some(r) = retune {
                    session.widen_window(r.window);
                    if r.input_delay != current.input_delay {
                        session.set_input_delay(r.input_delay);
                    }
                }
            }
            let remote = if self.config.balance_input_delay {
                session
                    .remote_confirmed()
                    .saturating_sub(session.options().input_delay)
            } else {
                session.remote_confirmed()
            };
            pacer.balance(session.frame(), remote, self.clock.rtt());
        } else {
            // Watching: the same balance brings a spectator whose clock a stall held back (a
            // reconnect, a restarted server) up to the players again, and keeps one that
            // predicts ahead of them from running off.
            pacer.balance(
                session.frame(),
                session.remote_confirmed(),
                self.clock.rtt(),
            );
        }
        true
    }

    /// After the server's `MatchOver`: one more of the frames the confirmed match is past,
    /// with no keys asked for or recorded and no prediction past them; the showing ends at the
    /// confirmed end. A player runs behind it by up to its input delay (the server decided on
    /// keys chosen for frames the boards had not run yet), a spectator or a slow machine by more.
    fn step_to_the_end(&mut self) -> bool {
        let (Some(session), Some(pacer)) = (&mut self.session, &mut self.pacer) else {
            self.finishing = false;
            return false;
        };
        if !session.advance_confirmed_frame() {
            self.finishing = false;
            return false;
        }
        pacer.balance(
            session.frame(),
            session.remote_confirmed(),
            self.clock.rtt(),
        );
        if session.frame() >= session.confirmed().frame().0 {
            self.finishing = false;
        }
        true
    }

    /// Simulates every frame due at `now` (none unless live), stopping at a stall; returns the
    /// frames simulated. Poll [`MatchDriver::poll_outgoing`] afterwards.
    pub fn tick<I: InputSource + ?Sized>(&mut self, now: Instant, input: &mut I) -> u32 {
        let due = self.frames_due(now);
        let mut n = 0;
        for _ in 0..due {
            if !self.step(now, input) {
                break;
            }
            n += 1;
        }
        n
    }

    /// The next message the session wants sent, in order.
    pub fn poll_outgoing(&mut self) -> Option<ClientMessage> {
        self.session.as_mut().and_then(Session::poll_outgoing)
    }

    /// A `Ping` for the server, noted by the clock.
    pub fn ping(&mut self, now: Instant) -> ClientMessage {
        self.clock.ping(now)
    }

    /// The round trip and server clock offset.
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// No longer playing (left the room, lost the seat, server shutting down): frames stop;
    /// the session stays for viewing.
    pub fn stop(&mut self) {
        self.live = false;
        self.finishing = false;
    }

    /// Sets the seat the next match is played from (`None`: spectator, or not in a room).
    pub fn set_seat(&mut self, seat: Option<Seat>) {
        self.seat = seat;
    }

    /// The seat of the next (or current) match, from `Joined`.
    pub fn seat(&self) -> Option<Seat> {
        self.seat
    }

    /// Players' names, seat 0 and 1, as the match announced them.
    pub fn names(&self) -> &[String; 2] {
        &self.names
    }

    /// Players' names, to update.
    pub fn names_mut(&mut self) -> &mut [String; 2] {
        &mut self.names
    }

    /// The current (or last) match's session.
    pub fn session(&self) -> Option<&Session> {
        self.session.as_ref()
    }

    /// The current (or last) match's pacer.
    pub fn pacer(&self) -> Option<&Pacer> {
        self.pacer.as_ref()
    }

    /// The match to draw: predicted.
    pub fn predicted(&self) -> Option<&Match> {
        self.session.as_ref().map(Session::predicted)
    }

    /// The confirmed match (never rolls back).
    pub fn confirmed(&self) -> Option<&Match> {
        self.session.as_ref().map(Session::confirmed)
    }

    /// Whether a match is being played or watched right now.
    pub fn is_live(&self) -> bool {
        self.live
    }

    /// Matches started so far.
    pub fn matches_started(&self) -> u32 {
        self.matches_started
    }

    /// Rounds the server announced in the current match.
    pub fn round_results(&self) -> &[RoundResult] {
        &self.rounds
    }

    /// The match result, once the server announced it.
    pub fn match_result(&self) -> Option<&MatchResult> {
        self.match_result.as_ref()
    }

    /// The server's word that the match has no winner, once it said so.
    pub fn void_result(&self) -> Option<&VoidResult> {
        self.void_result.as_ref()
    }

    /// Round wins: the server's latest count, else the confirmed match's.
    pub fn wins(&self) -> [u8; 2] {
        match self.rounds.last() {
            Some(r) => r.wins,
            None => self.confirmed().map(Match::wins).unwrap_or_default(),
        }
    }

    /// The options a session for the next match gets, from our seat and the round trip.
    fn session_options(&self, header: &MatchHeader) -> SessionOptions {
        match self.seat {
            Some(_) if self.config.auto_input_delay => {
                let mut options = self.config.session;
                let needed = SessionOptions::for_link_within(
                    self.clock.rtt(),
                    self.clock.jitter(),
                    options.window,
                    u32::from(header.rules.garbage_travel),
                );
                options.input_delay = options.input_delay.max(needed.input_delay);
                options.window = needed.window;
                options
            }
            Some(_) => self.config.session,
            None => SessionOptions {
                window: self.config.spectate_window,
                input_delay: 0,
            },
        }
    }

    fn start_match(&mut self, names: [String; 2]) {
        self.names = names;
        self.tuner = DelayTuner::default();
        self.rounds.clear();
        self.match_result = None;
        self.void_result = None;
        self.live = true;
        self.finishing = false;
        self.matches_started += 1;
    }
}
