//! The generator: builds a puzzle backwards from a solution.
//!
//! 1. Draw a queue: a window of the core's 7-bag sequence (so it is bag-consistent), and the
//!    order it will be played in (with hold, a random legal use of the hold slot).
//! 2. Draw the finished shape `F`: the rows the goal clears, full, plus (T-spin, dig) a low
//!    skyline above them that stays after the clear.
//! 3. Take pieces out of `F` in reverse play order, the finishing piece first (it is the most
//!    constrained: it must touch every goal row, so nothing clears early, and for T-spins be a T
//!    locking with a full spin). Each step keeps its own shuffled candidate list: placements of
//!    its kind inside what is left whose removal leaves a board where the bot's move generation
//!    reaches that exact lock from spawn. A step with no candidate left is a dead end and the
//!    search backtracks as many steps as needed; a search over its step budget restarts with a
//!    new queue and shape, up to the restart limit.
//! 4. What is left is the start board; it must have no floating cells (every filled cell
//!    connects to the floor).
//!
//! Randomness: ChaCha8 keyed from the seed, sampled with the core's [`below`]; no floats, no
//! hash-order iteration, so a seed gives the same puzzle everywhere.

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use sevenbag_bot::movegen::cells_key;
use sevenbag_bot::{BitBoard, MoveGen, Placement, spawn_position};
use sevenbag_core::rng::below;
use sevenbag_core::{Board, CellKind, Piece, PieceKind, Randomizer, Rotation, Spin, sequence};

use crate::model::{Kind, Options, OptionsError, Puzzle, Step};
use crate::solve::{Limits, solve};

/// Rows tracked by the generator (the goal rows plus a skyline fit far below 8).
const ROWS: usize = 8;

/// Search limits of one generation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GenLimits {
    /// Candidate placements tried per attempt before it restarts.
    pub steps_per_attempt: u32,
    /// Attempts (fresh queue and shape) before giving up.
    pub restarts: u32,
}

impl Default for GenLimits {
    fn default() -> Self {
        GenLimits {
            steps_per_attempt: 400,
            restarts: 200,
        }
    }
}

/// Backtracking statistics of one generation (for benchmarks and docs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GenStats {
    /// Candidate placements tried.
    pub steps: u64,
    /// Steps whose candidate list ran out (each a backtrack).
    pub dead_ends: u64,
    /// Attempts restarted with a new queue and shape.
    pub restarts: u32,
    /// Deepest backtrack, in steps.
    pub deepest_backtrack: u32,
}

/// Why no puzzle was made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GenError {
    /// The options are invalid.
    #[error("invalid options: {0}")]
    Options(OptionsError),
    /// Every attempt hit a dead end.
    #[error(
        "no {kind} puzzle with {rows} rows and {pieces} pieces (hold {hold}) found in {restarts} attempts ({steps} placements tried); the constraints cannot be met often enough: try fewer pieces, other rows or another hold setting"
    )]
    Unsatisfiable {
        /// Kind name.
        kind: &'static str,
        /// Rows asked.
        rows: u8,
        /// Pieces asked.
        pieces: u8,
        /// "on" or "off".
        hold: &'static str,
        /// Attempts made.
        restarts: u32,
        /// Placements tried.
        steps: u64,
    },
}

impl From<OptionsError> for GenError {
    fn from(e: OptionsError) -> GenError {
        GenError::Options(e)
    }
}

/// A generated puzzle and how hard it was to build.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The puzzle (graded).
    pub puzzle: Puzzle,
    /// Backtracking statistics.
    pub stats: GenStats,
}

/// The finished shape as row bit masks (bit x = column x).
type Shape = [u16; ROWS];

/// The play order: each piece's kind and whether it comes out of hold.
type PlayOrder = Vec<(PieceKind, bool)>;

/// One backtracking step: its candidate list, the next candidate to try, the shape before it.
type Frame = (Vec<(Piece, Spin)>, usize, Shape);

fn rng_for(options: &Options, seed: u64) -> ChaCha8Rng {
    let mut key = [0u8; 32];
    key[..8].copy_from_slice(&seed.to_le_bytes());
    key[8..16].copy_from_slice(b"sbpuzzle");
    key[16] = options.kind as u8;
    key[17] = options.rows;
    key[18] = options.pieces;
    key[19] = u8::from(options.hold);
    ChaCha8Rng::from_seed(key)
}

/// Generates and grades the puzzle of `options` and `seed`.
pub fn generate(options: &Options, seed: u64) -> Result<Generated, GenError> {
    generate_with(options, seed, GenLimits::default(), Limits::default())
}

/// [`generate`] with explicit generator and grading limits.
pub fn generate_with(
    options: &Options,
    seed: u64,
    limits: GenLimits,
    grading: Limits,
) -> Result<Generated, GenError> {
    options.validate()?;
    let mut rng = rng_for(options, seed);
    let mut stats = GenStats::default();
    let mut movegen = MoveGen::new();
    for attempt in 0..limits.restarts {
        stats.restarts = attempt;
        let Some((queue, order)) = draw_queue(options, &mut rng) else {
            continue;
        };
        let shape = draw_shape(options, &mut rng);
        let found = backtrack(
            options,
            &order,
            shape,
            &mut rng,
            &mut movegen,
            &mut stats,
            limits,
        );
        if let Some((start, placed)) = found {
            let board = start_board(options, &start, &mut rng);
            let solution = order
                .iter()
                .zip(placed)
                .map(|(&(_, hold), (piece, spin))| Step { piece, hold, spin })
                .collect();
            let mut puzzle = Puzzle {
                options: *options,
                seed,
                board,
                queue,
                solution,
                grade: None,
            };
            puzzle.grade = Some(solve(&puzzle, grading).grade());
            return Ok(Generated { puzzle, stats });
        }
    }
    Err(GenError::Unsatisfiable {
        kind: options.kind.name(),
        rows: options.rows,
        pieces: options.pieces,
        hold: if options.hold { "on" } else { "off" },
        restarts: limits.restarts,
        steps: stats.steps,
    })
}

/// A bag-consistent queue and its play order: (kind, played out of hold).
fn draw_queue(options: &Options, rng: &mut ChaCha8Rng) -> Option<(Vec<PieceKind>, PlayOrder)> {
    let n = usize::from(options.pieces);
    let bag = sequence(Randomizer::SevenBag, rng.next_u64(), n + 7);
    // The finishing piece must touch every goal row: a T for T-spins, an I for 4-row goals.
    let last = match options.kind {
        Kind::TSpin => Some(PieceKind::T),
        _ if options.rows == 4 => Some(PieceKind::I),
        _ => None,
    };
    let ends: Vec<usize> = (0..7)
        .filter(|&o| options.hold || last.is_none_or(|k| bag[o + n - 1] == k))
        .collect();
    if ends.is_empty() {
        return None;
    }
    let offset = ends[below(rng, ends.len() as u32) as usize];
    let queue: Vec<PieceKind> = bag[offset..offset + n].to_vec();
    let mut order = Vec::with_capacity(n);
    let (mut idx, mut slot) = (0usize, None::<PieceKind>);
    while order.len() < n {
        let mut choices: Vec<(PieceKind, bool, usize, Option<PieceKind>)> = Vec::new();
        if let Some(&cur) = queue.get(idx) {
            choices.push((cur, false, idx + 1, slot));
        }
        if options.hold {
            match (slot, queue.get(idx)) {
                (Some(h), Some(&cur)) => choices.push((h, true, idx + 1, Some(cur))),
                (None, Some(&cur)) if idx + 1 < n => {
                    choices.push((queue[idx + 1], true, idx + 2, Some(cur)))
                }
                (Some(h), None) => choices.push((h, true, idx, None)),
                _ => {}
            }
        }
        if choices.is_empty() {
            return None;
        }
        let (kind, hold, i, s) = choices[below(rng, choices.len() as u32) as usize];
        order.push((kind, hold));
        idx = i;
        slot = s;
    }
    if last.is_some_and(|k| order.last().map(|o| o.0) != Some(k)) {
        return None;
    }
    Some((queue, order))
}

/// The finished shape: goal rows full, and for T-spin and dig a skyline of 0 to 2 cells per
/// column above them with at least one empty column (so no skyline row is full).
fn draw_shape(options: &Options, rng: &mut ChaCha8Rng) -> Shape {
    let rows = usize::from(options.rows);
    let mut shape = [0u16; ROWS];
    for row in shape.iter_mut().take(rows) {
        *row = 0x3ff;
    }
    if options.kind == Kind::Pc {
        return shape;
    }
    // T-spin triples need an overhang inside the skyline (a roof over the entry), which a
    // column skyline cannot make: use scattered cells, redrawn until they rest on the stack.
    let scattered = options.kind == Kind::TSpin && (options.rows == 3 || below(rng, 2) == 0);
    for _ in 0..32 {
        let mut s = shape;
        let gap = below(rng, 10) as usize;
        for x in (0..10).filter(|&x| x != gap) {
            if scattered {
                for row in s.iter_mut().skip(rows).take(3) {
                    if below(rng, 2) == 0 {
                        *row |= 1 << x;
                    }
                }
            } else {
                let h = below(rng, 3) as usize;
                for row in s.iter_mut().skip(rows).take(h) {
                    *row |= 1 << x;
                }
            }
        }
        if grounded(&s) {
            return s;
        }
    }
    shape
}

fn cells_of(piece: &Piece) -> Option<[(usize, usize); 4]> {
    let cells = piece.cells();
    let mut out = [(0, 0); 4];
    for (o, &(x, y)) in out.iter_mut().zip(&cells) {
        if !(0..10).contains(&x) || !(0..ROWS as i8).contains(&y) {
            return None;
        }
        *o = (x as usize, y as usize);
    }
    Some(out)
}

fn shape_board(shape: &Shape) -> Board {
    let mut b = Board::new();
    for (y, row) in shape.iter().enumerate() {
        for x in 0..10 {
            if row >> x & 1 == 1 {
                b.set(x as i8, y as i8, CellKind::Garbage);
            }
        }
    }
    b
}

/// Candidate placements of `kind` as the piece that completes `shape`: inside it, reachable
/// from spawn on what is left, and (for the finishing step) meeting the finish rules.
fn candidates(
    options: &Options,
    kind: PieceKind,
    shape: &Shape,
    finishing: bool,
    movegen: &mut MoveGen,
    rng: &mut ChaCha8Rng,
) -> Vec<(Piece, Spin)> {
    let mut out = Vec::new();
    let mut moves: Vec<Placement> = Vec::new();
    let mut seen_keys = Vec::new();
    for rotation in Rotation::ALL {
        for x in 0..10i8 {
            for y in 0..ROWS as i8 {
                let piece = Piece {
                    kind,
                    rotation,
                    x,
                    y,
                };
                let Some(cells) = cells_of(&piece) else {
                    continue;
                };
                if cells.iter().any(|&(cx, cy)| shape[cy] >> cx & 1 == 0) {
                    continue;
                }
                let key = cells_key(&piece);
                if seen_keys.contains(&key) {
                    continue;
                }
                seen_keys.push(key);
                if finishing {
                    let rows = usize::from(options.rows);
                    if (0..rows).any(|r| !cells.iter().any(|&(_, cy)| cy == r)) {
                        continue;
                    }
                }
                let mut left = *shape;
                for &(cx, cy) in &cells {
                    left[cy] &= !(1 << cx);
                }
                let bits = BitBoard::from_board(&shape_board(&left));
                let Some(start) = spawn_position(&bits, kind) else {
                    continue;
                };
                moves.clear();
                movegen.generate(&bits, start, true, false, &mut moves);
                let Some(m) = moves.iter().find(|m| m.key() == key) else {
                    continue;
                };
                if finishing && options.kind == Kind::TSpin && m.spin != Spin::Full {
                    continue;
                }
                out.push((m.piece, m.spin));
            }
        }
    }
    // Fisher-Yates with the core's sampling.
    for i in (1..out.len()).rev() {
        let j = below(rng, i as u32 + 1) as usize;
        out.swap(i, j);
    }
    out
}

/// Removes pieces from `shape` in reverse play order with backtracking. Returns the start shape
/// and the placements in play order.
fn backtrack(
    options: &Options,
    order: &[(PieceKind, bool)],
    shape: Shape,
    rng: &mut ChaCha8Rng,
    movegen: &mut MoveGen,
    stats: &mut GenStats,
    limits: GenLimits,
) -> Option<(Shape, Vec<(Piece, Spin)>)> {
    let n = order.len();
    // Frame d handles play step n - 1 - d.
    let mut lists: Vec<Frame> = Vec::with_capacity(n);
    let first = candidates(options, order[n - 1].0, &shape, true, movegen, rng);
    lists.push((first, 0, shape));
    let mut budget = limits.steps_per_attempt;
    let mut unwound = 0u32;
    while let Some(top) = lists.last_mut() {
        let (list, cursor, before) = top;
        if *cursor >= list.len() {
            stats.dead_ends += 1;
            unwound += 1;
            stats.deepest_backtrack = stats.deepest_backtrack.max(unwound);
            lists.pop();
            continue;
        }
        if budget == 0 {
            return None;
        }
        budget -= 1;
        stats.steps += 1;
        let (piece, _) = list[*cursor];
        *cursor += 1;
        let mut left = *before;
        for (cx, cy) in cells_of(&piece).unwrap_or_default() {
            left[cy] &= !(1 << cx);
        }
        let depth = lists.len();
        if depth == n {
            if grounded(&left) && acceptable_start(options, &left) {
                let placed = lists.iter().rev().map(|(l, c, _)| l[*c - 1]).collect();
                return Some((left, placed));
            }
            continue;
        }
        unwound = 0;
        let next = candidates(options, order[n - 1 - depth].0, &left, false, movegen, rng);
        lists.push((next, 0, left));
    }
    None
}

/// No floating cells: every filled cell connects (4-neighbour) to the floor.
fn grounded(shape: &Shape) -> bool {
    let mut reached = [0u16; ROWS];
    reached[0] = shape[0];
    loop {
        let mut changed = false;
        for y in 0..ROWS {
            let mut r = reached[y];
            r |= (r << 1 | r >> 1) & shape[y];
            if y > 0 {
                r |= reached[y - 1] & shape[y];
            }
            if y + 1 < ROWS {
                r |= reached[y + 1] & shape[y];
            }
            r &= 0x3ff;
            if r != reached[y] {
                reached[y] = r;
                changed = true;
            }
        }
        if !changed {
            return reached == *shape;
        }
    }
}

/// Start boards must leave something to do: a dig puzzle needs a hole in every garbage row.
fn acceptable_start(options: &Options, shape: &Shape) -> bool {
    match options.kind {
        Kind::Pc | Kind::TSpin => true,
        Kind::Dig => shape[..usize::from(options.rows)]
            .iter()
            .all(|&r| r != 0x3ff && r != 0),
    }
}

/// The start board: goal rows as garbage for dig and PC; the dig skyline in piece colours (it
/// stays after the dig, so it is not garbage); T-spin boards all garbage grey.
fn start_board(options: &Options, shape: &Shape, rng: &mut ChaCha8Rng) -> Board {
    let mut b = Board::new();
    let rows = usize::from(options.rows);
    for (y, row) in shape.iter().enumerate() {
        for x in 0..10 {
            if row >> x & 1 == 1 {
                let kind = if options.kind == Kind::Dig && y >= rows {
                    CellKind::Piece(PieceKind::ALL[below(rng, 7) as usize])
                } else {
                    CellKind::Garbage
                };
                b.set(x as i8, y as i8, kind);
            }
        }
    }
    b
}
