//! A headless client: a [`Session`], a [`Pacer`](crate::clock::Pacer) and a [`NetHandle`] glued together on tokio.
//!
//! [`HeadlessClient`] does what the GUI does, minus drawing: connect, create or join a room
//! (as a player or a spectator) or quick-match, ready up, then play in real time at 60 frames a
//! second with keys from any [`InputSource`], or watch. It keeps the views the GUI draws
//! (predicted and confirmed match, names, wins, seat statuses, ping, rollbacks, stalls) and the
//! results the server announced, so tests can compare them across clients. It can drop its
//! connection on purpose and come back with its resume token.
//!
//! Every wait is bounded: each method that waits takes or uses a timeout and fails with
//! [`HeadlessError::Timeout`] rather than hang.

mod probe;
mod reconnect;
mod view;

use std::sync::Arc;
use std::time::{Duration, Instant};

use sevenbag_core::{Handling, Seat};
use sevenbag_protocol::{ClientMessage, ErrorCode, JoinRole, RoomOptions, ServerMessage};

use crate::driver::{DriverConfig, DriverEvent, MatchDriver, MatchResult};
use crate::inputs::{Idle, InputSource};
use crate::net::{Hello, NetError, NetEvent, NetHandle, NetOptions, NetStats, connect_with};
use crate::room::{RoomTracker, RoomUpdate};
use crate::session::{Session, SessionError, SessionOptions, SessionStats};
use crate::tls::TlsTrust;
pub use probe::RelayProbe;
use reconnect::{Retry, add_traffic};

/// How long the lobby steps (welcome, joining a room) may take.
pub const LOBBY_TIMEOUT: Duration = Duration::from_secs(10);

/// How a headless client introduces itself and plays.
#[derive(Clone, Debug)]
pub struct HeadlessConfig {
    /// Display name.
    pub name: String,
    /// Handling sent in `Hello`.
    pub handling: Handling,
    /// Prediction window and input delay when playing.
    pub session: SessionOptions,
    /// Raise the input delay at the start of each match to what the measured round trip needs
    /// ([`SessionOptions::for_round_trip`]); `session.input_delay` is then the least delay.
    pub auto_input_delay: bool,
    /// Prediction window when spectating (0: show only confirmed frames).
    pub spectate_window: u32,
    /// How often to ping the server for the round trip (the server allows 4 a second).
    pub ping_every: Duration,
    /// Relay-latency probe shared with the opponent's client (load testing).
    pub probe: Option<Arc<RelayProbe>>,
    /// Frames simulated per wake-up when nothing else happens: 1 runs at 60 Hz like the GUI;
    /// the load tester uses 2 (30 wake-ups a second, two frames each) to spend less CPU per
    /// client. Incoming messages are always handled the moment they arrive.
    pub frames_per_tick: u32,
    /// Simulate at most once per this interval, as a game drawing few frames a second does
    /// (messages are still taken the moment they arrive). `None`: whenever a frame is due.
    pub tick_every: Option<Duration>,
    /// Certificates a `wss://` server may present (default: the public web's authorities).
    pub trust: TlsTrust,
    /// Reconnect by itself when the connection is lost (or the server says it is shutting
    /// down) while in a room: retry with backoff ([`RETRY_FIRST`] doubling to [`RETRY_MAX`])
    /// for at most this long, then give the match up. A player comes back with its resume
    /// token, a spectator joins its room again by code; a restarted server that kept its room
    /// logs takes the match up where both sides left it. `None`: only
    /// [`HeadlessClient::reconnect`] reconnects.
    pub auto_reconnect: Option<Duration>,
    /// Declare this client a bot (`ClientMessage::DeclareBot`) on every new connection, as
    /// programs playing on a public server must: its name is marked as a bot, and ranked play
    /// and records refuse it (`docs/MODERATION.md`).
    pub bot: bool,
    /// Use the server's datagram path for inputs when it offers one (the default), falling
    /// back to the WebSocket where UDP is blocked; `false`: the WebSocket only.
    pub datagrams: bool,
}

/// First pause before retrying a lost connection ([`HeadlessConfig::auto_reconnect`]).
pub const RETRY_FIRST: Duration = Duration::from_millis(100);
/// Longest pause between retries.
pub const RETRY_MAX: Duration = Duration::from_secs(2);

impl HeadlessConfig {
    /// Defaults with this name: default handling and session options (input delay raised to
    /// what the round trip needs), ping every second.
    pub fn new(name: impl Into<String>) -> HeadlessConfig {
        HeadlessConfig {
            name: name.into(),
            handling: Handling::default(),
            session: SessionOptions::default(),
            auto_input_delay: true,
            spectate_window: 0,
            ping_every: Duration::from_secs(1),
            probe: None,
            frames_per_tick: 1,
            tick_every: None,
            trust: TlsTrust::default(),
            auto_reconnect: None,
            bot: false,
            datagrams: true,
        }
    }
}

impl HeadlessConfig {
    /// How its connections are made.
    pub(crate) fn net_options(&self) -> NetOptions {
        NetOptions {
            trust: self.trust.clone(),
            datagrams: self.datagrams,
        }
    }
}

/// A headless client failed to do what it was asked.
#[derive(Debug, thiserror::Error)]
pub enum HeadlessError {
    /// The wait ran out.
    #[error("timed out after {0:?}")]
    Timeout(Duration),
    /// A match being played did not end in time: where it stood, so a stuck match can be
    /// told from a slow one.
    #[error("timed out after {after:?} playing: {state}")]
    Stuck {
        /// The wait.
        after: Duration,
        /// The session's frames, each seat's confirmed inputs and what arrived.
        state: String,
    },
    /// The connection ended.
    #[error("disconnected: {0}")]
    Disconnected(String),
    /// The server refused the request.
    #[error("server error {code:?}: {message}")]
    Server {
        /// The server's error kind.
        code: ErrorCode,
        /// The server's explanation.
        message: String,
    },
    /// Not in a room, or no resume token to reconnect with.
    #[error("{0}")]
    State(&'static str),
    /// Sending failed.
    #[error(transparent)]
    Net(#[from] NetError),
    /// A cluster's redirect could not be followed (a bad URL, or too many in a row).
    #[error("redirect: {0}")]
    Redirect(String),
}

/// A server error we were sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerError {
    /// The kind.
    pub code: ErrorCode,
    /// The text.
    pub message: String,
    /// Whether the server closed the connection.
    pub fatal: bool,
}

/// A `Desync` notice: the server's hash and ours at a frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DesyncNotice {
    /// The frame compared.
    pub frame: u32,
    /// The server's hash.
    pub server_hash: u64,
    /// Ours.
    pub your_hash: u64,
}

/// What the net-stats overlay shows.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ClientStats {
    /// Smoothed round trip to the server.
    pub ping: Option<Duration>,
    /// Rollbacks, stalls and friends of the current match.
    pub session: SessionStats,
    /// Traffic over every connection so far (reconnects included).
    pub net: NetStats,
    /// Smoothed frame advantage over the opponent (frames, positive = ahead).
    pub advantage: f64,
    /// The path carrying inputs now.
    pub path: crate::datagram::TransportPath,
}

/// A client without a window (see the module docs).
#[derive(Debug)]
pub struct HeadlessClient {
    url: String,
    config: HeadlessConfig,
    net: NetHandle,
    /// The event channel still delivers (false once the task's last event was taken).
    channel_open: bool,
    /// Welcomed and not disconnected since.
    connected: bool,
    disconnect_reason: Option<String>,
    server: String,
    /// Traffic of earlier connections (reconnects), added to the live one's.
    past_traffic: NetStats,
    next_ping: Instant,
    /// When the last simulation tick ran (for [`HeadlessConfig::tick_every`]).
    last_tick: Instant,
    /// The room, its seats and spectators (shared with the game's online controller).
    room: RoomTracker,
    /// The match: session, pacer, clock, names, results.
    driver: MatchDriver,
    /// Reconnected mid-match: nothing is sent until the server's match log says where our
    /// inputs stopped (a batch sent before it would leave a gap the server would fill wrongly).
    awaiting_log: bool,
    desyncs: Vec<DesyncNotice>,
    errors: Vec<ServerError>,
    session_errors: Vec<SessionError>,
    replays: Vec<(String, String)>,
    replay: Option<(String, Vec<u8>)>,
    /// Automatic reconnection ([`HeadlessConfig::auto_reconnect`]), while the connection is lost.
    retry: Option<Retry>,
    /// Successful automatic reconnections so far.
    reconnects: u32,
    /// A cluster's `Redirect` for the request in flight.
    redirect: Option<String>,
    redirects: crate::room::Redirects,
}

impl HeadlessClient {
    /// Connects to `url` and waits for the server's `Welcome`.
    pub async fn connect(
        url: &str,
        config: HeadlessConfig,
    ) -> Result<HeadlessClient, HeadlessError> {
        let hello = Hello {
            name: config.name.clone(),
            handling: config.handling,
            resume: None,
        };
        let now = Instant::now();
        let mut client = HeadlessClient {
            url: url.to_owned(),
            net: connect_with(
                &tokio::runtime::Handle::current(),
                url,
                hello,
                config.net_options(),
            ),
            channel_open: true,
            connected: false,
            disconnect_reason: None,
            server: String::new(),
            past_traffic: NetStats::default(),
            next_ping: now,
            last_tick: now,
            room: RoomTracker::default(),
            driver: MatchDriver::new(
                DriverConfig {
                    session: config.session,
                    auto_input_delay: config.auto_input_delay,
                    spectate_window: config.spectate_window,
                    balance_input_delay: false,
                },
                now,
            ),
            awaiting_log: false,
            desyncs: Vec::new(),
            errors: Vec::new(),
            session_errors: Vec::new(),
            replays: Vec::new(),
            replay: None,
            retry: None,
            reconnects: 0,
            redirect: None,
            redirects: crate::room::Redirects::default(),
            config,
        };
        client.await_reply(LOBBY_TIMEOUT, |c| c.connected).await?;
        Ok(client)
    }

    /// Creates a room with `options` and takes its first seat; returns the room code.
    pub async fn create_room(&mut self, options: RoomOptions) -> Result<String, HeadlessError> {
        self.forget_room();
        self.net.send(ClientMessage::CreateRoom { options })?;
        self.await_reply(LOBBY_TIMEOUT, |c| c.room.room().is_some())
            .await?;
        Ok(self.room.room().map(|r| r.code.clone()).unwrap_or_default())
    }

    /// Joins room `code` as a player or spectator; returns our seat (`None` as a spectator).
    pub async fn join_room(
        &mut self,
        code: &str,
        role: JoinRole,
    ) -> Result<Option<Seat>, HeadlessError> {
        let request = ClientMessage::JoinRoom {
            code: code.to_owned(),
            role,
        };
        self.lobby_request(&[request], LOBBY_TIMEOUT).await?;
        Ok(self.seat())
    }

    /// Sends requests that end in a room and waits for it, following a cluster's
    /// `Redirect`s: a new connection to the URL given (no resume token), the same request
    /// again. At most `timeout` in all.
    async fn lobby_request(
        &mut self,
        requests: &[ClientMessage],
        timeout: Duration,
    ) -> Result<(), HeadlessError> {
        let deadline = Instant::now() + timeout;
        loop {
            self.forget_room();
            self.redirect = None;
            for request in requests {
                self.net.send(request.clone())?;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            self.await_reply(left, |c| c.room.room().is_some() || c.redirect.is_some())
                .await?;
            let Some(url) = self.redirect.take() else {
                self.redirects.reset();
                return Ok(());
            };
            let url = self
                .redirects
                .follow(&url)
                .map_err(HeadlessError::Redirect)?;
            tracing::debug!(name = %self.config.name, %url, "redirected");
            self.move_to(url).await?;
        }
    }

    /// Leaves this server for `url` (a redirect): a fresh connection, waited for.
    async fn move_to(&mut self, url: String) -> Result<(), HeadlessError> {
        let hello = Hello {
            name: self.config.name.clone(),
            handling: self.config.handling,
            resume: None,
        };
        self.net.close();
        let old = self.net.stats();
        self.past_traffic = add_traffic(self.past_traffic, old);
        self.net = connect_with(
            &tokio::runtime::Handle::current(),
            &url,
            hello,
            self.config.net_options(),
        );
        self.url = url;
        self.channel_open = true;
        self.connected = false;
        self.disconnect_reason = None;
        self.await_reply(LOBBY_TIMEOUT, |c| c.connected).await
    }

    /// The server this client talks to now (another instance's after a redirect).
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Says we are ready for the next match.
    pub fn ready(&mut self) -> Result<(), HeadlessError> {
        Ok(self.net.send(ClientMessage::Ready)?)
    }

    /// Leaves the room (a player forfeits a running match).
    pub fn leave(&mut self) -> Result<(), HeadlessError> {
        self.driver.stop();
        self.forget_room();
        Ok(self.net.send(ClientMessage::LeaveRoom)?)
    }

    /// Sends any message as is.
    pub fn send(&mut self, message: ClientMessage) -> Result<(), HeadlessError> {
        Ok(self.net.send(message)?)
    }

    /// Plays (or watches) the running match, or the next one if none is running, until the
    /// server announces its result; keys come from `input`; at most `timeout`.
    pub async fn play_match<I: InputSource + ?Sized>(
        &mut self,
        input: &mut I,
        timeout: Duration,
    ) -> Result<MatchResult, HeadlessError> {
        let target = self.driver.matches_started() + u32::from(!self.driver.is_live());
        self.run_until(input, timeout, |c| {
            c.driver.matches_started() >= target
                && !c.driver.is_live()
                && (c.driver.match_result().is_some() || c.driver.void_result().is_some())
        })
        .await?;
        self.driver
            .match_result()
            .cloned()
            .ok_or(HeadlessError::State("the match ended with no result"))
    }

    /// Runs the client (events, pings, frames with keys from `input`) until `done` holds, for at
    /// most `timeout`. A lost connection does not stop it: the session stalls, as the GUI's would.
    pub async fn run_until<I, F>(
        &mut self,
        input: &mut I,
        timeout: Duration,
        mut done: F,
    ) -> Result<(), HeadlessError>
    where
        I: InputSource + ?Sized,
        F: FnMut(&HeadlessClient) -> bool,
    {
        let deadline = Instant::now() + timeout;
        loop {
            if done(self) {
                return Ok(());
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(HeadlessError::Timeout(timeout));
            }
            let wake = self.next_wake(now).min(deadline);
            let open = self.channel_open;
            tokio::select! {
                event = self.net.recv(), if open => match event {
                    Some(event) => self.on_event(event, Instant::now()),
                    None => self.channel_open = false,
                },
                _ = tokio::time::sleep_until(wake.into()) => {}
            }
            while let Some(event) = self.net.try_recv() {
                self.on_event(event, Instant::now());
            }
            let now = Instant::now();
            self.retry_connection(now);
            if self
                .config
                .tick_every
                .is_none_or(|every| now >= self.last_tick + every)
            {
                self.last_tick = now;
                self.tick(now, input);
            }
        }
    }

    /// Runs with no keys held (a running match is played idle) until `done` holds.
    pub async fn wait_for<F>(&mut self, timeout: Duration, done: F) -> Result<(), HeadlessError>
    where
        F: FnMut(&HeadlessClient) -> bool,
    {
        self.run_until(&mut Idle, timeout, done).await
    }

    /// Takes every event already received without waiting (so a report made now knows, e.g.,
    /// why the connection ended).
    pub fn poll_events(&mut self) {
        while let Some(event) = self.net.try_recv() {
            self.on_event(event, Instant::now());
        }
    }

    /// Asks for replay `id` and waits for its bytes.
    pub async fn fetch_replay(&mut self, id: &str) -> Result<Vec<u8>, HeadlessError> {
        self.replay = None;
        self.net
            .send(ClientMessage::GetReplay { id: id.to_owned() })?;
        self.await_reply(LOBBY_TIMEOUT, |c| c.replay.is_some())
            .await?;
        Ok(self
            .replay
            .take()
            .map(|(_, bytes)| bytes)
            .unwrap_or_default())
    }

    /// Runs until `done`, failing early on a new server error or a lost connection.
    async fn await_reply<F>(&mut self, timeout: Duration, mut done: F) -> Result<(), HeadlessError>
    where
        F: FnMut(&HeadlessClient) -> bool,
    {
        let errors = self.errors.len();
        self.run_until(&mut Idle, timeout, |c| {
            done(c) || c.errors.len() > errors || !c.channel_open || c.disconnect_reason.is_some()
        })
        .await?;
        if done(self) {
            return Ok(());
        }
        if let Some(e) = self.errors.get(errors) {
            return Err(HeadlessError::Server {
                code: e.code,
                message: e.message.clone(),
            });
        }
        Err(HeadlessError::Disconnected(
            self.disconnect_reason
                .clone()
                .unwrap_or_else(|| "connection closed".into()),
        ))
    }

    /// When the run loop must next wake without an event: the next ping or the next frame.
    fn next_wake(&self, now: Instant) -> Instant {
        let mut wake = if self.connected {
            self.next_ping
        } else {
            now + Duration::from_millis(100)
        };
        let ahead = self
            .config
            .frames_per_tick
            .clamp(1, crate::clock::MAX_CATCH_UP)
            - 1;
        match self.config.tick_every {
            Some(every) => wake = wake.min(self.last_tick + every),
            None => {
                if let Some(due) = self.driver.next_due(ahead) {
                    wake = wake.min(due);
                }
            }
        }
        wake.max(now)
    }

    /// One pass of the loop: ping if due, simulate the frames the pacer says are due, send what
    /// the session produced.
    fn tick<I: InputSource + ?Sized>(&mut self, now: Instant, input: &mut I) {
        if self.connected && now >= self.next_ping {
            let ping = self.driver.ping(now);
            let _ = self.net.send(ping);
            self.next_ping = now + self.config.ping_every;
        }
        if !self.driver.is_showing() {
            return;
        }
        self.driver.tick(now, input);
        let seat = self.driver.session().and_then(Session::local_seat);
        while let Some(message) = self.driver.poll_outgoing() {
            if !self.connected || self.awaiting_log {
                // Lost with the connection; a resume sends everything past the server's log.
                continue;
            }
            if let (Some(probe), Some(seat), ClientMessage::Inputs { confirmed, .. }) =
                (&self.config.probe, seat, &message)
            {
                probe.sent(seat, *confirmed, Instant::now());
            }
            if self.net.send(message).is_err() {
                self.connected = false;
            }
        }
    }

    fn on_event(&mut self, event: NetEvent, at: Instant) {
        match event {
            NetEvent::Connected => tracing::debug!(url = %self.url, "connected"),
            NetEvent::Welcome { server, .. } => {
                self.server = server;
                self.connected = true;
                self.next_ping = at;
                // Before any request; a seat taken back with its token is already a bot's
                // (the server keeps the mark), and the server refuses a declaration in a room.
                let resumed_seat = self.room.room().is_some_and(|r| r.seat.is_some());
                if self.config.bot && !resumed_seat {
                    let _ = self.net.send(ClientMessage::DeclareBot);
                }
                // A spectator coming back has no token: it asks for its room again, and the
                // match log it is sent rebuilds its view.
                if self.retry.is_some()
                    && let Some(room) = self.room.room()
                    && room.seat.is_none()
                {
                    let code = room.code.clone();
                    let _ = self.net.send(ClientMessage::JoinRoom {
                        code,
                        role: JoinRole::Spectator,
                    });
                }
            }
            NetEvent::Message(message) => self.on_message(message, at),
            NetEvent::Error(e) => tracing::warn!("network: {e}"),
            NetEvent::Disconnected(reason) => {
                tracing::debug!(name = %self.config.name, %reason, "disconnected");
                self.connected = false;
                self.disconnect_reason = Some(reason);
            }
        }
    }

    fn on_message(&mut self, message: ServerMessage, at: Instant) {
        if let ServerMessage::Inputs {
            seat, confirmed, ..
        }
        | ServerMessage::InputsFrom {
            seat, confirmed, ..
        } = &message
            && let (Some(probe), Some(own)) = (&self.config.probe, self.seat())
            && own != *seat
        {
            probe.received(*seat, *confirmed, at);
        }
        if matches!(message, ServerMessage::MatchLog { .. }) {
            self.awaiting_log = false;
        }
        match self.driver.handle(&message, at) {
            DriverEvent::Refused { error, .. } => self.session_errors.push(error),
            DriverEvent::Other => {}
            _ => {
                if let ServerMessage::Desync {
                    frame,
                    server_hash,
                    your_hash,
                } = message
                {
                    self.desyncs.push(DesyncNotice {
                        frame,
                        server_hash,
                        your_hash,
                    });
                }
                return;
            }
        }
        match self.room.apply(&message) {
            Some(RoomUpdate::Joined) => {
                self.driver.set_seat(self.room.room().and_then(|r| r.seat));
            }
            Some(RoomUpdate::Left) => {
                // Our seat is gone: we are connected, in no room.
                self.driver.set_seat(None);
                self.driver.stop();
                self.awaiting_log = false;
            }
            Some(RoomUpdate::Seats { .. }) => {
                for (i, seat) in self.room.seats().iter().enumerate() {
                    if let Some(info) = seat {
                        self.driver.names_mut()[i] = info.name.clone();
                    }
                }
            }
            None => {}
        }
        match message {
            ServerMessage::Error {
                code,
                message,
                fatal,
            } => {
                tracing::debug!(name = %self.config.name, ?code, %message, fatal, "server error");
                if code == ErrorCode::BadResume && self.awaiting_log {
                    // The seat is gone (its match is over: the verdict, if the server kept
                    // one, came just before): no match log will come.
                    self.awaiting_log = false;
                    self.driver.stop();
                    self.forget_room();
                }
                self.errors.push(ServerError {
                    code,
                    message,
                    fatal,
                });
            }
            ServerMessage::Replays { list } => self.replays = list,
            ServerMessage::Redirect { url } => self.redirect = Some(url),
            ServerMessage::Replay { id, bytes } => self.replay = Some((id, bytes)),
            ServerMessage::Shutdown { reason } => {
                tracing::info!(%reason, "server shutting down");
                // With automatic reconnection the match may go on on the restarted server (its
                // room log kept); otherwise, or if it does not come back, it is over.
                if self.config.auto_reconnect.is_none() {
                    self.driver.stop();
                }
            }
            // The driver handles the match (a refusal is recorded above); the net task handles
            // `Welcome` and `Ping` itself.
            _ => {}
        }
    }

    /// Forgets the room (before asking for another), and with it the driver's seat.
    fn forget_room(&mut self) {
        self.room.leave();
        self.driver.set_seat(None);
    }
}
