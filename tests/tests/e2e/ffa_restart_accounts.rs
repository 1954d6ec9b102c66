//! End-to-end: a match of several seats between accounts, the server stopped mid-match and
//! started again (it takes the match back from its room log), played to the end: the match
//! is stored once with each seat's account, not as guests. The real server on a SQLite file.

use std::time::Duration;

use sevenbag_protocol::JoinRole;
use sevenbag_server::Config;
use sevenbag_tests::ffa::{all_started, options, play_across_restart, registered, writes_done};
use sevenbag_tests::http::recent_matches;
use sevenbag_tests::players::match_config;
use sevenbag_tests::temp_dir;

const NAMES: [&str; 3] = ["amy", "bob", "cyd"];

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
    all_started(&mut players).await;
    let players = play_across_restart(&mut server, players, 40).await;
    let outcome = players[0].outcome().cloned().expect("a result");
    for p in &players {
        assert!(
            p.session().is_some_and(|s| s.stats().rebuilds >= 1),
            "the match went on across the restart"
        );
    }

    for name in NAMES {
        recent_matches(server.addr(), name, 1).await;
    }
    // Nothing is stored twice: a second copy would be written by now.
    writes_done(server.addr(), "sentinel", 9).await;
    for (i, name) in NAMES.iter().enumerate() {
        let rows = recent_matches(server.addr(), name, 1).await;
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
        let listed = sevenbag_tests::http::players_of(row);
        for n in NAMES {
            assert!(
                listed.contains(&(n.into(), true.into())),
                "{n} is an account in the stored match: {listed:?}"
            );
        }
    }
}
