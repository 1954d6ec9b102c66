//! Which puzzle to make (a difficulty preset, a share code, the daily puzzle) and making it:
//! graded presets try seeds until one grades as asked, within a time budget.

use sevenbag_netplay::time::Instant;
use std::time::Duration;

use sevenbag_puzzle::{Difficulty, Kind, Options, Puzzle, code, daily, generate, parse_code};

use super::{difficulty_label, kind_label};
use crate::text::date_text;

/// Seeds tried for a preset before settling for the closest grade.
const GRADE_TRIES: u64 = 12;
/// Wall time a preset may spend on seeds before settling (a 4-row perfect clear takes up to a
/// second per seed in a debug build).
const GRADE_BUDGET: Duration = Duration::from_secs(4);
/// Seeds after a code's or a day's seed tried when that seed's options cannot be built.
const FALLBACK_SEEDS: u64 = 8;

/// The generator options behind a menu choice. Measured over seeds (docs/PUZZLES.md): these
/// options grade as asked most often, so the graded search below rarely needs many seeds.
pub fn preset(kind: Kind, difficulty: Difficulty) -> Options {
    let (rows, pieces, hold) = match (kind, difficulty) {
        (Kind::Pc, Difficulty::Easy) => (2, 4, true),
        (Kind::Pc, Difficulty::Medium) => (4, 7, true),
        (Kind::Pc, Difficulty::Hard) => (4, 8, false),
        (Kind::TSpin, Difficulty::Easy) => (2, 2, true),
        (Kind::TSpin, Difficulty::Medium) => (2, 3, false),
        (Kind::TSpin, Difficulty::Hard) => (3, 3, false),
        (Kind::Dig, Difficulty::Easy) => (1, 2, true),
        (Kind::Dig, Difficulty::Medium) => (2, 3, false),
        (Kind::Dig, Difficulty::Hard) => (3, 4, false),
    };
    Options {
        kind,
        rows,
        pieces,
        hold,
    }
}

/// Which puzzle to make.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// A menu choice: the preset's options, graded as `difficulty`, from `seed` on.
    Preset {
        /// The family.
        kind: Kind,
        /// The grade wanted.
        difficulty: Difficulty,
        /// The first seed tried.
        seed: u64,
    },
    /// Exactly these options and seed (a share code).
    Exact {
        /// The options.
        options: Options,
        /// The seed.
        seed: u64,
    },
    /// The daily puzzle of a day (days since 1970-01-01, UTC).
    Daily {
        /// The day.
        day: u64,
    },
}

impl Request {
    /// Reads a share code; the error is the sentence to show.
    pub fn from_code(text: &str) -> Result<Request, String> {
        let (options, seed) = parse_code(text).map_err(|e| e.to_string())?;
        Ok(Request::Exact { options, seed })
    }

    /// The request behind "next puzzle": a preset tries a fresh seed, a code or a day goes on
    /// to the next seed of the same options.
    pub fn next(&self, made: &Puzzle, fresh_seed: u64) -> Request {
        match self {
            Request::Preset {
                kind, difficulty, ..
            } => Request::Preset {
                kind: *kind,
                difficulty: *difficulty,
                seed: fresh_seed,
            },
            Request::Exact { .. } | Request::Daily { .. } => Request::Exact {
                options: made.options,
                seed: made.seed.wrapping_add(1),
            },
        }
    }
}

/// A puzzle made for a request, with what the screen says about it.
#[derive(Clone, Debug)]
pub struct Made {
    /// The request (for "next puzzle").
    pub request: Request,
    /// The puzzle.
    pub puzzle: Puzzle,
    /// "DAILY 2026-11-23", "PERFECT CLEAR · EASY", "CODE".
    pub title: String,
}

impl Made {
    /// Its share code.
    pub fn code(&self) -> String {
        code(&self.puzzle.options, self.puzzle.seed)
    }

    /// The solver's grade in words, if graded.
    pub fn grade_text(&self) -> String {
        match self.puzzle.grade {
            Some(g) => {
                let more = if g.capped { "+" } else { "" };
                format!(
                    "{} ({}{} solutions)",
                    difficulty_label(g.difficulty()),
                    g.solutions,
                    more
                )
            }
            None => "ungraded".to_owned(),
        }
    }
}

/// Makes the puzzle of `request`; the error is the sentence to show. Can take seconds (run
/// it with [`Job`](super::Job)).
pub fn make(request: &Request) -> Result<Made, String> {
    let (puzzle, title) = match *request {
        Request::Preset {
            kind,
            difficulty,
            seed,
        } => (
            graded(&preset(kind, difficulty), seed, difficulty)?,
            format!(
                "{} · {}",
                kind_label(kind).to_uppercase(),
                difficulty_label(difficulty).to_uppercase()
            ),
        ),
        Request::Exact { options, seed } => (exact(&options, seed, 0)?, "SHARED PUZZLE".into()),
        Request::Daily { day } => {
            let (options, seed) = daily(day);
            (
                exact(&options, seed, FALLBACK_SEEDS)?,
                format!("DAILY PUZZLE · {}", date_text(day)),
            )
        }
    };
    Ok(Made {
        request: request.clone(),
        puzzle,
        title,
    })
}

/// The puzzle of `seed`, or (for the daily puzzle, whose options always build but whose seed
/// might not) of the first of the next `fallback` seeds that builds: the same for everyone.
fn exact(options: &Options, seed: u64, fallback: u64) -> Result<Puzzle, String> {
    let mut last = String::new();
    for i in 0..=fallback {
        match generate(options, seed.wrapping_add(i)) {
            Ok(g) => return Ok(g.puzzle),
            Err(e) => last = e.to_string(),
        }
    }
    Err(last)
}

/// Tries seeds from `seed` on until one grades as `want` (at most [`GRADE_TRIES`] seeds and
/// [`GRADE_BUDGET`] of time), else keeps the closest grade.
fn graded(options: &Options, seed: u64, want: Difficulty) -> Result<Puzzle, String> {
    let started = Instant::now();
    let mut best: Option<(u32, Puzzle)> = None;
    let mut last_err = String::new();
    for i in 0..GRADE_TRIES {
        match generate(options, seed.wrapping_add(i)) {
            Ok(g) => {
                let got = g.puzzle.grade.map_or(Difficulty::Hard, |g| g.difficulty());
                let distance = (got as i32 - want as i32).unsigned_abs();
                if distance == 0 {
                    return Ok(g.puzzle);
                }
                if best.as_ref().is_none_or(|(d, _)| distance < *d) {
                    best = Some((distance, g.puzzle));
                }
            }
            Err(e) => last_err = e.to_string(),
        }
        if started.elapsed() > GRADE_BUDGET && best.is_some() {
            break;
        }
    }
    best.map(|(_, p)| p).ok_or(last_err)
}
