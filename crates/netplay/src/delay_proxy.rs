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

/// How late a "lost" chunk of a TCP stream arrives by default: a retransmission after the
/// Linux minimum retransmission timeout (200 ms) plus a little.
pub const RETRANSMIT_DELAY: Duration = Duration::from_millis(220);

/// Packet loss, in bursts (see the module docs for what it means on each kind of proxy).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Loss {
    /// Long-run share of chunks (or datagrams) lost, 0.0..=1.0.
    pub probability: f64,
    /// Longest burst: each loss event takes 1 to this many chunks in a row (uniformly).
    pub burst: u32,
    /// TCP only: how much later a lost chunk is delivered (its retransmission).
    pub retransmit: Duration,
}

impl Loss {
    /// No loss.
    pub const NONE: Loss = Loss {
        probability: 0.0,
        burst: 1,
        retransmit: RETRANSMIT_DELAY,
    };

    /// Loss with probability `p` in bursts of up to `burst`, retransmitted after
    /// [`RETRANSMIT_DELAY`].
    pub fn bursts(p: f64, burst: u32) -> Loss {
        Loss {
            probability: p.clamp(0.0, 1.0),
            burst: burst.max(1),
            retransmit: RETRANSMIT_DELAY,
        }
    }

    /// Whether any chunk is ever lost.
    pub fn is_none(&self) -> bool {
        self.probability <= 0.0
    }
}

impl Default for Loss {
    fn default() -> Self {
        Loss::NONE
    }
}

/// The loss a running proxy applies, shared by all its connections and changeable while it
/// runs ([`Proxy::set_loss`]): e.g. a load test starts lossless and turns loss on for its
/// measurement window.
#[derive(Clone, Debug, Default)]
pub struct LossSwitch(std::sync::Arc<std::sync::Mutex<Loss>>);

impl LossSwitch {
    /// A switch set to `loss`.
    pub fn new(loss: Loss) -> LossSwitch {
        LossSwitch(std::sync::Arc::new(std::sync::Mutex::new(loss)))
    }

    /// The loss in force.
    pub fn get(&self) -> Loss {
        *self.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Sets the loss from now on.
    pub fn set(&self, loss: Loss) {
        *self.0.lock().unwrap_or_else(|p| p.into_inner()) = loss;
    }
}

/// One direction's random delay and loss: a small deterministic generator per direction, so a
/// run is reproducible from its seed.
#[derive(Clone, Debug)]
pub struct Impairment {
    rng: u64,
    min_delay: Duration,
    /// Microseconds of spread above `min_delay`, plus one.
    spread: u64,
    loss: Loss,
    /// Chunks still to lose in the current burst.
    burst_left: u32,
}

impl Impairment {
    /// A generator for one direction of `config`, seeded with `seed`.
    pub fn new(config: &ProxyConfig, seed: u64) -> Impairment {
        Impairment {
            rng: seed,
            min_delay: config.min_delay,
            spread: config
                .max_delay
                .saturating_sub(config.min_delay)
                .as_micros() as u64
                + 1,
            loss: config.loss,
            burst_left: 0,
        }
    }

    fn next(&mut self) -> u64 {
        self.rng = splitmix(self.rng);
        self.rng
    }

    /// Changes the loss from the next chunk on.
    pub fn set_loss(&mut self, loss: Loss) {
        if loss != self.loss {
            self.loss = loss;
            self.burst_left = 0;
        }
    }

    /// The one-way delay for the next chunk.
    pub fn delay(&mut self) -> Duration {
        self.min_delay + Duration::from_micros(self.next() % self.spread)
    }

    /// Whether the next chunk (or datagram) is lost.
    pub fn lost(&mut self) -> bool {
        if self.burst_left > 0 {
            self.burst_left -= 1;
            return true;
        }
        if self.loss.is_none() {
            return false;
        }
        let burst = u64::from(self.loss.burst.max(1));
        let mean = (burst + 1) as f64 / 2.0;
        let start = (self.loss.probability / mean).min(1.0);
        let draw = (self.next() >> 11) as f64 / (1u64 << 53) as f64;
        if draw >= start {
            return false;
        }
        let len = 1 + self.next() % burst;
        self.burst_left = (len - 1) as u32;
        true
    }
}

/// How much delay (and loss) the proxy adds, each way.
#[derive(Clone, Copy, Debug)]
pub struct ProxyConfig {
    /// Least delay per direction.
    pub min_delay: Duration,
    /// Most delay per direction.
    pub max_delay: Duration,
    /// Seed of the jitter.
    pub seed: u64,
    /// Chunks lost (TCP: delivered late, see the module docs).
    pub loss: Loss,
}

impl ProxyConfig {
    /// `latency ± jitter` each way (so the round trip is about twice `latency`), never below 0.
    pub fn latency(latency: Duration, jitter: Duration, seed: u64) -> ProxyConfig {
        ProxyConfig {
            min_delay: latency.saturating_sub(jitter),
            max_delay: latency + jitter,
            seed,
            loss: Loss::NONE,
        }
    }

    /// The same with `loss`.
    pub fn with_loss(self, loss: Loss) -> ProxyConfig {
        ProxyConfig { loss, ..self }
    }
}

impl Default for ProxyConfig {
    fn default() -> Self {
        ProxyConfig {
            min_delay: Duration::from_millis(50),
            max_delay: Duration::from_millis(150),
            seed: 1,
            loss: Loss::NONE,
        }
    }
}

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

pub(crate) fn splitmix(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn share_lost(loss: Loss, n: u32) -> (f64, u32) {
        let config = ProxyConfig::default().with_loss(loss);
        let mut link = Impairment::new(&config, 7);
        let (mut lost, mut run, mut longest) = (0u32, 0u32, 0u32);
        for _ in 0..n {
            if link.lost() {
                lost += 1;
                run += 1;
                longest = longest.max(run);
            } else {
                run = 0;
            }
        }
        (f64::from(lost) / f64::from(n), longest)
    }

    #[test]
    fn no_loss_loses_nothing() {
        assert_eq!(share_lost(Loss::NONE, 10_000).0, 0.0);
    }

    #[test]
    fn the_share_lost_is_the_probability_whatever_the_burst() {
        for burst in [1, 3, 5] {
            let (share, longest) = share_lost(Loss::bursts(0.05, burst), 200_000);
            assert!((share - 0.05).abs() < 0.005, "burst {burst}: {share}");
            assert!(longest >= burst, "burst {burst}: longest run {longest}");
        }
    }

    #[test]
    fn bursts_are_at_most_their_length_apart_from_chance_meetings() {
        // With a low probability two bursts almost never touch: runs stay within the burst.
        let (_, longest) = share_lost(Loss::bursts(0.001, 3), 100_000);
        assert!(longest <= 3, "{longest}");
    }
}
