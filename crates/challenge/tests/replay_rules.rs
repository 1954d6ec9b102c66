//! Replay semantics, each rule of the contract with a hand-made record: floating locks, the
//! top-touch rule, the brick limit, spawn blocking, and every scoring case.

use sevenbag_challenge::replay::state_after;
use sevenbag_challenge::rules::FULL_ROW;
use sevenbag_challenge::{Board, EndReason, Game, MAX_BRICKS, Op, Record, Step, score};

fn rec(text: &str) -> Record {
    Record::parse(text).unwrap()
}

fn play(board: Board, text: &str) -> Game {
    let mut game = Game::with_board(board);
    for &op in &rec(text).ops {
        game.apply(op);
    }
    game.finish();
    game
}

/// Bottom `rows` rows full except column 9 (a well).
fn well_board(rows: usize) -> Board {
    let mut b = Board::default();
    for y in 20 - rows..20 {
        b.rows[y] = FULL_ROW ^ (1 << 9);
    }
    b
}

/// Brick 1 (Z) parks at the left on the stack, brick 2 (I) goes vertical into the well.
const WELL_RECORD: &str = "N,L3,D19,N,C1,R5,D19";

#[test]
fn a_single_scores_the_cells_on_the_board() {
    let g = play(well_board(1), WELL_RECORD);
    assert_eq!((g.score, g.lines, g.clears[1]), (9 + 8, 1, 1));
}

#[test]
fn a_double_scores_three_per_cell() {
    let g = play(well_board(2), WELL_RECORD);
    assert_eq!((g.score, g.lines, g.clears[2]), ((18 + 8) * 3, 2, 1));
}

#[test]
fn a_triple_scores_six_per_cell() {
    let g = play(well_board(3), WELL_RECORD);
    assert_eq!((g.score, g.lines, g.clears[3]), ((27 + 8) * 6, 3, 1));
}

#[test]
fn a_tetris_scores_ten_per_cell_counting_the_rows_it_clears() {
    let g = play(well_board(4), WELL_RECORD);
    assert_eq!((g.score, g.lines, g.clears[4]), (44 * 10, 4, 1));
    // The Z left on top of the well rows falls by four rows.
    assert_eq!(g.board.rows[19], 0b110);
    assert_eq!(g.board.rows[18], 0b11);
    assert_eq!(g.board.cell_count(), 4);
}

#[test]
fn a_lock_without_full_rows_scores_nothing() {
    let g = play(Board::default(), "N,D19,N,D19");
    assert_eq!((g.score, g.lines), (0, 0));
    assert_eq!(g.ended, Some(EndReason::RecordEnded));
}

#[test]
fn a_brick_locks_where_its_last_op_left_it_even_floating() {
    let g = state_after(&rec("N,D5,N,D1"), 1);
    // Z0 with pivot (4,5): cells (4,5) (5,5) (4,4) (3,4).
    assert_eq!(g.board.rows[5], 0b11_0000);
    assert_eq!(g.board.rows[4], 0b1_1000);
    assert_eq!(g.board.cell_count(), 4);
}

#[test]
fn a_record_ending_with_n_locks_that_brick_at_its_spawn() {
    let out = score(&rec("N,D5,N"));
    // Brick 2 is I in state 1: cells (3..=6, 0).
    assert_eq!(out.board.rows[0], 0b111_1000);
    assert_eq!(out.board.cell_count(), 8);
    assert_eq!(out.end, EndReason::RecordEnded);
}

#[test]
fn a_brick_with_no_ops_before_the_next_n_never_locks() {
    let mut g = Game::new();
    g.apply(Op::New);
    g.apply(Op::New);
    g.apply(Op::Steps(Step::Down, 19));
    g.finish();
    // Only brick 2 (I, horizontal) is on the board.
    assert_eq!(g.board.cell_count(), 4);
    assert_eq!(g.board.rows[19], 0b111_1000);
}

#[test]
fn steps_into_walls_or_cells_are_skipped_and_the_rest_still_run() {
    let g = state_after(&rec("N,L20,D19,N,D1"), 1);
    // Z0 pushed to pivot x = 1, then dropped: cells (1,19) (2,19) (1,18) (0,18).
    assert_eq!(g.board.rows[19], 0b110);
    assert_eq!(g.board.rows[18], 0b11);
}

#[test]
fn rotation_has_no_kicks() {
    // Brick 2 is I (state 1) and brick 1 a Z; against the left wall the vertical I fits
    // at column 0, but a horizontal I at x = 0 would poke out, so a second C is skipped.
    let g = state_after(&rec("N,R20,D19,N,C1,L20,C1,D19"), 2);
    assert_eq!(g.board.rows[19] & 1, 1);
    assert_eq!(g.board.rows[16] & 1, 1);
}

/// Rows 1..=19 non-empty (column 0, and row 1 full but for the Z's cells 4 and 5), row 0 empty.
fn nearly_topped(rows_with_cells: std::ops::RangeInclusive<usize>) -> Board {
    let mut b = Board::default();
    for y in rows_with_cells {
        b.rows[y] = 1;
    }
    b.rows[1] = FULL_ROW ^ 0b11_0000;
    b
}

#[test]
fn a_lock_that_fills_the_top_row_ends_the_game_unscored_even_with_a_clear() {
    // Z0 one row down: (4,1) (5,1) complete row 1, (4,0) (3,0) reach row 0.
    let g = play(nearly_topped(2..=19), "N,D1");
    assert_eq!(g.ended, Some(EndReason::TopTouched { brick: 1 }));
    assert_eq!(g.score, 0);
    assert_eq!(g.board.rows[1], FULL_ROW, "no line is cleared either");
}

#[test]
fn the_same_clear_scores_when_one_row_stays_empty() {
    let g = play(nearly_topped(3..=19), "N,D1");
    assert_eq!(g.ended, Some(EndReason::RecordEnded));
    // 17 column-0 cells + 8 in row 1 + 4 of the Z.
    assert_eq!((g.score, g.lines), (17 + 8 + 4, 1));
}

#[test]
fn a_brick_that_cannot_spawn_ends_the_game() {
    let mut board = Board::default();
    board.rows[0] = 1 << 4;
    let g = play(board, "N,D1");
    assert_eq!(g.ended, Some(EndReason::SpawnBlocked { brick: 1 }));
}

#[test]
fn brick_9999_scores_and_brick_10000_never_does() {
    let mut g = Game::with_board(well_board(2));
    g.spawned = MAX_BRICKS - 3;
    for &op in &rec("N,L3,D19,N,C1,R5,D19").ops {
        g.apply(op);
    }
    g.lock();
    assert_eq!(g.spawned, MAX_BRICKS - 1);
    assert_eq!(g.score, (18 + 8) * 3, "brick 9,999 scores");
    let before = g.score;
    let mut g = Game::with_board(well_board(2));
    g.spawned = MAX_BRICKS - 2;
    for &op in &rec("N,L3,D19,N,C1,R5,D19").ops {
        g.apply(op);
    }
    g.finish();
    assert_eq!(g.spawned, MAX_BRICKS);
    assert_eq!(g.ended, Some(EndReason::BrickLimit));
    assert_eq!(g.score, 0, "brick 10,000's double scores nothing");
    assert!(before > 0);
}

#[test]
fn ops_after_the_game_ends_do_nothing() {
    let mut board = Board::default();
    board.rows[0] = 1 << 4;
    // Brick 1 locks in row 0-1, so brick 2 cannot spawn; the third N is never reached.
    let out = score(&rec("N,D1,N,D1,N,D1"));
    assert_eq!(out.bricks, 2);
    assert_eq!(out.end, EndReason::SpawnBlocked { brick: 2 });
    let g = play(board, "N,D1,N,D5");
    assert_eq!(g.spawned, 1);
}

#[test]
fn cell_kinds_follow_the_board_through_clears() {
    let board = well_board(4);
    let mut g = Game::with_board(board);
    for y in 16..20 {
        for x in 0..9 {
            g.kinds[y][x] = Some(sevenbag_challenge::Kind::O);
        }
    }
    for &op in &rec(WELL_RECORD).ops {
        g.apply(op);
    }
    g.finish();
    assert_eq!(g.lines, 4);
    for y in 0..20 {
        for x in 0..10 {
            assert_eq!(
                g.kinds[y][x].is_some(),
                g.board.rows[y] >> x & 1 == 1,
                "cell ({x},{y})"
            );
        }
    }
}
