//! End-to-end: a match of several seats between accounts, the server stopped mid-match and
//! started again (it takes the match back from its room log), played to the end: the match
//! is stored once with each seat's account, not as guests. The real server on a SQLite file.

use std::time::Duration;

use serde_json::Value;
use sevenbag_netplay::BattleClient;
use sevenbag_protocol::{ClientMessage, JoinRole};
use sevenbag_server::Config;
use sevenbag_tests::ffa::{MATCH_TIMEOUT, all_ready, connect, options, random_keys};
use sevenbag_tests::http::get_json;
use sevenbag_tests::players::match_config;
use sevenbag_tests::{TestServer, player_key, temp_dir};

const NAMES: [&str; 3] = ["amy", "bob", "cyd"];

/// `name` connected with a newly registered identity `n`.
async fn registered(url: &str, name: &str, n: u8) -> BattleClient {
    let mut c = connect(url, name).await;
    c.send(ClientMessage::Register {
        key: player_key(n),
        name: name.into(),
    })
    .expect("send");
    c.idle_for(Duration::from_millis(300)).await;
    assert!(c.errors().is_empty(), "{name}: {:?}", c.errors());
    c
}

/// `name`'s stored matches once there are `rows` (the writer runs behind the room; bounded).
async fn history(server: &TestServer, name: &str, rows: usize) -> Vec<Value> {
    let mut list = Vec::new();
    for _ in 0..100 {
        let (status, body) = get_json(server.addr(), &format!("/api/players/{name}"))
            .await
            .expect("GET");
        list = body["recent_matches"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        if status == 200 && list.len() >= rows {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    list
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_taken_back_after_a_restart_is_stored_with_its_accounts() {
    let dir = temp_dir("ffa-restart-accounts");
    let config = Config {
        db: Some(dir.path().join("sevenbag.db")),
        ..match_config(Duration::from_millis(300))
    };
    let mut server = sevenbag_tests::start_server(config).await;
    let url = server.url();
    let mut players = Vec::new();
    for (i, name) in NAMES.iter().enumerate() {
        players.push(registered(&url, name, i as u8 + 1).await);
    }
    let code = players[0].create(options(3)).await.expect("create");
    for p in players.iter_mut().skip(1) {
        p.join(&code, JoinRole::Player).await.expect("join");
    }
    all_ready(&mut players);
    for p in players.iter_mut() {
        p.wait_for_start(Duration::from_secs(5))
            .await
            .expect("starts");
    }
    let tasks: Vec<_> = players
        .into_iter()
        .enumerate()
        .map(|(i, mut p)| {
            tokio::spawn(async move {
                let mut keys = random_keys(i as u64 + 40, false);
                // Until the server goes down, then back with the token once it is up again.
                p.play_for(&mut keys, Duration::from_secs(10)).await;
                let mut back = false;
                for _ in 0..100 {
                    if p.reconnect().await.is_ok() {
                        back = true;
                        break;
                    }
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                assert!(back, "came back after the restart");
                p.play(&mut keys, MATCH_TIMEOUT)
                    .await
                    .expect("plays to the end");
                p
            })
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(1500)).await;
    server
        .restart(Duration::from_millis(300))
        .await
        .expect("the server restarts");
    let mut players = Vec::new();
    for t in tasks {
        players.push(t.await.expect("task"));
    }
    let outcome = players[0].outcome().cloned().expect("a result");
    for p in &players {
        assert!(
            p.session().is_some_and(|s| s.stats().rebuilds >= 1),
            "the match went on across the restart"
        );
    }

    for (i, name) in NAMES.iter().enumerate() {
        history(&server, name, 1).await;
        // A moment more: nothing is stored twice.
        tokio::time::sleep(Duration::from_millis(200)).await;
        let rows = history(&server, name, 1).await;
        assert_eq!(
            rows.len(),
            1,
            "{name}: stored once, as this account's: {rows:?}"
        );
        let row = &rows[0];
        let seat = usize::from(players[i].seat().expect("seated"));
        assert_eq!(
            row["place"],
            format!(
                "{} of 3",
                sevenbag_storage::ordinal(outcome.placements[seat])
            ),
            "{row}"
        );
        let listed: Vec<_> = row["players"]
            .as_array()
            .expect("players")
            .iter()
            .map(|p| (p["name"].clone(), p["ranked_player"].clone()))
            .collect();
        for n in NAMES {
            assert!(
                listed.contains(&(n.into(), true.into())),
                "{n} is an account in the stored match: {listed:?}"
            );
        }
    }
}
