//! What the game's free-for-all net tests share (their server is a [`LocalServer`]): the game's
//! [`BattleOnline`] created, handed over, ticked (alone or two at a time) until a condition,
//! headless players, and a room of three seats already playing ([`playing_room`]).
//! Every wait is bounded by [`TIMEOUT`].

use std::time::Duration;

use sevenbag_core::{Battle, Handling, Input, Seat, SeatInput, Targeting};
use sevenbag_netplay::BattleClient;
use sevenbag_protocol::{BattleRoomOptions, JoinRole};

use super::battle::{BattleOnline, BattleStage};
use crate::input::KeyMap;
use crate::net::online::transport::runtime;
use crate::net::online::{Online, Request};
use crate::net::test_server::LocalServer;

/// The longest any wait of these tests may take.
pub(super) const TIMEOUT: Duration = Duration::from_secs(90);

/// Keys for one connection's seat, frame by frame.
pub(super) type Keys<'a> = &'a mut dyn FnMut(&Battle, Seat) -> Input;

/// Hard drops every `every` frames, nothing else: stacks top out soon.
pub(super) fn dropper(every: u32) -> impl FnMut(&Battle, Seat) -> Input {
    let mut n = 0;
    move |_, _| {
        n += 1;
        if n % every == 0 {
            Input::HARD_DROP
        } else {
            Input::NONE
        }
    }
}

/// A headless player's keys: a hard drop every `every` frames, aimed by `target` (from the
/// player's own battle seat).
pub(super) fn headless_dropper(
    every: u64,
    target: impl Fn(usize) -> Option<Seat>,
) -> impl FnMut(&Battle, usize) -> SeatInput {
    let mut n = 0u64;
    move |_, me| {
        n += 1;
        SeatInput {
            keys: if n.is_multiple_of(every) {
                Input::HARD_DROP
            } else {
                Input::NONE
            },
            target: target(me),
        }
    }
}

/// Ticks `o` (keys from `keys`) until `done`, failing after [`TIMEOUT`].
pub(super) fn tick_until(
    o: &mut BattleOnline,
    keys: Keys<'_>,
    done: impl Fn(&BattleOnline) -> bool,
) {
    let deadline = std::time::Instant::now() + TIMEOUT;
    while !done(o) {
        assert!(std::time::Instant::now() < deadline, "timed out: {o:?}");
        if let BattleStage::Failed(why) = o.stage() {
            panic!("failed: {why}");
        }
        o.tick(sevenbag_netplay::time::Instant::now(), keys);
        std::thread::sleep(Duration::from_millis(4));
    }
}

/// Ticks `first` and `second` in turn (each with its keys) until `done` holds for `second`,
/// failing after [`TIMEOUT`] or when `second` fails.
pub(super) fn tick_both_until(
    first: (&mut BattleOnline, Keys<'_>),
    second: (&mut BattleOnline, Keys<'_>),
    done: &dyn Fn(&BattleOnline) -> bool,
) {
    let ((a, a_keys), (b, b_keys)) = (first, second);
    let deadline = std::time::Instant::now() + TIMEOUT;
    while !done(b) {
        assert!(std::time::Instant::now() < deadline, "timed out: {b:?}");
        if let BattleStage::Failed(why) = b.stage() {
            panic!("failed: {why}");
        }
        let now = sevenbag_netplay::time::Instant::now();
        a.tick(now, a_keys);
        b.tick(now, b_keys);
        std::thread::sleep(Duration::from_millis(4));
    }
}

/// Idle keys: nothing pressed.
pub(super) fn idle(_: &Battle, _: Seat) -> Input {
    Input::NONE
}

/// The game's connection as "Ann" creates a room of `options` on the server at `addr`;
/// returns it once the room has its code, with the code.
pub(super) fn created(addr: &str, options: BattleRoomOptions) -> (BattleOnline, String) {
    let mut game = BattleOnline::create(addr, "Ann", Handling::default(), options);
    tick_until(&mut game, &mut idle, |o| o.code().is_some());
    let code = game.code().expect("code").to_owned();
    (game, code)
}

/// Ticks `o` idle until every one of its room's `seats` seats is taken.
pub(super) fn until_full(o: &mut BattleOnline, seats: usize) {
    tick_until(o, &mut idle, |o| {
        o.room().iter().filter(|s| s.is_some()).count() == seats
    });
}

/// `name` asks the two-seat controller for `request` (a room of several seats' code) and is
/// handed over to a [`BattleOnline`].
pub(super) fn handed_over(addr: &str, name: &str, request: Request) -> BattleOnline {
    let mut online = Online::connect(
        addr,
        name,
        Handling::default(),
        KeyMap::guideline(),
        request,
    );
    let deadline = std::time::Instant::now() + TIMEOUT;
    while !online.joined_battle() {
        assert!(std::time::Instant::now() < deadline, "not joined");
        online.poll(sevenbag_netplay::time::Instant::now());
        std::thread::sleep(Duration::from_millis(4));
    }
    BattleOnline::joined(online.take_battle().expect("handed over"))
}

/// A headless player that joins `code`, readies, plays with hard drops every `every` frames
/// aimed at battle seat 0, and returns its final confirmed hash and the placements.
pub(super) async fn headless(url: String, code: String, name: &str, every: u64) -> (u64, Vec<u8>) {
    let mut c = BattleClient::connect(&url, name).await.expect("connects");
    c.join(&code, JoinRole::Player).await.expect("joins");
    c.ready().expect("ready");
    c.wait_for_start(TIMEOUT).await.expect("starts");
    let mut keys = headless_dropper(every, |me| Seat::new(usize::from(me == 0)));
    c.play(&mut keys, TIMEOUT).await.expect("plays to the end");
    let hash = c.session().expect("session").confirmed().state_hash();
    (hash, c.outcome().expect("result").placements.clone())
}

/// The match is over for `o`: announced, and its confirmed match reached the end.
pub(super) fn finished(o: &BattleOnline) -> bool {
    o.result().is_some() && o.session().is_some_and(|s| s.is_over())
}

/// A room of three seats with manual targets, reconnect window `window_s`: the game's
/// connection created it and is seated in seat 0; two headless players (hard drops every 5 and
/// 7 frames) are joined, ready and playing to the end in tasks that return their final hash.
pub(super) struct PlayingRoom {
    pub(super) server: LocalServer,
    pub(super) game: BattleOnline,
    others: Vec<tokio::task::JoinHandle<(u64, Vec<u8>)>>,
}

/// A [`PlayingRoom`] whose match has started.
pub(super) fn playing_room(window_s: u8) -> PlayingRoom {
    let server = LocalServer::start();
    let addr = server.addr().to_string();
    let url = format!("ws://{addr}/");
    let mut options = BattleRoomOptions::ffa(3);
    options.battle.targeting = Targeting::Manual;
    options.room.reconnect_seconds = window_s;
    let (mut game, code) = created(&addr, options);
    let rt = runtime().expect("runtime");
    let others = [("Bea", 5), ("Cid", 7)]
        .map(|(name, every)| rt.spawn(headless(url.clone(), code.clone(), name, every)))
        .into();
    until_full(&mut game, 3);
    game.ready();
    tick_until(&mut game, &mut idle, |o| o.session().is_some());
    PlayingRoom {
        server,
        game,
        others,
    }
}

impl PlayingRoom {
    /// Waits for the headless players' hashes, then stops the server.
    pub(super) fn finish(self) -> Vec<u64> {
        let rt = runtime().expect("runtime");
        let hashes = self
            .others
            .into_iter()
            .map(|t| rt.block_on(t).expect("task").0)
            .collect();
        drop(self.server);
        hashes
    }
}
