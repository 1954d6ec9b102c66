//! Through a real server on 127.0.0.1:0, the game's [`BattleOnline`] takes a lost connection
//! back: a player cut mid-match resumes its seat and ends on the others' hash (the server's
//! replay re-simulates to it), a player back after the window watches instead, a spectator
//! joins again, a player handed over by the two-seat controller resumes with the token it
//! handed over, and a match survives a server restart through its room log.

use std::time::Duration;

use sevenbag_core::Handling;
use sevenbag_netplay::BattleClient;
use sevenbag_protocol::{BattleRoomOptions, JoinRole};

use super::battle::{BattleOnline, BattleStage};
use super::battle_fixture::{
    TIMEOUT, created, dropper, finished, handed_over, headless, headless_dropper, idle,
    playing_room, tick_both_until, tick_until, until_full,
};
use crate::net::online::Request;
use crate::net::online::transport::runtime;
use crate::net::test_server::LocalServer;

/// Fetches replay `id` from the server at `addr` through a headless client and re-simulates it
/// (every recorded hash, round and the result check out); returns its final hash.
fn verified_replay_hash(addr: &str, id: &str) -> u64 {
    let url = format!("ws://{addr}/");
    let rt = runtime().expect("runtime");
    let bytes = rt.block_on(async {
        let mut c = BattleClient::connect(&url, "Rex").await.expect("connects");
        c.fetch_replay(id).await.expect("replay bytes")
    });
    let Ok(sevenbag_protocol::AnyReplay::Battle(replay)) = sevenbag_protocol::read_any(&bytes)
    else {
        panic!("a replay of several seats");
    };
    let report = sevenbag_protocol::verify_battle(&replay).expect("the replay verifies");
    report.final_hash
}

#[test]
fn a_player_whose_connection_drops_reconnects_and_plays_the_match_to_the_end() {
    let mut room = playing_room(10);
    let mut keys = dropper(6);
    let game = &mut room.game;
    tick_until(game, &mut keys, |o| {
        o.session().is_some_and(|s| s.frame() > 120)
    });
    game.cut_connection();
    let t0 = sevenbag_netplay::time::Instant::now();
    tick_until(game, &mut keys, |o| o.reconnecting(t0).is_some());
    assert_eq!(game.frames_due(), 0, "the match waits while reconnecting");
    tick_until(game, &mut keys, |o| o.reconnecting(t0).is_none());
    assert_eq!(game.stage(), &BattleStage::InRoom);
    assert_eq!(game.seat(), Some(0), "the seat is ours again");
    assert!(!game.seat_lost());
    tick_until(game, &mut keys, finished);
    let ours = game.session().expect("session").confirmed().state_hash();
    assert_eq!(game.matches_started(), 1, "the same match, resumed");
    let id = game
        .result()
        .and_then(|r| r.replay.clone())
        .expect("a replay");
    let addr = room.server.addr().to_string();
    assert_eq!(
        verified_replay_hash(&addr, &id),
        ours,
        "the server's replay verifies"
    );
    let game = &mut room.game;
    game.leave();
    for hash in room.finish() {
        assert_eq!(hash, ours, "every player ended on the same match");
    }
}

#[test]
fn a_player_back_after_the_window_is_told_its_seat_was_lost_and_watches_the_end() {
    let mut room = playing_room(1);
    let mut keys = dropper(6);
    let game = &mut room.game;
    tick_until(game, &mut keys, |o| {
        o.session().is_some_and(|s| s.frame() > 60)
    });
    game.cut_connection();
    // Not polled for longer than the window (a machine asleep): the room plays the seat out.
    std::thread::sleep(Duration::from_millis(2500));
    tick_until(game, &mut keys, |o| o.seat_lost() && o.session().is_some());
    assert!(game.is_spectator(), "watching now");
    assert_eq!(game.battle_seat(), None);
    assert_eq!(game.stage(), &BattleStage::InRoom);
    let notices = game.take_notices();
    assert!(
        notices.iter().any(|n| n.contains("played out")),
        "{notices:?}"
    );
    tick_until(game, &mut keys, finished);
    let ours = game.session().expect("session").confirmed().state_hash();
    game.leave();
    for hash in room.finish() {
        assert_eq!(
            hash, ours,
            "the late player watched the match the others played"
        );
    }
}

#[test]
fn a_spectator_whose_connection_drops_joins_again_and_watches_the_end() {
    let mut room = playing_room(10);
    let addr = room.server.addr().to_string();
    let code = room.game.code().expect("code").to_owned();
    let mut watcher = BattleOnline::join(
        &addr,
        "Dee",
        Handling::default(),
        &code,
        JoinRole::Spectator,
    );
    let mut keys = dropper(6);
    // Both ticked in turn: the game plays its seat, the spectator watches.
    let mut both = |game: &mut BattleOnline,
                    watcher: &mut BattleOnline,
                    done: &dyn Fn(&BattleOnline) -> bool| {
        tick_both_until((game, &mut keys), (watcher, &mut idle), done)
    };
    both(&mut room.game, &mut watcher, &|w| {
        w.session().is_some_and(|s| s.frame() > 60)
    });
    watcher.cut_connection();
    let t0 = sevenbag_netplay::time::Instant::now();
    both(&mut room.game, &mut watcher, &|w| {
        w.reconnecting(t0).is_some()
    });
    both(&mut room.game, &mut watcher, &|w| {
        w.reconnecting(t0).is_none()
    });
    assert!(watcher.is_spectator());
    assert!(!watcher.seat_lost(), "a spectator had no seat to lose");
    both(&mut room.game, &mut watcher, &finished);
    tick_until(&mut room.game, &mut keys, finished);
    let ours = room
        .game
        .session()
        .expect("session")
        .confirmed()
        .state_hash();
    let seen = watcher.session().expect("session").confirmed().state_hash();
    assert_eq!(seen, ours, "the spectator saw the match played");
    room.game.leave();
    watcher.leave();
    for hash in room.finish() {
        assert_eq!(hash, ours);
    }
}

#[test]
fn a_free_for_all_match_survives_a_server_restart_and_the_game_takes_it_up_again() {
    let mut server = LocalServer::start();
    let rt = runtime().expect("runtime");
    let addr = server.addr();
    let url = format!("ws://{addr}/");
    let (mut game, code) = created(&addr.to_string(), BattleRoomOptions::ffa(3));
    // Headless players: play until the server goes away, come back with the token once it is
    // up again, and play to the end.
    let others: Vec<_> = [("Bea", 5u64), ("Cid", 7)]
        .into_iter()
        .map(|(name, every)| {
            let (url, code) = (url.clone(), code.clone());
            rt.spawn(async move {
                let mut c = BattleClient::connect(&url, name).await.expect("connects");
                c.join(&code, JoinRole::Player).await.expect("joins");
                c.ready().expect("ready");
                c.wait_for_start(TIMEOUT).await.expect("starts");
                let mut keys = headless_dropper(every, |_| None);
                c.play_for(&mut keys, TIMEOUT).await;
                let mut back = false;
                for _ in 0..100 {
                    if c.reconnect().await.is_ok() {
                        back = true;
                        break;
                    }
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                assert!(back, "{name} came back after the restart");
                c.play(&mut keys, TIMEOUT).await.expect("plays to the end");
                c.session().expect("session").confirmed().state_hash()
            })
        })
        .collect();
    until_full(&mut game, 3);
    game.ready();
    let mut keys = dropper(6);
    tick_until(&mut game, &mut keys, |o| {
        o.session().is_some_and(|s| s.frame() > 120)
    });
    server.stop().expect("stopped in time").expect("stopped");
    // Down for a second and a half: the game says so and keeps trying.
    let t0 = sevenbag_netplay::time::Instant::now();
    tick_until(&mut game, &mut keys, |o| o.reconnecting(t0).is_some());
    let notices = game.take_notices();
    assert!(
        notices.iter().any(|n| n.contains("restarting")),
        "{notices:?}"
    );
    let back = std::time::Instant::now() + Duration::from_millis(1500);
    tick_until(&mut game, &mut keys, |_| std::time::Instant::now() >= back);
    assert!(game.reconnect_attempts() >= 1);
    server.start_again();
    tick_until(&mut game, &mut keys, |o| o.reconnecting(t0).is_none());
    assert_eq!(game.seat(), Some(0), "our seat, from the room log");
    tick_until(&mut game, &mut keys, finished);
    let ours = game.session().expect("session").confirmed().state_hash();
    for task in others {
        assert_eq!(rt.block_on(task).expect("task"), ours);
    }
    game.leave();
    let _ = server.stop();
}

#[test]
fn a_player_handed_over_by_the_two_seat_controller_resumes_with_its_token() {
    let mut server = LocalServer::start();
    let addr = server.addr().to_string();
    let url = format!("ws://{addr}/");
    let mut options = BattleRoomOptions::ffa(3);
    options.room.reconnect_seconds = 10;
    let (mut host, code) = created(&addr, options);
    // Bea types the code into the two-seat flow and is handed over.
    let mut guest = handed_over(&addr, "Bea", Request::Join(code.clone()));
    assert_eq!(guest.seat(), Some(1));
    let rt = runtime().expect("runtime");
    let cid = rt.spawn(headless(url, code, "Cid", 7));
    tick_until(&mut host, &mut idle, |o| {
        o.room().iter().filter(|s| s.is_some()).count() == 3
    });
    host.ready();
    guest.ready();
    let mut host_keys = dropper(5);
    let mut guest_keys = dropper(6);
    let mut both = |host: &mut BattleOnline,
                    guest: &mut BattleOnline,
                    done: &dyn Fn(&BattleOnline) -> bool| {
        tick_both_until((host, &mut host_keys), (guest, &mut guest_keys), done)
    };
    both(&mut host, &mut guest, &|g| {
        g.session().is_some_and(|s| s.frame() > 120)
    });
    guest.cut_connection();
    let t0 = sevenbag_netplay::time::Instant::now();
    both(&mut host, &mut guest, &|g| g.reconnecting(t0).is_some());
    both(&mut host, &mut guest, &|g| g.reconnecting(t0).is_none());
    assert_eq!(
        guest.seat(),
        Some(1),
        "the seat came back with the handed-over token"
    );
    assert!(!guest.seat_lost());
    both(&mut host, &mut guest, &finished);
    let ours = guest.session().expect("session").confirmed().state_hash();
    let (theirs, _) = rt.block_on(cid).expect("task");
    assert_eq!(theirs, ours);
    host.leave();
    guest.leave();
    let _ = server.stop();
}
