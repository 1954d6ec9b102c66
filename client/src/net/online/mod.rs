//! The online controller: one connection to a Sevenbag server, the lobby it sees and the match
//! it plays or watches. No macroquad in here, so the tests drive it headlessly.
//!
//! [`Online`] owns a [`transport::Link`] (natively the tokio WebSocket task on the shared
//! background runtime, in the browser a page WebSocket), tracks the room (code, seats, ready flags, spectators) and, once the server
//! sends `MatchStart` or a `MatchLog`, a netplay [`Session`] paced by a `Pacer`, both kept by a
//! [`MatchDriver`] (the same one `sevenbag_netplay::HeadlessClient` plays with). Each rendered
//! frame the screen calls [`Online::poll`] (events, pings; never blocks) and then advances as
//! many frames as are due; [`Online::tick`] does both in one call with keys from a closure, the
//! way `sevenbag_netplay::HeadlessClient::tick` does. It implements the screen's
//! [`crate::match_source::MatchSource`] trait, so the match view draws online play unchanged.
//!
//! When the connection of a seated player drops during a match (not after [`Online::leave`]),
//! the controller reconnects by itself: it keeps the match and its session, tries a new
//! connection with the resume token from `Joined` every second (see [`reconnect`]) until
//! the room's `reconnect_seconds` pass (longer while the server cannot be reached: a restarted
//! server takes its matches back), sends nothing until the server's `MatchLog` has rebuilt the
//! session, and then carries on. If the server answers `BadResume` (with its verdict on the
//! match just before, when it kept one) or never answers, the stage becomes [`Stage::Failed`]
//! with the server's verdict, or a sentence that claims none (see [`reconnect`]).
//!
//! The controller is one type split by job: [`transport`] opens connections (the process's
//! network runtime, TLS trust, server URLs), `connection` handles the connection's own events
//! (welcome, loss, redirects, reconnecting), `lobby` the room (seats, ready flags, chat, replay
//! downloads, server errors), `play` the match (pacing, stepping, the match view's
//! [`crate::match_source::MatchSource`]), and [`texts`] says network failures in words for people.

pub mod chat;
mod connection;
#[cfg(test)]
mod end_tests;
#[cfg(test)]
mod idle_tests;
mod lobby;
#[cfg(test)]
mod path_tests;
mod play;
pub mod reconnect;
#[cfg(test)]
mod tests;
pub mod texts;
pub mod transport;
pub mod who;
#[cfg(test)]
mod who_tests;

use std::time::Duration;

use sevenbag_netplay::time::Instant;

use sevenbag_core::{Handling, Match, MatchHeader, Seat};
use sevenbag_netplay::{
    DEFAULT_WINDOW, DriverConfig, Hello, MatchDriver, MatchResult, RoomTracker, Session,
    SessionOptions,
};
use sevenbag_protocol::{RoomOptions, SeatInfo};

use crate::identity::RankedFlow;
use crate::input::{KeyMap, Latch};
use crate::match_source::AutoPlayer;
use crate::net::online::reconnect::Reconnect;
use crate::net::online::who::Who;

pub use texts::{error_text, reach_text};
pub use transport::{server_url, set_trust};

/// A room of several seats the server put us in: code, our seat, its options, resume token.
type BattleSeat = (
    String,
    Option<u8>,
    sevenbag_protocol::BattleRoomOptions,
    u64,
);

/// Shown after the name of a declared bot wherever a name shows.
pub const BOT_MARK: &str = "[BOT]";

/// What the connection is for, sent as soon as the server welcomes us.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// Matchmaking.
    QuickMatch,
    /// A new two-seat room with these options. The game makes general rooms
    /// (`BattleOnline::create`); this controller's own tests still make two-seat ones.
    #[cfg_attr(not(test), allow(dead_code))]
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
    net: Option<Box<dyn transport::Link>>,
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
    chat: crate::net::online::chat::Chat,
    /// Which seats the server marked as declared bots (`SeatMarks`).
    bots: [bool; 2],
    /// The identify/register/queue exchange of a ranked request.
    ranked: Option<RankedFlow>,
    /// The player key this connection identifies with, if the player has one.
    key: Option<[u8; 32]>,
    /// Whether the server knows us as the key's identity (reports and blocks need it).
    who: Who,
    replay_list: Vec<sevenbag_protocol::ReplayListing>,
    replay: Option<(String, Vec<u8>)>,
    driver: Driver,
    /// Frames due this rendered frame that are still to be stepped.
    due: u32,
    /// Shown before the first match (the view needs a `Match` to draw).
    idle: Match,
    /// A cluster's redirects followed for the current request.
    redirects: sevenbag_netplay::Redirects,
    /// The server put us in a room of several seats (`BattleJoined`): its code, our seat and
    /// its options and our resume token, until [`Online::take_battle`] hands the connection
    /// over.
    battle: Option<BattleSeat>,
    /// How long a lost match is retried while the server cannot be reached, at least
    /// ([`reconnect::REACH_ALLOWANCE`]; the tests shorten it).
    reach_allowance: Duration,
    /// The skins the room's seats wear, and ours published.
    skins: crate::net::skins::SkinBook,
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
        let (net, stage) = match transport::open(&url, hello.clone()) {
            Ok(link) => (Some(link), Stage::Connecting),
            Err(e) => (None, Stage::Failed(e)),
        };
        let key = match &request {
            Request::Ranked(key) => Some(*key),
            _ => None,
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
            chat: crate::net::online::chat::Chat::default(),
            bots: [false; 2],
            ranked,
            key,
            who: Who::Guest,
            replay_list: Vec::new(),
            replay: None,
            driver: Driver::Keys(keys, Latch::default()),
            due: 0,
            idle: Match::new(MatchHeader::versus(0)),
            redirects: sevenbag_netplay::Redirects::default(),
            battle: None,
            reach_allowance: reconnect::REACH_ALLOWANCE,
            skins: crate::net::skins::SkinBook::default(),
        }
    }

    /// Lets an automatic player press our keys instead of the keyboard (this controller's
    /// tests; the online demo plays general rooms).
    #[cfg_attr(not(test), allow(dead_code))]
    pub fn with_auto(mut self, player: Box<dyn AutoPlayer>) -> Online {
        self.driver = Driver::Auto(player);
        self
    }

    /// Identifies with `key` (the player's, registered by a ranked match) right after the
    /// welcome, whatever the request: the server then knows us, shows the identity's name and
    /// takes our reports and blocks. `None` stays a guest.
    pub fn with_key(mut self, key: Option<[u8; 32]>) -> Online {
        if !matches!(self.request, Request::Ranked(_)) {
            self.key = key;
        }
        self
    }

    #[cfg_attr(not(test), allow(dead_code))] // the tests read it
    /// Whether the server knows this connection as the player's identity.
    pub fn identified(&self) -> bool {
        self.who == Who::Known
    }

    /// The server URL.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// What this connection asked the server for.
    pub fn request(&self) -> &Request {
        &self.request
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

    /// Players' names, seat 0 and 1, each followed by [`BOT_MARK`] when the server marked the
    /// seat as a declared bot.
    pub fn names(&self) -> [String; 2] {
        let plain = self.plain_names();
        [0, 1].map(|i| {
            if self.bots[i] {
                format!("{} {BOT_MARK}", plain[i])
            } else {
                plain[i].clone()
            }
        })
    }

    /// Whether the server marked seat `index` as a declared bot.
    pub fn is_bot(&self, index: usize) -> bool {
        self.bots.get(index).copied().unwrap_or(false)
    }

    /// Players' names as the server knows them (no marks): what a report or a block names.
    pub fn plain_names(&self) -> [String; 2] {
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

    /// Matches started on this connection.
    pub fn matches_started(&self) -> u32 {
        self.match_driver.matches_started()
    }

    /// The server's result of the last match.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.match_driver.match_result()
    }

    /// The server's word that the last match has no winner.
    pub fn void_result(&self) -> Option<&sevenbag_netplay::VoidResult> {
        self.match_driver.void_result()
    }

    /// Which path carries our inputs now (the WebSocket while there is no connection).
    pub fn path(&self) -> sevenbag_netplay::TransportPath {
        self.net
            .as_ref()
            .map_or(sevenbag_netplay::TransportPath::WebSocket, |n| n.path())
    }

    /// The round trip to the server, once measured.
    pub fn ping(&self) -> Option<Duration> {
        self.match_driver.clock().rtt()
    }

    /// Takes the notices to show once.
    pub fn take_notices(&mut self) -> Vec<String> {
        std::mem::take(&mut self.notices)
    }

    #[cfg_attr(not(test), allow(dead_code))] // the tests read it
    /// Whether the server put us in a room of several seats (a code joined or watched that is
    /// a free-for-all room): [`Online::take_battle`] hands the connection over.
    pub fn joined_battle(&self) -> bool {
        self.battle.is_some()
    }

    /// Hands the connection over to a [`BattleOnline`](crate::net::battle::BattleOnline) once
    /// the server put us in a room of several seats; this controller is left without one.
    pub fn take_battle(&mut self) -> Option<crate::net::battle::BattleJoin> {
        let (code, seat, options, resume) = self.battle.take()?;
        let link = self.net.take()?;
        Some(crate::net::battle::BattleJoin {
            url: self.url.clone(),
            link,
            code,
            seat,
            options,
            hello: self.hello.clone(),
            resume: seat.map(|_| resume),
            key: self.key,
            who: self.who.clone(),
            skins: std::mem::take(&mut self.skins),
            queue: match self.request {
                Request::QuickMatch => Some(sevenbag_protocol::ClientMessage::QuickMatch),
                Request::Ranked(_) => Some(sevenbag_protocol::ClientMessage::RankedMatch),
                _ => None,
            },
            profile: self.ranked.as_ref().and_then(|f| f.profile().cloned()),
        })
    }

    /// The skin seat `seat` wears, with its id, if it is known here.
    pub fn seat_skin(&self, seat: Seat) -> Option<(&str, &sevenbag_skin::Skin)> {
        self.skins.worn(seat.index())
    }

    /// The match to draw: predicted, or a blank one before the first match.
    pub fn current(&self) -> &Match {
        self.match_driver.predicted().unwrap_or(&self.idle)
    }
}

impl Drop for Online {
    fn drop(&mut self) {
        if let Some(net) = &self.net {
            net.close();
        }
    }
}
