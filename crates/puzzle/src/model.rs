//! What a puzzle is: its kind and options, the goal, the start position and one solution.

use sevenbag_core::{Board, CellKind, Piece, PieceKind, Rules, Spin};

/// The three families of generated puzzles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// Perfect clear: empty the board.
    Pc,
    /// Finish with a T-spin double or triple.
    TSpin,
    /// Clear every garbage row.
    Dig,
}

impl Kind {
    /// All kinds, in menu order.
    pub const ALL: [Kind; 3] = [Kind::Pc, Kind::TSpin, Kind::Dig];

    /// The name used on the command line and in puzzle files.
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Pc => "pc",
            Kind::TSpin => "tspin",
            Kind::Dig => "dig",
        }
    }

    /// Parses [`Kind::name`].
    pub fn from_name(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// Options of one generated puzzle. `rows` means: perfect-clear height (2 or 4), T-spin lines
/// (2 or 3), or garbage rows to dig (1 to 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Options {
    /// The family.
    pub kind: Kind,
    /// Rows of the goal (see the type doc).
    pub rows: u8,
    /// Pieces in the queue; a solution uses at most this many.
    pub pieces: u8,
    /// Whether hold may be used.
    pub hold: bool,
}

impl Options {
    /// The default options of a kind: a 2-row PC of 4 pieces, a TSD in 3 pieces, 2 garbage rows
    /// in 3 pieces; hold off.
    pub const fn default_for(kind: Kind) -> Options {
        let (rows, pieces) = match kind {
            Kind::Pc => (2, 4),
            Kind::TSpin => (2, 3),
            Kind::Dig => (2, 3),
        };
        Options {
            kind,
            rows,
            pieces,
            hold: false,
        }
    }

    /// Checks the options can describe a puzzle at all.
    pub fn validate(&self) -> Result<(), OptionsError> {
        let (rows_ok, pieces_ok) = match self.kind {
            Kind::Pc => (matches!(self.rows, 2 | 4), (3..=10).contains(&self.pieces)),
            Kind::TSpin => (matches!(self.rows, 2 | 3), (1..=6).contains(&self.pieces)),
            Kind::Dig => ((1..=4).contains(&self.rows), (1..=8).contains(&self.pieces)),
        };
        if !rows_ok {
            return Err(OptionsError::Rows(self.kind, self.rows));
        }
        if !pieces_ok {
            return Err(OptionsError::Pieces(self.kind, self.pieces));
        }
        let cells = 4 * u32::from(self.pieces);
        let room = 10 * u32::from(self.rows);
        if self.kind == Kind::Pc && cells > room {
            return Err(OptionsError::TooManyCells { cells, room });
        }
        Ok(())
    }

    /// The goal these options ask for.
    pub const fn goal(&self) -> Goal {
        match self.kind {
            Kind::Pc => Goal::PerfectClear { rows: self.rows },
            Kind::TSpin => Goal::TSpin { lines: self.rows },
            Kind::Dig => Goal::Dig { rows: self.rows },
        }
    }
}

/// Options that cannot make a puzzle.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OptionsError {
    /// Rows out of range for the kind.
    #[error("{} puzzles take rows {}, not {}", .0.name(), rows_allowed(*.0), .1)]
    Rows(Kind, u8),
    /// Piece count out of range for the kind.
    #[error("{} puzzles take {} pieces, not {}", .0.name(), pieces_allowed(*.0), .1)]
    Pieces(Kind, u8),
    /// More piece cells than the perfect-clear rows hold.
    #[error("the pieces fill {cells} cells but the rows to clear hold only {room}")]
    TooManyCells {
        /// Cells the pieces fill.
        cells: u32,
        /// Cells in the rows.
        room: u32,
    },
}

fn rows_allowed(kind: Kind) -> &'static str {
    match kind {
        Kind::Pc => "2 or 4",
        Kind::TSpin => "2 (double) or 3 (triple)",
        Kind::Dig => "1 to 4",
    }
}

fn pieces_allowed(kind: Kind) -> &'static str {
    match kind {
        Kind::Pc => "3 to 10",
        Kind::TSpin => "1 to 6",
        Kind::Dig => "1 to 8",
    }
}

/// What reaching the end of a puzzle means.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Goal {
    /// The board is empty (the position lies within `rows` rows).
    PerfectClear {
        /// Height of the clear, 2 or 4.
        rows: u8,
    },
    /// A T piece locks with a full (not mini) T-spin clearing exactly `lines` rows.
    TSpin {
        /// 2 (double) or 3 (triple).
        lines: u8,
    },
    /// No garbage cell is left (the bottom `rows` rows are garbage at the start).
    Dig {
        /// Garbage rows at the start.
        rows: u8,
    },
}

impl Goal {
    /// Whether a lock (its piece, spin and lines) leaving `board` reaches the goal.
    pub fn reached(&self, board: &Board, piece: PieceKind, spin: Spin, lines: u8) -> bool {
        match *self {
            Goal::PerfectClear { .. } => board.is_empty(),
            Goal::TSpin { lines: want } => {
                piece == PieceKind::T && spin == Spin::Full && lines == want
            }
            Goal::Dig { .. } => !has_garbage(board),
        }
    }

    /// The highest row (exclusive) a solution may fill: the PC height, or two rows above the
    /// start's stack (or the goal's rows) for the others. Keeps the solver's count finite.
    pub fn ceiling(&self, start: &Board) -> i8 {
        match *self {
            Goal::PerfectClear { rows } => rows as i8,
            Goal::TSpin { lines: rows } | Goal::Dig { rows } => {
                (start.stack_height().max(rows as i8) + 2).min(20)
            }
        }
    }
}

/// Whether any garbage cell is on the board.
pub fn has_garbage(board: &Board) -> bool {
    (0..20).any(|y| (0..10).any(|x| board.cell(x, y) == Some(CellKind::Garbage)))
}

/// One placement of a solution, in play order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Step {
    /// Where the piece locks.
    pub piece: Piece,
    /// Whether this piece comes out of a hold (the hold slot, or the next piece if it was empty).
    pub hold: bool,
    /// The T-spin the lock makes.
    pub spin: Spin,
}

/// A generated puzzle with one solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// The options it was made with.
    pub options: Options,
    /// The generator seed.
    pub seed: u64,
    /// The start position.
    pub board: Board,
    /// The queue, first piece first (hold starts empty).
    pub queue: Vec<PieceKind>,
    /// One solution, as placements in play order.
    pub solution: Vec<Step>,
    /// The grade, if the puzzle was graded.
    pub grade: Option<Grade>,
}

impl Puzzle {
    /// The goal.
    pub fn goal(&self) -> Goal {
        self.options.goal()
    }
}

/// The rules puzzles are played and checked under: the default room rules (SRS, 180° on).
pub fn puzzle_rules() -> Rules {
    Rules::default()
}

/// How hard a puzzle is, from the solver's count and effort (docs/PUZZLES.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Difficulty {
    /// Many solutions, found quickly.
    Easy,
    /// A few solutions.
    Medium,
    /// One or two solutions, or a long search.
    Hard,
}

impl Difficulty {
    /// All, easiest first.
    pub const ALL: [Difficulty; 3] = [Difficulty::Easy, Difficulty::Medium, Difficulty::Hard];

    /// The name used in files and on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Medium => "medium",
            Difficulty::Hard => "hard",
        }
    }

    /// Parses [`Difficulty::name`].
    pub fn from_name(name: &str) -> Option<Difficulty> {
        Difficulty::ALL.into_iter().find(|d| d.name() == name)
    }
}

/// The solver's verdict used for grading.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Grade {
    /// Distinct solutions found, up to the cap.
    pub solutions: u32,
    /// Whether the count stopped at the cap (or the node budget).
    pub capped: bool,
    /// Search nodes the solver expanded.
    pub effort: u64,
}

impl Grade {
    /// Easy from 8 solutions, medium from 3, else hard; a search over 20,000 nodes makes it one
    /// step harder.
    pub fn difficulty(&self) -> Difficulty {
        let base = match self.solutions {
            8.. => Difficulty::Easy,
            3..=7 => Difficulty::Medium,
            _ => Difficulty::Hard,
        };
        match (base, self.effort > 20_000) {
            (Difficulty::Easy, true) => Difficulty::Medium,
            (_, true) => Difficulty::Hard,
            (d, false) => d,
        }
    }
}
