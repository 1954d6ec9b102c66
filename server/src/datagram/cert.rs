//! The datagram path's certificate: the server's real one (`--tls-cert`), or a short-lived
//! self-signed ECDSA P-256 one it makes itself and renews before it expires.
//!
//! A browser accepts a self-signed certificate for WebTransport only through
//! `serverCertificateHashes`, and only if it is valid for at most 14 days, ECDSA, and valid now.
//! The server therefore makes one valid for [`VALIDITY`] (13 days, from an hour ago so a client
//! whose clock is a little behind still accepts it), announces its SHA-256 hash with each
//! ticket, and makes a new one every [`RENEW_EVERY`]; sessions already open keep theirs.

use std::net::UdpSocket;
use std::sync::Weak;
use std::time::Duration;

use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, PrivateKeyDer};
use sha2::{Digest, Sha256};
use tokio_rustls::rustls;
use wtransport::ServerConfig;
use wtransport::tls::self_signed::time::{Duration as TimeDuration, OffsetDateTime};

use super::{DatagramService, IDLE_TIMEOUT};
use crate::TlsFiles;

/// How long a self-signed certificate is valid (a browser takes at most 14 days).
const VALIDITY: Duration = Duration::from_secs(13 * 24 * 3600);
/// How long before "now" a self-signed certificate starts being valid.
const BACKDATE: Duration = Duration::from_secs(3600);
/// QUIC's first guess of the round trip before measuring one (the handshake's resend timer):
/// quinn's default, 333 ms, would cost a second per lost handshake packet.
const INITIAL_RTT: Duration = Duration::from_millis(100);
/// How often a self-signed certificate is renewed (well before it expires).
pub(super) const RENEW_EVERY: Duration = Duration::from_secs(6 * 24 * 3600);

/// Why the datagram path's certificate could not be made or loaded.
#[derive(Debug, thiserror::Error)]
pub enum CertError {
    /// Making the self-signed certificate failed.
    #[error("cannot make a self-signed certificate: {0}")]
    SelfSigned(String),
    /// The PEM files could not be read.
    #[error("cannot read {what} from {path}: {reason}")]
    Pem {
        /// "certificate" or "private key".
        what: &'static str,
        /// The file.
        path: String,
        /// What went wrong.
        reason: String,
    },
    /// rustls refused the certificate and key.
    #[error("bad certificate or key for the datagram path: {0}")]
    Tls(#[from] rustls::Error),
}

/// The certificate and key the datagram path presents.
pub(crate) struct Identity {
    certs: Vec<CertificateDer<'static>>,
    key: PrivateKeyDer<'static>,
    /// SHA-256 of the certificate, for a self-signed one (announced to clients).
    hash: Option<[u8; 32]>,
}

impl Identity {
    /// The files' certificate, or a fresh self-signed one.
    pub(crate) fn load(files: Option<&TlsFiles>) -> Result<Identity, CertError> {
        match files {
            Some(files) => Identity::from_files(files),
            None => Identity::self_signed(),
        }
    }

    /// The hash to announce (`None` for a real certificate).
    pub(crate) fn hash(&self) -> Option<[u8; 32]> {
        self.hash
    }

    fn from_files(files: &TlsFiles) -> Result<Identity, CertError> {
        let bad = |what, path: &std::path::Path, reason: String| CertError::Pem {
            what,
            path: path.display().to_string(),
            reason,
        };
        let certs = CertificateDer::pem_file_iter(&files.cert)
            .map_err(|e| bad("certificate", &files.cert, e.to_string()))?
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| bad("certificate", &files.cert, e.to_string()))?;
        if certs.is_empty() {
            return Err(bad(
                "certificate",
                &files.cert,
                "no CERTIFICATE block".into(),
            ));
        }
        let key = PrivateKeyDer::from_pem_file(&files.key)
            .map_err(|e| bad("private key", &files.key, e.to_string()))?;
        Ok(Identity {
            certs,
            key,
            hash: None,
        })
    }

    /// A self-signed ECDSA P-256 certificate, valid from an hour ago for 13 days.
    pub(crate) fn self_signed() -> Result<Identity, CertError> {
        let not_before =
            OffsetDateTime::now_utc() - TimeDuration::seconds(BACKDATE.as_secs() as i64);
        let identity = wtransport::Identity::self_signed_builder()
            .subject_alt_names(["localhost", "127.0.0.1", "::1"])
            .not_before(not_before)
            .offset_from_not_before(TimeDuration::seconds(VALIDITY.as_secs() as i64))
            .build()
            .map_err(|e| CertError::SelfSigned(e.to_string()))?;
        let certs: Vec<CertificateDer<'static>> = identity
            .certificate_chain()
            .as_slice()
            .iter()
            .map(|c| CertificateDer::from(c.der().to_vec()))
            .collect();
        let key = PrivateKeyDer::try_from(identity.private_key().secret_der().to_vec())
            .map_err(|e| CertError::SelfSigned(e.to_string()))?;
        let hash = certs
            .first()
            .map(|c| Sha256::digest(c.as_ref()).into())
            .ok_or_else(|| CertError::SelfSigned("no certificate made".into()))?;
        Ok(Identity {
            certs,
            key,
            hash: Some(hash),
        })
    }
}

/// The endpoint's configuration: `socket` (the TCP port's UDP twin; `None` when only the
/// certificate changes), TLS 1.3 with HTTP/3's ALPN over the ring provider, no keep-alive of
/// our own (clients keep sessions alive), an idle timeout.
pub(super) fn server_config(
    socket: Option<UdpSocket>,
    identity: &Identity,
) -> Result<ServerConfig, CertError> {
    let provider = std::sync::Arc::new(rustls::crypto::ring::default_provider());
    let mut tls = rustls::ServerConfig::builder_with_provider(provider)
        .with_protocol_versions(&[&rustls::version::TLS13])?
        .with_no_client_auth()
        .with_single_cert(identity.certs.clone(), identity.key.clone_key())?;
    tls.alpn_protocols = vec![b"h3".to_vec()];
    let builder = match socket {
        Some(socket) => ServerConfig::builder().with_bind_socket(socket),
        None => ServerConfig::builder().with_bind_default(0),
    };
    let mut transport = wtransport::config::QuicTransportConfig::default();
    transport.initial_rtt(INITIAL_RTT).max_idle_timeout(Some(
        wtransport::quinn::IdleTimeout::try_from(IDLE_TIMEOUT)
            .map_err(|_| CertError::SelfSigned("bad idle timeout".into()))?,
    ));
    Ok(builder
        .with_custom_tls_and_transport(tls, transport)
        .build())
}

/// Makes a new self-signed certificate every [`RENEW_EVERY`] while the service lives.
pub(super) async fn renew_loop(service: Weak<DatagramService>) {
    loop {
        tokio::time::sleep(RENEW_EVERY).await;
        let Some(service) = service.upgrade() else {
            return;
        };
        match Identity::self_signed().map(|id| (service.renewed(&id), id)) {
            Ok((Ok(()), _)) => tracing::info!("datagram path: self-signed certificate renewed"),
            Ok((Err(e), _)) => {
                tracing::error!(error = %e, "datagram path: cannot renew the certificate")
            }
            Err(e) => tracing::error!(error = %e, "datagram path: cannot renew the certificate"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_self_signed_certificate_is_short_lived_ecdsa_and_hashed() {
        let id = Identity::self_signed().expect("made");
        let hash = id.hash().expect("announced");
        assert_eq!(hash, <[u8; 32]>::from(Sha256::digest(id.certs[0].as_ref())));
        // ECDSA P-256 with SHA-256: the OID 1.2.840.10045.4.3.2 in the signature algorithm.
        let ecdsa_sha256 = [0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x02];
        assert!(
            id.certs[0]
                .as_ref()
                .windows(ecdsa_sha256.len())
                .any(|w| w == ecdsa_sha256)
        );
        assert!(VALIDITY <= Duration::from_secs(14 * 24 * 3600));
        assert!(RENEW_EVERY < VALIDITY - BACKDATE);
    }
}
