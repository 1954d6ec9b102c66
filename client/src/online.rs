//! The online controller: one connection to a Sevenbag server, the lobby it sees and the match
//! it plays or watches. No macroquad in here, so the tests drive it headlessly.
//!
//! [`Online`] owns a [`NetHandle`] (the WebSocket task runs on the shared background runtime,
//! [`runtime`]), tracks the room (code, seats, ready flags, spectators) and, once the server
//! sends `MatchStart` or a `MatchLog`, a netplay [`Session`] paced by a `Pacer`, both kept by a
//! [`MatchDriver`] (the same one `sevenbag_netplay::HeadlessClient` plays with). Each rendered
//! frame the screen calls [`Online::poll`] (events, pings; never blocks) and then advances as
//! many frames as are due; [`Online::tick`] does both in one call with keys from a closure, the
//! way `sevenbag_netplay::HeadlessClient::tick` does. It implements the screen's
//! [`crate::session::Session`] trait, so the match view draws online play unchanged.
//!
//! When the connection of a seated player drops during a match (not after [`Online::leave`]),
//! the controller reconnects by itself: it keeps the match and its session, tries a new
//! connection with the resume token from `Joined` every second (see [`crate::reconnect`]) until
//! the room's `reconnect_seconds` pass, sends nothing until the server's `MatchLog` has rebuilt
//! the session, and then carries on. If the window passes or the server answers `BadResume`,
//! the stage becomes [`Stage::Failed`] with [`crate::reconnect::FORFEITED`].

use std::sync::{OnceLock, RwLock};
use std::time::{Duration, Instant};

use sevenbag_core::{Handling, Input, Match, MatchHeader, Phase, Seat};
use sevenbag_netplay::{
    DEFAULT_WINDOW, DriverConfig, DriverEvent, Hello, MatchDriver, MatchResult, NetEvent,
    NetHandle, RoomTracker, RoomUpdate, Session, SessionOptions, TlsTrust, from_fn,
};
use sevenbag_protocol::{
    ClientMessage, EndReason, ErrorCode, JoinRole, RoomOptions, SeatInfo, SeatStatus, ServerMessage,
};

use crate::identity::RankedFlow;
use crate::input::{KeyMap, Keyboard, Latch};
use crate::opponent::AutoPlayer;
use crate::reconnect::{FORFEITED, LOST_MATCH, Reconnect, SPECTATOR_RETRY_SECS};
use crate::session::{NetStatus, Peer};

/// Which certificates `wss://` servers may present, for every connection the game makes. Like
/// the runtime below it is the process's: set at start-up ([`set_trust`]) from `--trust-cert`
/// or the settings file, so the many places that connect need not carry it.
static TRUST: RwLock<Option<TlsTrust>> = RwLock::new(None);

/// Trusts the PEM certificate at `path` (besides the public web's authorities) for every later
/// `wss://` connection; `None` trusts the web's authorities only.
pub fn set_trust(path: Option<&std::path::Path>) -> Result<(), String> {
    let trust = match path {
        Some(path) => TlsTrust::default()
            .with_cert_file(path)
            .map_err(|e| e.to_string())?,
        None => TlsTrust::default(),
    };
    *TRUST.write().unwrap_or_else(|p| p.into_inner()) = Some(trust);
    Ok(())
}

/// The trust [`set_trust`] chose (the web's authorities if it was never called).
pub fn trust() -> TlsTrust {
    TRUST
        .read()
        .unwrap_or_else(|p| p.into_inner())
        .clone()
        .unwrap_or_default()
}

/// The process's network runtime: one tokio worker thread, started on first use. The render loop
/// never blocks on it; it only polls channels.
pub fn runtime() -> Result<&'static tokio::runtime::Runtime, String> {
    static RUNTIME: OnceLock<Result<tokio::runtime::Runtime, String>> = OnceLock::new();
    RUNTIME
        .get_or_init(|| {
            tokio::runtime::Builder::new_multi_thread()
                .worker_threads(1)
                .thread_name("sevenbag-net")
                .enable_all()
                .build()
                .map_err(|e| format!("cannot start the network thread: {e}"))
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// `host:port` (or a full `ws://` URL) as the WebSocket URL the netplay task wants. An address
/// without a port gets the server's default port 7878 ([`crate::lan::DEFAULT_GAME_PORT`]), not
/// the web's 80, wherever it was typed (quick match, rooms, spectating, LAN join).
pub fn server_url(address: &str) -> String {
    let a = address.trim();
    let (scheme, rest) = match a.split_once("://") {
        Some((scheme @ ("ws" | "wss"), rest)) => (scheme, rest),
        _ => ("ws", a),
    };
    let (host, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let path = if path.is_empty() { "/" } else { path };
    // The port follows the last ':' outside an IPv6 literal's brackets.
    let has_port = match host.rfind(']') {
        Some(close) => host[close..].contains(':'),
        None => host.contains(':') && host.matches(':').count() == 1,
    };
    let host = if !host.starts_with('[') && host.matches(':').count() > 1 {
        format!("[{host}]")
    } else {
        host.to_owned()
    };
    if has_port {
        format!("{scheme}://{host}{path}")
    } else {
        format!("{scheme}://{host}:{}{path}", crate::lan::DEFAULT_GAME_PORT)
    }
}

/// What the connection is for, sent as soon as the server welcomes us.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// Matchmaking.
    QuickMatch,
    /// A new room with these options.
    Create(RoomOptions),
    /// Take a seat in room `code`.
    Join(String),
    /// Watch room `code`.
    Spectate(String),
    /// Only the server's replay list (the replay screen's download).
    ListReplays,
    /// Ranked matchmaking as the identity of this key (registered on first use).
    Ranked([u8; 32]),
}

/// Where the connection stands, for the lobby screen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Connecting and saying hello.
    Connecting,
    /// Welcomed; the request is on its way (quick match: waiting for an opponent).
    Waiting,
    /// In a room (a match may be running: see [`Online::is_live`]).
    InRoom,
    /// Connected for the replay list only.
    Browsing,
    /// Something went wrong: the message says what, for people. The connection may be gone.
    Failed(String),
}

/// The server's verdict on the last match: who won, how, and the replay id it keeps it under.
pub type Outcome = MatchResult;

/// Who plays our seat: the keyboard through a latch, or an automatic player (the online demo).
enum Driver {
    Keys(KeyMap, Latch),
    Auto(Box<dyn AutoPlayer>),
}

/// One connection to a server and everything it shows (see the module docs).
pub struct Online {
    url: String,
    request: Request,
    /// Our `Hello` (name and handling), kept for reconnecting.
    hello: Hello,
    /// Set while the connection is lost mid-match and we try to take our seat back.
    reconnect: Option<Reconnect>,
    /// `None` when the network thread could not start (the stage says so).
    net: Option<NetHandle>,
    welcomed: bool,
    server_name: String,
    stage: Stage,
    next_ping: Instant,
    /// The room, its seats and spectators (the tracker the headless client uses too).
    room: RoomTracker,
    /// When each seat's status was last heard (a `Reconnecting` count runs down from there).
    status_heard: [Instant; 2],
    /// The match: session, pacer, clock, our seat, names, the server's results.
    match_driver: MatchDriver,
    ready_sent: bool,
    /// The last notice worth showing once (non-fatal server errors, shutdown).
    notices: Vec<String>,
    /// Room chat heard on this connection.
    chat: crate::chat::Chat,
    /// The identify/register/queue exchange of a ranked request.
    ranked: Option<RankedFlow>,
    replay_list: Vec<(String, String)>,
    replay: Option<(String, Vec<u8>)>,
    driver: Driver,
    /// Frames due this rendered frame that are still to be stepped.
    due: u32,
    /// Shown before the first match (the view needs a `Match` to draw).
    idle: Match,
    /// A cluster's redirects followed for the current request.
    redirects: sevenbag_netplay::Redirects,
}

impl std::fmt::Debug for Online {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Online")
            .field("url", &self.url)
            .field("stage", &self.stage)
            .field("code", &self.code())
            .field("seat", &self.match_driver.seat())
            .finish_non_exhaustive()
    }
}

impl Online {
    /// Connects to `address` (`host:port` or a `ws://` URL) as `name` with `handling`, and makes
    /// `request` once welcomed. Returns at once; nothing here waits on the network.
    pub fn connect(
        address: &str,
        name: &str,
        handling: Handling,
        keys: KeyMap,
        request: Request,
    ) -> Online {
        let url = server_url(address);
        let name = if name.trim().is_empty() {
            "Player".to_owned()
        } else {
            name.trim().chars().take(24).collect()
        };
        let hello = Hello {
            name,
            handling,
            resume: None,
        };
        let (net, stage) = match runtime() {
            Ok(rt) => (
                Some(sevenbag_netplay::connect_trusting(
                    rt.handle(),
                    &url,
                    hello.clone(),
                    trust(),
                )),
                Stage::Connecting,
            ),
            Err(e) => (None, Stage::Failed(e)),
        };
        let ranked = match &request {
            Request::Ranked(key) => {
                Some(RankedFlow::new(*key).keeping_codes(crate::identity::default_key_path()))
            }
            _ => None,
        };
        let now = Instant::now();
        Online {
            url,
            request,
            hello,
            reconnect: None,
            net,
            welcomed: false,
            server_name: String::new(),
            stage,
            next_ping: now,
            room: RoomTracker::default(),
            status_heard: [Instant::now(); 2],
            match_driver: MatchDriver::new(
                DriverConfig {
                    // Players: the input delay the round trip needs; spectators predict both
                    // seats a little, for a smooth picture.
                    session: SessionOptions {
                        window: DEFAULT_WINDOW,
                        input_delay: 0,
                    },
                    auto_input_delay: true,
                    spectate_window: 6,
                    balance_input_delay: true,
                },
                now,
            ),
            ready_sent: false,
            notices: Vec::new(),
            chat: crate::chat::Chat::default(),
            ranked,
            replay_list: Vec::new(),
            replay: None,
            driver: Driver::Keys(keys, Latch::default()),
            due: 0,
            idle: Match::new(MatchHeader::versus(0)),
            redirects: sevenbag_netplay::Redirects::default(),
        }
    }

    /// Lets an automatic player press our keys instead of the keyboard (the online demo).
    pub fn with_auto(mut self, player: Box<dyn AutoPlayer>) -> Online {
        self.driver = Driver::Auto(player);
        self
    }

    /// The server URL.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Where we stand.
    pub fn stage(&self) -> &Stage {
        &self.stage
    }

    /// The server's name from `Welcome`.
    pub fn server_name(&self) -> &str {
        &self.server_name
    }

    /// The room code, once in a room.
    pub fn code(&self) -> Option<&str> {
        self.room.room().map(|r| r.code.as_str())
    }

    /// Our seat (`None` as a spectator or outside a room).
    pub fn seat(&self) -> Option<Seat> {
        self.match_driver.seat()
    }

    /// Whether we watch rather than play.
    pub fn is_spectator(&self) -> bool {
        self.code().is_some() && self.match_driver.seat().is_none()
    }

    /// The room's options.
    pub fn options(&self) -> Option<&RoomOptions> {
        self.room.room().map(|r| &r.options)
    }

    /// The seats as the room last described them.
    pub fn seats(&self) -> &[Option<SeatInfo>; 2] {
        self.room.seats()
    }

    /// Spectators in the room.
    pub fn spectators(&self) -> u16 {
        self.room.spectators()
    }

    /// Players' names, seat 0 and 1.
    pub fn names(&self) -> [String; 2] {
        [0, 1].map(|i| {
            let names = self.match_driver.names();
            if !names[i].is_empty() {
                names[i].clone()
            } else {
                self.room.seats()[i]
                    .as_ref()
                    .map_or_else(|| "—".to_owned(), |s| s.name.clone())
            }
        })
    }

    #[allow(dead_code)] // the match view reads wins from the `Match`; kept for other views
    /// Round wins: the server's count once it announced one, else the confirmed match's.
    pub fn wins(&self) -> [u8; 2] {
        self.match_driver.wins()
    }

    #[cfg_attr(not(test), allow(dead_code))] // the tests read it
    /// The netplay session of the current (or last) match.
    pub fn session(&self) -> Option<&Session> {
        self.match_driver.session()
    }

    /// A match is being played or watched right now (also while reconnecting to it).
    pub fn is_live(&self) -> bool {
        self.match_driver.is_live()
    }

    /// While the connection is lost mid-match: the whole seconds left to take the seat back.
    pub fn reconnecting(&self, now: Instant) -> Option<u32> {
        self.reconnect.as_ref().map(|r| r.seconds_left(now))
    }

    /// Connection attempts of the current reconnect (0 when not reconnecting).
    pub fn reconnect_attempts(&self) -> u32 {
        self.reconnect.as_ref().map_or(0, Reconnect::attempts)
    }

    /// Matches started on this connection.
    pub fn matches_started(&self) -> u32 {
        self.match_driver.matches_started()
    }

    /// The server's result of the last match.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.match_driver.match_result()
    }

    /// We sent `Ready` and wait for the next `MatchStart`.
    pub fn ready_sent(&self) -> bool {
        self.ready_sent
    }

    /// The round trip to the server, once measured.
    pub fn ping(&self) -> Option<Duration> {
        self.match_driver.clock().rtt()
    }

    /// The server's replay list (after [`Request::ListReplays`] or [`Online::list_replays`]).
    pub fn replay_list(&self) -> &[(String, String)] {
        &self.replay_list
    }

    /// Takes a replay the server sent (id and file bytes).
    pub fn take_replay(&mut self) -> Option<(String, Vec<u8>)> {
        self.replay.take()
    }

    /// Tells the player when someone else's connection drops and when they are back.
    fn note_peer(&mut self, seat: Seat, name: &str, before: SeatStatus, after: SeatStatus) {
        if self.seat() == Some(seat) {
            return;
        }
        match (before, after) {
            (SeatStatus::Connected, SeatStatus::Reconnecting { seconds_left }) => {
                self.notices.push(format!(
                    "{name} lost connection: waiting up to {seconds_left} s for them."
                ));
            }
            (SeatStatus::Reconnecting { .. }, SeatStatus::Connected) => {
                self.notices.push(format!("{name} is back."));
            }
            _ => {}
        }
    }

    /// Takes the notices to show once.
    pub fn take_notices(&mut self) -> Vec<String> {
        std::mem::take(&mut self.notices)
    }

    /// A `Reconnecting { seconds_left }` heard for `seat`, counted down to `now` (to zero).
    pub fn seconds_left(&self, seat: Seat, heard: u8, now: Instant) -> u32 {
        let passed = now.saturating_duration_since(self.status_heard[seat.index()]);
        u32::from(heard).saturating_sub(passed.as_secs() as u32)
    }

    /// Each seat's connection as the name plate shows it.
    pub fn peers(&self) -> [Peer; 2] {
        [Seat::First, Seat::Second].map(|seat| {
            if self.match_driver.seat() == Some(seat) {
                return Peer::Local;
            }
            match self.room.seats()[seat.index()].as_ref().map(|s| s.status) {
                Some(SeatStatus::Connected) => Peer::Connected,
                Some(SeatStatus::Reconnecting { seconds_left }) => Peer::Reconnecting {
                    seconds_left: self.seconds_left(seat, seconds_left, Instant::now()),
                },
                Some(SeatStatus::Forfeited) | None => Peer::Left,
            }
        })
    }

    /// The readout under the boards.
    pub fn status(&self) -> NetStatus {
        let stats = self
            .match_driver
            .session()
            .map(Session::stats)
            .unwrap_or_default();
        NetStatus {
            online: Some(self.ping().map(|d| d.as_millis() as u32)),
            rollback_frames: stats.max_rollback_depth,
            delay_frames: self
                .match_driver
                .session()
                .map_or(0, |s| s.options().input_delay),
            stalls: u32::try_from(stats.stall_frames).unwrap_or(u32::MAX),
            peers: self.peers(),
            replay: None,
        }
    }

    /// Says we are ready for the next match (also the rematch). Once per match.
    pub fn ready(&mut self) {
        if self.match_driver.seat().is_some() && !self.ready_sent && !self.match_driver.is_live() {
            self.send(ClientMessage::Ready);
            self.ready_sent = true;
        }
    }

    /// The room's chat.
    pub fn chat(&self) -> &crate::chat::Chat {
        &self.chat
    }

    /// The room's chat, to type in.
    pub fn chat_mut(&mut self) -> &mut crate::chat::Chat {
        &mut self.chat
    }

    /// Says `text` to the room (already cleaned by [`crate::chat::Chat::submit`]).
    pub fn say(&mut self, text: String) {
        if self.code().is_some() {
            self.send(ClientMessage::Chat { text });
        }
    }

    /// Asks for replay `id`; it arrives through [`Online::take_replay`].
    pub fn fetch_replay(&mut self, id: &str) {
        self.send(ClientMessage::GetReplay { id: id.to_owned() });
    }

    /// Leaves the room (forfeiting a running match) and closes the connection politely. While
    /// reconnecting there is no connection to tell: the attempt stops and the seat lapses.
    pub fn leave(&mut self) {
        let reconnecting = self.reconnect.take().is_some();
        if !reconnecting && (self.code().is_some() || matches!(self.stage, Stage::Waiting)) {
            self.send(ClientMessage::LeaveRoom);
        }
        self.match_driver.stop();
        if let Some(net) = &self.net {
            net.close();
        }
    }

    fn send(&mut self, message: ClientMessage) {
        let sent = self.net.as_ref().is_some_and(|n| n.send(message).is_ok());
        if !sent && !matches!(self.stage, Stage::Failed(_)) {
            self.fail("The connection to the server is closed.".to_owned());
        }
    }

    fn fail(&mut self, message: String) {
        tracing::info!(%message, "online");
        self.stage = Stage::Failed(message);
    }

    /// Handles every network event that arrived and sends a ping when due; then works out how
    /// many match frames are due now (see [`Online::frames_due`]). Never blocks.
    ///
    /// Each event is handled as of the moment the network task received it, not `now`: a
    /// `Pong` or the opponent's inputs that waited for this frame keep their real arrival time,
    /// so the round trip shown and the pacing do not include the frame's own delay.
    pub fn poll(&mut self, now: Instant) {
        while let Some((event, at)) = self.net.as_mut().and_then(NetHandle::try_recv_stamped) {
            self.on_event(event, at.min(now));
        }
        self.keep_reconnecting(now);
        if self.welcomed
            && self.reconnect.is_none()
            && now >= self.next_ping
            && !matches!(self.stage, Stage::Failed(_))
        {
            let ping = self.match_driver.ping(now);
            self.send(ping);
            self.next_ping = now + Duration::from_secs(1);
        }
        self.due = self.match_driver.frames_due(now);
    }

    /// Frames due this rendered frame (set by [`Online::poll`]; each [`Online::advance`] takes one).
    pub fn frames_due(&self) -> u32 {
        self.due
    }

    /// Simulates one due frame with `keys` chosen for our seat (asked only when the session
    /// uses them), then sends what the session produced. False when nothing was simulated (no
    /// frame due, or a stall at the prediction window).
    pub fn advance(&mut self, now: Instant, keys: &mut dyn FnMut(&Match, Seat) -> Input) -> bool {
        if self.due == 0 {
            return false;
        }
        let stepped = self
            .match_driver
            .step(now, &mut from_fn(|m, seat| keys(m, seat)));
        if stepped {
            self.due -= 1;
        } else {
            self.due = 0;
        }
        self.flush();
        stepped
    }

    fn flush(&mut self) {
        let mut out = Vec::new();
        while let Some(m) = self.match_driver.poll_outgoing() {
            out.push(m);
        }
        if self.reconnect.is_some() {
            // Lost with the connection: once the match log arrives, the session sends again
            // everything past what the server has.
            return;
        }
        if let Some(net) = &self.net {
            for m in out {
                if net.send(m).is_err() {
                    break;
                }
            }
        }
    }

    #[cfg_attr(not(test), allow(dead_code))] // the tests read it
    /// One rendered frame in one call: [`Online::poll`], then every due frame with keys from
    /// `keys`. Returns the frames simulated.
    pub fn tick(&mut self, now: Instant, keys: &mut dyn FnMut(&Match, Seat) -> Input) -> u32 {
        self.poll(now);
        let mut n = 0;
        while self.due > 0 {
            if !self.advance(now, keys) {
                break;
            }
            n += 1;
        }
        n
    }

    fn on_event(&mut self, event: NetEvent, at: Instant) {
        match event {
            NetEvent::Connected => {}
            NetEvent::Welcome { server, .. } => {
                self.welcomed = true;
                self.server_name = server;
                self.next_ping = at;
                if self.reconnect.is_some() {
                    // A player's resume token in our hello does the asking: `Joined` and the
                    // match log follow by themselves. A spectator asks to watch again; the
                    // match log it gets on joining rebuilds the boards.
                    if let Some(code) = self.code().filter(|_| self.spectating()) {
                        let code = code.to_owned();
                        self.send(ClientMessage::JoinRoom {
                            code,
                            role: JoinRole::Spectator,
                        });
                    }
                    return;
                }
                let request = match &self.request {
                    Request::QuickMatch => ClientMessage::QuickMatch,
                    Request::Create(options) => ClientMessage::CreateRoom { options: *options },
                    Request::Join(code) => ClientMessage::JoinRoom {
                        code: code.trim().to_owned(),
                        role: JoinRole::Player,
                    },
                    Request::Spectate(code) => ClientMessage::JoinRoom {
                        code: code.trim().to_owned(),
                        role: JoinRole::Spectator,
                    },
                    Request::ListReplays => ClientMessage::ListReplays,
                    Request::Ranked(key) => match &mut self.ranked {
                        Some(flow) => flow.on_welcome(),
                        None => ClientMessage::Identify { key: *key },
                    },
                };
                self.stage = if self.request == Request::ListReplays {
                    Stage::Browsing
                } else {
                    Stage::Waiting
                };
                self.send(request);
            }
            NetEvent::Message(m) => self.on_message(m, at),
            // Not the end of the connection (a frame that did not decode); `Disconnected`
            // follows if it was.
            NetEvent::Error(e) => tracing::warn!("network: {e}"),
            NetEvent::Disconnected(reason) => {
                self.welcomed = false;
                if let Some(r) = &mut self.reconnect {
                    tracing::info!(%reason, "reconnect attempt failed");
                    r.failed();
                    return;
                }
                if self.can_resume() {
                    tracing::info!(%reason, "connection lost mid-match; reconnecting");
                    let room_window = self.options().map_or(0, |o| u64::from(o.reconnect_seconds));
                    // A spectator has no seat to lose: it keeps trying for at least as long as a
                    // restarting server takes to come back.
                    let window = if self.spectating() {
                        room_window.max(SPECTATOR_RETRY_SECS)
                    } else {
                        room_window
                    };
                    self.reconnect = Some(Reconnect::new(at, Duration::from_secs(window)));
                    return;
                }
                self.match_driver.stop();
                if matches!(self.stage, Stage::Failed(_)) {
                    return;
                }
                let text = if self.welcomed {
                    format!("Disconnected from the server: {}", plain_net_error(&reason))
                } else {
                    reach_text(&self.url, &reason)
                };
                self.fail(text);
            }
        }
    }

    fn on_message(&mut self, message: ServerMessage, at: Instant) {
        if let Some(flow) = &mut self.ranked {
            let step = flow.on_message(&message, &self.hello.name);
            self.notices.extend(step.notices);
            for m in step.send {
                self.send(m);
            }
            if step.consumed {
                return;
            }
        }
        // A match log after a reconnect ends it, whatever the log does.
        let resumed =
            matches!(message, ServerMessage::MatchLog { .. }) && self.reconnect.take().is_some();
        match self.match_driver.handle(&message, at) {
            DriverEvent::Other => {}
            DriverEvent::Started => {
                self.ready_sent = false;
                if let Driver::Keys(_, latch) = &mut self.driver {
                    latch.reset();
                }
                return;
            }
            // Our own match, after a reconnect or a desync (only a log sets `resumed`).
            DriverEvent::Rebuilt
            | DriverEvent::Refused {
                new_match: false, ..
            } => {
                if resumed {
                    self.notices.push("Reconnected.".to_owned());
                    self.flush();
                }
                return;
            }
            DriverEvent::Refused {
                error,
                new_match: true,
            } => {
                self.notices
                    .push(format!("The match log was refused: {error}"));
                return;
            }
            DriverEvent::Over => {
                self.ready_sent = false;
                self.flush();
                return;
            }
            DriverEvent::Applied => return,
        }
        if let Some(RoomUpdate::Seats { changes, .. }) = self.room.apply(&message) {
            for c in changes {
                self.note_peer(c.seat, &c.name, c.before, c.after);
            }
        }
        match message {
            ServerMessage::Error {
                code,
                message,
                fatal,
            } => {
                if code == ErrorCode::BadResume && self.reconnect.is_some() {
                    self.give_up();
                    return;
                }
                let text = error_text(code, &message);
                let in_lobby = self.code().is_none();
                if fatal || (in_lobby && code != ErrorCode::NoSuchReplay) {
                    self.match_driver.stop();
                    self.fail(text);
                } else {
                    self.notices.push(text);
                }
            }
            // The room tracker noted the room, the match driver our seat.
            ServerMessage::Joined { .. } => {
                self.redirects.reset();
                self.stage = Stage::InRoom;
            }
            ServerMessage::Redirect { url } => self.follow_redirect(&url),
            ServerMessage::RoomState { seats, .. } => {
                // Ready flags clear after a match: we may ready again.
                let me_ready = self
                    .match_driver
                    .seat()
                    .and_then(|s| seats[s.index()].as_ref())
                    .is_some_and(|s| s.ready);
                if !me_ready
                    && !self.match_driver.is_live()
                    && self.match_driver.match_result().is_some()
                {
                    self.ready_sent = false;
                }
                if me_ready {
                    self.ready_sent = true;
                }
                self.status_heard = [Instant::now(); 2];
            }
            ServerMessage::SeatStatus { seat, .. } if self.room.seats()[seat.index()].is_some() => {
                self.status_heard[seat.index()] = Instant::now();
            }
            ServerMessage::Chat { from, seat, text } => {
                self.chat.hear(from, seat, text, Instant::now());
            }
            ServerMessage::Replays { list } => self.replay_list = list,
            ServerMessage::Replay { id, bytes } => self.replay = Some((id, bytes)),
            ServerMessage::Shutdown { reason } if self.can_resume() => {
                // A drained server keeps this match's room log and takes it up when it starts
                // again: the connection loss that follows starts the usual reconnect, which
                // gives up when the room's window has passed.
                self.notices.push(format!(
                    "The server is restarting ({reason}); reconnecting…"
                ));
            }
            ServerMessage::Shutdown { reason } => {
                self.match_driver.stop();
                self.fail(format!("The server is shutting down: {reason}."));
            }
            // The match messages are the match driver's; the net task answers `Ping` itself.
            _ => {}
        }
    }

    /// Another instance of the server's cluster serves our request: connect there (no resume
    /// token) and make the request again once welcomed. A bad URL or a loop of redirects ends
    /// in a failure that says so.
    fn follow_redirect(&mut self, url: &str) {
        let url = match self.redirects.follow(url) {
            Ok(url) => url,
            Err(e) => {
                self.fail(format!("Cannot reach the match: {e}."));
                return;
            }
        };
        tracing::info!(%url, "redirected to another server instance");
        if let Some(net) = &self.net {
            net.close();
        }
        match runtime() {
            Ok(rt) => {
                self.net = Some(sevenbag_netplay::connect_trusting(
                    rt.handle(),
                    &url,
                    self.hello.clone(),
                    trust(),
                ));
                self.url = url;
                self.welcomed = false;
                self.stage = Stage::Connecting;
            }
            Err(e) => self.fail(e),
        }
    }

    /// Whether a dropped connection should be resumed: a match running in a room we are in (a
    /// seated player comes back with its token, a spectator joins by code again), and no fatal
    /// error or clean leave before.
    fn can_resume(&self) -> bool {
        self.match_driver.is_live()
            && self.room.room().is_some()
            && !matches!(self.stage, Stage::Failed(_))
    }

    /// Whether we watch rather than play (a spectator's reconnect rejoins by code).
    fn spectating(&self) -> bool {
        self.room.room().is_some_and(|r| r.seat.is_none())
    }

    /// While reconnecting: gives up once the window passed, else starts an attempt when due.
    fn keep_reconnecting(&mut self, now: Instant) {
        let Some(r) = &mut self.reconnect else {
            return;
        };
        if r.expired(now) {
            self.give_up();
            return;
        }
        if !r.due(now) {
            return;
        }
        r.started(now);
        let hello = Hello {
            resume: self
                .room
                .room()
                .filter(|r| r.seat.is_some())
                .map(|r| r.resume),
            ..self.hello.clone()
        };
        match runtime() {
            Ok(rt) => {
                // Dropping the old handle ends its task; its late events are not wanted.
                self.net = Some(sevenbag_netplay::connect_trusting(
                    rt.handle(),
                    &self.url,
                    hello,
                    trust(),
                ));
            }
            Err(e) => {
                self.reconnect = None;
                self.match_driver.stop();
                self.fail(e);
            }
        }
    }

    /// The seat is lost (or, watching, the match): the match is over for us.
    fn give_up(&mut self) {
        let text = if self.spectating() {
            LOST_MATCH
        } else {
            FORFEITED
        };
        self.reconnect = None;
        self.match_driver.stop();
        if let Some(net) = self.net.take() {
            net.close();
        }
        self.fail(text.to_owned());
    }

    /// The match to draw: predicted, or a blank one before the first match.
    pub fn current(&self) -> &Match {
        self.match_driver.predicted().unwrap_or(&self.idle)
    }
}

/// A server error as a sentence for the screen.
/// Why the server at `url` could not be reached, for people: what happened and what to try,
/// instead of the library's text ("Connection refused (os error 111)").
pub fn reach_text(url: &str, reason: &str) -> String {
    let address = url
        .trim_start_matches("ws://")
        .trim_start_matches("wss://")
        .trim_end_matches('/');
    let r = reason.to_ascii_lowercase();
    if r.contains("refused") {
        format!(
            "Nothing answers at {address}. Check the address and port, and that the server is running."
        )
    } else if r.contains("lookup") || r.contains("not known") || r.contains("resolve") {
        format!("Cannot find the server {address}. Check the spelling of the address.")
    } else if r.contains("bad server address") || r.contains("uri") || r.contains("url") {
        format!("\"{address}\" is not a server address. Type host:port, like 192.168.1.20:7878.")
    } else if r.contains("timed out") {
        format!(
            "The server at {address} did not answer in time. Check the address and your network, then try again."
        )
    } else if r.contains("http") {
        format!(
            "Something answered at {address}, but it is not a Sevenbag server. Check the address and port."
        )
    } else {
        format!(
            "Cannot reach the server at {address}: {}",
            plain_net_error(reason)
        )
    }
}

/// A lost connection's reason, for people.
fn plain_net_error(reason: &str) -> String {
    let r = reason.to_ascii_lowercase();
    if r.contains("reset") || r.contains("broken pipe") || r.contains("closed") || r.contains("eof")
    {
        "the connection broke. Check your network and try again.".to_owned()
    } else {
        format!("{reason}. Try again.")
    }
}

pub fn error_text(code: ErrorCode, message: &str) -> String {
    match code {
        ErrorCode::NoSuchRoom => "No room has that code. Check it and try again.".to_owned(),
        ErrorCode::RoomFull => "That room is full.".to_owned(),
        ErrorCode::ServerFull => "The server is full. Try again later.".to_owned(),
        ErrorCode::Shutdown => "The server is restarting. Try again in a moment.".to_owned(),
        ErrorCode::Version => format!("Version mismatch: {message}."),
        ErrorCode::NoSuchReplay => "The server no longer has that replay.".to_owned(),
        ErrorCode::NameTaken => format!("{message}. Change your name in Settings."),
        ErrorCode::BadName => format!("Ranked names: {message}. Change it in Settings."),
        ErrorCode::Unavailable => "This server has no ranked play.".to_owned(),
        ErrorCode::UnknownKey => format!("Identity: {message}."),
        _ => format!("Server error ({code:?}): {message}"),
    }
}

impl crate::session::Session for Online {
    fn sample(&mut self, keyboard: &Keyboard) {
        if let Driver::Keys(map, latch) = &mut self.driver {
            latch.sample(map, keyboard);
        }
    }

    fn pump(&mut self, _clock_steps: u32) -> u32 {
        self.poll(Instant::now());
        self.due
    }

    fn step(&mut self) -> bool {
        let mut driver = std::mem::replace(&mut self.driver, Driver::Auto(Box::new(NoKeys)));
        let stepped = self.advance(Instant::now(), &mut |m, seat| match &mut driver {
            Driver::Keys(_, latch) => latch.take(),
            Driver::Auto(p) => p.next_input(m, seat),
        });
        self.driver = driver;
        stepped
    }

    fn current(&self) -> &Match {
        Online::current(self)
    }

    fn net(&self) -> NetStatus {
        self.status()
    }

    fn can_pause(&self) -> bool {
        false
    }

    fn rematch(&mut self, _seed: u64) {
        self.ready();
    }

    fn local_seats(&self) -> [bool; 2] {
        [Seat::First, Seat::Second].map(|s| self.match_driver.seat() == Some(s))
    }

    /// A room's match names its code, so a friend can be told it (quick match keeps the
    /// screen's title).
    fn title(&self) -> Option<String> {
        let code = self.code()?;
        match self.request {
            Request::Create(_) | Request::Join(_) => Some(format!("ONLINE  ·  ROOM {code}")),
            Request::Spectate(_) => Some(format!("WATCHING  ·  ROOM {code}")),
            _ => None,
        }
    }

    fn names(&self) -> Option<[String; 2]> {
        Some(Online::names(self))
    }

    fn verdict(&self) -> Option<String> {
        let out = self.outcome()?;
        if out.reason == EndReason::TopOut
            || matches!(self.current().phase(), Phase::MatchOver { .. })
        {
            return None;
        }
        Some(crate::session::verdict_line(
            out.reason,
            Some(out.winner),
            &Online::names(self),
        ))
    }

    fn online(&self) -> Option<&Online> {
        Some(self)
    }
}

/// No keys: a placeholder driver while the real one is borrowed.
struct NoKeys;

impl AutoPlayer for NoKeys {
    fn next_input(&mut self, _m: &Match, _seat: Seat) -> Input {
        Input::NONE
    }
}

impl Drop for Online {
    fn drop(&mut self) {
        if let Some(net) = &self.net {
            net.close();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    /// A scripted key pattern: shifts, rotations and a hard drop every 24 frames, varied by seat.
    fn script(frame: u32, seat: Seat) -> Input {
        let phase = (frame + 7 * seat.index() as u32) % 24;
        match phase {
            0..=2 => Input::LEFT,
            6 if frame % 48 < 24 => Input::ROTATE_CW,
            9..=10 => Input::RIGHT,
            18 => Input::HARD_DROP,
            _ => Input::NONE,
        }
    }

    fn temp_dir(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("sevenbag-client-{}-{name}", std::process::id()))
    }

    fn server(name: &str) -> sevenbag_server::ServerHandle {
        let rt = runtime().expect("runtime");
        let config = sevenbag_server::Config {
            replay_dir: temp_dir(name),
            start_delay: Duration::from_millis(200),
            countdown_frames: Some(30),
            ..sevenbag_server::Config::default()
        };
        rt.block_on(sevenbag_server::spawn(config)).expect("server")
    }

    fn connect(addr: &str, name: &str, request: Request) -> Online {
        Online::connect(
            addr,
            name,
            Handling::default(),
            KeyMap::guideline(),
            request,
        )
    }

    /// Polls `clients` (playing their frames with the script) until `done` or the timeout.
    fn run(clients: &mut [&mut Online], secs: u64, mut done: impl FnMut(&[&mut Online]) -> bool) {
        let deadline = Instant::now() + Duration::from_secs(secs);
        while !done(clients) {
            assert!(Instant::now() < deadline, "timed out: {clients:?}");
            for c in clients.iter_mut() {
                let now = Instant::now();
                c.tick(now, &mut |m, seat| script(m.frame().0, seat));
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    #[test]
    fn the_round_trip_shown_leaves_out_the_time_a_slow_frame_kept_the_answer_waiting() {
        let server = server("ping");
        let addr = server.addr().to_string();
        let mut alice = connect(&addr, "alice", Request::Create(RoomOptions::default()));
        run(&mut [&mut alice], 10, |c| c[0].code().is_some());
        // Frames of 150 ms: each pong waits up to that long in the channel before a poll reads
        // it. The measured round trip must be the network's (well under a millisecond on
        // loopback), not the frame's.
        let slow_frame = Duration::from_millis(150);
        let deadline = Instant::now() + Duration::from_secs(10);
        while alice.ping().is_none() {
            assert!(Instant::now() < deadline, "no pong came back: {alice:?}");
            std::thread::sleep(slow_frame);
            alice.poll(Instant::now());
        }
        // Two more pings (one a second), each answered while a frame sleeps.
        let more = Instant::now() + Duration::from_millis(2_200);
        while Instant::now() < more {
            std::thread::sleep(slow_frame);
            alice.poll(Instant::now());
        }
        let ping = alice.ping().expect("measured");
        assert!(
            ping < slow_frame / 3,
            "the round trip shown ({ping:?}) includes the frame's wait"
        );
    }

    #[test]
    fn two_controllers_play_and_agree() {
        let server = server("play");
        let addr = server.addr().to_string();
        let mut alice = connect(&addr, "alice", Request::Create(RoomOptions::default()));
        run(&mut [&mut alice], 10, |c| c[0].code().is_some());
        assert_eq!(alice.seat(), Some(Seat::First));
        let code = alice.code().unwrap_or_default().to_owned();
        assert_eq!(code.len(), sevenbag_protocol::ROOM_CODE_LEN);
        let mut bob = connect(&addr, "bob", Request::Join(code.to_lowercase()));
        let mut watcher = connect(&addr, "eve", Request::Spectate(code.clone()));
        run(&mut [&mut alice, &mut bob, &mut watcher], 10, |c| {
            c.iter().all(|o| o.stage() == &Stage::InRoom) && c[0].seats()[1].is_some()
        });
        assert_eq!(bob.seat(), Some(Seat::Second));
        assert!(watcher.is_spectator());
        alice.ready();
        bob.ready();
        // A few hundred frames of scripted play, confirmed on both sides.
        run(&mut [&mut alice, &mut bob, &mut watcher], 30, |c| {
            c.iter()
                .all(|o| o.session().is_some_and(|s| s.confirmed().frame().0 >= 300))
        });
        assert!(alice.is_live() && bob.is_live());
        assert_eq!(alice.names(), ["alice".to_owned(), "bob".to_owned()]);
        let (a, b, w) = (
            alice
                .session()
                .map(|s| s.hashes().to_vec())
                .unwrap_or_default(),
            bob.session()
                .map(|s| s.hashes().to_vec())
                .unwrap_or_default(),
            watcher.session().map(|s| s.confirmed().state_hash()),
        );
        let n = a.len().min(b.len());
        assert!(n >= 4, "hashes every 60 frames: {a:?} {b:?}");
        assert_eq!(a[..n], b[..n], "both players' confirmed matches agree");
        assert!(w.is_some());
        assert!(
            alice.current().player(Seat::First).stats().pieces > 3,
            "the script placed pieces"
        );
        let status = alice.status();
        assert_eq!(status.peers[0], Peer::Local);
        assert_eq!(status.peers[1], Peer::Connected);
        assert!(status.online.is_some());
        // Bob leaves mid-match: alice is told, by the server, that she won by forfeit.
        bob.leave();
        run(&mut [&mut alice], 10, |c| c[0].outcome().is_some());
        let outcome = alice.outcome().cloned();
        let outcome = outcome.expect("an outcome");
        assert_eq!(
            (outcome.winner, outcome.reason),
            (Seat::First, EndReason::Forfeit)
        );
        // The server kept a replay: fetch it, save it, play it back and seek in it.
        let id = outcome.replay.expect("a replay id");
        alice.fetch_replay(&id);
        let mut fetched = None;
        run(&mut [&mut alice], 10, |c| {
            fetched = fetched.take().or_else(|| c[0].replay.clone());
            fetched.is_some()
        });
        let (got, bytes) = fetched.expect("replay bytes");
        assert_eq!(got, id);
        let dir = temp_dir("saved");
        let path = crate::replay::save(&dir, &id, &bytes).expect("saved");
        let mut playback = crate::replay::load(&path)
            .and_then(crate::replay::ReplaySession::new)
            .expect("a playable replay");
        assert_eq!(
            playback.replay().names,
            ["alice".to_owned(), "bob".to_owned()]
        );
        playback.seek(240);
        let h240 = crate::session::Session::current(&playback).state_hash();
        assert_eq!(
            Some(h240),
            a.iter().find(|(f, _)| *f == 240).map(|(_, h)| *h)
        );
        playback.seek(60);
        playback.seek(240);
        assert_eq!(
            crate::session::Session::current(&playback).state_hash(),
            h240,
            "seeking back and forth"
        );
        let _ = std::fs::remove_dir_all(&dir);
        drop(server);
    }

    /// A room of alice (seat 0) and bob (seat 1) with `options`, both ready and past confirmed
    /// frame `frames`.
    fn playing_pair(
        server: &sevenbag_server::ServerHandle,
        options: RoomOptions,
        frames: u32,
    ) -> (Online, Online) {
        let addr = server.addr().to_string();
        let mut alice = connect(&addr, "alice", Request::Create(options));
        run(&mut [&mut alice], 10, |c| c[0].code().is_some());
        let code = alice.code().unwrap_or_default().to_owned();
        let mut bob = connect(&addr, "bob", Request::Join(code));
        run(&mut [&mut alice, &mut bob], 10, |c| {
            c.iter().all(|o| o.stage() == &Stage::InRoom) && c[0].seats()[1].is_some()
        });
        alice.ready();
        bob.ready();
        run(&mut [&mut alice, &mut bob], 30, |c| {
            c.iter().all(|o| {
                o.session()
                    .is_some_and(|s| s.confirmed().frame().0 >= frames)
            })
        });
        (alice, bob)
    }

    /// Cuts `o`'s transport without a word, as a pulled cable would.
    fn cut(o: &Online) {
        if let Some(net) = &o.net {
            net.abort();
        }
    }

    fn confirmed(o: &Online) -> u32 {
        o.session().map_or(0, |s| s.confirmed().frame().0)
    }

    #[test]
    fn a_dropped_player_reconnects_and_keeps_playing() {
        let server = server("reconnect");
        let (mut alice, mut bob) = playing_pair(&server, RoomOptions::default(), 120);
        let matches = alice.matches_started();
        cut(&alice);
        // Alice notices, shows the banner, and bob sees her seat reconnecting.
        run(&mut [&mut alice, &mut bob], 10, |c| {
            c[0].reconnecting(Instant::now()).is_some()
        });
        assert!(alice.is_live(), "the match view stays up");
        assert_eq!(alice.stage(), &Stage::InRoom);
        run(&mut [&mut alice, &mut bob], 10, |c| {
            c[0].reconnect_attempts() >= 1
        });
        let secs = alice.reconnecting(Instant::now()).unwrap_or_default();
        assert!((1..=15).contains(&secs), "{secs} s left");
        // Back in, rebuilt from the match log, and playing on well past the cut.
        run(&mut [&mut alice, &mut bob], 20, |c| {
            c[0].reconnecting(Instant::now()).is_none()
        });
        assert_eq!(alice.stage(), &Stage::InRoom);
        assert!(alice.is_live() && bob.is_live());
        assert_eq!(
            alice.matches_started(),
            matches,
            "the same match, not a new one"
        );
        let target = confirmed(&bob).max(confirmed(&alice)) + 300;
        run(&mut [&mut alice, &mut bob], 30, |c| {
            c.iter().all(|o| confirmed(o) >= target)
        });
        // Bob was told both ways (a notice: the drop can be shorter than one of his frames).
        let told = bob.take_notices();
        assert!(
            told.iter().any(|n| n.starts_with("alice lost connection")),
            "{told:?}"
        );
        assert!(told.iter().any(|n| n == "alice is back."), "{told:?}");
        assert_eq!(bob.peers()[0], Peer::Connected);
        assert!(alice.take_notices().iter().any(|n| n == "Reconnected."));
        let (a, b) = (
            alice
                .session()
                .map(|s| s.hashes().to_vec())
                .unwrap_or_default(),
            bob.session()
                .map(|s| s.hashes().to_vec())
                .unwrap_or_default(),
        );
        let n = a.len().min(b.len());
        assert!(
            n * 60 >= target as usize - 60,
            "hashes up to the target: {a:?} {b:?}"
        );
        assert_eq!(a[..n], b[..n], "both players' confirmed matches agree");
        drop(server);
    }

    #[test]
    fn a_dropped_spectator_rejoins_by_code_and_keeps_watching() {
        let server = server("spectator");
        let (mut alice, mut bob) = playing_pair(&server, RoomOptions::default(), 60);
        let code = alice.code().unwrap_or_default().to_owned();
        let addr = server.addr().to_string();
        let mut carol = connect(&addr, "carol", Request::Spectate(code));
        run(&mut [&mut alice, &mut bob, &mut carol], 20, |c| {
            confirmed(c[2]) >= 120
        });
        assert_eq!(carol.seat(), None);
        cut(&carol);
        run(&mut [&mut alice, &mut bob, &mut carol], 10, |c| {
            c[2].reconnect_attempts() >= 1
        });
        assert!(carol.is_live(), "the match view stays up");
        // Back, rebuilt from the match log it gets on joining, and watching well past the cut.
        let target = confirmed(&alice).max(confirmed(&carol)) + 180;
        run(&mut [&mut alice, &mut bob, &mut carol], 30, |c| {
            c[2].reconnecting(Instant::now()).is_none() && confirmed(c[2]) >= target
        });
        assert_eq!(carol.stage(), &Stage::InRoom);
        assert_eq!(carol.seat(), None, "still watching, not seated");
        let frames = confirmed(&carol).min(confirmed(&alice)) / 60 * 60;
        let hash = |o: &Online| {
            o.session()
                .and_then(|s| s.hashes().iter().find(|h| h.0 == frames).copied())
        };
        assert!(hash(&carol).is_some(), "carol confirmed frame {frames}");
        assert_eq!(
            hash(&carol),
            hash(&alice),
            "the watched match is the played one"
        );
        drop(server);
    }

    #[test]
    fn a_player_who_cannot_come_back_forfeits() {
        let server = server("noreturn");
        let options = RoomOptions {
            reconnect_seconds: 2,
            ..RoomOptions::default()
        };
        let (mut alice, mut bob) = playing_pair(&server, options, 60);
        // Every attempt goes to a port nobody listens on.
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .expect("free port");
        alice.url = server_url(&format!("127.0.0.1:{port}"));
        cut(&alice);
        let start = Instant::now();
        run(&mut [&mut alice, &mut bob], 15, |c| {
            matches!(c[0].stage(), Stage::Failed(_)) && c[1].outcome().is_some()
        });
        assert_eq!(alice.stage(), &Stage::Failed(FORFEITED.to_owned()));
        assert!(!alice.is_live() && alice.reconnecting(Instant::now()).is_none());
        assert!(
            start.elapsed() >= Duration::from_millis(1900),
            "tried for the window"
        );
        let outcome = bob.outcome().cloned().expect("bob's outcome");
        assert_eq!(
            (outcome.winner, outcome.reason),
            (Seat::Second, EndReason::Forfeit)
        );
        drop(server);
    }

    #[test]
    fn a_refused_resume_token_forfeits_at_once() {
        let server = server("badresume");
        let (mut alice, mut bob) = playing_pair(&server, RoomOptions::default(), 60);
        if let Some(room) = alice.room.room_mut() {
            room.resume ^= 0x5A5A_5A5A;
        }
        cut(&alice);
        let start = Instant::now();
        run(&mut [&mut alice, &mut bob], 10, |c| {
            matches!(c[0].stage(), Stage::Failed(_))
        });
        assert_eq!(alice.stage(), &Stage::Failed(FORFEITED.to_owned()));
        assert!(!alice.is_live());
        assert!(
            start.elapsed() < Duration::from_secs(8),
            "well before the 15 s window"
        );
        drop(server);
    }

    #[test]
    fn chat_reaches_the_room_and_a_muted_player_is_not_heard() {
        let server = server("chat");
        let addr = server.addr().to_string();
        let mut alice = connect(&addr, "alice", Request::Create(RoomOptions::default()));
        run(&mut [&mut alice], 10, |c| c[0].code().is_some());
        let code = alice.code().unwrap_or_default().to_owned();
        let mut bob = connect(&addr, "bob", Request::Join(code));
        run(&mut [&mut alice, &mut bob], 10, |c| {
            c.iter().all(|o| o.stage() == &Stage::InRoom) && c[0].seats()[1].is_some()
        });
        alice.say("gl hf".into());
        run(&mut [&mut alice, &mut bob], 10, |c| {
            c.iter().all(|o| o.chat().last(1).count() == 1)
        });
        let heard = bob.chat().last(1).next().cloned().expect("a line");
        assert_eq!(
            (heard.from.as_str(), heard.seat, heard.text.as_str()),
            ("alice", Some(Seat::First), "gl hf")
        );
        bob.chat_mut().toggle_mute("alice");
        alice.say("ez".into());
        alice.say("still there?".into());
        run(&mut [&mut alice, &mut bob], 10, |c| {
            c[0].chat().last(3).count() == 3
        });
        bob.say("hi".into());
        run(&mut [&mut alice, &mut bob], 10, |c| {
            c[1].chat().last(9).count() == 1
        });
        let heard: Vec<String> = bob.chat().last(9).map(|l| l.text.clone()).collect();
        assert_eq!(heard, ["hi"], "alice is muted for bob");
        drop(server);
    }

    #[test]
    fn a_clean_leave_does_not_reconnect() {
        let server = server("cleanleave");
        let (mut alice, mut bob) = playing_pair(&server, RoomOptions::default(), 30);
        alice.leave();
        run(&mut [&mut alice, &mut bob], 10, |c| {
            c[1].outcome().is_some()
        });
        assert!(alice.reconnecting(Instant::now()).is_none());
        assert!(!alice.is_live());
        drop(server);
    }

    #[test]
    fn unreachable_server_is_a_readable_error() {
        // A port nobody listens on: bind one, then free it.
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .expect("free port");
        let mut o = connect(&format!("127.0.0.1:{port}"), "ana", Request::QuickMatch);
        run(&mut [&mut o], 15, |c| {
            matches!(c[0].stage(), Stage::Failed(_))
        });
        let Stage::Failed(msg) = o.stage() else {
            unreachable!()
        };
        assert!(
            msg.starts_with("Nothing answers at 127.0.0.1:") && !msg.contains("os error"),
            "{msg}"
        );
    }

    #[test]
    fn wrong_room_code_is_a_readable_error() {
        let server = server("nosuchroom");
        let mut o = connect(
            &server.addr().to_string(),
            "ana",
            Request::Join("QQQQQ".into()),
        );
        run(&mut [&mut o], 10, |c| {
            matches!(c[0].stage(), Stage::Failed(_))
        });
        assert_eq!(
            o.stage(),
            &Stage::Failed("No room has that code. Check it and try again.".into())
        );
    }

    #[test]
    fn urls_and_errors_read_well() {
        assert_eq!(server_url("127.0.0.1:7878"), "ws://127.0.0.1:7878/");
        assert_eq!(server_url(" ws://h:1/ "), "ws://h:1/");
    }

    #[test]
    fn connection_errors_say_what_happened_and_what_to_try() {
        let refused = reach_text(
            "ws://h:1/",
            "cannot connect: Connection refused (os error 111)",
        );
        assert_eq!(
            refused,
            "Nothing answers at h:1. Check the address and port, and that the server is running."
        );
        let bad = reach_text(
            "ws://a b:1/",
            "websocket: HTTP format error: invalid uri character",
        );
        assert!(bad.contains("is not a server address"), "{bad}");
        assert!(
            !bad.contains("os error") && !bad.contains("format error"),
            "{bad}"
        );
    }

    #[test]
    fn an_address_without_a_port_uses_the_default_port_7878() {
        assert_eq!(
            server_url("play.example.org"),
            "ws://play.example.org:7878/"
        );
        assert_eq!(server_url("192.168.1.20"), "ws://192.168.1.20:7878/");
        assert_eq!(server_url("ws://h"), "ws://h:7878/");
        assert_eq!(server_url("wss://h/game"), "wss://h:7878/game");
        assert_eq!(server_url("[::1]"), "ws://[::1]:7878/");
        assert_eq!(server_url("::1"), "ws://[::1]:7878/");
        assert_eq!(server_url("[::1]:9000"), "ws://[::1]:9000/");
        assert_eq!(
            error_text(ErrorCode::Version, "server is version 2, you have 1"),
            "Version mismatch: server is version 2, you have 1."
        );
        assert_eq!(error_text(ErrorCode::RoomFull, ""), "That room is full.");
    }

    #[test]
    fn a_reconnecting_count_runs_down_to_zero() {
        let online = Online::connect(
            "127.0.0.1:9",
            "me",
            Handling::default(),
            KeyMap::guideline(),
            Request::QuickMatch,
        );
        let heard = online.status_heard[1];
        let at = |s| heard + Duration::from_secs(s);
        assert_eq!(online.seconds_left(Seat::Second, 15, at(0)), 15);
        assert_eq!(online.seconds_left(Seat::Second, 15, at(4)), 11);
        assert_eq!(online.seconds_left(Seat::Second, 15, at(40)), 0);
    }
}
