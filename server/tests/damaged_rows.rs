//! A database damaged row by row, as a hand edit or another program can leave a SQLite file (a
//! value of the wrong type in a column, a match the server would never write): the rows around
//! the damaged one are still served, and the damaged one never reaches a client.

use std::io::{Read, Write};
use std::net::SocketAddr;
use std::time::Duration;

use sevenbag_server::Config;
use sevenbag_storage::{
    BattleRecord, BattleSeat, MatchRecord, MatchSeat, NewPlayer, Outcome, Player, PlayerId,
    PlayerStats, SqliteStorage, Storage,
};

/// `GET path` over plain HTTP: the status code and the body.
fn get(addr: SocketAddr, path: &str) -> (u16, String) {
    let mut tcp = std::net::TcpStream::connect(addr).expect("connect");
    tcp.set_read_timeout(Some(Duration::from_secs(30)))
        .expect("timeout");
    write!(
        tcp,
        "GET {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n"
    )
    .expect("write");
    let mut reply = String::new();
    let _ = tcp.read_to_string(&mut reply);
    let status = reply
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body = reply
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    (status, body)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_damaged_rating_leaves_the_rest_of_the_leaderboard_served() {
    let dir = tempfile::Builder::new()
        .prefix("sevenbag-damaged-")
        .tempdir()
        .expect("temp dir");
    let db = dir.path().join("sevenbag.db");
    drop(SqliteStorage::open(&db).expect("create and migrate"));
    rusqlite::Connection::open(&db)
        .and_then(|c| {
            c.execute_batch(
                "INSERT INTO players (key_hash, recovery_hash, name, name_key, rating, \
                 deviation, volatility, games, wins, created_unix) VALUES \
                 (x'01', x'02', 'Good', 'good', 1600, 60, 0.06, 5, 3, 1), \
                 (x'03', x'04', 'Broken', 'broken', 'not a number', 60, 0.06, 5, 3, 1), \
                 (x'05', x'06', 'Fine', 'fine', 1500, 60, 0.06, 5, 2, 1);",
            )
        })
        .expect("a damaged row among good ones");

    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let config = Config {
        db: Some(db),
        replay_dir: dir.path().join("replays"),
        datagrams: false,
        ..Config::default()
    };
    let server = sevenbag_server::spawn_on(listener, config)
        .await
        .expect("start");
    let addr = server.addr();
    let (status, body) = tokio::task::spawn_blocking(move || get(addr, "/api/leaderboard"))
        .await
        .expect("request");
    assert_eq!(status, 200, "{body}");
    let rows: serde_json::Value = serde_json::from_str(&body).expect("JSON");
    let shown: Vec<(u64, &str)> = rows
        .as_array()
        .expect("a list")
        .iter()
        .map(|r| {
            (
                r["place"].as_u64().unwrap_or(0),
                r["name"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(shown, [(1, "Good"), (2, "Fine")]);
    server.shutdown().await.expect("stops");
}

/// A stored seat named `name` for `player`.
fn versus_seat(player: Option<PlayerId>, name: &str) -> MatchSeat {
    MatchSeat {
        player,
        name: name.into(),
        before: None,
        after: None,
        stats: PlayerStats::default(),
    }
}

/// An unranked two-seat match `me` won against `them`.
fn versus(me: &Player, them: &str) -> MatchRecord {
    MatchRecord {
        ranked: false,
        outcome: Outcome::Won(0),
        reason: "top_out".into(),
        score: [1, 0],
        rules: "{}".into(),
        duration_frames: 600,
        replay: None,
        started_unix: 10,
        ended_unix: 20,
        seats: [versus_seat(Some(me.id), &me.name), versus_seat(None, them)],
    }
}

/// A free-for-all of `me` alone (the server never stores one).
fn lone_battle(me: &Player) -> BattleRecord {
    BattleRecord {
        winner: Some(0),
        reason: "top_out".into(),
        rules: "{}".into(),
        targeting: "even".into(),
        duration_frames: 600,
        replay: None,
        started_unix: 30,
        ended_unix: 40,
        seats: vec![BattleSeat {
            player: Some(me.id),
            name: me.name.clone(),
            placement: 1,
            kos: 0,
            team: None,
            rounds_won: 1,
            stats: PlayerStats::default(),
        }],
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stored_matches_of_one_seat_or_with_a_bidi_name_are_not_shown() {
    let dir = tempfile::Builder::new()
        .prefix("sevenbag-damaged-history-")
        .tempdir()
        .expect("temp dir");
    let db = dir.path().join("sevenbag.db");
    let (fine, bidi, lone) = {
        let s = SqliteStorage::open(&db).expect("create and migrate");
        let me = s
            .create_player(&NewPlayer {
                key_hash: vec![1; 32],
                recovery_hash: vec![2; 32],
                name: "Good".into(),
                name_key: "good".into(),
                created_unix: 1,
                registered_from: None,
            })
            .expect("a player");
        (
            s.record_match(&versus(&me, "zed")).expect("a match"),
            s.record_match(&versus(&me, "ev\u{202E}il"))
                .expect("a match with a bidi override in a name"),
            s.record_battle(&lone_battle(&me))
                .expect("a free-for-all of one seat"),
        )
    };

    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let config = Config {
        db: Some(db),
        replay_dir: dir.path().join("replays"),
        datagrams: false,
        ..Config::default()
    };
    let server = sevenbag_server::spawn_on(listener, config)
        .await
        .expect("start");
    let addr = server.addr();
    let fetch = |path: String| tokio::task::spawn_blocking(move || get(addr, &path));

    let (status, body) = fetch("/api/players/Good".into()).await.expect("request");
    assert_eq!(status, 200, "{body}");
    let player: serde_json::Value = serde_json::from_str(&body).expect("JSON");
    let ids: Vec<i64> = player["recent_matches"]
        .as_array()
        .expect("a list")
        .iter()
        .filter_map(|m| m["id"].as_i64())
        .collect();
    assert_eq!(ids, [fine.0], "{body}");
    for id in [bidi, lone] {
        let (status, body) = fetch(format!("/api/matches/{}", id.0))
            .await
            .expect("request");
        assert_eq!(status, 404, "{body}");
    }
    let (status, _) = fetch(format!("/api/matches/{}", fine.0))
        .await
        .expect("request");
    assert_eq!(status, 200);
    server.shutdown().await.expect("stops");
}
