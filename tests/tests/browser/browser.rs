//! End-to-end in a real browser: the server serves the browser build of the game
//! (`--web-dir target/web`), headless Chromium opens `/` and shows the menu, then opens
//! `/watch/CODE` for a match between two headless players and shows both boards moving, and
//! the page logs no error. Needs Debian's `chromium`, node with playwright-core
//! (`bash tests/browser/install`) and the build (`bash client/web/build`); `.ci/run` does all
//! three. It skips when they are missing (`sevenbag_tests::needs`).
//!
//! It also prints the figures BENCHMARKS.md records (time to the menu, frames per second while
//! spectating); it asserts no speed.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use image::RgbaImage;
use sevenbag_protocol::RoomOptions;
use sevenbag_server::Config;
use sevenbag_tests::browser::{self, Browser};
use sevenbag_tests::players::{match_config, play, room};
use tokio::task::block_in_place;

/// Distinct colours that mean "something was drawn": a blank or single-colour page has 1–3,
/// the menu's anti-aliased text and panels have hundreds.
const DRAWN_COLOURS: usize = 24;
/// Longest wait for the page to draw its menu (the wasm compiles under software rendering on a
/// busy 2-core machine).
const MENU_LIMIT: Duration = Duration::from_secs(60);
/// Longest wait for both boards to change once the match runs.
const BOARDS_LIMIT: Duration = Duration::from_secs(45);
/// How long the players play at most (the test stops them once it has seen enough).
const MATCH_TIMEOUT: Duration = Duration::from_secs(120);
/// A board region has changed when at least this share of its pixels differ.
const CHANGED_SHARE: f64 = 0.002;

/// The two board regions of a 1280×720 spectator view, as fractions (x0, y0, x1, y1) of the
/// window: the inner part of each playfield (left board about 15–36 % of the width, right
/// about 65–86 %, both 12–88 % of the height), leaving out the hold and next panels, the
/// stats and the clock, which change by themselves.
const BOARDS: [(f64, f64, f64, f64); 2] = [(0.16, 0.2, 0.35, 0.86), (0.66, 0.2, 0.85, 0.86)];

/// A `requestAnimationFrame` counter over `ms` milliseconds: frames per second.
fn fps_probe(ms: u32) -> String {
    format!(
        "new Promise(r => {{ let n = 0; const t0 = performance.now(); \
         function f() {{ n++; if (performance.now() - t0 < {ms}) requestAnimationFrame(f); \
         else r(n * 1000 / (performance.now() - t0)); }} requestAnimationFrame(f); }})"
    )
}

fn decode(png: &[u8]) -> RgbaImage {
    image::load_from_memory(png)
        .expect("a PNG screenshot")
        .to_rgba8()
}

fn distinct_colours(img: &RgbaImage) -> usize {
    img.pixels()
        .map(|p| [p[0], p[1], p[2]])
        .collect::<HashSet<_>>()
        .len()
}

/// The share of pixels that differ between `a` and `b` inside `region` (fractions).
fn changed_share(a: &RgbaImage, b: &RgbaImage, region: (f64, f64, f64, f64)) -> f64 {
    let (w, h) = (a.width().min(b.width()), a.height().min(b.height()));
    let (x0, y0) = ((region.0 * w as f64) as u32, (region.1 * h as f64) as u32);
    let (x1, y1) = ((region.2 * w as f64) as u32, (region.3 * h as f64) as u32);
    let mut changed = 0u64;
    let mut total = 0u64;
    for y in y0..y1 {
        for x in x0..x1 {
            total += 1;
            if a.get_pixel(x, y) != b.get_pixel(x, y) {
                changed += 1;
            }
        }
    }
    changed as f64 / total.max(1) as f64
}

/// Screenshots until the page shows at least [`DRAWN_COLOURS`] colours, within `limit`.
/// Returns the screenshot and the time it took.
fn wait_until_drawn(browser: &mut Browser, limit: Duration, what: &str) -> (RgbaImage, Duration) {
    let start = Instant::now();
    let mut colours = 0;
    let mut last_error = String::from("none");
    while start.elapsed() < limit {
        // A page still compiling its wasm can miss a screenshot's deadline: try again.
        match browser.screenshot() {
            Ok(png) => {
                let shot = decode(&png);
                colours = distinct_colours(&shot);
                if colours >= DRAWN_COLOURS {
                    return (shot, start.elapsed());
                }
            }
            Err(e) => {
                last_error = format!("{e:#}");
                eprintln!("{what}: screenshot failed: {last_error}");
                std::thread::sleep(Duration::from_millis(500));
            }
        }
    }
    let console = browser.console().unwrap_or_default();
    panic!(
        "{what}: only {colours} colours on screen after {limit:?}; last screenshot error: \
         {last_error}; console: {console:?}"
    );
}

/// One screenshot, decoded; a failure panics with the driver's message (no backtrace).
fn shot(browser: &mut Browser) -> RgbaImage {
    match block_in_place(|| browser.screenshot()) {
        Ok(png) => decode(&png),
        Err(e) => panic!("screenshot: {e:#}"),
    }
}

/// The console lines that are errors: uncaught exceptions, `console.error`, failed requests,
/// HTTP errors.
fn errors(log: &[(String, String)]) -> Vec<String> {
    log.iter()
        .filter(|(kind, _)| {
            matches!(
                kind.as_str(),
                "error" | "pageerror" | "requestfailed" | "http"
            )
        })
        .map(|(kind, text)| format!("{kind}: {text}"))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_browser_game_shows_its_menu_and_spectates_a_match_without_errors() {
    let Some(web_dir) = browser::web_build() else {
        return;
    };
    let Some(mut browser) = Browser::launch() else {
        return;
    };
    let mut server = sevenbag_tests::start_server(Config {
        web_dir: Some(web_dir),
        ..match_config(Duration::from_millis(500))
    })
    .await;
    let base = format!("http://{}", server.addr());

    // 1. The menu.
    let started = Instant::now();
    block_in_place(|| browser.goto(&format!("{base}/"))).expect("open /");
    let (menu, _) = block_in_place(|| wait_until_drawn(&mut browser, MENU_LIMIT, "the menu at /"));
    let to_menu = started.elapsed();
    eprintln!(
        "BENCH browser: menu visible {:.2} s after opening / ({} colours)",
        to_menu.as_secs_f64(),
        distinct_colours(&menu)
    );
    let log = block_in_place(|| browser.console()).expect("console");
    assert!(errors(&log).is_empty(), "errors on /: {:#?}", errors(&log));

    // 2. A match between two headless players, spectated at /watch/CODE.
    let options = RoomOptions {
        first_to: 3,
        ..RoomOptions::default()
    };
    let (mut alice, mut bob, _, code) = room(&server.url(), options, false).await;
    block_in_place(|| browser.goto(&format!("{base}/watch/{code}"))).expect("open /watch/CODE");
    block_in_place(|| wait_until_drawn(&mut browser, MENU_LIMIT, "the spectator view"));
    alice.ready().expect("ready");
    bob.ready().expect("ready");
    let a = play(alice, Some(21), (6, 14), MATCH_TIMEOUT);
    let b = play(bob, Some(22), (6, 14), MATCH_TIMEOUT);

    // Both boards change: screenshots until each board region differs from the first one.
    let first = shot(&mut browser);
    let start = Instant::now();
    let mut seen = [false; 2];
    let mut shares = [0.0; 2];
    while !(seen[0] && seen[1]) && start.elapsed() < BOARDS_LIMIT {
        let now = shot(&mut browser);
        for (i, region) in BOARDS.iter().enumerate() {
            shares[i] = changed_share(&first, &now, *region);
            seen[i] |= shares[i] >= CHANGED_SHARE;
        }
    }
    assert!(
        seen[0] && seen[1],
        "both boards change while spectating (changed shares {shares:?} after {BOARDS_LIMIT:?})"
    );
    let fps = block_in_place(|| browser.eval(&fps_probe(3000))).expect("fps probe");
    eprintln!(
        "BENCH browser: spectating at {:.1} frames/s (requestAnimationFrame over 3 s)",
        fps.as_f64().unwrap_or(0.0)
    );

    // 3. No errors in the console, from either page.
    let log = block_in_place(|| browser.console()).expect("console");
    assert!(
        errors(&log).is_empty(),
        "browser errors: {:#?}",
        errors(&log)
    );

    a.abort();
    b.abort();
    drop(browser);
    server.shutdown().await.expect("shutdown");
}
