//! `sevenbag-tool replay verify` and `info` on a replay of eight seats written by the real
//! server: eight headless players play a free-for-all to the end on 127.0.0.1, the server keeps
//! its replay (format version 2) in its replay directory, and the tool verifies it and lists
//! every seat with its place.

use std::process::{Command, Output};
use std::time::Duration;

use sevenbag_protocol::EndReason;
use sevenbag_tests::ffa::{all_started, final_hash, options, play_all, seated};
use sevenbag_tests::players::match_config;

fn tool(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sevenbag-tool"))
        .args(args)
        .output()
        .expect("run sevenbag-tool")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tool_verifies_and_describes_an_eight_seat_replay_the_server_wrote() {
    let server = sevenbag_tests::start_server(match_config(Duration::from_millis(300))).await;
    let (mut players, _code) = seated(&server.url(), options(8), 8).await;
    all_started(&mut players).await;
    let players = play_all(players, true).await;
    let outcome = players[0].outcome().cloned().expect("a result");
    assert_eq!(outcome.reason, EndReason::TopOut);
    let id = outcome.replay.clone().expect("the server kept a replay");
    let path = server.replay_dir().join(format!("{id}.sbrp"));
    let file = path.to_str().expect("utf-8 path").to_owned();
    // `SEVENBAG_KEEP_REPLAY=FILE` keeps a copy (to watch it: `sevenbag --replay FILE`).
    if let Some(keep) = std::env::var_os("SEVENBAG_KEEP_REPLAY") {
        std::fs::copy(&path, keep).expect("keep a copy of the replay");
    }

    let verify = tokio::task::spawn_blocking({
        let file = file.clone();
        move || tool(&["replay", "verify", &file])
    })
    .await
    .expect("tool task");
    let out = stdout(&verify);
    assert!(
        verify.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&verify.stderr)
    );
    assert!(out.contains("(format v2)"), "{out}");
    assert!(out.contains("\nverified: 8 seats, "), "{out}");
    // The tool's re-simulation ends where every client's confirmed match ended.
    let hash = format!("final hash {:#018x}", final_hash(&players[0]));
    assert!(out.contains(&hash), "{out}");

    let info = tokio::task::spawn_blocking(move || tool(&["replay", "info", &file]))
        .await
        .expect("tool task");
    let out = stdout(&info);
    assert!(info.status.success(), "{out}");
    assert!(out.contains("\nseats: 8\n"), "{out}");
    for (seat, player) in players.iter().enumerate() {
        let place = outcome.placements[seat];
        let name = &player.names()[seat];
        let line = format!("\nseat {seat}: {name}, place {place}");
        assert!(out.contains(&line), "{line:?} in\n{out}");
    }
    assert_eq!(out.matches(", won;").count(), 1, "{out}");
    assert!(
        !out.contains("verified"),
        "info does not re-simulate: {out}"
    );
}
