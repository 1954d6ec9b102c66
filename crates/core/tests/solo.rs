//! Solo modes (Sprint, Blitz, Zen) and guideline scoring: results of scripted runs are pinned,
//! and each rule of `solo.rs` and `score.rs` has a test of its own.

mod common;

use sevenbag_core::score::{LINES_PER_LEVEL, gravity_for_level};
use sevenbag_core::solo::{BLITZ_FRAMES, SPRINT_LINES};
use sevenbag_core::{
    Handling, Input, Score, Solo, SoloEnd, SoloHeader, SoloMode, SoloPhase, TopOut,
};

/// The bot's handling, as the scripts were recorded with (crates/bot/tests/solo_scripts.rs).
const SCRIPT_HANDLING: Handling = Handling {
    das: 6,
    arr: 0,
    dcd: 0,
    sdf: 0,
    irs: true,
    ihs: true,
};

/// Replays a `frame mask` change script (crates/core/tests/data/*.keys) to its end.
fn replay(mode: SoloMode, text: &str) -> Solo {
    let mut solo = Solo::new(SoloHeader {
        handling: SCRIPT_HANDLING,
        ..SoloHeader::new(mode, 7)
    });
    let mut changes = Vec::new();
    let mut end = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let mut words = line.split_whitespace();
        match (words.next(), words.next()) {
            (Some("end"), Some(f)) => end = f.parse().expect("end frame"),
            (Some(f), Some(m)) => changes.push((
                f.parse::<u32>().expect("frame"),
                Input(u8::from_str_radix(m, 16).expect("mask")),
            )),
            _ => panic!("bad script line {line:?}"),
        }
    }
    let mut keys = Input::NONE;
    let mut next = changes.iter().peekable();
    while solo.frame() < end {
        let frame = solo.frame();
        while let Some(&(_, input)) = next.next_if(|(f, _)| *f <= frame) {
            keys = input;
        }
        solo.step(keys);
    }
    solo
}

fn sprint_script() -> Solo {
    replay(SoloMode::Sprint, include_str!("data/sprint.keys"))
}

fn blitz_script() -> Solo {
    replay(SoloMode::Blitz, include_str!("data/blitz.keys"))
}

#[test]
fn the_scripted_sprint_clears_40_lines_in_its_pinned_time() {
    let solo = sprint_script();
    let result = solo.result().expect("finished");
    assert_eq!(result.end, SoloEnd::Cleared);
    assert!(result.lines >= SPRINT_LINES);
    assert_eq!(
        (result.frames, result.pieces, result.lines),
        GOLDEN_SPRINT.0,
        "{result:?}"
    );
    assert_eq!(result.splits, GOLDEN_SPRINT.1);
    assert_eq!(
        solo.state_hash(),
        GOLDEN_SPRINT.2,
        "{:016x}",
        solo.state_hash()
    );
    assert!(result.ranked());
}

#[test]
fn the_scripted_blitz_scores_its_pinned_points_in_two_minutes() {
    let solo = blitz_script();
    let result = solo.result().expect("finished");
    assert_eq!(result.end, SoloEnd::TimeUp);
    assert_eq!(result.frames, BLITZ_FRAMES);
    assert_eq!((result.score, result.lines), GOLDEN_BLITZ.0, "{result:?}");
    assert_eq!(result.splits, GOLDEN_BLITZ.1);
    assert_eq!(
        solo.state_hash(),
        GOLDEN_BLITZ.2,
        "{:016x}",
        solo.state_hash()
    );
    assert!(result.ranked());
}

/// (frames, pieces, lines), splits at 10/20/30/40 lines, final hash.
const GOLDEN_SPRINT: ((u32, u32, u32), [Option<u64>; 4], u64) = (
    (4161, 104, 41),
    [Some(1081), Some(2361), Some(3281), Some(4161)],
    0xaeb2_d6ea_71d7_fad0,
);
/// (score, lines), score at 30/60/90/120 s, final hash.
const GOLDEN_BLITZ: ((u64, u32), [Option<u64>; 4], u64) = (
    (123463, 71),
    [Some(9942), Some(27021), Some(67180), Some(123463)],
    0xb1bb_0911_b5d0_8c01,
);

#[test]
fn a_run_counts_down_before_play_begins() {
    let mut solo = Solo::new(SoloHeader::new(SoloMode::Sprint, 1));
    let go = solo.countdown_left().expect("counting down");
    for _ in 0..go {
        solo.step(Input::HARD_DROP);
        assert_eq!(solo.player().stats().pieces, 0);
    }
    assert_eq!(solo.play_frames(), 0);
    solo.step(Input::NONE);
    assert_eq!(solo.phase(), SoloPhase::Playing);
    assert_eq!(solo.play_frames(), 1);
}

#[test]
fn a_blitz_counts_its_time_left_down_from_two_minutes() {
    let mut solo = Solo::new(SoloHeader::new(SoloMode::Blitz, 1));
    assert_eq!(solo.frames_left(), Some(BLITZ_FRAMES));
    let go = solo.countdown_left().expect("counting down");
    for _ in 0..go + 60 {
        solo.step(Input::NONE);
    }
    assert_eq!(solo.frames_left(), Some(BLITZ_FRAMES - 60));
    assert_eq!(
        Solo::new(SoloHeader::new(SoloMode::Sprint, 1)).frames_left(),
        None
    );
}

#[test]
fn hard_dropping_without_clearing_tops_out_and_is_not_ranked() {
    let mut solo = Solo::new(SoloHeader::new(SoloMode::Sprint, 3));
    let mut keys = Input::NONE;
    while solo.result().is_none() && solo.frame() < 10_000 {
        keys = if keys == Input::NONE {
            Input::HARD_DROP
        } else {
            Input::NONE
        };
        solo.step(keys);
    }
    let result = solo.result().expect("topped out");
    assert_eq!(result.end, SoloEnd::ToppedOut(TopOut::BlockOut));
    assert!(!result.ranked());
}

#[test]
fn a_finished_run_ignores_further_input() {
    let mut solo = sprint_script();
    let before = solo.result();
    for _ in 0..100 {
        solo.step(Input::HARD_DROP);
    }
    assert_eq!(solo.result(), before);
}

#[test]
fn undo_is_restoring_a_copy_and_replays_to_the_same_hash() {
    let mut solo = Solo::new(SoloHeader::new(SoloMode::Zen, 9));
    for _ in 0..200 {
        solo.step(Input::NONE);
    }
    let saved = solo;
    let hash = solo.state_hash();
    for i in 0..50 {
        solo.step(if i % 2 == 0 {
            Input::HARD_DROP
        } else {
            Input::NONE
        });
    }
    assert_ne!(solo.state_hash(), hash);
    solo = saved;
    assert_eq!(solo.state_hash(), hash);
}

#[test]
fn hard_drop_scores_two_points_a_row() {
    let mut solo = Solo::new(SoloHeader::new(SoloMode::Blitz, 1));
    let go = solo.countdown_left().expect("counting down");
    for _ in 0..=go {
        solo.step(Input::NONE);
    }
    let before = solo.score().points;
    solo.step(Input::HARD_DROP);
    let rows = u64::from(solo.events().hard_drop_rows);
    assert!(rows > 15, "dropped {rows} rows");
    assert_eq!(solo.score().points - before, 2 * rows);
}

#[test]
fn the_level_rises_every_ten_lines_and_speeds_gravity_up() {
    let score = Score {
        points: 0,
        lines: 3 * LINES_PER_LEVEL + 4,
    };
    assert_eq!(score.level(), 4);
    assert!(gravity_for_level(4) > gravity_for_level(3));
    assert_eq!(gravity_for_level(1), sevenbag_core::Rules::versus().gravity);
    assert_eq!(gravity_for_level(99), gravity_for_level(20));
}

#[test]
fn mode_names_round_trip() {
    for mode in SoloMode::ALL {
        assert_eq!(SoloMode::from_name(mode.name()), Some(mode));
    }
    assert_eq!(SoloMode::from_name("marathon"), None);
}
