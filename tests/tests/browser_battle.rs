//! End-to-end in a real browser, a room of several seats: the page joins a free-for-all room by
//! its code, headless battle clients fill the other seats through the real server, and they
//! play it out. The page's inputs go as battle datagrams over WebTransport (the headless
//! players keep theirs on the WebSocket, so every datagram the server takes is the page's);
//! the page ends on the same confirmed state as the server's verified replay, with no desync.
//! A screenshot of the page mid-match is kept as `target/browser-shots/battle-page-udp.png`.
//!
//! Needs what tests/tests/browser.rs needs (skips when missing: `sevenbag_tests::needs`).

use std::time::{Duration, Instant};

use serde_json::Value;
use sevenbag_tests::ffa;
use sevenbag_tests::page::{FIRST_SCREEN_LIMIT, STEP_LIMIT, Site, screen};
use tokio::task::block_in_place;

/// Longest the whole match may take (the page's seat tops out soon; the others play on).
const MATCH_LIMIT: Duration = Duration::from_secs(150);
/// The menu's entries up from Practice to Join room (as tests/tests/browser_play.rs).
const UP_TO_JOIN_ROOM: usize = 3;

fn stage(s: &Value) -> &str {
    s["stage"].as_str().unwrap_or_default()
}

/// Opens the page and waits on the menu (naming the player on a first start).
fn menu(site: &mut Site) {
    site.open("/");
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

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_page_plays_a_free_for_all_room_with_its_inputs_as_battle_datagrams() {
    let Some(mut site) = Site::start(true).await else {
        return;
    };
    let url = site.server.url();
    // Two headless players on the WebSocket: seats 0 and 1 of three.
    let (mut players, code) = ffa::seated_on(&url, ffa::options(3), 2, |_| false).await;
    menu(&mut site);
    let s = join_by_code(&mut site, &code);
    assert_eq!(s["seat"].as_u64(), Some(2), "the page took the third seat: {s}");
    assert_eq!(s["code"].as_str(), Some(code.as_str()));
    // The page's first row is Ready.
    site.keys(&["Enter"]);
    ffa::all_ready(&mut players);
    let headless = tokio::spawn(ffa::play_all(players, false));

    let start = Instant::now();
    let mut shot = false;
    let mut paths = Vec::new();
    let state = loop {
        site.keys(&["Space"]);
        let s = site.state();
        assert!(stage(&s) != "failed", "the page failed mid-match: {s}");
        if s["phase"] == "playing" {
            paths.push(s["path"].as_str().unwrap_or_default().to_owned());
            if !shot && paths.len() >= 5 {
                site.keep_screenshot("battle-page-udp");
                shot = true;
            }
        }
        if s["result"].is_object() {
            break s;
        }
        assert!(start.elapsed() < MATCH_LIMIT, "the match did not end: {s}");
    };
    assert!(shot, "the page was seen playing: {state}");
    assert!(
        paths.iter().all(|p| p == "datagrams"),
        "the page's inputs were on datagrams all match: {paths:?}"
    );
    let mut players = headless.await.expect("headless players");
    let (replay_hash, replay) = ffa::verified_replay(&mut players[0]).await;
    assert_eq!(replay.names.len(), 3, "a three-seat replay");
    for p in &players {
        assert_eq!(ffa::final_hash(p), replay_hash, "a headless player agrees");
    }
    let want = format!("{replay_hash:016x}");
    let end = site.wait_state(STEP_LIMIT, "the page's confirmed match at its end", |s| {
        s["hash"].as_str() == Some(want.as_str())
    });
    assert_eq!(end["desyncs"].as_u64(), Some(0), "no desync: {end}");
    assert_eq!(end["phase"], "match_over", "{end}");
    let pieces = end["pieces"].as_array().cloned().unwrap_or_default();
    assert_eq!(pieces.len(), 3, "three boards: {end}");

    let (_, body) = sevenbag_tests::http::get(site.server.addr(), "/metrics")
        .await
        .expect("metrics");
    let metrics = String::from_utf8_lossy(&body);
    let received = metrics
        .lines()
        .find(|l| l.starts_with("sevenbag_datagrams_received_total"))
        .and_then(|l| l.rsplit(' ').next())
        .and_then(|v| v.parse::<f64>().ok())
        .unwrap_or(0.0);
    assert!(
        received > 30.0,
        "the page's inputs came as datagrams ({received} received)\n{metrics}"
    );
    eprintln!(
        "browser battle over: {} ({received} datagrams from the page, paths seen {})",
        end["result"],
        paths.len()
    );
    site.assert_clean_console();
    site.stop().await;
}
