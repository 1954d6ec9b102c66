//! A replay of eight seats plays in the game with every board: a scripted eight-seat match is
//! written as a version-2 replay file, the game opens it with `--replay` under Xvfb and saves
//! frame 200 as a PNG (kept as `battle_replay_8.png` in Cargo's test temp directory, to look
//! at), and the picture holds pieces on the large board and on the seven small ones.
//!
//! The game needs a display: without `xvfb-run` the test skips, saying so (a failure in CI, as
//! in `memory.rs`).

use std::process::Command;

use image::GenericImageView;
use sevenbag_core::{BattleHeader, Input};
use sevenbag_protocol::{BattleReplay, BattleSim, EndReason, InputLog, TargetChange};

fn has_xvfb_run() -> bool {
    Command::new("sh")
        .args(["-c", "command -v xvfb-run"])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Eight seats, seat `s` dropping every `35 - 3s` frames with a tap left or right between (seat
/// 0, drawn large, the slowest, so it is still in at the frame shot).
fn eight_seat_replay() -> BattleReplay {
    let mut header = BattleHeader::new(0x5EED_0008, 8);
    header.rules.first_to = 1;
    header.rules.countdown_frames = 10;
    let mut sim = BattleSim::new(header).expect("a valid header");
    let frames = 1200;
    for s in 0..8u32 {
        let tap = if s % 2 == 0 {
            Input::LEFT
        } else {
            Input::RIGHT
        };
        let masks: Vec<Input> = (0..frames)
            .map(|f| match f % (35 - 3 * s) {
                0 => Input::HARD_DROP,
                4 if f % 3 == 0 => tap,
                _ => Input::NONE,
            })
            .collect();
        let changes = InputLog::diff(&masks, 0, Input::NONE);
        let target = [TargetChange {
            frame: 0,
            target: Some(((s + 1) % 8) as u8),
        }];
        sim.extend(s as usize, &changes, &target, frames)
            .expect("valid lists");
    }
    sim.advance();
    let names = (0..8).map(|s| format!("seat{s}")).collect();
    let (winner, placements) = (sim.winner(), sim.placements());
    BattleReplay::record(&sim, names, winner, EndReason::TopOut, placements, 0)
}

/// Pixels of `img` inside `(x0, y0)..(x1, y1)` bright and saturated enough to be a piece.
fn piece_pixels(img: &image::DynamicImage, x0: u32, y0: u32, x1: u32, y1: u32) -> usize {
    let mut n = 0;
    for y in y0..y1 {
        for x in x0..x1 {
            let [r, g, b, _] = img.get_pixel(x, y).0;
            let (hi, lo) = (r.max(g).max(b), r.min(g).min(b));
            if hi > 150 && hi - lo > 80 {
                n += 1;
            }
        }
    }
    n
}

#[test]
fn an_eight_seat_replay_plays_with_every_board() {
    if !has_xvfb_run() {
        assert!(
            std::env::var_os("CI").is_none(),
            "xvfb-run is missing in CI: .ci/run installs xvfb"
        );
        eprintln!("skipped: xvfb-run is not installed, so the game cannot open a window");
        return;
    }
    let replay = eight_seat_replay();
    assert!(
        replay.result.frames > 200,
        "still playing at the frame shot"
    );
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("eight.sbrp");
    std::fs::write(&file, replay.encode().expect("encodes")).expect("write the replay");
    let shot = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("battle_replay_8.png");
    let _ = std::fs::remove_file(&shot);
    let out = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x720x24"])
        .arg(env!("CARGO_BIN_EXE_sevenbag"))
        .arg("--replay")
        .arg(&file)
        .args([
            "--frames",
            "200",
            "--window-size",
            "1280x720",
            "--screenshot",
        ])
        .arg(&shot)
        .env("XDG_CONFIG_HOME", dir.path().join("config"))
        .env("XDG_DATA_HOME", dir.path().join("data"))
        .output()
        .expect("xvfb-run starts");
    assert!(
        out.status.success(),
        "the game failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let img = image::open(&shot).expect("the screenshot is a PNG");
    let (w, h) = img.dimensions();
    assert!(w >= 1280 && h >= 720, "{w}x{h}");
    let (w, h) = (1280, 720);
    // Seat 0's large board left of its next queue; the seven small boards in two rows on the
    // right half.
    let n = piece_pixels(&img, 0, 0, w * 34 / 100, h);
    assert!(n > 5_000, "pieces on the large board: {n}");
    for (y0, y1) in [(h / 10, h / 2), (h / 2, h * 19 / 20)] {
        let n = piece_pixels(&img, w / 2, y0, w, y1);
        assert!(n > 3_000, "pieces on a row of small boards: {n}");
    }
}
