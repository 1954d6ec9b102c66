//! Playing by hand: gravity pacing and a record that replays to the same game.

use sevenbag_challenge::play::{Play, gravity_ms};
use sevenbag_challenge::{Step, score};

#[test]
fn gravity_speeds_up_every_100_bricks_down_to_100_ms() {
    assert_eq!(gravity_ms(1), 1000);
    assert_eq!(gravity_ms(99), 1000);
    assert_eq!(gravity_ms(100), 900);
    assert_eq!(gravity_ms(450), 600);
    assert_eq!(gravity_ms(900), 100);
    assert_eq!(gravity_ms(5000), 100);
}

#[test]
fn a_played_game_replays_to_the_same_score_and_board() {
    let mut play = Play::new();
    let moves = [
        Step::Left,
        Step::Rotate,
        Step::Right,
        Step::Right,
        Step::Left,
    ];
    for i in 0..400 {
        play.input(moves[i % moves.len()]);
        if i % 3 == 0 {
            play.input(Step::Left);
            play.input(Step::Left);
        }
        for _ in 0..25 {
            play.gravity();
        }
        if play.over() {
            break;
        }
    }
    // Finish the brick in play so the record covers the whole board.
    while !play.over() && play.game.piece.is_some_and(|p| p.y < 19) {
        let before = play.game.spawned;
        play.gravity();
        if play.game.spawned != before {
            break;
        }
    }
    let record = play.record();
    let text = record.to_text();
    let parsed = sevenbag_challenge::Record::parse(&text).expect("a valid record");
    let out = score(&parsed);
    assert!(out.bricks > 10);
    assert_eq!(out.board, play.game.board);
    assert_eq!(out.score, play.game.score);
}

#[test]
fn a_brick_locks_on_the_tick_it_lands() {
    let mut play = Play::new();
    for _ in 0..19 {
        play.gravity();
    }
    assert_eq!(play.game.spawned, 2);
    assert_eq!(play.game.board.cell_count(), 4);
}
