//! What every net test of the game starts: a real server on 127.0.0.1:0 over a temporary
//! directory of its own, stopped (at most ten seconds) when dropped, and able to stop and start
//! again on the same address (a server restart mid-match).

use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;

use crate::net::online::transport::runtime;

/// The test server's settings over `dir`: its replays there, a short start delay and countdown.
pub(crate) fn config(dir: &Path) -> sevenbag_server::Config {
    sevenbag_server::Config {
        replay_dir: dir.to_path_buf(),
        start_delay: Duration::from_millis(200),
        countdown_frames: Some(30),
        ..sevenbag_server::Config::default()
    }
}

/// A server on a free loopback port with a directory of its own. Dropping it shuts the server
/// down and waits (at most 10 s) until every replay is written, and only then removes the
/// directory: a server still saving a match's replay while the directory is being removed
/// left the directory behind.
pub(crate) struct LocalServer {
    addr: SocketAddr,
    handle: Option<sevenbag_server::ServerHandle>,
    config: sevenbag_server::Config,
    _dir: tempfile::TempDir,
}

/// Whether a server stopped, and in time.
pub(crate) type Stopped =
    Result<Result<(), sevenbag_server::ServerError>, tokio::time::error::Elapsed>;

impl LocalServer {
    /// A server with [`config`].
    pub(crate) fn start() -> LocalServer {
        LocalServer::start_with(|_, _| {})
    }

    /// A server with [`config`] changed by `tweak` (given the server's directory).
    pub(crate) fn start_with(tweak: impl FnOnce(&mut sevenbag_server::Config, &Path)) -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut config = config(dir.path());
        tweak(&mut config, dir.path());
        let handle = runtime()
            .expect("runtime")
            .block_on(sevenbag_server::spawn(config.clone()))
            .expect("server");
        LocalServer {
            addr: handle.addr(),
            handle: Some(handle),
            config,
            _dir: dir,
        }
    }

    /// Its address.
    pub(crate) fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Shuts it down, giving it ten seconds (a stopped server stops at once).
    pub(crate) fn stop(&mut self) -> Stopped {
        match self.handle.take() {
            Some(handle) => runtime().expect("runtime").block_on(async {
                tokio::time::timeout(Duration::from_secs(10), handle.shutdown()).await
            }),
            None => Ok(Ok(())),
        }
    }

    /// Starts it again, stopped, on the same address over the same directory.
    pub(crate) fn start_again(&mut self) {
        let handle = runtime()
            .expect("runtime")
            .block_on(async {
                let listener = tokio::net::TcpListener::bind(self.addr).await?;
                sevenbag_server::spawn_on(listener, self.config.clone()).await
            })
            .expect("started again");
        self.handle = Some(handle);
    }
}

impl Drop for LocalServer {
    fn drop(&mut self) {
        if runtime().is_ok() {
            let _ = self.stop();
        }
    }
}
