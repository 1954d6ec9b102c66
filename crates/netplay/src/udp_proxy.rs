//! A loopback UDP proxy that delays and really drops datagrams: the datagram path's twin of
//! [`crate::delay_proxy`] (tests and `sevenbag-tool loadtest --loss`), never used by the server
//! or the game. The kernel here has no `netem`, so loss is simulated in user space.
//!
//! Each client address gets its own upstream socket (a "flow"); each direction of a flow has its
//! own [`Impairment`]: a datagram is lost with the configured probability, in bursts of 1 to
//! `burst` datagrams, and otherwise delayed by the latency ± jitter, in order (release times
//! never go back, as with the TCP proxy, so the two paths see the same delays). Dropping the
//! [`UdpProxy`] stops it and every flow.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use tokio::net::UdpSocket;
use tokio::sync::mpsc;
use tokio::task::JoinSet;
use tokio::time::Instant;

use crate::impairment::{Impairment, Loss, LossSwitch, ProxyConfig};

/// Largest datagram relayed.
const MAX_DATAGRAM: usize = 64 * 1024;

/// What the proxy counted.
#[derive(Debug)]
pub struct UdpProxyStats {
    /// Datagrams relayed (both ways).
    pub relayed: AtomicU64,
    /// Datagrams dropped (both ways).
    pub dropped: AtomicU64,
    /// Drop everything, both ways (UDP blocked from now on).
    pub blocked: std::sync::atomic::AtomicBool,
    /// The loss in force.
    loss: LossSwitch,
}

impl UdpProxyStats {
    /// Whether this datagram goes: not blocked and not lost.
    fn passes(&self, link: &mut Impairment) -> bool {
        link.set_loss(self.loss.get());
        if self.blocked.load(Ordering::Relaxed) || link.lost() {
            self.dropped.fetch_add(1, Ordering::Relaxed);
            return false;
        }
        self.relayed.fetch_add(1, Ordering::Relaxed);
        true
    }
}

/// A running UDP proxy (see the module docs).
#[derive(Debug)]
pub struct UdpProxy {
    addr: SocketAddr,
    stats: Arc<UdpProxyStats>,
    task: tokio::task::JoinHandle<()>,
}

impl UdpProxy {
    /// Listens on `bind` (e.g. the TCP proxy's address, so a client reaches both at one
    /// host and port) and relays every client's datagrams to `upstream`.
    pub async fn start(
        bind: SocketAddr,
        upstream: SocketAddr,
        config: ProxyConfig,
    ) -> std::io::Result<UdpProxy> {
        let socket = Arc::new(UdpSocket::bind(bind).await?);
        let addr = socket.local_addr()?;
        let stats = Arc::new(UdpProxyStats {
            relayed: AtomicU64::new(0),
            dropped: AtomicU64::new(0),
            blocked: false.into(),
            loss: LossSwitch::new(config.loss),
        });
        let task = tokio::spawn(run(socket, upstream, config, Arc::clone(&stats)));
        Ok(UdpProxy { addr, stats, task })
    }

    /// Where clients send.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Drops every datagram from now on (`true`), as a network that stops passing UDP would,
    /// or passes them again (`false`).
    pub fn set_blocked(&self, blocked: bool) {
        self.stats.blocked.store(blocked, Ordering::Relaxed);
    }

    /// Changes the loss from the next datagram on.
    pub fn set_loss(&self, loss: Loss) {
        self.stats.loss.set(loss);
    }

    /// Datagrams relayed and dropped so far.
    pub fn counts(&self) -> (u64, u64) {
        (
            self.stats.relayed.load(Ordering::Relaxed),
            self.stats.dropped.load(Ordering::Relaxed),
        )
    }
}

impl Drop for UdpProxy {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// A direction's queue: datagrams with their release times, in order.
type Queue = mpsc::UnboundedSender<(Instant, Vec<u8>)>;

async fn run(
    socket: Arc<UdpSocket>,
    upstream: SocketAddr,
    config: ProxyConfig,
    stats: Arc<UdpProxyStats>,
) {
    // Owns every flow's tasks: aborting this task (dropping the set) ends them all.
    let mut tasks = JoinSet::new();
    let mut flows: HashMap<SocketAddr, (Queue, Impairment, Instant)> = HashMap::new();
    let mut seed = config.seed;
    let mut buf = vec![0u8; MAX_DATAGRAM];
    loop {
        let Ok((n, client)) = socket.recv_from(&mut buf).await else {
            // An error reported for an earlier send: no spinning on a run of them.
            tokio::time::sleep(std::time::Duration::from_millis(1)).await;
            continue;
        };
        let (queue, link, last) = match flows.entry(client) {
            Entry::Occupied(flow) => flow.into_mut(),
            Entry::Vacant(slot) => {
                seed = crate::impairment::splitmix(seed);
                let Ok(to_server) = open_flow(
                    &mut tasks,
                    &socket,
                    client,
                    upstream,
                    Impairment::new(&config, seed ^ 0xABCD),
                    &stats,
                )
                .await
                else {
                    continue;
                };
                slot.insert((to_server, Impairment::new(&config, seed), Instant::now()))
            }
        };
        if !stats.passes(link) {
            continue;
        }
        let release = (Instant::now() + link.delay()).max(*last);
        *last = release;
        let _ = queue.send((release, buf[..n].to_vec()));
        while tasks.try_join_next().is_some() {}
    }
}

/// Starts a client's flow: its own upstream socket, a writer to the server on it, a reader of
/// the server's answers and a writer of them to the client. Returns the queue to the server.
async fn open_flow(
    tasks: &mut JoinSet<()>,
    socket: &Arc<UdpSocket>,
    client: SocketAddr,
    upstream: SocketAddr,
    down: Impairment,
    stats: &Arc<UdpProxyStats>,
) -> std::io::Result<Queue> {
    let up = UdpSocket::bind("127.0.0.1:0").await?;
    up.connect(upstream).await?;
    let up = Arc::new(up);
    // Client -> server: a writer on the flow's own socket.
    let (to_server, rx) = mpsc::unbounded_channel();
    tasks.spawn(writer(rx, Arc::clone(&up), None));
    // Server -> client: a reader on the flow's socket, then a writer on ours.
    let (to_client, rx) = mpsc::unbounded_channel();
    tasks.spawn(writer(rx, Arc::clone(socket), Some(client)));
    tasks.spawn(downstream(up, to_client, down, Arc::clone(stats)));
    Ok(to_server)
}

/// Reads what the server sends on a flow and queues it for the client.
async fn downstream(
    up: Arc<UdpSocket>,
    queue: Queue,
    mut link: Impairment,
    stats: Arc<UdpProxyStats>,
) {
    let mut buf = vec![0u8; MAX_DATAGRAM];
    let mut last = Instant::now();
    loop {
        let n = match up.recv(&mut buf).await {
            Ok(n) => n,
            // A refused send (nobody listening upstream) shows up here: keep going.
            Err(_) => {
                tokio::time::sleep(std::time::Duration::from_millis(1)).await;
                continue;
            }
        };
        if !stats.passes(&mut link) {
            continue;
        }
        let release = (Instant::now() + link.delay()).max(last);
        last = release;
        if queue.send((release, buf[..n].to_vec())).is_err() {
            return;
        }
    }
}

/// Sends each queued datagram at its release time: on a connected socket, or to `to`.
async fn writer(
    mut rx: mpsc::UnboundedReceiver<(Instant, Vec<u8>)>,
    socket: Arc<UdpSocket>,
    to: Option<SocketAddr>,
) {
    while let Some((release, bytes)) = rx.recv().await {
        tokio::time::sleep_until(release).await;
        let _ = match to {
            Some(addr) => socket.send_to(&bytes, addr).await,
            None => socket.send(&bytes).await,
        };
    }
}
