//! End-to-end in a real browser: a page opened at `/room/CODE` takes its seat as the player
//! identity it keeps (its player key), exactly as when it joins through the menu's form, so the
//! server knows it as that player (its name is the identity's, and mutes, blocks and reports
//! apply to it) rather than as a guest under the name in its settings.
//!
//! Needs what tests/tests/browser/browser.rs needs. The tests take turns (`sevenbag_tests::page`).

use std::time::Duration;

use sevenbag_protocol::{ClientMessage, RoomOptions, ServerMessage};
use sevenbag_server::Config;
use sevenbag_tests::page::{FIRST_SCREEN_LIMIT, STEP_LIMIT, Site, register_identity, screen};
use sevenbag_tests::players::match_config;
use sevenbag_tests::{RawClient, player_key, temp_dir};

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_page_opened_at_a_room_link_takes_the_seat_as_its_stored_identity() {
    let db = temp_dir("page-link-identity");
    let config = Config {
        db: Some(db.path().join("sevenbag.db")),
        ..match_config(Duration::from_millis(500))
    };
    let Some(mut site) = Site::start_with(true, config).await else {
        return;
    };
    let addr = site.server.addr();
    // The identity exists on the server: registered as "Linked7" with test key 7.
    register_identity(addr, "Linked7", 7).await;

    // A room, whose host hears who sits down (and stays heard meanwhile).
    let mut host = RawClient::hello(addr, "host").await.expect("host connects");
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
    let (seated, mut names) = tokio::sync::mpsc::unbounded_channel();
    let keepalive = tokio::spawn(async move {
        let mut nonce = 0;
        loop {
            nonce += 1;
            if host.send(&ClientMessage::Ping { nonce }).await.is_err() {
                return;
            }
            match host.recv_within(Duration::from_millis(500)).await {
                Ok(ServerMessage::RoomState { seats, .. }) => {
                    if let Some(s) = &seats[1]
                        && seated.send(s.name.clone()).is_err()
                    {
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

    // The page keeps key 7 and the name "Thumbs" in its settings (no first start).
    site.open("/");
    let key: String = player_key(7).iter().map(|b| format!("{b:02x}")).collect();
    site.keep_identity(&key, "player_name = \"Thumbs\"\n");
    site.open(&format!("/room/{}", code.to_lowercase()));
    let s = site.wait_state(FIRST_SCREEN_LIMIT, "the page seated in the room", |s| {
        s["stage"] == "in_room" && s["seat"].is_u64()
    });
    assert_eq!(screen(&s), "online", "{s}");
    let name = tokio::time::timeout(STEP_LIMIT, names.recv())
        .await
        .ok()
        .flatten()
        .expect("the host hears the seat taken");
    assert_eq!(
        name, "Linked7",
        "the page sits as its identity, not as the guest named in its settings"
    );
    keepalive.abort();
    site.assert_clean_console();
    site.stop().await;
}
