//! End-to-end: every finished match of several seats is kept in the database, once, by the
//! real server on a SQLite file and on a real PostgreSQL: a room's and a quick play's. Each
//! player's history lists it (HTTP API `/api/players/NAME` with every seat's place, knock-outs
//! and stats; the game's `PlayerProfile` as "2 others · 3rd of 3"), the match reads back at
//! `/api/matches/ID` with its replay and over the WebSocket seat by seat (`GetMatchDetail`),
//! nobody's rating or ranked games change, and a report may cite it as evidence only against
//! someone who played in it.

use std::time::Duration;

use sevenbag_netplay::BattleClient;
use sevenbag_protocol::moderation::ReportCategory;
use sevenbag_protocol::{ClientMessage, JoinRole, ServerMessage};
use sevenbag_server::{Config, QuickBattleConfig};
use sevenbag_storage::ordinal;
use sevenbag_tests::ffa::{all_ready, options, play_all, signed_in, writes_done};
use sevenbag_tests::http::{get, get_json, recent_matches};
use sevenbag_tests::players::match_config;
use sevenbag_tests::services::Postgres;
use sevenbag_tests::{RawClient, player_key, temp_dir};

const NAMES: [&str; 3] = ["ann", "ben", "cid"];

fn config(db: Config) -> Config {
    Config {
        quick_battle: QuickBattleConfig {
            needed: 3,
            countdown: Duration::from_millis(300),
            first_to: 1,
        },
        ..db
    }
}

/// Plays the three to the end; returns each one's place and the replay id.
async fn played(mut players: Vec<BattleClient>) -> (Vec<u8>, String) {
    all_ready(&mut players);
    let players = play_all(players, false).await;
    let outcome = players[0].outcome().cloned().expect("a result");
    let replay = outcome.replay.clone().expect("a replay was kept");
    let seats: Vec<usize> = players
        .iter()
        .map(|p| usize::from(p.seat().expect("seated")))
        .collect();
    (
        seats.iter().map(|&s| outcome.placements[s]).collect(),
        replay,
    )
}

/// The room match, then a quick play match, of the same three players, each kept once and
/// shown the same way on either backend.
async fn both_kinds_are_kept(db: Config) {
    let server = sevenbag_tests::start_server(config(db)).await;
    let url = server.url();
    let mut players = Vec::new();
    for (i, name) in NAMES.iter().enumerate() {
        players.push(signed_in(&url, name, i as u8 + 1, true).await);
    }
    let code = players[0].create(options(3)).await.expect("create");
    for p in players.iter_mut().skip(1) {
        p.join(&code, JoinRole::Player).await.expect("join");
    }
    let (room_places, room_replay) = played(players).await;

    let mut players = Vec::new();
    for (i, name) in NAMES.iter().enumerate() {
        let mut p = signed_in(&url, name, i as u8 + 1, false).await;
        p.quick_play().await.expect("queued");
        players.push(p);
    }
    for p in players.iter_mut() {
        p.wait_for_room(Duration::from_secs(5))
            .await
            .expect("seated");
    }
    let (quick_places, _) = played(players).await;

    for name in NAMES {
        recent_matches(server.addr(), name, 2).await;
    }
    // Nothing is stored twice: a second copy would be written by now.
    writes_done(server.addr(), "sentinel", 9).await;
    for (i, name) in NAMES.iter().enumerate() {
        let rows = recent_matches(server.addr(), name, 2).await;
        assert_eq!(rows.len(), 2, "{name}: {rows:?}");
        for (row, place) in rows.iter().zip([quick_places[i], room_places[i]]) {
            assert_eq!(row["kind"], "battle", "{row}");
            assert_eq!(
                (row["seats"].as_u64(), row["ranked"].as_bool()),
                (Some(3), Some(false))
            );
            assert_eq!(
                row["place"],
                format!("{} of 3", ordinal(place)),
                "{name}: {row}"
            );
            assert_eq!(row["targeting"], "even");
            let mine = row["players"]
                .as_array()
                .expect("players")
                .iter()
                .find(|p| p["name"] == *name)
                .expect("in the match");
            assert_eq!(mine["placement"].as_u64(), Some(u64::from(place)));
            assert!(mine["stats"]["pieces"].as_u64().unwrap_or(0) > 0, "{mine}");
            assert!(mine["kos"].is_u64() && mine["ranked_player"] == true);
        }
        let (_, me) = get_json(server.addr(), &format!("/api/players/{name}"))
            .await
            .expect("GET");
        assert_eq!(
            (me["games"].as_u64(), me["rating"].as_f64()),
            (Some(0), Some(1500.0))
        );
    }
    // One match by id, and its replay.
    let rows = recent_matches(server.addr(), "ann", 2).await;
    let id = rows[0]["id"].as_i64().expect("an id");
    let (status, one) = get_json(server.addr(), &format!("/api/matches/{id}"))
        .await
        .expect("GET");
    assert_eq!((status, &one["players"]), (200, &rows[0]["players"]));
    let (status, bytes) = get(server.addr(), &format!("/api/matches/{id}/replay"))
        .await
        .expect("GET");
    assert_eq!(status, 200);
    assert!(
        sevenbag_protocol::read_any(&bytes).is_ok(),
        "the match's replay"
    );

    // The game's profile shows the same rows.
    let mut watcher = RawClient::hello(server.addr(), "watcher")
        .await
        .expect("hello");
    watcher
        .send(&ClientMessage::GetProfile { name: "cid".into() })
        .await
        .expect("send");
    let recent = watcher
        .recv_until(Duration::from_secs(10), |m| match m {
            ServerMessage::PlayerProfile { recent, .. } => Some(recent.clone()),
            _ => None,
        })
        .await
        .expect("a profile");
    assert_eq!(recent.len(), 2);
    let place = format!("2 others · {} of 3", ordinal(quick_places[2]));
    assert_eq!(
        (recent[0].opponent.as_str(), recent[0].ranked),
        (place.as_str(), false)
    );
    assert_eq!(recent[0].won, Some(quick_places[2] == 1));
    // Its bot marks line up with those rows (a free-for-all row has no one opponent to mark).
    let marks = watcher
        .recv_until(Duration::from_secs(10), |m| match m {
            ServerMessage::ProfileMarks { opponents, .. } => Some(opponents.clone()),
            _ => None,
        })
        .await
        .expect("the profile's marks");
    assert_eq!(marks, [false, false]);
    // The same match seat by seat over the WebSocket, as the API lists it.
    watcher
        .send(&ClientMessage::GetMatchDetail { id: id as u64 })
        .await
        .expect("send");
    let detail = watcher
        .recv_until(Duration::from_secs(10), |m| match m {
            ServerMessage::MatchDetail { detail } => Some(detail.clone()),
            _ => None,
        })
        .await
        .expect("the match seat by seat");
    assert_eq!(detail.validate(), Ok(()));
    let api: Vec<(String, u64)> = rows[0]["players"]
        .as_array()
        .expect("players")
        .iter()
        .map(|p| {
            (
                p["name"].as_str().unwrap_or("").to_owned(),
                p["placement"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    let seats: Vec<(String, u64)> = detail
        .seats
        .iter()
        .map(|s| (s.name.clone(), u64::from(s.placement)))
        .collect();
    assert_eq!((detail.battle, seats), (true, api));

    // A report may cite the stored match against someone who played in it, not anyone else.
    let _dan = signed_in(&url, "dan", 4, true).await;
    let mut ann = RawClient::hello(server.addr(), "ann").await.expect("hello");
    ann.send(&ClientMessage::Identify { key: player_key(1) })
        .await
        .expect("send");
    ann.profile_reply(Duration::from_secs(10))
        .await
        .expect("identified");
    for (name, accepted) in [("dan", false), ("ben", true)] {
        ann.send(&ClientMessage::Report {
            name: name.into(),
            replay: Some(room_replay.clone()),
            category: ReportCategory::Other,
            text: "checking the evidence".into(),
        })
        .await
        .expect("send");
        let answer = ann
            .recv_until(Duration::from_secs(10), |m| match m {
                ServerMessage::Reported => Some(Ok(())),
                ServerMessage::Error { message, .. } => Some(Err(message.clone())),
                _ => None,
            })
            .await
            .expect("an answer");
        assert_eq!(answer.is_ok(), accepted, "{name}: {answer:?}");
        if let Err(message) = answer {
            assert!(message.contains("not one between you"), "{message}");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn matches_of_several_seats_are_kept_once_in_sqlite() {
    let dir = temp_dir("ffa-history");
    both_kinds_are_kept(Config {
        db: Some(dir.path().join("sevenbag.db")),
        ..match_config(Duration::from_millis(300))
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn matches_of_several_seats_are_kept_once_in_postgres() {
    let Some(pg) = Postgres::start() else {
        return;
    };
    both_kinds_are_kept(Config {
        postgres: Some(pg.url()),
        ..match_config(Duration::from_millis(300))
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_two_seat_room_is_kept_as_a_versus_match_and_rates_nobody() {
    let dir = temp_dir("two-seat-history");
    let server = sevenbag_tests::start_server(Config {
        db: Some(dir.path().join("sevenbag.db")),
        ..match_config(Duration::from_millis(300))
    })
    .await;
    let url = server.url();
    let mut players = Vec::new();
    for (i, name) in NAMES[..2].iter().enumerate() {
        players.push(signed_in(&url, name, i as u8 + 1, true).await);
    }
    let code = players[0].create(options(2)).await.expect("create");
    players[1]
        .join(&code, JoinRole::Player)
        .await
        .expect("join");
    let (places, _) = played(players).await;

    let rows = recent_matches(server.addr(), "ann", 1).await;
    let row = &rows[0];
    assert_eq!(
        (row["kind"].as_str(), row["ranked"].as_bool()),
        (Some("versus"), Some(false))
    );
    let names: Vec<&str> = row["players"]
        .as_array()
        .expect("players")
        .iter()
        .filter_map(|p| p["name"].as_str())
        .collect();
    assert_eq!(names, ["ann", "ben"]);
    let winner = places.iter().position(|&p| p == 1).expect("a winner");
    assert_eq!(row["winner"].as_u64(), Some(winner as u64));
    assert!(
        row["players"][0]["stats"]["pieces"].as_u64().unwrap_or(0) > 0,
        "{row}"
    );
    for name in ["ann", "ben"] {
        let (_, me) = get_json(server.addr(), &format!("/api/players/{name}"))
            .await
            .expect("GET");
        assert_eq!(me["games"].as_u64(), Some(0), "unrated: {me}");
    }
}
