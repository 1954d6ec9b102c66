//! Skins in the page, in real Chromium: a TETR.IO and a Jstris skin PNG dropped on the page are
//! checked by the skin rules, decoded by the browser, kept in the page's files and drawn on the
//! boards (screenshots in `target/browser-shots/`, copied to docs/screenshots); the kept skin
//! is in force again after a reload; a hostile file is refused in the decoder's words and
//! nothing breaks; a skin PNG's link pasted in Settings is read from another site (refused in
//! words when that site does not allow it or the file is too large); the page's skin is
//! published to the server for the room it joins, the other player is served the same skin,
//! and the page draws the other player's board in theirs.

use serde_json::Value;
use sevenbag_tests::page::{FIRST_SCREEN_LIMIT, STEP_LIMIT, Site, register_identity, screen};
use tokio::task::block_in_place;

/// A skin file committed with the skin decoder's tests.
fn sample(name: &str) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../crates/skin/tests/samples")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Drops a file named `name` holding `bytes` on the page's canvas.
fn drop_file(site: &mut Site, name: &str, bytes: &[u8]) {
    site.eval(&format!(
        "(() => {{ const t = new DataTransfer(); \
         t.items.add(new File([new Uint8Array({bytes:?})], '{name}')); \
         document.getElementById('glcanvas').dispatchEvent(new DragEvent('drop', \
           {{dataTransfer: t, bubbles: true, cancelable: true}})); }})()"
    ));
}

/// Waits until the page's files are all written to IndexedDB (before a reload).
fn settled(site: &mut Site) {
    assert_eq!(
        site.eval("window.sevenbag.storage.files.settled()"),
        Value::Bool(true)
    );
}

/// Past the welcome screen (naming the player), at the menu.
fn to_menu(site: &mut Site) -> Value {
    let s = site.wait_state(FIRST_SCREEN_LIMIT, "the first screen", |s| {
        matches!(screen(s), "welcome" | "menu")
    });
    if screen(&s) == "menu" {
        return s;
    }
    site.tap_label("Name");
    site.wait_true(
        STEP_LIMIT,
        "the keyboard's input focused",
        "document.activeElement.id === 'sevenbag-text'",
    );
    block_in_place(|| site.browser.type_focused("Skinner")).expect("type");
    block_in_place(|| site.browser.press_focused("Enter")).expect("done");
    site.wait_state(STEP_LIMIT, "the menu", |s| screen(s) == "menu")
}

/// Starts a practice match against the bot and waits until pieces fall.
fn practice(site: &mut Site) {
    site.tap_label("Practice vs bot");
    site.wait_state(STEP_LIMIT, "the practice setup", |s| screen(s) == "setup");
    site.tap_label("Start match");
    site.wait_state(STEP_LIMIT, "pieces on the boards", |s| {
        screen(s) == "play" && s["pieces"][1].as_u64().unwrap_or(0) >= 12
    });
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn tetrio_and_jstris_skins_dropped_on_the_page_are_drawn_and_kept() {
    let Some(mut site) = Site::start(true).await else {
        return;
    };
    // A phone, which taps its way to a match (and is where a skin of one's own is asked for).
    block_in_place(|| site.browser.as_phone()).expect("phone profile");
    site.open("/");
    to_menu(&mut site);

    // A hostile file first: refused in the decoder's words.
    let wide = {
        let mut f = sample("jstris.png");
        f[16..20].copy_from_slice(&60_000u32.to_be_bytes());
        f[20..24].copy_from_slice(&1u32.to_be_bytes());
        f
    };
    drop_file(&mut site, "wide.png", &wide);
    let s = site.wait_state(STEP_LIMIT, "the hostile file refused", |s| {
        s["notice"]
            .as_str()
            .is_some_and(|n| n.starts_with("wide.png"))
    });
    let notice = s["notice"].as_str().unwrap_or_default();
    assert!(notice.contains("not a skin the game can use"), "{notice}");

    for (file, layout) in [("tetrio.png", "tetrio"), ("jstris.png", "jstris")] {
        site.open("/");
        to_menu(&mut site);
        drop_file(&mut site, file, &sample(file));
        let s = site.wait_state(STEP_LIMIT, "the skin in force", |s| {
            s["notice"]
                .as_str()
                .is_some_and(|n| n.starts_with(&format!("Skin {file}")))
        });
        let notice = s["notice"].as_str().unwrap_or_default();
        assert!(notice.contains(&format!("{layout} layout")), "{notice}");
        settled(&mut site);
        // Kept: a new visit draws the same skin from the page's files.
        site.open("/");
        to_menu(&mut site);
        practice(&mut site);
        site.keep_screenshot(&format!("page-skin-{layout}"));
    }
    site.assert_clean_console();
    site.stop().await;
}

/// Another site on a loopback port of its own, serving files over plain HTTP/1.1: at
/// `/open/NAME` with the header that lets other pages read them (CORS), at `/closed/NAME`
/// without it. It stops taking connections after `most`.
fn file_site(files: Vec<(&'static str, Vec<u8>)>, most: usize) -> std::net::SocketAddr {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a loopback port");
    let addr = listener.local_addr().expect("its address");
    let files = std::sync::Arc::new(files);
    std::thread::spawn(move || {
        // One thread a connection: the browser opens spare connections it may never send a
        // request on, and one waiting on such a connection must not hold up the others.
        for stream in listener.incoming().take(most).flatten() {
            let files = files.clone();
            std::thread::spawn(move || answer(&stream, &files));
        }
    });
    addr
}

/// Answers one request on `stream` from `files` (see [`file_site`]).
fn answer(stream: &std::net::TcpStream, files: &[(&'static str, Vec<u8>)]) {
    use std::io::{BufRead, BufReader, Write};
    let _ = stream.set_read_timeout(Some(std::time::Duration::from_secs(20)));
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    if reader.read_line(&mut line).is_err() {
        return;
    }
    // The rest of the head, up to its blank line.
    let mut header = String::new();
    while reader.read_line(&mut header).is_ok_and(|n| n > 2) {
        header.clear();
    }
    let target = line.split(' ').nth(1).unwrap_or("/");
    let path = target.split('?').next().unwrap_or(target);
    let (open, name) = match path.split_once('/').map(|(_, p)| p.split_once('/')) {
        Some(Some(("open", name))) => (true, name),
        Some(Some(("closed", name))) => (false, name),
        _ => (false, ""),
    };
    let mut stream = stream;
    let cors = if open {
        "access-control-allow-origin: *\r\n"
    } else {
        ""
    };
    let Some((_, body)) = files.iter().find(|(n, _)| *n == name) else {
        let head = format!(
            "HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n{cors}connection: close\r\n\r\n"
        );
        let _ = stream.write_all(head.as_bytes());
        return;
    };
    let head = format!(
        "HTTP/1.1 200 OK\r\ncontent-type: image/png\r\ncontent-length: {}\r\n{cors}connection: close\r\n\r\n",
        body.len()
    );
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(body);
}

/// Replaces what the focused text field holds with `text`, as a paste does, then Enter.
/// The paste is checked before Enter: the input must hold `text` alone (a paste that landed
/// beside the old text is pasted again).
fn paste_and_enter(site: &mut Site, text: &str) {
    let holds = format!(
        "document.getElementById('sevenbag-text').value === {}",
        serde_json::to_string(text).expect("a string")
    );
    for _ in 0..3 {
        site.eval("document.getElementById('sevenbag-text').select()");
        block_in_place(|| site.browser.type_focused(text)).expect("paste");
        if site.eval(&holds) == Value::Bool(true) {
            break;
        }
    }
    site.wait_true(STEP_LIMIT, "the link pasted alone", &holds);
    block_in_place(|| site.browser.press_focused("Enter")).expect("enter");
}

/// Waits for a notice `done` takes, keeping every notice seen on the way in `seen` (which
/// says, when the wait fails, how far the link got).
fn wait_notice(
    site: &mut Site,
    what: &str,
    seen: &mut Vec<String>,
    mut done: impl FnMut(&str) -> bool,
) -> String {
    let start = std::time::Instant::now();
    while start.elapsed() < STEP_LIMIT {
        let s = site.state();
        if let Some(n) = s["notice"].as_str() {
            if seen.last().map(String::as_str) != Some(n) {
                seen.push(n.to_owned());
            }
            if done(n) {
                return n.to_owned();
            }
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    panic!(
        "{what}: not within {STEP_LIMIT:?}; notices seen: {seen:#?}\nconsole: {:#?}",
        site.browser.console().unwrap_or_default()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_skin_link_pasted_in_settings_is_read_from_another_site() {
    let Some(mut site) = Site::start(true).await else {
        return;
    };
    let too_large = vec![0u8; sevenbag_skin::limits::MAX_FILE_BYTES + 1];
    let files = file_site(
        vec![
            ("jstris.png", sample("jstris.png")),
            ("huge.png", too_large),
        ],
        64,
    );
    block_in_place(|| site.browser.as_phone()).expect("phone profile");
    site.open("/");
    to_menu(&mut site);
    site.tap_label("Settings");
    site.wait_state(STEP_LIMIT, "the settings", |s| screen(s) == "settings");
    // Down the list until the link row is drawn.
    for _ in 0..60 {
        let s = site.eval("JSON.parse(document.documentElement.dataset.sevenbag || '{}')");
        if sevenbag_tests::page::tap_target(&s, "Skin link").is_some() {
            break;
        }
        site.keys(&["ArrowDown"]);
    }
    site.tap_label("Skin link");
    site.wait_true(
        STEP_LIMIT,
        "the keyboard's input focused",
        "document.activeElement.id === 'sevenbag-text'",
    );

    let refused = [
        (format!("http://{files}/closed/jstris.png"), "CORS"),
        (
            format!("http://{files}/open/huge.png"),
            "more than 1048576 bytes",
        ),
        (format!("http://{files}/open/missing.png"), "answered 404"),
        ("file:///etc/passwd".to_owned(), "only http"),
    ];
    let mut seen = Vec::new();
    for (link, why) in refused {
        paste_and_enter(&mut site, &link);
        // Each refusal's reason is its own, so a notice left from the last one never passes.
        wait_notice(&mut site, "the link refused", &mut seen, |n| {
            n.contains("not read") && n.contains(why)
        });
    }

    let link = format!("http://{files}/open/jstris.png?v=1");
    paste_and_enter(&mut site, &link);
    let failed = format!("{link} was not read");
    let notice = wait_notice(&mut site, "the linked skin in force", &mut seen, |n| {
        n.starts_with("Skin jstris.png")
            || n.starts_with(&failed)
            || n.starts_with("jstris.png is not")
    });
    assert!(
        notice.contains("jstris layout"),
        "{notice}; before: {seen:#?}"
    );
    // The other site's refusals are the browser's console errors, as the test meant them.
    site.assert_clean_console_but(&[
        "CORS",
        "Access-Control-Allow-Origin",
        "404",
        "Failed to fetch",
        "ERR_FAILED",
    ]);
    site.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_pages_skin_is_published_to_the_room_it_joins() {
    use sevenbag_protocol::{ClientMessage, RoomOptions, ServerMessage};
    use sevenbag_tests::{player_key, temp_dir};

    let db = temp_dir("page-skins");
    let config = sevenbag_server::Config {
        db: Some(db.path().join("sevenbag.db")),
        ..sevenbag_tests::players::match_config(std::time::Duration::from_millis(500))
    };
    let Some(mut site) = Site::start_with(true, config).await else {
        return;
    };
    let addr = site.server.addr();
    // The page's identity: registered with test key 7, kept in the page's settings.
    register_identity(addr, "Skinner", 7).await;
    block_in_place(|| site.browser.as_phone()).expect("phone profile");
    site.open("/");
    let key: String = player_key(7).iter().map(|b| format!("{b:02x}")).collect();
    site.keep_identity(&key, "player_name = \"Skinner\"\n");
    site.open("/");
    site.wait_state(FIRST_SCREEN_LIMIT, "the menu", |s| screen(s) == "menu");
    let file = sample("jstris.png");
    drop_file(&mut site, "jstris.png", &file);
    site.wait_state(STEP_LIMIT, "the skin in force", |s| {
        s["notice"]
            .as_str()
            .is_some_and(|n| n.starts_with("Skin jstris.png"))
    });
    settled(&mut site);

    // A room of the test's own, its host wearing a published TETR.IO-layout skin; the page
    // joins it by its link.
    let mut host = sevenbag_tests::social::registered(addr, "host", 1)
        .await
        .expect("the host registers");
    host.send(&ClientMessage::PublishSkin {
        png: sample("tetrio.png"),
    })
    .await
    .expect("publish");
    host.recv_until(STEP_LIMIT, |m| match m {
        ServerMessage::SkinPublished { .. } => Some(()),
        _ => None,
    })
    .await
    .expect("the host's skin is kept");
    host.send(&ClientMessage::CreateRoom {
        options: RoomOptions::default(),
    })
    .await
    .expect("create");
    let code = host
        .recv_until(STEP_LIMIT, |m| match m {
            ServerMessage::Joined { code, .. } => Some(code.clone()),
            _ => None,
        })
        .await
        .expect("a room");
    site.open(&format!("/room/{}", code.to_lowercase()));
    site.wait_state(STEP_LIMIT, "the page in the room", |s| {
        s["stage"] == "in_room" && s["seat"].is_u64()
    });
    let skins = host
        .recv_until(STEP_LIMIT, |m| match m {
            ServerMessage::SeatSkins { skins } if skins.get(1).is_some_and(Option::is_some) => {
                Some(skins.clone())
            }
            _ => None,
        })
        .await
        .expect("the page's seat wears a skin");
    let worn = skins[1].clone().expect("a skin");
    host.send(&ClientMessage::GetSkin { id: worn.clone() })
        .await
        .expect("ask");
    let served = host
        .recv_until(STEP_LIMIT, |m| match m {
            ServerMessage::SkinFile { id, png } if *id == worn => Some(png.clone()),
            _ => None,
        })
        .await
        .expect("the skin's file");
    let skin = sevenbag_skin::decode(&served).expect("decodes");
    assert_eq!(skin, sevenbag_skin::decode(&file).expect("the sample"));
    // The page draws the host's board in the host's skin: fetched, decoded by the browser.
    site.wait_state(STEP_LIMIT, "the host's board in its skin", |s| {
        s["skins"][0] == "tetrio"
    });
    // An identified page opens a datagram session beside its WebSocket; one still opening
    // when the page goes can fail (see browser_parity.rs).
    site.assert_clean_console_but(&["WebSocket", "/datagrams/", "ERR_METHOD_NOT_SUPPORTED"]);
    site.stop().await;
}
