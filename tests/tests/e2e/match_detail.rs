//! End-to-end: `GetMatchDetail` reads a stored match seat by seat from the real server on a
//! SQLite file. A free-for-all's every seat comes back (names, guests, declared bots, places,
//! knock-outs, rounds, figures), a two-seat match reads as a table of two with its winner
//! first and the rating changes, and an unknown id is a clear, non-fatal `NoSuchMatch`.

use std::time::Duration;

use sevenbag_protocol::{ClientMessage, ErrorCode, MatchDetail, ServerMessage};
use sevenbag_server::Config;
use sevenbag_storage::fixtures::{battle, new_player, ranked};
use sevenbag_storage::{ModerationStorage, Rating, SqliteStorage, Storage};
use sevenbag_tests::{RawClient, TestServer, temp_dir};

const WAIT: Duration = Duration::from_secs(10);

/// Asks for match `id`: its detail, or the error's code and text.
async fn ask(server: &TestServer, id: u64) -> Result<MatchDetail, (ErrorCode, String)> {
    let mut c = RawClient::hello(server.addr(), "viewer")
        .await
        .expect("hello");
    c.send(&ClientMessage::GetMatchDetail { id })
        .await
        .expect("send");
    c.recv_until(WAIT, |m| match m {
        ServerMessage::MatchDetail { detail } => Some(Ok((**detail).clone())),
        ServerMessage::Error { code, message, .. } => Some(Err((*code, message.clone()))),
        _ => None,
    })
    .await
    .expect("an answer")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stored_match_reads_back_seat_by_seat_and_an_unknown_id_is_refused() {
    let dir = temp_dir("match-detail");
    let path = dir.path().join("sevenbag.db");
    // Two players and a declared bot in a free-for-all with five guests, and a ranked match.
    let (battle_id, versus_id) = {
        let s = SqliteStorage::open(&path).expect("open");
        let ann = s.create_player(&new_player("ann", 1)).expect("ann");
        let ben = s.create_player(&new_player("ben", 2)).expect("ben");
        let bot = s.create_player(&new_player("botty", 3)).expect("bot");
        s.declare_bot(bot.id).expect("declare");
        let b = s
            .record_battle(&battle(&[&ann, &ben, &bot], 5))
            .expect("battle");
        let after = [
            Rating {
                rating: 1512.4,
                ..ann.rating
            },
            Rating {
                rating: 1490.0,
                ..ben.rating
            },
        ];
        let v = s.record_match(&ranked(&ann, &ben, after)).expect("match");
        (b.0 as u64, v.0 as u64)
    };
    let server = sevenbag_tests::start_server(Config {
        db: Some(path),
        ..sevenbag_tests::fast_config()
    })
    .await;

    let d = ask(&server, battle_id).await.expect("the battle");
    assert_eq!(d.validate(), Ok(()));
    assert_eq!((d.id, d.battle, d.ranked), (battle_id, true, false));
    assert_eq!(
        (d.targeting.as_str(), d.reason.as_str()),
        ("even", "top_out")
    );
    assert_eq!((d.winner, d.replay.as_deref()), (Some(0), Some("b1")));
    assert_eq!(d.seats.len(), 8);
    let names: Vec<&str> = d.seats.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(&names[..4], ["ann", "ben", "botty", "Guest 3"]);
    let places: Vec<u8> = d.seats.iter().map(|s| s.placement).collect();
    assert_eq!(places, [1, 2, 3, 4, 5, 6, 7, 8]);
    assert_eq!(
        (d.seats[0].kos, d.seats[0].rounds_won, d.seats[0].pieces),
        (7, 1, 50)
    );
    assert_eq!(
        (d.seats[2].bot, d.seats[2].guest, d.seats[1].bot),
        (true, false, false)
    );
    assert!(d.seats[3..].iter().all(|s| s.guest && !s.bot));
    assert_eq!(d.won(0), Some(true));

    let v = ask(&server, versus_id).await.expect("the ranked match");
    assert_eq!(v.validate(), Ok(()));
    assert_eq!((v.battle, v.ranked, v.seats.len()), (false, true, 2));
    assert_eq!(
        (v.seats[0].placement, v.seats[1].placement),
        (1, 2),
        "the winner places first"
    );
    assert_eq!((v.seats[0].rounds_won, v.seats[1].rounds_won), (3, 1));
    assert_eq!(
        (v.seats[0].rating_change, v.seats[1].rating_change),
        (Some(12), Some(-10))
    );

    let (code, message) = ask(&server, 987_654).await.expect_err("no such match");
    assert_eq!(code, ErrorCode::NoSuchMatch);
    assert!(message.contains("987654"), "{message}");
    // An id past what the database can hold is the same refusal, not a failure.
    let (code, _) = ask(&server, u64::MAX).await.expect_err("no such match");
    assert_eq!(code, ErrorCode::NoSuchMatch);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_without_a_database_says_so() {
    let server = sevenbag_tests::start_server(sevenbag_tests::fast_config()).await;
    let (code, _) = ask(&server, 1).await.expect_err("no database");
    assert_eq!(code, ErrorCode::Unavailable);
}
