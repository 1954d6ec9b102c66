//! The solver: a depth-first search over the queue (and hold) on the bot's move generation,
//! which proves a puzzle solvable and counts its distinct solutions up to a cap.
//!
//! A solution is a sequence of placements (piece kind and filled cells, in play order) that
//! reaches the goal; it may stop before the queue runs out. Placements above the goal's
//! [`Goal::ceiling`](crate::Goal::ceiling) are not searched. States proved dead (whole subtree
//! searched, no solution) are remembered by lookup only, so the count is deterministic.

use std::collections::{BTreeSet, HashSet};

use sevenbag_bot::{BitBoard, MoveGen, Placement, spawn_position};
use sevenbag_core::{Board, PieceKind};

use crate::model::{Grade, Puzzle, Step};

/// How far the solver may go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Stop counting at this many solutions.
    pub cap: u32,
    /// Stop after expanding this many nodes.
    pub max_nodes: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            cap: 20,
            max_nodes: 50_000,
        }
    }
}

/// What the solver found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Distinct solutions found (at most the cap).
    pub solutions: u32,
    /// True when the whole tree was searched, so `solutions` is exact.
    pub complete: bool,
    /// Nodes expanded (placements tried).
    pub nodes: u64,
    /// The first solution found.
    pub first: Option<Vec<Step>>,
}

impl Report {
    /// The grade this report gives.
    pub fn grade(&self) -> Grade {
        Grade {
            solutions: self.solutions,
            capped: !self.complete,
            effort: self.nodes,
        }
    }
}

/// A search state: the board, the next queue index, the hold slot, pieces placed so far.
type StateKey = (Board, u8, Option<PieceKind>);

struct Search<'a> {
    puzzle: &'a Puzzle,
    limits: Limits,
    ceiling: i8,
    movegen: MoveGen,
    nodes: u64,
    stopped: bool,
    found: BTreeSet<Vec<(PieceKind, u64)>>,
    first: Option<Vec<Step>>,
    path: Vec<Step>,
    dead: HashSet<StateKey>,
}

/// Counts the solutions of `puzzle` from its board and queue (its stored solution is ignored).
pub fn solve(puzzle: &Puzzle, limits: Limits) -> Report {
    let mut s = Search {
        puzzle,
        limits,
        ceiling: puzzle.goal().ceiling(&puzzle.board),
        movegen: MoveGen::new(),
        nodes: 0,
        stopped: false,
        found: BTreeSet::new(),
        first: None,
        path: Vec::new(),
        dead: HashSet::new(),
    };
    s.visit(puzzle.board, 0, None);
    Report {
        solutions: s.found.len() as u32,
        complete: !s.stopped,
        nodes: s.nodes,
        first: s.first,
    }
}

impl Search<'_> {
    /// The pieces playable at (idx, slot): (kind, via hold, next idx, next slot).
    fn options(
        &self,
        idx: usize,
        slot: Option<PieceKind>,
    ) -> Vec<(PieceKind, bool, u8, Option<PieceKind>)> {
        let q = &self.puzzle.queue;
        let mut out = Vec::new();
        if let Some(&cur) = q.get(idx) {
            out.push((cur, false, idx as u8 + 1, slot));
        }
        if self.puzzle.options.hold {
            match (slot, q.get(idx)) {
                (Some(h), Some(&cur)) if h != cur => out.push((h, true, idx as u8 + 1, Some(cur))),
                (Some(_), Some(_)) => {}
                (None, Some(&cur)) => {
                    if let Some(&next) = q.get(idx + 1) {
                        out.push((next, true, idx as u8 + 2, Some(cur)));
                    }
                }
                (Some(h), None) => out.push((h, true, idx as u8, None)),
                (None, None) => {}
            }
        }
        out
    }

    /// Returns whether any solution lies below this state.
    fn visit(&mut self, board: Board, idx: u8, slot: Option<PieceKind>) -> bool {
        let key = (board, idx, slot);
        if self.dead.contains(&key) {
            return false;
        }
        let goal = self.puzzle.goal();
        let bits = BitBoard::from_board(&board);
        let mut any = false;
        let before_stop = self.stopped;
        for (kind, hold, next_idx, next_slot) in self.options(usize::from(idx), slot) {
            let Some(start) = spawn_position(&bits, kind) else {
                continue;
            };
            let mut moves: Vec<Placement> = Vec::new();
            self.movegen.generate(&bits, start, true, hold, &mut moves);
            for m in moves {
                if self.stopped {
                    return any;
                }
                if m.piece.cells().iter().any(|&(_, y)| y >= self.ceiling) {
                    continue;
                }
                self.nodes += 1;
                if self.nodes > self.limits.max_nodes {
                    self.stopped = true;
                    return any;
                }
                let mut after = board;
                after.place(&m.piece);
                let lines = after.clear_lines().lines;
                self.path.push(Step {
                    piece: m.piece,
                    hold,
                    spin: m.spin,
                });
                if goal.reached(&after, kind, m.spin, lines) {
                    any = true;
                    let sig = self
                        .path
                        .iter()
                        .map(|s| (s.piece.kind, sevenbag_bot::movegen::cells_key(&s.piece)))
                        .collect();
                    self.found.insert(sig);
                    if self.first.is_none() {
                        self.first = Some(self.path.clone());
                    }
                    if self.found.len() as u32 >= self.limits.cap {
                        self.stopped = true;
                    }
                } else if !after.is_empty() || !matches!(goal, crate::Goal::PerfectClear { .. }) {
                    any |= self.visit(after, next_idx, next_slot);
                }
                self.path.pop();
            }
        }
        if !any && !self.stopped && !before_stop {
            self.dead.insert(key);
        }
        any
    }
}
