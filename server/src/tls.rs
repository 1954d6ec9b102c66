//! TLS on the server's one port: loading the PEM certificate chain and key, and the handshake
//! with its timeout. After the handshake the encrypted stream is served exactly like a plain
//! socket (`crate::http::serve`), so `wss://` and `https://` get the same router and limits.
//!
//! # Why rustls (through tokio-rustls) with the `ring` provider
//! rustls is a memory-safe TLS stack with no system OpenSSL to match, and tokio-rustls is its
//! async adapter for tokio. The `ring` provider builds with a C compiler alone; rustls's
//! default `aws-lc-rs` provider needs cmake, which CI does not have. PEM parsing uses
//! `rustls-pki-types`, which rustls depends on anyway.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, PrivateKeyDer};
use sevenbag_protocol::file::read_limited;
use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls;

/// Largest PEM file read (a long chain is a few tens of kilobytes); each is a regular file read
/// through this limit, so a device or FIFO given by mistake is an error at once.
const MAX_PEM_BYTES: u64 = 1 << 20;

/// The PEM files the server's certificate comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TlsFiles {
    /// The certificate chain, leaf first (an ACME client's `fullchain.pem`).
    pub cert: PathBuf,
    /// The private key (PKCS#8, PKCS#1 or SEC1; an ACME client's `privkey.pem`).
    pub key: PathBuf,
}

/// Why the TLS configuration could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    /// A PEM file could not be read or holds nothing usable.
    #[error("cannot read {what} from {path}: {reason}")]
    Pem {
        /// "certificate" or "private key".
        what: &'static str,
        /// The file.
        path: PathBuf,
        /// What went wrong.
        reason: String,
    },
    /// rustls refused the certificate and key (they do not match, or an unsupported key).
    #[error("bad TLS certificate or key: {0}")]
    Config(#[from] rustls::Error),
}

fn pem_error(what: &'static str, path: &Path, reason: impl ToString) -> TlsError {
    TlsError::Pem {
        what,
        path: path.to_path_buf(),
        reason: reason.to_string(),
    }
}

/// Loads `files` into an acceptor (HTTP/1.1 only, the ring provider's safe defaults).
pub(crate) fn acceptor(files: &TlsFiles) -> Result<TlsAcceptor, TlsError> {
    let cert_pem = read_limited(&files.cert, MAX_PEM_BYTES)
        .map_err(|e| pem_error("certificate", &files.cert, e))?;
    let certs = CertificateDer::pem_slice_iter(&cert_pem)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| pem_error("certificate", &files.cert, e))?;
    if certs.is_empty() {
        return Err(pem_error(
            "certificate",
            &files.cert,
            "no CERTIFICATE block in the file",
        ));
    }
    let key_pem = read_limited(&files.key, MAX_PEM_BYTES)
        .map_err(|e| pem_error("private key", &files.key, e))?;
    let key = PrivateKeyDer::from_pem_slice(&key_pem)
        .map_err(|e| pem_error("private key", &files.key, e))?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()?
        .with_no_client_auth()
        .with_single_cert(certs, key)?;
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(TlsAcceptor::from(Arc::new(config)))
}
