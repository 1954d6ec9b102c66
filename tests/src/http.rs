//! A minimal HTTP/1.1 GET for tests of the server's JSON API (one request per connection).

use std::net::SocketAddr;
use std::time::Duration;

use anyhow::{Context, bail};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// `GET path` with `Connection: close`: the status and the body.
pub async fn get(addr: SocketAddr, path: &str) -> anyhow::Result<(u16, Vec<u8>)> {
    let mut tcp = TcpStream::connect(addr).await?;
    let request = format!("GET {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n");
    tcp.write_all(request.as_bytes()).await?;
    let mut reply = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), tcp.read_to_end(&mut reply))
        .await
        .context("HTTP reply within 10 s")??;
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
