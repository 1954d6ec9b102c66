//! The game as a state machine, and the replay that scores a record exactly as the organisers'
//! `replayStep` did: `N` locks the brick in play (if it had ops) and spawns the next one; the
//! last brick locks when the record runs out.

use crate::record::{Op, Record};
use crate::rules::{Board, Brick, HEIGHT, Kind, MAX_BRICKS, Piece, Sequence, Step, try_step};
use std::fmt;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// After a lock every one of the 20 rows held a cell (that lock scored nothing).
    TopTouched { brick: usize },
    /// Brick number 10,000 locked (that lock scored nothing).
    BrickLimit,
    /// The next brick could not be placed at its spawn position.
    SpawnBlocked { brick: usize },
    /// The record ran out ("操作记录运算完毕").
    RecordEnded,
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EndReason::TopTouched { brick } => {
                write!(f, "brick {brick} left every row non-empty (top touched)")
            }
            EndReason::BrickLimit => write!(f, "brick {MAX_BRICKS} locked (brick limit)"),
            EndReason::SpawnBlocked { brick } => {
                write!(f, "brick {brick} could not spawn")
            }
            EndReason::RecordEnded => write!(f, "the record ran out"),
        }
    }
}

/// A game in progress: board, brick in play, score.
#[derive(Clone, Debug)]
pub struct Game {
    pub board: Board,
    /// The brick in play, if any.
    pub piece: Option<Piece>,
    /// Whether the brick in play has had at least one op (a brick with none never locks).
    pub touched: bool,
    /// Bricks spawned so far (the number of the brick in play).
    pub spawned: usize,
    pub score: u64,
    pub lines: u64,
    /// Locks that cleared 1, 2, 3 and 4 rows (index 0 unused).
    pub clears: [u64; 5],
    /// Set once the game is over.
    pub ended: Option<EndReason>,
    /// Which kind of brick each filled cell came from (for drawing; `board` is the truth).
    pub kinds: [[Option<Kind>; 10]; HEIGHT],
    sequence: Sequence,
    next: Brick,
}

impl Default for Game {
    fn default() -> Self {
        Self::new()
    }
}

impl Game {
    /// An empty board before brick 1.
    pub fn new() -> Self {
        let mut sequence = Sequence::new();
        let next = sequence.next().unwrap_or(Brick {
            kind: Kind::I,
            state: 0,
        });
        Game {
            board: Board::default(),
            piece: None,
            touched: false,
            spawned: 0,
            score: 0,
            lines: 0,
            clears: [0; 5],
            ended: None,
            kinds: [[None; 10]; HEIGHT],
            sequence,
            next,
        }
    }

    /// A game before brick 1 on an arbitrary board (for tests and analysis; the challenge
    /// itself always starts empty).
    pub fn with_board(board: Board) -> Self {
        Game {
            board,
            ..Game::new()
        }
    }

    /// The brick the next `N` spawns (the one-piece preview).
    pub fn preview(&self) -> Brick {
        self.next
    }

    /// Locks the brick in play (if it had ops), scoring as the rules say.
    pub fn lock(&mut self) {
        if self.ended.is_some() {
            return;
        }
        let Some(piece) = self.piece.take() else {
            return;
        };
        if !self.touched {
            return;
        }
        for (x, y) in piece.cells() {
            if (0..10).contains(&x) && (0..HEIGHT as i32).contains(&y) {
                self.kinds[y as usize][x as usize] = Some(piece.kind);
            }
        }
        let out = self.board.lock(&piece, self.spawned >= MAX_BRICKS);
        if out.lines > 0 {
            let mut dst = HEIGHT;
            let old = self.kinds;
            self.kinds = [[None; 10]; HEIGHT];
            for y in (0..HEIGHT).rev() {
                if old[y].iter().any(Option::is_none) {
                    dst -= 1;
                    self.kinds[dst] = old[y];
                }
            }
        }
        if out.top_touched {
            self.ended = Some(EndReason::TopTouched {
                brick: self.spawned,
            });
        } else if self.spawned >= MAX_BRICKS {
            self.ended = Some(EndReason::BrickLimit);
        } else {
            self.score += out.points;
            self.lines += out.lines as u64;
            self.clears[out.lines as usize] += 1;
        }
    }

    /// The `N` op: locks the brick in play, then spawns the next one.
    pub fn new_brick(&mut self) {
        self.lock();
        if self.ended.is_some() {
            return;
        }
        let brick = self.next;
        self.next = self.sequence.next().unwrap_or(brick);
        self.spawned += 1;
        let piece = Piece::spawn(brick);
        self.touched = false;
        if self.board.fits(&piece) {
            self.piece = Some(piece);
        } else {
            self.piece = None;
            self.ended = Some(EndReason::SpawnBlocked {
                brick: self.spawned,
            });
        }
    }

    /// One unit step of the brick in play (skipped silently when illegal). Returns whether it moved.
    pub fn step(&mut self, step: Step) -> bool {
        if self.ended.is_some() {
            return false;
        }
        self.touched = true;
        match self.piece.as_mut() {
            Some(p) => try_step(&self.board, p, step),
            None => false,
        }
    }

    /// Runs one record op.
    pub fn apply(&mut self, op: Op) {
        match op {
            Op::New => self.new_brick(),
            Op::Steps(s, n) => {
                for _ in 0..n {
                    self.step(s);
                }
            }
        }
    }

    /// Ends the game because the record ran out: the brick in play locks first.
    /// (A record ending in `N` locks that brick at its spawn position, as the JS did.)
    pub fn finish(&mut self) {
        self.touched = true;
        self.lock();
        if self.ended.is_none() {
            self.ended = Some(EndReason::RecordEnded);
        }
    }
}

/// The result of scoring a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub score: u64,
    pub lines: u64,
    /// Locks that cleared 1, 2, 3 and 4 rows (index 0: locks that cleared none).
    pub clears: [u64; 5],
    /// Bricks spawned.
    pub bricks: usize,
    pub end: EndReason,
    pub board: Board,
}

/// Replays a validated record and scores it.
pub fn score(record: &Record) -> Outcome {
    let mut game = Game::new();
    for &op in &record.ops {
        game.apply(op);
        if game.ended.is_some() {
            break;
        }
    }
    game.finish();
    Outcome {
        score: game.score,
        lines: game.lines,
        clears: game.clears,
        bricks: game.spawned,
        end: game.ended.unwrap_or(EndReason::RecordEnded),
        board: game.board,
    }
}

/// The game state after the first `bricks` bricks of `record` have locked (for seeking a replay):
/// the state just before the `N` that spawns brick `bricks + 1`, with that brick's lock done.
pub fn state_after(record: &Record, bricks: usize) -> Game {
    let mut game = Game::new();
    for &op in &record.ops {
        if op == Op::New && game.spawned == bricks {
            game.lock();
            return game;
        }
        game.apply(op);
        if game.ended.is_some() {
            return game;
        }
    }
    game.finish();
    game
}
