//! End-to-end in a real browser, a room of several seats: the page joins a free-for-all room by
//! its code, headless battle clients fill the other seats through the real server, and they
//! play it out. The page's inputs go as battle datagrams over WebTransport (the headless
//! players keep theirs on the WebSocket, so every datagram the server takes is the page's);
//! the page ends on the same confirmed state as the server's verified replay, with no desync.
//! Behind a TCP relay that passes no UDP the page's datagram session never comes up and the
//! room plays out on the WebSocket just the same. A screenshot of the page mid-match is kept as
//! `target/browser-shots/battle-page-udp.png` (and `battle-page-tcp.png` behind the relay).
//!
//! Needs what tests/tests/browser/browser.rs needs (skips when missing: `sevenbag_tests::needs`).

use std::time::{Duration, Instant};

use serde_json::Value;
use sevenbag_tests::ffa;
use sevenbag_tests::page::{FIRST_SCREEN_LIMIT, STEP_LIMIT, Site, screen};
use tokio::io::copy_bidirectional;
use tokio::net::{TcpListener, TcpStream};
use tokio::task::{JoinHandle, block_in_place};

/// Longest the whole match may take (the page's seat tops out soon; the others play on).
const MATCH_LIMIT: Duration = Duration::from_secs(150);
/// The menu's entries up from Practice to Join room (as tests/tests/browser/browser_play.rs).
const UP_TO_JOIN_ROOM: usize = 3;

fn stage(s: &Value) -> &str {
    s["stage"].as_str().unwrap_or_default()
}

/// Opens the page at `path` and waits on the menu (naming the player on a first start).
fn menu(site: &mut Site, path: &str) {
    site.open(path);
    let s = site.wait_state(FIRST_SCREEN_LIMIT, "the first screen", |s| {
        matches!(screen(s), "welcome" | "menu")
    });
    if screen(&s) == "welcome" {
        block_in_place(|| site.browser.type_text("webby")).expect("name");
        site.keys(&["Enter"]);
        site.wait_state(STEP_LIMIT, "the menu", |s| screen(s) == "menu");
    }
}

/// From the menu, joins the room `code` by its code and waits until the room's screen is up.
fn join_by_code(site: &mut Site, code: &str) -> Value {
    let mut keys = vec!["ArrowUp"; UP_TO_JOIN_ROOM];
    keys.push("Enter");
    site.keys(&keys);
    site.wait_state(STEP_LIMIT, "the join form", |s| screen(s) == "lobby");
    block_in_place(|| site.browser.type_text(code)).expect("type the code");
    let start = Instant::now();
    while screen(&site.state()) == "lobby" {
        site.keys(&["Enter"]);
        assert!(start.elapsed() < STEP_LIMIT, "the form never connected");
    }
    site.wait_state(STEP_LIMIT, "the page seated in the room", |s| {
        screen(s) == "party-online" && stage(s) == "in_room" && s["seat"].is_u64()
    })
}

/// What the page saw of a match in a room of several seats.
struct Played {
    /// The path its inputs took at each look while the boards were live.
    paths: Vec<String>,
    /// Datagrams the server received (the headless players send none).
    datagrams: f64,
}

/// Seats two headless players (on the WebSocket) in a new three-seat free-for-all room, has
/// the page (opened at `path`) join it by its code and play it out with hard drops, keeping a
/// screenshot `shot` mid-match; checks the page ends on the server's verified replay's hash
/// with no desync.
async fn play_room(site: &mut Site, path: &str, shot: &str) -> Played {
    let url = site.server.url();
    let (mut players, code) = ffa::seated_on(&url, ffa::options(3), 2, |_| false).await;
    menu(site, path);
    let s = join_by_code(site, &code);
    assert_eq!(
        s["seat"].as_u64(),
        Some(2),
        "the page took the third seat: {s}"
    );
    assert_eq!(s["code"].as_str(), Some(code.as_str()));
    // The page's first row is Ready.
    site.keys(&["Enter"]);
    ffa::all_ready(&mut players);
    let headless = tokio::spawn(ffa::play_all(players, false));

    let start = Instant::now();
    let mut shot_taken = false;
    let mut paths = Vec::new();
    let state = loop {
        site.keys(&["Space"]);
        let s = site.state();
        assert!(stage(&s) != "failed", "the page failed mid-match: {s}");
        if s["phase"] == "playing" {
            paths.push(s["path"].as_str().unwrap_or_default().to_owned());
            if !shot_taken && paths.len() >= 5 {
                site.keep_screenshot(shot);
                shot_taken = true;
            }
        }
        if s["result"].is_object() {
            break s;
        }
        assert!(start.elapsed() < MATCH_LIMIT, "the match did not end: {s}");
    };
    assert!(shot_taken, "the page was seen playing: {state}");
    let mut players = headless.await.expect("headless players");
    let (replay_hash, replay) = ffa::verified_replay(&mut players[0]).await;
    assert_eq!(replay.names.len(), 3, "a three-seat replay");
    for p in &players {
        assert_eq!(ffa::final_hash(p), replay_hash, "a headless player agrees");
    }
    let want = format!("{replay_hash:016x}");
    // The confirmed match reaches the end first; the boards shown follow it in bounded steps
    // a frame (a slow page is a few frames behind), so both are waited for.
    let end = site.wait_state(STEP_LIMIT, "the page's confirmed match at its end", |s| {
        s["hash"].as_str() == Some(want.as_str()) && s["phase"] == "match_over"
    });
    assert_eq!(end["desyncs"].as_u64(), Some(0), "no desync: {end}");
    let pieces = end["pieces"].as_array().cloned().unwrap_or_default();
    assert_eq!(pieces.len(), 3, "three boards: {end}");

    let (_, body) = sevenbag_tests::http::get(site.server.addr(), "/metrics")
        .await
        .expect("metrics");
    let metrics = String::from_utf8_lossy(&body);
    let datagrams = metrics
        .lines()
        .find(|l| l.starts_with("sevenbag_datagrams_received_total"))
        .and_then(|l| l.rsplit(' ').next())
        .and_then(|v| v.parse::<f64>().ok())
        .unwrap_or(0.0);
    eprintln!(
        "browser battle over: {} ({datagrams} datagrams from the page, paths seen {})",
        end["result"],
        paths.len()
    );
    Played { paths, datagrams }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_page_plays_a_free_for_all_room_with_its_inputs_as_battle_datagrams() {
    let Some(mut site) = Site::start(true).await else {
        return;
    };
    let played = play_room(&mut site, "/", "battle-page-udp").await;
    assert!(
        played.paths.iter().all(|p| p == "datagrams"),
        "the page's inputs were on datagrams all match: {:?}",
        played.paths
    );
    assert!(
        played.datagrams > 30.0,
        "the page's inputs came as datagrams ({} received)",
        played.datagrams
    );
    site.assert_clean_console();
    site.stop().await;
}

/// A TCP relay from a port of its own to `to` (no UDP: a datagram session through it cannot
/// come up).
async fn relay(to: std::net::SocketAddr) -> (u16, JoinHandle<()>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let port = listener.local_addr().expect("addr").port();
    let task = tokio::spawn(async move {
        let mut links = tokio::task::JoinSet::new();
        while let Ok((mut inbound, _)) = listener.accept().await {
            links.spawn(async move {
                if let Ok(mut outbound) = TcpStream::connect(to).await {
                    let _ = copy_bidirectional(&mut inbound, &mut outbound).await;
                }
            });
        }
    });
    (port, task)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn without_a_datagram_path_the_page_plays_a_free_for_all_room_on_the_websocket() {
    let Some(mut site) = Site::start(true).await else {
        return;
    };
    let (port, relay) = relay(site.server.addr()).await;
    let played = play_room(
        &mut site,
        &format!("/?server=127.0.0.1%3A{port}"),
        "battle-page-tcp",
    )
    .await;
    assert!(
        played.paths.iter().all(|p| p == "websocket"),
        "the page's inputs stayed on the WebSocket: {:?}",
        played.paths
    );
    assert_eq!(played.datagrams, 0.0, "no datagram reached the server");
    // The browser logs the datagram session it could not open through the relay.
    site.assert_clean_console_but(&["/datagrams/"]);
    relay.abort();
    site.stop().await;
}
