//! A server on a task of its own: [`spawn`], [`spawn_on`] and the [`ServerHandle`] that drains,
//! stops and awaits it.

use std::net::SocketAddr;

use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use crate::config::Config;
use crate::error::ServerError;
use crate::startup::{serve, udp_twin};
use crate::web;

/// A server started by [`spawn`]. Dropping it signals shutdown without waiting.
#[derive(Debug)]
pub struct ServerHandle {
    addr: SocketAddr,
    /// The datagram path's UDP address (the same port), when it runs.
    udp: Option<SocketAddr>,
    tls: bool,
    stop: Option<oneshot::Sender<()>>,
    drain: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<Result<(), ServerError>>>,
}

impl ServerHandle {
    /// The address the server listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The datagram path's UDP address (the listener's port number), if it was bound.
    pub fn datagram_addr(&self) -> Option<SocketAddr> {
        self.udp
    }

    /// `ws://127.0.0.1:PORT/`, or `wss://` when the server serves TLS.
    pub fn url(&self) -> String {
        let scheme = if self.tls { "wss" } else { "ws" };
        format!("{scheme}://{}/", self.addr)
    }

    /// Starts a graceful drain (what SIGTERM does to the binary); see
    /// [`run_with_drain`](crate::run_with_drain).
    /// [`ServerHandle::wait`] then returns when the server has stopped by itself.
    pub fn drain(&mut self) {
        if let Some(drain) = self.drain.take() {
            let _ = drain.send(());
        }
    }

    /// Waits until the server stops on its own (after [`ServerHandle::drain`]), without
    /// signalling anything.
    pub async fn wait(mut self) -> Result<(), ServerError> {
        match self.task.take() {
            Some(task) => task.await.map_err(|e| ServerError::Task(e.to_string()))?,
            None => Ok(()),
        }
    }

    /// Shuts the server down and waits until every client was told and every replay written.
    pub async fn shutdown(mut self) -> Result<(), ServerError> {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        self.wait().await
    }
}

/// Binds `127.0.0.1:0` (and, for the datagram path, UDP on the same port: the rare port taken
/// on UDP is another try), starts [`run_with_drain`](crate::run_with_drain) on a task, and
/// returns its handle.
pub async fn spawn(config: Config) -> std::io::Result<ServerHandle> {
    let mut tries = 0;
    loop {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        if !config.datagrams {
            return spawn_inner(listener, None, config).await;
        }
        tries += 1;
        match udp_twin(&listener) {
            Some(udp) => return spawn_inner(listener, Some(udp), config).await,
            None if tries < 20 => continue,
            None => return spawn_inner(listener, None, config).await,
        }
    }
}

/// [`spawn`] on a listener the caller bound (so it knows the address first, e.g. for
/// [`ClusterConfig::public_url`](crate::ClusterConfig::public_url)); the datagram path binds
/// UDP at its address.
pub async fn spawn_on(listener: TcpListener, config: Config) -> std::io::Result<ServerHandle> {
    let udp = if config.datagrams {
        udp_twin(&listener)
    } else {
        None
    };
    spawn_inner(listener, udp, config).await
}

async fn spawn_inner(
    listener: TcpListener,
    udp: Option<std::net::UdpSocket>,
    config: Config,
) -> std::io::Result<ServerHandle> {
    std::fs::create_dir_all(&config.replay_dir)?;
    if let Some(dir) = &config.web_dir {
        web::resolve_root(dir).map_err(std::io::Error::other)?;
    }
    let addr = listener.local_addr()?;
    let tls = config.tls.is_some();
    let (stop, stopped) = oneshot::channel::<()>();
    let (drain, drained) = oneshot::channel::<()>();
    // The stop signal fires on `send` or when the handle (and so the sender) is dropped; the
    // drain signal only on `send`.
    let udp_addr = udp.as_ref().and_then(|u| u.local_addr().ok());
    let serving = serve(
        listener,
        udp,
        config,
        async move {
            if drained.await.is_err() {
                std::future::pending::<()>().await;
            }
        },
        async move {
            let _ = stopped.await;
        },
    );
    // A server that stops on an error (its database, Redis or a directory at start) closes its
    // port at once; say why where it happens, not only to whoever awaits the handle.
    let task = tokio::spawn(async move {
        let result = serving.await;
        if let Err(e) = &result {
            tracing::error!(%addr, error = %e, "the server stopped on an error");
        }
        result
    });
    Ok(ServerHandle {
        addr,
        udp: udp_addr,
        tls,
        stop: Some(stop),
        drain: Some(drain),
        task: Some(task),
    })
}
