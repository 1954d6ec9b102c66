//! One HTTP/1.1 request to the server's admin API, over plain TCP (`http://`) or TLS
//! (`https://`), with a bearer token.
//!
//! Why hyper's client connection: the server already speaks HTTP through hyper, so the tool
//! reuses it (with `hyper-util`'s tokio glue and `http-body-util` to collect the answer) rather
//! than adding a second HTTP stack such as reqwest; TLS is the rustls configuration the game's
//! `wss://` uses (`sevenbag_netplay::TlsTrust`: the public web's authorities plus any
//! certificate file given).

use std::time::Duration;

use anyhow::{Context, bail};
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::{Method, Request};
use hyper_util::rt::TokioIo;
use sevenbag_netplay::TlsTrust;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;

/// Longest a request may take, connection included.
const TIMEOUT: Duration = Duration::from_secs(20);
/// Largest answer read (a replay file is a few hundred KB at most).
const MAX_ANSWER: usize = 16 * 1024 * 1024;

/// Where the admin API is.
#[derive(Clone, Debug)]
pub struct Server {
    tls: bool,
    host: String,
    port: u16,
    trust: TlsTrust,
}

impl Server {
    /// `http://HOST:PORT`, `https://HOST:PORT` (or the game's `ws://`/`wss://` address).
    pub fn parse(url: &str, trust: TlsTrust) -> anyhow::Result<Server> {
        let (tls, rest) = if let Some(r) = url.strip_prefix("https://") {
            (true, r)
        } else if let Some(r) = url.strip_prefix("wss://") {
            (true, r)
        } else if let Some(r) = url.strip_prefix("http://") {
            (false, r)
        } else if let Some(r) = url.strip_prefix("ws://") {
            (false, r)
        } else {
            bail!("the server is http://HOST:PORT or https://HOST:PORT, not {url:?}");
        };
        let authority = rest.split('/').next().unwrap_or_default();
        let (host, port) = match authority.rsplit_once(':') {
            Some((h, p)) if !h.ends_with(']') || h.starts_with('[') => (
                h.trim_start_matches('[').trim_end_matches(']').to_string(),
                p.parse().with_context(|| format!("bad port in {url:?}"))?,
            ),
            _ => (authority.to_string(), if tls { 443 } else { 80 }),
        };
        anyhow::ensure!(!host.is_empty(), "no host in {url:?}");
        Ok(Server {
            tls,
            host,
            port,
            trust,
        })
    }

    fn authority(&self) -> String {
        if self.host.contains(':') {
            format!("[{}]:{}", self.host, self.port)
        } else {
            format!("{}:{}", self.host, self.port)
        }
    }

    /// Sends one request and returns the status and the body.
    pub async fn request(
        &self,
        method: Method,
        path: &str,
        token: &str,
        body: Option<serde_json::Value>,
    ) -> anyhow::Result<(u16, Bytes)> {
        tokio::time::timeout(TIMEOUT, self.exchange(method, path, token, body))
            .await
            .with_context(|| format!("no answer from {} within {TIMEOUT:?}", self.authority()))?
    }

    async fn exchange(
        &self,
        method: Method,
        path: &str,
        token: &str,
        body: Option<serde_json::Value>,
    ) -> anyhow::Result<(u16, Bytes)> {
        let tcp = TcpStream::connect((self.host.as_str(), self.port))
            .await
            .with_context(|| format!("cannot connect to {}", self.authority()))?;
        tcp.set_nodelay(true)?;
        let body = body.map(|b| b.to_string()).unwrap_or_default();
        let mut request = Request::builder()
            .method(method)
            .uri(path)
            .header(hyper::header::HOST, self.authority())
            .header(hyper::header::AUTHORIZATION, format!("Bearer {token}"))
            .header(hyper::header::ACCEPT, "application/json");
        if !body.is_empty() {
            request = request.header(hyper::header::CONTENT_TYPE, "application/json");
        }
        let request = request.body(Full::new(Bytes::from(body)))?;
        if self.tls {
            let config = self.trust.client_config()?;
            let name = rustls_pki_types::ServerName::try_from(self.host.clone())
                .with_context(|| format!("{:?} is not a host name for TLS", self.host))?;
            let stream = tokio_rustls::TlsConnector::from(config)
                .connect(name, tcp)
                .await
                .with_context(|| format!("TLS with {} failed", self.authority()))?;
            send(stream, request).await
        } else {
            send(tcp, request).await
        }
    }
}

async fn send<S>(stream: S, request: Request<Full<Bytes>>) -> anyhow::Result<(u16, Bytes)>
where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .context("HTTP handshake")?;
    let driver = tokio::spawn(connection);
    let answer = sender.send_request(request).await.context("HTTP request")?;
    let status = answer.status().as_u16();
    let limited = http_body_util::Limited::new(answer.into_body(), MAX_ANSWER);
    let bytes = limited
        .collect()
        .await
        .map_err(|e| anyhow::anyhow!("reading the answer: {e}"))?
        .to_bytes();
    driver.abort();
    Ok((status, bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_addresses_parse() {
        let s = Server::parse("https://play.example.org", TlsTrust::default()).unwrap();
        assert_eq!(
            (s.tls, s.authority()),
            (true, "play.example.org:443".into())
        );
        let s = Server::parse("ws://127.0.0.1:7878/", TlsTrust::default()).unwrap();
        assert_eq!((s.tls, s.authority()), (false, "127.0.0.1:7878".into()));
        let s = Server::parse("http://[::1]:9000", TlsTrust::default()).unwrap();
        assert_eq!(s.authority(), "[::1]:9000");
        assert!(Server::parse("ftp://x", TlsTrust::default()).is_err());
        assert!(Server::parse("http://:80", TlsTrust::default()).is_err());
    }
}
