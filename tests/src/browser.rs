//! A real headless Chromium for tests: Debian's `chromium`, driven by `tests/browser/drive.cjs`
//! (playwright-core, pinned in `tests/browser/package.json` and installed by
//! `bash tests/browser/install` into `target/browser-node`), one JSON command per line.
//!
//! Why playwright-core rather than Chromium's own `--screenshot`: a spectated match needs
//! screenshots at chosen moments of a page that keeps running (the CLI's one screenshot after a
//! virtual-time budget does not wait on a real WebSocket), and playwright gives the console,
//! page errors and failed requests as events instead of log lines to grep.
//!
//! What is missing — the browser, node, playwright-core, or the browser build of the game
//! (`target/web`, from `bash client/web/build`) — makes the functions here return `None` after
//! one line naming it and the command that installs it all, and the test returns early; under
//! `SEVENBAG_REQUIRE_ALL=1` or `CI=true` it fails the test instead ([`crate::needs`]).
//!
//! The browser is always stopped when a [`Browser`] is dropped, also when the test panics: the
//! driver is asked to close it, then the driver and every process whose command line names the
//! browser's own temporary profile directory are killed.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use serde_json::{Value, json};

use crate::needs::missing;

/// The flags the browser runs with (software WebGL through SwiftShader, no network of its own,
/// a 1280×720 window), plus `--user-data-dir` with a fresh temporary profile per browser.
pub const CHROMIUM_FLAGS: &[&str] = &[
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    // Shared memory in /tmp, not /dev/shm: a container's /dev/shm can be 64 MB.
    "--disable-dev-shm-usage",
    "--enable-unsafe-swiftshader",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1280,720",
];

/// Longest wait for one command's answer (a page load, a screenshot under software rendering).
const COMMAND_LIMIT: Duration = Duration::from_secs(90);
/// Longest wait for the browser to start.
const START_LIMIT: Duration = Duration::from_secs(60);

/// The repository's root (the parent of `tests/`).
pub fn repo_root() -> PathBuf {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    here.parent().unwrap_or(here).to_path_buf()
}

/// The browser build of the game: `SEVENBAG_WEB_DIR`, else `target/web` in the repository.
/// `None` when it is missing (see the module docs).
pub fn web_build() -> Option<PathBuf> {
    let dir = std::env::var_os("SEVENBAG_WEB_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo_root().join("target").join("web"));
    if dir.join("index.html").is_file() {
        return Some(dir);
    }
    missing(&format!(
        "no browser build of the game in {} (`bash client/web/build`)",
        dir.display()
    ))
}

/// A running headless Chromium and its driver.
#[derive(Debug)]
pub struct Browser {
    driver: Child,
    stdin: Option<ChildStdin>,
    answers: mpsc::Receiver<String>,
    /// The browser's own profile directory, removed when the browser is dropped.
    profile: crate::TempDir,
    shots: u32,
}

impl Browser {
    /// Starts the browser (see the module docs for `None`). Panics if it cannot start.
    pub fn launch() -> Option<Browser> {
        let chromium = std::env::var_os("SEVENBAG_CHROMIUM")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"));
        if !chromium.is_file() {
            return missing(&format!("no Chromium at {}", chromium.display()));
        }
        let node_ok = Command::new("node")
            .arg("--version")
            .stdout(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !node_ok {
            return missing("node not found on PATH");
        }
        let modules = std::env::var_os("SEVENBAG_BROWSER_NODE")
            .map(PathBuf::from)
            .unwrap_or_else(|| repo_root().join("target/browser-node/node_modules"));
        if !modules.join("playwright-core").is_dir() {
            return missing(&format!(
                "playwright-core not installed in {}",
                modules.display()
            ));
        }
        match Browser::start(&chromium, &modules) {
            Ok(b) => Some(b),
            Err(e) => panic!("cannot start Chromium through playwright-core: {e:#}"),
        }
    }

    fn start(chromium: &Path, modules: &Path) -> anyhow::Result<Browser> {
        let profile = crate::temp_dir("chromium");
        // playwright passes the profile itself (`--user-data-dir=PROFILE`, from
        // SEVENBAG_USER_DATA_DIR): it refuses the flag among the others.
        let flags: Vec<String> = CHROMIUM_FLAGS.iter().map(|f| f.to_string()).collect();
        let script = repo_root().join("tests/browser/drive.cjs");
        let mut driver = Command::new("node")
            .arg(&script)
            .env("NODE_PATH", modules)
            .env("SEVENBAG_CHROMIUM", chromium)
            .env("SEVENBAG_USER_DATA_DIR", profile.path())
            .env("SEVENBAG_CHROMIUM_ARGS", serde_json::to_string(&flags)?)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .context("spawning node")?;
        let stdout = driver.stdout.take().context("driver stdout")?;
        let stdin = driver.stdin.take();
        let (tx, answers) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut browser = Browser {
            driver,
            stdin,
            answers,
            profile,
            shots: 0,
        };
        let ready = browser.answer(START_LIMIT)?;
        if ready.get("ready") != Some(&Value::Bool(true)) {
            bail!("the driver did not start: {ready}");
        }
        Ok(browser)
    }

    /// The next answer line as JSON, within `limit`; an error for `{"ok": false}`.
    fn answer(&mut self, limit: Duration) -> anyhow::Result<Value> {
        let line = self
            .answers
            .recv_timeout(limit)
            .with_context(|| format!("no answer from the browser driver within {limit:?}"))?;
        let value: Value =
            serde_json::from_str(&line).with_context(|| format!("not JSON: {line}"))?;
        if value.get("ok") != Some(&Value::Bool(true)) {
            bail!("browser driver: {}", value["error"]);
        }
        Ok(value)
    }

    fn command(&mut self, command: Value) -> anyhow::Result<Value> {
        let stdin = self.stdin.as_mut().context("driver closed")?;
        writeln!(stdin, "{command}").context("writing to the driver")?;
        stdin.flush()?;
        let answer = self.answer(COMMAND_LIMIT)?;
        Ok(answer.get("value").cloned().unwrap_or(Value::Null))
    }

    /// Opens `url` (returns once the page's response arrived, not when it is drawn).
    pub fn goto(&mut self, url: &str) -> anyhow::Result<()> {
        self.command(json!({ "cmd": "goto", "url": url }))?;
        Ok(())
    }

    /// A PNG screenshot of the 1280×720 viewport.
    pub fn screenshot(&mut self) -> anyhow::Result<Vec<u8>> {
        self.shots += 1;
        let path = self.profile.path().join(format!("shot-{}.png", self.shots));
        self.command(json!({ "cmd": "screenshot", "path": path }))?;
        let png = std::fs::read(&path)?;
        let _ = std::fs::remove_file(&path);
        Ok(png)
    }

    /// `page.evaluate(expr)`: the expression's value (a promise is awaited).
    pub fn eval(&mut self, expr: &str) -> anyhow::Result<Value> {
        self.command(json!({ "cmd": "eval", "expr": expr }))
    }

    /// Presses each key in turn (playwright's names: `Enter`, `ArrowUp`, `Space`, `KeyA`...),
    /// each held `hold` long, with the game's canvas focused.
    pub fn keys(&mut self, keys: &[&str], hold: Duration) -> anyhow::Result<()> {
        let hold = hold.as_millis() as u64;
        self.command(json!({ "cmd": "keys", "keys": keys, "hold": hold }))?;
        Ok(())
    }

    /// Freezes the page (no script, no animation frames, no socket events: a background tab at
    /// its worst) or thaws it.
    pub fn freeze(&mut self, frozen: bool) -> anyhow::Result<()> {
        self.command(json!({ "cmd": "freeze", "frozen": frozen }))?;
        Ok(())
    }

    /// Types `text` into the game's canvas (character events, as a person typing).
    pub fn type_text(&mut self, text: &str) -> anyhow::Result<()> {
        self.command(json!({ "cmd": "type", "text": text }))?;
        Ok(())
    }

    /// The game's test hook: the JSON summary it keeps on `<html data-sevenbag>` (see
    /// client/src/probe.rs), or `Null` before the game wrote one (or while a navigation has
    /// no document yet: the read is then answered, not an error).
    pub fn state(&mut self) -> anyhow::Result<Value> {
        let text = self.eval(
            "(document.documentElement && document.documentElement.dataset.sevenbag) || ''",
        )?;
        let text = text.as_str().unwrap_or_default();
        if text.is_empty() {
            return Ok(Value::Null);
        }
        serde_json::from_str(text).with_context(|| format!("the page's state is not JSON: {text}"))
    }

    /// Reads [`Browser::state`] until `done` holds for it, within `limit`; the last state seen
    /// is in the error.
    pub fn wait_state(
        &mut self,
        limit: Duration,
        what: &str,
        mut done: impl FnMut(&Value) -> bool,
    ) -> anyhow::Result<Value> {
        let start = Instant::now();
        let mut last = Value::Null;
        while start.elapsed() < limit {
            last = self.state()?;
            if done(&last) {
                return Ok(last);
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        bail!("{what}: not within {limit:?}; the page's state: {last}")
    }

    /// Everything the page logged since it was opened, as `(type, text)`: console messages
    /// (`log`, `warning`, `error`...), `pageerror` (uncaught exceptions), `requestfailed`, and
    /// `http` (answers with a status of 400 or more).
    pub fn console(&mut self) -> anyhow::Result<Vec<(String, String)>> {
        let value = self.command(json!({ "cmd": "console" }))?;
        let list = value.as_array().cloned().unwrap_or_default();
        Ok(list
            .iter()
            .map(|m| {
                let field = |k: &str| m[k].as_str().unwrap_or_default().to_string();
                (field("type"), field("text"))
            })
            .collect())
    }
}

/// One finger of a [`Browser::touch`] event: CSS pixels, and an id that stays the finger's
/// while it is down.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Finger {
    /// CSS pixels from the left of the viewport.
    pub x: f64,
    /// CSS pixels from the top of the viewport.
    pub y: f64,
    /// The finger's id.
    pub id: u32,
}

/// What a [`Browser::touch`] event does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TouchKind {
    /// Fingers go down (the points are every finger down after it).
    Start,
    /// Fingers move.
    Move,
    /// Fingers lift (the points are the fingers still down).
    End,
    /// The touches are cancelled.
    Cancel,
}

/// A file the page downloaded, saved under the browser's profile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Download {
    /// The name the page gave it.
    pub name: String,
    /// Where it was saved, if it was.
    pub path: Option<PathBuf>,
}

/// Where the browser tests keep the screenshots a person should look at:
/// `target/browser-shots/` in the repository.
pub fn shots_dir() -> PathBuf {
    repo_root().join("target").join("browser-shots")
}

/// Phones, touch and the page's own browser features (downloads, file pickers, clipboard).
impl Browser {
    /// Starts the browser again (same profile, so the page's storage stays) as a phone: a
    /// 390×844 CSS-pixel portrait viewport at device scale 3, a mobile viewport (the page's
    /// `<meta name="viewport">` counts) and a touch screen.
    pub fn as_phone(&mut self) -> anyhow::Result<()> {
        self.command(json!({ "cmd": "device", "profile": "phone" }))?;
        Ok(())
    }

    /// A tap at CSS pixels `(x, y)` (a phone only: [`Browser::as_phone`]).
    pub fn tap(&mut self, x: f64, y: f64) -> anyhow::Result<()> {
        self.command(json!({ "cmd": "tap", "x": x, "y": y }))?;
        Ok(())
    }

    /// One raw touch event; `fingers` are the fingers down after it (several at once for
    /// multi-touch).
    pub fn touch(&mut self, kind: TouchKind, fingers: &[Finger]) -> anyhow::Result<()> {
        let kind = match kind {
            TouchKind::Start => "start",
            TouchKind::Move => "move",
            TouchKind::End => "end",
            TouchKind::Cancel => "cancel",
        };
        let points: Vec<Value> = fingers
            .iter()
            .map(|f| json!({ "x": f.x, "y": f.y, "id": f.id }))
            .collect();
        self.command(json!({ "cmd": "touch", "kind": kind, "points": points }))?;
        Ok(())
    }

    /// Samples the page's script for `ms` milliseconds (Chromium's profiler): the time sampled
    /// and the functions with the most self time, each `[name, self ms, total ms]`.
    pub fn profile(&mut self, ms: u32) -> anyhow::Result<Value> {
        self.command(json!({ "cmd": "profile", "ms": ms }))
    }

    /// Slows the page's CPU `rate` times (Chromium's DevTools throttling; 1 is off).
    pub fn throttle(&mut self, rate: f64) -> anyhow::Result<()> {
        self.command(json!({ "cmd": "throttle", "rate": rate }))?;
        Ok(())
    }

    /// Reloads the page (returns once the new page's response arrived).
    pub fn reload(&mut self) -> anyhow::Result<()> {
        self.command(json!({ "cmd": "reload" }))?;
        Ok(())
    }

    /// Types `text` into whatever element has the focus (the on-screen keyboard's input).
    pub fn type_focused(&mut self, text: &str) -> anyhow::Result<()> {
        self.command(json!({ "cmd": "type_focused", "text": text }))?;
        Ok(())
    }

    /// Presses one key (playwright's names) in whatever element has the focus.
    pub fn press_focused(&mut self, key: &str) -> anyhow::Result<()> {
        self.command(json!({ "cmd": "press_focused", "key": key }))?;
        Ok(())
    }

    /// Every file the page has downloaded so far.
    pub fn downloads(&mut self) -> anyhow::Result<Vec<Download>> {
        let list = self.command(json!({ "cmd": "downloads" }))?;
        Ok(list
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or_default()
            .iter()
            .map(|d| Download {
                name: d["name"].as_str().unwrap_or_default().to_string(),
                path: d["path"].as_str().map(PathBuf::from),
            })
            .collect())
    }

    /// The page's next file picker gets `paths` instead of showing a dialog.
    pub fn choose_files(&mut self, paths: &[&Path]) -> anyhow::Result<()> {
        self.command(json!({ "cmd": "choose_files", "paths": paths }))?;
        Ok(())
    }

    /// Grants the page browser permissions (`clipboard-read`, `clipboard-write`...).
    pub fn grant(&mut self, permissions: &[&str]) -> anyhow::Result<()> {
        self.command(json!({ "cmd": "grant", "permissions": permissions }))?;
        Ok(())
    }

    /// Takes a screenshot and keeps it as `shots_dir()/NAME.png` for a person to look at;
    /// returns its bytes.
    pub fn keep_screenshot(&mut self, name: &str) -> anyhow::Result<Vec<u8>> {
        let png = self.screenshot()?;
        let dir = shots_dir();
        std::fs::create_dir_all(&dir)?;
        std::fs::write(dir.join(format!("{name}.png")), &png)?;
        Ok(png)
    }
}

/// Kills every process whose command line mentions `marker` (the browser's own profile
/// directory: only the processes of this browser).
fn kill_processes_naming(marker: &Path) {
    let marker = marker.to_string_lossy().into_owned();
    let Ok(procs) = std::fs::read_dir("/proc") else {
        return;
    };
    let me = std::process::id().to_string();
    for entry in procs.filter_map(Result::ok) {
        let pid = entry.file_name().to_string_lossy().into_owned();
        if !pid.bytes().all(|b| b.is_ascii_digit()) || pid == me {
            continue;
        }
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        if String::from_utf8_lossy(&cmdline).contains(&marker) {
            let _ = Command::new("kill").args(["-KILL", &pid]).status();
        }
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if let Some(mut stdin) = self.stdin.take() {
            let _ = writeln!(stdin, "{}", json!({ "cmd": "close" }));
            // Closing stdin also tells the driver to close the browser.
        }
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.driver.try_wait() {
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
        // The profile directory goes when `profile` drops, after this.
        kill_processes_naming(self.profile.path());
    }
}
