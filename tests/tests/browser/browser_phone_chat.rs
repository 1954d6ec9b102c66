//! End-to-end in a real browser on a phone profile: in a room opened by its link, a tap on the
//! Chat button brings up the keyboard within the tap (the page's text input takes the focus
//! during the tap itself, the only moment a phone lets a keyboard come up), and a line typed
//! through that input and sent with the keyboard's Enter reaches the others in the room.
//!
//! Needs what tests/tests/browser/browser.rs needs. The tests take turns (`sevenbag_tests::page`).

use std::time::Duration;

use serde_json::Value;
use sevenbag_protocol::{ClientMessage, RoomOptions, ServerMessage};
use sevenbag_tests::RawClient;
use sevenbag_tests::page::{FIRST_SCREEN_LIMIT, STEP_LIMIT, Site, screen, tap_target};
use tokio::task::block_in_place;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn on_a_phone_the_chat_button_brings_up_the_keyboard_and_the_typed_line_reaches_the_room() {
    let Some(mut site) = Site::start(true).await else {
        return;
    };
    block_in_place(|| site.browser.as_phone()).expect("phone profile");
    let mut host = RawClient::hello(site.server.addr(), "host")
        .await
        .expect("host connects");
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
        .expect("the room's code");
    // The host stays heard (the test server drops a silent connection in seconds) and passes
    // on the room's chat lines.
    let (lines, mut heard) = tokio::sync::mpsc::unbounded_channel();
    let keepalive = tokio::spawn(async move {
        let mut nonce = 0;
        loop {
            nonce += 1;
            if host.send(&ClientMessage::Ping { nonce }).await.is_err() {
                return;
            }
            match host.recv_within(Duration::from_millis(500)).await {
                Ok(ServerMessage::Chat { from, text, .. }) => {
                    if lines.send((from, text)).is_err() {
                        return;
                    }
                }
                Ok(ServerMessage::Ping { nonce }) => {
                    let _ = host.send(&ClientMessage::Pong { nonce }).await;
                }
                Ok(_) => {}
                Err(e) if e.to_string().contains("closed") => return,
                Err(_) => {}
            }
        }
    });

    // The link opens the room; on a first start the name is typed through the keyboard's
    // input, which the welcome screen focused by itself, and its Save button keeps it.
    site.open(&format!("/room/{code}"));
    let first = site.wait_state(FIRST_SCREEN_LIMIT, "the first screen", |s| {
        !matches!(screen(s), "" | "none" | "link")
    });
    if screen(&first) == "welcome" {
        site.wait_true(
            STEP_LIMIT,
            "the keyboard on the name",
            "window.sevenbag.keyboard.active()",
        );
        block_in_place(|| site.browser.type_focused("Thumbs")).expect("type the name");
        let s = site.wait_state(STEP_LIMIT, "the Save button", |s| {
            tap_target(s, "key:Save").is_some()
        });
        let (x, y) = tap_target(&s, "key:Save").expect("Save");
        block_in_place(|| site.browser.tap(x, y)).expect("tap Save");
    }
    let s = site.wait_state(
        STEP_LIMIT,
        "the page in the room with its Chat button",
        |s| s["stage"] == "in_room" && tap_target(s, "key:Chat").is_some(),
    );
    let (x, y) = tap_target(&s, "key:Chat").expect("Chat");

    // The tap itself focuses the input: checked before the game has drawn the frame that
    // opens the field.
    let focused: Value = site.eval(
        "(() => { window.sevenbag_test_focus = null; \
         const c = document.getElementById('glcanvas'); \
         c.addEventListener('touchend', () => setTimeout(() => { \
           if (window.sevenbag_test_focus === null) \
             window.sevenbag_test_focus = document.activeElement.id; }, 0), { once: true }); \
         return true; })()",
    );
    assert_eq!(focused, true);
    block_in_place(|| site.browser.tap(x, y)).expect("tap Chat");
    site.wait_true(
        STEP_LIMIT,
        "the tap handled",
        "window.sevenbag_test_focus !== null",
    );
    assert_eq!(
        site.eval("window.sevenbag_test_focus"),
        "sevenbag-text",
        "the Chat tap focused the keyboard's input within the tap"
    );
    site.wait_true(
        STEP_LIMIT,
        "the chat field open on the keyboard",
        "window.sevenbag.keyboard.shown() && window.sevenbag.keyboard.active()",
    );

    // Typed on the keyboard, sent with its Enter: the room hears it.
    block_in_place(|| site.browser.type_focused("hello from a phone")).expect("type");
    block_in_place(|| site.browser.press_focused("Enter")).expect("Enter");
    let (from, text) = tokio::time::timeout(Duration::from_secs(30), heard.recv())
        .await
        .ok()
        .flatten()
        .expect("the line reaches the room");
    assert_eq!(text, "hello from a phone");
    assert_ne!(from, "host");
    site.wait_true(
        STEP_LIMIT,
        "the keyboard put away after sending",
        "!window.sevenbag.keyboard.shown()",
    );
    site.keep_screenshot("phone-room-chat");
    keepalive.abort();
    site.assert_clean_console();
    site.stop().await;
}
