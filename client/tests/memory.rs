//! The game's resident memory stays flat: a demo match runs under Xvfb with `--memory-check`,
//! which samples the resident set and exits non-zero if it kept rising after the warm-up.
//!
//! The game needs a display. In CI (`CI` set) Xvfb is installed by `.ci/run` and its absence is
//! a failure; elsewhere the test skips, saying so, when `xvfb-run` is not installed.

use std::process::Command;

/// Frames of the demo: 40 seconds of match time, long enough for a per-frame leak to show
/// against the warm-up (fonts, shaders, the bots' first searches).
const FRAMES: &str = "2400";

fn has_xvfb_run() -> bool {
    Command::new("sh")
        .args(["-c", "command -v xvfb-run"])
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn a_long_demo_keeps_its_resident_memory_flat() {
    if !has_xvfb_run() {
        assert!(
            std::env::var_os("CI").is_none(),
            "xvfb-run is missing in CI: .ci/run installs xvfb"
        );
        eprintln!(
            "skipped: xvfb-run is not installed (apt-get install xvfb), so the game cannot open a window"
        );
        return;
    }
    let config = tempfile::tempdir().expect("temp dir");
    let data = tempfile::tempdir().expect("temp dir");
    let out = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x720x24"])
        .arg(env!("CARGO_BIN_EXE_sevenbag"))
        .args(["--demo", "--frames", FRAMES, "--memory-check"])
        .env("XDG_CONFIG_HOME", config.path())
        .env("XDG_DATA_HOME", data.path())
        .output()
        .expect("xvfb-run starts");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stdout.contains("memory check:"),
        "no verdict printed; stdout:\n{stdout}\nstderr:\n{stderr}"
    );
    assert!(
        out.status.success(),
        "the resident set kept rising:\n{stdout}\nstderr:\n{stderr}"
    );
}
