//! A crash does not end matches: the server binary is killed with `kill -9` mid-match and
//! started again with the same flags; the players (and a spectator) reconnect by themselves,
//! re-send what the restarted server lacks, and finish the match with one replay that verifies
//! and that both players fetch byte for byte.
#![cfg(unix)]

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use sevenbag_core::Seat;
use sevenbag_netplay::{HeadlessClient, HeadlessConfig, RandomInputs};
use sevenbag_protocol::replay_file::open_two_seats;
use sevenbag_protocol::{EndReason, JoinRole, RoomOptions, verify};
use tokio::sync::oneshot;

const MATCH_TIMEOUT: Duration = Duration::from_secs(60);
/// Confirmed frames both players reach before the kill (2 s of play).
const KILL_AT: u32 = 120;

/// The server binary as a child process, killed if the test fails.
struct Server {
    child: std::process::Child,
    lines: mpsc::Receiver<serde_json::Value>,
    /// Lines read while waiting for another, in order.
    passed: Vec<serde_json::Value>,
    addr: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    /// Starts `sevenbag-server` on `bind` with replays under `dir`, and waits until it listens.
    fn start(dir: &Path, bind: &str) -> Server {
        Server::start_with(dir, bind, &[])
    }

    /// [`Server::start`] with more flags.
    fn start_with(dir: &Path, bind: &str, extra: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_sevenbag-server"))
            .args(["--bind", bind, "--no-db", "--log-format", "json"])
            .args(extra)
            .args(["--start-delay-ms", "300", "--countdown-frames", "30"])
            .args(["--round-break-frames", "30"])
            .arg("--replay-dir")
            .arg(dir)
            .env("RUST_LOG", "info")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the server binary");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let Ok(json) = serde_json::from_str::<serde_json::Value>(&line) else {
                    continue;
                };
                if tx.send(json).is_err() {
                    break;
                }
            }
        });
        let mut server = Server {
            child,
            lines,
            passed: Vec::new(),
            addr: String::new(),
        };
        let listening = server.wait_line("listening");
        // Logged as `Some(127.0.0.1:PORT)`.
        let addr = listening["addr"].as_str().unwrap_or_default();
        server.addr = addr
            .trim_start_matches("Some(")
            .trim_end_matches(')')
            .to_string();
        assert!(server.addr.starts_with("127.0.0.1:"), "{listening}");
        server
    }

    /// The first log line not yet taken whose message is `message`.
    fn wait_line(&mut self, message: &str) -> serde_json::Value {
        if let Some(i) = self.passed.iter().position(|l| l["message"] == message) {
            return self.passed.remove(i);
        }
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self
                .lines
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no {message:?} log line"));
            if line["message"] == message {
                return line;
            }
            self.passed.push(line);
        }
    }

    fn url(&self) -> String {
        format!("ws://{}/", self.addr)
    }

    /// `kill -9`: no drain, no shutdown message, no replay of the running match.
    fn kill_9(self) {
        self.signal("-KILL");
    }

    /// Sends `signal` (`-KILL`, `-TERM`) and waits for the process to end.
    fn signal(mut self, signal: &str) {
        let status = Command::new("kill")
            .args([signal, &self.child.id().to_string()])
            .status()
            .expect("kill");
        assert!(status.success());
        let _ = self.child.wait();
    }
}

fn config(name: &str) -> HeadlessConfig {
    HeadlessConfig {
        auto_reconnect: Some(Duration::from_secs(15)),
        ..HeadlessConfig::new(name)
    }
}

/// A player that plays until `KILL_AT`, says so, then plays the match out.
fn play(
    mut client: HeadlessClient,
    seed: u64,
    reached: oneshot::Sender<u32>,
) -> tokio::task::JoinHandle<HeadlessClient> {
    tokio::spawn(async move {
        let mut keys = RandomInputs::new(seed).with_drop_every(3, 9);
        client
            .run_until(&mut keys, MATCH_TIMEOUT, |c| {
                c.confirmed().is_some_and(|m| m.frame().0 >= KILL_AT)
            })
            .await
            .expect("the match gets going");
        let _ = reached.send(client.confirmed().map_or(0, |m| m.frame().0));
        let result = client.play_match(&mut keys, MATCH_TIMEOUT).await;
        assert!(result.is_ok(), "{}: {result:?}", client.names()[0]);
        client
    })
}

/// A fresh temporary directory, removed on drop (also when a test fails).
fn temp_dir(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("sevenbag-durable-{name}-"))
        .tempdir()
        .expect("temp dir")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_survives_kill_9_of_the_server_and_finishes_with_one_verified_replay() {
    let dir = temp_dir("kill");
    let dir = dir.path();
    let server = Server::start(dir, "127.0.0.1:0");
    let addr = server.addr.clone();
    let url = server.url();

    let mut alice = HeadlessClient::connect(&url, config("alice"))
        .await
        .expect("alice connects");
    let options = RoomOptions {
        first_to: 2,
        reconnect_seconds: 15,
        ..RoomOptions::default()
    };
    let code = alice.create_room(options).await.expect("room");
    let mut bob = HeadlessClient::connect(&url, config("bob"))
        .await
        .expect("bob connects");
    assert_eq!(
        bob.join_room(&code, JoinRole::Player).await.expect("join"),
        Some(Seat::Second)
    );
    let mut eve = HeadlessClient::connect(&url, config("eve"))
        .await
        .expect("eve connects");
    assert_eq!(
        eve.join_room(&code, JoinRole::Spectator)
            .await
            .expect("watch"),
        None
    );
    alice.ready().expect("ready");
    bob.ready().expect("ready");
    let (a_reached, a_at) = oneshot::channel();
    let (b_reached, b_at) = oneshot::channel();
    let alice = play(alice, 41, a_reached);
    let bob = play(bob, 42, b_reached);
    let eve = tokio::spawn(async move {
        let result = eve
            .play_match(&mut sevenbag_netplay::Idle, MATCH_TIMEOUT)
            .await;
        assert!(result.is_ok(), "eve: {result:?}");
        // The spectator's clock was held back by the outage: it shows the rest of the match.
        eve.wait_for(Duration::from_secs(20), |c| !c.is_showing())
            .await
            .expect("eve shows the end");
        eve
    });
    let killed_at = a_at
        .await
        .expect("alice reached")
        .min(b_at.await.expect("bob reached"));

    // The room log is on disk while the match runs.
    let rooms = dir.join("rooms");
    let log = rooms.join(format!("{code}.sbrl"));
    assert!(log.exists(), "{} exists", log.display());
    tokio::task::block_in_place(|| server.kill_9());
    let down = Instant::now();

    // Blocking waits on the server's log lines, off the players' worker threads.
    let (server, resumed, resume_time) = tokio::task::block_in_place(|| {
        let mut server = Server::start(dir, &addr);
        let restored =
            server.wait_line("match restored from its room log; waiting for the players");
        assert_eq!(restored["room"], code.as_str(), "{restored}");
        let resumed = server.wait_line("player resumed");
        (server, resumed, down.elapsed())
    });

    let alice = alice.await.expect("alice's task");
    let bob = bob.await.expect("bob's task");
    let eve = eve.await.expect("eve's task");
    let result = alice.match_result().cloned().expect("a result");
    assert_eq!(result.reason, EndReason::TopOut);
    assert_eq!(bob.match_result(), Some(&result));
    assert_eq!(eve.match_result(), Some(&result));
    let eve_shows = eve.predicted().map(|m| m.phase());
    assert_eq!(
        eve_shows,
        Some(sevenbag_core::Phase::MatchOver {
            winner: result.winner
        }),
        "the spectator's boards reach the end"
    );
    for c in [&alice, &bob, &eve] {
        assert!(
            c.reconnects() >= 1,
            "{} reconnected by itself",
            c.names()[0]
        );
        assert!(c.desyncs().is_empty(), "{:?}", c.desyncs());
        assert!(c.session_errors().is_empty(), "{:?}", c.session_errors());
    }
    assert_eq!(alice.hashes(), bob.hashes());
    assert_eq!(alice.round_ends(), bob.round_ends());

    // One replay, the same bytes for both players, that verifies and covers the whole match.
    let id = result.replay.clone().expect("a replay id");
    let (mut alice, mut bob) = (alice, bob);
    let a_bytes = alice.fetch_replay(&id).await.expect("alice fetches");
    let b_bytes = bob.fetch_replay(&id).await.expect("bob fetches");
    assert_eq!(a_bytes, b_bytes);
    let replay = open_two_seats(&a_bytes).expect("decodes");
    let report = verify(&replay).expect("verifies");
    assert_eq!(replay.result.reason, EndReason::TopOut);
    assert!(
        replay.result.frames > killed_at,
        "{:?} {killed_at}",
        replay.result
    );
    assert_eq!(
        report.hashes_checked,
        replay.hashes.len(),
        "every recorded hash re-simulated"
    );
    let last = alice.hashes().last().copied().expect("alice's hashes");
    assert!(replay.hashes.iter().any(|h| (h.frame, h.hash) == last));

    // The finished match's log is removed once its replay is written.
    let deadline = Instant::now() + Duration::from_secs(10);
    while log.exists() {
        assert!(Instant::now() < deadline, "{} still there", log.display());
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    eprintln!(
        "killed at frame {killed_at}; restarted and first player resumed after {resume_time:?} ({resumed})"
    );
    drop(server);
}

/// Two players in a fresh room on `url`, both ready, each reconnecting by itself.
async fn ready_pair(url: &str) -> (HeadlessClient, HeadlessClient) {
    let mut alice = HeadlessClient::connect(url, config("alice"))
        .await
        .expect("alice connects");
    let options = RoomOptions {
        first_to: 2,
        reconnect_seconds: 15,
        ..RoomOptions::default()
    };
    let code = alice.create_room(options).await.expect("room");
    let mut bob = HeadlessClient::connect(url, config("bob"))
        .await
        .expect("bob connects");
    bob.join_room(&code, JoinRole::Player).await.expect("join");
    alice.ready().expect("ready");
    bob.ready().expect("ready");
    (alice, bob)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_cut_by_a_drain_timeout_resumes_on_the_restarted_server() {
    let dir = temp_dir("drain");
    let dir = dir.path();
    let server = Server::start_with(dir, "127.0.0.1:0", &["--drain-timeout", "0.5"]);
    let addr = server.addr.clone();
    let (alice, bob) = ready_pair(&server.url()).await;
    let (a_reached, a_at) = oneshot::channel();
    let (b_reached, b_at) = oneshot::channel();
    let alice = play(alice, 51, a_reached);
    let bob = play(bob, 52, b_reached);
    let drained_at = a_at.await.expect("alice").min(b_at.await.expect("bob"));

    // SIGTERM: the drain waits half a second for the match, then shuts down and keeps its log.
    let _server = tokio::task::block_in_place(|| {
        let mut old = server;
        let status = Command::new("kill")
            .args(["-TERM", &old.child.id().to_string()])
            .status()
            .expect("kill");
        assert!(status.success());
        let kept = old.wait_line("room log kept: the match resumes when the server starts again");
        assert!(kept["room"].is_string(), "{kept}");
        let exit = old.child.wait().expect("wait");
        assert!(exit.success(), "{exit}");
        drop(old);
        let mut new = Server::start(dir, &addr);
        new.wait_line("match restored from its room log; waiting for the players");
        new
    });

    let alice = alice.await.expect("alice's task");
    let mut bob = bob.await.expect("bob's task");
    let result = alice.match_result().cloned().expect("a result");
    assert_eq!(result.reason, EndReason::TopOut);
    assert_eq!(bob.match_result(), Some(&result));
    for c in [&alice, &bob] {
        assert!(c.reconnects() >= 1);
        assert!(c.desyncs().is_empty(), "{:?}", c.desyncs());
        assert!(c.session_errors().is_empty(), "{:?}", c.session_errors());
    }
    let bytes = bob
        .fetch_replay(&result.replay.clone().expect("a replay id"))
        .await
        .expect("fetch");
    let replay = open_two_seats(&bytes).expect("decodes");
    verify(&replay).expect("verifies");
    assert!(replay.result.frames > drained_at);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resumed_player_cannot_resend_inputs_past_the_existing_limits() {
    let dir = temp_dir("hostile");
    let dir = dir.path();
    let server = Server::start(dir, "127.0.0.1:0");
    let addr = server.addr.clone();
    let (mut alice, mut bob) = ready_pair(&server.url()).await;
    let mut keys = RandomInputs::new(61).with_drop_every(3, 9);
    let reached = |c: &HeadlessClient| c.confirmed().is_some_and(|m| m.frame().0 >= 60);
    let mut idle = sevenbag_netplay::Idle;
    let (a, b) = tokio::join!(
        alice.run_until(&mut idle, MATCH_TIMEOUT, reached),
        bob.run_until(&mut keys, MATCH_TIMEOUT, reached)
    );
    a.expect("alice plays");
    b.expect("bob plays");
    tokio::task::block_in_place(|| server.kill_9());
    let _server = tokio::task::block_in_place(|| Server::start(dir, &addr));
    bob.wait_for(MATCH_TIMEOUT, |c| c.reconnects() >= 1)
        .await
        .expect("bob is back");
    // Frames far past the match clock: refused and cut, as on a server that never restarted.
    bob.send(sevenbag_protocol::ClientMessage::Inputs {
        changes: Vec::new(),
        confirmed: 1_000_000,
    })
    .expect("send");
    bob.wait_for(Duration::from_secs(10), |c| {
        c.errors()
            .iter()
            .any(|e| e.code == sevenbag_protocol::ErrorCode::BadInput)
    })
    .await
    .expect("refused with BadInput");
}
