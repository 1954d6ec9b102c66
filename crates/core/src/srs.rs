//! Super Rotation System: the offset tables of SPEC §2 and the 180° kick lists.
//!
//! A 90° rotation from state A to B tries `offset[A][i] − offset[B][i]` for i = 0..5 and keeps the
//! first unobstructed one. A 180° rotation tries the basic rotation (offset test 0) and then the
//! TETR.IO-style list for that pair of states; the I piece gets the basic rotation only.

use crate::piece::{PieceKind, Rotation};

type Offsets = [[(i8, i8); 5]; 4];

/// J, L, S, T and Z share one offset table, indexed by rotation state.
const JLSTZ_OFFSETS: Offsets = [
    [(0, 0); 5],
    [(0, 0), (1, 0), (1, -1), (0, 2), (1, 2)],
    [(0, 0); 5],
    [(0, 0), (-1, 0), (-1, -1), (0, 2), (-1, 2)],
];

const I_OFFSETS: Offsets = [
    [(0, 0), (-1, 0), (2, 0), (-1, 0), (2, 0)],
    [(-1, 0), (0, 0), (0, 0), (0, 1), (0, -2)],
    [(-1, 1), (1, 1), (-2, 1), (1, 0), (-2, 0)],
    [(0, 1), (0, 1), (0, 1), (0, -1), (0, 2)],
];

/// The O piece has one test; its offsets only cancel the drift of rotating about a corner.
const O_OFFSETS: [(i8, i8); 4] = [(0, 0), (0, -1), (-1, -1), (-1, 0)];

/// 180° kicks after the basic rotation, indexed by the starting state (0→2, R→L, 2→0, L→R).
const FLIP_KICKS: [[(i8, i8); 5]; 4] = [
    [(0, 1), (1, 1), (-1, 1), (1, 0), (-1, 0)],
    [(1, 0), (1, 2), (1, 1), (0, 2), (0, 1)],
    [(0, -1), (-1, -1), (1, -1), (-1, 0), (1, 0)],
    [(-1, 0), (-1, 2), (-1, 1), (0, 2), (0, 1)],
];

/// The ordered translations a rotation tries (at most six).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kicks {
    tests: [(i8, i8); 6],
    len: u8,
}

impl Kicks {
    /// The translations in the order they are tried.
    pub fn as_slice(&self) -> &[(i8, i8)] {
        &self.tests[..self.len as usize]
    }

    fn from_slice(tests: &[(i8, i8)]) -> Kicks {
        let mut kicks = Kicks {
            tests: [(0, 0); 6],
            len: tests.len() as u8,
        };
        kicks.tests[..tests.len()].copy_from_slice(tests);
        kicks
    }
}

fn offset_kicks(table: &Offsets, from: Rotation, to: Rotation) -> [(i8, i8); 5] {
    let (a, b) = (&table[from.index()], &table[to.index()]);
    std::array::from_fn(|i| (a[i].0 - b[i].0, a[i].1 - b[i].1))
}

/// The kick tests for rotating `kind` from `from` to `to` (90° or 180°).
pub fn kicks(kind: PieceKind, from: Rotation, to: Rotation) -> Kicks {
    if kind == PieceKind::O {
        let (a, b) = (O_OFFSETS[from.index()], O_OFFSETS[to.index()]);
        return Kicks::from_slice(&[(a.0 - b.0, a.1 - b.1)]);
    }
    let table = if kind == PieceKind::I {
        &I_OFFSETS
    } else {
        &JLSTZ_OFFSETS
    };
    if to == from.flip() {
        let basic = offset_kicks(table, from, to)[0];
        if kind == PieceKind::I {
            return Kicks::from_slice(&[basic]);
        }
        let mut tests = [basic; 6];
        tests[1..].copy_from_slice(&FLIP_KICKS[from.index()]);
        return Kicks::from_slice(&tests);
    }
    Kicks::from_slice(&offset_kicks(table, from, to))
}

#[cfg(test)]
mod tests {
    use super::*;
    use PieceKind::*;
    use Rotation::*;

    fn k(kind: PieceKind, from: Rotation, to: Rotation) -> Vec<(i8, i8)> {
        kicks(kind, from, to).as_slice().to_vec()
    }

    #[test]
    fn jlstz_kick_rows_match_the_guideline_table() {
        let rows = [
            (Spawn, Right, [(0, 0), (-1, 0), (-1, 1), (0, -2), (-1, -2)]),
            (Right, Spawn, [(0, 0), (1, 0), (1, -1), (0, 2), (1, 2)]),
            (Right, Flip, [(0, 0), (1, 0), (1, -1), (0, 2), (1, 2)]),
            (Flip, Right, [(0, 0), (-1, 0), (-1, 1), (0, -2), (-1, -2)]),
            (Flip, Left, [(0, 0), (1, 0), (1, 1), (0, -2), (1, -2)]),
            (Left, Flip, [(0, 0), (-1, 0), (-1, -1), (0, 2), (-1, 2)]),
            (Left, Spawn, [(0, 0), (-1, 0), (-1, -1), (0, 2), (-1, 2)]),
            (Spawn, Left, [(0, 0), (1, 0), (1, 1), (0, -2), (1, -2)]),
        ];
        for kind in [J, L, S, T, Z] {
            for (from, to, expected) in rows {
                assert_eq!(
                    k(kind, from, to),
                    expected.to_vec(),
                    "{kind:?} {from:?}->{to:?}"
                );
            }
        }
    }

    #[test]
    fn i_kick_rows_match_the_guideline_table() {
        let rows = [
            (Spawn, Right, [(1, 0), (-1, 0), (2, 0), (-1, -1), (2, 2)]),
            (Right, Spawn, [(-1, 0), (1, 0), (-2, 0), (1, 1), (-2, -2)]),
            (Right, Flip, [(0, -1), (-1, -1), (2, -1), (-1, 1), (2, -2)]),
            (Flip, Right, [(0, 1), (1, 1), (-2, 1), (1, -1), (-2, 2)]),
            (Flip, Left, [(-1, 0), (1, 0), (-2, 0), (1, 1), (-2, -2)]),
            (Left, Flip, [(1, 0), (-1, 0), (2, 0), (-1, -1), (2, 2)]),
            (Left, Spawn, [(0, 1), (1, 1), (-2, 1), (1, -1), (-2, 2)]),
            (Spawn, Left, [(0, -1), (-1, -1), (2, -1), (-1, 1), (2, -2)]),
        ];
        for (from, to, expected) in rows {
            assert_eq!(k(I, from, to), expected.to_vec(), "I {from:?}->{to:?}");
        }
    }

    #[test]
    fn o_has_a_single_test_that_cancels_the_corner_drift() {
        for from in Rotation::ALL {
            for to in [from.cw(), from.ccw(), from.flip()] {
                let tests = k(O, from, to);
                assert_eq!(tests.len(), 1);
                let cells = |r: Rotation, d: (i8, i8)| {
                    let mut c: Vec<_> = O
                        .cells(r)
                        .iter()
                        .map(|&(x, y)| (x + d.0, y + d.1))
                        .collect();
                    c.sort();
                    c
                };
                assert_eq!(cells(to, tests[0]), cells(from, (0, 0)));
            }
        }
    }

    #[test]
    fn flip_kicks_follow_the_basic_rotation() {
        assert_eq!(
            k(T, Spawn, Flip),
            vec![(0, 0), (0, 1), (1, 1), (-1, 1), (1, 0), (-1, 0)]
        );
        assert_eq!(
            k(T, Flip, Spawn),
            vec![(0, 0), (0, -1), (-1, -1), (1, -1), (-1, 0), (1, 0)]
        );
        assert_eq!(
            k(S, Right, Left),
            vec![(0, 0), (1, 0), (1, 2), (1, 1), (0, 2), (0, 1)]
        );
        assert_eq!(
            k(Z, Left, Right),
            vec![(0, 0), (-1, 0), (-1, 2), (-1, 1), (0, 2), (0, 1)]
        );
    }

    #[test]
    fn i_flip_tries_only_the_basic_rotation() {
        assert_eq!(k(I, Spawn, Flip), vec![(1, -1)]);
        assert_eq!(k(I, Right, Left), vec![(-1, -1)]);
    }
}
