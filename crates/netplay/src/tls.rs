//! How a `wss://` connection decides to trust the server: the public web's certificate
//! authorities (Mozilla's list, built in through `webpki-roots`, so it works the same on every
//! OS), plus any certificates the user chose to trust — a LAN or test server's self-signed one.
//!
//! # Why rustls with the `ring` provider
//! tokio-tungstenite already speaks TLS through rustls; the `ring` provider builds with a C
//! compiler alone (rustls's default `aws-lc-rs` needs cmake), and built-in roots avoid a
//! dependency on each OS's certificate store.

use std::path::Path;
use std::sync::Arc;

use rustls_pki_types::CertificateDer;
use rustls_pki_types::pem::PemObject;
use tokio_rustls::rustls;

/// Which certificates a `wss://` connection accepts. The default trusts the public web's
/// authorities only. Cheap to clone.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TlsTrust {
    extra: Vec<CertificateDer<'static>>,
}

/// Why a certificate to trust could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum TlsTrustError {
    /// The file could not be read or holds no usable PEM certificate.
    #[error("cannot read a certificate from {path}: {reason}")]
    Pem {
        /// The file.
        path: String,
        /// What went wrong.
        reason: String,
    },
    /// rustls refused the certificate as a trust anchor.
    #[error("cannot trust the certificate: {0}")]
    Anchor(String),
    /// The TLS configuration could not be built.
    #[error("TLS setup failed: {0}")]
    Config(String),
}

impl TlsTrust {
    /// Also trusts every certificate in the PEM file at `path` (a self-signed server's own
    /// certificate, or a private authority's).
    pub fn with_cert_file(mut self, path: &Path) -> Result<TlsTrust, TlsTrustError> {
        let bad = |reason: String| TlsTrustError::Pem {
            path: path.display().to_string(),
            reason,
        };
        let certs = CertificateDer::pem_file_iter(path)
            .map_err(|e| bad(e.to_string()))?
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| bad(e.to_string()))?;
        if certs.is_empty() {
            return Err(bad("no CERTIFICATE block in the file".into()));
        }
        self.extra.extend(certs);
        Ok(self)
    }

    /// Also trusts `cert` (DER).
    pub fn with_cert_der(mut self, cert: Vec<u8>) -> TlsTrust {
        self.extra.push(CertificateDer::from(cert));
        self
    }

    /// The rustls client configuration for this trust (also for `https://`, e.g. the tool's
    /// admin commands).
    pub fn client_config(&self) -> Result<Arc<rustls::ClientConfig>, TlsTrustError> {
        self.config_with(rustls::DEFAULT_VERSIONS)
    }

    /// The same for QUIC (the datagram session), which speaks TLS 1.3 only.
    pub(crate) fn client_config_tls13(&self) -> Result<Arc<rustls::ClientConfig>, TlsTrustError> {
        self.config_with(&[&rustls::version::TLS13])
    }

    fn config_with(
        &self,
        versions: &[&'static rustls::SupportedProtocolVersion],
    ) -> Result<Arc<rustls::ClientConfig>, TlsTrustError> {
        let mut roots = rustls::RootCertStore {
            roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
        };
        for cert in &self.extra {
            roots
                .add(cert.clone())
                .map_err(|e| TlsTrustError::Anchor(e.to_string()))?;
        }
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let config = rustls::ClientConfig::builder_with_provider(provider)
            .with_protocol_versions(versions)
            .map_err(|e| TlsTrustError::Config(e.to_string()))?
            .with_root_certificates(roots)
            .with_no_client_auth();
        Ok(Arc::new(config))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_certificate_file_is_a_clear_error() {
        let err = TlsTrust::default()
            .with_cert_file(Path::new("/no/such/cert.pem"))
            .expect_err("missing file");
        assert!(err.to_string().contains("/no/such/cert.pem"), "{err}");
    }

    #[test]
    fn the_default_trust_builds_a_config() {
        assert!(TlsTrust::default().client_config().is_ok());
    }
}
