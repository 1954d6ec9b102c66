//! Runs the built `sevenbag-tool replay stats` on the committed golden replays (two seats,
//! four seats, a solo Sprint): the text, the JSON keys that are a contract, the CSV's shape, a
//! PNG that decodes, and clean failures on bad files.

use std::path::Path;
use std::process::{Command, Output};

fn golden(name: &str) -> String {
    format!(
        "{}/../protocol/tests/golden/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn tool(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sevenbag-tool"))
        .args(args)
        .output()
        .expect("run sevenbag-tool")
}

fn ok(out: &Output) -> String {
    assert!(
        out.status.success(),
        "failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn json(file: &str) -> serde_json::Value {
    let out = ok(&tool(&["replay", "stats", &golden(file), "--json"]));
    serde_json::from_str(&out).expect("valid JSON")
}

#[test]
fn every_kind_of_replay_prints_one_block_per_seat() {
    for (file, seats) in [
        ("replay_v1.sbrp", 2),
        ("replay_v2.sbrp", 4),
        ("solo_sprint_v1.sbso", 1),
    ] {
        let out = ok(&tool(&["replay", "stats", &golden(file)]));
        assert_eq!(out.matches("\nseat ").count(), seats, "{out}");
        assert!(out.contains(" PPS, ") && out.contains(" APM, "), "{out}");
    }
}

#[test]
fn the_json_has_the_contract_keys_for_every_seat() {
    for (file, seats) in [
        ("replay_v1.sbrp", 2),
        ("replay_v2.sbrp", 4),
        ("solo_sprint_v1.sbso", 1),
    ] {
        let v = json(file);
        let list = v["seats"].as_array().expect("a seats array");
        assert_eq!(list.len(), seats, "{file}");
        for seat in list {
            for key in [
                "name",
                "pieces",
                "seconds",
                "pps",
                "apm",
                "vs",
                "attack",
                "lines",
                "finesse_faults",
            ] {
                assert!(seat.get(key).is_some(), "{file}: no {key} in {seat}");
            }
            assert!(seat["pieces"].as_u64().expect("a count") > 0, "{file}");
        }
    }
}

#[test]
fn the_solo_sprint_counts_its_forty_lines_and_the_rates_follow_the_counts() {
    let v = json("solo_sprint_v1.sbso");
    assert_eq!(v["kind"], "solo");
    let seat = &v["seats"][0];
    assert_eq!(seat["name"], "tester");
    assert!(seat["lines"].as_u64().expect("lines") >= 40);
    let frames = seat["frames"].as_f64().expect("frames");
    let pieces = seat["pieces"].as_f64().expect("pieces");
    let attack = seat["attack"].as_f64().expect("attack");
    let pps = seat["pps"].as_f64().expect("pps");
    let apm = seat["apm"].as_f64().expect("apm");
    assert!((pps - pieces / (frames / 60.0)).abs() < 0.006, "{seat}");
    assert!((apm - attack * 3600.0 / frames).abs() < 0.006, "{seat}");
    assert_eq!(
        seat["series"]["pieces"]
            .as_array()
            .expect("a series")
            .iter()
            .map(|x| x.as_f64().expect("a count"))
            .sum::<f64>(),
        pieces
    );
}

#[test]
fn the_csv_has_a_header_row_and_one_row_per_seat() {
    let out = ok(&tool(&[
        "replay",
        "stats",
        &golden("replay_v2.sbrp"),
        "--csv",
    ]));
    let rows: Vec<&str> = out.lines().collect();
    assert_eq!(rows.len(), 5, "{out}");
    assert!(rows[0].starts_with("seat,name,seconds,frames,pieces,pps,apm,vs,"));
    let columns = rows[0].split(',').count();
    for row in &rows[1..] {
        assert_eq!(row.split(',').count(), columns, "{row}");
    }
    assert!(rows[1].starts_with("0,ann,"), "{out}");
}

#[test]
fn the_plot_is_a_png_that_decodes() {
    let dir = tempfile::tempdir().expect("temp dir");
    let png = dir.path().join("stats.png");
    let png_arg = png.to_str().expect("utf-8 path");
    ok(&tool(&[
        "replay",
        "stats",
        &golden("replay_v2.sbrp"),
        "--plot",
        png_arg,
    ]));
    let file = std::fs::File::open(&png).expect("the PNG was written");
    let mut reader = png::Decoder::new(std::io::BufReader::new(file))
        .read_info()
        .expect("a PNG header");
    let mut pixels = vec![0; reader.output_buffer_size()];
    let frame = reader.next_frame(&mut pixels).expect("the PNG decodes");
    assert_eq!((frame.width, frame.height), (1000, 1100));
    // Something other than the white background was drawn.
    assert!(pixels[..frame.buffer_size()].iter().any(|&b| b < 128));
}

fn fails_cleanly(path: &Path, needle: &str) {
    let out = tool(&["replay", "stats", path.to_str().expect("utf-8"), "--json"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.contains(needle), "expected {needle:?} in {err}");
}

#[test]
fn a_truncated_or_foreign_file_is_a_clear_error() {
    let dir = tempfile::tempdir().expect("temp dir");
    for name in ["replay_v1.sbrp", "replay_v2.sbrp", "solo_sprint_v1.sbso"] {
        let bytes = std::fs::read(golden(name)).expect("golden");
        let cut = dir.path().join(format!("cut-{name}"));
        std::fs::write(&cut, &bytes[..bytes.len() / 2]).expect("write");
        fails_cleanly(&cut, &format!("cut-{name}"));
    }
    let foreign = dir.path().join("notes.txt");
    std::fs::write(&foreign, b"not a replay at all").expect("write");
    fails_cleanly(&foreign, "notes.txt");
    fails_cleanly(&dir.path().join("missing.sbrp"), "cannot read");
}
