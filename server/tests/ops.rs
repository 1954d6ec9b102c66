//! The operator routes on a real server: `/healthz`, `/readyz` (with a database), `/metrics`
//! with every documented name and counts that move when a client connects, and a clear
//! start-up error for unreadable TLS files.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use sevenbag_core::Handling;
use sevenbag_protocol::{ClientMessage, PROTOCOL_VERSION, ServerMessage};
use sevenbag_server::{Config, ServerError, TlsFiles};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

/// A fresh temporary directory, removed on drop.
fn temp_dir() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("sevenbag-ops-")
        .tempdir()
        .expect("temp dir")
}

/// Every metric `docs/SERVER.md` lists.
const METRICS: [&str; 15] = [
    "sevenbag_connections",
    "sevenbag_sockets",
    "sevenbag_rooms",
    "sevenbag_matches_running",
    "sevenbag_matches_started_total",
    "sevenbag_matches_finished_total",
    "sevenbag_messages_received_total",
    "sevenbag_messages_sent_total",
    "sevenbag_received_bytes_total",
    "sevenbag_sent_bytes_total",
    "sevenbag_send_queue_depth",
    "sevenbag_desyncs_total",
    "sevenbag_cuts_total",
    "sevenbag_db_write_seconds",
    "sevenbag_db_write_seconds_count",
];

/// `GET path` with `Connection: close`: the status and the body.
async fn get(addr: std::net::SocketAddr, path: &str) -> (u16, String) {
    let mut tcp = TcpStream::connect(addr).await.expect("connect");
    let request = format!("GET {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n");
    tcp.write_all(request.as_bytes()).await.expect("write");
    let mut reply = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(5), tcp.read_to_end(&mut reply)).await;
    let reply = String::from_utf8_lossy(&reply).into_owned();
    let status = reply
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body = reply
        .split_once("\r\n\r\n")
        .map_or(String::new(), |(_, b)| b.to_string());
    (status, body)
}

fn sample(text: &str, name: &str) -> Option<f64> {
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.trim().parse().ok())
}

#[tokio::test]
async fn health_readiness_and_metrics_answer_and_counts_follow_a_connection() {
    let dir = temp_dir();
    let server = sevenbag_server::spawn(Config {
        replay_dir: dir.path().join("replays"),
        db: Some(dir.path().join("sevenbag.db")),
        ..Config::default()
    })
    .await
    .expect("server");
    assert_eq!(get(server.addr(), "/healthz").await, (200, "ok\n".into()));
    assert_eq!(get(server.addr(), "/readyz").await, (200, "ready\n".into()));

    let (status, before) = get(server.addr(), "/metrics").await;
    assert_eq!(status, 200);
    for name in METRICS {
        assert!(
            before.lines().any(|l| l.starts_with(name))
                || before.contains(&format!("# TYPE {name} ")),
            "{name} missing:\n{before}"
        );
    }
    assert_eq!(sample(&before, "sevenbag_connections"), Some(0.0));

    let (mut ws, _) = tokio_tungstenite::connect_async(server.url())
        .await
        .expect("websocket");
    let hello = ClientMessage::Hello {
        version: PROTOCOL_VERSION,
        name: "probe".into(),
        handling: Handling::default(),
        resume: None,
    };
    let bytes = sevenbag_protocol::encode(&hello).expect("encode");
    ws.send(Message::binary(bytes)).await.expect("send");
    let welcome = tokio::time::timeout(Duration::from_secs(5), ws.next())
        .await
        .expect("a reply")
        .expect("a message")
        .expect("no error");
    let welcome = sevenbag_protocol::decode_server(&welcome.into_data()).expect("decodes");
    assert!(
        matches!(welcome, ServerMessage::Welcome { .. }),
        "{welcome:?}"
    );

    let (_, after) = get(server.addr(), "/metrics").await;
    assert_eq!(sample(&after, "sevenbag_connections"), Some(1.0), "{after}");
    assert_eq!(
        sample(&after, "sevenbag_messages_received_total"),
        Some(1.0)
    );
    assert!(sample(&after, "sevenbag_messages_sent_total").is_some_and(|n| n >= 1.0));
    drop(ws);
    server.shutdown().await.expect("shutdown");
}

#[tokio::test]
async fn unreadable_tls_files_stop_the_server_with_a_clear_error() {
    let dir = temp_dir();
    let server = sevenbag_server::spawn(Config {
        replay_dir: dir.path().join("replays"),
        tls: Some(TlsFiles {
            cert: dir.path().join("missing-cert.pem"),
            key: dir.path().join("missing-key.pem"),
        }),
        ..Config::default()
    })
    .await
    .expect("spawned");
    let err = server.shutdown().await.expect_err("no certificate");
    assert!(matches!(err, ServerError::Tls(_)), "{err}");
    assert!(err.to_string().contains("missing-cert.pem"), "{err}");
}
