//! `--screen party-online`: a free-for-all room on an embedded server on 127.0.0.1, the shown
//! seat and every other one played by bots through their own connections (each a
//! [`BattleOnline`] joined by code), so a capture shows a real online room mid-match; the
//! first bot says hello in the room's chat when the match starts. `--demo --online` is such
//! a room of two seats, whose frames and forfeits are counted for its exit line
//! ([`stats_line`]).

use std::net::Ipv4Addr;
use std::sync::atomic::{AtomicU64, Ordering};

use sevenbag_bot::Level;
use sevenbag_core::Handling;
use sevenbag_netplay::time::Instant;
use sevenbag_protocol::{ClientMessage, JoinRole, ServerMessage};

use crate::net::battle::{BattleOnline, BattleStage};
use crate::net::lan::HostedServer;
use crate::net::request::Arrival;
use crate::opponent::{AutoPlayer, Opponent, Planning, SeatView};
use crate::render::builtin_skins::BuiltIn;

/// Match frames the shown seat of a crowd simulated, over every match of this process.
static MATCH_FRAMES: AtomicU64 = AtomicU64::new(0);
/// Matches of the shown seat of a crowd the server ended by forfeit.
static FORFEITS: AtomicU64 = AtomicU64::new(0);

/// The line `--demo --online --seconds S` prints at exit, so a claim of real time can be
/// checked: 60 match frames a second means the match clock kept up however slowly the screen
/// drew.
pub fn stats_line(seconds: f64) -> String {
    let frames = MATCH_FRAMES.load(Ordering::Relaxed);
    let rate = if seconds > 0.0 {
        frames as f64 / seconds
    } else {
        0.0
    };
    format!(
        "match frames: {frames} in {seconds:.1} s ({rate:.1} per s), forfeits: {}",
        FORFEITS.load(Ordering::Relaxed)
    )
}

/// The shown seat simulated a match frame.
pub(super) fn count_frame() {
    MATCH_FRAMES.fetch_add(1, Ordering::Relaxed);
}

/// The other bots' names.
const NAMES: [&str; 7] = ["Ada", "Bea", "Cid", "Dee", "Eve", "Fay", "Gus"];

/// The other seats of the room: their connections and bots, and the server (dropped last).
pub struct Crowd {
    players: Vec<(BattleOnline, Box<dyn AutoPlayer>)>,
    wanted: usize,
    level: Level,
    addr: String,
    /// A bot said hello in the chat (once a match runs, so a capture shows a line).
    greeted: bool,
    /// Each joining bot registers an identity and wears a built-in skin of its own
    /// (`--screen party-skins`).
    skins: bool,
    /// The shown seat's matches whose result is counted in [`FORFEITS`] (by matches started).
    counted: u32,
    _server: HostedServer,
}

impl Crowd {
    /// Starts the server; returns it and its address.
    pub fn start(seats: usize, level: Level) -> Result<Crowd, String> {
        Crowd::starting(seats, level, false)
    }

    /// As [`Crowd::start`], the server keeping identities, and every bot that joins
    /// registering one and wearing a built-in skin ([`BuiltIn::ALL`] in turn), which the
    /// server publishes to the room.
    pub fn start_in_skins(seats: usize, level: Level) -> Result<Crowd, String> {
        Crowd::starting(seats, level, true)
    }

    fn starting(seats: usize, level: Level, skins: bool) -> Result<Crowd, String> {
        let dir = std::env::temp_dir().join(format!("sevenbag-party-{}", std::process::id()));
        let db = skins.then(|| dir.join("sevenbag.db"));
        let server = HostedServer::start_keeping(Ipv4Addr::LOCALHOST, 0, dir, db)?;
        Ok(Crowd {
            players: Vec::new(),
            wanted: seats.saturating_sub(1),
            level,
            addr: format!("127.0.0.1:{}", server.port()),
            greeted: false,
            skins,
            counted: 0,
            _server: server,
        })
    }

    /// Also seats a bot that creates the room of `options` (waiting up to 10 s for its code),
    /// so every seat is a bot's and the screen can watch: returns the code.
    pub fn host(
        &mut self,
        options: sevenbag_protocol::BattleRoomOptions,
    ) -> Result<String, String> {
        let mut host = BattleOnline::create(&self.addr, "Hal", Handling::default(), options);
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while host.code().is_none() {
            if std::time::Instant::now() > deadline {
                return Err("the embedded server gave no room code".to_owned());
            }
            host.poll(Instant::now());
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        let code = host.code().unwrap_or_default().to_owned();
        let bot = Opponent::Bot(self.level).player_with(0xB0, Planning::Inline);
        self.players.push((host, bot));
        self.wanted += 1;
        Ok(code)
    }

    /// Puts `n` bots in the server's free-for-all queue (quick play) instead of joining a
    /// room by code.
    pub fn queue(&mut self, n: usize) {
        for i in 0..n {
            let name = NAMES[i % NAMES.len()];
            let online = BattleOnline::quick(&self.addr, name, Handling::default());
            let bot =
                Opponent::Bot(self.level).player_with(0xB07 * (i as u64 + 2), Planning::Inline);
            self.players.push((online, bot));
        }
        self.wanted = self.players.len();
    }

    /// The server's address.
    pub fn addr(&self) -> &str {
        &self.addr
    }

    /// Joins the others once the room has a code, then plays their due frames and readies
    /// them whenever no match runs.
    /// Counts the shown seat's finished match once if the server ended it by forfeit.
    pub fn note_result(&mut self, shown: &BattleOnline) {
        let started = shown.matches_started();
        if started != self.counted
            && let Some(result) = shown.result()
        {
            self.counted = started;
            if result.reason == sevenbag_protocol::EndReason::Forfeit {
                FORFEITS.fetch_add(1, Ordering::Relaxed);
            }
        }
    }

    pub fn drive(&mut self, code: Option<&str>) {
        while self.players.len() < self.wanted
            && let Some(code) = code
        {
            let i = self.players.len() + 2;
            // Names, not numbers: the seats are taken in whatever order the joins arrive.
            let name = NAMES[(i - 2) % NAMES.len()];
            let mut online = BattleOnline::join(
                &self.addr,
                name,
                Handling::default(),
                code,
                JoinRole::Player,
            );
            if self.skins {
                let skin = BuiltIn::ALL[(i - 2) % BuiltIn::ALL.len()].skin();
                match register(&self.addr, name) {
                    Ok(key) => online = online.with_key(Some(key)).wearing(skin.to_png()),
                    Err(e) => tracing::warn!("capture bot {name} plays as a guest: {e}"),
                }
            }
            let bot = Opponent::Bot(self.level).player_with(0xB07 * i as u64, Planning::Inline);
            self.players.push((online, bot));
        }
        let now = Instant::now();
        for (online, bot) in &mut self.players {
            aim(online);
            online.tick(now, &mut |b, seat| {
                bot.next_for(SeatView::of_battle(b, seat))
            });
            if online.stage() == &BattleStage::InRoom && !online.is_live() && full(online) {
                online.ready();
            }
        }
        if !self.greeted
            && let Some((online, _)) = self.players.first_mut()
            && online.is_live()
        {
            online.say("gl hf everyone".to_owned());
            self.greeted = true;
        }
    }
}

/// Registers an identity named `name` on the server at `addr` (waiting up to 10 s), for a bot
/// to identify with: its key.
fn register(addr: &str, name: &str) -> Result<[u8; 32], String> {
    let key = crate::identity::random_key()?;
    let mut request = crate::net::request::Request::connect(addr, name)?;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while std::time::Instant::now() < deadline {
        match request.next() {
            Some(Arrival::Welcome) => request.send(ClientMessage::Register {
                key,
                name: name.to_owned(),
            })?,
            Some(Arrival::Message(ServerMessage::Registered { .. })) => {
                request.close();
                return Ok(key);
            }
            Some(Arrival::Message(ServerMessage::Error { message, .. })) => return Err(message),
            Some(Arrival::Gone(why)) => return Err(why),
            Some(Arrival::Message(_)) => {}
            None => std::thread::sleep(std::time::Duration::from_millis(5)),
        }
    }
    Err("the embedded server did not register the bot in time".to_owned())
}

/// A bot's seat under the `manual` rule: aims by [`sevenbag_bot::manual_target`].
pub fn aim(o: &mut BattleOnline) {
    let manual = o.battle().header().options.targeting == sevenbag_core::Targeting::Manual;
    let target = o
        .battle_seat()
        .filter(|_| manual && o.is_live())
        .and_then(|me| sevenbag_bot::manual_target(o.battle(), me));
    if manual {
        o.set_target(target);
    }
}

/// Whether every seat of `o`'s room is taken (the capture's players ready only then, so the
/// match starts with all of them).
pub fn full(o: &BattleOnline) -> bool {
    !o.room().is_empty() && o.room().iter().all(Option::is_some)
}
