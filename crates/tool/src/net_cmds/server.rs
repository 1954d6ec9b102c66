//! The server `loadtest --spawn-server` starts for the run, on a free loopback port, and
//! kills (and for `--kill-at` starts again) with the same flags.
//!
//! Every load player comes from 127.0.0.1. The server's only per-address limits are on new
//! identities (`--registrations-per-hour`, `--registrations-per-day`) and on datagrams; the
//! server started here lifts those a run needs ([`Flavor`]). Connections are limited in
//! number only (`--max-connections`), not per address.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::Context as _;

/// What the run needs of the server besides rooms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Flavor {
    /// Rooms only: no database.
    Plain,
    /// Ranked play between declared bots from one address (a temporary SQLite database).
    Ranked,
    /// Identities, friends and notifications (a temporary SQLite database, no limit on new
    /// identities per address).
    Social,
}

/// A server process started for the run; killed when dropped.
pub(super) struct SpawnedServer {
    pub(super) child: Child,
    pub(super) url: String,
    replay_dir: PathBuf,
    /// How it was started, to start it again the same way (`--kill-at`).
    bin: PathBuf,
    port: u16,
    matches: usize,
    flavor: Flavor,
}

impl SpawnedServer {
    pub(super) fn start(
        bin: Option<PathBuf>,
        matches: usize,
        flavor: Flavor,
    ) -> anyhow::Result<SpawnedServer> {
        let bin = match bin {
            Some(bin) => bin,
            None => std::env::current_exe()
                .context("cannot find this tool's own path")?
                .with_file_name("sevenbag-server"),
        };
        anyhow::ensure!(
            bin.exists(),
            "no server binary at {} (build it: cargo build --release -p sevenbag-server, or pass --server-bin)",
            bin.display()
        );
        // A free port: bind :0, note it, let it go (the server binds it a moment later).
        let port = TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
        let replay_dir =
            std::env::temp_dir().join(format!("sevenbag-loadtest-{}", std::process::id()));
        std::fs::create_dir_all(&replay_dir)?;
        let child = Self::spawn(&bin, port, &replay_dir, matches, flavor)?;
        let server = SpawnedServer {
            child,
            url: format!("ws://127.0.0.1:{port}/"),
            replay_dir,
            bin,
            port,
            matches,
            flavor,
        };
        server.wait_listening()?;
        eprintln!(
            "started {} (pid {}) on {}",
            server.bin.display(),
            server.child.id(),
            server.url
        );
        Ok(server)
    }

    /// `kill -9` and start again with the same flags (same port, replay and room log
    /// directories); returns once the new process listens.
    pub(super) fn kill_and_restart(&mut self) -> anyhow::Result<()> {
        self.child.kill()?;
        self.child.wait()?;
        self.child = Self::spawn(
            &self.bin,
            self.port,
            &self.replay_dir,
            self.matches,
            self.flavor,
        )?;
        self.wait_listening()
    }

    fn spawn(
        bin: &std::path::Path,
        port: u16,
        replay_dir: &std::path::Path,
        matches: usize,
        flavor: Flavor,
    ) -> anyhow::Result<Child> {
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(replay_dir.join("server.log"))?;
        let mut command = Command::new(bin);
        let registrations = [
            "--registrations-per-hour",
            "0",
            "--registrations-per-day",
            "0",
        ];
        if flavor == Flavor::Ranked {
            // Every load player is a declared bot with a fresh identity on 127.0.0.1, meeting
            // the same few opponents over and over: this server lets that through (its own
            // ranked queue under load is what is measured; docs/MODERATION.md).
            command
                .arg("--db")
                .arg(replay_dir.join("loadtest.db"))
                .args(["--ranked-bots", "--ranked-same-address", "--no-screening"])
                .args(registrations)
                .args(["--ranked-pair-daily", "0"]);
        } else if flavor == Flavor::Social {
            // Every load player registers a fresh identity from 127.0.0.1.
            command
                .arg("--db")
                .arg(replay_dir.join("loadtest.db"))
                .args(registrations);
        } else {
            command.arg("--no-db");
        }
        let child = command
            .arg("--bind")
            .arg(format!("127.0.0.1:{port}"))
            .arg("--replay-dir")
            .arg(replay_dir)
            .arg("--max-connections")
            .arg((2 * matches + 100).max(10_000).to_string())
            .arg("--max-rooms")
            .arg((matches + 10).max(5_000).to_string())
            // Every load player is on 127.0.0.1: one address, no per-address datagram limits.
            .args(["--datagram-sessions-per-address", "0"])
            .args(["--datagrams-per-address", "0"])
            .env(
                "RUST_LOG",
                std::env::var("RUST_LOG").unwrap_or_else(|_| "warn".into()),
            )
            .stdin(Stdio::null())
            .stdout(log.try_clone()?)
            .stderr(log)
            .spawn()
            .with_context(|| format!("cannot start {}", bin.display()))?;
        Ok(child)
    }

    /// Waits (bounded) until the server accepts connections.
    fn wait_listening(&self) -> anyhow::Result<()> {
        let deadline = Instant::now() + Duration::from_secs(10);
        while std::net::TcpStream::connect(("127.0.0.1", self.port)).is_err() {
            anyhow::ensure!(
                Instant::now() < deadline,
                "the server did not start listening in 10 s"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
        Ok(())
    }
}

impl Drop for SpawnedServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.replay_dir);
    }
}
