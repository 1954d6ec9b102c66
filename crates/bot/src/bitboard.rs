//! The search board: ten column words, bit y of column x set when (x, y) is filled.
//!
//! This is cold-clear's board layout. A full row is the AND of all columns; a column's height is
//! one word's leading zeros; a piece collides when any of its (at most four) column masks meets
//! its column. Rows 40 and up count as filled (the core treats them as outside the field), so
//! collision needs no ceiling test beyond one OR.

use sevenbag_core::{Board, CellKind, Piece, PieceKind, Rotation};

/// Columns on the board.
pub const COLUMNS: usize = 10;
/// Rows on the board (visible and hidden).
pub const ROWS: i8 = 40;
/// Bits of the rows that exist.
const FIELD: u64 = (1 << ROWS) - 1;
/// Bits above the field, which count as filled.
const CEILING: u64 = !FIELD;

/// One column of a piece shape: its offset from the centre, its lowest cell and the cells as a
/// bit mask relative to that lowest cell.
#[derive(Clone, Copy, Debug)]
struct ColumnShape {
    dx: i8,
    bottom: i8,
    mask: u64,
}

/// The columns one (kind, rotation) covers.
#[derive(Clone, Copy, Debug)]
struct Shape {
    cols: [ColumnShape; 4],
    len: usize,
}

const fn build_shape(kind: PieceKind, rotation: Rotation) -> Shape {
    let cells = kind.cells(rotation);
    let empty = ColumnShape {
        dx: 0,
        bottom: 0,
        mask: 0,
    };
    let mut shape = Shape {
        cols: [empty; 4],
        len: 0,
    };
    // Bottom of each column first, then the masks relative to it.
    let mut i = 0;
    while i < 4 {
        let (dx, dy) = cells[i];
        let mut j = 0;
        let mut found = false;
        while j < shape.len {
            if shape.cols[j].dx == dx {
                found = true;
                if dy < shape.cols[j].bottom {
                    shape.cols[j].bottom = dy;
                }
            }
            j += 1;
        }
        if !found {
            shape.cols[shape.len] = ColumnShape {
                dx,
                bottom: dy,
                mask: 0,
            };
            shape.len += 1;
        }
        i += 1;
    }
    let mut i = 0;
    while i < 4 {
        let (dx, dy) = cells[i];
        let mut j = 0;
        while j < shape.len {
            if shape.cols[j].dx == dx {
                shape.cols[j].mask |= 1 << (dy - shape.cols[j].bottom);
            }
            j += 1;
        }
        i += 1;
    }
    shape
}

const fn build_shapes() -> [[Shape; 4]; 7] {
    let empty = build_shape(PieceKind::O, Rotation::Spawn);
    let mut table = [[empty; 4]; 7];
    let mut k = 0;
    while k < 7 {
        let mut r = 0;
        while r < 4 {
            let kind = PieceKind::ALL[k];
            table[k][r] = build_shape(kind, Rotation::ALL[r]);
            r += 1;
        }
        k += 1;
    }
    table
}

const SHAPES: [[Shape; 4]; 7] = build_shapes();

/// The board as ten column words. `Copy`, 80 bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct BitBoard {
    /// Column x: bit y set when (x, y) is filled. Bits 40 and up are always clear.
    pub cols: [u64; COLUMNS],
}

impl BitBoard {
    /// An empty board.
    pub const fn new() -> BitBoard {
        BitBoard { cols: [0; COLUMNS] }
    }

    /// The occupancy of a core board.
    pub fn from_board(board: &Board) -> BitBoard {
        let mut cols = [0u64; COLUMNS];
        for y in 0..ROWS {
            let row = board.row(y);
            if row == 0 {
                continue;
            }
            for (x, col) in cols.iter_mut().enumerate() {
                *col |= u64::from(row >> x & 1) << y;
            }
        }
        BitBoard { cols }
    }

    /// A core board with the same cells (all drawn as garbage): for the core's own rules.
    pub fn to_board(&self) -> Board {
        let mut board = Board::new();
        for (x, &col) in self.cols.iter().enumerate() {
            let mut bits = col;
            while bits != 0 {
                let y = bits.trailing_zeros() as i8;
                board.set(x as i8, y, CellKind::Garbage);
                bits &= bits - 1;
            }
        }
        board
    }

    /// Builds a board from text rows, top first, as [`Board::from_rows`] does.
    pub fn from_rows(lines: &[&str]) -> BitBoard {
        BitBoard::from_board(&Board::from_rows(lines))
    }

    /// True when (x, y) is filled or outside the field.
    #[inline]
    pub fn occupied(&self, x: i8, y: i8) -> bool {
        if !(0..COLUMNS as i8).contains(&x) || !(0..ROWS).contains(&y) {
            return true;
        }
        self.cols[x as usize] >> y & 1 == 1
    }

    /// Height of column x: one more than its highest filled cell.
    #[inline]
    pub fn height(&self, x: usize) -> i8 {
        (64 - self.cols[x].leading_zeros()) as i8
    }

    /// All ten column heights.
    pub fn heights(&self) -> [i8; COLUMNS] {
        std::array::from_fn(|x| self.height(x))
    }

    /// The highest column's height.
    pub fn max_height(&self) -> i8 {
        (64 - self.cols.iter().fold(0, |a, &c| a | c).leading_zeros()) as i8
    }

    /// True when no cell is filled.
    pub fn is_empty(&self) -> bool {
        self.cols.iter().all(|&c| c == 0)
    }

    /// True when a piece of `kind` in `rotation` with its centre at (x, y) overlaps a filled cell
    /// or leaves the field.
    #[inline]
    pub fn collides(&self, kind: PieceKind, rotation: Rotation, x: i8, y: i8) -> bool {
        let shape = &SHAPES[kind.index()][rotation.index()];
        for c in &shape.cols[..shape.len] {
            let cx = x + c.dx;
            let r = y + c.bottom;
            if !(0..COLUMNS as i8).contains(&cx) || !(0..ROWS).contains(&r) {
                return true;
            }
            if (self.cols[cx as usize] | CEILING) >> r & c.mask != 0 {
                return true;
            }
        }
        false
    }

    /// True when the piece overlaps or leaves the field.
    #[inline]
    pub fn collides_piece(&self, p: &Piece) -> bool {
        self.collides(p.kind, p.rotation, p.x, p.y)
    }

    /// Rows a piece that fits at (x, y) can fall before it lands (0 when grounded).
    #[inline]
    pub fn drop_distance(&self, kind: PieceKind, rotation: Rotation, x: i8, y: i8) -> i8 {
        let shape = &SHAPES[kind.index()][rotation.index()];
        let mut best = i8::MAX;
        for c in &shape.cols[..shape.len] {
            let r = y + c.bottom;
            let below = self.cols[(x + c.dx) as usize] & ((1u64 << r) - 1);
            let top = (64 - below.leading_zeros()) as i8;
            best = best.min(r - top);
        }
        best
    }

    /// The piece moved down as far as it goes.
    #[inline]
    pub fn drop_position(&self, p: &Piece) -> Piece {
        p.shifted(0, -self.drop_distance(p.kind, p.rotation, p.x, p.y))
    }

    /// True when the piece cannot move one row down.
    #[inline]
    pub fn grounded(&self, p: &Piece) -> bool {
        self.drop_distance(p.kind, p.rotation, p.x, p.y) == 0
    }

    /// Writes the piece's cells into the board (cells outside the field are ignored).
    pub fn place(&mut self, p: &Piece) {
        for (x, y) in p.cells() {
            if (0..COLUMNS as i8).contains(&x) && (0..ROWS).contains(&y) {
                self.cols[x as usize] |= 1 << y;
            }
        }
    }

    /// A mask of the full rows.
    #[inline]
    pub fn full_rows(&self) -> u64 {
        self.cols.iter().fold(FIELD, |a, &c| a & c)
    }

    /// Removes full rows, drops the rows above, and returns how many went.
    pub fn clear_lines(&mut self) -> u8 {
        let mut full = self.full_rows();
        let lines = full.count_ones() as u8;
        // Highest row first, so lower row numbers stay valid.
        while full != 0 {
            let y = 63 - full.leading_zeros();
            let low = (1u64 << y) - 1;
            for c in &mut self.cols {
                *c = (*c & low) | ((*c >> 1) & !low);
            }
            full &= low;
        }
        lines
    }

    /// Pushes `lines` garbage rows with a hole at column `hole` under the stack. Returns false
    /// when a filled cell is pushed above the top row (a top out), like the core.
    pub fn push_garbage(&mut self, lines: u32, hole: usize) -> bool {
        if lines == 0 {
            return true;
        }
        let lines = lines.min(ROWS as u32);
        let mut ok = true;
        let fill = (1u64 << lines) - 1;
        for (x, c) in self.cols.iter_mut().enumerate() {
            if *c >> (ROWS as u32 - lines) != 0 {
                ok = false;
            }
            *c = (*c << lines) & FIELD;
            if x != hole {
                *c |= fill;
            }
        }
        ok
    }

    /// For each rotation and centre column, a word whose bit y is set when the piece centred at
    /// (x, y) would collide: collision then costs one shift. Built once per move search.
    pub fn collision_map(&self, kind: PieceKind) -> [[u64; COLUMNS]; 4] {
        let mut map = [[0u64; COLUMNS]; 4];
        for (r, rot_map) in map.iter_mut().enumerate() {
            let shape = &SHAPES[kind.index()][r];
            for (x, m) in rot_map.iter_mut().enumerate() {
                for c in &shape.cols[..shape.len] {
                    let cx = x as i8 + c.dx;
                    if !(0..COLUMNS as i8).contains(&cx) {
                        *m = !0;
                        break;
                    }
                    let col = self.cols[cx as usize] | CEILING;
                    let mut bits = c.mask;
                    while bits != 0 {
                        let off = c.bottom + bits.trailing_zeros() as i8;
                        if off >= 0 {
                            *m |= col >> off;
                        } else {
                            *m |= col << -off | ((1u64 << -off) - 1);
                        }
                        bits &= bits - 1;
                    }
                }
            }
        }
        map
    }

    /// Row y as the core's bit-row (bit x = column x).
    pub fn row(&self, y: i8) -> u16 {
        self.cols
            .iter()
            .enumerate()
            .fold(0u16, |acc, (x, &c)| acc | ((c >> y & 1) as u16) << x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_through_the_core_board() {
        let board = Board::from_rows(&["#...#.....", "##.#######", "#########."]);
        let bits = BitBoard::from_board(&board);
        for y in 0..ROWS {
            assert_eq!(bits.row(y), board.row(y));
        }
        assert_eq!(BitBoard::from_board(&bits.to_board()), bits);
        assert_eq!(bits.heights(), [3, 2, 1, 2, 3, 2, 2, 2, 2, 2]);
    }

    #[test]
    fn collision_matches_the_core_everywhere() {
        let board = Board::from_rows(&["#...#....#", "##.####.##", "#########."]);
        let bits = BitBoard::from_board(&board);
        for kind in PieceKind::ALL {
            for rotation in Rotation::ALL {
                for x in -3..13 {
                    for y in -3..44 {
                        let p = Piece {
                            kind,
                            rotation,
                            x,
                            y,
                        };
                        assert_eq!(bits.collides_piece(&p), board.collides(&p), "{p:?}");
                        if !board.collides(&p) {
                            assert_eq!(bits.drop_position(&p), board.drop_position(&p));
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn collision_map_agrees_with_collision() {
        let bits = BitBoard::from_rows(&["#...#....#", "##.####.##", "#########."]);
        for kind in PieceKind::ALL {
            let map = bits.collision_map(kind);
            for rotation in Rotation::ALL {
                for x in 0..10 {
                    for y in 0..60 {
                        let expected = bits.collides(kind, rotation, x, y);
                        let got = map[rotation.index()][x as usize] >> y & 1 == 1;
                        assert_eq!(got, expected, "{kind:?} {rotation:?} {x} {y}");
                    }
                }
            }
        }
    }

    #[test]
    fn clearing_matches_the_core() {
        let mut board = Board::from_rows(&[
            "#...#.....",
            "##########",
            "#.#.#.#.#.",
            "##########",
            "#########.",
        ]);
        let mut bits = BitBoard::from_board(&board);
        assert_eq!(bits.clear_lines(), 2);
        board.clear_lines();
        assert_eq!(bits, BitBoard::from_board(&board));
    }
}
