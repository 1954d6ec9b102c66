//! A game drawing few frames a second keeps the match clock in real time. Two
//! players simulate only 8 times a second (as a busy machine drawing 8 frames a second does),
//! yet both reach 10 s of match frames in about 10 s and nobody is forfeited.

use std::time::{Duration, Instant};

use sevenbag_netplay::{HeadlessClient, HeadlessConfig, RandomInputs};
use sevenbag_protocol::{JoinRole, RoomOptions, SeatStatus};
use sevenbag_tests::players::match_config;

/// Match frames both players must reach: 10 s at 60 Hz.
const TARGET: u32 = 600;

async fn slow_player(url: &str, name: &str) -> HeadlessClient {
    let config = HeadlessConfig {
        tick_every: Some(Duration::from_millis(125)),
        ..HeadlessConfig::new(name)
    };
    HeadlessClient::connect(url, config)
        .await
        .unwrap_or_else(|e| panic!("{name} connects: {e}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_simulating_8_times_a_second_keep_real_time_and_are_not_forfeited() {
    let start_delay = Duration::from_millis(600);
    let server = sevenbag_tests::start_server(match_config(start_delay)).await;
    let mut alice = slow_player(&server.url(), "alice").await;
    let code = alice
        .create_room(RoomOptions::default())
        .await
        .expect("room");
    let mut bob = slow_player(&server.url(), "bob").await;
    bob.join_room(&code, JoinRole::Player).await.expect("join");
    alice.ready().expect("ready");
    bob.ready().expect("ready");
    let started = Instant::now();
    let tasks = [(alice, 1u64), (bob, 2)].map(|(mut client, seed)| {
        tokio::spawn(async move {
            let mut keys = RandomInputs::new(seed).with_drop_every(40, 60);
            let reached = client
                .run_until(&mut keys, Duration::from_secs(40), |c| {
                    c.predicted().is_some_and(|m| m.frame().0 >= TARGET)
                })
                .await;
            (client, reached, started.elapsed())
        })
    });
    for task in tasks {
        let (client, reached, took) = task.await.expect("player task");
        reached.expect("reached 10 s of match frames");
        // Frame 0 comes `start_delay` after the match starts; 600 frames are 10 s after it. The
        // old catch-up limit (4 frames a tick, 32 a second at 8 ticks) took 19 s or more.
        let real_time = start_delay + Duration::from_secs(10);
        assert!(
            took < real_time + Duration::from_secs(3),
            "{:?}: {TARGET} match frames took {took:?} (real time: {real_time:?})",
            client.seat()
        );
        assert!(client.errors().is_empty(), "{:?}", client.errors());
        assert!(
            !client
                .seat_statuses()
                .contains(&Some(SeatStatus::Forfeited)),
            "nobody is forfeited"
        );
        assert!(client.match_result().is_none(), "the match is still on");
    }
}
