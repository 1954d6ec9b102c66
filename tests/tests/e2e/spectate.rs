//! End-to-end: a spectator who joins a match already in progress (a room of two seats)
//! fast-forwards through the server's match log and then follows live inputs to the same state
//! hashes as the players.

use std::collections::HashMap;
use std::time::Duration;

use sevenbag_netplay::{BattleClient, RandomInputs};
use sevenbag_protocol::JoinRole;
use sevenbag_tests::ffa::{all_started, connect, idle, options, seated};
use sevenbag_tests::players::match_config;

const MATCH_TIMEOUT: Duration = Duration::from_secs(45);

/// The frame a client's confirmed match has reached.
fn confirmed_frame(c: &BattleClient) -> u32 {
    c.session().map_or(0, |s| s.confirmed().frame().0)
}

/// Every state hash a client's session computed, by frame.
fn hashes(c: &BattleClient) -> HashMap<u32, u64> {
    c.session()
        .map(|s| s.hashes().iter().copied().collect())
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spectator_joining_mid_match_converges_to_the_same_hashes() {
    let server = sevenbag_tests::start_server(match_config(Duration::from_millis(300))).await;
    let url = server.url();
    let mut room = options(2);
    room.room.first_to = 2;
    let (mut players, code) = seated(&url, room, 2).await;
    all_started(&mut players).await;

    // Slow drops, so the match is surely still on when the spectator arrives.
    let tasks: Vec<_> = players
        .into_iter()
        .enumerate()
        .map(|(i, mut p)| {
            tokio::spawn(async move {
                let mut keys = RandomInputs::new(11 + i as u64)
                    .with_drop_every(4, 12)
                    .for_battle();
                let result = p.play(&mut keys, MATCH_TIMEOUT).await;
                (p, result)
            })
        })
        .collect();

    // A first spectator follows the match until it is well under way (frame 120, 2 s of play):
    // then eve joins a match in progress.
    let mut scout = connect(&url, "scout").await;
    scout.join(&code, JoinRole::Spectator).await.expect("watch");
    scout
        .wait_for(MATCH_TIMEOUT, |c| confirmed_frame(c) >= 120)
        .await
        .expect("the match gets under way");
    drop(scout);
    let mut eve = connect(&url, "eve").await;
    eve.join(&code, JoinRole::Spectator).await.expect("watch");
    eve.wait_for(Duration::from_secs(5), |c| c.session().is_some())
        .await
        .expect("the match log arrives while the match is running");
    let joined_at = confirmed_frame(&eve);
    assert!(joined_at >= 60, "joined mid-match, at frame {joined_at}");
    eve.play(&mut idle(), MATCH_TIMEOUT)
        .await
        .expect("eve sees the end");

    let mut done = Vec::new();
    for t in tasks {
        let (p, result) = t.await.expect("task");
        result.expect("a player finished");
        done.push(p);
    }
    let (alice, bob) = (&done[0], &done[1]);
    let result = alice.outcome().expect("a verdict");
    assert_eq!(bob.outcome(), Some(result));
    assert_eq!(eve.outcome(), Some(result));

    // Every hash the spectator computed, from the fast-forward on, is the players'.
    let players = hashes(alice);
    assert_eq!(players, hashes(bob));
    let theirs = hashes(&eve);
    assert!(!theirs.is_empty());
    for (frame, hash) in &theirs {
        assert_eq!(players.get(frame), Some(hash), "frame {frame}");
    }
    // Its confirmed match reached the end and saw every round, including those before it came.
    assert_eq!(eve.round_ends(), alice.round_ends());
    for c in [alice, bob, &eve] {
        assert_eq!(c.session().map_or(0, |s| s.stats().desyncs), 0);
    }
}
