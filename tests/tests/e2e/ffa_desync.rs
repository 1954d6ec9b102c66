//! End-to-end: the desync checks of a room of several seats name the board that diverged. A
//! client that reports a wrong board hash for one seat (its whole-match hash and every other
//! board right) is told `BattleDesync` naming that seat and gets the match log to rebuild from;
//! the others are told nothing, and after the rebuild its hashes agree with theirs again. A
//! wrong compact hash (`BattleHash`) is answered with the server's board hashes and the log.

use std::collections::HashMap;
use std::time::Duration;

use sevenbag_protocol::ClientMessage;
use sevenbag_tests::ffa::{all_started, idle_all, lie_then_play_until_told, options, seated};
use sevenbag_tests::players::match_config;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_lying_about_one_board_is_told_that_seat_and_the_others_carry_on() {
    let server = sevenbag_tests::start_server(match_config(Duration::from_millis(300))).await;
    let url = server.url();
    let (mut players, _) = seated(&url, options(4), 4).await;
    all_started(&mut players).await;
    let liar = players.pop().expect("seat 3");
    let lying = tokio::spawn(lie_then_play_until_told(
        liar,
        |session, frame, hash| {
            let mut seats = session
                .seat_hashes_at(frame)
                .expect("board hashes")
                .to_vec();
            assert_eq!(seats.len(), 4);
            seats[1] ^= 0x5eed;
            ClientMessage::BattleStateHash { frame, hash, seats }
        },
        Duration::from_secs(2),
    ));
    let players = idle_all(players, Duration::from_secs(6)).await;
    let liar = lying.await.expect("liar task");
    let session = liar.session().expect("a session");
    assert_eq!(session.stats().desyncs, 1, "told once");
    assert_eq!(session.diverged_seats(), &[1], "the lie was about seat 1");
    assert!(session.stats().rebuilds >= 1, "rebuilt from the log");
    assert!(liar.disconnect_reason().is_none(), "told, not cut");
    let theirs: HashMap<u32, u64> = players[0]
        .session()
        .expect("a match")
        .hashes()
        .iter()
        .copied()
        .collect();
    let common: Vec<_> = session
        .hashes()
        .iter()
        .filter(|(f, _)| theirs.contains_key(f))
        .collect();
    assert!(!common.is_empty(), "hashes after the rebuild to compare");
    for (frame, hash) in common {
        assert_eq!(theirs[frame], *hash, "frame {frame}: the liar agrees again");
    }
    for p in &players {
        let s = p.session().expect("a match");
        assert_eq!(s.stats().desyncs, 0, "{:?}: nothing to tell", p.names());
        assert!(s.diverged_seats().is_empty());
        assert!(p.errors().is_empty(), "{:?}", p.errors());
        assert!(p.disconnect_reason().is_none(), "carries on");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_compact_hash_is_answered_with_the_servers_boards_and_a_log() {
    let server = sevenbag_tests::start_server(match_config(Duration::from_millis(300))).await;
    let url = server.url();
    let (mut players, _) = seated(&url, options(3), 3).await;
    all_started(&mut players).await;
    let liar = players.pop().expect("seat 2");
    let lying = tokio::spawn(lie_then_play_until_told(
        liar,
        |_, frame, hash| ClientMessage::BattleHash {
            frame,
            hash: hash ^ 0x5eed,
        },
        Duration::from_secs(1),
    ));
    let players = idle_all(players, Duration::from_secs(5)).await;
    let liar = lying.await.expect("liar task");
    let session = liar.session().expect("a session");
    assert_eq!(session.stats().desyncs, 1, "told once");
    assert!(
        session.diverged_seats().is_empty(),
        "its boards agree with the server's: {:?}",
        session.diverged_seats()
    );
    assert!(session.stats().rebuilds >= 1, "rebuilt from the log");
    assert!(liar.disconnect_reason().is_none(), "told, not cut");
    for p in &players {
        assert_eq!(p.session().expect("a match").stats().desyncs, 0);
        assert!(p.disconnect_reason().is_none(), "carries on");
    }
}
