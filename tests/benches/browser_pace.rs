//! The page's pace in a real browser: frames a second and each frame's script time on the
//! menu and in a practice match against Max, unthrottled and with Chromium's CPU throttling at
//! 4× (a phone-class CPU); Max's thinking (per plan, most in one frame, frames a plan); and the
//! drawing a match frame asks of WebGL (draw calls, indices, bytes uploaded).
//!
//! Run: `cargo bench -p sevenbag-tests --bench browser_pace [-- 4x|unthrottled]` (about
//! 16 s each; a plain binary). Needs what tests/tests/browser/browser.rs needs. Headless Chromium draws
//! with SwiftShader (software WebGL), so drawing costs CPU here that a phone spends on its GPU:
//! the figures are a floor. `BENCH` lines are figures; no speed is asserted (BENCHMARKS.md, "The
//! page"). That a practice match against Max runs in the page with a clean console is a test:
//! tests/tests/browser/browser_play.rs.

use std::time::Duration;

use sevenbag_tests::page::{FIRST_SCREEN_LIMIT, STEP_LIMIT, Site, screen};
use tokio::task::block_in_place;

/// Over `ms` milliseconds: animation frames per second, and the mean, longest, median and 95th
/// centile of the time a frame's script took (the game's whole frame: its update, drawing
/// calls and the plugin), measured by wrapping `requestAnimationFrame` (gl.js asks for each
/// frame through it). On a shared machine the longest is mostly the other jobs taking the CPU
/// mid-frame; the median is the page's own.
fn frame_probe(ms: u32) -> String {
    format!(
        "new Promise(r => {{ const orig = window.requestAnimationFrame; const d = []; \
         window.requestAnimationFrame = cb => orig.call(window, t => {{ const s = performance.now(); \
           cb(t); d.push(performance.now() - s); }}); \
         const t0 = performance.now(); \
         setTimeout(() => {{ window.requestAnimationFrame = orig; \
           const secs = (performance.now() - t0) / 1000; const n = Math.max(d.length, 1); \
           const sorted = d.slice().sort((a, b) => a - b); \
           const at = q => sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : 0; \
           r([d.length / secs, d.reduce((a, b) => a + b, 0) / n, at(1), at(0.5), at(0.95)]); }}, {ms}); }})"
    )
}

/// Over `ms` milliseconds: per animation frame, the WebGL calls the game made (every method of
/// its context counted, the ones gl.js adds to it too), its draw calls, the indices they drew and the bytes of vertex and
/// index data uploaded, found by wrapping the WebGL context's methods.
fn gl_probe(ms: u32) -> String {
    format!(
        "new Promise(r => {{ const canvas = document.querySelector('canvas'); \
         const ctx = canvas.getContext('webgl2') || canvas.getContext('webgl'); \
         const targets = [ctx, Object.getPrototypeOf(ctx)]; \
         const saved = []; let calls = 0, draws = 0, indices = 0, bytes = 0, n = 0; \
         for (const p of targets) for (const name of Object.getOwnPropertyNames(p)) {{ \
           const d = Object.getOwnPropertyDescriptor(p, name); \
           if (!d || typeof d.value !== 'function' || (p !== ctx && saved.some(s => s[1] === name))) continue; \
           const f = d.value; saved.push([p, name, f]); \
           p[name] = function (...a) {{ calls++; \
             if (name.startsWith('drawElements')) {{ draws++; indices += a[1]; }} \
             if (name.startsWith('drawArrays')) {{ draws++; indices += a[2]; }} \
             if (name === 'bufferSubData' || name === 'bufferData') {{ const b = a[2] || a[1]; if (b && b.byteLength) bytes += b.byteLength; }} \
             return f.apply(this, a); }}; }} \
         const orig = window.requestAnimationFrame; \
         window.requestAnimationFrame = cb => orig.call(window, t => {{ n++; cb(t); }}); \
         setTimeout(() => {{ window.requestAnimationFrame = orig; \
           for (const [p, name, f] of saved) p[name] = f; \
           const k = Math.max(n, 1); r([calls / k, draws / k, indices / k, bytes / k]); }}, {ms}); }})"
    )
}

/// Opens the page, passes the welcome screen and waits on the menu.
async fn menu() -> Option<Site> {
    let mut site = Site::start(true).await?;
    site.open("/");
    let s = site.wait_state(FIRST_SCREEN_LIMIT, "the first screen", |s| {
        matches!(screen(s), "welcome" | "menu")
    });
    if screen(&s) == "welcome" {
        block_in_place(|| site.browser.type_text("bench")).expect("name");
        keys(&mut site, &["Enter"]);
        site.wait_state(STEP_LIMIT, "the menu", |s| screen(s) == "menu");
    }
    Some(site)
}

fn keys(site: &mut Site, keys: &[&str]) {
    block_in_place(|| site.browser.keys(keys, Duration::from_millis(40))).expect("keys");
}

/// From the menu, a practice match against Max (as browser_play.rs starts it); the player
/// leaves its pieces to gravity, so the match lasts while Max plays.
fn practice_against_max(site: &mut Site) {
    keys(site, &["Enter"]);
    site.wait_state(STEP_LIMIT, "the practice setup", |s| screen(s) == "setup");
    keys(
        site,
        &[
            "ArrowRight",
            "ArrowRight",
            "ArrowDown",
            "ArrowDown",
            "ArrowDown",
            "Enter",
        ],
    );
    site.wait_state(STEP_LIMIT, "the practice match", |s| screen(s) == "play");
}

/// One `BENCH` line's part about the match: frames, script, Max's thinking and the drawing.
fn match_figures(
    play: &serde_json::Value,
    gl: &serde_json::Value,
    s: &serde_json::Value,
) -> String {
    let f = |v: &serde_json::Value, i: usize| v[i].as_f64().unwrap_or(0.0);
    format!(
        "{:.1} frames/s ({:.2} ms script a frame, most {:.1}, median {:.2}, 95th centile {:.2}); Max: {} plans, {:.2} ms thinking \
         each, at most {:.2} ms thinking in one frame, plans over {:.2} frames on average (at \
         most {}), {} pieces; longest start, step and take-up of a plan (µs): {}; a frame: {:.0} \
         WebGL calls, {:.1} draw calls, {:.0} indices, {:.0} bytes uploaded",
        f(play, 0),
        f(play, 1),
        f(play, 2),
        f(play, 3),
        f(play, 4),
        s["plans"],
        s["plan_mean_us"].as_f64().unwrap_or(0.0) / 1000.0,
        s["think_frame_max_us"].as_f64().unwrap_or(0.0) / 1000.0,
        s["plan_frames_mean_x100"].as_f64().unwrap_or(0.0) / 100.0,
        s["plan_frames_max"],
        s["pieces"][1],
        s["plan_parts_max_us"],
        f(gl, 0),
        f(gl, 1),
        f(gl, 2),
        f(gl, 3),
    )
}

/// With `SEVENBAG_PAGE_PROFILE=1`: samples the page's script for 5 s and prints where its time
/// went, by function (names need a build that keeps them: `CARGO_PROFILE_WEB_STRIP=none`).
fn profile_if_asked(site: &mut Site) {
    if std::env::var_os("SEVENBAG_PAGE_PROFILE").is_none() {
        return;
    }
    let p = block_in_place(|| site.browser.profile(5000)).expect("profile");
    println!(
        "PROFILE {:.0} ms sampled: [function, self ms, total ms]",
        p["ms"].as_f64().unwrap_or(0.0)
    );
    for f in p["functions"].as_array().into_iter().flatten() {
        println!("PROFILE {f}");
    }
}

/// The menu unthrottled and at 4×, then practice against Max at 4× from its first frame.
async fn at_4x() {
    let Some(mut site) = menu().await else {
        return;
    };
    let menu = site.eval(&frame_probe(3000));
    block_in_place(|| site.browser.throttle(4.0)).expect("throttle");
    let menu4 = site.eval(&frame_probe(3000));
    // Throttled from the match's first frame.
    practice_against_max(&mut site);
    let play4 = site.eval(&frame_probe(10_000));
    let s = site.state();
    let gl = site.eval(&gl_probe(1000));
    profile_if_asked(&mut site);
    block_in_place(|| site.browser.throttle(1.0)).expect("unthrottle");
    let f = |v: &serde_json::Value, i: usize| v[i].as_f64().unwrap_or(0.0);
    println!(
        "BENCH browser 4x throttle: menu {:.1} frames/s ({:.2} ms script a frame, most {:.1}, \
         median {:.2}); menu at 4x {:.1} frames/s ({:.2} ms, most {:.1}, median {:.2}); practice \
         vs Max at 4x {}",
        f(&menu, 0),
        f(&menu, 1),
        f(&menu, 2),
        f(&menu, 3),
        f(&menu4, 0),
        f(&menu4, 1),
        f(&menu4, 2),
        f(&menu4, 3),
        match_figures(&play4, &gl, &s),
    );
    site.keep_screenshot("throttled-practice");
    site.assert_clean_console();
    site.stop().await;
}

/// Practice against Max unthrottled.
async fn unthrottled() {
    let Some(mut site) = menu().await else {
        return;
    };
    practice_against_max(&mut site);
    let play = site.eval(&frame_probe(10_000));
    let s = site.state();
    let gl = site.eval(&gl_probe(1000));
    profile_if_asked(&mut site);
    println!(
        "BENCH browser unthrottled: practice vs Max {}",
        match_figures(&play, &gl, &s)
    );
    site.keep_screenshot("unthrottled-practice");
    site.assert_clean_console();
    site.stop().await;
}

/// Runs each measurement, or those whose names contain an argument (`4x`, `unthrottled`);
/// cargo's own `--bench` flag is ignored.
fn main() {
    let wanted: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(4)
        .enable_all()
        .build()
        .expect("runtime");
    let picked = |name: &str| wanted.is_empty() || wanted.iter().any(|w| name.contains(w.as_str()));
    if picked("4x") {
        runtime.block_on(at_4x());
    }
    if picked("unthrottled") {
        runtime.block_on(unthrottled());
    }
}
