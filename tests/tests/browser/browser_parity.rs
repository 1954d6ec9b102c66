//! End-to-end in a real browser, the page keeping what the desktop game keeps and opening what
//! links name: a page registers for ranked, keeps its key across a reload, plays a ranked match
//! against a headless client and shows on the leaderboard, and its recovery code gives the same
//! player to another key (what the desktop game's import does); `/replay/ID` plays a server
//! replay to its end (seeking too) and keeps it; `/room/CODE` joins a headless client's room;
//! codes that name nothing get readable screens; and stored entries that are garbage, too large
//! or another version's are named and left alone while everything valid is kept.
//!
//! Needs what tests/tests/browser/browser.rs needs. The tests take turns (`sevenbag_tests::page`).

use std::time::{Duration, Instant};

use serde_json::Value;
use sevenbag_netplay::BattleClient;
use sevenbag_protocol::{ClientMessage, RoomOptions, ServerMessage};
use sevenbag_server::Config;
use sevenbag_tests::http::get_json;
use sevenbag_tests::page::{FIRST_SCREEN_LIMIT, STEP_LIMIT, Site, screen};
use sevenbag_tests::players::{connect, match_config, play, room};
use sevenbag_tests::{RawClient, player_key, temp_dir};
use tokio::task::block_in_place;

/// Longest a whole match may take.
const MATCH_LIMIT: Duration = Duration::from_secs(150);
/// The page's player key and recovery code (its files: `/sevenbag-v1/config/...`).
const KEY_PATH: &str = "/sevenbag-v1/config/sevenbag/player.key";
const RECOVERY_PATH: &str = "/sevenbag-v1/config/sevenbag/player.recovery";
/// The page's replay folder.
const REPLAYS: &str = "/sevenbag-v1/data/sevenbag/replays/";
/// The menu's entries above Practice, where it opens: Quick match, Ranked, ...
const UP_TO_RANKED: usize = 5;

fn stage(s: &Value) -> &str {
    s["stage"].as_str().unwrap_or_default()
}

/// A page file as text (`null` when there is none).
fn read_file(site: &mut Site, path: &str) -> Option<String> {
    let v = site.eval(&format!(
        "(() => {{ const b = window.sevenbag.storage.files.read('{path}'); \
         return b ? new TextDecoder().decode(b) : null; }})()"
    ));
    v.as_str().map(str::to_owned)
}

/// Opens `path`; on a first start names the player `name` (typed, Enter) and waits for the
/// screen the path leads to (the menu for `/`).
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

/// From the menu: `ups` entries up, Enter, then Enter until the online screen is up.
fn open_online(site: &mut Site, ups: usize) -> Value {
    let mut keys = vec!["ArrowUp"; ups];
    keys.push("Enter");
    site.keys(&keys);
    site.wait_state(STEP_LIMIT, "the online form", |s| screen(s) == "lobby");
    let start = Instant::now();
    loop {
        site.keys(&["Enter"]);
        let s = site.state();
        if screen(&s) == "online" {
            return s;
        }
        assert!(
            start.elapsed() < STEP_LIMIT,
            "the form never connected: {s}"
        );
    }
}

/// Plays the page's side (hard drops) until the server's verdict.
fn play_out(site: &mut Site) -> Value {
    let start = Instant::now();
    loop {
        site.keys(&["Space"]);
        let s = site.state();
        // `outcome` from a two-seat room's controller, `result` from the general room's.
        if s["outcome"].is_object() || s["result"].is_object() {
            return s;
        }
        assert!(stage(&s) != "failed", "the page failed mid-match: {s}");
        assert!(start.elapsed() < MATCH_LIMIT, "the match did not end: {s}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_page_plays_ranked_keeps_its_identity_across_a_reload_and_its_code_moves_it() {
    let db = temp_dir("page-ranked");
    let config = Config {
        db: Some(db.path().join("sevenbag.db")),
        ranked_first_to: 1,
        ..match_config(Duration::from_millis(500))
    };
    let Some(mut site) = Site::start_with(true, config).await else {
        return;
    };
    open_named(&mut site, "/", "webby");
    // Ranked: the page makes a key, registers, and queues.
    open_online(&mut site, UP_TO_RANKED);
    site.wait_state(STEP_LIMIT, "queued for ranked", |s| stage(s) == "waiting");
    let key = read_file(&mut site, KEY_PATH).expect("the page keeps a player key");
    assert_eq!(key.trim().len(), 64, "{key}");
    site.wait_true(
        STEP_LIMIT,
        "the recovery code kept",
        &format!("!!window.sevenbag.storage.files.read('{RECOVERY_PATH}')"),
    );
    let code = read_file(&mut site, RECOVERY_PATH)
        .expect("code")
        .trim()
        .to_owned();
    site.keys(&["Escape"]);
    site.eval("window.sevenbag.storage.files.flushed().then(() => true)");
    // Reloaded, the page has the same key.
    block_in_place(|| site.browser.reload()).expect("reload");
    site.wait_plugin();
    site.wait_state(FIRST_SCREEN_LIMIT, "the menu again", |s| {
        screen(s) == "menu"
    });
    assert_eq!(
        read_file(&mut site, KEY_PATH).as_deref(),
        Some(key.as_str())
    );
    // A ranked match against a headless player who registered before.
    let mut raw = RawClient::hello(site.server.addr(), "native")
        .await
        .expect("hello");
    raw.send(&ClientMessage::Register {
        key: player_key(7),
        name: "native".into(),
    })
    .await
    .expect("register");
    raw.profile_reply(STEP_LIMIT).await.expect("registered");
    drop(raw);
    open_online(&mut site, UP_TO_RANKED);
    let mut native = BattleClient::connect(&site.server.url(), "native")
        .await
        .expect("native connects");
    native
        .ranked_match(player_key(7), STEP_LIMIT)
        .await
        .expect("the native player is matched with the page");
    let task = tokio::spawn(async move {
        let mut keys = sevenbag_tests::ffa::random_keys(41, false);
        native.play(&mut keys, MATCH_LIMIT).await
    });
    let over = play_out(&mut site);
    task.await
        .expect("native task")
        .expect("the native player's match ended");
    eprintln!("ranked in the page: {}", over["result"]);
    // Both are on the leaderboard, the page's player with one game.
    let start = Instant::now();
    let board = loop {
        let (status, board) = get_json(site.server.addr(), "/api/leaderboard")
            .await
            .expect("leaderboard");
        assert_eq!(status, 200, "{board}");
        let found = board
            .as_array()
            .and_then(|rows| rows.iter().find(|r| r["name"] == "webby").cloned());
        if let Some(row) = found {
            break row;
        }
        assert!(
            start.elapsed() < STEP_LIMIT,
            "webby not on the leaderboard: {board}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert_eq!(board["games"], 1, "{board}");
    assert!(board["rating"].as_f64().is_some(), "{board}");
    // The recovery code moves the identity to another key: the desktop game's import.
    let mut desktop = RawClient::hello(site.server.addr(), "desktop")
        .await
        .expect("hello");
    desktop
        .send(&ClientMessage::Recover {
            code: code.clone(),
            key: player_key(9),
        })
        .await
        .expect("recover");
    let profile = desktop
        .recv_until(STEP_LIMIT, |m| match m {
            ServerMessage::Registered { profile, .. } => Some(profile.clone()),
            _ => None,
        })
        .await
        .expect("the server moves the identity");
    assert_eq!(profile.name, "webby");
    assert_eq!(profile.games, 1);
    // The browser logs a socket it saw closed ("WebSocket ...") and a datagram session whose
    // connection ended before it opened ("Failed to establish a connection to
    // https://.../datagrams/...": the server forgets a ticket with its connection).
    site.assert_clean_console_but(&["WebSocket", "/datagrams/"]);
    site.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_replay_link_plays_the_servers_replay_to_its_end_and_keeps_it() {
    let Some(mut site) = Site::start(true).await else {
        return;
    };
    // A first-to-1 match between two headless players, kept by the server.
    let options = RoomOptions {
        first_to: 1,
        ..RoomOptions::default()
    };
    let (mut a, mut b, _, _) = room(&site.server.url(), options, false).await;
    a.ready().expect("ready");
    b.ready().expect("ready");
    let (ta, tb) = (
        play(a, Some(51), (1, 3), MATCH_LIMIT),
        play(b, Some(52), (2, 4), MATCH_LIMIT),
    );
    let (_, ra) = ta.await.expect("task");
    let (_, rb) = tb.await.expect("task");
    ra.expect("a's match");
    rb.expect("b's match");
    let start = Instant::now();
    let id = loop {
        let found = std::fs::read_dir(site.server.replay_dir())
            .expect("replay dir")
            .flatten()
            .map(|e| e.path())
            .find(|p| p.extension().is_some_and(|e| e == "sbrp"));
        if let Some(p) = found {
            break p.file_stem().expect("stem").to_string_lossy().into_owned();
        }
        assert!(start.elapsed() < STEP_LIMIT, "no replay saved");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    open_named(&mut site, &format!("/replay/{id}"), "viewer");
    site.wait_state(STEP_LIMIT, "the replay playing", |s| {
        screen(s) == "play" && s["frame"].as_u64().unwrap_or(0) > 0
    });
    let end = site.wait_state(MATCH_LIMIT, "the end of the replay", |s| {
        s["phase"] == "match_over"
    });
    let last = end["frame"].as_u64().unwrap_or(0);
    // ← seeks 5 s back: the match is on again, earlier.
    site.keys(&["ArrowLeft"]);
    let back = site.wait_state(STEP_LIMIT, "a seek back", |s| {
        s["frame"].as_u64().unwrap_or(u64::MAX) < last && s["phase"] != "match_over"
    });
    eprintln!(
        "replay {id}: ended at frame {last}, ← went back to {}",
        back["frame"]
    );
    let kept = site.eval(&format!("window.sevenbag.storage.files.list('{REPLAYS}')"));
    assert_eq!(kept, serde_json::json!([format!("{REPLAYS}{id}.sbrp")]));
    // The viewer's connection ends once the replay is fetched; a datagram session it was still
    // opening fails with it (Chromium logs the datagrams URL, or ERR_METHOD_NOT_SUPPORTED when
    // the session's request reaches a connection already closing).
    site.assert_clean_console_but(&["WebSocket", "/datagrams/", "ERR_METHOD_NOT_SUPPORTED"]);
    site.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_room_link_joins_a_headless_clients_room() {
    let Some(mut site) = Site::start(true).await else {
        return;
    };
    let mut native = connect(&site.server.url(), "native").await;
    let code = native
        .create_room(RoomOptions::default())
        .await
        .expect("room");
    open_named(
        &mut site,
        &format!("/room/{}", code.to_lowercase()),
        "linked",
    );
    let s = site.wait_state(STEP_LIMIT, "the page in the room", |s| {
        stage(s) == "in_room" && s["seat"].is_u64()
    });
    assert_eq!(s["code"].as_str(), Some(code.as_str()), "{s}");
    assert_ne!(s["seat"].as_u64(), native.seat().map(|s| s.index() as u64));
    site.assert_clean_console();
    site.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn codes_that_name_nothing_get_readable_screens() {
    let Some(mut site) = Site::start(true).await else {
        return;
    };
    // A room code no room has: the native game's words.
    open_named(&mut site, "/room/ACD34", "nobody");
    let s = site.wait_state(STEP_LIMIT, "the failure", |s| stage(s) == "failed");
    assert_eq!(
        s["message"].as_str(),
        Some("No room has that code. Check it and try again.")
    );
    site.keep_screenshot("link-unknown-room");
    // A replay the server does not keep.
    site.open("/replay/no_such_replay");
    let s = site.wait_state(STEP_LIMIT, "the message", |s| screen(s) == "message");
    let text = s["message"].as_str().unwrap_or_default();
    assert!(
        text.starts_with("This replay cannot be played: Replay no_such_replay:"),
        "{text}"
    );
    site.keep_screenshot("link-unknown-replay");
    // Enter leaves for the menu.
    site.keys(&["Enter"]);
    site.wait_state(STEP_LIMIT, "the menu", |s| screen(s) == "menu");
    // The browser logs a socket it saw closed ("WebSocket ...") and a datagram session whose
    // connection ended before it opened ("Failed to establish a connection to
    // https://.../datagrams/...": the server forgets a ticket with its connection).
    site.assert_clean_console_but(&["WebSocket", "/datagrams/"]);
    site.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn stored_garbage_is_named_and_left_alone_and_nothing_valid_is_lost() {
    let Some(mut site) = Site::start(true).await else {
        return;
    };
    // A server replay's bytes, to keep as a valid file.
    let options = RoomOptions {
        first_to: 1,
        ..RoomOptions::default()
    };
    let (mut a, mut b, _, _) = room(&site.server.url(), options, false).await;
    a.ready().expect("ready");
    b.ready().expect("ready");
    let (ta, tb) = (
        play(a, Some(61), (1, 3), MATCH_LIMIT),
        play(b, Some(62), (2, 4), MATCH_LIMIT),
    );
    ta.await.expect("task").1.expect("match");
    tb.await.expect("task").1.expect("match");
    let start = Instant::now();
    let replay = loop {
        let found = std::fs::read_dir(site.server.replay_dir())
            .expect("replay dir")
            .flatten()
            .map(|e| e.path())
            .find(|p| p.extension().is_some_and(|e| e == "sbrp"));
        if let Some(p) = found {
            break std::fs::read(p).expect("replay bytes");
        }
        assert!(start.elapsed() < STEP_LIMIT, "no replay saved");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    // The page once, for its origin; then its storage is filled before the game reads it.
    site.open("/");
    let key = "ab".repeat(32);
    let bytes: Vec<String> = replay.iter().map(u8::to_string).collect();
    let filled = site.eval(&format!(
        "(async () => {{ \
           const db = await new Promise((ok, no) => {{ const r = indexedDB.open('sevenbag', 1); \
             r.onupgradeneeded = () => r.result.createObjectStore('files'); \
             r.onsuccess = () => ok(r.result); r.onerror = no; }}); \
           const put = (k, v) => new Promise((ok, no) => {{ const t = db.transaction('files', 'readwrite'); \
             t.objectStore('files').put(v, k); t.oncomplete = ok; t.onerror = no; }}); \
           const enc = new TextEncoder(); \
           await put('{KEY_PATH}', enc.encode('{key}\\n')); \
           await put('{REPLAYS}kept.sbrp', new Uint8Array([{}])); \
           await put('{REPLAYS}broken.sbrp', enc.encode('nonsense')); \
           await put('/sevenbag-v1/data/sevenbag/solo/not-bytes.sbso', 'a string'); \
           await put('/sevenbag-v1/data/sevenbag/solo/huge.sbso', new Uint8Array(64 * 1024 * 1024 + 1)); \
           await put('/sevenbag-v0/config/sevenbag/player.key', enc.encode('old')); \
           localStorage.setItem('sevenbag/config.toml', 'player_name = [not toml'); \
           db.close(); return true; }})()",
        bytes.join(",")
    ));
    assert_eq!(filled, true);
    block_in_place(|| site.browser.reload()).expect("reload");
    site.wait_plugin();
    let s = site.wait_state(FIRST_SCREEN_LIMIT, "the page started", |s| {
        matches!(screen(s), "menu" | "welcome") && s["skipped"].is_array()
    });
    let skipped: Vec<&str> = s["skipped"]
        .as_array()
        .expect("skipped")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    eprintln!("the page skipped: {skipped:#?}; notice: {}", s["notice"]);
    let named = |what: &str| skipped.iter().any(|k| k.starts_with(what));
    assert!(
        named("/sevenbag-v1/data/sevenbag/solo/not-bytes.sbso: holds string"),
        "{skipped:?}"
    );
    assert!(
        named("/sevenbag-v1/data/sevenbag/solo/huge.sbso: 67108865 bytes"),
        "{skipped:?}"
    );
    assert!(
        named("/sevenbag-v0/config/sevenbag/player.key: kept by another version"),
        "{skipped:?}"
    );
    assert_eq!(skipped.len(), 3, "{skipped:?}");
    let notice = s["notice"].as_str().unwrap_or_default();
    assert!(
        notice.contains("Skipped 3 stored entries")
            || notice.contains("Settings file could not be used"),
        "a notice names what was skipped: {notice}"
    );
    // Nothing valid lost, nothing skipped deleted; the bad settings kept aside.
    assert_eq!(
        read_file(&mut site, KEY_PATH).as_deref(),
        Some(format!("{key}\n").as_str())
    );
    let replays = site.eval(&format!("window.sevenbag.storage.files.list('{REPLAYS}')"));
    assert_eq!(
        replays,
        serde_json::json!([
            format!("{REPLAYS}broken.sbrp"),
            format!("{REPLAYS}kept.sbrp")
        ])
    );
    let still = site.eval(
        "(async () => { const db = await new Promise((ok, no) => { const r = indexedDB.open('sevenbag', 1); \
           r.onsuccess = () => ok(r.result); r.onerror = no; }); \
         const keys = await new Promise((ok, no) => { const q = db.transaction('files').objectStore('files').getAllKeys(); \
           q.onsuccess = () => ok(q.result); q.onerror = no; }); db.close(); return keys.length; })()",
    );
    assert_eq!(still, 6, "every stored entry is still there");
    assert_eq!(
        site.eval("localStorage.getItem('sevenbag/config.toml.bak')"),
        "player_name = [not toml"
    );
    // The replay list plays the valid file and names the broken one (six entries below
    // Practice: Local, Free-for-all, Solo, Challenge, Puzzles, Replays).
    let mut keys = vec!["ArrowDown"; 6];
    keys.push("Enter");
    site.keys(&["Escape"]);
    site.wait_state(STEP_LIMIT, "the menu", |s| screen(s) == "menu");
    site.keys(&keys);
    let list = site.wait_state(STEP_LIMIT, "the replay list", |s| screen(s) == "replay");
    let labels: Vec<String> = list["taps"]
        .as_array()
        .map(|t| {
            t.iter()
                .filter_map(|t| t["l"].as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    assert!(
        labels.iter().any(|l| l == "broken (cannot be played)"),
        "{labels:?}"
    );
    assert!(labels.iter().any(|l| l.contains(" vs ")), "{labels:?}");
    site.keep_screenshot("garbage-replay-list");
    // The page holds a player key, so it connects for friends' news and opens a datagram
    // session beside it; leaving the page mid-handshake can fail that session (Chromium logs
    // the datagrams URL, or ERR_METHOD_NOT_SUPPORTED), and the WebSocket carries on.
    site.assert_clean_console_but(&["WebSocket", "/datagrams/", "ERR_METHOD_NOT_SUPPORTED"]);
    site.stop().await;
}
