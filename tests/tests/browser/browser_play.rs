//! End-to-end in a real browser, playing: the page served by the server (`--web-dir`) plays a
//! quick match and a room match against a native headless client (also with its CPU slowed
//! four times, showing the server's verdict on its own boards: `slow-page-match-end.png` is
//! kept for a person to look at), practices against the bot,
//! and shows the native game's messages for an unreachable server, a room that does not exist
//! and a dropped connection, without hanging. Keys go in through playwright; what the page
//! shows is read from the game's test hook, `<html data-sevenbag>` (client/src/probe.rs).
//!
//! Needs what tests/tests/browser/browser.rs needs (skips when missing: `sevenbag_tests::needs`). The tests take
//! turns on one lock: two software-rendered pages at once on a 2-core machine would starve.
//! They print `BENCH` lines (the bot's plan times in the page); they assert no speed.

use std::time::{Duration, Instant};

use serde_json::Value;
use sevenbag_netplay::{BattleClient, HeadlessClient, HeadlessConfig};
use sevenbag_protocol::{JoinRole, RoomOptions};
use sevenbag_server::Config;
use sevenbag_tests::browser::{self, Browser};
use sevenbag_tests::players::{Played, connect, match_config, play};
use tokio::io::copy_bidirectional;
use tokio::net::{TcpListener, TcpStream};
use tokio::task::{JoinHandle, block_in_place};

/// Longest wait for the page to show its menu (wasm compiled under software rendering).
const MENU_LIMIT: Duration = Duration::from_secs(60);
/// Longest wait for one step of the page (a screen change, a connection, a server answer).
const STEP_LIMIT: Duration = Duration::from_secs(30);
/// Longest a whole match may take.
const MATCH_LIMIT: Duration = Duration::from_secs(150);
/// How long each key is held.
const HOLD: Duration = Duration::from_millis(40);
/// The menu's entries above Practice, where the menu opens (client/src/screens/menu.rs, the
/// browser's list: Quick match, Ranked, Create room, Join room, Spectate, Leaderboard).
const UP_TO_QUICK_MATCH: usize = 6;
const UP_TO_CREATE_ROOM: usize = 4;
const UP_TO_JOIN_ROOM: usize = 3;
/// Rows up from the create-room form's first row to "Create the room" (the list wraps past
/// Back; client/src/screens/lobby.rs).
const FORM_UP_TO_CREATE: usize = 2;

fn screen(s: &Value) -> &str {
    s["screen"].as_str().unwrap_or_default()
}

fn stage(s: &Value) -> &str {
    s["stage"].as_str().unwrap_or_default()
}

fn pieces(s: &Value, seat: usize) -> u64 {
    s["pieces"][seat].as_u64().unwrap_or(0)
}

/// Everything a browser test needs: the lock, the web build, a browser and a server.
struct Page {
    browser: Browser,
    server: sevenbag_tests::TestServer,
    base: String,
    _turn: tokio::sync::MutexGuard<'static, ()>,
}

impl Page {
    async fn start() -> Option<Page> {
        let turn = sevenbag_tests::page::take_turn().await;
        let web_dir = browser::web_build()?;
        let browser = Browser::launch()?;
        let server = sevenbag_tests::start_server(Config {
            web_dir: Some(web_dir),
            ..match_config(Duration::from_millis(500))
        })
        .await;
        let base = format!("http://{}", server.addr());
        Some(Page {
            browser,
            server,
            base,
            _turn: turn,
        })
    }

    fn keys(&mut self, keys: &[&str]) {
        block_in_place(|| self.browser.keys(keys, HOLD)).expect("keys");
    }

    fn wait(&mut self, limit: Duration, what: &str, done: impl FnMut(&Value) -> bool) -> Value {
        block_in_place(|| self.browser.wait_state(limit, what, done)).unwrap_or_else(|e| {
            let log = self.browser.console().unwrap_or_default();
            panic!("{e:#}\nconsole: {log:#?}")
        })
    }

    /// Opens `path` and waits for the menu (naming the player on a first start).
    fn open_menu(&mut self, path: &str) {
        let url = format!("{}{path}", self.base);
        block_in_place(|| self.browser.goto(&url)).expect("open the page");
        let s = self.wait(MENU_LIMIT, "the first screen", |s| {
            matches!(screen(s), "menu" | "welcome")
        });
        if screen(&s) == "welcome" {
            block_in_place(|| self.browser.type_text("webby")).expect("type a name");
            self.keys(&["Enter"]);
            self.wait(STEP_LIMIT, "the menu after the name", |s| {
                screen(s) == "menu"
            });
        }
    }

    /// A native player creates a first-to-`first_to` room, and the page joins it by its code
    /// from the menu; returns the native player once the page is in the room.
    async fn join_native_room(&mut self, first_to: u8) -> HeadlessClient {
        let mut native = connect(&self.server.url(), "native").await;
        let code = native
            .create_room(RoomOptions {
                first_to,
                ..RoomOptions::default()
            })
            .await
            .expect("room");
        self.open_menu("/");
        self.open_online(UP_TO_JOIN_ROOM, 0, Some(&code));
        let s = self.wait(STEP_LIMIT, "the page in the native room", |s| {
            stage(s) == "in_room"
        });
        assert_eq!(s["code"].as_str(), Some(code.as_str()));
        native
    }

    /// From the menu: `ups` entries up and Enter open a form; then `form_ups` rows up from its
    /// first row (the server, filled in with the page's own) and Enter until the online screen
    /// is up (the room screen, for a room created). Enter on a text field goes to the next field, or connects when the fields left
    /// are filled; on an option row it changes the option, so the create-room form is left
    /// from its "Create the room" row.
    fn open_online(&mut self, ups: usize, form_ups: usize, code: Option<&str>) -> Value {
        let mut keys = vec!["ArrowUp"; ups];
        keys.push("Enter");
        self.keys(&keys);
        self.wait(STEP_LIMIT, "the online form", |s| screen(s) == "lobby");
        if let Some(code) = code {
            block_in_place(|| self.browser.type_text(code)).expect("type the code");
        }
        if form_ups > 0 {
            self.keys(&vec!["ArrowUp"; form_ups]);
        }
        let start = Instant::now();
        loop {
            self.keys(&["Enter"]);
            let s = block_in_place(|| self.browser.state()).expect("state");
            // A created room is a room of the general kind: its own screen.
            if matches!(screen(&s), "online" | "party-online") {
                return s;
            }
            assert!(
                start.elapsed() < STEP_LIMIT,
                "the form never connected: {s}"
            );
        }
    }

    /// Plays the page's side of a running match (hard drops) until the server's verdict, with
    /// the native player on `native`: both boards must get pieces, and both sides must agree
    /// on the winner.
    async fn play_out(&mut self, native: JoinHandle<Played>) {
        let start = Instant::now();
        let mut most = [0u64; 2];
        let state = loop {
            self.keys(&["Space"]);
            let s = block_in_place(|| self.browser.state()).expect("state");
            for (seat, m) in most.iter_mut().enumerate() {
                *m = (*m).max(pieces(&s, seat));
            }
            if s["outcome"].is_object() {
                break s;
            }
            assert!(stage(&s) != "failed", "the page failed mid-match: {s}");
            assert!(start.elapsed() < MATCH_LIMIT, "the match did not end: {s}");
        };
        assert!(
            most[0] > 0 && most[1] > 0,
            "both boards got pieces: {most:?} ({state})"
        );
        let (client, result) = native.await.expect("native player task");
        let result = result.expect("the native player's match ended");
        let page_winner = state["outcome"]["winner"].as_u64().expect("winner seat");
        assert_eq!(
            page_winner,
            result.winner.index() as u64,
            "the page and the native player agree on the winner ({state})"
        );
        assert_ne!(
            state["seat"].as_u64(),
            client.seat().map(|s| s.index() as u64),
            "the page and the native player sat in different seats"
        );
        eprintln!(
            "browser match over: seat {page_winner} won ({}), pieces seen {most:?}",
            state["outcome"]["reason"]
        );
    }

    /// [`Page::play_out`] for a room of the general kind (quick and ranked matches): the
    /// page's room controller reports `result`, the native client its outcome.
    async fn play_out_room(&mut self, native: JoinHandle<PlayedRoom>) {
        let start = Instant::now();
        let mut most = [0u64; 2];
        let state = loop {
            self.keys(&["Space"]);
            let s = block_in_place(|| self.browser.state()).expect("state");
            for (seat, m) in most.iter_mut().enumerate() {
                *m = (*m).max(pieces(&s, seat));
            }
            if s["result"].is_object() {
                break s;
            }
            assert!(stage(&s) != "failed", "the page failed mid-match: {s}");
            assert!(start.elapsed() < MATCH_LIMIT, "the match did not end: {s}");
        };
        assert!(
            most[0] > 0 && most[1] > 0,
            "both boards got pieces: {most:?} ({state})"
        );
        let (client, result) = native.await.expect("native player task");
        result.expect("the native player's match ended");
        let outcome = client
            .outcome()
            .expect("the native player heard the verdict");
        let page_winner = state["result"]["winner"].as_u64();
        assert_eq!(
            page_winner,
            outcome.winner.map(u64::from),
            "the page and the native player agree on the winner ({state})"
        );
        assert_ne!(
            state["seat"].as_u64(),
            client.seat().map(u64::from),
            "the page and the native player sat in different seats"
        );
        eprintln!("browser match over: seat {page_winner:?} won, pieces seen {most:?}");
    }

    /// No errors in the page's console but those containing one of `expected`.
    fn assert_clean_console_but(&mut self, expected: &[&str]) {
        let log = block_in_place(|| self.browser.console()).expect("console");
        let errors: Vec<_> = log
            .iter()
            .filter(|(kind, _)| matches!(kind.as_str(), "error" | "pageerror" | "http"))
            .filter(|(_, text)| !expected.iter().any(|e| text.contains(e)))
            .collect();
        assert!(errors.is_empty(), "browser errors: {errors:#?}");
    }

    /// No errors in the page's console.
    fn assert_clean_console(&mut self) {
        self.assert_clean_console_but(&[]);
    }

    async fn stop(self) {
        let Page {
            browser,
            mut server,
            ..
        } = self;
        drop(browser);
        server.shutdown().await.expect("shutdown");
    }
}

/// What a native player of a room of the general kind gives back.
type PlayedRoom = (BattleClient, Result<(), sevenbag_netplay::HeadlessError>);

/// The native player of a quick or ranked match: hard drops every frame or two (it tops out
/// soon), on its own task.
fn native_room_player(mut client: BattleClient, seed: u64) -> JoinHandle<PlayedRoom> {
    tokio::spawn(async move {
        let mut n = seed;
        let mut keys = move |_: &sevenbag_core::Battle, _: usize| {
            n = n.wrapping_add(1);
            let keys = if n.is_multiple_of(2) {
                sevenbag_core::Input::HARD_DROP
            } else {
                sevenbag_core::Input::NONE
            };
            sevenbag_core::SeatInput { keys, target: None }
        };
        let result = client.play(&mut keys, MATCH_LIMIT).await;
        (client, result)
    })
}

/// The native player: hard drops every 1–3 frames (it tops out soon), on its own task.
fn native_player(client: HeadlessClient, seed: u64) -> JoinHandle<Played> {
    play(client, Some(seed), (1, 3), MATCH_LIMIT)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_page_plays_a_quick_match_against_a_native_player_to_an_agreed_result() {
    let Some(mut page) = Page::start().await else {
        return;
    };
    page.open_menu("/");
    page.open_online(UP_TO_QUICK_MATCH, 0, None);
    page.wait(STEP_LIMIT, "waiting for an opponent", |s| {
        stage(s) == "waiting"
    });
    let mut native = BattleClient::connect(&page.server.url(), "native")
        .await
        .expect("native connects");
    native
        .quick_match(STEP_LIMIT)
        .await
        .expect("the native player is matched with the page");
    page.play_out_room(native_room_player(native, 31)).await;
    page.assert_clean_console();
    page.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_page_creates_a_room_a_native_player_joins_by_code_and_they_play_it_out() {
    let Some(mut page) = Page::start().await else {
        return;
    };
    page.open_menu("/");
    page.open_online(UP_TO_CREATE_ROOM, FORM_UP_TO_CREATE, None);
    let s = page.wait(STEP_LIMIT, "the page's room", |s| stage(s) == "in_room");
    let code = s["code"].as_str().expect("a room code").to_owned();
    let mut native = BattleClient::connect(&page.server.url(), "native")
        .await
        .expect("native connects");
    native
        .join(&code, JoinRole::Player)
        .await
        .expect("the native player joins the page's room by its code");
    native.ready().expect("native ready");
    // The page's first row is Ready.
    page.keys(&["Enter"]);
    page.play_out_room(native_room_player(native, 32)).await;
    page.assert_clean_console();
    page.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_page_joins_a_native_players_room_by_code() {
    let Some(mut page) = Page::start().await else {
        return;
    };
    let mut native = page.join_native_room(1).await;
    native.ready().expect("native ready");
    page.keys(&["Enter"]);
    page.play_out(native_player(native, 33)).await;
    page.assert_clean_console();
    page.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_page_sends_its_inputs_as_datagrams_over_webtransport() {
    let Some(mut page) = Page::start().await else {
        return;
    };
    // The native player keeps to the WebSocket: every datagram the server gets is the page's.
    let mut native = HeadlessClient::connect(
        &page.server.url(),
        HeadlessConfig {
            datagrams: false,
            ..HeadlessConfig::new("native")
        },
    )
    .await
    .expect("native connects");
    let code = native
        .create_room(RoomOptions {
            first_to: 1,
            ..RoomOptions::default()
        })
        .await
        .expect("room");
    page.open_menu("/");
    page.open_online(UP_TO_JOIN_ROOM, 0, Some(&code));
    page.wait(STEP_LIMIT, "the page in the native room", |s| {
        stage(s) == "in_room"
    });
    native.ready().expect("native ready");
    page.keys(&["Enter"]);
    page.play_out(native_player(native, 34)).await;
    let (_, body) = sevenbag_tests::http::get(page.server.addr(), "/metrics")
        .await
        .expect("metrics");
    let metrics = String::from_utf8_lossy(&body);
    let count = |name: &str| -> f64 {
        metrics
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.rsplit(' ').next())
            .and_then(|v| v.parse().ok())
            .unwrap_or(0.0)
    };
    let received = count("sevenbag_datagrams_received_total");
    assert!(
        received > 30.0,
        "the page's inputs came as datagrams ({received} received)\n{metrics}"
    );
    assert_eq!(
        count("sevenbag_datagram_sessions_refused_total{reason=\"handshake\"}"),
        0.0,
        "the browser accepted the self-signed certificate by its hash"
    );
    page.assert_clean_console();
    page.stop().await;
}

/// How long the page stays frozen in the background-tab test: longer than the test server's
/// 3 s idle timeout, so the server gives up on the silent connection meanwhile.
const BACKGROUND: Duration = Duration::from_secs(6);

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_page_frozen_in_the_background_mid_match_catches_up_and_finishes_the_match() {
    let Some(mut page) = Page::start().await else {
        return;
    };
    let mut native = page.join_native_room(2).await;
    native.ready().expect("native ready");
    page.keys(&["Enter"]);
    // A slower native player, so the match is still on when the page comes back.
    let task = play(native, Some(34), (20, 30), MATCH_LIMIT);
    let before = page.wait(STEP_LIMIT, "the match under way", |s| {
        s["phase"] == "playing" && pieces(s, 0) + pieces(s, 1) > 0
    });
    block_in_place(|| page.browser.freeze(true)).expect("freeze");
    tokio::time::sleep(BACKGROUND).await;
    block_in_place(|| page.browser.freeze(false)).expect("thaw");
    let frame = before["frame"].as_u64().unwrap_or(0);
    let thawed = Instant::now();
    let after = page.wait(STEP_LIMIT, "the page moving on after the background", |s| {
        s["frame"].as_u64().unwrap_or(0) > frame + 60 || s["outcome"].is_object()
    });
    eprintln!(
        "browser background: frame {frame} before {BACKGROUND:?} frozen, {} {:.2} s after the thaw ({after})",
        after["frame"],
        thawed.elapsed().as_secs_f64()
    );
    page.play_out(task).await;
    page.assert_clean_console();
    page.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_slow_page_shows_the_servers_verdict_on_its_own_boards() {
    let Some(mut page) = Page::start().await else {
        return;
    };
    let mut native = page.join_native_room(1).await;
    // A loaded machine: the page's CPU four times slower, so its boards run behind the frame
    // the server decides the match on.
    block_in_place(|| page.browser.throttle(4.0)).expect("throttle");
    native.ready().expect("native ready");
    page.keys(&["Enter"]);
    page.play_out(native_player(native, 35)).await;
    let s = page.wait(STEP_LIMIT, "the verdict on the page's boards", |s| {
        s["phase"] == "match_over"
    });
    assert_eq!(s["winner"], s["outcome"]["winner"], "{s}");
    block_in_place(|| page.browser.throttle(1.0)).expect("unthrottle");
    // For a person to look at: the verdict, the score and the rematch card on the slow page.
    block_in_place(|| page.browser.keep_screenshot("slow-page-match-end")).expect("screenshot");
    page.assert_clean_console();
    page.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_page_practices_against_the_max_bot_and_reports_its_plan_times() {
    let Some(mut page) = Page::start().await else {
        return;
    };
    page.open_menu("/");
    // Practice is under the cursor: its setup, the opponent from Medium to Max (two steps
    // right: Stacker, Beginner, Easy, Medium, Hard, Max), then Start (past Rules, First to
    // and Finesse training).
    page.keys(&["Enter"]);
    page.wait(STEP_LIMIT, "the practice setup", |s| screen(s) == "setup");
    page.keys(&[
        "ArrowRight",
        "ArrowRight",
        "ArrowDown",
        "ArrowDown",
        "ArrowDown",
        "ArrowDown",
        "Enter",
    ]);
    page.wait(STEP_LIMIT, "the practice match", |s| screen(s) == "play");
    // The page's player drops three pieces, then leaves its piece to gravity, so it lasts
    // while Max plans (hard drops all the way stacked to the top within seconds).
    let start = Instant::now();
    let mut dropped = 0;
    let s = loop {
        if dropped < 3 {
            page.keys(&["Space"]);
        }
        let s = block_in_place(|| page.browser.state()).expect("state");
        dropped = dropped.max(pieces(&s, 0));
        if dropped >= 3 && s["plans"].as_u64().unwrap_or(0) >= 40 {
            break s;
        }
        assert!(start.elapsed() < MATCH_LIMIT, "the bot did not play: {s}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert!(pieces(&s, 1) > 0, "the bot's board got pieces: {s}");
    let ms = |key: &str| s[key].as_f64().unwrap_or(0.0) / 1000.0;
    // Its pace in game time: pieces locked per 60 match frames after the Versus countdown.
    let countdown = f64::from(sevenbag_core::Rules::versus().countdown_frames);
    let played = s["frame"].as_f64().unwrap_or(0.0) - countdown;
    let pps = pieces(&s, 1) as f64 * 60.0 / played.max(1.0);
    eprintln!(
        "BENCH browser: Max bot in the page: {} plans, {:.2} ms thinking each over {:.2} frames \
         (at most {}), at most {:.2} ms thinking in one frame, {pps:.2} pieces a second",
        s["plans"],
        ms("plan_mean_us"),
        s["plan_frames_mean_x100"].as_f64().unwrap_or(0.0) / 100.0,
        s["plan_frames_max"],
        ms("think_frame_max_us"),
    );
    page.assert_clean_console();
    page.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_page_plays_a_free_for_all_against_three_bots_thinking_in_the_frame() {
    let Some(mut page) = Page::start().await else {
        return;
    };
    page.open_menu("/");
    // Free-for-all is two entries below Practice; its setup starts offline (the Play row) with
    // three bots at Medium, and Start is the eighth row.
    page.keys(&["ArrowDown", "ArrowDown", "Enter"]);
    page.wait(STEP_LIMIT, "the free-for-all setup", |s| {
        screen(s) == "party-setup"
    });
    let mut keys = vec!["ArrowDown"; 7];
    keys.push("Enter");
    page.keys(&keys);
    page.wait(STEP_LIMIT, "the free-for-all", |s| screen(s) == "party");
    // Three bots share the frame's thinking allowance: they all plan, and the page stays up.
    let start = Instant::now();
    let s = loop {
        let s = block_in_place(|| page.browser.state()).expect("state");
        if s["plans"].as_u64().unwrap_or(0) >= 60 {
            break s;
        }
        assert!(start.elapsed() < MATCH_LIMIT, "the bots did not play: {s}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert_eq!(screen(&s), "party");
    eprintln!(
        "BENCH browser: free-for-all, 3 Medium bots in the page: {} plans, at most {:.2} ms \
         thinking in one frame",
        s["plans"],
        s["think_frame_max_us"].as_f64().unwrap_or(0.0) / 1000.0,
    );
    page.assert_clean_console();
    page.stop().await;
}

/// A port on 127.0.0.1 with nothing listening (bound, then let go).
async fn closed_port() -> u16 {
    let l = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    l.local_addr().expect("addr").port()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_unreachable_server_shows_the_native_message_and_the_page_keeps_running() {
    let Some(mut page) = Page::start().await else {
        return;
    };
    let port = closed_port().await;
    page.open_menu(&format!("/?server=127.0.0.1%3A{port}"));
    page.open_online(UP_TO_QUICK_MATCH, 0, None);
    let s = page.wait(STEP_LIMIT, "the failure", |s| stage(s) == "failed");
    // client/src/online/texts.rs, reach_text for a refused connection: the native game's words.
    let expected = format!(
        "Nothing answers at 127.0.0.1:{port}. Check the address and port, and that the server is running."
    );
    assert_eq!(s["message"].as_str(), Some(expected.as_str()));
    assert_not_hung(&mut page, &s);
    page.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_room_that_does_not_exist_shows_the_native_message() {
    let Some(mut page) = Page::start().await else {
        return;
    };
    page.open_menu("/");
    page.open_online(UP_TO_JOIN_ROOM, 0, Some("ZZZZ9"));
    let s = page.wait(STEP_LIMIT, "the failure", |s| stage(s) == "failed");
    assert_eq!(
        s["message"].as_str(),
        Some("No room has that code. Check it and try again.")
    );
    assert_not_hung(&mut page, &s);
    page.stop().await;
}

/// A TCP relay from a port of its own to `to`; aborting the task drops every connection.
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
async fn a_dropped_connection_shows_the_native_message_and_the_page_keeps_running() {
    let Some(mut page) = Page::start().await else {
        return;
    };
    let (port, link) = relay(page.server.addr()).await;
    page.open_menu(&format!("/?server=127.0.0.1%3A{port}"));
    page.open_online(UP_TO_CREATE_ROOM, FORM_UP_TO_CREATE, None);
    page.wait(STEP_LIMIT, "the page's room", |s| stage(s) == "in_room");
    // The network goes: every connection through the relay is cut at once.
    link.abort();
    let s = page.wait(STEP_LIMIT, "the failure", |s| stage(s) == "failed");
    // client/src/online/connection.rs + texts.rs: a lost connection, in the native game's words.
    assert_eq!(
        s["message"].as_str(),
        Some(
            "Disconnected from the server: the connection broke. Check your network and try again."
        )
    );
    assert_not_hung(&mut page, &s);
    page.stop().await;
}

/// The page keeps drawing after `before` (its frame count grows) and Esc leaves the failed
/// connection for the form.
fn assert_not_hung(page: &mut Page, before: &Value) {
    let frames = before["frames"].as_u64().unwrap_or(0);
    page.wait(STEP_LIMIT, "frames after the failure", |s| {
        s["frames"].as_u64().unwrap_or(0) > frames
    });
    page.keys(&["Escape"]);
    page.wait(STEP_LIMIT, "back to the form", |s| screen(s) == "lobby");
    // The browser itself logs the failed socket ("WebSocket connection to ... failed"), and,
    // behind a relay that passes no UDP, the datagram session it could not open ("Failed to
    // establish a connection to https://.../datagrams/...": the page stays on the WebSocket).
    page.assert_clean_console_but(&["WebSocket", "/datagrams/"]);
}
