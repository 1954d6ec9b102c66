//! The browser game in a test: a real server serving the build (`target/web`), a real Chromium
//! ([`crate::browser::Browser`]) and the lock that makes such tests take turns (two
//! software-rendered pages at once on a 2-core machine would starve), with the steps the tests
//! share: open a path and wait for the page's plugin, read the game's test hook, tap what it
//! says can be tapped, keep screenshots, check the console.

use std::time::{Duration, Instant};

use serde_json::Value;
use sevenbag_server::Config;
use tokio::sync::{Mutex, MutexGuard};
use tokio::task::block_in_place;

use crate::browser::{self, Browser};
use crate::players::match_config;

/// One browser test at a time in a test binary (see the module docs).
static TURN: Mutex<()> = Mutex::const_new(());

/// Waits for this test's turn at the browser: two software-rendered pages at once on a small
/// machine would starve each other. Hold the guard for the whole test.
pub async fn take_turn() -> MutexGuard<'static, ()> {
    TURN.lock().await
}

/// The page's player key file (its files: `/sevenbag-v1/config/...`).
pub const PAGE_KEY_PATH: &str = "/sevenbag-v1/config/sevenbag/player.key";

/// Longest wait for the page to show its first screen (wasm compiled under software rendering).
pub const FIRST_SCREEN_LIMIT: Duration = Duration::from_secs(90);
/// Longest wait for one step of the page.
pub const STEP_LIMIT: Duration = Duration::from_secs(30);

/// A browser and a server with (or without) the browser build.
pub struct Site {
    /// The browser.
    pub browser: Browser,
    /// The server.
    pub server: crate::TestServer,
    /// `http://127.0.0.1:PORT`.
    pub base: String,
    _turn: MutexGuard<'static, ()>,
}

/// The screen the test hook names.
pub fn screen(s: &Value) -> &str {
    s["screen"].as_str().unwrap_or_default()
}

/// The centre (CSS pixels) of what the page can tap labelled `label`, from its test hook.
pub fn tap_target(s: &Value, label: &str) -> Option<(f64, f64)> {
    s["taps"].as_array()?.iter().find_map(|t| {
        (t["l"].as_str() == Some(label)).then(|| {
            (
                t["x"].as_f64().unwrap_or(0.0),
                t["y"].as_f64().unwrap_or(0.0),
            )
        })
    })
}

impl Site {
    /// The server (the e2e settings) with the build in `target/web` when `built`, or with none
    /// (its page saying how to build it). `None`: skipped (see [`crate::browser`]).
    pub async fn start(built: bool) -> Option<Site> {
        Site::start_with(built, match_config(Duration::from_millis(500))).await
    }

    /// [`Site::start`] with the server's `config` (its `web_dir` is set here).
    pub async fn start_with(built: bool, config: Config) -> Option<Site> {
        let turn = TURN.lock().await;
        let web_dir = browser::web_build()?;
        let browser = Browser::launch()?;
        let server = crate::start_server(Config {
            web_dir: built.then_some(web_dir),
            ..config
        })
        .await;
        let base = format!("http://{}", server.addr());
        Some(Site {
            browser,
            server,
            base,
            _turn: turn,
        })
    }

    /// Opens `path` on the server (returns once the page committed).
    pub fn goto(&mut self, path: &str) {
        let url = format!("{}{path}", self.base);
        block_in_place(|| self.browser.goto(&url)).expect("open the page");
    }

    /// `expr`'s value in the page (a promise is awaited); a failure panics with the console.
    pub fn eval(&mut self, expr: &str) -> Value {
        block_in_place(|| self.browser.eval(expr)).unwrap_or_else(|e| {
            let log = self.browser.console().unwrap_or_default();
            panic!("{e:#}\nin: {expr}\nconsole: {log:#?}")
        })
    }

    /// Evaluates `expr` until it is `true`, within `limit`.
    pub fn wait_true(&mut self, limit: Duration, what: &str, expr: &str) {
        let start = Instant::now();
        while start.elapsed() < limit {
            if self.eval(expr) == Value::Bool(true) {
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        panic!("{what}: `{expr}` not true within {limit:?}");
    }

    /// Keeps player key `key` (hex) in the page's files and `config` as its settings file, as
    /// a page that played before holds them (open the page first; reopen it to read them).
    pub fn keep_identity(&mut self, key: &str, config: &str) {
        let config = config
            .replace('\\', "\\\\")
            .replace('\'', "\\'")
            .replace('\n', "\\n");
        let filled = self.eval(&format!(
            "(async () => {{ \
               const db = await new Promise((ok, no) => {{ const r = indexedDB.open('sevenbag', 1); \
                 r.onupgradeneeded = () => r.result.createObjectStore('files'); \
                 r.onsuccess = () => ok(r.result); r.onerror = no; }}); \
               await new Promise((ok, no) => {{ const t = db.transaction('files', 'readwrite'); \
                 t.objectStore('files').put(new TextEncoder().encode('{key}\\n'), '{PAGE_KEY_PATH}'); \
                 t.oncomplete = ok; t.onerror = no; }}); \
               localStorage.setItem('sevenbag/config.toml', '{config}'); \
               db.close(); return true; }})()"
        ));
        assert_eq!(filled, Value::Bool(true), "the page kept the identity");
    }

    /// Opens `path` and waits until the page's plugin parts are loaded.
    pub fn open(&mut self, path: &str) {
        self.goto(path);
        self.wait_plugin();
    }

    /// Waits until the page's plugin parts are loaded (after opening or reloading it).
    pub fn wait_plugin(&mut self) {
        self.wait_true(
            STEP_LIMIT,
            "the page's plugin",
            "!!(window.sevenbag && window.sevenbag.storage && window.sevenbag.files \
             && window.sevenbag.keyboard && window.sevenbag.device && window.sevenbag.io)",
        );
    }

    /// The game's test hook, read until `done` holds for it (panics with the console if not).
    pub fn wait_state(
        &mut self,
        limit: Duration,
        what: &str,
        done: impl FnMut(&Value) -> bool,
    ) -> Value {
        block_in_place(|| self.browser.wait_state(limit, what, done)).unwrap_or_else(|e| {
            let log = self.browser.console().unwrap_or_default();
            panic!("{e:#}\nconsole: {log:#?}")
        })
    }

    /// The game's test hook now.
    pub fn state(&mut self) -> Value {
        block_in_place(|| self.browser.state()).expect("state")
    }

    /// Waits until the page offers `label` to tap, then taps it; returns the state it read.
    pub fn tap_label(&mut self, label: &str) -> Value {
        let s = self.wait_state(STEP_LIMIT, &format!("a tap target {label}"), |s| {
            tap_target(s, label).is_some()
        });
        let (x, y) = tap_target(&s, label).expect("target");
        block_in_place(|| self.browser.tap(x, y)).expect("tap");
        s
    }

    /// Presses keys on the game's canvas, each held 40 ms.
    pub fn keys(&mut self, keys: &[&str]) {
        block_in_place(|| self.browser.keys(keys, Duration::from_millis(40))).expect("keys");
    }

    /// No errors in the page's console but those containing one of `expected`.
    pub fn assert_clean_console_but(&mut self, expected: &[&str]) {
        let log = block_in_place(|| self.browser.console()).expect("console");
        let errors: Vec<_> = log
            .iter()
            .filter(|(kind, _)| matches!(kind.as_str(), "error" | "pageerror" | "http"))
            .filter(|(_, text)| !expected.iter().any(|e| text.contains(e)))
            .collect();
        assert!(errors.is_empty(), "browser errors: {errors:#?}");
    }

    /// No errors in the page's console.
    pub fn assert_clean_console(&mut self) {
        self.assert_clean_console_but(&[]);
    }

    /// Keeps a screenshot as `target/browser-shots/NAME.png` and returns the PNG.
    pub fn keep_screenshot(&mut self, name: &str) -> Vec<u8> {
        block_in_place(|| self.browser.keep_screenshot(name)).expect("screenshot")
    }

    /// Closes the browser and stops the server.
    pub async fn stop(self) {
        let Site {
            browser,
            mut server,
            ..
        } = self;
        drop(browser);
        server.shutdown().await.expect("shutdown");
    }
}

/// Registers the identity `name` with test key `n` on the server at `addr`, on a connection of
/// its own that then closes: a page keeps it with [`Site::keep_identity`].
pub async fn register_identity(addr: std::net::SocketAddr, name: &str, n: u8) {
    let mut register = crate::RawClient::hello(addr, name).await.expect("connects");
    register
        .send(&crate::sign_in(n, name, true))
        .await
        .expect("register");
    register
        .profile_reply(STEP_LIMIT)
        .await
        .expect("registered");
}
