//! Through a real server on 127.0.0.1:0: the game's [`BattleOnline`] creates a free-for-all
//! room of three seats with manual targets, two headless `BattleClient`s join it by code, and
//! all three play to the end and agree on the final state hash; a spectator joined by code
//! through the two-seat controller is handed over and watches the same match. Quick play's
//! queue, and the room's chat. Taking a lost connection back: `battle_return_tests`; what both
//! share: `battle_fixture`.

use std::time::Duration;

use sevenbag_core::{Handling, Seat, Targeting};
use sevenbag_netplay::BattleClient;
use sevenbag_protocol::{BattleRoomOptions, JoinRole};

use super::battle::{BattleOnline, BattleStage};
use super::battle_fixture::{
    TIMEOUT, created, dropper, finished, handed_over, headless, idle, tick_until, until_full,
};
use crate::net::online::Request;
use crate::net::online::transport::runtime;
use crate::net::test_server::LocalServer;

#[test]
fn the_games_online_party_plays_a_three_seat_room_with_two_headless_clients_to_one_hash() {
    let mut server = LocalServer::start();
    let addr = server.addr().to_string();
    let url = format!("ws://{addr}/");
    let mut options = BattleRoomOptions::ffa(3);
    options.battle.targeting = Targeting::Manual;
    let (mut game, code) = created(&addr, options);
    assert_eq!(game.seat(), Some(0));

    let rt = runtime().expect("runtime");
    let others = [("Bea", 5), ("Cid", 7)]
        .map(|(name, every)| rt.spawn(headless(url.clone(), code.clone(), name, every)));
    // A spectator joins the code through the two-seat flow and is handed over.
    let mut watcher = handed_over(&addr, "Dee", Request::Spectate(code.clone()));
    assert!(watcher.is_spectator());

    until_full(&mut game, 3);
    game.ready();
    tick_until(&mut game, &mut idle, |o| o.session().is_some());
    assert_eq!(game.battle().seats(), 3);
    assert_eq!(game.battle_seat(), Some(Seat::First));
    // Our manual target goes out with our keys.
    game.set_target(Seat::new(2));
    let mut keys = dropper(6);
    tick_until(&mut game, &mut keys, finished);
    tick_until(&mut watcher, &mut idle, finished);

    let ours = game.session().expect("session").confirmed().state_hash();
    let placements = game.result().expect("result").placements.clone();
    let mut places = placements.clone();
    places.sort_unstable();
    assert_eq!(places, vec![1, 2, 3], "every seat placed once");
    let log = game.session().expect("session").log(0).expect("our log");
    assert!(
        log.target_changes().iter().any(|t| t.target == Some(2)),
        "our chosen target is in our log"
    );
    for task in others {
        let (hash, theirs) = rt.block_on(task).expect("task");
        assert_eq!(hash, ours, "a headless player ended on the game's hash");
        assert_eq!(theirs, placements);
    }
    assert_eq!(
        watcher.session().expect("session").confirmed().state_hash(),
        ours,
        "the spectator saw the same match"
    );
    game.leave();
    watcher.leave();
    let _ = server.stop();
}

#[test]
fn quick_play_waits_on_its_card_then_lands_in_the_room_the_queue_starts() {
    let mut server = LocalServer::start_with(|config, _| {
        config.quick_battle = sevenbag_server::QuickBattleConfig {
            needed: 3,
            countdown: Duration::from_millis(600),
            first_to: 1,
        };
    });
    let rt = runtime().expect("runtime");
    let addr = server.addr().to_string();
    let url = format!("ws://{addr}/");
    let mut game = BattleOnline::quick(&addr, "Ann", Handling::default());
    tick_until(
        &mut game,
        &mut idle,
        |o| matches!(o.stage(), BattleStage::Queued(w) if w.waiting == 1),
    );
    let BattleStage::Queued(wait) = game.stage().clone() else {
        unreachable!()
    };
    let now = sevenbag_netplay::time::Instant::now();
    assert_eq!(wait.card(now).0, "Waiting for 2 more players…");
    let others = ["Bea", "Cid"].map(|name| {
        let url = url.clone();
        rt.spawn(async move {
            let mut c = BattleClient::connect(&url, name).await.expect("connects");
            c.quick_play().await.expect("queued");
            let code = c.wait_for_room(TIMEOUT).await.expect("seated");
            (code, c)
        })
    });
    tick_until(&mut game, &mut idle, |o| o.code().is_some());
    assert_eq!(game.stage(), &BattleStage::InRoom);
    let code = game.code().expect("code").to_owned();
    // The headless players stay connected until the room is seen full: a dropped client's
    // seat would empty before the game reads the room.
    let mut seated = Vec::new();
    for task in others {
        let (theirs, client) = rt.block_on(task).expect("task");
        assert_eq!(theirs, code, "one room for all three");
        seated.push(client);
    }
    assert_eq!(game.options().map(|o| o.seats), Some(3));
    until_full(&mut game, 3);
    game.leave();
    rt.block_on(async move { drop(seated) });
    let _ = server.stop();
}

#[test]
fn cancelling_quick_play_takes_us_out_of_the_queue() {
    let mut server = LocalServer::start();
    let addr = server.addr().to_string();
    let mut game = BattleOnline::quick(&addr, "Ann", Handling::default());
    tick_until(&mut game, &mut idle, |o| {
        matches!(o.stage(), BattleStage::Queued(_))
    });
    game.leave();
    // Someone queueing next finds the queue empty but for themselves.
    let mut next = BattleOnline::quick(&addr, "Bea", Handling::default());
    tick_until(
        &mut next,
        &mut idle,
        |o| matches!(o.stage(), BattleStage::Queued(w) if w.waiting == 1),
    );
    next.leave();
    let _ = server.stop();
}

#[test]
fn chat_in_a_free_for_all_room_reaches_every_member() {
    let mut server = LocalServer::start();
    let addr = server.addr().to_string();
    let url = format!("ws://{addr}/");
    let (mut game, code) = created(&addr, BattleRoomOptions::ffa(3));
    let rt = runtime().expect("runtime");
    let bea = rt.block_on(async {
        let mut c = BattleClient::connect(&url, "Bea").await.expect("connects");
        c.join(&code, JoinRole::Player).await.expect("joins");
        c.send(sevenbag_protocol::ClientMessage::Chat {
            text: "gl hf".into(),
        })
        .expect("sends");
        c
    });
    let heard = |o: &BattleOnline, text: &str| o.chat().last(10).any(|l| l.text == text);
    tick_until(&mut game, &mut idle, |o| heard(o, "gl hf"));
    let line = game.chat().last(1).next().expect("a line").clone();
    assert_eq!(line.from, "Bea");
    // `Chat`'s seat is the two-seat wire's: in a room of several seats it only tells a
    // seated player from a spectator (docs/PROTOCOL.md).
    assert_eq!(line.seat, Some(Seat::First), "a seated player's line");
    game.say("you too".to_owned());
    tick_until(&mut game, &mut idle, |o| heard(o, "you too"));
    game.leave();
    rt.block_on(async move { drop(bea) });
    let _ = server.stop();
}

/// A player of a two-seat room whose link to the server is slow widens its prediction window
/// during the match, as a two-seat room's player does (the match starts on the default window;
/// only the re-estimates widen it), and the match still ends on the other player's hash.
#[test]
fn a_slow_player_of_a_two_seat_room_retunes_its_window_during_the_match() {
    use sevenbag_netplay::delay_proxy::{Proxy, ProxyConfig};
    use sevenbag_netplay::{DEFAULT_WINDOW, RETUNE_FRAMES};

    let mut server = LocalServer::start();
    let url = format!("ws://{}/", server.addr());
    let slow = ProxyConfig::latency(Duration::from_millis(120), Duration::ZERO, 7);
    let rt = runtime().expect("runtime");
    let (proxy, _udp) = rt
        .block_on(Proxy::start_pair(server.addr(), slow, slow))
        .expect("proxies");
    let (mut game, code) = created(&proxy.addr().to_string(), BattleRoomOptions::ffa(2));
    let other = rt.spawn(headless(url, code, "Bea", 5));
    until_full(&mut game, 2);
    game.ready();
    tick_until(&mut game, &mut idle, |o| o.session().is_some());
    assert_eq!(game.battle().seats(), 2);
    let mut keys = dropper(6);
    tick_until(&mut game, &mut keys, |o| {
        o.session()
            .is_some_and(|s| s.frame() > 2 * RETUNE_FRAMES || s.is_over())
    });
    let window = game.session().expect("session").options().window;
    assert!(
        window > DEFAULT_WINDOW,
        "the window widened to {window} for the slow link"
    );
    tick_until(&mut game, &mut keys, finished);
    let ours = game.session().expect("session").confirmed().state_hash();
    let (theirs, _) = rt.block_on(other).expect("task");
    assert_eq!(theirs, ours, "both players ended on one hash");
    game.leave();
    let _ = server.stop();
}

/// After a two-seat room's match the game asks the server for its replay (the S and G keys of
/// the result card) and gets the file it kept: a replay of two seats that verifies and counts.
#[test]
fn the_replay_of_a_finished_two_seat_match_comes_back_when_asked() {
    let mut server = LocalServer::start();
    let addr = server.addr().to_string();
    let url = format!("ws://{addr}/");
    let (mut game, code) = created(&addr, BattleRoomOptions::ffa(2));
    let rt = runtime().expect("runtime");
    let other = rt.spawn(headless(url, code, "Bea", 5));
    until_full(&mut game, 2);
    game.ready();
    let mut keys = dropper(6);
    tick_until(&mut game, &mut keys, finished);
    let _ = rt.block_on(other).expect("task");
    let id = game
        .result()
        .and_then(|r| r.replay.clone())
        .expect("the server kept a replay");
    game.fetch_replay(&id);
    let deadline = std::time::Instant::now() + TIMEOUT;
    let (got, bytes) = loop {
        game.tick(sevenbag_netplay::time::Instant::now(), &mut idle);
        if let Some(replay) = game.take_replay() {
            break replay;
        }
        assert!(std::time::Instant::now() < deadline, "no replay came");
        std::thread::sleep(Duration::from_millis(4));
    };
    assert_eq!(got, id);
    let opened = sevenbag_protocol::replay_file::open(&bytes).expect("a replay file");
    assert_eq!(opened.seats(), 2);
    opened.verify().expect("it verifies");
    // The G key's statistics count both seats' pieces from the same file.
    let stats = crate::match_stats::MatchStats::of(&opened.replay).expect("its statistics");
    assert_eq!(stats.seats.len(), 2);
    assert!(stats.seats.iter().all(|s| s.report.counts.pieces > 0));
    game.leave();
    let _ = server.stop();
}

#[test]
fn requeue_after_quick_play_queues_the_same_player_again_and_a_created_room_offers_none() {
    let mut server = LocalServer::start();
    let addr = server.addr().to_string();
    let mut game = BattleOnline::quick(&addr, "Ann", Handling::default());
    tick_until(&mut game, &mut idle, |o| {
        matches!(o.stage(), BattleStage::Queued(_))
    });
    assert!(game.came_from_queue(), "quick play offers Requeue");
    let mut again = game.requeue();
    game.leave();
    tick_until(
        &mut again,
        &mut idle,
        |o| matches!(o.stage(), BattleStage::Queued(w) if w.waiting == 1),
    );
    assert!(again.came_from_queue());
    again.leave();
    let mut room =
        BattleOnline::create(&addr, "Bea", Handling::default(), BattleRoomOptions::ffa(3));
    tick_until(&mut room, &mut idle, |o| o.code().is_some());
    assert!(
        !room.came_from_queue(),
        "a created room has no queue to go back to"
    );
    room.leave();
    let _ = server.stop();
}

/// LAN hosting: a room of two seats on a server this machine runs is advertised with its code
/// and port, and a player who hears the beacon joins it by that code.
#[test]
fn a_lan_hosted_room_is_advertised_and_a_player_who_hears_it_takes_the_second_seat() {
    use super::lan::{BeaconListener, BeaconSender, HostedServer, LanHosting};
    use std::net::{Ipv4Addr, SocketAddr};
    let dir = tempfile::tempdir().expect("temp dir");
    let server = HostedServer::start_on(Ipv4Addr::LOCALHOST, 0, dir.path().to_path_buf())
        .expect("a hosted server");
    let port = server.port();
    let mut listener =
        BeaconListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, 0))).expect("listener");
    let sender = BeaconSender::to(listener.local_addr().expect("addr")).expect("sender");
    let mut hosting = LanHosting {
        address: format!("127.0.0.1:{port}"),
        beacon: Some(sender),
        server,
    };
    let (mut host, code) = created(&hosting.address.clone(), BattleRoomOptions::ffa(2));
    let deadline = std::time::Instant::now() + TIMEOUT;
    let heard = loop {
        hosting.advertise(&code, "Ann");
        listener.poll(sevenbag_netplay::time::Instant::now());
        if let Some(h) = listener.hosts().into_iter().next() {
            break h;
        }
        assert!(std::time::Instant::now() < deadline, "no beacon heard");
        std::thread::sleep(Duration::from_millis(5));
    };
    assert_eq!(heard.beacon.code, code);
    assert_eq!(heard.addr, SocketAddr::from((Ipv4Addr::LOCALHOST, port)));
    let mut guest = BattleOnline::join(
        &heard.addr.to_string(),
        "Gus",
        Handling::default(),
        &heard.beacon.code,
        JoinRole::Player,
    );
    tick_until(&mut guest, &mut idle, |o| o.seat().is_some());
    assert_eq!(guest.seat(), Some(1));
    until_full(&mut host, 2);
}
