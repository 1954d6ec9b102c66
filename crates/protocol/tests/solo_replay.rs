//! Solo replay files: a recorded run round-trips, verifies by re-simulation, and any damaged or
//! forged file is refused with an error, never a panic.

use sevenbag_core::{SoloEnd, SoloMode};
use sevenbag_protocol::solo_replay::{MAX_SOLO_BYTES, SOLO_MAGIC, beats, result_text};
use sevenbag_protocol::{SoloReplay, SoloReplayError, key_script, verify_solo};

/// The committed sample: the core's scripted Sprint (seed 7), recorded by `record_sprint`.
/// `SEVENBAG_BLESS=1 cargo test -p sevenbag-protocol --test solo_replay` writes it when missing.
fn sample_path() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/solo_sprint_v1.sbso")
}

/// Plays a key script on a fresh run of `mode` until it finishes, as the client records it.
fn record(mode: SoloMode, script: &str) -> SoloReplay {
    key_script::record(mode, script, "tester")
        .expect("script")
        .expect("the run finished")
}

fn record_sprint() -> SoloReplay {
    record(
        SoloMode::Sprint,
        include_str!("../../core/tests/data/sprint.keys"),
    )
}

#[test]
fn a_sprint_replay_round_trips_and_verifies_to_its_result() {
    let replay = record_sprint();
    assert_eq!(replay.result.end, SoloEnd::Cleared);
    let bytes = replay.encode().expect("encode");
    let back = SoloReplay::decode(&bytes).expect("decode");
    assert_eq!(back, replay);
    let report = verify_solo(&back).expect("verifies");
    assert_eq!(report.result, replay.result);
    assert_eq!(report.final_hash, replay.final_hash);
    assert_eq!(report.frames, replay.inputs.confirmed);
}

#[test]
fn a_blitz_replay_verifies_to_its_score() {
    let replay = record(
        SoloMode::Blitz,
        include_str!("../../core/tests/data/blitz.keys"),
    );
    assert_eq!(replay.result.end, SoloEnd::TimeUp);
    assert!(replay.result.score > 0);
    let back = SoloReplay::decode(&replay.encode().expect("encode")).expect("decode");
    assert_eq!(verify_solo(&back).expect("verifies").result, replay.result);
}

#[test]
fn the_committed_sample_decodes_verifies_and_re_encodes_byte_for_byte() {
    let path = sample_path();
    if !path.exists() && std::env::var_os("SEVENBAG_BLESS").is_some() {
        std::fs::write(&path, record_sprint().encode().expect("encode")).expect("write sample");
    }
    let bytes = std::fs::read(&path).expect("golden solo_sprint_v1.sbso (bless to create it)");
    let replay = SoloReplay::decode(&bytes).expect("the sample decodes");
    assert_eq!(replay, record_sprint(), "the format or the core changed");
    assert_eq!(replay.encode().expect("encode"), bytes);
    assert_eq!(replay.header.mode, SoloMode::Sprint);
    verify_solo(&replay).expect("the sample verifies");
}

#[test]
fn every_truncation_is_refused_without_panicking() {
    let bytes = record_sprint().encode().expect("encode");
    for len in 0..bytes.len() {
        assert!(
            SoloReplay::decode(&bytes[..len]).is_err(),
            "a file cut to {len} bytes was accepted"
        );
    }
}

#[test]
fn a_flipped_byte_is_reported_as_corruption() {
    let bytes = record_sprint().encode().expect("encode");
    for i in [5, bytes.len() / 2, bytes.len() - 9, bytes.len() - 1] {
        let mut bad = bytes.clone();
        bad[i] ^= 0x40;
        let err = SoloReplay::decode(&bad).expect_err("a flipped byte was accepted");
        assert!(
            matches!(err, SoloReplayError::Checksum { .. }),
            "byte {i}: {err}"
        );
        assert!(err.to_string().starts_with("corrupted"), "{err}");
    }
}

#[test]
fn wrong_magic_version_and_size_are_named() {
    let bytes = record_sprint().encode().expect("encode");
    let err = SoloReplay::decode(b"SBRP\x01\x00").expect_err("a versus replay");
    assert!(matches!(err, SoloReplayError::BadMagic { .. }), "{err}");
    let mut future = bytes.clone();
    future[4] = 9;
    let err = SoloReplay::decode(&future).expect_err("a future version");
    assert!(
        matches!(err, SoloReplayError::UnsupportedVersion { found: 9, .. }),
        "{err}"
    );
    let mut huge = SOLO_MAGIC.to_vec();
    huge.resize(MAX_SOLO_BYTES + 1, 0);
    let err = SoloReplay::decode(&huge).expect_err("an oversized file");
    assert!(matches!(err, SoloReplayError::TooLarge { .. }), "{err}");
}

#[test]
fn an_altered_result_fails_verification() {
    let mut replay = record_sprint();
    replay.result.frames -= 60;
    // Re-encoded with a fresh checksum: only re-simulation can catch it.
    let forged = SoloReplay::decode(&replay.encode().expect("encode")).expect("decode");
    let err = verify_solo(&forged).expect_err("a forged time verified");
    assert!(
        matches!(err, SoloReplayError::ResultMismatch { .. }),
        "{err}"
    );
}

#[test]
fn altered_inputs_fail_verification() {
    let mut replay = record_sprint();
    // Drop a late key change: the run plays out differently.
    let n = replay.inputs.changes.len();
    replay.inputs.changes.remove(n - 3);
    let err = verify_solo(&replay).expect_err("altered inputs verified");
    assert!(
        matches!(
            err,
            SoloReplayError::ResultMismatch { .. } | SoloReplayError::HashMismatch { .. }
        ),
        "{err}"
    );
}

#[test]
fn a_forged_frame_count_is_refused_before_simulating() {
    let mut replay = record_sprint();
    replay.inputs.confirmed = u32::MAX;
    let err = SoloReplay::decode(&replay.encode().expect("encode")).expect_err("forged count");
    assert!(matches!(err, SoloReplayError::BadInputs(_)), "{err}");
}

#[test]
fn a_faster_cleared_sprint_beats_a_slower_one_and_a_top_out_beats_nothing() {
    let best = record_sprint().result;
    let mut faster = best;
    faster.frames -= 1;
    assert!(beats(&faster, &best));
    assert!(!beats(&best, &faster));
    let mut topped = faster;
    topped.end = SoloEnd::ToppedOut(sevenbag_core::TopOut::BlockOut);
    assert!(!beats(&topped, &best));
    assert!(beats(&best, &topped));
    assert!(result_text(&best).contains(':'), "{}", result_text(&best));
}
