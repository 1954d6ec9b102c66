//! A minimal HTTP/1.1 GET for tests of the server's JSON API (one request per connection).

use std::net::SocketAddr;
use std::time::{Duration, Instant};

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

/// `name`'s stored matches from `/api/players/NAME` once it lists `rows` of them (the writer
/// runs behind the room). Waits a bounded time, then panics (this is test code).
pub async fn recent_matches(addr: SocketAddr, name: &str, rows: usize) -> Vec<serde_json::Value> {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(20) {
        let (status, body) = get_json(addr, &format!("/api/players/{name}"))
            .await
            .expect("GET");
        let list = body["recent_matches"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        if status == 200 && list.len() >= rows {
            return list;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("{name}'s history never held {rows} matches");
}

/// Any request with `Connection: close`: `method path`, an optional `Authorization: Bearer`
/// token and an optional JSON body. Returns the status and the body.
pub async fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&serde_json::Value>,
) -> anyhow::Result<(u16, Vec<u8>)> {
    let mut stream = TcpStream::connect(addr).await?;
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n");
    if let Some(token) = token {
        head.push_str(&format!("Authorization: Bearer {token}\r\n"));
    }
    if !body.is_empty() {
        head.push_str("Content-Type: application/json\r\n");
    }
    head.push_str(&format!("Content-Length: {}\r\n\r\n", body.len()));
    stream.write_all(head.as_bytes()).await?;
    stream.write_all(body.as_bytes()).await?;
    let mut reply = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut reply))
        .await
        .context("HTTP reply within 10 s")??;
    let split = reply
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .context("no end of headers")?;
    let head = String::from_utf8_lossy(&reply[..split]).to_string();
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .with_context(|| format!("bad status line: {head}"))?;
    Ok((status, reply[split + 4..].to_vec()))
}

/// [`request`] expecting JSON back: the status and the parsed body.
pub async fn request_json(
    addr: SocketAddr,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&serde_json::Value>,
) -> anyhow::Result<(u16, serde_json::Value)> {
    let (status, bytes) = request(addr, method, path, token, body).await?;
    let json = serde_json::from_slice(&bytes)
        .with_context(|| format!("not JSON: {}", String::from_utf8_lossy(&bytes)))?;
    Ok((status, json))
}

/// A history row's players as (name, whether the seat was an account) pairs, in the API's
/// order.
pub fn players_of(row: &serde_json::Value) -> Vec<(serde_json::Value, serde_json::Value)> {
    row["players"]
        .as_array()
        .expect("players")
        .iter()
        .map(|p| (p["name"].clone(), p["ranked_player"].clone()))
        .collect()
}
