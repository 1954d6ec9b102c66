//! [`BattleOnline`]: one connection to a room of several seats (free-for-all and teams) and the
//! match it plays or watches. No macroquad in here, so tests drive it headlessly.
//!
//! It is the game's side of what `sevenbag_netplay::BattleClient` does headlessly: the same
//! messages, a netplay [`BattleSession`] (rollback over every other seat's keys and targets)
//! paced by a [`Pacer`] from the server's start instant, over the same [`Link`] the two-seat
//! controller uses (the process's network task natively, the page's WebSocket in a browser).
//! Each rendered frame the screen calls [`BattleOnline::poll`] (events, pings; never blocks)
//! and then [`BattleOnline::advance`] for every due frame.
//!
//! A room is reached two ways: created here ([`BattleOnline::create`]), or joined by code
//! through the two-seat controller, which hands its connection over ([`BattleJoin`]) when the
//! server answers with a room of several seats.

use std::time::Duration;

use sevenbag_core::{Battle, BattleHeader, Handling, Input, Seat, SeatInput};
use sevenbag_netplay::battle_links::report_due;
use sevenbag_netplay::time::Instant;
use sevenbag_netplay::{
    BattleSession, Clock, DEFAULT_WINDOW, Hello, NetEvent, Pacer, SessionOptions, Step,
    battle_options,
};
use sevenbag_protocol::{
    BattleRoomOptions, ClientMessage, EndReason, JoinRole, SeatInfo, ServerMessage,
};

use crate::net::battle_queue::QueueWait;
use crate::net::online::texts::error_text;
use crate::net::online::transport::{Link, open, server_url};

/// A connection that the two-seat controller opened and the server put in a room of several
/// seats: the link (still holding any messages after `BattleJoined`) and what it said.
#[derive(Debug)]
pub struct BattleJoin {
    /// The server's URL.
    pub url: String,
    /// The open, welcomed connection.
    pub link: Box<dyn Link>,
    /// The room code.
    pub code: String,
    /// Our room seat (`None`: watching).
    pub seat: Option<u8>,
    /// The room's options.
    pub options: BattleRoomOptions,
}

/// Where the connection stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BattleStage {
    /// Connecting, saying hello, creating the room.
    Connecting,
    /// Waiting in the free-for-all queue for a room ([`BattleOnline::quick`]).
    Queued(QueueWait),
    /// In the room (a match may be running: see [`BattleOnline::is_live`]).
    InRoom,
    /// Something went wrong: the words say what, for people.
    Failed(String),
}

/// The server's word on the last match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BattleResult {
    /// The winning team, if any.
    pub winner: Option<u8>,
    /// How it ended.
    pub reason: EndReason,
    /// Each battle seat's final place.
    pub placements: Vec<u8>,
    /// The replay id the server keeps it under.
    pub replay: Option<String>,
}

/// One connection to a room of several seats (see the module docs).
pub struct BattleOnline {
    url: String,
    net: Option<Box<dyn Link>>,
    welcomed: bool,
    /// What to ask for once welcomed (create a room, or join one by code).
    request: Option<ClientMessage>,
    stage: BattleStage,
    code: Option<String>,
    seat: Option<u8>,
    options: Option<BattleRoomOptions>,
    room: Vec<Option<SeatInfo>>,
    spectators: u16,
    clock: Clock,
    next_ping: Instant,
    session: Option<BattleSession>,
    pacer: Option<Pacer>,
    names: Vec<String>,
    room_seats: Vec<u8>,
    result: Option<BattleResult>,
    ready_sent: bool,
    matches_started: u32,
    notices: Vec<String>,
    target: Option<Seat>,
    due: u32,
    /// Each battle seat's round trip as announced (`BattleLinks`), and the last we reported.
    links: (Vec<u16>, Option<u16>),
    /// Drawn before the first match.
    idle: Battle,
}

impl std::fmt::Debug for BattleOnline {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BattleOnline")
            .field("url", &self.url)
            .field("stage", &self.stage)
            .field("code", &self.code)
            .field("seat", &self.seat)
            .finish_non_exhaustive()
    }
}

impl BattleOnline {
    fn blank(url: String, net: Option<Box<dyn Link>>, stage: BattleStage) -> Self {
        let now = Instant::now();
        let idle = Battle::new(BattleHeader::new(0, 3)).unwrap_or_else(|_| {
            Battle::new(BattleHeader::new(0, 2)).expect("a two-seat battle is always valid")
        });
        BattleOnline {
            url,
            net,
            welcomed: false,
            request: None,
            stage,
            code: None,
            seat: None,
            options: None,
            room: Vec::new(),
            spectators: 0,
            clock: Clock::new(now),
            next_ping: now,
            session: None,
            pacer: None,
            names: Vec::new(),
            room_seats: Vec::new(),
            result: None,
            ready_sent: false,
            matches_started: 0,
            notices: Vec::new(),
            target: None,
            due: 0,
            links: (Vec::new(), None),
            idle,
        }
    }

    /// Connects to `address` as `name` and creates a room of `options` once welcomed. Returns
    /// at once; nothing here waits on the network.
    pub fn create(
        address: &str,
        name: &str,
        handling: Handling,
        options: BattleRoomOptions,
    ) -> BattleOnline {
        BattleOnline::connect(
            address,
            name,
            handling,
            ClientMessage::CreateBattleRoom { options },
        )
    }

    /// Connects to `address` as `name` and waits in its free-for-all queue until the server
    /// seats us in a room (quick play); [`BattleOnline::leave`] leaves the queue.
    pub fn quick(address: &str, name: &str, handling: Handling) -> BattleOnline {
        let request = ClientMessage::QuickBattle { on: true };
        BattleOnline::connect(address, name, handling, request)
    }

    /// Connects to `address` as `name` and joins room `code` (a room of several seats) as
    /// `role` once welcomed.
    pub fn join(
        address: &str,
        name: &str,
        handling: Handling,
        code: &str,
        role: JoinRole,
    ) -> BattleOnline {
        let code = code.trim().to_owned();
        BattleOnline::connect(
            address,
            name,
            handling,
            ClientMessage::JoinRoom { code, role },
        )
    }

    fn connect(address: &str, name: &str, handling: Handling, request: ClientMessage) -> Self {
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
        let (net, stage) = match open(&url, hello.clone()) {
            Ok(link) => (Some(link), BattleStage::Connecting),
            Err(e) => (None, BattleStage::Failed(e)),
        };
        let mut online = BattleOnline::blank(url, net, stage);
        online.request = Some(request);
        online
    }

    /// Takes over a connection the two-seat controller opened (see [`BattleJoin`]).
    pub fn joined(join: BattleJoin) -> BattleOnline {
        let mut online = BattleOnline::blank(join.url, Some(join.link), BattleStage::InRoom);
        online.welcomed = true;
        online.code = Some(join.code);
        online.seat = join.seat;
        online.room = vec![None; usize::from(join.options.seats)];
        online.options = Some(join.options);
        online
    }

    /// Where we stand.
    pub fn stage(&self) -> &BattleStage {
        &self.stage
    }

    /// The room code, once in the room.
    pub fn code(&self) -> Option<&str> {
        self.code.as_deref()
    }

    /// Our room seat (`None` as a spectator or before joining).
    pub fn seat(&self) -> Option<u8> {
        self.seat
    }

    /// Whether we watch rather than play.
    pub fn is_spectator(&self) -> bool {
        self.code.is_some() && self.seat.is_none()
    }

    /// The room's options.
    pub fn options(&self) -> Option<&BattleRoomOptions> {
        self.options.as_ref()
    }

    /// Who sits in each room seat.
    pub fn room(&self) -> &[Option<SeatInfo>] {
        &self.room
    }

    /// Spectators in the room.
    pub fn spectators(&self) -> u16 {
        self.spectators
    }

    /// Each battle seat's name in the current (or last) match.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The session of the current (or last) match.
    pub fn session(&self) -> Option<&BattleSession> {
        self.session.as_ref()
    }

    /// The match to draw: predicted, or a blank one before the first match.
    pub fn battle(&self) -> &Battle {
        self.session.as_ref().map_or(&self.idle, |s| s.predicted())
    }

    /// Our battle seat in the current match.
    pub fn battle_seat(&self) -> Option<Seat> {
        let seat = self.seat?;
        let i = self.room_seats.iter().position(|&s| s == seat)?;
        Seat::new(i)
    }

    /// Matches started on this connection.
    pub fn matches_started(&self) -> u32 {
        self.matches_started
    }

    /// A match is running (started and not yet announced over).
    pub fn is_live(&self) -> bool {
        self.session.is_some() && self.result.is_none()
    }

    /// The server's result of the last match.
    pub fn result(&self) -> Option<&BattleResult> {
        self.result.as_ref()
    }

    /// We sent `Ready` and wait for the next match.
    pub fn ready_sent(&self) -> bool {
        self.ready_sent
    }

    /// The round trip to the server, once measured.
    pub fn ping(&self) -> Option<Duration> {
        self.clock.rtt()
    }

    /// The manual target we send with our keys.
    pub fn target(&self) -> Option<Seat> {
        self.target
    }

    /// Chooses the target sent with our keys from the next frame on (`None`: no choice).
    pub fn set_target(&mut self, target: Option<Seat>) {
        self.target = target;
    }

    /// Takes the notices to show once.
    pub fn take_notices(&mut self) -> Vec<String> {
        std::mem::take(&mut self.notices)
    }

    /// Says we are ready for the next match (also the rematch). Once per match.
    pub fn ready(&mut self) {
        if self.seat.is_some() && !self.ready_sent && !self.is_live() {
            self.send(ClientMessage::Ready);
            self.ready_sent = true;
        }
    }

    /// Leaves the room (forfeiting a running match) and closes the connection politely.
    pub fn leave(&mut self) {
        if self.code.is_some() {
            self.send(ClientMessage::LeaveRoom);
        } else if matches!(self.stage, BattleStage::Queued(_)) {
            self.send(ClientMessage::QuickBattle { on: false });
        }
        if let Some(net) = &self.net {
            net.close();
        }
        self.net = None;
    }

    fn send(&mut self, message: ClientMessage) {
        let sent = self.net.as_ref().is_some_and(|n| n.send(message).is_ok());
        if !sent && !matches!(self.stage, BattleStage::Failed(_)) {
            self.stage = BattleStage::Failed("The connection to the server is closed.".into());
        }
    }

    /// Handles every event that arrived, sends a ping when due, and works out how many match
    /// frames are due now. Never blocks.
    pub fn poll(&mut self, now: Instant) {
        while let Some((event, at)) = self.net.as_mut().and_then(|n| n.try_recv_stamped()) {
            self.on_event(event, at.min(now));
        }
        if self.welcomed && now >= self.next_ping && !matches!(self.stage, BattleStage::Failed(_)) {
            let ping = self.clock.ping(now);
            self.send(ping);
            self.next_ping = now + Duration::from_secs(1);
        }
        self.due = match (&self.session, &self.pacer) {
            (Some(s), Some(p)) if !s.is_over() || self.result.is_none() => {
                p.frames_due(now, s.frame())
            }
            _ => 0,
        };
    }

    /// Frames due this rendered frame (set by [`BattleOnline::poll`]).
    pub fn frames_due(&self) -> u32 {
        self.due
    }

    /// Simulates one due frame with `keys` for our seat (and our target), then sends what the
    /// session produced. False when nothing was simulated (no frame due, or a stall).
    pub fn advance(&mut self, now: Instant, keys: &mut dyn FnMut(&Battle, Seat) -> Input) -> bool {
        if self.due == 0 {
            return false;
        }
        let me = self.battle_seat();
        let target = self.target;
        let (Some(session), Some(pacer)) = (&mut self.session, &mut self.pacer) else {
            self.due = 0;
            return false;
        };
        let input = me.map_or(SeatInput::NONE, |s| SeatInput {
            keys: keys(session.predicted(), s),
            target,
        });
        let stepped = session.advance(input) == Step::Advanced;
        if stepped {
            self.due -= 1;
        } else {
            pacer.stalled(now, session.frame());
            self.due = 0;
        }
        self.flush();
        stepped
    }

    #[cfg_attr(not(test), allow(dead_code))] // the tests drive it so
    /// One rendered frame in one call: [`BattleOnline::poll`], then every due frame. Returns
    /// the frames simulated.
    pub fn tick(&mut self, now: Instant, keys: &mut dyn FnMut(&Battle, Seat) -> Input) -> u32 {
        self.poll(now);
        let mut n = 0;
        while self.due > 0 && self.advance(now, keys) {
            n += 1;
        }
        self.flush();
        n
    }

    fn flush(&mut self) {
        let mut out = Vec::new();
        if let Some(session) = &mut self.session {
            while let Some(m) = session.poll_outgoing() {
                out.push(m);
            }
        }
        for m in out {
            self.send(m);
        }
    }

    fn on_event(&mut self, event: NetEvent, at: Instant) {
        match event {
            NetEvent::Connected | NetEvent::Error(_) => {}
            NetEvent::Welcome { .. } => {
                self.welcomed = true;
                self.next_ping = at;
                if let Some(request) = self.request.take() {
                    self.send(request);
                }
            }
            NetEvent::Disconnected(reason) => {
                self.welcomed = false;
                self.net = None;
                if !matches!(self.stage, BattleStage::Failed(_)) {
                    self.stage = BattleStage::Failed(format!("Connection lost: {reason}"));
                }
            }
            NetEvent::Message(m) => self.on_message(m, at),
        }
    }

    fn on_message(&mut self, m: ServerMessage, at: Instant) {
        match m {
            ServerMessage::BattleJoined {
                code,
                seat,
                options,
                ..
            } => {
                self.code = Some(code);
                self.seat = seat;
                self.room = vec![None; usize::from(options.seats)];
                self.options = Some(options);
                self.stage = BattleStage::InRoom;
            }
            ServerMessage::BattleRoomState { seats, spectators } => {
                let me_ready = self
                    .seat
                    .and_then(|s| seats.get(usize::from(s)).cloned().flatten())
                    .is_some_and(|s| s.ready);
                self.ready_sent = me_ready || (self.ready_sent && self.result.is_none());
                self.room = seats;
                self.spectators = spectators;
            }
            ServerMessage::BattleStart {
                header,
                names,
                room_seats,
                start_in_ms,
            } => {
                self.start(*header, names, room_seats, None);
                self.pacer = Some(Pacer::from_match_start(
                    at,
                    start_in_ms,
                    self.clock.rtt(),
                    DEFAULT_WINDOW,
                ));
            }
            ServerMessage::BattleLog {
                header,
                names,
                room_seats,
                changes,
                targets,
                confirmed,
                now_frame,
            } => {
                let same = self
                    .session
                    .as_ref()
                    .is_some_and(|s| *s.header() == *header);
                if same && let Some(session) = &mut self.session {
                    if let Err(e) = session.apply_log(&changes, &targets, &confirmed) {
                        self.notices.push(format!("The match log was refused: {e}"));
                    }
                    return;
                }
                self.start(
                    *header,
                    names,
                    room_seats,
                    Some((changes, targets, confirmed)),
                );
                self.pacer = Some(Pacer::from_now_frame(
                    at,
                    now_frame,
                    self.clock.rtt(),
                    DEFAULT_WINDOW,
                ));
            }
            ServerMessage::BattleInputs { .. }
            | ServerMessage::BattleInputsGathered { .. }
            | ServerMessage::Desync { .. }
            | ServerMessage::BattleDesync { .. } => {
                if let Some(session) = &mut self.session
                    && let Err(e) = session.handle(&m)
                {
                    tracing::warn!("relayed inputs refused: {e}");
                }
            }
            ServerMessage::BattleOver {
                winner,
                reason,
                placements,
                replay,
            } => {
                self.ready_sent = false;
                self.result = Some(BattleResult {
                    winner,
                    reason,
                    placements,
                    replay,
                });
                self.flush();
            }
            ServerMessage::Pong { nonce, server_ms } => {
                self.clock.pong(nonce, server_ms, at);
                if let Some(rtt_ms) = report_due(self.clock.rtt(), self.links.1)
                    && self.seat.is_some()
                {
                    self.send(ClientMessage::LinkReport { rtt_ms });
                    self.links.1 = Some(rtt_ms);
                }
            }
            ServerMessage::BattleLinks { rtt_ms } => self.links.0 = rtt_ms,
            ServerMessage::QuickBattleQueue {
                waiting,
                needed,
                most,
                starts_in_ms,
            } if self.code.is_none() => {
                let wait = QueueWait::heard(waiting, needed, most, starts_in_ms, at);
                self.stage = BattleStage::Queued(wait);
            }
            ServerMessage::Error {
                code,
                message,
                fatal,
            } => {
                let text = error_text(code, &message);
                if fatal || self.code.is_none() {
                    self.stage = BattleStage::Failed(text);
                } else {
                    self.notices.push(text);
                }
            }
            ServerMessage::Joined { .. } => {
                self.stage = BattleStage::Failed(
                    "That code is a versus room: join it with Join room by code.".to_owned(),
                );
                self.leave();
            }
            ServerMessage::Shutdown { reason } => {
                self.stage = BattleStage::Failed(format!("The server is shutting down: {reason}."));
            }
            _ => {}
        }
    }

    /// A new match (or a running one joined through its log).
    fn start(
        &mut self,
        header: BattleHeader,
        names: Vec<String>,
        room_seats: Vec<u8>,
        log: Option<LogLists>,
    ) {
        self.names = names;
        self.room_seats = room_seats;
        self.result = None;
        self.ready_sent = false;
        self.target = None;
        let local = self.battle_seat().map(Seat::index);
        let options = match local {
            Some(me) => battle_options(self.clock.rtt(), &self.links.0, me, DEFAULT_WINDOW),
            // Spectators predict every seat a little, for a smooth picture.
            None => SessionOptions {
                window: DEFAULT_WINDOW,
                input_delay: 0,
            },
        };
        let made = match log {
            None => BattleSession::new(header, local, options),
            Some((changes, targets, confirmed)) => {
                BattleSession::from_log(header, local, options, &changes, &targets, &confirmed)
            }
        };
        match made {
            Ok(session) => {
                self.session = Some(session);
                self.matches_started += 1;
            }
            Err(e) => self.notices.push(format!("The match could not start: {e}")),
        }
    }
}

/// A match log's per-seat lists: key changes, target changes, confirmed frames.
type LogLists = (
    Vec<Vec<sevenbag_protocol::InputChange>>,
    Vec<Vec<sevenbag_protocol::TargetChange>>,
    Vec<u32>,
);

impl Drop for BattleOnline {
    fn drop(&mut self) {
        if let Some(net) = &self.net {
            net.close();
        }
    }
}
