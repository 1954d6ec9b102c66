//! The solver: its placements are reachable, its records verify with the score it claims,
//! it is deterministic for any thread count, and a resumed run equals an uninterrupted one.

use sevenbag_challenge::solver::movegen::{Placement, path_to, placements};
use sevenbag_challenge::solver::{self, Config, Limits, State};
use sevenbag_challenge::{Board, Brick, Kind, Record, score};
use std::time::Duration;

fn config(threads: usize, bricks: usize) -> Config {
    Config {
        width: 100,
        adaptive: false,
        threads,
        bricks,
        ..Config::default()
    }
}

fn no_limits() -> Limits {
    Limits {
        budget: None,
        checkpoint: None,
        checkpoint_every: Duration::from_secs(3600),
    }
}

fn solve(threads: usize, bricks: usize) -> State {
    let mut state = State::new(config(threads, bricks));
    solver::run(&mut state, &no_limits(), &mut ()).unwrap();
    state
}

#[test]
fn the_solvers_record_verifies_with_the_score_it_found() {
    let state = solve(2, 300);
    let record = solver::line_to_record(&state.best_line());
    let text = record.to_text();
    let out = score(&Record::parse(&text).unwrap());
    assert_eq!(out.bricks, 300);
    assert_eq!(out.score, state.best_score());
    assert!(out.score > 0);
}

#[test]
fn the_search_is_the_same_for_one_and_two_threads() {
    let one = solve(1, 200);
    let two = solve(2, 200);
    assert_eq!(one.best_line(), two.best_line());
    assert_eq!(one.best_score(), two.best_score());
}

#[test]
fn a_resumed_run_ends_where_an_uninterrupted_one_does() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.ckpt");
    let mut first = State::new(config(2, 100));
    solver::run(&mut first, &no_limits(), &mut ()).unwrap();
    first.save(&path).unwrap();
    let mut resumed = State::load(&path).unwrap();
    resumed.config.bricks = 200;
    solver::run(&mut resumed, &no_limits(), &mut ()).unwrap();
    let whole = solve(2, 200);
    assert_eq!(resumed.best_line(), whole.best_line());
}

#[test]
fn a_corrupt_checkpoint_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.ckpt");
    std::fs::write(&path, b"not a checkpoint").unwrap();
    assert!(State::load(&path).is_err());
}

#[test]
fn placements_include_tucks_under_an_overhang() {
    // A roof over columns 0..=5 at row 17 leaves a tunnel at rows 18-19 reachable only by
    // sliding in from the right under the roof.
    let mut board = Board::default();
    board.rows[17] = 0b11_1111;
    let brick = Brick {
        kind: Kind::I,
        state: 1,
    };
    let mut out = Vec::new();
    placements(&board, brick, &mut out);
    let tuck = Placement {
        x: 1,
        y: 19,
        state: 1,
    };
    assert!(out.contains(&tuck), "{out:?}");
    let path = path_to(&board, brick, tuck).unwrap();
    assert!(path.len() <= 100);
}

#[test]
fn every_placement_rests_and_has_a_path() {
    let mut board = Board::default();
    board.rows[19] = 0b10_0111_0011;
    board.rows[18] = 0b00_0010_0001;
    for kind in Kind::ALL {
        let brick = Brick { kind, state: 2 };
        let mut out = Vec::new();
        placements(&board, brick, &mut out);
        assert!(!out.is_empty());
        for p in out {
            let steps = path_to(&board, brick, p).expect("reachable");
            assert!(!steps.is_empty());
        }
    }
}
