//! End-to-end in a real browser: the Friends screen (menu › Leaderboard & friends, F) works in
//! the page. A player on the page accepts a friend's request there with the request row's key,
//! the friend hears it accepted, and when the friend invites them into a room the screen lists
//! the invite, whose key takes the page into that room as the page's identity.
//!
//! The page is driven by keys only, as a desktop player does: the test hook (`taps`) gives the
//! rows drawn, top to bottom, so the test counts the ↓ presses from the row under the cursor to
//! the one it wants. Needs what tests/tests/browser/browser.rs needs. The tests take turns
//! (`sevenbag_tests::page`).

use std::time::{Duration, Instant};

use serde_json::Value;
use sevenbag_protocol::social::{NotificationKind, RequestResult};
use sevenbag_protocol::{ClientMessage, RoomOptions, ServerMessage};
use sevenbag_server::Config;
use sevenbag_tests::page::{FIRST_SCREEN_LIMIT, STEP_LIMIT, Site, register_identity, screen};
use sevenbag_tests::players::match_config;
use sevenbag_tests::social::registered;
use sevenbag_tests::{RawClient, player_key, temp_dir};
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};
use tokio::task::JoinHandle;

/// The page's identity and its test key.
const ME: &str = "Linked7";
const MY_KEY: u8 = 7;
/// The friend, on a connection of the test's own, and her test key.
const FRIEND: &str = "ann";
const FRIEND_KEY: u8 = 8;
/// Menu entries from the cursor's first place (Practice) up to "Leaderboard & friends".
const UP_TO_LEADERBOARD: usize = 1;

/// A player's connection on its own task, kept alive (the server's pings answered, pings of
/// its own sent) while the test waits on the page: what it says goes in through `say`, what
/// it hears comes out of `heard`.
struct Remote {
    say: UnboundedSender<ClientMessage>,
    heard: UnboundedReceiver<ServerMessage>,
    task: JoinHandle<()>,
}

impl Remote {
    fn keep(mut c: RawClient) -> Remote {
        let (say, mut said) = unbounded_channel::<ClientMessage>();
        let (hear, heard) = unbounded_channel();
        let task = tokio::spawn(async move {
            let mut nonce = 0;
            let mut pinged = Instant::now();
            loop {
                while let Ok(m) = said.try_recv() {
                    if c.send(&m).await.is_err() {
                        return;
                    }
                }
                if pinged.elapsed() >= Duration::from_millis(500) {
                    nonce += 1;
                    pinged = Instant::now();
                    if c.send(&ClientMessage::Ping { nonce }).await.is_err() {
                        return;
                    }
                }
                match c.recv_within(Duration::from_millis(100)).await {
                    Ok(m) => {
                        if hear.send(m).is_err() {
                            return;
                        }
                    }
                    Err(e) if e.to_string().contains("closed") => return,
                    Err(_) => {}
                }
            }
        });
        Remote { say, heard, task }
    }

    fn send(&self, m: ClientMessage) {
        self.say.send(m).expect("the friend's connection is up");
    }

    /// The first message `pick` takes within [`STEP_LIMIT`]; an `Error` first fails the test.
    async fn hear<T>(
        &mut self,
        what: &str,
        mut pick: impl FnMut(&ServerMessage) -> Option<T>,
    ) -> T {
        let deadline = tokio::time::Instant::now() + STEP_LIMIT;
        loop {
            let m = tokio::time::timeout_at(deadline, self.heard.recv())
                .await
                .unwrap_or_else(|_| panic!("{what}: not heard within {STEP_LIMIT:?}"))
                .unwrap_or_else(|| panic!("{what}: the friend's connection closed"));
            if let ServerMessage::Error { code, message, .. } = &m {
                panic!("{what}: the server refused: {code:?} {message}");
            }
            if let Some(t) = pick(&m) {
                return t;
            }
        }
    }
}

/// Presses `key` on the page, then lets the game draw a frame past it (so the next key is read
/// after this one's effect, never in the same frame).
fn press(site: &mut Site, key: &str) {
    site.keys(&[key]);
    site.eval(
        "new Promise(ok => requestAnimationFrame(() => requestAnimationFrame(() => ok(true))))",
    );
}

/// The Friends screen's rows the cursor can stop on, top to bottom, each as its label and
/// height on the page: the rows drawn in the name field's column, less the ones that only say
/// something ("No friends yet", "Loading more…"). Section titles are not tap targets.
fn rows(s: &Value) -> Vec<(String, f64)> {
    let taps = s["taps"].as_array().cloned().unwrap_or_default();
    let column = taps
        .iter()
        .find(|t| t["l"] == "Add a friend")
        .and_then(|t| t["x"].as_f64());
    let Some(column) = column else {
        return Vec::new();
    };
    let mut rows: Vec<(String, f64)> = taps
        .iter()
        .filter(|t| (t["x"].as_f64().unwrap_or(f64::NAN) - column).abs() < 1.0)
        .map(|t| {
            let label = t["l"].as_str().unwrap_or_default().to_owned();
            (label, t["y"].as_f64().unwrap_or_default())
        })
        .filter(|(l, _)| l != "No friends yet" && !l.starts_with("Loading more"))
        .collect();
    rows.sort_by(|a, b| a.1.total_cmp(&b.1));
    rows
}

/// Whether the Friends screen is up and lists a row labelled `label`.
fn lists(s: &Value, label: &str) -> bool {
    screen(s) == "friends" && rows(s).iter().any(|(l, _)| l == label)
}

/// Moves the cursor from the row drawn at height `from` to the row labelled `to` (↓ or ↑, one
/// press a row) in the Friends screen state `s`; the target's height.
fn select(site: &mut Site, s: &Value, from: f64, to: &str) -> f64 {
    let rows = rows(s);
    let at = |pick: &dyn Fn(&(String, f64)) -> bool| {
        rows.iter()
            .position(pick)
            .unwrap_or_else(|| panic!("no such row on the Friends screen: {s}"))
    };
    let cursor = at(&|(_, y)| (y - from).abs() < 1.0);
    let target = at(&|(l, _)| l == to);
    let key = if target >= cursor {
        "ArrowDown"
    } else {
        "ArrowUp"
    };
    for _ in 0..target.abs_diff(cursor) {
        press(site, key);
    }
    rows[target].1
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_player_on_the_page_accepts_a_friend_request_on_the_friends_screen_and_joins_the_friends_room_from_the_invite()
 {
    let db = temp_dir("page-friends");
    let config = Config {
        db: Some(db.path().join("sevenbag.db")),
        ..match_config(Duration::from_millis(500))
    };
    let Some(mut site) = Site::start_with(true, config).await else {
        return;
    };
    let addr = site.server.addr();
    // The page's identity exists on the server: registered as "Linked7" with test key 7.
    register_identity(addr, ME, MY_KEY).await;
    // The friend, identified on a connection of her own.
    let ann = registered(addr, FRIEND, FRIEND_KEY)
        .await
        .expect("ann registered");
    let mut ann = Remote::keep(ann);

    // The page keeps key 7 and its name in its settings (no first start), and shows the menu.
    site.open("/");
    let key: String = player_key(MY_KEY)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    site.keep_identity(&key, &format!("player_name = \"{ME}\"\n"));
    site.open("/");
    let s = site.wait_state(FIRST_SCREEN_LIMIT, "the menu", |s| {
        !matches!(screen(s), "" | "none" | "link")
    });
    assert_eq!(screen(&s), "menu", "the page starts at the menu: {s}");

    // Ann asks the page's player to be friends.
    ann.send(ClientMessage::SendFriendRequest { name: ME.into() });
    let sent = ann
        .hear("ann's request sent", |m| match m {
            ServerMessage::FriendRequestSent { result, .. } => Some(*result),
            _ => None,
        })
        .await;
    assert_eq!(sent, RequestResult::Sent);

    // Menu › Leaderboard & friends › F: the Friends screen lists her request.
    for _ in 0..UP_TO_LEADERBOARD {
        press(&mut site, "ArrowUp");
    }
    press(&mut site, "Enter");
    site.wait_state(STEP_LIMIT, "the leaderboard", |s| screen(s) == "standings");
    press(&mut site, "KeyF");
    let asks = format!("{FRIEND} wants to be friends");
    let s = site.wait_state(STEP_LIMIT, "ann's request on the Friends screen", |s| {
        lists(s, &asks)
    });
    // The cursor starts on the name field, the first row.
    let top = rows(&s)[0].1;
    let accepted_at = select(&mut site, &s, top, &asks);
    press(&mut site, "KeyA");

    // Ann hears it accepted; the page lists her as a friend and no longer as asking.
    let who = ann
        .hear("ann told her request was accepted", |m| match m {
            ServerMessage::Notification { notification }
                if notification.kind == NotificationKind::FriendAccepted =>
            {
                Some(notification.subject.clone())
            }
            _ => None,
        })
        .await;
    assert_eq!(who, ME);
    let s = site.wait_state(STEP_LIMIT, "ann among the page's friends", |s| {
        lists(s, FRIEND) && !lists(s, &asks)
    });
    assert_eq!(screen(&s), "friends", "{s}");

    // Ann makes a room and invites her new friend; the Friends screen lists the invite.
    ann.send(ClientMessage::CreateRoom {
        options: RoomOptions::default(),
    });
    let code = ann
        .hear("ann's room", |m| match m {
            ServerMessage::Joined { code, .. } => Some(code.clone()),
            _ => None,
        })
        .await;
    ann.send(ClientMessage::InviteFriend {
        name: ME.into(),
        code: code.clone(),
    });
    let invited = ann
        .hear("ann's invite sent", |m| match m {
            ServerMessage::Invited { name, code } => Some((name.clone(), code.clone())),
            _ => None,
        })
        .await;
    assert_eq!(invited, (ME.to_owned(), code.clone()));
    let invite = format!("{FRIEND} invites you to room {code}");
    let s = site.wait_state(STEP_LIMIT, "the invite on the Friends screen", |s| {
        lists(s, &invite)
    });

    // J on the invite's row: the page sits in ann's room, and ann sees it seated as itself.
    select(&mut site, &s, accepted_at, &invite);
    press(&mut site, "KeyJ");
    let s = site.wait_state(STEP_LIMIT, "the page in ann's room", |s| {
        s["stage"] == "in_room" && s["seat"].is_u64()
    });
    assert_eq!(screen(&s), "online", "{s}");
    assert_eq!(s["code"].as_str(), Some(code.as_str()), "{s}");
    let seated = ann
        .hear("ann's room with a second player", |m| match m {
            ServerMessage::RoomState { seats, .. } => seats[1].as_ref().map(|s| s.name.clone()),
            _ => None,
        })
        .await;
    assert_eq!(seated, ME, "the page sits in ann's room as its identity");

    ann.task.abort();
    site.assert_clean_console();
    site.stop().await;
}
