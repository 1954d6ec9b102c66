//! A loopback TCP proxy that adds latency and the cost of lost packets: each direction of each
//! connection is delayed by a random one-way latency with jitter (default 50–150 ms) per chunk
//! read, without ever reordering bytes. Test and tool code (the end-to-end tests and
//! `sevenbag-tool loadtest --latency-ms --loss`), never used by the server or the game.
//!
//! Every chunk read from one side gets a release time of `now + delay`, but never earlier than
//! the previous chunk's, so jitter stretches and bunches the stream like a real link but keeps it
//! in order (as TCP would). A writer task per direction sleeps until each release time and
//! writes. Dropping the [`Proxy`] stops the listener and every connection through it.
//!
//! # Loss on a TCP stream: the retransmission-delay model
//! A TCP stream cannot lose a chunk: the sender retransmits it, after about a round trip (fast
//! retransmit, tail-loss probe) or after the retransmission timeout (at least 200 ms on Linux),
//! and the receiver holds back everything behind it meanwhile. The proxy models exactly that
//! ([`Loss`]): a chunk is "lost" with probability `p` and released [`Loss::retransmit`] (default
//! [`RETRANSMIT_DELAY`], 220 ms) later than it would have been, and because release times never
//! go back, every chunk read after it waits behind it, as head-of-line blocking does. Losses come
//! in bursts of 1 to `burst` chunks (uniformly), a burst starting with probability
//! `p / mean burst length`, so that `p` stays the long-run share of chunks lost. A chunk is one
//! read from the socket: at game rates, one WebSocket message.

use std::net::SocketAddr;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio::task::JoinSet;
use tokio::time::Instant;

pub use crate::impairment::{Impairment, Loss, LossSwitch, ProxyConfig, RETRANSMIT_DELAY};

/// A running proxy (see the module docs).
#[derive(Debug)]
pub struct Proxy {
    addr: SocketAddr,
    loss: LossSwitch,
    /// The accept loop; it owns every connection's tasks, so aborting it ends them all.
    task: tokio::task::JoinHandle<()>,
}

impl Proxy {
    /// Listens on `127.0.0.1:0` and forwards every connection to `upstream`.
    pub async fn start(upstream: SocketAddr, config: ProxyConfig) -> std::io::Result<Proxy> {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        let loss = LossSwitch::new(config.loss);
        let task = tokio::spawn(accept_loop(listener, upstream, config, loss.clone()));
        Ok(Proxy { addr, loss, task })
    }

    /// Changes the loss every connection sees, from its next chunk on.
    pub fn set_loss(&self, loss: Loss) {
        self.loss.set(loss);
    }

    /// A TCP proxy and a UDP one ([`crate::udp_proxy`]) on the same loopback port number, so a
    /// client reaches both at the one address it dialed (the server's datagram path is its
    /// port's UDP twin): `tcp` impairs the WebSocket, `udp` the datagrams.
    pub async fn start_pair(
        upstream: SocketAddr,
        tcp: ProxyConfig,
        udp: ProxyConfig,
    ) -> std::io::Result<(Proxy, crate::udp_proxy::UdpProxy)> {
        let mut tries = 0;
        loop {
            let proxy = Proxy::start(upstream, tcp).await?;
            match crate::udp_proxy::UdpProxy::start(proxy.addr(), upstream, udp).await {
                Ok(udp) => return Ok((proxy, udp)),
                // The port number is taken on UDP (rare): another one.
                Err(e) if tries < 20 => {
                    tries += 1;
                    tracing::debug!(error = %e, "UDP twin port taken; trying another");
                }
                Err(e) => return Err(e),
            }
        }
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

async fn accept_loop(
    listener: TcpListener,
    upstream: SocketAddr,
    config: ProxyConfig,
    loss: LossSwitch,
) {
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
        let loss = loss.clone();
        connections.spawn(async move {
            let Ok(server) = TcpStream::connect(upstream).await else {
                return;
            };
            let _ = client.set_nodelay(true);
            let _ = server.set_nodelay(true);
            let (client_read, client_write) = client.into_split();
            let (server_read, server_write) = server.into_split();
            let mut pipes = JoinSet::new();
            pipes.spawn(pipe(
                client_read,
                server_write,
                config,
                conn_seed,
                loss.clone(),
            ));
            pipes.spawn(pipe(
                server_read,
                client_write,
                config,
                conn_seed ^ 0xABCD,
                loss,
            ));
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
    loss: LossSwitch,
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
    let mut link = Impairment::new(&config, seed);
    let mut last = Instant::now();
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        let n = match from.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        let loss = loss.get();
        link.set_loss(loss);
        let mut delay = link.delay();
        if link.lost() {
            // Retransmitted: late, and everything behind it waits (release times never go back).
            delay += loss.retransmit;
        }
        let release = (Instant::now() + delay).max(last);
        last = release;
        if tx.send((release, buf[..n].to_vec())).is_err() {
            break;
        }
    }
    drop(tx);
    let _ = writer.await;
}
