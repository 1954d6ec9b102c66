//! The native datagram session: a WebTransport (HTTP/3 over QUIC) session to the same host and
//! port as the WebSocket, opened with the ticket the server handed out over the WebSocket.
//!
//! # Why `wtransport`
//! WebTransport is what browsers speak for datagrams, so the server runs it (and the page will
//! use the browser's own); the native client speaks the same protocol so there is one datagram
//! path to test and to reason about. `wtransport` implements WebTransport over `quinn` (the
//! maintained QUIC stack of the Rust ecosystem), is maintained, builds on rustls with the `ring`
//! provider like the rest of the tree (no `aws-lc-rs`), and checks a self-signed certificate by
//! its SHA-256 hash exactly as a browser's `serverCertificateHashes` does. Plain `quinn` would
//! need the HTTP/3 and WebTransport framing written by hand to talk to browsers.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use sevenbag_protocol::datagram::{SESSION_PATH, TOKEN_BYTES, token_hex};
use tokio_rustls::rustls;
use wtransport::tls::Sha256Digest;
use wtransport::tls::client::{ServerHashVerification, build_default_tls_config};
use wtransport::{ClientConfig, Connection, Endpoint};

use crate::tls::TlsTrust;

/// How long opening the datagram session may take before the client stays on the WebSocket
/// (where UDP is blocked, the QUIC handshake never completes): the ticket arrives right after
/// `Welcome`, so the client has settled on a path within 2 s of connecting.
pub const DATAGRAM_CONNECT_TIMEOUT: Duration = Duration::from_millis(1800);
/// QUIC keep-alive: keeps NAT bindings open between matches and notices a dead path.
const KEEP_ALIVE: Duration = Duration::from_secs(1);
/// QUIC idle timeout.
const IDLE_TIMEOUT: Duration = Duration::from_secs(5);
/// QUIC's first guess of the round trip, before it has measured one: its handshake packets are
/// resent after about three of these when lost. quinn's default (333 ms, from RFC 9002) would
/// spend a second per lost handshake packet; a game server is rarely that far.
pub(crate) const INITIAL_RTT: Duration = Duration::from_millis(100);

/// A datagram session and the endpoint it runs on.
pub(super) struct DatagramSession {
    pub(super) connection: Connection,
    _endpoint: Endpoint<wtransport::endpoint::endpoint_side::Client>,
}

/// Opens the session for `token` on `host:port` (the WebSocket's), trusting the certificate
/// with `cert_hash` when the server announced one, else `trust` (the web's authorities and any
/// certificate the user added).
pub(super) async fn open(
    host: &str,
    port: u16,
    token: &[u8; TOKEN_BYTES],
    cert_hash: Option<[u8; 32]>,
    trust: &TlsTrust,
) -> Result<DatagramSession, String> {
    let target = tokio::net::lookup_host((host, port))
        .await
        .map_err(|e| format!("cannot resolve {host}: {e}"))?
        .next()
        .ok_or_else(|| format!("{host} has no address"))?;
    let bind = match target.ip() {
        IpAddr::V4(_) => SocketAddr::new(Ipv4Addr::UNSPECIFIED.into(), 0),
        IpAddr::V6(_) => SocketAddr::new(Ipv6Addr::UNSPECIFIED.into(), 0),
    };
    let tls = match cert_hash {
        // As a browser's `serverCertificateHashes`: this hash, a short-lived ECDSA certificate.
        Some(hash) => build_default_tls_config(
            Arc::new(rustls::RootCertStore::empty()),
            Some(Arc::new(ServerHashVerification::new([Sha256Digest::new(
                hash,
            )]))),
        ),
        None => quic_tls(trust)?,
    };
    let mut transport = wtransport::config::QuicTransportConfig::default();
    transport
        .initial_rtt(INITIAL_RTT)
        .keep_alive_interval(Some(KEEP_ALIVE))
        .max_idle_timeout(Some(
            wtransport::quinn::IdleTimeout::try_from(IDLE_TIMEOUT).map_err(|e| e.to_string())?,
        ));
    let config = ClientConfig::builder()
        .with_bind_address(bind)
        .with_custom_tls_and_transport(tls, transport)
        .build();
    let endpoint =
        Endpoint::client(config).map_err(|e| format!("cannot open a UDP socket: {e}"))?;
    let host = match target.ip() {
        IpAddr::V6(_) if host.contains(':') => format!("[{host}]"),
        _ => host.to_owned(),
    };
    let url = format!("https://{host}:{port}{SESSION_PATH}{}", token_hex(token));
    let connection = endpoint
        .connect(url)
        .await
        .map_err(|e| format!("datagram session: {e}"))?;
    Ok(DatagramSession {
        connection,
        _endpoint: endpoint,
    })
}

/// rustls for QUIC: TLS 1.3 only, HTTP/3's ALPN, the same roots as `wss://`.
fn quic_tls(trust: &TlsTrust) -> Result<rustls::ClientConfig, String> {
    let mut config = Arc::unwrap_or_clone(trust.client_config_tls13().map_err(|e| e.to_string())?);
    config.alpn_protocols = vec![b"h3".to_vec()];
    Ok(config)
}
