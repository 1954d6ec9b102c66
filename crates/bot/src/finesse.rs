//! Finesse: the fewest key presses that put a piece where the player put it, to count a player's
//! extra presses ("finesse faults") in the solo and practice modes.
//!
//! A press is a new key-down: a tap left or right, a left or right held to the wall (DAS counts
//! once, whatever the handling), a rotation clockwise, counter-clockwise or 180°, or a soft drop
//! to the floor. The hard drop that ends every piece and hold are not counted, on either side. The
//! search is breadth-first over piece states with gravity off, on the core's own board and SRS
//! kicks, so a tuck or spin the rules allow is found too. A fault is a piece placed with more
//! presses than this minimum; the count of extra presses is the usual "finesse" figure.

use std::collections::VecDeque;

use sevenbag_core::{Board, Input, Piece, PieceKind, Rotation, WIDTH, srs};

/// Keys whose new presses count toward finesse.
const COUNTED: Input = Input(
    Input::LEFT.0
        | Input::RIGHT.0
        | Input::SOFT_DROP.0
        | Input::ROTATE_CW.0
        | Input::ROTATE_CCW.0
        | Input::ROTATE_180.0,
);

/// Counts the finesse presses in a piece's per-frame keys, `previous` being the keys held on the
/// frame before the piece spawned (a key still held from the last piece is not a new press).
pub fn presses(previous: Input, frames: &[Input]) -> u32 {
    let mut before = previous;
    let mut count = 0;
    for &keys in frames {
        count += (keys.pressed_since(before).0 & COUNTED.0).count_ones();
        before = keys;
    }
    count
}

/// The four cells of `piece`, sorted, as a placement's identity (rotations that fill the same
/// cells are the same placement).
fn cells(piece: &Piece) -> [(i8, i8); 4] {
    let mut c = piece.cells();
    c.sort_unstable();
    c
}

/// The fewest presses that lock a piece of `kind`, spawned on `board`, in the cells `target`
/// fills; `None` if no sequence of presses reaches it. `allow_180` follows the room's rule.
pub fn min_presses(board: &Board, kind: PieceKind, target: &Piece, allow_180: bool) -> Option<u32> {
    let goal = cells(target);
    let mut start = Piece::spawn(kind);
    if board.collides(&start) {
        return None;
    }
    if !board.grounded(&start) {
        start = start.shifted(0, -1);
    }
    // States are (rotation, y, x): the rotation centre is always one of the piece's cells, so a
    // state that fits has x in 0..10 and y in 0..40.
    let index =
        |p: &Piece| (p.rotation.index() * 40 + p.y as usize) * WIDTH as usize + p.x as usize;
    let mut seen = vec![false; 4 * 40 * WIDTH as usize];
    let mut queue = VecDeque::from([(start, 0u32)]);
    seen[index(&start)] = true;
    while let Some((piece, depth)) = queue.pop_front() {
        if cells(&board.drop_position(&piece)) == goal {
            return Some(depth);
        }
        for next in successors(board, piece, allow_180) {
            let i = index(&next);
            if !seen[i] {
                seen[i] = true;
                queue.push_back((next, depth + 1));
            }
        }
    }
    None
}

/// Every state one press away from `piece`.
fn successors(board: &Board, piece: Piece, allow_180: bool) -> impl Iterator<Item = Piece> {
    let slide = |dx: i8| {
        let mut p = piece;
        while !board.collides(&p.shifted(dx, 0)) {
            p = p.shifted(dx, 0);
        }
        (p != piece).then_some(p)
    };
    let tap = |dx: i8| Some(piece.shifted(dx, 0)).filter(|p| !board.collides(p));
    let turn = |to: Rotation| {
        srs::kicks(piece.kind, piece.rotation, to)
            .as_slice()
            .iter()
            .map(|&(dx, dy)| Piece {
                rotation: to,
                ..piece.shifted(dx, dy)
            })
            .find(|p| !board.collides(p))
    };
    let soft = Some(board.drop_position(&piece)).filter(|p| *p != piece);
    let flip = if allow_180 {
        turn(piece.rotation.flip())
    } else {
        None
    };
    [
        tap(-1),
        tap(1),
        slide(-1),
        slide(1),
        turn(piece.rotation.cw()),
        turn(piece.rotation.ccw()),
        flip,
        soft,
    ]
    .into_iter()
    .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(kind: PieceKind, rotation: Rotation, x: i8, y: i8) -> Piece {
        Piece {
            kind,
            rotation,
            x,
            y,
        }
    }

    #[test]
    fn a_straight_drop_needs_no_press() {
        let board = Board::new();
        let target = board.drop_position(&Piece::spawn(PieceKind::T));
        assert_eq!(min_presses(&board, PieceKind::T, &target, true), Some(0));
    }

    #[test]
    fn the_wall_is_one_das_press_away() {
        let board = Board::new();
        let target = at(PieceKind::T, Rotation::Spawn, 1, 0);
        assert_eq!(min_presses(&board, PieceKind::T, &target, true), Some(1));
    }

    #[test]
    fn one_column_beside_the_wall_is_das_and_a_tap() {
        let board = Board::new();
        let target = at(PieceKind::T, Rotation::Spawn, 2, 0);
        assert_eq!(min_presses(&board, PieceKind::T, &target, true), Some(2));
    }

    #[test]
    fn a_rotation_and_a_tap_cost_two() {
        let board = Board::new();
        let target = board.drop_position(&at(PieceKind::J, Rotation::Right, 5, 20));
        assert_eq!(min_presses(&board, PieceKind::J, &target, true), Some(2));
    }

    #[test]
    fn a_180_counts_once_when_allowed_and_twice_without() {
        let board = Board::new();
        let target = board.drop_position(&at(PieceKind::T, Rotation::Flip, 4, 20));
        assert_eq!(min_presses(&board, PieceKind::T, &target, true), Some(1));
        assert_eq!(min_presses(&board, PieceKind::T, &target, false), Some(2));
    }

    #[test]
    fn presses_count_new_key_downs_only() {
        let frames = [
            Input::LEFT,
            Input::LEFT,
            Input::NONE,
            Input::LEFT | Input::ROTATE_CW,
            Input::HARD_DROP,
        ];
        assert_eq!(presses(Input::NONE, &frames), 3);
        assert_eq!(presses(Input::LEFT, &frames[..2]), 0);
    }
}
