//! One task per datagram session: the handshake (the ticket in the path), then every datagram
//! the client sends, checked and handed to the connection's room.

use std::sync::Arc;
use std::time::Instant;

use sevenbag_protocol::ErrorCode;
use sevenbag_protocol::battle_datagram::{AnyUplink, decode_uplink, resolve};
use sevenbag_protocol::datagram::{Downlink, MAX_DATAGRAM_BYTES, Pong, token_from_path};
use tracing::{debug, info};
use wtransport::Connection;
use wtransport::endpoint::IncomingSession;

use super::addresses::Admitted;
use super::{
    Binding, DatagramEvent, DatagramOut, DatagramService, HANDSHAKE_TIMEOUT, Received, Route,
};
use crate::limits::TokenBucket;
use crate::metrics::GaugeGuard;
use crate::relay::{self, Cut};

/// Malformed datagrams a session may send before its connection is cut.
const MAX_MALFORMED: u32 = 20;
/// Application error code the session is closed with when the server cuts it.
const CLOSE_CUT: u32 = 1;

/// Takes an incoming session through its handshakes, checks its ticket, and serves it,
/// counted against its address (`admitted`) until it ends.
pub(super) async fn serve(
    service: Arc<DatagramService>,
    incoming: IncomingSession,
    admitted: Admitted,
) {
    let peer = incoming.remote_address();
    let request = match tokio::time::timeout(HANDSHAKE_TIMEOUT, incoming.into_future()).await {
        Ok(Ok(request)) => request,
        Ok(Err(e)) => {
            service.metrics.datagram_refused("handshake");
            debug!(%peer, error = %e, "datagram handshake failed");
            return;
        }
        Err(_) => {
            service.metrics.datagram_refused("handshake");
            debug!(%peer, "datagram handshake timed out");
            return;
        }
    };
    let Some(token) = token_from_path(request.path()) else {
        service.metrics.datagram_refused("bad_path");
        request.not_found().await;
        return;
    };
    let Some(binding) = service.tickets.claim(&token) else {
        service.metrics.datagram_refused("bad_token");
        info!(%peer, "datagram session with an unknown or used ticket refused");
        request.forbidden().await;
        return;
    };
    let connection = match request.accept().await {
        Ok(c) => c,
        Err(e) => {
            debug!(%peer, error = %e, "datagram session failed while accepting");
            return;
        }
    };
    debug!(client = binding.client, %peer, "datagram session open");
    let _open = GaugeGuard::new(&service.metrics.datagram_sessions);
    Session::new(&service, connection, binding, admitted)
        .run()
        .await;
}

/// A session's state, owned by its task.
struct Session<'a> {
    service: &'a DatagramService,
    connection: Connection,
    out: DatagramOut,
    binding: Binding,
    /// The route our `Attached` was delivered to (its address), so a new room hears of us.
    attached_to: Option<usize>,
    /// This session's place in its address's count, and the address's datagram budget.
    address: Admitted,
    pings: TokenBucket,
    last_seq: u32,
    malformed: u32,
}

impl<'a> Session<'a> {
    fn new(
        service: &'a DatagramService,
        connection: Connection,
        binding: Binding,
        address: Admitted,
    ) -> Self {
        let limits = &service.limits;
        let now = Instant::now();
        Session {
            service,
            out: DatagramOut::new(
                service.session_id(),
                connection.clone(),
                service.metrics.clone(),
            ),
            connection,
            binding,
            attached_to: None,
            address,
            pings: TokenBucket::new(
                limits.client_pings_per_second,
                limits.client_pings_per_second,
                now,
            ),
            last_seq: 0,
            malformed: 0,
        }
    }

    async fn run(mut self) {
        let mut cut = self.binding.outbox.watch_cut();
        let cut_wait = relay::cut_happened(&mut cut);
        tokio::pin!(cut_wait);
        let mut route = self.binding.route.clone();
        self.attach(&route.borrow_and_update().clone());
        let why = loop {
            tokio::select! {
                biased;
                _ = &mut cut_wait => break "the connection was cut",
                changed = route.changed() => {
                    if changed.is_err() {
                        break "the connection ended";
                    }
                    let current = route.borrow_and_update().clone();
                    self.attach(&current);
                }
                datagram = self.connection.receive_datagram() => match datagram {
                    Ok(d) => {
                        if let Err(why) = self.on_datagram(&d.payload(), &route.borrow().clone()) {
                            self.connection.close(CLOSE_CUT.into(), why.as_bytes());
                            break "cut";
                        }
                    }
                    Err(_) => break "the session closed",
                },
            }
        };
        if let Some(deliver) = route.borrow().clone() {
            deliver.deliver(DatagramEvent::Detached(self.out.id()));
        }
        debug!(client = self.binding.client, why, "datagram session ended");
        self.connection
            .close(0u32.into(), b"the connection's datagram path ended");
    }

    /// Tells the current room (if any, and not told yet) that this connection has datagrams.
    fn attach(&mut self, route: &Route) {
        let key = route.as_ref().map(|r| Arc::as_ptr(r) as *const () as usize);
        if key == self.attached_to {
            return;
        }
        match route {
            Some(deliver) => {
                if deliver.deliver(DatagramEvent::Attached(self.out.clone())) {
                    self.attached_to = key;
                }
            }
            None => self.attached_to = None,
        }
    }

    /// Checks and handles one datagram; `Err` with the reason when the connection is cut.
    fn on_datagram(&mut self, bytes: &[u8], route: &Route) -> Result<(), String> {
        let metrics = &self.service.metrics;
        metrics.datagrams_in.inc();
        metrics.datagram_bytes_in.inc_by(bytes.len() as u64);
        let limits = &self.service.limits;
        let now = Instant::now();
        let own = self
            .binding
            .bucket
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take(now);
        let flood = if !own {
            metrics.datagram_dropped("rate");
            Some(format!(
                "datagram flood: more than {} datagrams per second (burst {})",
                limits.datagrams_per_second, limits.datagram_burst
            ))
        } else if !self.address.take(now) {
            metrics.datagram_dropped("address_rate");
            Some(format!(
                "datagram flood: your address sent more than {} datagrams per second (burst {})",
                limits.datagrams_per_address_per_second, limits.datagrams_per_address_burst
            ))
        } else {
            None
        };
        if let Some(why) = flood {
            self.binding
                .outbox
                .cut(Cut::error(ErrorCode::RateLimited, why.clone()));
            info!(client = self.binding.client, "{why}: cut");
            return Err(why);
        }
        if bytes.len() > MAX_DATAGRAM_BYTES {
            metrics.datagram_dropped("too_large");
            return self.strike(format!("a datagram of {} bytes", bytes.len()));
        }
        let up = match decode_uplink(bytes) {
            Ok(up) => up,
            Err(e) => {
                metrics.datagram_dropped("malformed");
                return self.strike(e.to_string());
            }
        };
        let (seq, ping) = match &up {
            AnyUplink::Pair(up) => (up.seq, up.ping),
            AnyUplink::Battle(up) => (up.seq, up.ping),
        };
        if seq <= self.last_seq {
            metrics.datagram_dropped("replayed");
            return Ok(());
        }
        self.last_seq = seq;
        if let Some(nonce) = ping
            && self.pings.take(now)
        {
            let server_ms = self.service.epoch.elapsed().as_millis() as u64;
            self.out.send(&Downlink {
                pong: Some(Pong { nonce, server_ms }),
                ..Downlink::default()
            });
        }
        let received = match up {
            AnyUplink::Pair(up) => {
                if up.inputs.is_none() && up.hash.is_none() && up.acks.is_empty() {
                    return Ok(());
                }
                // `decode_uplink` checked the window already.
                let window = up.inputs.as_ref().and_then(|w| w.resolve().ok());
                Received {
                    tag: up.tag,
                    acks: up.acks.iter().map(|&(s, f)| (s.index() as u8, f)).collect(),
                    window,
                    span: None,
                    hash: up.hash,
                    battle: false,
                }
            }
            AnyUplink::Battle(up) => {
                if up.inputs.is_none() && up.acks.is_empty() && up.hash.is_none() {
                    return Ok(());
                }
                let span = up.inputs.as_ref().and_then(|w| resolve(w).ok());
                Received {
                    tag: up.tag,
                    acks: up.held().collect(),
                    window: None,
                    span,
                    hash: up.hash,
                    battle: true,
                }
            }
        };
        self.attach(route);
        match route {
            Some(deliver) => {
                if !deliver.deliver(DatagramEvent::Received(received)) {
                    metrics.datagram_dropped("room_busy");
                }
            }
            None => metrics.datagram_dropped("no_room"),
        }
        Ok(())
    }

    /// A malformed datagram: dropped, counted, and past [`MAX_MALFORMED`] the connection is cut.
    fn strike(&mut self, what: String) -> Result<(), String> {
        self.malformed += 1;
        if self.malformed <= MAX_MALFORMED {
            debug!(client = self.binding.client, %what, "malformed datagram dropped");
            return Ok(());
        }
        let why = format!("{} malformed datagrams (last: {what})", self.malformed);
        self.binding
            .outbox
            .cut(Cut::error(ErrorCode::BadMessage, why.clone()));
        info!(client = self.binding.client, "{why}: cut");
        Err(why)
    }
}
