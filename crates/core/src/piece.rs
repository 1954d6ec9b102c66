//! The seven tetrominoes, their four rotation states and their cells.
//!
//! Cells follow SPEC §1: state 0 cells relative to the rotation centre, other states rotated
//! clockwise about (0, 0) with (x, y) → (y, −x). The table is built at compile time.

use serde::{Deserialize, Serialize};

/// One of the seven tetrominoes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum PieceKind {
    /// The straight piece.
    I,
    /// The square piece.
    O,
    /// The T piece.
    T,
    /// The S piece.
    S,
    /// The Z piece.
    Z,
    /// The J piece.
    J,
    /// The L piece.
    L,
}

impl PieceKind {
    /// All seven kinds in bag order (I, O, T, S, Z, J, L): the order a fresh bag is shuffled from.
    pub const ALL: [PieceKind; 7] = [
        PieceKind::I,
        PieceKind::O,
        PieceKind::T,
        PieceKind::S,
        PieceKind::Z,
        PieceKind::J,
        PieceKind::L,
    ];

    /// The kind's index in [`PieceKind::ALL`] (0..7), used for tables and canonical bytes.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The kind at `index` in [`PieceKind::ALL`], if in range.
    pub const fn from_index(index: usize) -> Option<PieceKind> {
        if index < 7 {
            Some(Self::ALL[index])
        } else {
            None
        }
    }

    /// The guideline letter of the kind.
    pub const fn letter(self) -> char {
        ['I', 'O', 'T', 'S', 'Z', 'J', 'L'][self as usize]
    }

    /// The kind named by a guideline letter (either case).
    pub fn from_letter(letter: char) -> Option<PieceKind> {
        Self::ALL
            .into_iter()
            .find(|k| k.letter() == letter.to_ascii_uppercase())
    }

    /// The cells of this kind in `rotation`, relative to its rotation centre (y up).
    pub const fn cells(self, rotation: Rotation) -> [(i8, i8); 4] {
        CELLS[self as usize][rotation as usize]
    }
}

/// A rotation state: spawn (0), clockwise (R), half turn (2) or counter-clockwise (L).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Rotation {
    /// State 0, the spawn orientation.
    Spawn,
    /// State R, one clockwise turn from spawn.
    Right,
    /// State 2, a half turn from spawn.
    Flip,
    /// State L, one counter-clockwise turn from spawn.
    Left,
}

impl Rotation {
    /// All four states in clockwise order from spawn.
    pub const ALL: [Rotation; 4] = [
        Rotation::Spawn,
        Rotation::Right,
        Rotation::Flip,
        Rotation::Left,
    ];

    /// The state one clockwise turn on.
    pub const fn cw(self) -> Rotation {
        Self::ALL[(self as usize + 1) % 4]
    }

    /// The state one counter-clockwise turn on.
    pub const fn ccw(self) -> Rotation {
        Self::ALL[(self as usize + 3) % 4]
    }

    /// The state a half turn on.
    pub const fn flip(self) -> Rotation {
        Self::ALL[(self as usize + 2) % 4]
    }

    /// The state's index (0 = spawn, 1 = R, 2 = half, 3 = L).
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The guideline name of the state: "0", "R", "2" or "L".
    pub const fn name(self) -> &'static str {
        ["0", "R", "2", "L"][self as usize]
    }
}

const SPAWN_CELLS: [[(i8, i8); 4]; 7] = [
    [(-1, 0), (0, 0), (1, 0), (2, 0)],  // I
    [(0, 0), (1, 0), (0, 1), (1, 1)],   // O
    [(-1, 0), (0, 0), (1, 0), (0, 1)],  // T
    [(-1, 0), (0, 0), (0, 1), (1, 1)],  // S
    [(-1, 1), (0, 1), (0, 0), (1, 0)],  // Z
    [(-1, 1), (-1, 0), (0, 0), (1, 0)], // J
    [(-1, 0), (0, 0), (1, 0), (1, 1)],  // L
];

const fn build_cells() -> [[[(i8, i8); 4]; 4]; 7] {
    let mut table = [[[(0, 0); 4]; 4]; 7];
    let mut kind = 0;
    while kind < 7 {
        let mut cells = SPAWN_CELLS[kind];
        let mut rot = 0;
        while rot < 4 {
            table[kind][rot] = cells;
            let mut i = 0;
            while i < 4 {
                let (x, y) = cells[i];
                cells[i] = (y, -x);
                i += 1;
            }
            rot += 1;
        }
        kind += 1;
    }
    table
}

const CELLS: [[[(i8, i8); 4]; 4]; 7] = build_cells();

/// A piece placed on the board: its kind, rotation and the board position of its rotation centre.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Piece {
    /// Which tetromino.
    pub kind: PieceKind,
    /// Its rotation state.
    pub rotation: Rotation,
    /// Column of the rotation centre.
    pub x: i8,
    /// Row of the rotation centre (0 = bottom).
    pub y: i8,
}

impl Piece {
    /// The spawn column of the rotation centre (SPEC §1).
    pub const SPAWN_X: i8 = 4;
    /// The spawn row of the rotation centre (SPEC §1).
    pub const SPAWN_Y: i8 = 20;

    /// A piece of `kind` at the spawn position in state 0.
    pub const fn spawn(kind: PieceKind) -> Piece {
        Piece {
            kind,
            rotation: Rotation::Spawn,
            x: Self::SPAWN_X,
            y: Self::SPAWN_Y,
        }
    }

    /// The four board cells the piece covers.
    pub fn cells(&self) -> [(i8, i8); 4] {
        self.kind
            .cells(self.rotation)
            .map(|(dx, dy)| (self.x + dx, self.y + dy))
    }

    /// The same piece moved by (dx, dy).
    pub const fn shifted(self, dx: i8, dy: i8) -> Piece {
        Piece {
            x: self.x + dx,
            y: self.y + dy,
            ..self
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn t_points_right_in_state_r() {
        let cells = PieceKind::T.cells(Rotation::Right);
        assert_eq!(cells, [(0, 1), (0, 0), (0, -1), (1, 0)]);
    }

    #[test]
    fn four_clockwise_turns_return_to_spawn() {
        let mut r = Rotation::Spawn;
        for _ in 0..4 {
            r = r.cw();
        }
        assert_eq!(r, Rotation::Spawn);
        assert_eq!(Rotation::Right.ccw(), Rotation::Spawn);
        assert_eq!(Rotation::Left.flip(), Rotation::Right);
    }

    #[test]
    fn letters_round_trip() {
        for kind in PieceKind::ALL {
            assert_eq!(PieceKind::from_letter(kind.letter()), Some(kind));
        }
        assert_eq!(PieceKind::from_letter('x'), None);
    }
}
