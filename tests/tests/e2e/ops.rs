//! End-to-end: the server run for the internet. Headless players play over `wss://` with a
//! self-signed certificate they were told to trust, and `https://` serves the health and
//! metrics routes on the same port; garbage on the TLS port is cut without disturbing a
//! player; a graceful drain refuses new rooms, lets the running match finish and write its
//! replay, then stops the server; a stop during the drain (a second SIGTERM) ends it at once.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use rustls_pki_types::{CertificateDer, ServerName};
use sevenbag_netplay::{HeadlessClient, HeadlessConfig, HeadlessError, Idle, TlsTrust};
use sevenbag_protocol::{ErrorCode, JoinRole, RoomOptions};
use sevenbag_server::{Config, Limits, TlsFiles};
use sevenbag_tests::players::{finished, match_config, play};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_rustls::TlsConnector;
use tokio_rustls::rustls;

/// Every wait in these tests is bounded by this.
const MATCH_TIMEOUT: Duration = Duration::from_secs(45);

/// A self-signed certificate for 127.0.0.1 written as PEM files in a directory removed on drop.
struct Cert {
    dir: sevenbag_tests::TempDir,
    der: CertificateDer<'static>,
}

impl Cert {
    fn new() -> Cert {
        let made = rcgen::generate_simple_self_signed(vec!["127.0.0.1".to_string()])
            .expect("test certificate");
        let dir = sevenbag_tests::temp_dir("tls");
        std::fs::write(dir.path().join("cert.pem"), made.cert.pem()).expect("cert.pem");
        std::fs::write(dir.path().join("key.pem"), made.signing_key.serialize_pem())
            .expect("key.pem");
        Cert {
            der: made.cert.der().clone(),
            dir,
        }
    }

    fn files(&self) -> TlsFiles {
        TlsFiles {
            cert: self.dir.path().join("cert.pem"),
            key: self.dir.path().join("key.pem"),
        }
    }

    fn trust(&self) -> TlsTrust {
        TlsTrust::default()
            .with_cert_file(&self.dir.path().join("cert.pem"))
            .expect("trust the test certificate")
    }
}

async fn player(url: &str, name: &str, trust: &TlsTrust) -> HeadlessClient {
    let config = HeadlessConfig {
        trust: trust.clone(),
        ..HeadlessConfig::new(name)
    };
    HeadlessClient::connect(url, config)
        .await
        .unwrap_or_else(|e| panic!("{name} connects: {e}"))
}

/// Alice creates a first-to-1 room and Bob joins; both are ready.
async fn two_ready_players(url: &str, trust: &TlsTrust) -> (HeadlessClient, HeadlessClient) {
    let mut alice = player(url, "alice", trust).await;
    let options = RoomOptions {
        first_to: 1,
        ..RoomOptions::default()
    };
    let code = alice.create_room(options).await.expect("room created");
    let mut bob = player(url, "bob", trust).await;
    bob.join_room(&code, JoinRole::Player)
        .await
        .expect("bob joins");
    alice.ready().expect("ready");
    bob.ready().expect("ready");
    (alice, bob)
}

/// `GET path` over TLS trusting only `cert`, with `Connection: close`: the status and body.
async fn https_get(addr: SocketAddr, cert: &CertificateDer<'static>, path: &str) -> (u16, String) {
    let mut roots = rustls::RootCertStore::empty();
    roots.add(cert.clone()).expect("root");
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .expect("versions")
        .with_root_certificates(roots)
        .with_no_client_auth();
    let tcp = TcpStream::connect(addr).await.expect("connect");
    let name = ServerName::try_from("127.0.0.1").expect("name");
    let tls = TlsConnector::from(Arc::new(config))
        .connect(name, tcp)
        .await
        .expect("TLS handshake");
    let (status, body) = sevenbag_tests::http::get_over(tls, path)
        .await
        .expect("HTTPS reply");
    (status, String::from_utf8_lossy(&body).into_owned())
}

/// The value of the sample line `name` (with labels, if any) in a Prometheus text body.
fn sample(text: &str, name: &str) -> Option<f64> {
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.trim().parse().ok())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_over_wss_finish_a_match_and_https_serves_health_and_metrics() {
    let cert = Cert::new();
    let server = sevenbag_tests::start_server(Config {
        tls: Some(cert.files()),
        ..match_config(Duration::from_millis(300))
    })
    .await;
    let url = server.url();
    assert!(url.starts_with("wss://127.0.0.1:"), "{url}");

    let (alice, bob) = two_ready_players(&url, &cert.trust()).await;
    let clients = finished(vec![
        play(alice, Some(1), (2, 8), MATCH_TIMEOUT),
        play(bob, Some(2), (2, 8), MATCH_TIMEOUT),
    ])
    .await;
    let result = clients[0].match_result().cloned().expect("result");
    assert_eq!(clients[1].match_result(), Some(&result));
    // The datagram path presents the same certificate (no hash announced): the players trust
    // it as they trust wss://, and their inputs went as datagrams.
    for c in &clients {
        assert_eq!(
            c.path(),
            sevenbag_netplay::TransportPath::Datagrams,
            "{:?}",
            c.stats()
        );
        assert!(c.stats().net.datagrams_in > 0);
    }

    assert_eq!(
        https_get(server.addr(), &cert.der, "/healthz").await,
        (200, "ok\n".to_string())
    );
    assert_eq!(https_get(server.addr(), &cert.der, "/readyz").await.0, 200);
    let (status, metrics) = https_get(server.addr(), &cert.der, "/metrics").await;
    assert_eq!(status, 200);
    assert_eq!(
        sample(&metrics, "sevenbag_matches_started_total"),
        Some(1.0)
    );
    assert_eq!(
        sample(&metrics, "sevenbag_matches_finished_total"),
        Some(1.0)
    );
    assert_eq!(sample(&metrics, "sevenbag_connections"), Some(2.0));
    assert!(sample(&metrics, "sevenbag_messages_received_total").is_some_and(|n| n > 10.0));
    assert!(sample(&metrics, "sevenbag_sent_bytes_total").is_some_and(|n| n > 100.0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_does_not_trust_the_certificate_is_refused_clearly() {
    let cert = Cert::new();
    let server = sevenbag_tests::start_server(Config {
        tls: Some(cert.files()),
        ..sevenbag_tests::fast_config()
    })
    .await;
    let refused = HeadlessClient::connect(&server.url(), HeadlessConfig::new("mallory")).await;
    let Err(e) = refused else {
        panic!("connected without trusting the certificate");
    };
    assert!(e.to_string().to_lowercase().contains("certificate"), "{e}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn garbage_on_the_tls_port_is_cut_while_a_wss_player_carries_on() {
    let cert = Cert::new();
    let fast = sevenbag_tests::fast_config();
    let server = sevenbag_tests::start_server(Config {
        tls: Some(cert.files()),
        limits: Limits {
            tls_handshake_timeout: Duration::from_secs(2),
            ..fast.limits.clone()
        },
        ..fast
    })
    .await;
    let trust = cert.trust();
    let mut alice = player(&server.url(), "alice", &trust).await;

    // Plain HTTP, random bytes, and a TLS-looking record header with nothing after it.
    let garbage: [&[u8]; 3] = [
        b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n",
        &[
            0x8f, 0x00, 0xff, 0x13, 0x37, 0x42, 0x00, 0x01, 0x99, 0xab, 0xcd, 0xef,
        ],
        &[0x16, 0x03, 0x01, 0x40, 0x00],
    ];
    let mut cut = Vec::new();
    for bytes in garbage {
        let addr = server.addr();
        cut.push(tokio::spawn(async move {
            let mut tcp = TcpStream::connect(addr).await.expect("connect");
            tcp.write_all(bytes).await.expect("write");
            let mut sink = Vec::new();
            // Closed by the server: at once for garbage, within the (here 2 s) handshake
            // timeout for a record that never completes.
            tokio::time::timeout(Duration::from_secs(15), tcp.read_to_end(&mut sink)).await
        }));
    }
    // Meanwhile the player is served as usual.
    let code = alice
        .create_room(RoomOptions::default())
        .await
        .expect("a room while garbage arrives");
    assert_eq!(code.len(), 5);
    for task in cut {
        let closed = task.await.expect("garbage task");
        assert!(
            closed.is_ok(),
            "the server did not close a garbage connection"
        );
    }
    let (status, metrics) = https_get(server.addr(), &cert.der, "/metrics").await;
    assert_eq!(status, 200);
    let cuts = sample(&metrics, r#"sevenbag_cuts_total{reason="tls_handshake"}"#);
    assert!(cuts.is_some_and(|n| n >= 2.0), "{metrics}");
    // Alice is still connected and served.
    alice.leave().expect("leave");
    let again = alice.create_room(RoomOptions::default()).await;
    assert!(again.is_ok(), "{again:?}");
}

/// Waits (at most 10 s) until the server counts `n` running matches.
async fn until_running(addr: SocketAddr, n: f64) {
    let running = async {
        loop {
            let (_, body) = sevenbag_tests::http::get(addr, "/metrics")
                .await
                .expect("metrics");
            let body = String::from_utf8_lossy(&body).into_owned();
            if sample(&body, "sevenbag_matches_running") == Some(n) {
                return;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(10), running)
        .await
        .unwrap_or_else(|_| panic!("never {n} running matches"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_drain_refuses_new_rooms_lets_the_running_match_finish_and_stops() {
    let mut server = sevenbag_tests::start_server(match_config(Duration::from_millis(300))).await;
    let url = server.url();
    let trust = TlsTrust::default();
    let (alice, bob) = two_ready_players(&url, &trust).await;
    let mut carol = player(&url, "carol", &trust).await;
    let tasks = vec![
        play(alice, Some(3), (2, 8), MATCH_TIMEOUT),
        play(bob, Some(4), (2, 8), MATCH_TIMEOUT),
    ];
    until_running(server.addr(), 1.0).await;

    server.drain();
    let refused = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            match carol.create_room(RoomOptions::default()).await {
                Err(HeadlessError::Server { code, message }) => return (code, message),
                // The drain signal may not have landed yet: leave and ask again.
                Ok(_) => {
                    carol.leave().expect("leave");
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
                Err(e) => panic!("unexpected: {e}"),
            }
        }
    })
    .await
    .expect("a new room is refused while draining");
    assert_eq!(refused.0, ErrorCode::Shutdown, "{}", refused.1);
    let (status, _) = sevenbag_tests::http::get(server.addr(), "/readyz")
        .await
        .expect("readyz");
    assert_eq!(status, 503, "not ready while draining");

    // The match plays to its end, its replay is written, and the server stops by itself.
    let clients = finished(tasks).await;
    let result = clients[0].match_result().cloned().expect("result");
    assert!(result.replay.is_some(), "{result:?}");
    server
        .wait_stopped(Duration::from_secs(30))
        .await
        .expect("the server stops after the drain");
    assert_eq!(
        server.replay_files().len(),
        1,
        "{:?}",
        server.replay_files()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stop_during_a_drain_ends_the_running_match_at_once() {
    // Idle players hardly top out: the stop is what ends this match.
    let mut server = sevenbag_tests::start_server(match_config(Duration::from_millis(300))).await;
    let url = server.url();
    let (alice, bob) = two_ready_players(&url, &TlsTrust::default()).await;
    // Each plays along until its connection ends (a headless client does not stop by itself).
    let tasks = [alice, bob].map(|mut client| {
        tokio::spawn(async move {
            let ended = client
                .run_until(&mut Idle, MATCH_TIMEOUT, |c| !c.is_connected())
                .await;
            (client, ended)
        })
    });
    until_running(server.addr(), 1.0).await;

    server.drain();
    // The drain has begun once the server says it is not ready.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while sevenbag_tests::http::get(server.addr(), "/readyz")
        .await
        .expect("readyz")
        .0
        != 503
    {
        assert!(tokio::time::Instant::now() < deadline, "no drain");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let started = std::time::Instant::now();
    server.shutdown().await.expect("stops");
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    for task in tasks {
        let (client, ended) = task.await.expect("player task");
        ended.expect("disconnected by the stop");
        assert!(
            client.match_result().is_none(),
            "no result for a match cut short"
        );
    }
    // The unfinished match is kept as a replay without a winner.
    assert_eq!(
        server.replay_files().len(),
        1,
        "{:?}",
        server.replay_files()
    );
}
