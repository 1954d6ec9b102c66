//! The operation record: `N,C1,L4,D18,N,...`. Parsing reports the byte offset and op number of
//! any error, validation applies the organisers' later rules, writing produces the canonical form.
//!
//! Format: ops separated by single commas; surrounding whitespace of the whole text (a trailing
//! newline) is ignored, whitespace inside is an error. `N` takes no count; `L`, `R`, `D`, `C`
//! take a decimal count 1..=100 (leading zeros allowed, as JavaScript's `+count` reads them).
//! The steps of each brick sum to (0, 100]; a record's final `N` may stand alone (the JS skips
//! it when counting), and that brick locks at its spawn position.
//! A record is at most [`MAX_RECORD_BYTES`] bytes; larger input is refused before parsing.

use crate::rules::Step;
use thiserror::Error;

/// Largest record accepted (4 MiB). A full 10,000-brick record of `N` plus 100 single steps
/// each is about 3 MB, so every record the rules can use fits.
pub const MAX_RECORD_BYTES: usize = 4 << 20;
/// Largest sum of step counts between two `N`s (the rule is (0, 100]).
pub const MAX_STEPS_PER_BRICK: u32 = 100;

/// One record entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// Spawn the next brick (and lock the current one).
    New,
    /// Repeat a unit step `count` times (1..=100).
    Steps(Step, u8),
}

/// Why a record was refused, with where.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum RecordError {
    #[error("record is {0} bytes or more; the limit is {MAX_RECORD_BYTES}")]
    TooLarge(usize),
    #[error("record is empty")]
    Empty,
    #[error("op {op} at byte {byte}: {what}")]
    Syntax {
        op: usize,
        byte: usize,
        what: &'static str,
    },
    #[error("op {op} at byte {byte}: the record must start with N")]
    FirstNotN { op: usize, byte: usize },
    #[error(
        "brick {brick} (op {op} at byte {byte}): its step counts sum to {sum}, not in (0, 100]"
    )]
    BrickSteps {
        brick: usize,
        op: usize,
        byte: usize,
        sum: u32,
    },
}

/// A parsed, validated record.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    pub ops: Vec<Op>,
}

impl Record {
    /// Parses and validates `text` (see the module docs for the format).
    pub fn parse(text: &str) -> Result<Record, RecordError> {
        if text.len() > MAX_RECORD_BYTES {
            return Err(RecordError::TooLarge(text.len()));
        }
        let start = text.len() - text.trim_start().len();
        let body = text.trim();
        if body.is_empty() {
            return Err(RecordError::Empty);
        }
        let mut ops = Vec::with_capacity(body.len() / 3 + 1);
        // The brick being read: its number, the op number and byte of its N, its step sum.
        let mut brick = (0usize, 0usize, 0usize, 0u32);
        let mut byte = start;
        for (i, token) in body.split(',').enumerate() {
            let op_no = i + 1;
            let op = parse_op(token).map_err(|what| RecordError::Syntax {
                op: op_no,
                byte,
                what,
            })?;
            match op {
                Op::New => {
                    if i > 0 {
                        check_brick(brick)?;
                    }
                    brick = (brick.0 + 1, op_no, byte, 0);
                }
                Op::Steps(..) if i == 0 => return Err(RecordError::FirstNotN { op: 1, byte }),
                Op::Steps(_, n) => {
                    brick.3 += n as u32;
                    if brick.3 > MAX_STEPS_PER_BRICK {
                        return Err(RecordError::BrickSteps {
                            brick: brick.0,
                            op: op_no,
                            byte,
                            sum: brick.3,
                        });
                    }
                }
            }
            ops.push(op);
            byte += token.len() + 1;
        }
        // A final `N` may have no ops: the JS neither counts nor resets at the last op.
        if !(ops.len() > 1 && ops.last() == Some(&Op::New)) {
            check_brick(brick)?;
        }
        Ok(Record { ops })
    }

    /// Builds a record from per-brick step lists (each non-empty, sums ≤ 100), merging repeats.
    pub fn from_bricks<'a>(bricks: impl IntoIterator<Item = &'a [Step]>) -> Record {
        let mut ops = Vec::new();
        for steps in bricks {
            ops.push(Op::New);
            for &s in steps {
                match ops.last_mut() {
                    Some(Op::Steps(prev, n)) if *prev == s => *n += 1,
                    _ => ops.push(Op::Steps(s, 1)),
                }
            }
        }
        Record { ops }
    }

    /// Number of `N` ops (bricks spawned if the game does not end first).
    pub fn bricks(&self) -> usize {
        count_news(&self.ops)
    }

    /// The canonical text: ops joined by commas, no trailing newline.
    pub fn to_text(&self) -> String {
        let mut out = String::with_capacity(self.ops.len() * 3);
        for (i, op) in self.ops.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            match op {
                Op::New => out.push('N'),
                Op::Steps(s, n) => {
                    out.push(s.letter());
                    out.push_str(&n.to_string());
                }
            }
        }
        out
    }
}

fn count_news(ops: &[Op]) -> usize {
    ops.iter().filter(|o| matches!(o, Op::New)).count()
}

/// The (0, 100] rule for a finished brick `(number, op, byte, sum)`.
fn check_brick((brick, op, byte, sum): (usize, usize, usize, u32)) -> Result<(), RecordError> {
    if sum == 0 {
        return Err(RecordError::BrickSteps {
            brick,
            op,
            byte,
            sum,
        });
    }
    Ok(())
}

fn parse_op(token: &str) -> Result<Op, &'static str> {
    let bytes = token.as_bytes();
    let Some((&letter, digits)) = bytes.split_first() else {
        return Err("empty op (two commas in a row, or a trailing comma)");
    };
    let step = match letter {
        b'N' => {
            return if digits.is_empty() {
                Ok(Op::New)
            } else {
                Err("N takes no count")
            };
        }
        b'L' => Step::Left,
        b'R' => Step::Right,
        b'D' => Step::Down,
        b'C' => Step::Rotate,
        _ => return Err("unknown op (expected N, L, R, D or C)"),
    };
    if digits.is_empty() {
        return Err("missing count");
    }
    let mut n: u32 = 0;
    for &d in digits {
        if !d.is_ascii_digit() {
            return Err("count is not a decimal number");
        }
        n = n * 10 + (d - b'0') as u32;
        if n > MAX_STEPS_PER_BRICK {
            return Err("count above 100");
        }
    }
    if n == 0 {
        return Err("count 0");
    }
    Ok(Op::Steps(step, n as u8))
}

/// Why a record file could not be loaded.
#[derive(Debug, Error)]
pub enum LoadError {
    #[error("cannot read {path}: {error}")]
    Io {
        path: std::path::PathBuf,
        error: std::io::Error,
    },
    #[error("{path}: not UTF-8 text")]
    NotText { path: std::path::PathBuf },
    #[error("{path}: {error}")]
    Invalid {
        path: std::path::PathBuf,
        error: RecordError,
    },
}

/// Reads and parses a record file, reading at most [`MAX_RECORD_BYTES`] + 1 bytes.
pub fn load(path: &std::path::Path) -> Result<Record, LoadError> {
    use std::io::Read;
    let io = |error| LoadError::Io {
        path: path.to_path_buf(),
        error,
    };
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .map_err(io)?
        .take(MAX_RECORD_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() > MAX_RECORD_BYTES {
        return Err(LoadError::Invalid {
            path: path.to_path_buf(),
            error: RecordError::TooLarge(bytes.len()),
        });
    }
    let text = String::from_utf8(bytes).map_err(|_| LoadError::NotText {
        path: path.to_path_buf(),
    })?;
    Record::parse(&text).map_err(|error| LoadError::Invalid {
        path: path.to_path_buf(),
        error,
    })
}
