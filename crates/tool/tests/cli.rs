//! Runs the built `sevenbag-tool` binary: `bag` against the golden letters, `sim` against the
//! golden match, and the clean failures for bad arguments and bad scripts.

use std::path::PathBuf;
use std::process::{Command, Output};

/// The first 70 pieces of the 7-bag for seed 0 (pinned in crates/core/tests/golden.rs).
const SEVEN_BAG_SEED_0: &str =
    "TIOJZSLIJLOTSZJILTOZSLSTZOJIIZJLTOSSZLJITOJZTLOSIOJTSZLIJOSLITZSIZTLJO";
/// The final state hash of the golden script (pinned in crates/core/tests/golden.rs).
const GOLDEN_HASH: &str = "2e6126b828bb6b84";
/// The golden script, in the core's test data.
const GOLDEN_SCRIPT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../core/tests/data/golden_match.script"
);

fn tool(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sevenbag-tool"))
        .args(args)
        .output()
        .expect("run sevenbag-tool")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Asserts a clean failure: non-zero exit, no panic, and `needle` in the message.
fn assert_fails_with(out: &Output, needle: &str) {
    let err = stderr(out);
    assert!(
        !out.status.success(),
        "should fail; stdout: {}",
        stdout(out)
    );
    assert!(!err.contains("panicked"), "panicked: {err}");
    assert!(err.contains(needle), "expected {needle:?} in: {err}");
}

/// Writes `text` to a fresh file under the test's scratch directory.
fn scratch(name: &str, text: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, text).expect("write scratch file");
    path
}

#[test]
fn bag_prints_the_golden_pieces_for_seed_0() {
    let out = tool(&["bag", "--seed", "0"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out).trim(), SEVEN_BAG_SEED_0);
}

#[test]
fn bag_refuses_an_unknown_randomizer() {
    let out = tool(&["bag", "--seed", "0", "--randomizer", "8bag"]);
    assert_fails_with(&out, "unknown randomizer");
}

#[test]
fn sim_on_the_golden_script_prints_the_golden_hash() {
    let out = tool(&["sim", "--script", GOLDEN_SCRIPT]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with(&format!("hash {GOLDEN_HASH}\n")), "{text}");
    assert!(text.contains("\nframe 3600\n"), "{text}");
    assert!(text.contains("\nphase playing\n"), "{text}");
    assert!(text.contains("\nwins 1 0\n"), "{text}");
    assert!(text.contains("\np1 pieces 35 "), "{text}");
    assert!(text.contains("\np2 pieces 38 "), "{text}");
}

#[test]
fn sim_can_print_the_hash_along_the_way() {
    let path = scratch("short.script", "seed 3\nframes 120\n0 - -\n100 H H\n");
    let out = tool(&[
        "sim",
        "--script",
        path.to_str().unwrap(),
        "--hash-every",
        "60",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("frame 60 hash "), "{text}");
    assert!(text.contains("\nframe 120 hash "), "{text}");
    assert!(text.contains("\nphase countdown"), "{text}");
}

#[test]
fn sim_reports_a_missing_script_file() {
    let out = tool(&["sim", "--script", "/no/such/dir/missing.script"]);
    assert_fails_with(&out, "cannot read script");
}

#[test]
fn sim_reports_the_line_of_a_malformed_script() {
    let path = scratch(
        "malformed.script",
        "seed 1\nframes 100\n0 - -\n# fine so far\n10 LX -\n",
    );
    let out = tool(&["sim", "--script", path.to_str().unwrap()]);
    assert_fails_with(&out, "line 5: player 1: unknown key `X`");
}

#[test]
fn sim_reports_a_script_without_a_seed() {
    let path = scratch("seedless.script", "frames 100\n");
    let out = tool(&["sim", "--script", path.to_str().unwrap()]);
    assert_fails_with(&out, "no `seed N` line");
}

#[test]
fn sim_requires_a_script_argument() {
    let out = tool(&["sim"]);
    assert_fails_with(&out, "--script");
}

/// A real short replay, then a forgery: both seats claim 4,294,967,294 confirmed
/// frames and the checksum is recomputed. `replay verify` must refuse it at once.
#[test]
fn replay_verify_refuses_a_forged_frame_count_at_once() {
    use sevenbag_core::{Input, MatchHeader, Seat};
    use sevenbag_protocol::{ConfirmedSim, EndReason, Replay, SeatInputs};

    let mut header = MatchHeader::versus(7);
    header.rules.first_to = 1;
    let drops: Vec<Input> = (0..600)
        .map(|f| {
            if f % 8 == 0 {
                Input::HARD_DROP
            } else {
                Input::NONE
            }
        })
        .collect();
    let inputs = SeatInputs::from_masks(&drops);
    let mut sim = ConfirmedSim::new(header);
    for seat in Seat::BOTH {
        sim.extend(seat, &inputs.changes, inputs.confirmed)
            .expect("valid inputs");
    }
    sim.advance();
    let mut replay = Replay::record(&sim, ["a".into(), "b".into()], None, EndReason::Shutdown, 0);
    let honest = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("honest.sbrp");
    std::fs::write(&honest, replay.encode().expect("encode")).expect("write");
    let out = tool(&["replay", "verify", honest.to_str().expect("utf-8 path")]);
    assert!(out.status.success(), "{}", stderr(&out));

    for seat in &mut replay.inputs {
        seat.confirmed = u32::MAX - 1;
    }
    let forged = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("forged.sbrp");
    std::fs::write(&forged, replay.encode().expect("encode")).expect("write");
    let started = std::time::Instant::now();
    let out = tool(&["replay", "verify", forged.to_str().expect("utf-8 path")]);
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
    assert_fails_with(&out, "more than a match may last");
}

// Puzzles: generate, check, share codes.

#[test]
fn puzzle_gen_output_checks_out_and_solves() {
    let out = tool(&["puzzle", "gen", "--kind", "tspin", "--seed", "7"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let file = scratch("puzzle_tspin_7.txt", &stdout(&out));
    let file = file.to_str().expect("utf-8 path");
    let check = tool(&["puzzle", "check", file]);
    assert!(check.status.success(), "{}", stderr(&check));
    assert!(stdout(&check).starts_with("ok: "), "{}", stdout(&check));
    let solve = tool(&["puzzle", "solve", file]);
    assert!(solve.status.success(), "{}", stderr(&solve));
}

#[test]
fn puzzle_check_refuses_a_malformed_file_with_its_line() {
    let text = stdout(&tool(&["puzzle", "gen", "--kind", "pc", "--seed", "2"]));
    let bad = text.replacen("hold off", "hold sometimes", 1);
    let file = scratch("puzzle_bad_hold.txt", &bad);
    let out = tool(&["puzzle", "check", file.to_str().expect("utf-8 path")]);
    assert_fails_with(&out, "line 6: hold must be `on` or `off`");
}

#[test]
fn puzzle_gen_refuses_impossible_options() {
    let out = tool(&["puzzle", "gen", "--kind", "pc", "--pieces", "6"]);
    assert_fails_with(&out, "the rows to clear hold only 20");
}

// Files that are not replays: a clear error at once, never a hang or the memory running out.

/// Runs the tool with a bound on its time: a hang is a failure, not a stuck test.
fn tool_within(args: &[&str], limit: std::time::Duration) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sevenbag-tool"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run sevenbag-tool");
    let start = std::time::Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("sevenbag-tool {args:?} did not finish within {limit:?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.wait_with_output().expect("output")
}

#[test]
fn replay_info_on_dev_zero_is_a_clear_error_at_once() {
    let out = tool_within(
        &["replay", "info", "/dev/zero"],
        std::time::Duration::from_secs(5),
    );
    assert_fails_with(
        &out,
        "cannot read /dev/zero: not a regular file (a character device)",
    );
}

#[test]
fn replay_info_on_a_fifo_is_a_clear_error_at_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    let fifo = dir.path().join("replay.sbrp");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(made.success());
    let fifo = fifo.to_str().expect("utf-8 path");
    for action in ["info", "verify"] {
        let out = tool_within(&["replay", action, fifo], std::time::Duration::from_secs(5));
        assert_fails_with(&out, "not a regular file (a FIFO)");
    }
}

#[test]
fn replay_info_refuses_a_file_over_the_format_limit_without_reading_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let big = dir.path().join("big.sbrp");
    std::fs::File::create(&big)
        .and_then(|f| f.set_len(1 << 30))
        .expect("a sparse 1 GiB file");
    let out = tool_within(
        &["replay", "info", big.to_str().expect("utf-8 path")],
        std::time::Duration::from_secs(5),
    );
    assert_fails_with(&out, "1073741824 bytes: over the 67108864-byte limit");
}
