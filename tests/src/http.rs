//! A minimal HTTP/1.1 GET for tests of the server's JSON API (one request per connection).

use std::net::SocketAddr;
use std::time::Duration;

use anyhow::{Context, bail};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::TcpStream;

/// `GET path` with `Connection: close`: the status and the body.
pub async fn get(addr: SocketAddr, path: &str) -> anyhow::Result<(u16, Vec<u8>)> {
    get_over(TcpStream::connect(addr).await?, path).await
}

/// `GET path` with `Connection: close` over an open stream (plain TCP, or TLS the caller set
/// up): the status and the body. The reply ends when the server closes; how it closes (a TLS
/// close_notify or not) does not matter once bytes have arrived.
pub async fn get_over(
    mut stream: impl AsyncRead + AsyncWrite + Unpin,
    path: &str,
) -> anyhow::Result<(u16, Vec<u8>)> {
    let request = format!("GET {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await?;
    let mut reply = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut reply))
        .await
        .context("HTTP reply within 10 s")?;
    if let Err(e) = read
        && reply.is_empty()
    {
        return Err(e.into());
    }
    let split = reply
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .context("no end of headers")?;
    let head = String::from_utf8_lossy(&reply[..split]).to_string();
    if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        bail!("chunked replies are not expected from the API: {head}");
    }
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .with_context(|| format!("bad status line: {head}"))?;
    Ok((status, reply[split + 4..].to_vec()))
}

/// `GET path` expecting JSON: the status and the parsed body.
pub async fn get_json(addr: SocketAddr, path: &str) -> anyhow::Result<(u16, serde_json::Value)> {
    let (status, body) = get(addr, path).await?;
    let json = serde_json::from_slice(&body)
        .with_context(|| format!("not JSON: {}", String::from_utf8_lossy(&body)))?;
    Ok((status, json))
}
