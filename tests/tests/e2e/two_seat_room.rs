//! End-to-end: a room of the general kind with two seats, through the real server on
//! 127.0.0.1:0. It plays like a room of eight, and its match is the versus match of SPEC §5 to
//! the hash: the replay the server kept, read as a two-seat replay, re-simulates on the versus
//! `Match` with every recorded hash, round and the result matching. Its policy is the versus
//! one: a player who leaves forfeits, and the policy survives a restart.

use std::time::Duration;

use sevenbag_core::Seat;
use sevenbag_protocol::{ClientMessage, EndReason, ErrorCode, verify};
use sevenbag_tests::ffa::{
    MATCH_TIMEOUT, all_started, final_hash, options, play_all, plays_on_across_a_restart,
    random_keys, seated, verified_replay,
};
use sevenbag_tests::players::match_config;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_two_seat_room_plays_to_the_hashes_of_a_versus_match() {
    let server = sevenbag_tests::start_server(match_config(Duration::from_millis(300))).await;
    let (mut players, _code) = seated(&server.url(), options(2), 2).await;
    all_started(&mut players).await;
    let mut players = play_all(players, false).await;

    let outcome = players[0].outcome().cloned().expect("a result");
    assert_eq!(outcome.reason, EndReason::TopOut);
    assert_eq!(outcome.placements.len(), 2);
    let (server_hash, replay) = verified_replay(&mut players[0]).await;
    for p in &players {
        assert_eq!(p.outcome(), Some(&outcome));
        assert_eq!(final_hash(p), server_hash, "{:?}", p.names());
        assert_eq!(p.session().map(|s| s.stats().desyncs), Some(0));
        assert_eq!(p.round_ends(), players[0].round_ends(), "the same rounds");
    }
    assert!(!players[0].round_ends().is_empty());

    let versus = replay
        .to_versus()
        .expect("a two-seat room's match is a plain versus match");
    let report = verify(&versus).expect("it verifies as a versus match");
    assert!(report.hashes_checked > 0, "hashes were compared");
    assert_eq!(report.final_hash, server_hash, "the same final hash");
    let winner = outcome
        .placements
        .iter()
        .position(|&p| p == 1)
        .expect("a first place");
    assert_eq!(
        report.result.winner.map(|s| s.index()),
        Some(winner),
        "the same winner"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_who_leaves_a_two_seat_room_forfeits_and_the_other_wins_at_once() {
    let server = sevenbag_tests::start_server(match_config(Duration::from_millis(300))).await;
    let (mut players, _code) = seated(&server.url(), options(2), 2).await;
    all_started(&mut players).await;
    let mut leaver = players.pop().expect("two players");
    let mut stayer = players.pop().expect("two players");
    leaver.send(ClientMessage::LeaveRoom).expect("sends");

    stayer
        .play(&mut random_keys(5, false), MATCH_TIMEOUT)
        .await
        .expect("the match ends");
    let outcome = stayer.outcome().cloned().expect("a result");
    assert_eq!(outcome.reason, EndReason::Forfeit);
    assert_eq!(outcome.winner, Some(0), "the one who stayed wins");
    assert_eq!(outcome.placements, [1, 2]);

    let (_, replay) = verified_replay(&mut stayer).await;
    let versus = replay.to_versus().expect("a plain two-seat match");
    let report = verify(&versus).expect("it verifies as a versus forfeit");
    assert_eq!(report.result.reason, EndReason::Forfeit);
    assert_eq!(report.result.winner, Some(Seat::First));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_two_seat_room_takes_its_match_up_again_after_a_restart() {
    plays_on_across_a_restart(2, 40).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_gone_silent_in_a_two_seat_room_forfeits_and_is_told_why() {
    let mut config = match_config(Duration::from_millis(300));
    config.limits.max_frames_behind = 30;
    config.limits.max_silence = Duration::from_secs(1);
    let server = sevenbag_tests::start_server(config).await;
    let (mut players, _code) = seated(&server.url(), options(2), 2).await;
    all_started(&mut players).await;
    // The second player's client is never ticked again: it sends nothing.
    let mut silent = players.pop().expect("two players");
    let mut stayer = players.pop().expect("two players");

    stayer
        .play(&mut random_keys(7, false), MATCH_TIMEOUT)
        .await
        .expect("the match ends");
    let outcome = stayer.outcome().cloned().expect("a result");
    assert_eq!(outcome.reason, EndReason::Forfeit);
    assert_eq!(outcome.winner, Some(0));

    silent
        .wait_for(MATCH_TIMEOUT, |c| c.outcome().is_some())
        .await
        .expect("the silent player hears the end");
    let told = silent
        .errors()
        .iter()
        .find(|e| e.code == ErrorCode::Timeout);
    let told = told.expect("the silent player is told why");
    assert!(
        told.message.ends_with("you forfeit the match"),
        "{}",
        told.message
    );
    assert_eq!(silent.outcome(), Some(&outcome), "and hears the result");
}
