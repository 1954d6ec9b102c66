//! The perfect-clear search's rules, one per test.

use super::*;

#[test]
fn finds_a_two_line_perfect_clear() {
    // Rows 0-1 filled but for columns 0..4: two I pieces clear both.
    let q = query_with(
        &["....######", "....######"],
        &[PieceKind::I, PieceKind::I],
        &[],
    );
    let mut s = PcSearch::new();
    let p = s.find(q).expect("a perfect clear");
    assert_eq!(p.piece.kind, PieceKind::I);
    assert!(p.piece.cells().iter().all(|&(x, y)| x < 4 && y < 2));
}

#[test]
fn the_perfect_clear_that_sends_the_most_is_played() {
    // The I dropped into column 6 at once clears a single and still leads to a perfect
    // clear, the first one the search meets; holding the I and starting with the O leads to
    // one that sends more.
    let q = query_with(
        &["#..#...###", "#..##..###", "#####..###", "######.###"],
        &[PieceKind::I, PieceKind::O, PieceKind::L, PieceKind::L],
        &[],
    );
    let p = PcSearch::new().find(q).expect("a perfect clear");
    assert_eq!((p.piece.kind, p.hold), (PieceKind::O, true), "{p:?}");
}

/// The query for `seq` on `rows`, with `incoming` garbage queued.
fn query_with(rows: &[&str], seq: &[PieceKind], incoming: &[Pending]) -> PcQuery {
    let board = BitBoard::from_rows(rows);
    PcQuery {
        board,
        current: spawn_position(&board, seq[0]).unwrap(),
        hold: None,
        hold_allowed: true,
        sequence: seq.to_vec(),
        allow_180: true,
        chain: Chain::default(),
        incoming: incoming.to_vec(),
        rise_cap: 8,
    }
}

/// `lines` of garbage with their hole in column `hole`, ready `ready_after` locks from now.
const fn pending(lines: u16, ready_after: u8, hole: i8) -> Pending {
    Pending {
        lines,
        ready_after,
        hole,
    }
}

const ONE_LINE_READY_NOW: Pending = pending(1, 0, 0);

#[test]
fn a_perfect_clear_that_would_let_ready_garbage_rise_is_not_one() {
    // The first O locks without a clear, and the line queued rises under it.
    let rows = ["....######", "....######"];
    let q = query_with(&rows, &[PieceKind::O, PieceKind::O], &[ONE_LINE_READY_NOW]);
    assert_eq!(PcSearch::new().find(q), None);
}

#[test]
fn garbage_not_ready_until_the_clearing_lock_leaves_the_perfect_clear() {
    let rows = ["....######", "....######"];
    let later = pending(1, 1, 0);
    let q = query_with(&rows, &[PieceKind::O, PieceKind::O], &[later]);
    assert!(PcSearch::new().find(q).is_some());
}

#[test]
fn a_perfect_clear_clearing_at_every_lock_keeps_ready_garbage_down() {
    // Two flat I pieces: a single, then the perfect clear.
    let rows = ["....######", "....######"];
    let q = query_with(&rows, &[PieceKind::I, PieceKind::I], &[ONE_LINE_READY_NOW]);
    assert!(PcSearch::new().find(q).is_some());
}

/// Whether a lock without a clear, the `lock`th from now, lets garbage rise when the
/// placements before it sent `sent` lines.
fn rises(q: &PcQuery, sent: u16, lock: u8) -> bool {
    q.rise(&mut BitBoard::new(), sent, lock) != Rise::Nothing
}

#[test]
fn attack_sent_before_the_garbage_is_ready_cancels_it() {
    let q = query_with(&["#........."], &[PieceKind::O], &[ONE_LINE_READY_NOW]);
    // One line queued and sent lines cancel it oldest first.
    assert!(rises(&q, 0, 0));
    assert!(!rises(&q, 1, 0));
    let two = pending(1, 3, 0);
    let q = PcQuery {
        incoming: vec![ONE_LINE_READY_NOW, two],
        ..q
    };
    assert!(!rises(&q, 1, 2), "the second is not ready yet");
    assert!(rises(&q, 1, 3));
    assert!(!rises(&q, 2, 3));
}

fn cleared(attack: u16, hold: Option<PieceKind>) -> State {
    State {
        board: BitBoard::default(),
        hold,
        next: 0,
        lines: 0,
        root: false,
        chain: Chain::default(),
        attack,
        risen: 0,
        placed: 0,
    }
}

#[test]
fn a_perfect_clear_that_sends_more_outranks_any_piece_left_in_hold() {
    let more = Worth::of(&cleared(12, Some(PieceKind::I)));
    let less = Worth::of(&cleared(11, Some(PieceKind::T)));
    assert!(more > less);
}

#[test]
fn of_perfect_clears_that_send_the_same_one_leaving_a_t_j_or_l_in_hold_ranks_first() {
    let rank = |hold| Worth::of(&cleared(11, hold));
    for good in [PieceKind::T, PieceKind::J, PieceKind::L] {
        for other in [PieceKind::I, PieceKind::O, PieceKind::S, PieceKind::Z] {
            assert!(
                rank(Some(good)) > rank(Some(other)),
                "{good:?} over {other:?}"
            );
        }
        assert!(rank(Some(good)) > rank(None), "{good:?} over an empty hold");
    }
}

#[test]
fn odd_regions_are_pruned() {
    let board = BitBoard::from_rows(&["###..#####", "##...#####"]);
    assert!(!regions_fit(box_empty(&board, 2)));
    let board = BitBoard::from_rows(&["####.#####", "##...#####"]);
    assert!(regions_fit(box_empty(&board, 2)));
}

#[test]
fn a_perfect_clear_can_take_in_the_garbage_that_rises_under_it() {
    // One garbage line on the board (nine cells: no perfect clear alone) and a second queued
    // with the same hole: the first I locks without a clear, the line rises, the second I
    // lies beside the first, and an L down the hole column clears all three rows.
    let queued = pending(1, 0, 9);
    let seq = [PieceKind::I, PieceKind::I, PieceKind::L];
    let q = query_with(&["#########."], &seq, &[queued]);
    assert!(PcSearch::new().find(q.clone()).is_some());
    let spoiled = PcQuery { rise_cap: 0, ..q };
    assert_eq!(PcSearch::new().find(spoiled), None);
}

#[test]
fn lines_that_rose_count_as_gone_and_do_not_rise_again() {
    let q = query_with(&["#........."], &[PieceKind::O], &[ONE_LINE_READY_NOW]);
    let mut board = q.board;
    assert_eq!(q.rise(&mut board, 0, 0), Rise::Lines(1));
    assert_eq!(board, BitBoard::from_rows(&["#.........", ".#########"]));
    assert_eq!(q.rise(&mut board, 1, 1), Rise::Nothing);
}

#[test]
fn a_rise_takes_the_oldest_ready_attacks_first_up_to_the_cap() {
    let older = pending(2, 0, 0);
    let newer = pending(3, 0, 5);
    let q = PcQuery {
        rise_cap: 4,
        ..query_with(&[], &[PieceKind::O], &[older, newer])
    };
    // Both older lines and two of the newer rise; the older end up on top, as in the core.
    let mut board = q.board;
    assert_eq!(q.rise(&mut board, 0, 0), Rise::Lines(4));
    let expected = [".#########", ".#########", "#####.####", "#####.####"];
    assert_eq!(board, BitBoard::from_rows(&expected));
    // The next lock raises the newer attack's last line.
    assert_eq!(q.rise(&mut board, 4, 1), Rise::Lines(1));
    assert_eq!(board.row(0), BitBoard::from_rows(&["#####.####"]).row(0));
    assert_eq!(q.rise(&mut board, 5, 2), Rise::Nothing);
}
