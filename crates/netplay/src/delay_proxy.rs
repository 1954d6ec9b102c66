//! A loopback TCP proxy that adds latency: each direction of each connection is delayed by a
//! random one-way latency with jitter (default 50–150 ms) per chunk read, without ever reordering
//! bytes. Test and tool code (the end-to-end tests and `sevenbag-tool loadtest --latency-ms`),
//! never used by the server or the game.
//!
//! Every chunk read from one side gets a release time of `now + delay`, but never earlier than
//! the previous chunk's, so jitter stretches and bunches the stream like a real link but keeps it
//! in order (as TCP would). A writer task per direction sleeps until each release time and
//! writes. Dropping the [`Proxy`] stops the listener and every connection through it.

use std::net::SocketAddr;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio::task::JoinSet;
use tokio::time::Instant;

/// How much delay the proxy adds, each way.
#[derive(Clone, Copy, Debug)]
pub struct ProxyConfig {
    /// Least delay per direction.
    pub min_delay: Duration,
    /// Most delay per direction.
    pub max_delay: Duration,
    /// Seed of the jitter.
    pub seed: u64,
}

impl ProxyConfig {
    /// `latency ± jitter` each way (so the round trip is about twice `latency`), never below 0.
    pub fn latency(latency: Duration, jitter: Duration, seed: u64) -> ProxyConfig {
        ProxyConfig {
            min_delay: latency.saturating_sub(jitter),
            max_delay: latency + jitter,
            seed,
        }
    }
}

impl Default for ProxyConfig {
    fn default() -> Self {
        ProxyConfig {
            min_delay: Duration::from_millis(50),
            max_delay: Duration::from_millis(150),
            seed: 1,
        }
    }
}

/// A running proxy (see the module docs).
#[derive(Debug)]
pub struct Proxy {
    addr: SocketAddr,
    /// The accept loop; it owns every connection's tasks, so aborting it ends them all.
    task: tokio::task::JoinHandle<()>,
}

impl Proxy {
    /// Listens on `127.0.0.1:0` and forwards every connection to `upstream`.
    pub async fn start(upstream: SocketAddr, config: ProxyConfig) -> std::io::Result<Proxy> {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        let task = tokio::spawn(accept_loop(listener, upstream, config));
        Ok(Proxy { addr, task })
    }

    /// Where clients connect.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// `ws://127.0.0.1:PORT/` for WebSocket clients.
    pub fn url(&self) -> String {
        format!("ws://{}/", self.addr)
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn accept_loop(listener: TcpListener, upstream: SocketAddr, config: ProxyConfig) {
    // Dropped (and so aborting every connection task) when this loop is aborted.
    let mut connections = JoinSet::new();
    let mut seed = config.seed;
    loop {
        let Ok((client, _)) = listener.accept().await else {
            // Out of descriptors or similar: back off instead of spinning.
            tokio::time::sleep(Duration::from_millis(10)).await;
            continue;
        };
        seed = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let conn_seed = seed;
        connections.spawn(async move {
            let Ok(server) = TcpStream::connect(upstream).await else {
                return;
            };
            let _ = client.set_nodelay(true);
            let _ = server.set_nodelay(true);
            let (client_read, client_write) = client.into_split();
            let (server_read, server_write) = server.into_split();
            let mut pipes = JoinSet::new();
            pipes.spawn(pipe(client_read, server_write, config, conn_seed));
            pipes.spawn(pipe(server_read, client_write, config, conn_seed ^ 0xABCD));
            while pipes.join_next().await.is_some() {}
        });
        // Reap finished connections so the set does not grow.
        while connections.try_join_next().is_some() {}
    }
}

/// Copies `from` to `to`, each chunk released after its delay, in order.
async fn pipe(
    mut from: tokio::net::tcp::OwnedReadHalf,
    mut to: tokio::net::tcp::OwnedWriteHalf,
    config: ProxyConfig,
    seed: u64,
) {
    let (tx, mut rx) = mpsc::unbounded_channel::<(Instant, Vec<u8>)>();
    let writer = tokio::spawn(async move {
        while let Some((release, bytes)) = rx.recv().await {
            tokio::time::sleep_until(release).await;
            if to.write_all(&bytes).await.is_err() {
                return;
            }
        }
        let _ = to.shutdown().await;
    });
    let mut rng = seed;
    let spread = config
        .max_delay
        .saturating_sub(config.min_delay)
        .as_micros() as u64
        + 1;
    let mut last = Instant::now();
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        let n = match from.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        rng = splitmix(rng);
        let delay = config.min_delay + Duration::from_micros(rng % spread);
        let release = (Instant::now() + delay).max(last);
        last = release;
        if tx.send((release, buf[..n].to_vec())).is_err() {
            break;
        }
    }
    drop(tx);
    let _ = writer.await;
}

fn splitmix(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
