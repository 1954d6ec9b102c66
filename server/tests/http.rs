//! The HTTP side of the server's one port: plain requests get HTTP answers with the WebSocket
//! path's limits, and the game's WebSocket upgrade still works beside them.

use std::time::Duration;

use sevenbag_server::{Config, Limits};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const WAIT: Duration = Duration::from_secs(5);

async fn server(limits: Limits) -> (sevenbag_server::ServerHandle, tempfile::TempDir) {
    let dir = tempfile::Builder::new()
        .prefix("sevenbag-http-")
        .tempdir()
        .expect("temp dir");
    let config = Config {
        replay_dir: dir.path().to_path_buf(),
        limits,
        ..Config::default()
    };
    (sevenbag_server::spawn(config).await.expect("server"), dir)
}

/// Sends `request` as is and reads the whole answer (the server closes, or 5 s pass).
async fn exchange(addr: std::net::SocketAddr, request: &[u8]) -> String {
    let mut tcp = TcpStream::connect(addr).await.expect("connect");
    tcp.write_all(request).await.expect("write");
    let mut reply = Vec::new();
    let _ = tokio::time::timeout(WAIT, tcp.read_to_end(&mut reply)).await;
    String::from_utf8_lossy(&reply).into_owned()
}

fn get(path: &str) -> Vec<u8> {
    format!("GET {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n").into_bytes()
}

#[tokio::test]
async fn an_unknown_path_is_a_json_404() {
    let (server, _dir) = server(Limits::default()).await;
    let reply = exchange(server.addr(), &get("/no/such/thing")).await;
    assert!(reply.starts_with("HTTP/1.1 404"), "{reply}");
    assert!(reply.contains(r#"{"error":"no such page"}"#), "{reply}");
    server.shutdown().await.expect("shutdown");
}

#[tokio::test]
async fn api_errors_are_json_for_paths_that_do_not_decode_and_wrong_methods() {
    let (server, _dir) = server(Limits::default()).await;
    let post = b"POST /api/leaderboard HTTP/1.1\r\nHost: test\r\nContent-Length: 0\r\n\
                 Connection: close\r\n\r\n"
        .to_vec();
    for (request, status, message) in [
        (get("/api/players/%ff%fe"), "400", "not a valid player name"),
        (
            get("/api/matches/%ff"),
            "400",
            "a match id is a positive whole number",
        ),
        (
            get("/api/matches/%ff/replay"),
            "400",
            "a match id is a positive whole number",
        ),
        (post, "405", "method not allowed"),
    ] {
        let reply = exchange(server.addr(), &request).await;
        assert!(reply.starts_with(&format!("HTTP/1.1 {status}")), "{reply}");
        assert!(
            reply
                .to_ascii_lowercase()
                .contains("content-type: application/json"),
            "{reply}"
        );
        assert!(
            reply.contains(&format!(r#"{{"error":"{message}"}}"#)),
            "{reply}"
        );
    }
    server.shutdown().await.expect("shutdown");
}

#[tokio::test]
async fn oversized_request_headers_are_refused() {
    let (server, _dir) = server(Limits::default()).await;
    let big = "x".repeat(64 * 1024);
    let request = format!("GET / HTTP/1.1\r\nHost: test\r\nX-Big: {big}\r\n\r\n");
    let reply = exchange(server.addr(), request.as_bytes()).await;
    assert!(reply.starts_with("HTTP/1.1 431"), "{reply}");
    server.shutdown().await.expect("shutdown");
}

#[tokio::test]
async fn a_silent_http_connection_is_closed_after_the_hello_timeout() {
    let limits = Limits {
        hello_timeout: Duration::from_millis(300),
        ..Limits::default()
    };
    let (server, _dir) = server(limits).await;
    let started = std::time::Instant::now();
    let reply = exchange(server.addr(), b"GET / HTTP/1.1\r\n").await;
    assert!(started.elapsed() < Duration::from_secs(3), "closed in time");
    assert!(!reply.contains("101"), "{reply}");
    server.shutdown().await.expect("shutdown");
}

#[tokio::test]
async fn requests_over_the_rate_are_answered_429() {
    let limits = Limits {
        messages_per_second: 1,
        message_burst: 2,
        ..Limits::default()
    };
    let (server, _dir) = server(limits).await;
    let one = "GET /a HTTP/1.1\r\nHost: test\r\n\r\n";
    let last = "GET /a HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n";
    let request = format!("{one}{one}{last}");
    let reply = exchange(server.addr(), request.as_bytes()).await;
    assert_eq!(reply.matches("HTTP/1.1 404").count(), 2, "{reply}");
    assert!(reply.contains("HTTP/1.1 429"), "{reply}");
    server.shutdown().await.expect("shutdown");
}

#[tokio::test]
async fn a_websocket_handshake_with_a_bad_key_is_refused() {
    let (server, _dir) = server(Limits::default()).await;
    let request = "GET / HTTP/1.1\r\nHost: test\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
                   Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: short\r\n\r\n";
    let reply = exchange(server.addr(), request.as_bytes()).await;
    assert!(reply.starts_with("HTTP/1.1 400"), "{reply}");
    server.shutdown().await.expect("shutdown");
}
