//! [`BattleClient`]: a headless client for rooms of several seats (free-for-all and teams):
//! create or join by code, ready, play in real time with keys (and manual targets) from a
//! closure, or watch; drop the connection and come back with the resume token. The end-to-end
//! tests and the load tester are built on it.
//!
//! It is [`crate::HeadlessClient`]'s little sibling: the same connection ([`NetHandle`]),
//! clock and pacer, with a [`BattleSession`] instead of a `Session`. Inputs go as datagrams
//! where the server offers the path (falling back to the WebSocket as a two-seat client does),
//! unless it connects with [`BattleClient::connect_with`]`(.., false)`. Every wait is bounded.

mod quick;

use std::time::{Duration, Instant};

use sevenbag_core::{Battle, Handling, SeatInput};
use sevenbag_protocol::{
    BattleRoomOptions, ClientMessage, EndReason, JoinRole, Profile, SeatInfo, ServerMessage,
};

use crate::battle_links::{battle_options, report_due};
use crate::battle_pace::{balance_battle, retune_battle};
use crate::battle_session::{BattleRoundEnd, BattleSession, BattleSessionError};
use crate::clock::{Clock, Pacer};
use crate::headless::{HeadlessError, LOBBY_TIMEOUT, ServerError};
use crate::net::{Hello, NetEvent, NetHandle, NetOptions, connect_with};
use crate::retune::DelayTuner;
use crate::session::SessionOptions;
pub use quick::QueueState;

/// How often the client wakes up to simulate and read messages.
const TICK: Duration = Duration::from_millis(4);

/// A match result as the server announced it (`BattleOver`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BattleOutcome {
    /// The winning team.
    pub winner: Option<u8>,
    /// How it ended.
    pub reason: EndReason,
    /// Each battle seat's final place.
    pub placements: Vec<u8>,
    /// Replay id, if kept.
    pub replay: Option<String>,
}

/// Keys and target for our seat, chosen from the predicted match.
pub type Keys<'a> = &'a mut (dyn FnMut(&Battle, usize) -> SeatInput + Send);

/// A headless client of rooms of several seats (see the module docs).
#[derive(Debug)]
pub struct BattleClient {
    url: String,
    name: String,
    handling: Handling,
    net: NetHandle,
    clock: Clock,
    next_ping: Instant,
    welcomed: bool,
    disconnected: Option<String>,
    /// Room code, our room seat, resume token.
    code: Option<String>,
    seat: Option<u8>,
    resume: Option<u64>,
    room: Vec<Option<SeatInfo>>,
    session_options: SessionOptions,
    session: Option<BattleSession>,
    pacer: Option<Pacer>,
    names: Vec<String>,
    room_seats: Vec<u8>,
    /// Reconnected mid-match: nothing is sent until the match log arrives.
    awaiting_log: bool,
    outcome: Option<BattleOutcome>,
    errors: Vec<ServerError>,
    session_errors: Vec<BattleSessionError>,
    replay: Option<(String, Vec<u8>)>,
    /// The identity the server last confirmed (`Identified` or `Registered`).
    profile: Option<Profile>,
    /// Each battle seat's round trip as the room announced it (`BattleLinks`).
    links: Vec<u16>,
    /// Our input delay's re-estimates over the match, as the game makes them.
    tuner: DelayTuner,
    /// The round trip we last reported (`LinkReport`).
    reported_rtt: Option<u16>,
    /// The free-for-all queue, while we wait in it ([`quick`]).
    queue: Option<QueueState>,
    /// Use the server's datagram path for inputs.
    datagrams: bool,
    /// Frames simulated per wake-up at least ([`Self::set_frames_per_tick`]).
    frames_per_tick: u32,
    /// What we last asked of the lobby (create, join, quick play) and the identity key we
    /// gave: both are asked again on the instance a cluster's `Redirect` sends us to.
    lobby_request: Option<ClientMessage>,
    identity: Option<[u8; 32]>,
    /// A `Redirect` to follow, and the redirects followed in a row.
    redirect: Option<String>,
    redirects: crate::room::Redirects,
    /// Requests to send once the new connection is welcomed.
    after_welcome: Vec<ClientMessage>,
}

impl BattleClient {
    /// Connects to `url` as `name` and waits for `Welcome`.
    pub async fn connect(url: &str, name: &str) -> Result<BattleClient, HeadlessError> {
        Self::connect_with(url, name, true).await
    }

    /// Connects as [`Self::connect`] does; `datagrams: false` keeps inputs on the WebSocket.
    pub async fn connect_with(
        url: &str,
        name: &str,
        datagrams: bool,
    ) -> Result<BattleClient, HeadlessError> {
        let now = Instant::now();
        let mut client = BattleClient {
            url: url.to_owned(),
            name: name.to_owned(),
            handling: Handling::default(),
            net: Self::open(url, name, Handling::default(), None, datagrams),
            clock: Clock::new(now),
            next_ping: now,
            welcomed: false,
            disconnected: None,
            code: None,
            seat: None,
            resume: None,
            room: Vec::new(),
            session_options: SessionOptions::default(),
            session: None,
            pacer: None,
            names: Vec::new(),
            room_seats: Vec::new(),
            awaiting_log: false,
            outcome: None,
            errors: Vec::new(),
            session_errors: Vec::new(),
            replay: None,
            profile: None,
            links: Vec::new(),
            tuner: DelayTuner::default(),
            reported_rtt: None,
            queue: None,
            datagrams,
            frames_per_tick: 1,
            lobby_request: None,
            identity: None,
            redirect: None,
            redirects: crate::room::Redirects::default(),
            after_welcome: Vec::new(),
        };
        client.wait(LOBBY_TIMEOUT, |c| c.welcomed).await?;
        Ok(client)
    }

    fn open(
        url: &str,
        name: &str,
        handling: Handling,
        resume: Option<u64>,
        datagrams: bool,
    ) -> NetHandle {
        let hello = Hello {
            name: name.to_owned(),
            handling,
            resume,
        };
        let options = NetOptions {
            datagrams,
            ..NetOptions::default()
        };
        connect_with(&tokio::runtime::Handle::current(), url, hello, options)
    }

    /// Creates a room of several seats and takes its first seat; returns the code.
    pub async fn create(&mut self, options: BattleRoomOptions) -> Result<String, HeadlessError> {
        self.lobby(ClientMessage::CreateBattleRoom { options })?;
        self.wait(LOBBY_TIMEOUT, |c| c.code.is_some()).await?;
        Ok(self.code.clone().unwrap_or_default())
    }

    /// Joins room `code` as a player or spectator; returns our room seat.
    pub async fn join(&mut self, code: &str, role: JoinRole) -> Result<Option<u8>, HeadlessError> {
        self.lobby(ClientMessage::JoinRoom {
            code: code.to_owned(),
            role,
        })?;
        self.wait(LOBBY_TIMEOUT, |c| c.code.is_some()).await?;
        Ok(self.seat)
    }

    /// Sends `Ready`.
    pub fn ready(&mut self) -> Result<(), HeadlessError> {
        Ok(self.net.send(ClientMessage::Ready)?)
    }

    /// Sends any message (tests of hostile clients). An identity sent this way is given
    /// again after a redirect.
    pub fn send(&mut self, message: ClientMessage) -> Result<(), HeadlessError> {
        if let ClientMessage::Register { key, .. } | ClientMessage::Identify { key } = &message {
            self.identity = Some(*key);
        }
        Ok(self.net.send(message)?)
    }

    /// Waits up to `timeout` for the match to begin.
    pub async fn wait_for_start(&mut self, timeout: Duration) -> Result<(), HeadlessError> {
        self.wait(timeout, |c| c.session.is_some()).await
    }

    /// Plays (or watches) until the server announced the result and our confirmed match has
    /// reached it (a result decided off the boards ends it at once), or `timeout`.
    pub async fn play(&mut self, keys: Keys<'_>, timeout: Duration) -> Result<(), HeadlessError> {
        self.run(keys, timeout, |c| c.finished()).await
    }

    /// Plays for `duration` (then returns, the match still running).
    pub async fn play_for(&mut self, keys: Keys<'_>, duration: Duration) {
        let _ = self.run(keys, duration, |_| false).await;
    }

    fn finished(&self) -> bool {
        let Some(outcome) = &self.outcome else {
            return false;
        };
        outcome.reason != EndReason::TopOut || self.session.as_ref().is_some_and(|s| s.is_over())
    }

    /// Drops the connection without a word, as a network failure would.
    pub fn drop_connection(&mut self) {
        self.net.abort();
        self.welcomed = false;
    }

    /// Connects again with the resume token and waits for `Welcome`; the match log follows.
    pub async fn reconnect(&mut self) -> Result<(), HeadlessError> {
        let resume = self
            .resume
            .filter(|_| self.seat.is_some())
            .ok_or(HeadlessError::State("no resume token"))?;
        let datagrams = self.datagrams;
        self.net = Self::open(
            &self.url,
            &self.name,
            self.handling,
            Some(resume),
            datagrams,
        );
        self.disconnected = None;
        self.reported_rtt = None;
        self.awaiting_log = self.session.is_some();
        self.wait(LOBBY_TIMEOUT, |c| c.welcomed).await
    }

    /// Asks for a replay's bytes and waits for them.
    pub async fn fetch_replay(&mut self, id: &str) -> Result<Vec<u8>, HeadlessError> {
        self.replay = None;
        self.net
            .send(ClientMessage::GetReplay { id: id.to_owned() })?;
        self.wait(LOBBY_TIMEOUT, |c| c.replay.is_some()).await?;
        Ok(self.replay.take().map(|(_, b)| b).unwrap_or_default())
    }

    /// Waits until the connection ends (a hostile client being cut), up to `timeout`.
    pub async fn wait_disconnected(&mut self, timeout: Duration) -> Result<(), HeadlessError> {
        self.wait(timeout, |c| c.disconnected.is_some()).await
    }

    /// Our round trip to the server as our clock measures it (smoothed), once known.
    pub fn round_trip(&self) -> Option<Duration> {
        self.clock.rtt()
    }

    /// Each battle seat's round trip as the room last announced it (milliseconds, 0: unknown).
    pub fn links(&self) -> &[u16] {
        &self.links
    }

    /// Traffic of the current connection.
    pub fn traffic(&self) -> crate::NetStats {
        self.net.stats()
    }

    /// Which path carries our inputs now.
    pub fn path(&self) -> crate::TransportPath {
        self.net.path()
    }

    /// Simulate frames only once `n` are due (1, the default, as the game does: each frame
    /// as it falls due), as `HeadlessConfig::frames_per_tick` does for two-seat clients: the
    /// load tester runs both kinds with the same number, so their batches cover as many frames.
    pub fn set_frames_per_tick(&mut self, n: u32) {
        self.frames_per_tick = n.clamp(1, crate::clock::MAX_CATCH_UP);
    }

    /// Where the datagram path stands.
    pub fn datagram_status(&self) -> crate::DatagramStatus {
        self.net.datagram_status()
    }

    /// Stays connected (idle keys) until `done` holds, or `timeout`.
    pub async fn wait_for(
        &mut self,
        timeout: Duration,
        done: impl Fn(&BattleClient) -> bool,
    ) -> Result<(), HeadlessError> {
        self.wait(timeout, done).await
    }

    /// The session of the current match.
    pub fn session(&self) -> Option<&BattleSession> {
        self.session.as_ref()
    }

    /// Rounds ended in the current match's confirmed simulation (empty before one).
    pub fn round_ends(&self) -> &[BattleRoundEnd] {
        self.session.as_ref().map_or(&[], BattleSession::round_ends)
    }

    /// The server's result.
    pub fn outcome(&self) -> Option<&BattleOutcome> {
        self.outcome.as_ref()
    }

    /// Errors the server sent.
    pub fn errors(&self) -> &[ServerError] {
        &self.errors
    }

    /// The identity the server last confirmed this connection plays as.
    pub fn profile(&self) -> Option<&Profile> {
        self.profile.as_ref()
    }

    /// Relayed inputs or logs our session refused.
    pub fn session_errors(&self) -> &[BattleSessionError] {
        &self.session_errors
    }

    /// Why the connection ended, once it has.
    pub fn disconnect_reason(&self) -> Option<&str> {
        self.disconnected.as_deref()
    }

    /// Our room seat.
    pub fn seat(&self) -> Option<u8> {
        self.seat
    }

    /// The room's seats as last announced.
    pub fn room(&self) -> &[Option<SeatInfo>] {
        &self.room
    }

    /// Each battle seat's name in the current match.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Our battle seat in the current match.
    fn battle_seat(&self) -> Option<usize> {
        let seat = self.seat?;
        self.room_seats.iter().position(|&s| s == seat)
    }

    async fn wait(
        &mut self,
        timeout: Duration,
        done: impl Fn(&BattleClient) -> bool,
    ) -> Result<(), HeadlessError> {
        let mut idle = |_: &Battle, _: usize| SeatInput::NONE;
        self.run(&mut idle, timeout, done).await
    }

    async fn run(
        &mut self,
        keys: Keys<'_>,
        timeout: Duration,
        done: impl Fn(&BattleClient) -> bool,
    ) -> Result<(), HeadlessError> {
        let deadline = Instant::now() + timeout;
        loop {
            while let Some((event, at)) = self.net.try_recv_stamped() {
                self.on_event(event, at)?;
            }
            self.follow_redirect()?;
            if done(self) {
                return Ok(());
            }
            if let Some(reason) = &self.disconnected {
                return Err(HeadlessError::Disconnected(reason.clone()));
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(HeadlessError::Stuck {
                    after: timeout,
                    state: self.describe(),
                });
            }
            if self.welcomed && now >= self.next_ping {
                let _ = self.net.send(self.clock.ping(now));
                self.next_ping = now + Duration::from_secs(1);
            }
            self.tick(keys, now);
            tokio::time::sleep(TICK).await;
        }
    }

    /// Where the match stands, in a line for a timed-out wait.
    fn describe(&self) -> String {
        let outcome = self.outcome.as_ref().map(|o| o.reason);
        let Some(s) = &self.session else {
            return format!("no match started; outcome {outcome:?}");
        };
        let seats: Vec<u32> = (0..usize::from(s.header().seats))
            .filter_map(|i| s.log(i).map(|l| l.confirmed()))
            .collect();
        format!(
            "frame {}, confirmed inputs per seat {seats:?}, remote confirmed {}, over {}, \
             awaiting log {}, outcome {outcome:?}, stats {:?}",
            s.frame(),
            s.remote_confirmed(),
            s.is_over(),
            self.awaiting_log,
            s.stats()
        )
    }

    fn tick(&mut self, keys: Keys<'_>, now: Instant) {
        let me = self.battle_seat();
        let least = self.frames_per_tick;
        let (Some(session), Some(pacer)) = (&mut self.session, &mut self.pacer) else {
            return;
        };
        if self.awaiting_log {
            return;
        }
        let due = pacer.frames_due(now, session.frame());
        for _ in 0..if due >= least { due } else { 0 } {
            let input = me.map_or(SeatInput::NONE, |s| keys(session.predicted(), s));
            if session.advance(input) == crate::Step::Stalled {
                pacer.stalled(now, session.frame());
                break;
            }
            if let Some(me) = me {
                let own = (self.clock.rtt(), self.clock.jitter());
                retune_battle(&mut self.tuner, session, own, &self.links, me);
            }
            balance_battle(pacer, session, self.clock.rtt(), &self.links);
        }
        if self.welcomed {
            while let Some(m) = session.poll_outgoing() {
                let _ = self.net.send(m);
            }
        }
    }

    fn on_event(&mut self, event: NetEvent, at: Instant) -> Result<(), HeadlessError> {
        match event {
            NetEvent::Connected | NetEvent::Error(_) => {}
            NetEvent::Welcome { .. } => self.welcomed = true,
            NetEvent::Disconnected(reason) => {
                self.welcomed = false;
                self.disconnected = Some(reason);
            }
            NetEvent::Message(m) => self.on_message(m, at),
        }
        Ok(())
    }

    fn on_message(&mut self, m: ServerMessage, at: Instant) {
        match m {
            ServerMessage::Redirect { url } => self.redirect = Some(url),
            ServerMessage::BattleJoined {
                code, seat, resume, ..
            } => {
                self.redirects.reset();
                // Back without our seat (it was played out while we were away): the match
                // goes on for us as a spectator, from the log that follows.
                if seat.is_none()
                    && self
                        .session
                        .as_ref()
                        .is_some_and(|s| s.local_seat().is_some())
                {
                    self.session = None;
                    self.pacer = None;
                    self.awaiting_log = false;
                }
                self.code = Some(code);
                self.seat = seat;
                if seat.is_some() {
                    self.resume = Some(resume);
                }
            }
            ServerMessage::BattleRoomState { seats, .. } => self.room = seats,
            ServerMessage::BattleStart {
                header,
                names,
                room_seats,
                start_in_ms,
            } => {
                self.names = names;
                self.room_seats = room_seats;
                self.outcome = None;
                self.tuner = DelayTuner::default();
                let local = self.battle_seat();
                let options = self.options_for(local);
                match BattleSession::new(*header, local, options) {
                    Ok(session) => {
                        self.pacer = Some(Pacer::from_match_start(
                            at,
                            start_in_ms,
                            self.clock.rtt(),
                            options.window,
                        ));
                        self.session = Some(session);
                    }
                    Err(e) => self.session_errors.push(e),
                }
            }
            ServerMessage::BattleLog {
                header,
                names,
                room_seats,
                ref changes,
                ref targets,
                ref confirmed,
                now_frame,
            } => {
                let same = self
                    .session
                    .as_ref()
                    .is_some_and(|s| *s.header() == *header);
                self.awaiting_log = false;
                if same && let Some(session) = &mut self.session {
                    if let Err(e) = session.apply_log(changes, targets, confirmed) {
                        self.session_errors.push(e);
                    }
                    return;
                }
                self.names = names;
                self.room_seats = room_seats;
                self.tuner = DelayTuner::default();
                let local = self.battle_seat();
                let options = self.options_for(local);
                match BattleSession::from_log(*header, local, options, changes, targets, confirmed)
                {
                    Ok(session) => {
                        self.pacer = Some(Pacer::from_now_frame(
                            at,
                            now_frame,
                            self.clock.rtt(),
                            options.window,
                        ));
                        self.session = Some(session);
                    }
                    Err(e) => self.session_errors.push(e),
                }
            }
            ServerMessage::BattleInputs { .. }
            | ServerMessage::BattleInputsGathered { .. }
            | ServerMessage::Desync { .. }
            | ServerMessage::BattleDesync { .. }
            | ServerMessage::BattleDesyncBoards { .. } => {
                if let Some(session) = &mut self.session
                    && let Err(e) = session.handle(&m)
                {
                    self.session_errors.push(e);
                }
            }
            ServerMessage::BattleOver {
                winner,
                reason,
                placements,
                replay,
            } => {
                self.outcome = Some(BattleOutcome {
                    winner,
                    reason,
                    placements,
                    replay,
                });
            }
            ServerMessage::Pong { nonce, server_ms } => {
                self.clock.pong(nonce, server_ms, at);
                if self.seat.is_some()
                    && let Some(rtt_ms) = report_due(self.clock.rtt(), self.reported_rtt)
                    && self.net.send(ClientMessage::LinkReport { rtt_ms }).is_ok()
                {
                    self.reported_rtt = Some(rtt_ms);
                }
            }
            ServerMessage::BattleLinks { rtt_ms } => self.links = rtt_ms,
            ServerMessage::Replay { id, bytes } => self.replay = Some((id, bytes)),
            ServerMessage::QuickBattleQueue {
                waiting,
                needed,
                most,
                starts_in_ms,
            } => {
                // Queued: the request was served (a later move to another instance counts
                // afresh).
                self.redirects.reset();
                self.queue = Some(QueueState {
                    waiting,
                    needed,
                    most,
                    starts_in_ms,
                })
            }
            ServerMessage::Identified { profile } | ServerMessage::Registered { profile, .. } => {
                self.profile = Some(profile)
            }
            ServerMessage::Error {
                code,
                message,
                fatal,
            } => self.errors.push(ServerError {
                code,
                message,
                fatal,
            }),
            _ => {}
        }
    }

    fn options_for(&self, local: Option<usize>) -> SessionOptions {
        match local {
            Some(me) => battle_options(
                self.clock.rtt(),
                &self.links,
                me,
                self.session_options.window,
            ),
            None => self.session_options,
        }
    }
}
