//! The 10 × 40 playfield: one occupancy bit-row per line plus a packed colour row for drawing.
//!
//! Rows 0..20 are visible and 20..40 the hidden buffer. Outside the field counts as occupied, so
//! walls and floor need no special case. The type is `Copy` and heap-free: a snapshot is a copy.

use crate::piece::{Piece, PieceKind};

/// Columns on the board.
pub const WIDTH: i8 = 10;
/// Rows on the board, visible and hidden.
pub const HEIGHT: i8 = 40;
/// Rows a player can see (0..20).
pub const VISIBLE_HEIGHT: i8 = 20;
/// Occupancy bits of a full row.
pub const FULL_ROW: u16 = (1 << WIDTH) - 1;

/// What fills one board cell: a locked piece's colour or a garbage block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CellKind {
    /// A block left by a locked piece of this kind.
    Piece(PieceKind),
    /// A block of risen garbage.
    Garbage,
}

impl CellKind {
    const fn nibble(self) -> u64 {
        match self {
            CellKind::Piece(kind) => kind as u64 + 1,
            CellKind::Garbage => 8,
        }
    }

    const fn from_nibble(nibble: u64) -> Option<CellKind> {
        match nibble {
            0 => None,
            8 => Some(CellKind::Garbage),
            n => match PieceKind::from_index(n as usize - 1) {
                Some(kind) => Some(CellKind::Piece(kind)),
                None => None,
            },
        }
    }
}

/// The playfield. Invariant: bit x of `rows[y]` is set exactly when nibble x of `colours[y]` is
/// non-zero; both are private so only the methods here keep them in step.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    rows: [u16; HEIGHT as usize],
    colours: [u64; HEIGHT as usize],
}

impl Default for Board {
    fn default() -> Self {
        Board::new()
    }
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let top = self.stack_height().max(1);
        for y in (0..top).rev() {
            let line: String = (0..WIDTH)
                .map(|x| if self.occupied(x, y) { '#' } else { '.' })
                .collect();
            writeln!(f, "{line}")?;
        }
        Ok(())
    }
}

impl Board {
    /// An empty board.
    pub const fn new() -> Board {
        Board {
            rows: [0; HEIGHT as usize],
            colours: [0; HEIGHT as usize],
        }
    }

    /// Builds a board from text rows, top row first: `#`, `G` or a piece letter fill a cell,
    /// anything else leaves it empty. The last line is row 0. Meant for tests and tools.
    pub fn from_rows(lines: &[&str]) -> Board {
        let mut board = Board::new();
        for (i, line) in lines.iter().rev().enumerate() {
            for (x, ch) in line.chars().take(WIDTH as usize).enumerate() {
                let kind = match ch {
                    '#' | 'G' | 'g' => Some(CellKind::Garbage),
                    c => PieceKind::from_letter(c).map(CellKind::Piece),
                };
                if let Some(kind) = kind {
                    board.set(x as i8, i as i8, kind);
                }
            }
        }
        board
    }

    /// True when (x, y) is filled or outside the field.
    pub fn occupied(&self, x: i8, y: i8) -> bool {
        if !(0..WIDTH).contains(&x) || !(0..HEIGHT).contains(&y) {
            return true;
        }
        self.rows[y as usize] >> x & 1 == 1
    }

    /// What fills (x, y), or `None` if it is empty or outside the field.
    pub fn cell(&self, x: i8, y: i8) -> Option<CellKind> {
        if !(0..WIDTH).contains(&x) || !(0..HEIGHT).contains(&y) {
            return None;
        }
        CellKind::from_nibble(self.colours[y as usize] >> (4 * x as u32) & 0xF)
    }

    /// The occupancy bits of row `y` (bit x = column x).
    pub fn row(&self, y: i8) -> u16 {
        self.rows[y as usize]
    }

    /// Fills (x, y) with `kind`. The cell must be inside the field.
    pub fn set(&mut self, x: i8, y: i8, kind: CellKind) {
        debug_assert!((0..WIDTH).contains(&x) && (0..HEIGHT).contains(&y));
        let (xu, yu) = (x as u32, y as usize);
        self.rows[yu] |= 1 << xu;
        self.colours[yu] = self.colours[yu] & !(0xF << (4 * xu)) | kind.nibble() << (4 * xu);
    }

    /// True when the piece overlaps a filled cell or leaves the field.
    pub fn collides(&self, piece: &Piece) -> bool {
        piece.cells().iter().any(|&(x, y)| self.occupied(x, y))
    }

    /// True when the piece cannot move one row down.
    pub fn grounded(&self, piece: &Piece) -> bool {
        self.collides(&piece.shifted(0, -1))
    }

    /// The piece dropped as far as it goes: its hard-drop landing spot (the ghost).
    pub fn drop_position(&self, piece: &Piece) -> Piece {
        let mut p = *piece;
        while !self.grounded(&p) {
            p = p.shifted(0, -1);
        }
        p
    }

    /// Writes the piece's cells into the board.
    pub fn place(&mut self, piece: &Piece) {
        for (x, y) in piece.cells() {
            self.set(x, y, CellKind::Piece(piece.kind));
        }
    }

    /// Removes full rows, moves the rows above down, and reports which rows went.
    pub fn clear_lines(&mut self) -> ClearedRows {
        let mut cleared = ClearedRows::default();
        let mut write = 0usize;
        for read in 0..HEIGHT as usize {
            if self.rows[read] == FULL_ROW {
                if self.colours[read] & GARBAGE_MASK_ROW != 0 && self.has_garbage(read) {
                    cleared.garbage += 1;
                }
                cleared.lines += 1;
                continue;
            }
            self.rows[write] = self.rows[read];
            self.colours[write] = self.colours[read];
            write += 1;
        }
        for y in write..HEIGHT as usize {
            self.rows[y] = 0;
            self.colours[y] = 0;
        }
        cleared
    }

    fn has_garbage(&self, y: usize) -> bool {
        (0..WIDTH as u32).any(|x| self.colours[y] >> (4 * x) & 0xF == 8)
    }

    /// Pushes the stack up by `lines` garbage rows with a hole at `hole`. Returns `false` when a
    /// filled cell is pushed above the top row (a top out); the board is still shifted.
    pub fn push_garbage(&mut self, lines: usize, hole: i8) -> bool {
        let lines = lines.min(HEIGHT as usize);
        if lines == 0 {
            return true;
        }
        let h = HEIGHT as usize;
        let overflow = self.rows[h - lines..].iter().any(|&r| r != 0);
        self.rows.copy_within(0..h - lines, lines);
        self.colours.copy_within(0..h - lines, lines);
        let row = FULL_ROW & !(1 << hole);
        let colour = (0..WIDTH as u32)
            .filter(|&x| x != hole as u32)
            .fold(0u64, |acc, x| acc | 8 << (4 * x));
        for y in 0..lines {
            self.rows[y] = row;
            self.colours[y] = colour;
        }
        !overflow
    }

    /// True when no cell is filled.
    pub fn is_empty(&self) -> bool {
        self.rows.iter().all(|&r| r == 0)
    }

    /// One more than the highest filled row (0 for an empty board).
    pub fn stack_height(&self) -> i8 {
        self.rows
            .iter()
            .rposition(|&r| r != 0)
            .map_or(0, |y| y as i8 + 1)
    }

    /// Height of column x: one more than its highest filled cell.
    pub fn column_height(&self, x: i8) -> i8 {
        self.rows
            .iter()
            .rposition(|&r| r >> x & 1 == 1)
            .map_or(0, |y| y as i8 + 1)
    }

    /// The packed colour rows, for canonical hashing.
    pub(crate) fn colour_rows(&self) -> &[u64; HEIGHT as usize] {
        &self.colours
    }
}

/// Any nibble with its top bit set is garbage (8); a cheap pre-check before the exact scan.
const GARBAGE_MASK_ROW: u64 = 0x88_8888_8888;

/// What a [`Board::clear_lines`] call removed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClearedRows {
    /// Rows removed.
    pub lines: u8,
    /// How many of them held garbage blocks.
    pub garbage: u8,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outside_the_field_counts_as_occupied() {
        let board = Board::new();
        assert!(board.occupied(-1, 0));
        assert!(board.occupied(10, 0));
        assert!(board.occupied(0, -1));
        assert!(!board.occupied(0, 0));
    }

    #[test]
    fn full_rows_clear_and_rows_above_fall() {
        let mut board = Board::from_rows(&["....T.....", "##########", "#########."]);
        let cleared = board.clear_lines();
        assert_eq!(cleared.lines, 1);
        assert_eq!(cleared.garbage, 1);
        assert_eq!(board.row(0), 0b01_1111_1111);
        assert_eq!(board.cell(4, 1), Some(CellKind::Piece(PieceKind::T)));
        assert_eq!(board.row(2), 0);
    }

    #[test]
    fn garbage_rises_with_one_hole() {
        let mut board = Board::from_rows(&["T........."]);
        assert!(board.push_garbage(2, 3));
        assert_eq!(board.row(0), FULL_ROW & !(1 << 3));
        assert_eq!(board.row(1), FULL_ROW & !(1 << 3));
        assert_eq!(board.cell(0, 2), Some(CellKind::Piece(PieceKind::T)));
        assert_eq!(board.cell(0, 0), Some(CellKind::Garbage));
        assert_eq!(board.cell(3, 0), None);
    }

    #[test]
    fn garbage_pushing_a_cell_above_row_39_tops_out() {
        let mut board = Board::new();
        board.set(0, 39, CellKind::Garbage);
        assert!(!board.push_garbage(1, 0));
    }
}
