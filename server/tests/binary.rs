//! The `sevenbag-server` binary as an operator runs it: JSON log lines on stdout, and SIGTERM
//! draining then exiting cleanly.
#![cfg(unix)]

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Kills the child if the test fails before it exits.
struct Child(std::process::Child);

impl Drop for Child {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn sigterm_drains_and_exits_zero_with_json_logs() {
    let dir = tempfile::Builder::new()
        .prefix("sevenbag-bin-")
        .tempdir()
        .expect("temp dir");
    let mut child = Child(
        Command::new(env!("CARGO_BIN_EXE_sevenbag-server"))
            .args(["--bind", "127.0.0.1:0", "--no-db", "--log-format", "json"])
            .arg("--replay-dir")
            .arg(dir.path())
            .env("RUST_LOG", "info")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the server binary"),
    );
    let stdout = child.0.stdout.take().expect("stdout");
    let (tx, lines) = mpsc::channel::<String>();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let next = |what: &str| {
        let line = lines
            .recv_timeout(Duration::from_secs(20))
            .unwrap_or_else(|_| panic!("no log line while waiting for {what}"));
        let json: serde_json::Value = serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("not a JSON log line ({e}): {line}"));
        assert!(
            json["level"].is_string() && json["timestamp"].is_string(),
            "{line}"
        );
        json
    };
    let mut listening = next("listening");
    while listening["message"] != "listening" {
        listening = next("listening");
    }
    let addr = listening["addr"].as_str().unwrap_or_default().to_string();
    assert!(addr.contains("127.0.0.1:"), "{listening}");

    let pid = child.0.id().to_string();
    let killed = Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .expect("kill");
    assert!(killed.success());
    let deadline = Instant::now() + Duration::from_secs(20);
    let status = loop {
        if let Some(status) = child.0.try_wait().expect("wait") {
            break status;
        }
        assert!(
            Instant::now() < deadline,
            "still running 20 s after SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "{status}");
    // Every line up to the pipe's end: the reader thread may still be reading what the server
    // wrote before it exited, and it hangs up (ending this loop) when the pipe closes.
    let mut rest = Vec::new();
    while let Ok(line) = lines.recv_timeout(Duration::from_secs(20)) {
        rest.push(line);
    }
    assert!(
        rest.iter().any(|l| l.contains("draining")),
        "no drain logged: {rest:?}"
    );
}
