//! Through a real server with a database: a registered player identifies in quick match (a
//! room of two seats of the general kind), shows as their identity, and reports and blocks the opponent after the match; a guest is told how
//! to get an identity instead.

use std::time::Duration;

use sevenbag_protocol::moderation::ReportCategory;

use super::tests::{connect, run};
use super::{Online, Request};
use crate::net::battle::BattleOnline;
use crate::net::battle_fixture::{idle, tick_both_until, tick_until};
use crate::net::test_server::LocalServer;

/// A server on 127.0.0.1:0 that keeps identities (SQLite in its directory).
fn server() -> LocalServer {
    LocalServer::start_with(|config, dir| config.db = Some(dir.join("s.db")))
}

/// Registers `name` with `key` the way the game does: a ranked request (then leaves the queue).
fn register(addr: &str, name: &str, key: [u8; 32]) {
    let mut o = connect(addr, name, Request::Ranked(key));
    run(&mut [&mut o], 10, |c| c[0].identified());
    o.leave();
}

/// Polls `o` until a notice satisfies `wanted`, returning it.
fn notice(o: &mut Online, wanted: impl Fn(&str) -> bool) -> String {
    let mut seen = Vec::new();
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        o.tick(sevenbag_netplay::time::Instant::now(), &mut |_, _| {
            sevenbag_core::Input::NONE
        });
        for n in o.take_notices() {
            if wanted(&n) {
                return n;
            }
            seen.push(n);
        }
        assert!(
            std::time::Instant::now() < deadline,
            "no such notice: {seen:?}"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Ticks the room controller `o` idle until a notice satisfies `wanted`, returning it.
fn room_notice(o: &mut BattleOnline, wanted: impl Fn(&str) -> bool) -> String {
    let mut seen = Vec::new();
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        o.tick(sevenbag_netplay::time::Instant::now(), &mut idle);
        for n in o.take_notices() {
            if wanted(&n) {
                return n;
            }
            seen.push(n);
        }
        assert!(
            std::time::Instant::now() < deadline,
            "no such notice: {seen:?}"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn a_registered_player_reports_and_blocks_the_opponent_after_a_quick_match() {
    let server = server();
    let addr = server.addr().to_string();
    let (ann, bo) = ([7; 32], [8; 32]);
    register(&addr, "annie", ann);
    register(&addr, "bobby", bo);
    // Hello names differ from the identities': the identity's name is the one shown.
    let mut a = connect(&addr, "guestA", Request::QuickMatch).with_key(Some(ann));
    let mut b = connect(&addr, "guestB", Request::QuickMatch).with_key(Some(bo));
    // A quick match is a room of two seats of the general kind: the room controller takes
    // each connection over.
    run(&mut [&mut a, &mut b], 20, |c| {
        c.iter().all(|o| o.joined_battle())
    });
    assert!(a.identified() && b.identified());
    let mut a = BattleOnline::joined(a.take_battle().expect("handed over"));
    let mut b = BattleOnline::joined(b.take_battle().expect("handed over"));
    assert!(b.came_from_queue(), "a quick match offers Requeue");
    tick_both_until((&mut a, &mut idle), (&mut b, &mut idle), &|o| o.is_live());
    let mut names = b.names().to_vec();
    names.sort();
    assert_eq!(names, ["annie", "bobby"]);
    // Ann leaves: Bo wins by forfeit, and the server keeps the replay (not a ranked one).
    a.leave();
    tick_until(&mut b, &mut idle, |o| o.result().is_some());
    let replay = b.result().and_then(|r| r.replay.clone()).expect("a replay");
    assert!(!replay.contains("ranked"), "{replay}");
    b.report("annie", ReportCategory::Abuse, "insults in chat");
    room_notice(&mut b, |n| n.starts_with("Report sent"));
    b.block("annie", true);
    assert_eq!(
        room_notice(&mut b, |n| n.starts_with("Blocked")),
        "Blocked: annie."
    );
    drop((a, b));
    drop(server);
}

#[test]
fn a_guest_is_told_how_to_get_an_identity_instead_of_the_servers_error() {
    let server = server();
    let addr = server.addr().to_string();
    let mut a = connect(&addr, "annie", Request::Create(Default::default()));
    run(&mut [&mut a], 10, |c| c[0].code().is_some());
    a.block("bobby", true);
    let line = notice(&mut a, |_| true);
    assert!(line.contains("play one Ranked match"), "{line}");
    // A key this server does not know: identifying fails quietly, and the line says so.
    let mut b =
        connect(&addr, "bobby", Request::Create(Default::default())).with_key(Some([9; 32]));
    run(&mut [&mut b], 10, |c| c[0].code().is_some());
    b.report("annie", ReportCategory::Other, "spam");
    let line = notice(&mut b, |_| true);
    assert!(line.contains("does not know your player key"), "{line}");
    drop((a, b));
    drop(server);
}
