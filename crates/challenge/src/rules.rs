//! The challenge's own rules: the 10×20 board (y grows down), the seven brick shapes, the fixed
//! sequence, moves without kicks, and the lock/score step, exactly as the organisers' JavaScript.
//!
//! This is deliberately not the guideline core (no SRS, no hold, no lock delay): see
//! `/work/shared/CHALLENGE.md` and docs/CHALLENGE.md.

use serde::{Deserialize, Serialize};

/// Board width in cells.
pub const WIDTH: i32 = 10;
/// Board height in cells (row 0 is the top).
pub const HEIGHT: usize = 20;
/// Number of bricks in the sequence; locking brick number `MAX_BRICKS` ends the game unscored.
pub const MAX_BRICKS: usize = 10_000;
/// A row with all ten cells filled.
pub const FULL_ROW: u16 = 0x3FF;
/// Points per cell on the board, by the number of rows a lock clears.
pub const LINE_FACTOR: [u64; 5] = [0, 1, 3, 6, 10];

/// The seven brick types, in the organisers' index order (0=I .. 6=Z).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Kind {
    I,
    L,
    J,
    T,
    O,
    S,
    Z,
}

impl Kind {
    /// All kinds in index order.
    pub const ALL: [Kind; 7] = [
        Kind::I,
        Kind::L,
        Kind::J,
        Kind::T,
        Kind::O,
        Kind::S,
        Kind::Z,
    ];

    /// The organisers' type index.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The letter used in docs and by `challenge sequence`.
    pub fn letter(self) -> char {
        ['I', 'L', 'J', 'T', 'O', 'S', 'Z'][self.index()]
    }

    /// Cell offsets (dx, dy) from the pivot for `state` (0..4), y down.
    pub fn cells(self, state: u8) -> [(i8, i8); 4] {
        SHAPES[self.index()][(state & 3) as usize]
    }

    /// The number of distinct cell patterns among its four states (I/S/Z: 2, O: 1, else 4).
    pub fn distinct_states(self) -> u8 {
        match self {
            Kind::I | Kind::S | Kind::Z => 2,
            Kind::O => 1,
            _ => 4,
        }
    }
}

/// Shape tables from the contract (`tetris.config.js`), `[kind][state][cell]`.
const SHAPES: [[[(i8, i8); 4]; 4]; 7] = {
    const I0: [(i8, i8); 4] = [(0, 0), (0, -1), (0, -2), (0, 1)];
    const I1: [(i8, i8); 4] = [(0, 0), (1, 0), (2, 0), (-1, 0)];
    const O: [(i8, i8); 4] = [(0, 0), (0, -1), (1, -1), (1, 0)];
    const S0: [(i8, i8); 4] = [(0, 0), (0, -1), (1, -1), (-1, 0)];
    const S1: [(i8, i8); 4] = [(0, 0), (-1, 0), (-1, -1), (0, 1)];
    const Z0: [(i8, i8); 4] = [(0, 0), (0, -1), (1, 0), (-1, -1)];
    const Z1: [(i8, i8); 4] = [(0, 0), (0, -1), (-1, 1), (-1, 0)];
    [
        [I0, I1, I0, I1],
        [
            [(0, 0), (0, -1), (0, -2), (1, 0)],
            [(0, 0), (1, 0), (2, 0), (0, 1)],
            [(0, 0), (-1, 0), (0, 1), (0, 2)],
            [(0, 0), (0, -1), (-1, 0), (-2, 0)],
        ],
        [
            [(0, 0), (0, -1), (0, -2), (-1, 0)],
            [(0, 0), (0, -1), (1, 0), (2, 0)],
            [(0, 0), (1, 0), (0, 1), (0, 2)],
            [(0, 0), (-1, 0), (-2, 0), (0, 1)],
        ],
        [
            [(0, 0), (1, 0), (0, 1), (-1, 0)],
            [(0, 0), (0, -1), (0, 1), (-1, 0)],
            [(0, 0), (0, -1), (1, 0), (-1, 0)],
            [(0, 0), (0, -1), (1, 0), (0, 1)],
        ],
        [O, O, O, O],
        [S0, S1, S0, S1],
        [Z0, Z1, Z0, Z1],
    ]
};

/// One brick of the sequence: its kind and the state it spawns in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Brick {
    pub kind: Kind,
    pub state: u8,
}

/// The fixed sequence generator (an LCG, identical for every player).
#[derive(Clone, Debug)]
pub struct Sequence {
    r: u32,
    index: usize,
}

impl Default for Sequence {
    fn default() -> Self {
        Self::new()
    }
}

impl Sequence {
    /// The generator before brick 1.
    pub fn new() -> Self {
        Sequence { r: 12358, index: 0 }
    }

    /// The whole sequence of [`MAX_BRICKS`] bricks.
    pub fn all() -> Vec<Brick> {
        Sequence::new().take(MAX_BRICKS).collect()
    }
}

impl Iterator for Sequence {
    type Item = Brick;
    fn next(&mut self) -> Option<Brick> {
        self.r = (self.r * 27073 + 17713) % 32749;
        let w = self.r % 29;
        let kind = match w {
            0..=1 => Kind::I,
            2..=4 => Kind::L,
            5..=7 => Kind::J,
            8..=11 => Kind::T,
            12..=16 => Kind::O,
            17..=22 => Kind::S,
            _ => Kind::Z,
        };
        let state = (self.index % 4) as u8;
        self.index += 1;
        Some(Brick { kind, state })
    }
}

/// A brick in play: kind, rotation state and pivot position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Piece {
    pub kind: Kind,
    pub state: u8,
    pub x: i8,
    pub y: i8,
}

impl Piece {
    /// A brick at the spawn pivot (4, 0).
    pub fn spawn(brick: Brick) -> Self {
        Piece {
            kind: brick.kind,
            state: brick.state,
            x: 4,
            y: 0,
        }
    }

    /// Absolute cells (x, y); y may be negative above the board.
    pub fn cells(&self) -> [(i32, i32); 4] {
        self.kind
            .cells(self.state)
            .map(|(dx, dy)| (self.x as i32 + dx as i32, self.y as i32 + dy as i32))
    }
}

/// The playfield: one 10-bit mask per row, bit x = column x, `rows[0]` the top row.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Board {
    pub rows: [u16; HEIGHT],
}

/// What a lock did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LockOutcome {
    /// Rows cleared (0 when the lock ended the game).
    pub lines: u32,
    /// Points scored by this lock.
    pub points: u64,
    /// Whether every row was non-empty after writing the brick (ends the game, unscored).
    pub top_touched: bool,
}

impl Board {
    /// Whether cell (x, y) is filled; cells above the board are free, outside the sides are not.
    pub fn filled(&self, x: i32, y: i32) -> bool {
        if !(0..WIDTH).contains(&x) || y >= HEIGHT as i32 {
            return true;
        }
        y >= 0 && self.rows[y as usize] >> x & 1 == 1
    }

    /// The contract's legality test: all cells inside the sides, not below row 19, and free.
    pub fn fits(&self, piece: &Piece) -> bool {
        piece.cells().iter().all(|&(x, y)| !self.filled(x, y))
    }

    /// Number of filled cells.
    pub fn cell_count(&self) -> u32 {
        self.rows.iter().map(|r| r.count_ones()).sum()
    }

    /// Writes a brick's on-board cells (cells with y < 0 are dropped).
    pub fn write(&mut self, piece: &Piece) {
        for (x, y) in piece.cells() {
            if y >= 0 && (0..WIDTH).contains(&x) && y < HEIGHT as i32 {
                self.rows[y as usize] |= 1 << x;
            }
        }
    }

    /// Whether all 20 rows hold at least one cell (the top-touch rule).
    pub fn top_touched(&self) -> bool {
        self.rows.iter().all(|&r| r != 0)
    }

    /// Removes full rows with naive gravity; returns how many.
    pub fn clear_lines(&mut self) -> u32 {
        let mut out = [0u16; HEIGHT];
        let mut dst = HEIGHT;
        for y in (0..HEIGHT).rev() {
            if self.rows[y] != FULL_ROW {
                dst -= 1;
                out[dst] = self.rows[y];
            }
        }
        self.rows = out;
        dst as u32
    }

    /// Locks `piece`: write, then (unless `round_limited` or the top is touched) score and clear.
    pub fn lock(&mut self, piece: &Piece, round_limited: bool) -> LockOutcome {
        self.write(piece);
        let top_touched = self.top_touched();
        if top_touched || round_limited {
            return LockOutcome {
                lines: 0,
                points: 0,
                top_touched,
            };
        }
        let cells = self.cell_count() as u64;
        let lines = self.clear_lines();
        LockOutcome {
            lines,
            points: cells * LINE_FACTOR[lines as usize],
            top_touched,
        }
    }
}

/// A unit step of an operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Step {
    Left,
    Right,
    Down,
    Rotate,
}

impl Step {
    /// The record letter for this step.
    pub fn letter(self) -> char {
        match self {
            Step::Left => 'L',
            Step::Right => 'R',
            Step::Down => 'D',
            Step::Rotate => 'C',
        }
    }

    /// `piece` after this step (legal or not).
    pub fn apply(self, mut piece: Piece) -> Piece {
        match self {
            Step::Left => piece.x -= 1,
            Step::Right => piece.x += 1,
            Step::Down => piece.y += 1,
            Step::Rotate => piece.state = (piece.state + 1) & 3,
        }
        piece
    }
}

/// Applies one unit step if legal; an illegal step is silently skipped. Returns whether it moved.
pub fn try_step(board: &Board, piece: &mut Piece, step: Step) -> bool {
    let moved = step.apply(*piece);
    if board.fits(&moved) {
        *piece = moved;
        true
    } else {
        false
    }
}
