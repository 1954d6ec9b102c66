//! The puzzle text format (docs/PUZZLES.md): line-based, `#` comments, size-limited, every
//! error names its line.

use sevenbag_core::{Board, CellKind, Piece, PieceKind, Rotation, Spin};

use crate::model::{Goal, Grade, Kind, Options, Puzzle, Step};

/// Largest puzzle file accepted, in bytes.
pub const MAX_BYTES: usize = 16 * 1024;
/// Most lines accepted.
pub const MAX_LINES: usize = 200;
/// The first line of every puzzle file.
pub const MAGIC: &str = "sevenbag-puzzle 1";

/// A refused puzzle file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// Over [`MAX_BYTES`] or [`MAX_LINES`].
    #[error("puzzle file too large: {0}")]
    TooLarge(String),
    /// A line is wrong.
    #[error("line {line}: {reason}")]
    Line {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// Something required never came.
    #[error("line {line}: file ends early: {missing}")]
    Missing {
        /// Last line number read.
        line: usize,
        /// What is missing.
        missing: &'static str,
    },
}

/// The goal in words (also the `goal` line, which is informative).
pub fn goal_text(goal: &Goal) -> String {
    match goal {
        Goal::PerfectClear { rows } => format!("perfect clear of {rows} rows"),
        Goal::TSpin { lines: 2 } => "finish with a T-spin double".to_string(),
        Goal::TSpin { lines } => format!("finish with a T-spin clearing {lines} lines"),
        Goal::Dig { rows } => format!("clear all {rows} garbage rows"),
    }
}

fn spin_name(spin: Spin) -> &'static str {
    match spin {
        Spin::None => "none",
        Spin::Mini => "mini",
        Spin::Full => "full",
    }
}

fn cell_char(cell: Option<CellKind>) -> char {
    match cell {
        None => '.',
        Some(CellKind::Garbage) => 'G',
        Some(CellKind::Piece(k)) => k.letter(),
    }
}

/// Writes `puzzle` in the text format.
pub fn to_text(puzzle: &Puzzle) -> String {
    let o = &puzzle.options;
    let mut s = String::new();
    s.push_str(MAGIC);
    s.push('\n');
    s.push_str(&format!("# goal: {}\n", goal_text(&puzzle.goal())));
    s.push_str(&format!(
        "kind {}\nrows {}\npieces {}\n",
        o.kind.name(),
        o.rows,
        o.pieces
    ));
    s.push_str(&format!(
        "hold {}\nseed {}\n",
        if o.hold { "on" } else { "off" },
        puzzle.seed
    ));
    s.push_str("queue ");
    s.extend(puzzle.queue.iter().map(|k| k.letter()));
    s.push('\n');
    let height = puzzle.board.stack_height().max(0);
    s.push_str(&format!("board {height}\n"));
    for y in (0..height).rev() {
        s.extend((0..10).map(|x| cell_char(puzzle.board.cell(x, y))));
        s.push('\n');
    }
    if let Some(g) = puzzle.grade {
        s.push_str(&format!(
            "# difficulty {} ({}{} solutions, {} search nodes)\n",
            g.difficulty().name(),
            g.solutions,
            if g.capped { "+" } else { "" },
            g.effort
        ));
    }
    s.push_str(&format!("solution {}\n", puzzle.solution.len()));
    s.push_str("# kind rotation x y hold spin (x, y: rotation centre, row 0 at the bottom)\n");
    for st in &puzzle.solution {
        s.push_str(&format!(
            "{} {} {} {} {} {}\n",
            st.piece.kind.letter(),
            st.piece.rotation.name(),
            st.piece.x,
            st.piece.y,
            if st.hold { "hold" } else { "-" },
            spin_name(st.spin)
        ));
    }
    s.push_str("end\n");
    s
}

struct Lines<'a> {
    inner: std::iter::Enumerate<std::str::Lines<'a>>,
    last: usize,
}

impl<'a> Lines<'a> {
    /// The next non-comment, non-blank line and its number.
    fn next(&mut self, missing: &'static str) -> Result<(usize, &'a str), ParseError> {
        for (i, raw) in self.inner.by_ref() {
            self.last = i + 1;
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            return Ok((i + 1, line));
        }
        Err(ParseError::Missing {
            line: self.last,
            missing,
        })
    }

    /// The next line, which must be `key value`; returns the value.
    fn field(&mut self, key: &'static str) -> Result<(usize, &'a str), ParseError> {
        let (n, line) = self.next(key)?;
        match line.split_once(' ') {
            Some((k, v)) if k == key => Ok((n, v.trim())),
            _ => Err(bad(
                n,
                format!("expected `{key} ...`, found `{}`", clip(line)),
            )),
        }
    }
}

fn bad(line: usize, reason: String) -> ParseError {
    ParseError::Line { line, reason }
}

/// A line shortened for error messages.
fn clip(s: &str) -> String {
    s.chars().take(40).collect()
}

fn number<T: std::str::FromStr>(line: usize, what: &str, v: &str) -> Result<T, ParseError> {
    v.parse()
        .map_err(|_| bad(line, format!("{what} `{}` is not a valid number", clip(v))))
}

/// Parses a puzzle file. Checks its shape and values, not that the solution works (see
/// [`crate::check`]).
pub fn parse(text: &str) -> Result<Puzzle, ParseError> {
    if text.len() > MAX_BYTES {
        return Err(ParseError::TooLarge(format!(
            "{} bytes, limit {MAX_BYTES}",
            text.len()
        )));
    }
    if text.lines().count() > MAX_LINES {
        return Err(ParseError::TooLarge(format!("over {MAX_LINES} lines")));
    }
    let mut it = Lines {
        inner: text.lines().enumerate(),
        last: 0,
    };
    let (n, first) = it.next("the `sevenbag-puzzle 1` header")?;
    if first != MAGIC {
        return Err(bad(
            n,
            format!("expected `{MAGIC}`, found `{}`", clip(first)),
        ));
    }
    let (n, v) = it.field("kind")?;
    let kind = Kind::from_name(v)
        .ok_or_else(|| bad(n, format!("unknown kind `{}` (pc, tspin, dig)", clip(v))))?;
    let (n, v) = it.field("rows")?;
    let rows = number(n, "rows", v)?;
    let (n, v) = it.field("pieces")?;
    let pieces = number(n, "pieces", v)?;
    let (n, v) = it.field("hold")?;
    let hold = match v {
        "on" => true,
        "off" => false,
        _ => {
            return Err(bad(
                n,
                format!("hold must be `on` or `off`, not `{}`", clip(v)),
            ));
        }
    };
    let options = Options {
        kind,
        rows,
        pieces,
        hold,
    };
    options.validate().map_err(|e| bad(n, e.to_string()))?;
    let (_, v) = it.field("seed")?;
    let seed = number(n + 1, "seed", v)?;
    let (n, v) = it.field("queue")?;
    let queue: Vec<PieceKind> = v
        .chars()
        .map(|c| {
            PieceKind::from_letter(c)
                .ok_or_else(|| bad(n, format!("`{c}` is not a piece letter (IOTSZJL)")))
        })
        .collect::<Result<_, _>>()?;
    if queue.len() != usize::from(pieces) {
        return Err(bad(
            n,
            format!(
                "the queue has {} pieces, `pieces` says {pieces}",
                queue.len()
            ),
        ));
    }
    let (n, v) = it.field("board")?;
    let height: usize = number(n, "board height", v)?;
    if height > 20 {
        return Err(bad(n, format!("board height {height} is over 20")));
    }
    let mut board = Board::new();
    for i in 0..height {
        let (n, row) = it.next("board rows")?;
        if row.chars().count() != 10 {
            return Err(bad(
                n,
                format!("a board row has 10 cells, this one {}", row.chars().count()),
            ));
        }
        let y = (height - 1 - i) as i8;
        for (x, c) in row.chars().enumerate() {
            let cell = match c {
                '.' => None,
                'G' => Some(CellKind::Garbage),
                c => Some(CellKind::Piece(PieceKind::from_letter(c).ok_or_else(
                    || {
                        bad(
                            n,
                            format!("`{c}` is not a cell (`.`, `G` or a piece letter)"),
                        )
                    },
                )?)),
            };
            if let Some(cell) = cell {
                board.set(x as i8, y, cell);
            }
        }
        if board.row(y) == 0x3ff {
            return Err(bad(n, "a start row may not be full".into()));
        }
    }
    let (n, v) = it.field("solution")?;
    let count: usize = number(n, "solution length", v)?;
    if count == 0 || count > queue.len() {
        return Err(bad(
            n,
            format!(
                "solution length {count} must be 1 to the queue length {}",
                queue.len()
            ),
        ));
    }
    let mut solution = Vec::with_capacity(count);
    for _ in 0..count {
        let (n, line) = it.next("solution placements")?;
        solution.push(parse_step(n, line)?);
    }
    let (n, last) = it.next("the closing `end`")?;
    if last != "end" {
        return Err(bad(n, format!("expected `end`, found `{}`", clip(last))));
    }
    if let Ok((n, extra)) = it.next("") {
        return Err(bad(n, format!("text after `end`: `{}`", clip(extra))));
    }
    Ok(Puzzle {
        options,
        seed,
        board,
        queue,
        solution,
        grade: None::<Grade>,
    })
}

fn parse_step(n: usize, line: &str) -> Result<Step, ParseError> {
    let t: Vec<&str> = line.split_whitespace().collect();
    if t.len() != 6 {
        return Err(bad(
            n,
            format!(
                "a placement is `KIND ROTATION X Y HOLD SPIN`, found `{}`",
                clip(line)
            ),
        ));
    }
    let mut k = t[0].chars();
    let kind = match (k.next().and_then(PieceKind::from_letter), k.next()) {
        (Some(kind), None) => kind,
        _ => return Err(bad(n, format!("`{}` is not a piece letter", clip(t[0])))),
    };
    let rotation = Rotation::ALL
        .into_iter()
        .find(|r| r.name() == t[1])
        .ok_or_else(|| bad(n, format!("rotation `{}` is not 0, R, 2 or L", clip(t[1]))))?;
    let x: i8 = number(n, "x", t[2])?;
    let y: i8 = number(n, "y", t[3])?;
    if !(0..10).contains(&x) || !(0..24).contains(&y) {
        return Err(bad(n, format!("position ({x}, {y}) is off the board")));
    }
    let hold = match t[4] {
        "hold" => true,
        "-" => false,
        v => {
            return Err(bad(
                n,
                format!("hold must be `hold` or `-`, not `{}`", clip(v)),
            ));
        }
    };
    let spin = match t[5] {
        "none" => Spin::None,
        "mini" => Spin::Mini,
        "full" => Spin::Full,
        v => {
            return Err(bad(
                n,
                format!("spin must be none, mini or full, not `{}`", clip(v)),
            ));
        }
    };
    let piece = Piece {
        kind,
        rotation,
        x,
        y,
    };
    if piece
        .cells()
        .iter()
        .any(|&(cx, cy)| !(0..10).contains(&cx) || !(0..24).contains(&cy))
    {
        return Err(bad(n, "the piece sticks out of the board".into()));
    }
    Ok(Step { piece, hold, spin })
}
