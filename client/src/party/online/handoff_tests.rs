//! Through a real server on 127.0.0.1:0: a code typed into the two-seat "join room" flow that
//! names a free-for-all room opens the free-for-all screen on the same connection; a versus
//! room's code stays with the versus screen.

use std::time::Duration;

use sevenbag_core::Handling;
use sevenbag_netplay::time::Instant;
use sevenbag_protocol::{BattleRoomOptions, RoomOptions};

use super::PartyOnlineScreen;
use crate::input::KeyMap;
use crate::net::battle::BattleOnline;
use crate::net::online::{Online, Request, Stage};
use crate::net::test_server::LocalServer;
use crate::screen::Screen;
use crate::versus::online::battle_room_screen;

/// The opener the game hands the versus screens (`Ctx::open_battle_room`).
fn open_room(online: BattleOnline) -> Box<dyn Screen> {
    Box::new(PartyOnlineScreen::new(online))
}

fn within(mut done: impl FnMut() -> bool) {
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while !done() {
        assert!(std::time::Instant::now() < deadline, "timed out");
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn join(addr: &str, code: &str) -> Online {
    Online::connect(
        addr,
        "Bea",
        Handling::default(),
        KeyMap::guideline(),
        Request::Join(code.to_owned()),
    )
}

#[test]
fn a_free_for_all_rooms_code_joined_by_code_opens_the_party_screen() {
    let server = LocalServer::start();
    let addr = server.addr().to_string();
    let mut host =
        BattleOnline::create(&addr, "Ann", Handling::default(), BattleRoomOptions::ffa(4));
    within(|| {
        host.poll(Instant::now());
        host.code().is_some()
    });
    let code = host.code().expect("code").to_owned();

    let mut guest = join(&addr, &code);
    within(|| {
        guest.poll(Instant::now());
        guest.joined_battle()
    });
    let screen = battle_room_screen(&mut guest, open_room).expect("handed over");
    assert_eq!(screen.name(), "party-online");
    // The host sees the guest in the room's second seat.
    within(|| {
        host.poll(Instant::now());
        host.room().get(1).is_some_and(Option::is_some)
    });

    // A versus room's code stays with the versus screen.
    let mut versus = Online::connect(
        &addr,
        "Cid",
        Handling::default(),
        KeyMap::guideline(),
        Request::Create(RoomOptions::default()),
    );
    within(|| {
        versus.poll(Instant::now());
        versus.code().is_some()
    });
    let mut guest = join(&addr, versus.code().expect("code"));
    within(|| {
        guest.poll(Instant::now());
        guest.stage() == &Stage::InRoom
    });
    assert!(battle_room_screen(&mut guest, open_room).is_none());
    host.leave();
    drop(server);
}
