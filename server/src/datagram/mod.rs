//! The datagram path: WebTransport (HTTP/3 over QUIC) on the server's port number over UDP,
//! beside the WebSocket on TCP. Players send their inputs, state hashes and clock probes as
//! unreliable datagrams that repeat everything not yet acknowledged
//! (`sevenbag_protocol::datagram`); the room answers the same way. Everything else (rooms,
//! chat, results, replays, match logs) stays on the WebSocket, which also carries the reliable
//! catch-up when a gap persists.
//!
//! # Binding a session to a player
//! A datagram session is worth nothing on its own: after `Hello`, the connection's task asks
//! [`DatagramService::ticket`] for a one-time token and sends it over the WebSocket
//! (`DatagramTicket`, with the certificate's hash when it is self-signed). The client opens
//! `https://HOST:PORT/datagrams/<token>`; the session is accepted only for a live ticket, and
//! from then on its datagrams count as that WebSocket connection's: the room knows the seat
//! from the connection, never from the datagram, so nobody can send inputs for another seat.
//!
//! # Amplification
//! Before a client has proved it receives what is sent to its address, the server answers only
//! with QUIC's stateless Retry (smaller than the client's padded first packet): no handshake, no
//! certificate, no datagram goes to an unvalidated address. Datagrams are answered only on an
//! accepted session, and a session is accepted only for a ticket its own WebSocket received.
//!
//! # Limits
//! A connection has at most one session: a repeated `Datagrams { on: true }` ends the open
//! session (and voids an unused ticket) before the new ticket is sent, so the new session
//! replaces the old one. Datagrams are size-limited (`MAX_DATAGRAM_BYTES`) and rate-limited
//! per connection (a token bucket the connection keeps across its sessions,
//! `Limits::datagrams_per_second`/`datagram_burst`) and per address (`addresses.rs`: sessions
//! per address, and a bucket the address's sessions share). A datagram over either bucket is a
//! flood: the session is closed and the WebSocket cut with `RateLimited` and a reason, while
//! other connections carry on. Malformed datagrams and repeats of an older sequence number are
//! dropped and counted (`sevenbag_datagrams_dropped_total{reason}`); too many malformed ones cut
//! the connection.
//!
//! # Why `wtransport`
//! WebTransport is what browsers speak for datagrams (`serverCertificateHashes` for a
//! self-signed certificate), so it is the one protocol for the page and the native clients.
//! `wtransport` implements it over `quinn` (the maintained QUIC stack), is maintained, and
//! builds on rustls with the `ring` provider like the rest of the tree (no `aws-lc-rs`).
//! Plain `quinn` would leave the HTTP/3 and WebTransport framing to write by hand.

mod addresses;
mod cert;
mod session;
mod tickets;

use std::fmt;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use sevenbag_protocol::ServerMessage;
use sevenbag_protocol::battle_datagram::{BattleDownlink, BattleSpan};
use sevenbag_protocol::datagram::{Downlink, Window};
use tokio::sync::{Semaphore, watch};
use tracing::info;
use wtransport::endpoint::endpoint_side;
use wtransport::{Connection, Endpoint};

use crate::Limits;
use crate::TlsFiles;
use crate::limits::TokenBucket;
use crate::metrics::Metrics;
use crate::relay::{ClientId, Outbox};
use crate::shutdown::{Shutdown, Tasks};

pub(crate) use cert::CertError;

/// How long a ticket may wait for its session.
pub(crate) const TICKET_TTL: Duration = Duration::from_secs(10);
/// How long the QUIC and WebTransport handshakes may take.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(5);
/// A session silent this long is closed (clients keep it alive every second).
const IDLE_TIMEOUT: Duration = Duration::from_secs(10);

/// What a session's datagrams mean to the room its connection is in.
#[derive(Debug)]
pub(crate) enum DatagramEvent {
    /// The session is up: the room answers this connection with datagrams from now on.
    Attached(DatagramOut),
    /// The session with this [`DatagramOut::id`] ended: unless a newer session of the same
    /// connection is attached, the room goes back to the WebSocket for this connection.
    Detached(usize),
    /// A datagram's inputs, acknowledgements and hash.
    Received(Received),
}

/// The parts of an uplink datagram the room needs, checked.
#[derive(Debug)]
pub(crate) struct Received {
    /// The match tag the datagram was sent for.
    pub(crate) tag: u16,
    /// Frames of each seat's inputs the client holds (two-seat or battle seats).
    pub(crate) acks: Vec<(u8, u32)>,
    /// The client's own inputs (a two-seat datagram's).
    pub(crate) window: Option<Window>,
    /// The client's own keys and targets (a battle datagram's).
    pub(crate) span: Option<BattleSpan>,
    /// The client's latest unacknowledged hash.
    pub(crate) hash: Option<(u32, u64)>,
    /// A battle datagram (a room of several seats), else a two-seat one.
    pub(crate) battle: bool,
}

/// Where a session delivers its events: the room the connection is in. Given by the
/// connection's task (which knows its room), so this module does not import the rooms.
pub(crate) trait Deliver: Send + Sync + fmt::Debug {
    /// Hands `event` over without waiting; `false` if it could not be (a full inbox).
    fn deliver(&self, event: DatagramEvent) -> bool;
}

/// The room route of a connection, as it changes: `None` while in no room.
pub(crate) type Route = Option<Arc<dyn Deliver>>;

/// What a ticket binds a session to: the WebSocket connection that asked for it.
#[derive(Clone, Debug)]
pub(crate) struct Binding {
    /// The connection.
    pub(crate) client: ClientId,
    /// Its send queue, to cut it on a flood.
    pub(crate) outbox: Outbox,
    /// Its room, as it changes; closed when the connection ends or replaces its session.
    pub(crate) route: watch::Receiver<Route>,
    /// The connection's datagram bucket, shared by its sessions one after another (a new
    /// session does not start full).
    pub(crate) bucket: ConnectionBucket,
}

/// A connection's datagram rate limit (see [`Binding::bucket`]).
pub(crate) type ConnectionBucket = Arc<Mutex<TokenBucket>>;

/// A fresh, full [`ConnectionBucket`] under `limits`.
pub(crate) fn connection_bucket(limits: &Limits) -> ConnectionBucket {
    Arc::new(Mutex::new(TokenBucket::new(
        limits.datagrams_per_second,
        limits.datagram_burst,
        std::time::Instant::now(),
    )))
}

/// A session's sending side, for the room: cheap to clone, never waits.
#[derive(Clone)]
pub(crate) struct DatagramOut {
    id: usize,
    connection: Connection,
    metrics: Metrics,
}

impl fmt::Debug for DatagramOut {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DatagramOut").field("id", &self.id).finish()
    }
}

impl DatagramOut {
    fn new(id: usize, connection: Connection, metrics: Metrics) -> DatagramOut {
        DatagramOut {
            id,
            connection,
            metrics,
        }
    }

    /// The session's number, unique for the server's life.
    pub(crate) fn id(&self) -> usize {
        self.id
    }

    /// Sends `down` (dropped, as any datagram may be, if QUIC cannot take it now).
    pub(crate) fn send(&self, down: &Downlink) {
        self.send_bytes(down.encode());
    }

    /// Sends a battle datagram (dropped, as any datagram may be, if QUIC cannot take it now).
    pub(crate) fn send_battle(&self, down: &BattleDownlink) {
        self.send_bytes(down.encode());
    }

    fn send_bytes(&self, bytes: Result<Vec<u8>, sevenbag_protocol::datagram::DatagramError>) {
        match bytes {
            Ok(bytes) => {
                let len = bytes.len();
                if self.connection.send_datagram(bytes).is_ok() {
                    self.metrics.datagrams_out.inc();
                    self.metrics.datagram_bytes_out.inc_by(len as u64);
                }
            }
            Err(e) => tracing::error!(error = %e, "cannot encode a datagram"),
        }
    }
}

/// The running datagram path (see the module docs).
pub(crate) struct DatagramService {
    endpoint: Endpoint<endpoint_side::Server>,
    tickets: tickets::Tickets,
    /// Sessions and datagram budgets per address.
    addresses: addresses::Addresses,
    /// The next session's number ([`DatagramOut::id`]).
    next_session: AtomicUsize,
    /// The certificate's hash, when self-signed (it changes when the certificate is renewed).
    cert_hash: RwLock<Option<[u8; 32]>>,
    limits: Limits,
    metrics: Metrics,
    epoch: std::time::Instant,
}

impl fmt::Debug for DatagramService {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DatagramService")
            .field("addr", &self.endpoint.local_addr().ok())
            .finish()
    }
}

/// Why the datagram path could not start.
#[derive(Debug, thiserror::Error)]
pub enum DatagramStartError {
    /// The certificate could not be made or loaded.
    #[error(transparent)]
    Cert(#[from] CertError),
    /// The UDP socket could not be used.
    #[error("cannot open the UDP endpoint: {0}")]
    Socket(#[from] std::io::Error),
}

impl DatagramService {
    /// Starts the path on `socket` (UDP, the TCP listener's port): the certificate from `tls`,
    /// or a self-signed one renewed before it expires; the accept loop on a task of `tasks`.
    pub(crate) fn start(
        socket: std::net::UdpSocket,
        tls: Option<&TlsFiles>,
        limits: Limits,
        metrics: Metrics,
        epoch: std::time::Instant,
        shutdown: watch::Receiver<bool>,
        tasks: &Tasks,
    ) -> Result<Arc<DatagramService>, DatagramStartError> {
        let identity = cert::Identity::load(tls)?;
        let addr = socket.local_addr()?;
        let endpoint = Endpoint::server(cert::server_config(Some(socket), &identity)?)?;
        let service = Arc::new(DatagramService {
            endpoint,
            tickets: tickets::Tickets::default(),
            addresses: addresses::Addresses::new(&limits),
            next_session: AtomicUsize::new(1),
            cert_hash: RwLock::new(identity.hash()),
            limits,
            metrics,
            epoch,
        });
        info!(%addr, self_signed = identity.hash().is_some(), "datagram path (WebTransport) listening");
        if let Some(guard) = tasks.guard() {
            let me = Arc::clone(&service);
            tokio::spawn(async move {
                let _guard = guard;
                me.accept_loop(Shutdown::new(shutdown)).await;
            });
        }
        if identity.hash().is_some() {
            let me = Arc::downgrade(&service);
            tokio::spawn(cert::renew_loop(me));
        }
        Ok(service)
    }

    /// A ticket for `binding`'s connection: the token and, for a self-signed certificate, its
    /// hash. Any earlier ticket of the connection stops working.
    pub(crate) fn ticket(&self, binding: Binding) -> ServerMessage {
        let token = self.tickets.issue(binding);
        ServerMessage::DatagramTicket {
            token,
            cert_hash: *self.cert_hash.read().unwrap_or_else(|p| p.into_inner()),
        }
    }

    /// The connection gave its datagram path up (or ended): its unused ticket stops working.
    pub(crate) fn forget(&self, client: ClientId) {
        self.tickets.forget(client);
    }

    /// A number for a new session.
    fn session_id(&self) -> usize {
        self.next_session.fetch_add(1, Ordering::Relaxed)
    }

    /// Takes sessions until shutdown. Unvalidated addresses get a Retry; at most
    /// `max_connections` sessions (and handshakes) at once, and
    /// `datagram_sessions_per_address` from one address.
    async fn accept_loop(self: Arc<Self>, mut shutdown: Shutdown) {
        let permits = Arc::new(Semaphore::new(self.limits.max_connections));
        loop {
            let incoming = tokio::select! {
                incoming = self.endpoint.accept() => incoming,
                _ = shutdown.recv() => break,
            };
            if !incoming.remote_address_validated() {
                // Stateless, and smaller than the client's first packet: no amplification.
                incoming.retry();
                continue;
            }
            let Some(admitted) = self.addresses.admit(incoming.remote_address().ip()) else {
                self.metrics.datagram_refused("address_full");
                incoming.refuse();
                continue;
            };
            let Ok(permit) = Arc::clone(&permits).try_acquire_owned() else {
                self.metrics.datagram_refused("server_full");
                incoming.refuse();
                continue;
            };
            let me = Arc::clone(&self);
            tokio::spawn(async move {
                let _permit = permit;
                session::serve(me, incoming, admitted).await;
            });
        }
        self.endpoint
            .close(0u32.into(), b"the server is shutting down");
        info!("datagram path closed");
    }

    /// The certificate was renewed.
    fn renewed(&self, identity: &cert::Identity) -> Result<(), DatagramStartError> {
        self.endpoint
            .reload_config(cert::server_config(None, identity)?, false)?;
        *self.cert_hash.write().unwrap_or_else(|p| p.into_inner()) = identity.hash();
        Ok(())
    }
}
