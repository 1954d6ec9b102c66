//! Between the core's types and TBP's. The core already uses TBP's conventions (SRS cells
//! around the rotation centre, row 0 at the bottom), so positions carry over unchanged.

use sevenbag_core::attack::Chain;
use sevenbag_core::{Board, CellKind, Piece, PieceKind, Rotation, Spin};

use crate::messages::{Orientation, PieceLocation, TbpMove, TbpPiece, TbpSpin};

/// Rows in a TBP board.
pub const ROWS: usize = 40;

/// The TBP letter of a kind.
pub fn piece_to_tbp(k: PieceKind) -> TbpPiece {
    match k {
        PieceKind::I => TbpPiece::I,
        PieceKind::O => TbpPiece::O,
        PieceKind::T => TbpPiece::T,
        PieceKind::S => TbpPiece::S,
        PieceKind::Z => TbpPiece::Z,
        PieceKind::J => TbpPiece::J,
        PieceKind::L => TbpPiece::L,
    }
}

/// The kind of a TBP letter.
pub fn piece_from_tbp(p: TbpPiece) -> PieceKind {
    match p {
        TbpPiece::I => PieceKind::I,
        TbpPiece::O => PieceKind::O,
        TbpPiece::T => PieceKind::T,
        TbpPiece::S => PieceKind::S,
        TbpPiece::Z => PieceKind::Z,
        TbpPiece::J => PieceKind::J,
        TbpPiece::L => PieceKind::L,
    }
}

fn orientation(r: Rotation) -> Orientation {
    match r {
        Rotation::Spawn => Orientation::North,
        Rotation::Right => Orientation::East,
        Rotation::Flip => Orientation::South,
        Rotation::Left => Orientation::West,
    }
}

fn rotation(o: Orientation) -> Rotation {
    match o {
        Orientation::North => Rotation::Spawn,
        Orientation::East => Rotation::Right,
        Orientation::South => Rotation::Flip,
        Orientation::West => Rotation::Left,
    }
}

/// A core placement as a TBP move.
pub fn move_to_tbp(piece: &Piece, spin: Spin) -> TbpMove {
    TbpMove {
        location: PieceLocation {
            kind: piece_to_tbp(piece.kind),
            orientation: orientation(piece.rotation),
            x: i32::from(piece.x),
            y: i32::from(piece.y),
        },
        spin: match spin {
            Spin::None => TbpSpin::None,
            Spin::Mini => TbpSpin::Mini,
            Spin::Full => TbpSpin::Full,
        },
    }
}

/// A TBP move as a core piece and spin; `None` when the position is off any board.
pub fn move_from_tbp(m: &TbpMove) -> Option<(Piece, Spin)> {
    let x = i8::try_from(m.location.x).ok()?;
    let y = i8::try_from(m.location.y).ok()?;
    let piece = Piece {
        kind: piece_from_tbp(m.location.kind),
        rotation: rotation(m.location.orientation),
        x,
        y,
    };
    let spin = match m.spin {
        TbpSpin::None => Spin::None,
        TbpSpin::Mini => Spin::Mini,
        TbpSpin::Full => Spin::Full,
    };
    Some((piece, spin))
}

/// A board as TBP's 40 rows of 10 (row 0 first, which is the bottom).
pub fn board_to_tbp(board: &Board) -> Vec<Vec<Option<char>>> {
    (0..ROWS as i8)
        .map(|y| {
            (0..10)
                .map(|x| {
                    board.cell(x, y).map(|c| match c {
                        CellKind::Piece(k) => k.letter(),
                        _ => 'G',
                    })
                })
                .collect()
        })
        .collect()
}

/// A TBP board as a core board (cells above the core's height are dropped; filled cells
/// become garbage or the piece of their letter).
pub fn board_from_tbp(rows: &[Vec<Option<char>>]) -> Result<Board, String> {
    if rows.len() > ROWS {
        return Err(format!("board has {} rows, at most {ROWS}", rows.len()));
    }
    let mut board = Board::default();
    for (y, row) in rows.iter().enumerate() {
        if row.len() != 10 {
            return Err(format!("board row {y} has {} cells, not 10", row.len()));
        }
        for (x, cell) in row.iter().enumerate() {
            if let Some(c) = cell {
                let kind = PieceKind::from_letter(*c).map_or(CellKind::Garbage, CellKind::Piece);
                board.set(x as i8, y as i8, kind);
            }
        }
    }
    Ok(board)
}

/// TBP's combo count (consecutive clears) from the core's chain.
pub fn combo_to_tbp(chain: &Chain) -> u32 {
    chain.combo.map_or(0, |c| u32::from(c) + 1)
}

/// The core's chain from TBP's combo count and back-to-back flag.
pub fn chain_from_tbp(combo: u32, back_to_back: bool) -> Chain {
    Chain {
        combo: combo.checked_sub(1).map(|c| c.min(255) as u8),
        b2b: u16::from(back_to_back),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_round_trip_through_tbp() {
        for kind in PieceKind::ALL {
            for rotation in Rotation::ALL {
                let p = Piece {
                    kind,
                    rotation,
                    x: 4,
                    y: 2,
                };
                assert_eq!(
                    move_from_tbp(&move_to_tbp(&p, Spin::Mini)),
                    Some((p, Spin::Mini))
                );
            }
        }
    }

    #[test]
    fn boards_round_trip_with_row_zero_at_the_bottom() {
        let board = Board::from_rows(&["#.........", "##########", ".########."]);
        let rows = board_to_tbp(&board);
        assert_eq!(rows.len(), ROWS);
        assert_eq!(rows[2][0], Some('G'));
        assert_eq!(rows[0][0], None);
        let back = board_from_tbp(&rows).unwrap();
        assert_eq!(back.row(0), board.row(0));
        assert_eq!(back.row(2), board.row(2));
    }

    #[test]
    fn combo_counts_clears() {
        let c = chain_from_tbp(0, false);
        assert_eq!(combo_to_tbp(&c), 0);
        assert_eq!(combo_to_tbp(&chain_from_tbp(3, true)), 3);
    }
}
