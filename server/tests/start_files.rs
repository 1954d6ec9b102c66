//! The files the `sevenbag-server` binary reads at start, as an operator might leave them: a
//! symlink to `/dev/zero`, a FIFO and a 1 GiB file among the replays and among the room logs
//! are each skipped with a logged reason, without being read, and the server serves at once;
//! a SQLite file damaged beyond its header is refused with the message a bad header gets.
#![cfg(unix)]

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Longest wait for the server to start or stop (generous: the machine may be busy; a hang is
/// what this catches).
const WAIT: Duration = Duration::from_secs(30);
/// Peak memory a server that read none of the big files stays under (it idles at ~20 MB).
const PEAK_RSS_LIMIT_KB: u64 = 256 * 1024;

/// Kills the child if the test fails before it exits.
struct Child(std::process::Child);

impl Drop for Child {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo").arg(path).status().expect("mkfifo");
    assert!(made.success(), "mkfifo {}", path.display());
}

/// A symlink to `/dev/zero`, a FIFO and a sparse 1 GiB file, named `{stem}-….{ext}`.
fn hostile_files(dir: &Path, stem: [&str; 3], ext: &str) {
    std::fs::create_dir_all(dir).expect("dir");
    std::os::unix::fs::symlink("/dev/zero", dir.join(format!("{}.{ext}", stem[0])))
        .expect("symlink");
    mkfifo(&dir.join(format!("{}.{ext}", stem[1])));
    std::fs::File::create(dir.join(format!("{}.{ext}", stem[2])))
        .and_then(|f| f.set_len(1 << 30))
        .expect("a sparse 1 GiB file");
}

/// The peak resident memory of process `pid` (`VmHWM`), in kB.
fn peak_rss_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("proc status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM")
}

/// `GET path` over plain HTTP; the status line.
fn status_line(addr: &str, path: &str) -> String {
    let mut tcp = std::net::TcpStream::connect(addr).expect("connect");
    tcp.set_read_timeout(Some(WAIT)).expect("timeout");
    write!(
        tcp,
        "GET {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n"
    )
    .expect("write");
    let mut reply = String::new();
    let _ = tcp.read_to_string(&mut reply);
    reply.lines().next().unwrap_or_default().to_string()
}

#[test]
fn devices_fifos_and_huge_files_among_replays_and_room_logs_are_skipped_with_a_reason() {
    let dir = tempfile::Builder::new()
        .prefix("sevenbag-start-")
        .tempdir()
        .expect("temp dir");
    let replays = dir.path().join("replays");
    hostile_files(&replays, ["zero", "fifo", "huge"], "sbrp");
    hostile_files(&replays.join("rooms"), ["ZZZZZ", "FFFFF", "HHHHH"], "sbrl");

    let start = Instant::now();
    let mut child = Child(
        Command::new(env!("CARGO_BIN_EXE_sevenbag-server"))
            .args(["--bind", "127.0.0.1:0", "--no-db", "--log-format", "json"])
            .arg("--replay-dir")
            .arg(&replays)
            .env("RUST_LOG", "info")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the server binary"),
    );
    let stdout = child.0.stdout.take().expect("stdout");
    let (tx, lines) = mpsc::channel::<serde_json::Value>();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            let json = serde_json::from_str(&line).unwrap_or(serde_json::Value::Null);
            if tx.send(json).is_err() {
                break;
            }
        }
    });
    let mut seen = Vec::new();
    let addr = loop {
        let line = lines.recv_timeout(WAIT).unwrap_or_else(|_| {
            panic!("not listening within {WAIT:?} (a hang at start); logged: {seen:#?}")
        });
        if line["message"] == "listening" {
            // Logged as `Some(127.0.0.1:PORT)`.
            let addr = line["addr"].as_str().unwrap_or_default();
            break addr
                .trim_start_matches("Some(")
                .trim_end_matches(')')
                .to_string();
        }
        seen.push(line);
    };
    let started_in = start.elapsed();

    let reason = |file: &str| {
        seen.iter()
            .find(|l| l["path"].as_str().is_some_and(|p| p.ends_with(file)))
            .map(|l| {
                let reason = l["error"].as_str().or(l["reason"].as_str());
                format!("{}: {}", l["message"], reason.unwrap_or_default())
            })
            .unwrap_or_else(|| panic!("nothing logged about {file}: {seen:#?}"))
    };
    for (file, why) in [
        ("zero.sbrp", "not a regular file (a character device)"),
        ("fifo.sbrp", "not a regular file (a FIFO)"),
        (
            "huge.sbrp",
            "1073741824 bytes: over the 67108864-byte limit",
        ),
    ] {
        let logged = reason(file);
        assert!(
            logged.contains("skipping unreadable replay") && logged.contains(why),
            "{file}: {logged}"
        );
    }
    for (file, why) in [
        ("ZZZZZ.sbrl", "not a regular file (a character device)"),
        ("FFFFF.sbrl", "not a regular file (a FIFO)"),
        (
            "HHHHH.sbrl",
            "1073741824 bytes: over the 67108864-byte limit",
        ),
    ] {
        let logged = reason(file);
        assert!(
            logged.contains("room log refused") && logged.contains(why),
            "{file}: {logged}"
        );
    }

    // It serves, and read none of the big files on the way.
    assert_eq!(status_line(&addr, "/healthz"), "HTTP/1.1 200 OK");
    let peak = peak_rss_kb(child.0.id());
    assert!(
        peak < PEAK_RSS_LIMIT_KB,
        "peak resident memory {peak} kB: a big file was read (started in {started_in:?})"
    );
    println!("started in {started_in:?}, peak resident memory {peak} kB");
}

/// Runs the binary on `db` and returns its exit status and everything it printed.
fn start_on_database(dir: &Path, db: &Path) -> (std::process::ExitStatus, String) {
    start_refused(dir, &["--db".as_ref(), db.as_os_str()])
}

/// Runs the binary with `args` and returns its exit status and everything it printed; fails
/// if it is still running after [`WAIT`] (it was not refused).
fn start_refused(dir: &Path, args: &[&std::ffi::OsStr]) -> (std::process::ExitStatus, String) {
    let mut child = Child(
        Command::new(env!("CARGO_BIN_EXE_sevenbag-server"))
            .args(["--bind", "127.0.0.1:0"])
            .arg("--replay-dir")
            .arg(dir.join("replays"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start the server binary"),
    );
    let deadline = Instant::now() + WAIT;
    let status = loop {
        if let Some(status) = child.0.try_wait().expect("wait") {
            break status;
        }
        assert!(Instant::now() < deadline, "still running: not refused");
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut out = String::new();
    for pipe in [
        child.0.stdout.take().map(|p| Box::new(p) as Box<dyn Read>),
        child.0.stderr.take().map(|p| Box::new(p) as Box<dyn Read>),
    ]
    .into_iter()
    .flatten()
    {
        let mut pipe = pipe;
        let _ = pipe.read_to_string(&mut out);
    }
    (status, out)
}

#[test]
fn a_database_damaged_beyond_its_header_is_refused_at_start_like_a_bad_header() {
    let dir = tempfile::Builder::new()
        .prefix("sevenbag-start-db-")
        .tempdir()
        .expect("temp dir");
    let db = dir.path().join("sevenbag.db");
    drop(sevenbag_storage::SqliteStorage::open(&db).expect("create and migrate"));
    let (page_size, root): (i64, i64) = {
        let c = rusqlite::Connection::open(&db).expect("open");
        let page_size = c
            .query_row("PRAGMA page_size", [], |r| r.get(0))
            .expect("page size");
        let root = c
            .query_row(
                "SELECT rootpage FROM sqlite_master WHERE name = 'players_by_rating'",
                [],
                |r| r.get(0),
            )
            .expect("the index's root page");
        (page_size, root)
    };
    assert!(root > 1, "the header's page is left alone");
    let mut bytes = std::fs::read(&db).expect("read");
    let at = ((root - 1) * page_size) as usize;
    bytes[at..at + page_size as usize].fill(0xa5);
    std::fs::write(&db, &bytes).expect("damage an index page");

    let (status, out) = start_on_database(dir.path(), &db);
    assert!(!status.success(), "{out}");
    let expected = format!("{}: not a Sevenbag database or corrupt (", db.display());
    assert!(
        out.contains(&expected) && out.contains("quick_check"),
        "{out}"
    );
    assert!(out.contains("move it away or restore a backup"), "{out}");

    // A bad header gets the same words.
    std::fs::write(&db, vec![0x42; 4096]).expect("garbage header");
    let (status, out) = start_on_database(dir.path(), &db);
    assert!(!status.success(), "{out}");
    assert!(out.contains(&expected), "{out}");
}

#[test]
fn an_admin_token_file_that_is_a_device_a_fifo_or_huge_is_refused_at_start_without_reading_it() {
    let dir = tempfile::Builder::new()
        .prefix("sevenbag-start-tokens-")
        .tempdir()
        .expect("temp dir");
    hostile_files(dir.path(), ["zero", "fifo", "huge"], "tokens");
    for (file, why) in [
        ("zero.tokens", "not a regular file (a character device)"),
        ("fifo.tokens", "not a regular file (a FIFO)"),
        ("huge.tokens", "1073741824 bytes: over the 65536-byte limit"),
    ] {
        let path = dir.path().join(file);
        let (status, out) = start_refused(
            dir.path(),
            &[
                "--no-db".as_ref(),
                "--admin-token-file".as_ref(),
                path.as_os_str(),
            ],
        );
        assert!(!status.success(), "{file}: {out}");
        let expected = format!("cannot read the admin token file {}: {why}", path.display());
        assert!(out.contains(&expected), "{file}: {out}");
    }
}

#[test]
fn another_programs_sqlite_file_is_refused_at_start_and_left_untouched() {
    let dir = tempfile::Builder::new()
        .prefix("sevenbag-start-foreign-")
        .tempdir()
        .expect("temp dir");
    let db = dir.path().join("other.db");
    rusqlite::Connection::open(&db)
        .and_then(|c| c.execute_batch("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1);"))
        .expect("another program's database");
    let before = std::fs::read(&db).expect("read");

    let (status, out) = start_on_database(dir.path(), &db);
    assert!(!status.success(), "{out}");
    let expected = format!(
        "{}: not a Sevenbag database (it holds other tables: t)",
        db.display()
    );
    assert!(out.contains(&expected), "{out}");
    assert_eq!(
        std::fs::read(&db).expect("read"),
        before,
        "the file is not changed"
    );
}
