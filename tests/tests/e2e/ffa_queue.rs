//! End-to-end: quick play of several seats through the real server on 127.0.0.1:0. Players
//! wait in the free-for-all queue; a room starts when the countdown runs out with enough of
//! them, or at once with eight; whoever left the queue (or dropped) is not seated; and the
//! room the queue opens plays like any other, every client agreeing with the server's replay.

use std::time::Duration;

use sevenbag_protocol::{BattleRoomOptions, ClientMessage, ErrorCode};
use sevenbag_server::{Config, QuickBattleConfig};
use sevenbag_tests::ffa::{connect, play_all_seeded, queued, verified_replay};
use sevenbag_tests::players::match_config;

const SEATED: Duration = Duration::from_secs(5);

/// A server whose quick play needs three players and counts down `countdown`.
async fn server(countdown: Duration) -> sevenbag_tests::TestServer {
    let config = Config {
        quick_battle: QuickBattleConfig {
            needed: 3,
            countdown,
            first_to: 1,
        },
        ..match_config(Duration::from_millis(300))
    };
    sevenbag_tests::start_server(config).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_queued_players_get_a_room_after_the_countdown_and_play_it_to_the_end() {
    let server = server(Duration::from_millis(700)).await;
    let url = server.url();
    let a = queued(&url, "ann").await;
    let state = a.queue_state().expect("ann hears the queue");
    assert_eq!((state.waiting, state.needed, state.most), (1, 3, 8));
    assert_eq!(state.starts_in_ms, None, "one player: no countdown");
    let b = queued(&url, "bob").await;
    let c = queued(&url, "cat").await;
    let state = c.queue_state().expect("cat hears the queue");
    assert_eq!(state.waiting, 3);
    let left = state.starts_in_ms.expect("three wait: the countdown runs");
    assert!((300..=700).contains(&left), "{left} ms left");
    assert!(c.room_code().is_none(), "no room before the countdown ends");

    let mut players = vec![a, b, c];
    let mut codes = Vec::new();
    for p in players.iter_mut() {
        codes.push(p.wait_for_room(SEATED).await.expect("seated"));
    }
    assert!(codes.iter().all(|c| *c == codes[0]), "{codes:?}");
    let mut seats: Vec<_> = players.iter().map(|p| p.seat().expect("a seat")).collect();
    seats.sort();
    assert_eq!(seats, [0, 1, 2]);
    assert!(players[0].queue_state().is_none(), "no longer queued");
    let names = players[0].room().iter().flatten().map(|s| s.name.clone());
    assert_eq!(names.collect::<Vec<_>>(), ["ann", "bob", "cat"]);

    sevenbag_tests::ffa::all_ready(&mut players);
    let mut players = play_all_seeded(players, 7, false).await;
    let outcome = players[0].outcome().cloned().expect("a result");
    assert_eq!(outcome.placements.len(), 3);
    let (final_hash, replay) = verified_replay(&mut players[0]).await;
    assert_eq!(
        replay.header.options.targeting,
        sevenbag_core::Targeting::Even
    );
    assert!(replay.header.options.badges, "quick play has badges");
    for p in &players {
        assert_eq!(p.outcome(), Some(&outcome));
        let session = p.session().expect("played");
        assert!(session.is_over());
        assert_eq!(session.confirmed().state_hash(), final_hash);
        assert_eq!(session.stats().desyncs, 0);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn eight_queued_players_start_a_room_at_once() {
    // A countdown far longer than the test: only eight waiting can start this room.
    let server = server(Duration::from_secs(120)).await;
    let url = server.url();
    let mut players = Vec::new();
    for i in 0..8 {
        players.push(queued(&url, &format!("p{i}")).await);
    }
    let mut codes = Vec::new();
    for p in players.iter_mut() {
        codes.push(p.wait_for_room(SEATED).await.expect("seated at once"));
    }
    assert!(codes.iter().all(|c| *c == codes[0]), "{codes:?}");
    let mut seats: Vec<_> = players.iter().map(|p| p.seat().expect("a seat")).collect();
    seats.sort();
    assert_eq!(seats, (0..8).collect::<Vec<u8>>());
    // The room is an ordinary one: everyone ready starts its match.
    for p in players.iter_mut() {
        p.ready().expect("ready");
    }
    for p in players.iter_mut() {
        p.wait_for_start(SEATED).await.expect("the match starts");
        assert_eq!(p.names().len(), 8);
    }
    // A ninth player finds an empty queue.
    let ninth = queued(&url, "p8").await;
    assert_eq!(ninth.queue_state().map(|s| s.waiting), Some(1));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_who_leaves_the_queue_or_drops_is_not_seated() {
    let server = server(Duration::from_millis(1500)).await;
    let url = server.url();
    let mut ann = queued(&url, "ann").await;
    let mut bob = queued(&url, "bob").await;
    let mut quitter = queued(&url, "quitter").await;
    let mut dropper = queued(&url, "dropper").await;
    quitter.leave_queue().expect("leaves");
    dropper.drop_connection();
    // Two are left: the countdown stops (nobody is seated however long they wait).
    ann.idle_for(Duration::from_millis(2000)).await;
    assert!(ann.room_code().is_none(), "two players get no room");
    let state = ann.queue_state().expect("still queued");
    assert_eq!((state.waiting, state.starts_in_ms), (2, None));
    let mut cat = queued(&url, "cat").await;
    let mut codes = Vec::new();
    for p in [&mut ann, &mut bob, &mut cat] {
        codes.push(p.wait_for_room(SEATED).await.expect("seated"));
    }
    assert!(codes.iter().all(|c| *c == codes[0]));
    let names: Vec<_> = ann
        .room()
        .iter()
        .flatten()
        .map(|s| s.name.clone())
        .collect();
    assert_eq!(names, ["ann", "bob", "cat"]);
    quitter.idle_for(Duration::from_millis(300)).await;
    assert!(
        quitter.room_code().is_none(),
        "who left the queue has no room"
    );
    assert!(quitter.errors().is_empty(), "{:?}", quitter.errors());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_who_queues_again_waits_once_and_a_seated_one_is_refused() {
    let server = server(Duration::from_secs(120)).await;
    let url = server.url();
    let mut ann = queued(&url, "ann").await;
    for _ in 0..5 {
        ann.quick_play().await.expect("answered again");
        assert_eq!(ann.queue_state().map(|s| s.waiting), Some(1));
    }
    let bob = queued(&url, "bob").await;
    assert_eq!(bob.queue_state().map(|s| s.waiting), Some(2));
    ann.wait_for(SEATED, |c| c.queue_state().map(|s| s.waiting) == Some(2))
        .await
        .expect("told of bob");
    assert!(ann.errors().is_empty(), "{:?}", ann.errors());

    // A player in a room cannot queue.
    let mut host = connect(&url, "host").await;
    host.create(BattleRoomOptions::ffa(3)).await.expect("room");
    host.send(ClientMessage::QuickBattle { on: true })
        .expect("send");
    host.wait_for(SEATED, |c| !c.errors().is_empty())
        .await
        .expect("an answer");
    assert!(
        host.errors()
            .iter()
            .any(|e| e.code == ErrorCode::BadMessage && !e.fatal),
        "{:?}",
        host.errors()
    );
    let cat = queued(&url, "cat").await;
    assert_eq!(
        cat.queue_state().map(|s| s.waiting),
        Some(3),
        "the host was not queued"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_who_never_readies_is_given_up_and_the_ready_ones_start() {
    let config = Config {
        quick_battle: QuickBattleConfig {
            needed: 3,
            countdown: Duration::from_millis(300),
            first_to: 1,
        },
        quick_battle_ready_timeout: Duration::from_secs(1),
        ..match_config(Duration::from_millis(300))
    };
    let server = sevenbag_tests::start_server(config).await;
    let url = server.url();
    let mut ann = queued(&url, "ann").await;
    let mut bob = queued(&url, "bob").await;
    let mut idler = queued(&url, "idler").await;
    for p in [&mut ann, &mut bob, &mut idler] {
        p.wait_for_room(SEATED).await.expect("seated");
    }
    ann.ready().expect("ready");
    bob.ready().expect("ready");
    // The idler never readies: the match starts without them.
    for p in [&mut ann, &mut bob] {
        p.wait_for_start(SEATED).await.expect("the match starts");
        assert_eq!(p.names(), ["ann", "bob"]);
    }
    idler
        .wait_for(SEATED, |c| {
            c.errors().iter().any(|e| e.code == ErrorCode::SeatLost)
        })
        .await
        .expect("the idler hears why");
    let told = &idler.errors()[0];
    assert!(!told.fatal, "{told:?}");
    assert!(told.message.contains("not ready"), "{}", told.message);
    idler
        .wait_for(SEATED, |c| c.seat().is_none())
        .await
        .expect("the idler watches");
}
