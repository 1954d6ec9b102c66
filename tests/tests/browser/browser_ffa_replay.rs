//! End-to-end in a real browser, a free-for-all's replay: eight headless players play a room of
//! eight seats to its end through the real server, which keeps its replay (format version 2),
//! and the page opened at `/replay/ID` plays it in the free-for-all playback (every board), as
//! it plays a two-seat one in the versus view (tests/tests/browser/browser_parity.rs), and keeps it in
//! its replay folder; G there opens the replay's statistics screen, and Esc goes back to the
//! playback; then on a phone held upright, by taps alone, +5 s to the end and the Stats button
//! open the same screen. Screenshots are kept as `target/browser-shots/ffa-replay-page.png`,
//! `ffa-replay-stats-page.png`, `ffa-replay-end-phone.png` and `ffa-replay-stats-phone.png`.
//!
//! Needs what tests/tests/browser/browser.rs needs (skips when missing: `sevenbag_tests::needs`).

use std::time::{Duration, Instant};

use serde_json::Value;
use sevenbag_protocol::EndReason;
use sevenbag_tests::ffa::{all_started, options, play_all, seated};
use sevenbag_tests::page::{FIRST_SCREEN_LIMIT, STEP_LIMIT, Site, screen, tap_target};
use tokio::task::block_in_place;

/// The page's replay folder.
const REPLAYS: &str = "/sevenbag-v1/data/sevenbag/replays/";

/// Opens `path`, naming the player `name` on a first start; returns the first screen past the
/// link's loading screen and the welcome.
fn open_named(site: &mut Site, path: &str, name: &str) -> Value {
    site.open(path);
    let s = site.wait_state(FIRST_SCREEN_LIMIT, "the first screen", |s| {
        !matches!(screen(s), "" | "none" | "link")
    });
    if screen(&s) != "welcome" {
        return s;
    }
    block_in_place(|| site.browser.type_text(name)).expect("type a name");
    site.keys(&["Enter"]);
    site.wait_state(STEP_LIMIT, "past the welcome", |s| {
        !matches!(screen(s), "welcome" | "link")
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_replay_link_plays_an_eight_seat_replay_the_server_wrote() {
    let Some(mut site) = Site::start(true).await else {
        return;
    };
    let (mut players, _code) = seated(&site.server.url(), options(8), 8).await;
    all_started(&mut players).await;
    let players = play_all(players, true).await;
    let outcome = players[0].outcome().cloned().expect("a result");
    assert_eq!(outcome.reason, EndReason::TopOut);
    let id = outcome.replay.clone().expect("the server kept a replay");
    let path = site.server.replay_dir().join(format!("{id}.sbrp"));
    let start = Instant::now();
    while !path.exists() {
        assert!(start.elapsed() < STEP_LIMIT, "no replay file {id}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let bytes = std::fs::read(&path).expect("read the replay");
    let written = sevenbag_protocol::replay_file::open(&bytes).expect("the server's replay opens");
    assert_eq!(
        (written.version, written.seats()),
        (2, 8),
        "an eight-seat v2 file"
    );

    open_named(&mut site, &format!("/replay/{id}"), "viewer");
    let s = site.wait_state(STEP_LIMIT, "the replay opened", |s| {
        matches!(screen(s), "replay-battle" | "play" | "message")
    });
    assert_eq!(
        screen(&s),
        "replay-battle",
        "the free-for-all playback, not a message: {s}"
    );
    site.keep_screenshot("ffa-replay-page");
    // G opens the replay's statistics: every seat's totals and the chart.
    site.keys(&["KeyG"]);
    site.wait_state(STEP_LIMIT, "the statistics screen", |s| {
        screen(s) == "match-stats"
    });
    site.keep_screenshot("ffa-replay-stats-page");
    site.keys(&["Escape"]);
    site.wait_state(STEP_LIMIT, "back to the playback", |s| {
        screen(s) == "replay-battle"
    });
    let kept = site.eval(&format!("window.sevenbag.storage.files.list('{REPLAYS}')"));
    assert_eq!(kept, serde_json::json!([format!("{REPLAYS}{id}.sbrp")]));
    // The viewer's connection ends once the replay is fetched (as in browser_parity.rs).
    site.assert_clean_console_but(&["WebSocket", "/datagrams/", "ERR_METHOD_NOT_SUPPORTED"]);

    // On a phone held upright, by taps alone: +5 s to the end, then the Stats button.
    block_in_place(|| site.browser.as_phone()).expect("phone profile");
    open_named(&mut site, &format!("/replay/{id}"), "viewer");
    site.wait_state(STEP_LIMIT, "the replay opened on the phone", |s| {
        screen(s) == "replay-battle"
    });
    let start = Instant::now();
    loop {
        let s = site.state();
        if tap_target(&s, "key:Stats").is_some() {
            break;
        }
        assert!(start.elapsed() < STEP_LIMIT, "the replay never ended: {s}");
        // The bar goes once the replay ends, so tap it only while it is there.
        if let Some((x, y)) = tap_target(&s, "key:+5 s") {
            block_in_place(|| site.browser.tap(x, y)).expect("tap +5 s");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    site.keep_screenshot("ffa-replay-end-phone");
    site.tap_label("key:Stats");
    site.wait_state(STEP_LIMIT, "the statistics screen on the phone", |s| {
        screen(s) == "match-stats"
    });
    site.keep_screenshot("ffa-replay-stats-phone");
    site.stop().await;
}
