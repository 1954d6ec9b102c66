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
//! When the connection drops during a match we play or watch, it is taken back as the two-seat
//! controller does (the same [`Reconnect`] timing, see [`reconnect`]): a player comes back with
//! its resume token, a spectator joins by code again, the match log rebuilds the session; a
//! player whose seat was played out meanwhile is told so and watches. The room's chat is kept
//! in a [`Chat`], as in a two-seat room.
//!
//! A room is reached two ways: created here ([`BattleOnline::create`]), or joined by code
//! through the two-seat controller, which hands its connection over ([`BattleJoin`]) when the
//! server answers with a room of several seats.

mod drive;
mod invite;
mod messages;
mod reconnect;
mod redirect;
#[cfg(test)]
mod stop_tests;
mod view;

pub use reconnect::SEAT_LOST;

use sevenbag_core::{Battle, BattleHeader, Handling};
use sevenbag_netplay::time::Instant;
use sevenbag_netplay::{BattleSession, Clock, Hello, Pacer};
use sevenbag_protocol::{BattleRoomOptions, ClientMessage, EndReason, JoinRole, SeatInfo};

use crate::net::battle_queue::QueueWait;
use crate::net::online::chat::Chat;
use crate::net::online::reconnect::Reconnect;
use crate::net::online::transport::{Link, open, server_url};
use crate::net::online::who::Who;
use crate::net::skins::SkinBook;

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
    /// The `Hello` the connection opened with (a reconnect says it again).
    pub hello: Hello,
    /// Our seat's resume token.
    pub resume: Option<u64>,
    /// The player key the connection identifies with (again after a loss), if any.
    pub key: Option<[u8; 32]>,
    /// Whether the server knows the connection as that identity.
    pub who: Who,
    /// The seats' skins heard so far, and whether ours is published.
    pub skins: SkinBook,
    /// The queue that seated us (`QuickMatch`, `RankedMatch`), asked again by Requeue.
    pub queue: Option<ClientMessage>,
    /// The identity's profile as the ranked queue last heard it: a rated match's change of
    /// rating is told against it.
    pub profile: Option<sevenbag_protocol::Profile>,
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
    /// A friend to invite once the room exists and the server knows us (a challenge).
    invite_on_arrival: Option<String>,
    /// Our identity's profile as last heard (`Identified`), to tell a rating change.
    profile: Option<sevenbag_protocol::Profile>,
    /// What we asked, to ask again where a cluster's `Redirect` sends us, and the redirects
    /// followed in a row.
    asked: Option<ClientMessage>,
    redirects: sevenbag_netplay::Redirects,
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
    /// Each team's round wins in the current match as the server last announced them
    /// (`BattleRoundOver`); empty before its first round ends.
    round_wins: Vec<u8>,
    ready_sent: bool,
    matches_started: u32,
    notices: Vec<String>,
    target: Option<sevenbag_core::Seat>,
    due: u32,
    /// Our `Hello`, kept for reconnecting.
    hello: Hello,
    /// Our seat's resume token (from `BattleJoined`).
    resume: Option<u64>,
    /// The lost connection being taken back, while it is.
    reconnect: Option<Reconnect>,
    /// Back after the reconnect window: the seat was played out and we watch instead.
    seat_lost: bool,
    /// Room chat heard on this connection.
    chat: Chat,
    /// Each battle seat's round trip as announced (`BattleLinks`), and the last we reported.
    links: (Vec<u16>, Option<u16>),
    /// A replay the server sent when asked ([`BattleOnline::fetch_replay`]): its id and bytes.
    replay: Option<(String, Vec<u8>)>,
    /// Our input delay's re-estimates over the match, as a two-seat room's player makes them.
    tuner: sevenbag_netplay::DelayTuner,
    /// Drawn before the first match.
    idle: Battle,
    /// The player key this connection identifies with on every welcome (invites need it).
    key: Option<[u8; 32]>,
    /// Whether the server knows us as the key's identity.
    who: Who,
    /// The skins the room's seats wear, and ours published.
    skins: SkinBook,
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
    fn blank(url: String, hello: Hello, net: Option<Box<dyn Link>>, stage: BattleStage) -> Self {
        let now = Instant::now();
        let idle = Battle::new(BattleHeader::new(0, 3)).unwrap_or_else(|_| {
            Battle::new(BattleHeader::new(0, 2)).expect("a two-seat battle is always valid")
        });
        BattleOnline {
            url,
            net,
            welcomed: false,
            request: None,
            asked: None,
            invite_on_arrival: None,
            profile: None,
            redirects: sevenbag_netplay::Redirects::default(),
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
            round_wins: Vec::new(),
            ready_sent: false,
            matches_started: 0,
            notices: Vec::new(),
            target: None,
            due: 0,
            links: (Vec::new(), None),
            tuner: sevenbag_netplay::DelayTuner::default(),
            replay: None,
            idle,
            hello,
            resume: None,
            reconnect: None,
            seat_lost: false,
            chat: Chat::default(),
            key: None,
            who: Who::Guest,
            skins: SkinBook::default(),
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

    /// Whether this connection came through a queue (quick play, quick match, ranked), so its
    /// result card offers Requeue.
    pub fn came_from_queue(&self) -> bool {
        matches!(
            self.asked,
            Some(
                ClientMessage::QuickBattle { on: true }
                    | ClientMessage::QuickMatch
                    | ClientMessage::RankedMatch
            )
        )
    }

    /// The two-seat queue that made this match, as a title names it ("QUICK MATCH",
    /// "RANKED MATCH"); `None` for a room by code or quick play.
    pub fn queue_title(&self) -> Option<&'static str> {
        match self.asked {
            Some(ClientMessage::QuickMatch) => Some("QUICK MATCH"),
            Some(ClientMessage::RankedMatch) => Some("RANKED MATCH"),
            _ => None,
        }
    }

    /// A new connection to the same server as the same player (name, handling, key), back in
    /// the queue it came through: Requeue after a match from a queue.
    pub fn requeue(&self) -> BattleOnline {
        let request = self
            .asked
            .clone()
            .unwrap_or(ClientMessage::QuickBattle { on: true });
        BattleOnline::connect(&self.url, &self.hello.name, self.hello.handling, request)
            .with_key(self.key)
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
        let mut online = BattleOnline::blank(url, hello, net, stage);
        online.request = Some(request);
        online
    }

    /// Takes over a connection the two-seat controller opened (see [`BattleJoin`]).
    pub fn joined(join: BattleJoin) -> BattleOnline {
        let mut online =
            BattleOnline::blank(join.url, join.hello, Some(join.link), BattleStage::InRoom);
        online.resume = join.resume;
        online.key = join.key;
        online.who = join.who;
        online.skins = join.skins;
        online.welcomed = true;
        online.code = Some(join.code);
        online.seat = join.seat;
        online.room = vec![None; usize::from(join.options.seats)];
        online.options = Some(join.options);
        online.asked = join.queue;
        online.profile = join.profile;
        online
    }

    /// Says we are ready for the next match (also the rematch). Once per match.
    pub fn ready(&mut self) {
        if self.seat.is_some() && !self.ready_sent && !self.is_live() {
            self.send(ClientMessage::Ready);
            self.ready_sent = true;
        }
    }

    /// Leaves the room (forfeiting a running match) and closes the connection politely. While
    /// reconnecting there is no connection to tell: the attempt stops and the seat lapses.
    pub fn leave(&mut self) {
        let reconnecting = self.reconnect.take().is_some();
        if reconnecting {
            // No connection to tell.
        } else if self.code.is_some() {
            self.send(ClientMessage::LeaveRoom);
        } else if matches!(self.stage, BattleStage::Queued(_)) {
            self.send(ClientMessage::QuickBattle { on: false });
        }
        if let Some(net) = &self.net {
            net.close();
        }
        self.net = None;
    }

    pub(super) fn send(&mut self, message: ClientMessage) {
        if self.reconnect.is_some() && !self.welcomed {
            // Nothing to send on: what matters comes back with the match log.
            return;
        }
        let sent = self.net.as_ref().is_some_and(|n| n.send(message).is_ok());
        // A match we would take back: the loss that follows starts the reconnect.
        if !sent && !matches!(self.stage, BattleStage::Failed(_)) && !self.can_resume() {
            self.stage = BattleStage::Failed("The connection to the server is closed.".into());
        }
    }
}

impl Drop for BattleOnline {
    fn drop(&mut self) {
        if let Some(net) = &self.net {
            net.close();
        }
    }
}
