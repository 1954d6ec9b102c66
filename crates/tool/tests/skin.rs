//! Runs the built `sevenbag-tool` binary: `skin check` on the skin crate's committed samples
//! and on files it must refuse.

use std::path::PathBuf;
use std::process::{Command, Output};

/// The skin crate's sample skins.
const SAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../skin/tests/samples");

fn skin_check(file: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sevenbag-tool"))
        .args(["skin", "check", file])
        .output()
        .expect("run sevenbag-tool")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The three lines `skin check` prints for a good file, the id checked for shape only.
fn assert_checks_as(out: &Output, layout: &str, tile: u32) {
    assert!(out.status.success(), "{}", stderr(out));
    let text = stdout(out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert_eq!(lines[0], format!("layout: {layout}"));
    assert_eq!(lines[1], format!("tile: {tile} px"));
    let id = lines[2].strip_prefix("id: ").expect("an id line");
    assert_eq!(id.len(), 64, "{id}");
    assert!(id.bytes().all(|b| b.is_ascii_hexdigit()), "{id}");
}

/// Asserts a clean refusal: non-zero exit, nothing on stdout, `error: ` and `needle` on stderr.
fn assert_refused_with(out: &Output, needle: &str) {
    let err = stderr(out);
    assert!(
        !out.status.success(),
        "should fail; stdout: {}",
        stdout(out)
    );
    assert!(stdout(out).is_empty(), "{}", stdout(out));
    assert!(!err.contains("panicked"), "panicked: {err}");
    assert!(err.starts_with("error: "), "{err}");
    assert!(err.contains(needle), "expected {needle:?} in: {err}");
}

/// Writes `bytes` to a fresh file under the test's scratch directory.
fn scratch(name: &str, bytes: &[u8]) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, bytes).expect("write scratch file");
    path
}

#[test]
fn a_tetrio_skin_checks_as_tetrio_with_30_px_tiles() {
    assert_checks_as(&skin_check(&format!("{SAMPLES}/tetrio.png")), "tetrio", 30);
}

#[test]
fn a_jstris_skin_checks_as_jstris_with_30_px_tiles() {
    assert_checks_as(&skin_check(&format!("{SAMPLES}/jstris.png")), "jstris", 30);
}

#[test]
fn a_connected_sheet_checks_as_connected_with_48_px_tiles() {
    assert_checks_as(
        &skin_check(&format!("{SAMPLES}/connected.png")),
        "connected",
        48,
    );
}

#[test]
fn a_file_that_is_not_a_png_is_refused() {
    let path = scratch("not-a-skin.png", b"GIF89a, not a PNG at all");
    assert_refused_with(
        &skin_check(&path.to_string_lossy()),
        "not a PNG file (no PNG signature)",
    );
}

#[test]
fn a_skin_cut_short_is_refused_as_truncated() {
    let sample = std::fs::read(format!("{SAMPLES}/tetrio.png")).expect("sample");
    let path = scratch("cut-short.png", &sample[..sample.len() / 2]);
    assert_refused_with(&skin_check(&path.to_string_lossy()), "truncated PNG");
}

#[test]
fn a_file_over_the_size_limit_is_refused_unread() {
    let path = scratch("huge.png", &vec![0; 1100 * 1024]);
    assert_refused_with(
        &skin_check(&path.to_string_lossy()),
        "over the 1048576-byte limit",
    );
}

#[test]
fn a_directory_is_refused() {
    assert_refused_with(&skin_check(SAMPLES), "not a regular file (a directory)");
}
