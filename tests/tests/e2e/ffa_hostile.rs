//! End-to-end: hostile players of a room of eight sending bad compact inputs
//! (`BattleInputsSince`) through the real server: before any inputs to count from, confirming
//! frames far past the match clock, an offset past the largest frame, key changes out of order,
//! a target seat that does not exist, and a flood. Each is cut with a reason that says what was
//! wrong; the two honest players play the match to its end, agreeing with the server's replay,
//! and hear no error.

use std::time::Duration;

use sevenbag_core::Input;
use sevenbag_protocol::{ClientMessage, ErrorCode, InputStep, TargetStep};
use sevenbag_tests::ffa::{all_started, final_hash, options, play_all, seated_on, verified_replay};
use sevenbag_tests::players::match_config;

/// A `BattleInputsSince` of `steps` (after, keys), `frames` and `targets` (after, seat).
fn since(steps: &[(u32, Input)], frames: u32, targets: &[(u32, u8)]) -> ClientMessage {
    ClientMessage::BattleInputsSince {
        steps: steps
            .iter()
            .map(|&(after, input)| InputStep { after, input })
            .collect(),
        frames,
        targets: targets
            .iter()
            .map(|&(after, t)| TargetStep {
                after,
                target: Some(t),
            })
            .collect(),
    }
}

/// A plain `BattleInputs` confirming frame 0: the base compact inputs count from.
fn base() -> ClientMessage {
    ClientMessage::BattleInputs {
        changes: vec![],
        targets: vec![],
        confirmed: 1,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_compact_inputs_are_cut_with_a_reason_and_the_honest_players_finish() {
    let server = sevenbag_tests::start_server(match_config(Duration::from_millis(300))).await;
    let url = server.url();
    // The hostile six speak the WebSocket's compact form; the honest two use datagrams.
    let (mut players, _) = seated_on(&url, options(8), 8, |i| i < 2).await;
    all_started(&mut players).await;
    let mut hostile = players.split_off(2);
    // (who, what they send, the error code, words the reason must hold)
    let cases: [(&str, Vec<ClientMessage>, ErrorCode, &str); 6] = [
        (
            "no base",
            vec![since(&[], 5, &[])],
            ErrorCode::BadInput,
            "before any inputs",
        ),
        (
            "ahead of the clock",
            vec![base(), since(&[], 50_000, &[])],
            ErrorCode::BadInput,
            "match clock",
        ),
        (
            "past the last frame",
            vec![base(), since(&[], u32::MAX, &[])],
            ErrorCode::BadInput,
            "overflows",
        ),
        (
            "out of order",
            vec![
                base(),
                since(&[(3, Input::HARD_DROP), (1, Input::LEFT)], 5, &[]),
            ],
            ErrorCode::BadInput,
            "out of order",
        ),
        (
            "no such seat",
            vec![base(), since(&[], 2, &[(0, 9)])],
            ErrorCode::BadInput,
            "not an opponent",
        ),
        (
            "flood",
            std::iter::once(base())
                .chain((0..3000).map(|_| since(&[], 0, &[])))
                .collect(),
            ErrorCode::RateLimited,
            "messages per second",
        ),
    ];
    for ((_, messages, _, _), client) in cases.iter().zip(hostile.iter_mut()) {
        for m in messages {
            // A flood may find the connection cut before its end.
            let _ = client.send(m.clone());
        }
    }
    for ((who, _, code, says), client) in cases.iter().zip(hostile.iter_mut()) {
        client
            .wait_disconnected(Duration::from_secs(10))
            .await
            .unwrap_or_else(|e| panic!("{who} is cut: {e}"));
        let error = client
            .errors()
            .last()
            .cloned()
            .unwrap_or_else(|| panic!("{who} hears why"));
        assert_eq!(error.code, *code, "{who}: {}", error.message);
        assert!(
            error.fatal && error.message.contains(says),
            "{who}: {}",
            error.message
        );
    }
    // The honest two play on to the end; the cut seats are played out by the room.
    let mut players = play_all(players, false).await;
    let (server_hash, replay) = verified_replay(&mut players[0]).await;
    assert_eq!(replay.names.len(), 8);
    for p in &players {
        assert_eq!(final_hash(p), server_hash, "{:?}", p.names());
        assert!(p.errors().is_empty(), "{:?}", p.errors());
        assert!(p.disconnect_reason().is_none(), "carries on");
        assert_eq!(p.session().map(|s| s.stats().desyncs), Some(0));
    }
}
