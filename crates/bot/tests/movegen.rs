//! Move generation finds the placements a strong player uses (T-spin slots, kick-4 triples,
//! tucks), never lists the same cells twice, and its paths compile to keys the core accepts.

use sevenbag_bot::movegen::{Move, MoveGen, StartClass};
use sevenbag_bot::{BitBoard, Placement, PlayerSim, Target, compile, find_moves, spawn_position};
use sevenbag_core::{
    Board, Handling, Input, Piece, PieceKind, Player, Rotation, Rules, Spin, StepContext,
};

fn find(placements: &[Placement], kind: PieceKind, rotation: Rotation, x: i8, y: i8) -> Placement {
    *placements
        .iter()
        .find(|p| {
            p.piece
                == Piece {
                    kind,
                    rotation,
                    x,
                    y,
                }
        })
        .unwrap_or_else(|| panic!("no {kind:?} {rotation:?} at ({x}, {y}) in {placements:#?}"))
}

/// Feeds `inputs` to a real core player holding `board` with `kind` in play at its spawn
/// position; returns the lock's piece, spin and lines.
fn play_on_core(
    board: &Board,
    kind: PieceKind,
    inputs: &[Input],
    handling: Handling,
) -> (Piece, Spin, u8) {
    let rules = Rules::versus();
    let mut player = Player::new(&rules, handling, 7, 0, 0);
    player.set_board(*board);
    let bits = BitBoard::from_board(board);
    let start = spawn_position(&bits, kind).expect("spawn is free");
    player.set_active(start);
    for (frame, &input) in inputs.iter().enumerate() {
        let ctx = StepContext {
            rules: &rules,
            frame: frame as u32,
            play_frame: frame as u32,
        };
        player.step(input, ctx);
        if let Some(lock) = player.events().locked {
            return (lock.piece, lock.clear.spin, lock.clear.lines);
        }
    }
    panic!("the piece never locked");
}

fn inputs_for(board: &Board, p: &Placement, handling: Handling) -> Vec<Input> {
    let start = spawn_position(&BitBoard::from_board(board), p.piece.kind).expect("spawn is free");
    let sim = PlayerSim::with_active(board, start, None, &Rules::versus(), handling);
    compile(&sim, &Target::from(p), Default::default()).expect("placement compiles")
}

#[test]
fn finds_a_t_spin_double_slot() {
    let board = Board::from_rows(&["##........", "#...######", "##.#######"]);
    let moves = find_moves(&board, PieceKind::T, None, true);
    let tsd = find(&moves, PieceKind::T, Rotation::Flip, 2, 1);
    assert_eq!(tsd.spin, Spin::Full);
    let inputs = inputs_for(&board, &tsd, Handling::default());
    let (piece, spin, lines) = play_on_core(&board, PieceKind::T, &inputs, Handling::default());
    assert_eq!((piece, spin, lines), (tsd.piece, Spin::Full, 2));
}

#[test]
fn finds_a_t_spin_triple_through_kick_4() {
    // The T slides under the floating block at (9, 4), then rotates counter-clockwise into the
    // three-deep cave: tests 0 to 3 are blocked, kick 4 (+1, −2) fits.
    let board = Board::from_rows(&[
        ".........#",
        "..........",
        "#########.",
        "########..",
        "#########.",
    ]);
    let moves = find_moves(&board, PieceKind::T, None, true);
    let tst = find(&moves, PieceKind::T, Rotation::Left, 9, 1);
    assert_eq!(tst.spin, Spin::Full);
    let mut movegen = MoveGen::new();
    let bits = BitBoard::from_board(&board);
    let start = spawn_position(&bits, PieceKind::T).expect("spawn is free");
    let path = movegen
        .find_path(&bits, start, StartClass::Moved, tst.key(), Spin::Full, true)
        .expect("a path exists");
    assert_eq!(
        path.last(),
        Some(&Move::Ccw),
        "the last action is the kick-4 rotation"
    );
    let inputs = inputs_for(&board, &tst, Handling::default());
    let (piece, spin, lines) = play_on_core(&board, PieceKind::T, &inputs, Handling::default());
    assert_eq!((piece, spin, lines), (tst.piece, Spin::Full, 3));
}

#[test]
fn finds_an_s_tuck_under_a_ledge() {
    let board = Board::from_rows(&["###.......", "..........", "#........."]);
    let moves = find_moves(&board, PieceKind::S, None, true);
    let tuck = find(&moves, PieceKind::S, Rotation::Spawn, 2, 0);
    let bits = BitBoard::from_board(&board);
    let start = spawn_position(&bits, PieceKind::S).expect("spawn is free");
    let path = MoveGen::new()
        .find_path(
            &bits,
            start,
            StartClass::Moved,
            tuck.key(),
            Spin::None,
            true,
        )
        .expect("a path exists");
    assert!(
        path.contains(&Move::SoftDrop),
        "a tuck needs a soft drop: {path:?}"
    );
    for handling in [Handling::default(), sevenbag_bot::BOT_HANDLING] {
        let inputs = inputs_for(&board, &tuck, handling);
        let (piece, _, _) = play_on_core(&board, PieceKind::S, &inputs, handling);
        assert_eq!(piece, tuck.piece);
    }
}

#[test]
fn finds_a_z_tuck_under_a_ledge() {
    let board = Board::from_rows(&[".......###", "..........", ".........#"]);
    let moves = find_moves(&board, PieceKind::Z, None, true);
    let tuck = find(&moves, PieceKind::Z, Rotation::Spawn, 7, 0);
    let inputs = inputs_for(&board, &tuck, Handling::default());
    let (piece, _, _) = play_on_core(&board, PieceKind::Z, &inputs, Handling::default());
    assert_eq!(piece, tuck.piece);
}

#[test]
fn no_two_placements_fill_the_same_cells() {
    let boards = [
        Board::new(),
        Board::from_rows(&["##........", "#...######", "##.#######"]),
        Board::from_rows(&["#..##...##", "##.###.###", "####.#####"]),
    ];
    for board in &boards {
        for kind in PieceKind::ALL {
            let moves = find_moves(board, kind, None, true);
            let mut keys: Vec<u64> = moves.iter().map(Placement::key).collect();
            keys.sort_unstable();
            let before = keys.len();
            keys.dedup();
            assert_eq!(keys.len(), before, "{kind:?} on\n{board:?}");
        }
    }
}

#[test]
fn an_empty_board_has_the_classic_placement_counts() {
    // Distinct hard-drop placements on an empty board: 17 for I, S and Z, 9 for O, 34 for J, L, T.
    let board = Board::new();
    for (kind, count) in [
        (PieceKind::I, 17),
        (PieceKind::O, 9),
        (PieceKind::S, 17),
        (PieceKind::Z, 17),
        (PieceKind::J, 34),
        (PieceKind::L, 34),
        (PieceKind::T, 34),
    ] {
        assert_eq!(
            find_moves(&board, kind, None, true).len(),
            count,
            "{kind:?}"
        );
    }
}

#[test]
fn hold_placements_are_listed_for_the_hold_piece() {
    let moves = find_moves(&Board::new(), PieceKind::T, Some(PieceKind::I), true);
    assert_eq!(moves.iter().filter(|p| p.hold).count(), 17);
    assert!(
        moves
            .iter()
            .filter(|p| p.hold)
            .all(|p| p.piece.kind == PieceKind::I)
    );
    assert!(
        moves
            .iter()
            .filter(|p| !p.hold)
            .all(|p| p.piece.kind == PieceKind::T)
    );
}

#[test]
fn without_180_no_path_uses_it() {
    let board = Board::from_rows(&["##........", "#...######", "##.#######"]);
    let bits = BitBoard::from_board(&board);
    let start = spawn_position(&bits, PieceKind::T).expect("spawn is free");
    let mut movegen = MoveGen::new();
    for p in find_moves(&board, PieceKind::T, None, false) {
        let path = movegen
            .find_path(&bits, start, StartClass::Moved, p.key(), p.spin, false)
            .expect("listed placements have paths");
        assert!(!path.contains(&Move::Flip));
    }
}
