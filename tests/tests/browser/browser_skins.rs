//! Skins in the page, in real Chromium: a TETR.IO and a Jstris skin PNG dropped on the page are
//! checked by the skin rules, decoded by the browser, kept in the page's files and drawn on the
//! boards (screenshots in `target/browser-shots/`, copied to docs/screenshots); the kept skin
//! is in force again after a reload; a hostile file is refused in the decoder's words and
//! nothing breaks; the page's skin is published to the server for the room it joins, and the
//! other player is served the same skin.

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

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_pages_skin_is_published_to_the_room_it_joins() {
    use sevenbag_protocol::{ClientMessage, RoomOptions, ServerMessage};
    use sevenbag_tests::{RawClient, player_key, temp_dir};

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

    // A room of the test's own; the page joins it by its link.
    let mut host = RawClient::hello(addr, "host").await.expect("connects");
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
    // An identified page opens a datagram session beside its WebSocket; one still opening
    // when the page goes can fail (see browser_parity.rs).
    site.assert_clean_console_but(&["WebSocket", "/datagrams/", "ERR_METHOD_NOT_SUPPORTED"]);
    site.stop().await;
}
