//! `sevenbag-tool loadtest --social N` against a real server (the library on 127.0.0.1, SQLite
//! in a temporary directory, registration limits off): every push, invite and notification
//! arrives and the run ends with its one line; against a server without a database every
//! player fails, the line still comes last and the exit status says so.

use std::process::Output;

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Runs the tool's social load of `players` against `url` (on a thread of its own: the server
/// runs on this test's runtime).
async fn social_load(url: String, players: usize) -> Output {
    tokio::task::spawn_blocking(move || {
        std::process::Command::new(env!("CARGO_BIN_EXE_sevenbag-tool"))
            .args(["loadtest", "--server", &url, "--social"])
            .arg(players.to_string())
            .args(["--seconds", "2"])
            .output()
            .expect("run sevenbag-tool")
    })
    .await
    .expect("the tool's thread")
}

/// The numbers of `social: presence A/B delivered, ...; invites C/D; notifications lost E`.
fn numbers(line: &str) -> Option<(u64, u64, u64, u64, u64)> {
    let rest = line.strip_prefix("social: presence ")?;
    let (presence, rest) = rest.split_once(" delivered, ")?;
    let (a, b) = presence.split_once('/')?;
    let (_, rest) = rest.split_once("; invites ")?;
    let (invites, lost) = rest.split_once("; notifications lost ")?;
    let (c, d) = invites.split_once('/')?;
    Some((
        a.parse().ok()?,
        b.parse().ok()?,
        c.parse().ok()?,
        d.parse().ok()?,
        lost.parse().ok()?,
    ))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_social_load_hears_everything_and_ends_with_its_line() {
    let dir = tempfile::tempdir().expect("temp dir");
    let config = sevenbag_server::Config {
        replay_dir: dir.path().join("replays"),
        db: Some(dir.path().join("sevenbag.db")),
        moderation: sevenbag_server::ModerationConfig::permissive(),
        ..sevenbag_server::Config::default()
    };
    let server = sevenbag_server::spawn(config).await.expect("server");
    let out = social_load(server.url(), 6).await;
    let text = stdout(&out);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{text}\n{err}");
    let last = text.lines().last().unwrap_or_default();
    // Six players with four friends each, four changes each: 96 pushes; six invites.
    assert_eq!(numbers(last), Some((96, 96, 6, 6, 0)), "{last}");
    assert!(
        err.contains("6 players, 0 failed; 6 invited friends joined"),
        "{err}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_social_load_without_a_database_fails_with_its_line_last() {
    let dir = tempfile::tempdir().expect("temp dir");
    let config = sevenbag_server::Config {
        replay_dir: dir.path().join("replays"),
        db: None,
        ..sevenbag_server::Config::default()
    };
    let server = sevenbag_server::spawn(config).await.expect("server");
    let out = social_load(server.url(), 3).await;
    let text = stdout(&out);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{text}\n{err}");
    let last = text.lines().last().unwrap_or_default();
    assert_eq!(numbers(last), Some((0, 0, 0, 0, 0)), "{last}");
    assert!(err.contains("3 players, 3 failed"), "{err}");
    assert!(err.contains("Unavailable"), "each player says why: {err}");
}
