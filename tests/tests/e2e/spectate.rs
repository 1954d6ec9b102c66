//! End-to-end: a spectator who joins a match already in progress fast-forwards through the
//! server's match log and then follows live inputs to the same state hashes as the players.

use std::collections::HashMap;
use std::time::Duration;

use sevenbag_netplay::Idle;
use sevenbag_protocol::{JoinRole, RoomOptions};
use sevenbag_tests::players::{connect, match_config, play, room};

const MATCH_TIMEOUT: Duration = Duration::from_secs(45);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spectator_joining_mid_match_converges_to_the_same_hashes() {
    let server = sevenbag_tests::start_server(match_config(Duration::from_millis(300))).await;
    let url = server.url();
    let options = RoomOptions {
        first_to: 2,
        ..RoomOptions::default()
    };
    let (mut alice, mut bob, _, code) = room(&url, options, false).await;
    alice.ready().expect("ready");
    bob.ready().expect("ready");

    // Slower drops than the match test, so the match is surely still on when the spectator
    // arrives.
    let a = play(alice, Some(11), (4, 12), MATCH_TIMEOUT);
    let b = play(bob, Some(12), (4, 12), MATCH_TIMEOUT);

    // A first spectator follows the match until it is well under way (frame 120, 2 s of play):
    // then eve joins a match in progress.
    let mut scout = connect(&url, "scout").await;
    scout
        .join_room(&code, JoinRole::Spectator)
        .await
        .expect("watch");
    scout
        .wait_for(MATCH_TIMEOUT, |c| {
            c.confirmed().is_some_and(|m| m.frame().0 >= 120)
        })
        .await
        .expect("the match gets under way");
    drop(scout);
    let mut eve = connect(&url, "eve").await;
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
