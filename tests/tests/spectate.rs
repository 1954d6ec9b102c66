//! End-to-end: a spectator who joins a match already in progress fast-forwards through the
//! server's match log and then follows live inputs to the same state hashes as the players.

use std::collections::HashMap;
use std::time::Duration;

use sevenbag_netplay::{HeadlessClient, HeadlessConfig, Idle, RandomInputs};
use sevenbag_protocol::{JoinRole, RoomOptions};
use sevenbag_server::Config;

const MATCH_TIMEOUT: Duration = Duration::from_secs(45);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spectator_joining_mid_match_converges_to_the_same_hashes() {
    let server = sevenbag_tests::start_server(Config {
        countdown_frames: Some(30),
        round_break_frames: Some(30),
        start_delay: Duration::from_millis(300),
        ..sevenbag_tests::fast_config()
    })
    .await;
    let url = server.url();
    let mut alice = HeadlessClient::connect(&url, HeadlessConfig::new("alice"))
        .await
        .expect("connect");
    let options = RoomOptions {
        first_to: 2,
        ..RoomOptions::default()
    };
    let code = alice.create_room(options).await.expect("room");
    let mut bob = HeadlessClient::connect(&url, HeadlessConfig::new("bob"))
        .await
        .expect("connect");
    bob.join_room(&code, JoinRole::Player).await.expect("join");
    alice.ready().expect("ready");
    bob.ready().expect("ready");

    let play = |mut client: HeadlessClient, seed: u64| {
        tokio::spawn(async move {
            // Slower drops than the match test, so the match is surely still on when the
            // spectator arrives.
            let mut keys = RandomInputs::new(seed).with_drop_every(4, 12);
            let result = client.play_match(&mut keys, MATCH_TIMEOUT).await;
            (client, result)
        })
    };
    let a = play(alice, 11);
    let b = play(bob, 12);

    // Let the match run for a while (300 ms to frame 0, then about 2.5 s of play).
    tokio::time::sleep(Duration::from_millis(3000)).await;
    let mut eve = HeadlessClient::connect(&url, HeadlessConfig::new("eve"))
        .await
        .expect("connect");
    eve.join_room(&code, JoinRole::Spectator)
        .await
        .expect("watch");
    eve.wait_for(Duration::from_secs(5), |c| c.is_live())
        .await
        .expect("the match log arrives while the match is running");
    let joined_at = eve.confirmed().map(|m| m.frame().0).unwrap_or(0);
    assert!(joined_at >= 60, "joined mid-match, at frame {joined_at}");
    eve.play_match(&mut Idle, MATCH_TIMEOUT)
        .await
        .expect("eve sees the end");

    let (alice, ra) = a.await.expect("task");
    let (bob, rb) = b.await.expect("task");
    let result = ra.expect("alice finished");
    assert_eq!(rb.expect("bob finished"), result);
    assert_eq!(eve.match_result(), Some(&result));

    // Every hash the spectator computed, from the fast-forward on, is the players'.
    let players: HashMap<u32, u64> = alice.hashes().iter().copied().collect();
    assert_eq!(players, bob.hashes().iter().copied().collect());
    let theirs = eve.hashes();
    assert!(!theirs.is_empty());
    for (frame, hash) in theirs {
        assert_eq!(players.get(frame), Some(hash), "frame {frame}");
    }
    // Its confirmed match reached the end and saw every round, including those before it came.
    assert_eq!(eve.round_ends(), alice.round_ends());
    // Announcements only reach it from the join on: a tail of the players' list.
    assert!(alice.round_results().ends_with(eve.round_results()));
    assert!(eve.desyncs().is_empty() && alice.desyncs().is_empty() && bob.desyncs().is_empty());
}
