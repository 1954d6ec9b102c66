//! A real server for a test: [`start_server`] and [`TestServer`].

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use sevenbag_server::{ClusterConfig, Config, Limits, ModerationConfig, ServerError, ServerHandle};

use crate::services::Redis;

/// A running test server. Dropping it signals shutdown and removes its replay directory.
#[derive(Debug)]
pub struct TestServer {
    handle: Option<ServerHandle>,
    addr: SocketAddr,
    /// The datagram path's UDP address, when it runs.
    datagrams: Option<SocketAddr>,
    url: String,
    replay_dir: crate::TempDir,
    /// The configuration it runs with (its replay directory set), for [`TestServer::restart`].
    config: Config,
}

/// Logs for tests: `RUST_LOG` if set (e.g. `RUST_LOG=sevenbag_server=debug`), else warnings.
/// Safe to call any number of times.
pub fn init_tracing() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_test_writer()
        .try_init();
}

/// A configuration for fast tests: 10-frame countdowns and round breaks, frame 0 100 ms after
/// `MatchStart`, short ping/idle/hello timeouts, and 1 s (not 2 s) for a closing connection's
/// farewell, so shutdown with idle clients is quick. Limits are otherwise the defaults, but for
/// moderation's: no registration or ranked-pairing limits and no screening
/// ([`ModerationConfig::permissive`]: every test client is on 127.0.0.1 and plays scripted,
/// inhuman inputs); the moderation tests turn them on.
pub fn fast_config() -> Config {
    Config {
        limits: Limits {
            ping_interval: Duration::from_millis(500),
            idle_timeout: Duration::from_secs(3),
            hello_timeout: Duration::from_secs(3),
            close_grace: Duration::from_secs(1),
            ..Limits::default()
        },
        start_delay: Duration::from_millis(100),
        countdown_frames: Some(10),
        round_break_frames: Some(10),
        moderation: ModerationConfig::permissive(),
        ..Config::default()
    }
}

/// Starts the server library on `127.0.0.1:0` with `config`, except that `replay_dir` is always
/// a fresh temporary directory. Panics if the server cannot start (this is test code).
pub async fn start_server(config: Config) -> TestServer {
    // The datagram path binds UDP on the port TCP got: pick a port free on both (rarely one is
    // taken on UDP only).
    for _ in 0..20 {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .unwrap_or_else(|e| panic!("cannot bind 127.0.0.1:0: {e}"));
        let addr = listener.local_addr().expect("bound");
        if std::net::UdpSocket::bind(addr).is_ok() {
            return start_server_on(listener, config).await;
        }
    }
    panic!("no loopback port free on both TCP and UDP in 20 tries");
}

/// [`start_server`] on a listener bound by the caller (a cluster instance needs its own
/// address in its configuration before it starts).
pub async fn start_server_on(listener: tokio::net::TcpListener, mut config: Config) -> TestServer {
    init_tracing();
    let replay_dir = crate::temp_dir("replays");
    config.replay_dir = replay_dir.path().to_path_buf();
    let handle = sevenbag_server::spawn_on(listener, config.clone())
        .await
        .unwrap_or_else(|e| panic!("test server could not start: {e}"));
    TestServer {
        addr: handle.addr(),
        datagrams: handle.datagram_addr(),
        url: handle.url(),
        handle: Some(handle),
        replay_dir,
        config,
    }
}

/// A cluster instance on a fresh loopback port, sharing `redis` with entries that live `ttl`:
/// `base` with its public URL set to its own address.
pub async fn start_cluster_instance(redis: &Redis, ttl: Duration, base: Config) -> TestServer {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let config = Config {
        cluster: Some(ClusterConfig {
            redis_url: redis.url(),
            public_url: format!("ws://{addr}/"),
            ttl,
        }),
        ..base
    };
    start_server_on(listener, config).await
}

impl TestServer {
    /// The datagram path's UDP address (the same port number), when the server runs one.
    pub fn datagram_addr(&self) -> Option<SocketAddr> {
        self.datagrams
    }

    /// The server's address (still known after shutdown, when nothing listens on it).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// `ws://127.0.0.1:PORT/` (`wss://` when the config asked for TLS).
    pub fn url(&self) -> String {
        self.url.clone()
    }

    /// Starts a graceful drain, as SIGTERM does to the binary.
    pub fn drain(&mut self) {
        if let Some(handle) = &mut self.handle {
            handle.drain();
        }
    }

    /// Waits (at most `limit`) for the server to stop by itself, after [`TestServer::drain`].
    pub async fn wait_stopped(&mut self, limit: Duration) -> Result<(), ServerError> {
        let Some(handle) = self.handle.take() else {
            return Ok(());
        };
        match tokio::time::timeout(limit, handle.wait()).await {
            Ok(result) => result,
            Err(_) => Err(ServerError::Task(format!("still running after {limit:?}"))),
        }
    }

    /// Stops the server (its running matches keep their room logs, as after a drain that timed
    /// out), leaves it down for `down`, and starts it again on the same address with the same
    /// configuration and directory, so it takes those matches up again. Clients see their
    /// connections end and must come back by themselves.
    pub async fn restart(&mut self, down: Duration) -> Result<(), ServerError> {
        self.shutdown().await?;
        tokio::time::sleep(down).await;
        let listener = tokio::net::TcpListener::bind(self.addr)
            .await
            .map_err(|e| ServerError::Task(format!("cannot bind {} again: {e}", self.addr)))?;
        let handle = sevenbag_server::spawn_on(listener, self.config.clone())
            .await
            .map_err(|e| ServerError::Task(format!("the server did not start again: {e}")))?;
        self.handle = Some(handle);
        Ok(())
    }

    /// The server's (temporary) replay directory.
    pub fn replay_dir(&self) -> &Path {
        self.replay_dir.path()
    }

    /// The replay files currently in the directory (`*.sbrp`), sorted.
    pub fn replay_files(&self) -> Vec<PathBuf> {
        let mut files: Vec<PathBuf> = std::fs::read_dir(self.replay_dir.path())
            .map(|dir| {
                dir.filter_map(Result::ok)
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|x| x == "sbrp"))
                    .collect()
            })
            .unwrap_or_default();
        files.sort();
        files
    }

    /// Shuts the server down and waits for every client to be told and every replay to be
    /// written (bounded to 30 s). It takes `&mut self`, not `self`, so the replay directory
    /// (removed on drop) can still be read afterwards. Calling it twice is harmless.
    pub async fn shutdown(&mut self) -> Result<(), ServerError> {
        let Some(handle) = self.handle.take() else {
            return Ok(());
        };
        match tokio::time::timeout(Duration::from_secs(30), handle.shutdown()).await {
            Ok(result) => result,
            Err(_) => Err(ServerError::Task("shutdown took over 30 s".into())),
        }
    }
}

impl Drop for TestServer {
    /// A server still running is shut down and waited for ([`TestServer::shutdown`]) before
    /// the replay directory goes, so a replay saved during shutdown cannot land in a directory
    /// being removed (which left the directory behind). That wait needs a multi-threaded
    /// runtime; under a current-thread one (or none) dropping the handle only signals shutdown.
    fn drop(&mut self) {
        if self.handle.is_none() {
            return;
        }
        let Ok(rt) = tokio::runtime::Handle::try_current() else {
            return;
        };
        if rt.runtime_flavor() != tokio::runtime::RuntimeFlavor::MultiThread {
            return;
        }
        tokio::task::block_in_place(|| {
            let _ = rt.block_on(self.shutdown());
        });
    }
}
