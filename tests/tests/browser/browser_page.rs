//! End-to-end in a real browser, the page's own side: what `client/web/sevenbag-*.js` gives the
//! game, checked in headless Chromium on the served build — a phone profile (390×844 CSS px,
//! device scale 3, touch) that neither zooms nor scrolls and types through the on-screen
//! keyboard's input, several fingers down at once, IndexedDB and localStorage as the game
//! keeps them, a `.sbrp` downloaded and opened again by the game (picker and drop: played and
//! kept, refusals named), links copied and shown in the address bar, gamepads, the readable
//! pages for bad links and for a server without the build (the page's pace is a benchmark,
//! `tests/benches/browser_pace.rs`).
//!
//! Screenshots a person should look at are kept in `target/browser-shots/`. Needs what
//! tests/tests/browser/browser.rs needs. The tests take turns on one lock (two software-rendered pages
//! at once on a 2-core machine would starve). `BENCH` lines are figures; no speed is asserted.

use std::time::{Duration, Instant};

use sevenbag_core::{Input, MatchHeader};
use sevenbag_protocol::EndReason;
use sevenbag_protocol::replay::{Replay, SeatInputs};
use sevenbag_tests::browser::{Finger, TouchKind};
use sevenbag_tests::page::{FIRST_SCREEN_LIMIT, STEP_LIMIT, Site, screen, tap_target};
use tokio::task::block_in_place;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_phone_gets_the_whole_screen_without_zoom_or_scroll_and_types_through_the_keyboard_input()
{
    let Some(mut site) = Site::start(true).await else {
        return;
    };
    block_in_place(|| site.browser.as_phone()).expect("phone profile");
    site.open("/");
    let first = site.wait_state(FIRST_SCREEN_LIMIT, "the first screen", |s| {
        matches!(screen(s), "welcome" | "menu")
    });

    // The page is the phone's width, at scale 1, as a touch screen, and the canvas takes
    // touches as its own (no scrolling, zooming, selecting or long-press menu).
    let facts = site.eval(
        "(() => { const c = getComputedStyle(document.getElementById('glcanvas')); \
         return [innerWidth, innerHeight, devicePixelRatio, visualViewport.scale, \
         c.touchAction, c.userSelect || c.webkitUserSelect, \
         window.sevenbag.device.touch(), document.getElementById('glcanvas').width]; })()",
    );
    assert_eq!(facts[0], 390, "{facts}");
    assert_eq!(facts[1], 844, "{facts}");
    // A device scale of 3, drawn at 2 device pixels per CSS pixel (the page's cap).
    assert_eq!(facts[2], 2, "{facts}");
    assert_eq!(facts[7], 780, "{facts}");
    assert_eq!(facts[3], 1, "{facts}");
    assert_eq!(facts[4], "none", "{facts}");
    assert_eq!(facts[5], "none", "{facts}");
    assert_eq!(facts[6], true, "{facts}");
    let shot = site.keep_screenshot("phone-first-screen");
    let shot = image::load_from_memory(&shot).expect("a PNG");
    assert_eq!(shot.width(), 390 * 3, "a device-scale-3 screenshot");

    // A tap and a swipe on the canvas move nothing and zoom nothing.
    block_in_place(|| site.browser.tap(195.0, 500.0)).expect("tap");
    let finger = |x, y| Finger { x, y, id: 1 };
    block_in_place(|| {
        site.browser
            .touch(TouchKind::Start, &[finger(200.0, 700.0)])?;
        site.browser
            .touch(TouchKind::Move, &[finger(200.0, 300.0)])?;
        site.browser.touch(TouchKind::End, &[])
    })
    .expect("swipe");
    let after = site.eval("[scrollX, scrollY, visualViewport.scale, visualViewport.offsetTop]");
    assert_eq!(after, serde_json::json!([0, 0, 1, 0]), "no scroll or zoom");

    // What is typed into the input reaches the game's own text field: on the first start
    // that is the welcome screen's name, which Enter saves. The game opened the keyboard on
    // the field by itself (a touch screen).
    if screen(&first) == "welcome" {
        site.wait_true(
            STEP_LIMIT,
            "the keyboard opened on the name",
            "window.sevenbag.keyboard.shown() && window.sevenbag.keyboard.active()",
        );
        block_in_place(|| site.browser.type_focused("Thumbs")).expect("type");
        // Autocorrect rewrites the word: the game gets backspaces and the new letters.
        site.eval(
            "(() => { const i = window.sevenbag.keyboard.input; i.value = 'Thumbz'; \
             i.dispatchEvent(new InputEvent('input', {inputType: 'insertReplacementText'})); })()",
        );
        block_in_place(|| site.browser.press_focused("Enter")).expect("Enter");
        site.wait_state(STEP_LIMIT, "the menu after the name", |s| {
            screen(s) == "menu"
        });
        site.wait_true(
            STEP_LIMIT,
            "the keyboard put away",
            "!window.sevenbag.keyboard.active()",
        );
        // The settings are written after the frame that saved the name.
        site.wait_true(
            STEP_LIMIT,
            "the name typed through the keyboard's input saved",
            "(localStorage.getItem('sevenbag/config.toml') || '').includes('\"Thumbz\"')",
        );
    }

    // A tap inside a text zone focuses the keyboard's input within the tap; where the game
    // opens no field (the menu has none) the focus goes back to the canvas.
    site.eval("window.sevenbag.keyboard.zones([[0, 0, 780, 1688]])");
    block_in_place(|| site.browser.tap(195.0, 600.0)).expect("tap a zone");
    assert_eq!(
        site.eval("document.activeElement.id"),
        "sevenbag-text",
        "the tap focused the keyboard's input"
    );
    site.wait_true(
        STEP_LIMIT,
        "the focus back on the canvas",
        "document.activeElement.id === 'glcanvas'",
    );
    site.eval("window.sevenbag.keyboard.zones([])");
    site.keep_screenshot("phone-menu");
    site.assert_clean_console();
    site.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn several_fingers_down_at_once_reach_the_canvas_as_several_touches() {
    let Some(mut site) = Site::start(true).await else {
        return;
    };
    block_in_place(|| site.browser.as_phone()).expect("phone profile");
    site.open("/");
    site.eval(
        "(() => { window.most_touches = 0; window.touch_events = 0; \
         document.getElementById('glcanvas').addEventListener('touchstart', e => { \
         window.touch_events++; \
         window.most_touches = Math.max(window.most_touches, e.touches.length); }, true); })()",
    );
    let left = Finger {
        x: 60.0,
        y: 760.0,
        id: 1,
    };
    let rotate = Finger {
        x: 330.0,
        y: 760.0,
        id: 2,
    };
    block_in_place(|| {
        site.browser.touch(TouchKind::Start, &[left])?;
        site.browser.touch(TouchKind::Start, &[left, rotate])?;
        site.browser.touch(TouchKind::End, &[left])?;
        site.browser.touch(TouchKind::End, &[])
    })
    .expect("two fingers");
    assert_eq!(
        site.eval("[window.touch_events, window.most_touches]"),
        serde_json::json!([2, 2])
    );
    site.assert_clean_console();
    site.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn indexeddb_keeps_bytes_across_a_reload_and_names_entries_that_are_not_bytes_or_too_large() {
    let Some(mut site) = Site::start(true).await else {
        return;
    };
    site.open("/");
    // 2 MB of bytes in, the same bytes out; listed by prefix.
    let stored = site.eval(
        "(async () => { const s = window.sevenbag.storage.idb; \
         const b = new Uint8Array(2 * 1024 * 1024); for (let i = 0; i < b.length; i++) b[i] = i * 7; \
         await s.put('sevenbag/v1/replays/a', b); await s.put('sevenbag/v1/replays/b', new Uint8Array([1])); \
         await s.put('other/x', new Uint8Array([2])); \
         const back = await s.get('sevenbag/v1/replays/a'); \
         let same = back.length === b.length; for (let i = 0; same && i < b.length; i++) same = back[i] === b[i]; \
         return [same, await s.keys('sevenbag/v1/replays/')]; })()",
    );
    assert_eq!(
        stored,
        serde_json::json!([true, ["sevenbag/v1/replays/a", "sevenbag/v1/replays/b"]])
    );
    block_in_place(|| site.browser.reload()).expect("reload");
    site.wait_true(
        STEP_LIMIT,
        "the page's plugin after the reload",
        "!!(window.sevenbag && window.sevenbag.storage && window.sevenbag.io)",
    );
    // Still there after the reload; removed when asked; garbage put there by something else
    // (a string, an object) and a value over the reader's limit are refused, named.
    let after = site.eval(
        "(async () => { const s = window.sevenbag.storage.idb; const none = window.sevenbag.io.request.none; \
         const a = await s.get('sevenbag/v1/replays/a'); \
         await s.remove('sevenbag/v1/replays/b'); \
         const gone = (await s.get('sevenbag/v1/replays/b')) === none; \
         const db = await new Promise((ok, no) => { const r = indexedDB.open('sevenbag', 1); r.onsuccess = () => ok(r.result); r.onerror = no; }); \
         await new Promise((ok, no) => { const t = db.transaction('files', 'readwrite'); \
           t.objectStore('files').put('not bytes', 'sevenbag/v1/garbage'); \
           t.objectStore('files').put({x: 1}, 'sevenbag/v1/object'); t.oncomplete = ok; t.onerror = no; }); \
         const why = async (k, max) => { try { await s.get(k, max); return 'read'; } catch (e) { return e.message; } }; \
         return [a.length, gone, await why('sevenbag/v1/garbage'), await why('sevenbag/v1/object'), \
           await why('sevenbag/v1/replays/a', 1000)]; })()",
    );
    assert_eq!(after[0], 2 * 1024 * 1024, "{after}");
    assert_eq!(after[1], true, "{after}");
    assert_eq!(
        after[2], "sevenbag/v1/garbage holds string, not bytes",
        "{after}"
    );
    assert_eq!(
        after[3], "sevenbag/v1/object holds object, not bytes",
        "{after}"
    );
    assert_eq!(
        after[4], "sevenbag/v1/replays/a holds 2097152 bytes, over the 1000-byte limit",
        "{after}"
    );
    // localStorage: listed by prefix, removed, and a value over the limit refused.
    let local = site.eval(
        "(() => { const l = window.sevenbag.storage.local; \
         l.set('sevenbag/v1/bests', 'x'); l.set('sevenbag/v1/runs', 'y'); \
         const keys = l.keys('sevenbag/v1/'); l.remove('sevenbag/v1/runs'); \
         return [keys, l.keys('sevenbag/v1/'), l.set('sevenbag/v1/huge', 'z'.repeat(5 * 1024 * 1024))]; })()",
    );
    assert_eq!(
        local,
        serde_json::json!([
            ["sevenbag/v1/bests", "sevenbag/v1/runs"],
            ["sevenbag/v1/bests"],
            false
        ])
    );
    // Requests as the game polls them: pending, then done with a result, then freed.
    let polled = site.eval(
        "(async () => { const io = window.sevenbag.io; \
         const id = io.request(() => window.sevenbag.storage.idb.get('sevenbag/v1/replays/a', 10)); \
         const first = window.sevenbag.request_state(id); \
         while (window.sevenbag.request_state(id) === 0) await new Promise(r => setTimeout(r, 10)); \
         const text = new TextDecoder().decode(window.sevenbag.request_result(id)); \
         const missing = io.request(() => window.sevenbag.storage.idb.get('sevenbag/v1/none')); \
         while (window.sevenbag.request_state(missing) === 0) await new Promise(r => setTimeout(r, 10)); \
         return [first, window.sevenbag.request_state(id), text, window.sevenbag.request_state(missing)]; })()",
    );
    assert_eq!(
        polled,
        serde_json::json!([
            0,
            -1,
            "sevenbag/v1/replays/a holds 2097152 bytes, over the 10-byte limit",
            2
        ])
    );
    site.assert_clean_console();
    site.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_replay_file_is_downloaded_and_opened_again_through_the_picker_and_a_drop() {
    let Some(mut site) = Site::start(true).await else {
        return;
    };
    site.open("/");
    site.wait_state(FIRST_SCREEN_LIMIT, "the first screen", |s| {
        !matches!(screen(s), "" | "none")
    });
    let replay = small_replay();
    let bytes = replay.encode().expect("encode");
    // The game's own limit is the replay format's; a small one makes a too-large file cheap.
    site.eval("window.sevenbag.files.accept('.sbrp', 4096)");
    site.eval(&format!(
        "window.sevenbag.files.download('match 1.sbrp', new Uint8Array({bytes:?}), \
         'application/octet-stream')"
    ));
    let start = Instant::now();
    let download = loop {
        let list = block_in_place(|| site.browser.downloads()).expect("downloads");
        if let Some(d) = list.into_iter().find(|d| d.path.is_some()) {
            break d;
        }
        assert!(start.elapsed() < STEP_LIMIT, "no download");
        std::thread::sleep(Duration::from_millis(100));
    };
    assert_eq!(download.name, "match 1.sbrp");
    let path = download.path.expect("saved");
    assert_eq!(std::fs::read(&path).expect("read"), bytes);

    // The picker: the downloaded file, a file over the limit and a file of another kind. The
    // game takes one a frame: the replay opens, the other two are refused by name.
    let dir = sevenbag_tests::temp_dir("picked");
    let big = dir.path().join("big.sbrp");
    std::fs::write(&big, vec![0u8; 5000]).expect("big");
    let text = dir.path().join("notes.txt");
    std::fs::write(&text, "hello").expect("txt");
    block_in_place(|| {
        site.browser
            .choose_files(&[path.as_path(), text.as_path(), big.as_path()])
    })
    .expect("choose");
    assert_eq!(site.eval("window.sevenbag.files.pick()"), true);
    let shown = site.wait_state(STEP_LIMIT, "the picked replay playing", |s| {
        screen(s) == "play"
            && s["notice"]
                .as_str()
                .is_some_and(|n| n.starts_with("big.sbrp"))
    });
    assert_eq!(
        shown["notice"],
        "big.sbrp was not opened: it is 5000 bytes; the most is 4096"
    );
    let kept = site.eval(&format!("window.sevenbag.storage.files.list('{REPLAYS}')"));
    assert_eq!(
        kept,
        serde_json::json!([format!("{REPLAYS}download-1-match_1.sbrp")])
    );

    // A drop on the page: the same queue, and gl.js's own drop handling never sees it.
    site.eval(&format!(
        "(() => {{ const t = new DataTransfer(); \
         t.items.add(new File([new Uint8Array({bytes:?})], 'dropped.SBRP')); \
         document.getElementById('glcanvas').dispatchEvent(new DragEvent('drop', \
           {{dataTransfer: t, bubbles: true, cancelable: true}})); }})()"
    ));
    site.wait_state(STEP_LIMIT, "the dropped replay opened", |s| {
        s["notice"] == "Opened dropped.SBRP"
    });
    let kept = site.eval(&format!("window.sevenbag.storage.files.list('{REPLAYS}')"));
    assert_eq!(
        kept,
        serde_json::json!([
            format!("{REPLAYS}download-1-match_1.sbrp"),
            format!("{REPLAYS}dropped.sbrp")
        ])
    );
    site.assert_clean_console();
    site.stop().await;
}

/// The page's replay folder.
const REPLAYS: &str = "/sevenbag-v1/data/sevenbag/replays/";

/// A short recorded match (both seats idle for 2 s), as a `.sbrp` the game plays.
fn small_replay() -> Replay {
    let mut header = MatchHeader::versus(7);
    header.rules.first_to = 1;
    let idle = SeatInputs::from_masks(&[Input::NONE; 120]);
    Replay::play_out(
        header,
        &[idle.clone(), idle],
        ["ann".into(), "bob".into()],
        EndReason::TopOut,
        1_700_000_000,
    )
    .expect("a replay")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn links_are_copied_to_the_clipboard_and_shown_in_the_address_bar() {
    let Some(mut site) = Site::start(true).await else {
        return;
    };
    site.open("/room/ACD34");
    block_in_place(|| site.browser.grant(&["clipboard-read", "clipboard-write"])).expect("grant");
    let link = format!("{}/replay/20261127_ACD34", site.base);
    let copied = site.eval(&format!(
        "(async () => {{ await window.sevenbag.links.copy('{link}'); \
         return await navigator.clipboard.readText(); }})()"
    ));
    assert_eq!(copied, link.as_str());
    // The older copy command, as on a plain-http LAN page without the Clipboard API.
    let by_command = site.eval(
        "(async () => { const keep = navigator.clipboard.writeText; \
         navigator.clipboard.writeText = () => Promise.reject(new Error('no')); \
         try { await window.sevenbag.links.copy('by command'); } finally { navigator.clipboard.writeText = keep; } \
         return await navigator.clipboard.readText(); })()",
    );
    assert_eq!(by_command, "by command");
    let shown = site.eval(
        "(() => { const l = window.sevenbag.links; \
         return [l.replace_path('/watch/ACD34'), location.pathname, \
         l.replace_path('https://elsewhere.example/'), l.replace_path('//elsewhere.example/x'), \
         location.pathname]; })()",
    );
    assert_eq!(
        shown,
        serde_json::json!([true, "/watch/ACD34", false, false, "/watch/ACD34"])
    );
    site.assert_clean_console();
    site.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn gamepads_are_read_through_the_gamepad_api() {
    let Some(mut site) = Site::start(true).await else {
        return;
    };
    site.open("/");
    // No real pad in a headless browser: the API's answer is stood in for.
    let read = site.eval(
        "(() => { const b = (p) => ({pressed: p, value: p ? 1 : 0}); \
         const buttons = Array.from({length: 17}, (_, i) => b(i === 0 || i === 14)); \
         navigator.getGamepads = () => [null, {index: 1, connected: true, mapping: 'standard', \
           id: 'Test Pad (STANDARD GAMEPAD)', buttons, axes: [-1, 0.5, 0, 2]}]; \
         const d = window.sevenbag.device.gamepads(); const v = new DataView(d.buffer); \
         return [d.length, v.getUint8(0), v.getUint8(1), v.getUint8(2), v.getUint8(3), \
           v.getUint32(4, true), v.getFloat32(8, true), v.getFloat32(12, true), v.getFloat32(20, true), \
           window.sevenbag.device.gamepad_name(1)]; })()",
    );
    assert_eq!(
        read,
        serde_json::json!([
            24,
            1,
            1,
            17,
            4,
            (1 << 0) | (1 << 14),
            -1,
            0.5,
            1,
            "Test Pad (STANDARD GAMEPAD)"
        ])
    );
    site.assert_clean_console();
    site.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_bad_link_and_a_server_without_the_build_show_readable_pages_on_a_phone() {
    let Some(mut site) = Site::start(true).await else {
        return;
    };
    block_in_place(|| site.browser.as_phone()).expect("phone profile");
    site.goto("/room/NOT-A-CODE");
    site.wait_true(STEP_LIMIT, "the page", "document.readyState === 'complete'");
    let text = site.eval("document.body.innerText");
    let text = text.as_str().unwrap_or_default();
    assert!(text.contains("That is not a room link"), "{text}");
    assert!(
        text.contains("a room code is 5 letters and digits"),
        "{text}"
    );
    assert_eq!(
        site.eval("innerWidth"),
        390,
        "readable at the phone's width"
    );
    site.keep_screenshot("phone-bad-room-link");
    site.assert_clean_console_but(&["/room/NOT-A-CODE"]);
    site.stop().await;

    let Some(mut site) = Site::start(false).await else {
        return;
    };
    block_in_place(|| site.browser.as_phone()).expect("phone profile");
    site.goto("/");
    site.wait_true(STEP_LIMIT, "the page", "document.readyState === 'complete'");
    let text = site.eval("document.body.innerText");
    assert!(
        text.as_str()
            .unwrap_or_default()
            .contains("bash client/web/build"),
        "{text}"
    );
    site.keep_screenshot("phone-not-built");
    site.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_phone_plays_a_practice_match_by_touch_alone_in_portrait() {
    let Some(mut site) = Site::start(true).await else {
        return;
    };
    block_in_place(|| site.browser.as_phone()).expect("phone profile");
    site.open("/");
    site.wait_state(FIRST_SCREEN_LIMIT, "the welcome screen", |s| {
        screen(s) == "welcome"
    });
    site.keep_screenshot("phone-1-welcome");
    // A tap on the name field brings up the keyboard (its input takes the focus).
    site.tap_label("Name");
    site.wait_true(
        STEP_LIMIT,
        "the keyboard's input focused",
        "document.activeElement.id === 'sevenbag-text'",
    );
    block_in_place(|| site.browser.type_focused("Thumbs")).expect("type");
    block_in_place(|| site.browser.press_focused("Enter")).expect("done");
    site.wait_state(STEP_LIMIT, "the menu", |s| screen(s) == "menu");
    site.wait_true(
        STEP_LIMIT,
        "the keyboard put away",
        "!window.sevenbag.keyboard.active()",
    );
    site.keep_screenshot("phone-2-menu");
    site.tap_label("Practice vs bot");
    site.wait_state(STEP_LIMIT, "the practice setup", |s| screen(s) == "setup");
    site.keep_screenshot("phone-3-setup");
    site.tap_label("Start match");
    let s = site.wait_state(STEP_LIMIT, "the match, playing", |s| {
        screen(s) == "play" && s["phase"] == "playing"
    });
    for action in [
        "move_left",
        "move_right",
        "soft_drop",
        "hard_drop",
        "rotate_cw",
        "rotate_ccw",
        "rotate_180",
        "hold",
    ] {
        assert!(
            tap_target(&s, &format!("touch:{action}")).is_some(),
            "a touch button for {action}: {s}"
        );
    }
    site.keep_screenshot("phone-4-match");
    // Hold, then a hard drop, by taps alone.
    site.tap_label("touch:hold");
    let held = site.wait_state(STEP_LIMIT, "a piece held", |s| s["hold"][0].is_string());
    site.tap_label("touch:hard_drop");
    site.wait_state(STEP_LIMIT, "a piece dropped", |s| {
        s["pieces"][0].as_u64() >= Some(1)
    });
    // Two fingers: left held while rotating, then both lift.
    let s = site.wait_state(STEP_LIMIT, "the buttons", |s| {
        tap_target(s, "touch:move_left").is_some()
    });
    let (lx, ly) = tap_target(&s, "touch:move_left").expect("left");
    let (rx, ry) = tap_target(&s, "touch:rotate_cw").expect("cw");
    let left = Finger {
        x: lx,
        y: ly,
        id: 1,
    };
    let cw = Finger {
        x: rx,
        y: ry,
        id: 2,
    };
    block_in_place(|| {
        site.browser.touch(TouchKind::Start, &[left])?;
        site.browser.touch(TouchKind::Start, &[left, cw])?;
        std::thread::sleep(Duration::from_millis(300));
        site.browser.touch(TouchKind::End, &[left])?;
        site.browser.touch(TouchKind::End, &[])
    })
    .expect("two fingers");
    site.tap_label("touch:hard_drop");
    let s = site.wait_state(STEP_LIMIT, "a second piece dropped", |s| {
        s["pieces"][0].as_u64() >= Some(2)
    });
    eprintln!("phone match: held {} then {}", held["hold"][0], s);
    site.keep_screenshot("phone-5-played");
    // Undo by its key button (practice keeps a history): the last piece comes back.
    let placed = s["pieces"][0].as_u64().unwrap_or(0);
    let s = site.wait_state(STEP_LIMIT, "an undo button", |s| undo_label(s).is_some());
    site.tap_label(&undo_label(&s).expect("undo"));
    site.wait_state(STEP_LIMIT, "the last piece undone", |s| {
        s["pieces"][0].as_u64() < Some(placed)
    });
    // The back button pauses the match (Esc), as the keyboard's would.
    site.tap_label("touch:back");
    site.keep_screenshot("phone-6-paused");
    site.assert_clean_console();
    site.stop().await;
}

/// The label of the practice match's undo button while it has something to undo.
fn undo_label(s: &serde_json::Value) -> Option<String> {
    s["taps"].as_array()?.iter().find_map(|t| {
        let l = t["l"].as_str()?;
        (l.starts_with("key:Undo (") && l != "key:Undo (0)").then(|| l.to_owned())
    })
}
