//! Real Redis and PostgreSQL servers for tests: Debian's `redis-server` and PostgreSQL 15
//! (`initdb` + `postgres` from `/usr/lib/postgresql/15/bin`), each on a free loopback port
//! with its data in a fresh temporary directory, stopped and removed on drop. No system
//! service is used or needed (`.ci/run` installs the packages; their own services, if any
//! started, listen on the default ports, which these never use).
//!
//! When a binary is missing, [`Redis::start`] and [`Postgres::start`] return `None` after one
//! line naming it and the install command, and the test returns early; under
//! `SEVENBAG_REQUIRE_ALL=1` or `CI=true` they fail the test instead ([`crate::needs`]).

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tempfile::TempDir;

use anyhow::{Context, bail};

/// Where Debian's postgresql package puts the server binaries (override with
/// `SEVENBAG_PG_BIN`).
pub const PG_BIN: &str = "/usr/lib/postgresql/15/bin";

/// How long a service may take to accept connections.
const START_LIMIT: Duration = Duration::from_secs(30);

use crate::needs::missing;

fn free_port() -> anyhow::Result<u16> {
    Ok(TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

/// Waits until `ready` says yes, the child exits (an error), or [`START_LIMIT`] passes.
fn wait_ready(child: &mut Child, what: &str, ready: impl Fn() -> bool) -> anyhow::Result<()> {
    let start = Instant::now();
    while start.elapsed() < START_LIMIT {
        if ready() {
            return Ok(());
        }
        if let Some(status) = child.try_wait()? {
            bail!("{what} exited at start ({status})");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    bail!("{what} did not accept connections within {START_LIMIT:?}")
}

/// A `redis-server` of our own.
#[derive(Debug)]
pub struct Redis {
    child: Child,
    port: u16,
    /// Removed after `drop` has stopped the process (fields drop after `Drop::drop`).
    _dir: TempDir,
}

impl Redis {
    /// Starts one (see the module docs for `None`). Panics if it cannot start.
    pub fn start() -> Option<Redis> {
        if Command::new("redis-server")
            .arg("--version")
            .stdout(Stdio::null())
            .status()
            .is_err()
        {
            return missing("redis-server not found on PATH (Debian's redis-server)");
        }
        let mut last = None;
        // A free port can be taken between our check and the server's bind: try a few.
        for _ in 0..3 {
            match Redis::try_start() {
                Ok(r) => return Some(r),
                Err(e) => last = Some(e),
            }
        }
        panic!("cannot start redis-server: {last:?}");
    }

    fn try_start() -> anyhow::Result<Redis> {
        let port = free_port()?;
        let dir = crate::temp_dir("redis");
        let child = Command::new("redis-server")
            .args(["--bind", "127.0.0.1", "--port", &port.to_string()])
            .args([
                "--save",
                "",
                "--appendonly",
                "no",
                "--protected-mode",
                "yes",
            ])
            .arg("--dir")
            .arg(dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .context("spawning redis-server")?;
        let mut redis = Redis {
            child,
            port,
            _dir: dir,
        };
        // Ours, not another test's that took the same free port first: it reports our dir.
        let dir = redis._dir.path().to_string_lossy().into_owned();
        wait_ready(&mut redis.child, "redis-server", || {
            ping(port) && resp(port, &["CONFIG", "GET", "dir"]).is_ok_and(|r| r.contains(&dir))
        })?;
        Ok(redis)
    }

    /// `redis://127.0.0.1:PORT/`.
    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/", self.port)
    }

    /// Runs one command with `redis-cli`-free RESP over TCP; returns the raw reply.
    pub fn command(&self, args: &[&str]) -> anyhow::Result<String> {
        resp(self.port, args)
    }
}

impl Drop for Redis {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Sends one RESP command and reads one reply (enough for the simple replies tests need).
fn resp(port: u16, args: &[&str]) -> anyhow::Result<String> {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port))?;
    s.set_read_timeout(Some(Duration::from_secs(2)))?;
    let mut out = format!("*{}\r\n", args.len());
    for a in args {
        out.push_str(&format!("${}\r\n{a}\r\n", a.len()));
    }
    s.write_all(out.as_bytes())?;
    let mut buf = [0u8; 4096];
    let n = s.read(&mut buf)?;
    Ok(String::from_utf8_lossy(&buf[..n]).into_owned())
}

fn ping(port: u16) -> bool {
    resp(port, &["PING"]).is_ok_and(|r| r.starts_with("+PONG"))
}

/// A PostgreSQL server of our own (trust authentication on loopback, `fsync` off).
#[derive(Debug)]
pub struct Postgres {
    child: Child,
    port: u16,
    /// Removed after `drop` has stopped the process (fields drop after `Drop::drop`).
    dir: TempDir,
    as_postgres: bool,
}

fn pg_bin(name: &str) -> PathBuf {
    let dir = std::env::var("SEVENBAG_PG_BIN").unwrap_or_else(|_| PG_BIN.to_string());
    Path::new(&dir).join(name)
}

/// Whether we are root (PostgreSQL refuses to run as root: it then runs as `postgres`).
fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.trim_ascii() == b"0")
}

/// `program` as ourselves, or as the `postgres` user when we are root.
fn pg_command(program: &Path, as_postgres: bool) -> Command {
    if as_postgres {
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--"]).arg(program);
        c
    } else {
        Command::new(program)
    }
}

impl Postgres {
    /// Starts one (see the module docs for `None`). Panics if it cannot start.
    pub fn start() -> Option<Postgres> {
        if !pg_bin("initdb").exists() || !pg_bin("postgres").exists() {
            return missing(&format!(
                "PostgreSQL's initdb/postgres not found in {} (Debian's postgresql)",
                pg_bin("").display()
            ));
        }
        let mut last = None;
        for _ in 0..3 {
            match Postgres::try_start() {
                Ok(p) => return Some(p),
                Err(e) => last = Some(e),
            }
        }
        panic!("cannot start PostgreSQL: {last:?}");
    }

    fn try_start() -> anyhow::Result<Postgres> {
        let as_postgres = is_root();
        let dir = crate::temp_dir("postgres");
        let data = dir.path().join("data");
        if as_postgres {
            let status = Command::new("chown")
                .args(["-R", "postgres:postgres"])
                .arg(dir.path())
                .status()?;
            anyhow::ensure!(status.success(), "chown of {} failed", dir.path().display());
        }
        let out = pg_command(&pg_bin("initdb"), as_postgres)
            .args([
                "-U",
                "sevenbag",
                "--auth=trust",
                "--no-sync",
                "-E",
                "UTF8",
                "-D",
            ])
            .arg(&data)
            .output()
            .context("running initdb")?;
        anyhow::ensure!(
            out.status.success(),
            "initdb failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let port = free_port()?;
        let child = pg_command(&pg_bin("postgres"), as_postgres)
            .arg("-D")
            .arg(&data)
            .args(["-p", &port.to_string(), "-k"])
            .arg(dir.path())
            .args(["-c", "listen_addresses=127.0.0.1", "-c", "fsync=off"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .context("spawning postgres")?;
        let mut pg = Postgres {
            child,
            port,
            dir,
            as_postgres,
        };
        let ready = pg_bin("pg_isready");
        // Asked through our own socket directory (`-k`), so another test's server that took
        // the same free port first is never mistaken for ours.
        let socket_dir = pg.dir.path().to_path_buf();
        wait_ready(&mut pg.child, "postgres", || {
            Command::new(&ready)
                .args(["-q", "-h"])
                .arg(&socket_dir)
                .args(["-p", &port.to_string()])
                .status()
                .is_ok_and(|s| s.success())
        })?;
        Ok(pg)
    }

    /// `postgres://sevenbag@127.0.0.1:PORT/postgres`.
    pub fn url(&self) -> String {
        format!("postgres://sevenbag@127.0.0.1:{}/postgres", self.port)
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        // `postgres` may run under `runuser`: stop the server itself, then reap the child.
        let _ = pg_command(&pg_bin("pg_ctl"), self.as_postgres)
            .args(["stop", "-m", "immediate", "-w", "-t", "10", "-D"])
            .arg(self.dir.path().join("data"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
