//! Perfect-clear search: a depth-first search over the known queue (and the hold slot) for a
//! sequence of placements that empties a low board within a box of at most six rows.
//!
//! The search places pieces only inside the box (every cell below the box's top row, which drops
//! as lines clear), uses the ordinary [`MoveGen`] (so tucks and spins count and every placement
//! is reachable), and prunes a state as soon as an empty region of the box has a size that is not
//! a multiple of four. Failed states are remembered, and the work is capped in move-generation
//! calls, never in time, so the same position always gets the same answer.
//!
//! The search keeps its own stack, so it can stop after any number of move-generation calls and
//! go on later ([`PcSearch::start`], [`PcSearch::resume`]): a browser page, which has no threads,
//! spreads one search over several frames and gets the same answer as [`PcSearch::find`].
//!
//! Of the perfect clears found in the smallest box, the one that sends the most is played, and
//! of those that send the same, one that leaves a T, J or L in hold.
//!
//! Garbage queued against the player counts: a lock without a clear once a line is ready (and
//! not yet cancelled by the attack before it) raises it under the stack, as the core would,
//! and the box grows by its rows. A single line's nine cells make any perfect clear impossible,
//! so most such sequences die at once (knowing this lifted Max against El-Tetris from 0.974 /
//! 1.040 / 0.977 attack per piece to 1.000 / 1.063 / 1.007); but where the board already holds
//! an odd line, the next one rising makes a perfect clear possible again, and the search plays
//! it. The holes are known only without messiness; with it ([`PcQuery::rise_cap`] 0) a rise
//! spoils the perfect clear.
//!
//! The whole perfect clear must come from pieces known in order: the visible queue, plus the last
//! piece of a 7-bag once the other six are known. (A speculative pass for the opening, which
//! accepted a line that used up the known pieces and left a box the unseen rest of the bag could
//! fill by gravity in some order, measured weaker against El-Tetris: it built shapes the real
//! order could not finish, and was dropped.) The box is at most six rows, the smallest first.

use std::collections::HashSet;

use sevenbag_core::attack::{Chain, Clear};
use sevenbag_core::{Piece, PieceKind};

use crate::bitboard::{BitBoard, COLUMNS};
use crate::movegen::{MoveGen, Placement, spawn_position};
use crate::search::Progress;
pub use garbage::Pending;
use garbage::Rise;

/// The tallest box searched.
pub const MAX_LINES: u8 = 6;

/// Move-generation calls allowed per search.
const NODE_LIMIT: u32 = 3000;

/// What the perfect-clear search starts from.
#[derive(Clone, Debug)]
pub struct PcQuery {
    /// The locked cells.
    pub board: BitBoard,
    /// The piece to place now, where it stands.
    pub current: Piece,
    /// The hold slot.
    pub hold: Option<PieceKind>,
    /// Whether hold may be used for the current piece.
    pub hold_allowed: bool,
    /// The pieces known in order, `current.kind` first.
    pub sequence: Vec<PieceKind>,
    /// Whether 180° rotation is on.
    pub allow_180: bool,
    /// Back-to-back and combo before the piece in play, for the attack of each perfect clear.
    pub chain: Chain,
    /// Garbage queued against the player, oldest first: a lock without a clear once a line is
    /// ready (before attack cancelled it) raises it under the box.
    pub incoming: Vec<Pending>,
    /// Lines that rise on one lock (the rules' cap) when the holes of queued lines are known
    /// (no messiness): the search then plays on with the risen lines in the box. 0: a rise
    /// spoils the perfect clear.
    pub rise_cap: u8,
}

/// Reusable buffers for the perfect-clear search, and the search in progress.
#[derive(Clone, Debug, Default)]
pub struct PcSearch {
    movegen: MoveGen,
    failed: HashSet<u64>,
    nodes: u32,
    /// Move-generation calls of the last search.
    pub expanded: u64,
    /// The search in progress, if any.
    query: Option<PcQuery>,
    /// The next box height to try once the stack is empty.
    next_lines: u8,
    /// The best perfect clear found so far: its [`Worth`] and first placement.
    best: Option<(Worth, Placement)>,
    /// Frames of the depth-first search; the first `live` are in use (the rest keep their
    /// buffers).
    stack: Vec<Frame>,
    live: usize,
    /// A smaller node budget than [`NODE_LIMIT`], and whether to stop at the first perfect
    /// clear (the odds estimate only asks whether one exists).
    limit: Option<u32>,
    first_only: bool,
    /// Lines of garbage queued in the search's query, summed once at its start.
    queued: u16,
}

#[derive(Clone, Copy, Debug)]
struct State {
    board: BitBoard,
    hold: Option<PieceKind>,
    /// Index in the sequence of the piece to play next.
    next: usize,
    /// Rows in the box.
    lines: u8,
    /// Whether this is the root (the current piece stands where it is).
    root: bool,
    /// Back-to-back and combo after the placements so far.
    chain: Chain,
    /// Lines sent by the placements so far.
    attack: u16,
    /// Queued garbage lines risen into the box so far.
    risen: u16,
    /// Placements so far.
    placed: u8,
}

/// How a perfect clear ranks: by the lines it sends, then by the piece it leaves in hold for the
/// next one (a T, J or L held into the next perfect clear measured better than an I, O, S, Z or
/// none: against El-Tetris +0.008 attack per piece over ten seed sets, docs/history).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Worth {
    attack: u16,
    good_hold: bool,
}

impl Worth {
    fn of(cleared: &State) -> Worth {
        Worth {
            attack: cleared.attack,
            good_hold: matches!(
                cleared.hold,
                Some(PieceKind::T | PieceKind::J | PieceKind::L)
            ),
        }
    }
}

/// One state being expanded: its ways to play the next piece, and the placements of the way
/// being tried.
#[derive(Clone, Debug)]
struct Frame {
    state: State,
    key: u64,
    options: [Option<Choice>; 2],
    /// The next option to generate placements for.
    option: usize,
    placements: Vec<Placement>,
    /// The next placement to try.
    at: usize,
    /// Whether a perfect clear was found below this state (then it is not a failed state).
    found: bool,
}

/// What entering a state found.
enum Enter {
    /// The board is empty: a perfect clear.
    Cleared,
    /// The state cannot lead to one (pruned, or failed before).
    Dead,
    /// A frame was pushed to expand it.
    Opened,
}

impl PcSearch {
    /// Fresh buffers.
    pub fn new() -> PcSearch {
        PcSearch::default()
    }

    /// The first placement of a perfect clear from the known pieces, if one is found within
    /// the budget.
    pub fn find(&mut self, q: PcQuery) -> Option<Placement> {
        self.start(q);
        loop {
            if let Progress::Done(found) = self.resume(u32::MAX) {
                return found;
            }
        }
    }

    /// Starts a search that only asks whether the pieces in `q` make a perfect clear within
    /// `limit` move-generation calls: it stops at the first one found.
    pub fn start_exists(&mut self, q: PcQuery, limit: u32) {
        self.start(q);
        self.limit = Some(limit);
        self.first_only = true;
    }

    /// Starts a search from `q`, dropping any unfinished one; [`PcSearch::resume`] runs it.
    pub fn start(&mut self, q: PcQuery) {
        self.expanded = 0;
        self.nodes = 0;
        self.live = 0;
        self.best = None;
        self.failed.clear();
        self.limit = None;
        self.first_only = false;
        let height = q.board.max_height().max(0) as u8;
        if q.sequence.first() != Some(&q.current.kind) || height > MAX_LINES {
            self.query = None;
            return;
        }
        self.next_lines = height.max(1);
        self.queued = q.incoming.iter().map(|p| p.lines).sum();
        self.query = Some(q);
    }

    /// Goes on with the search for at most `work` more move-generation calls: the answer once
    /// it is known (`None`: no perfect clear within the budget, or no search started).
    pub fn resume(&mut self, work: u32) -> Progress<Option<Placement>> {
        let Some(q) = self.query.take() else {
            return Progress::Done(None);
        };
        let progress = self.run(&q, work);
        self.expanded = u64::from(self.nodes);
        if matches!(progress, Progress::Paused) {
            self.query = Some(q);
        } else {
            self.live = 0;
        }
        progress
    }

    fn run(&mut self, q: &PcQuery, work: u32) -> Progress<Option<Placement>> {
        let stop_at = self.nodes.saturating_add(work);
        let node_limit = self.limit.unwrap_or(NODE_LIMIT);
        loop {
            if self.live == 0 {
                // A box searched to the end: its best perfect clear, or the next box.
                if self.best.is_some() {
                    return self.done();
                }
                let Some(lines) = self.next_box(q) else {
                    return Progress::Done(None);
                };
                self.failed.clear();
                let start = State {
                    board: q.board,
                    hold: q.hold,
                    next: 0,
                    lines,
                    root: true,
                    chain: q.chain,
                    attack: 0,
                    risen: 0,
                    placed: 0,
                };
                // The root is never empty (the box holds at least the piece to place).
                self.enter(q, start);
                continue;
            }
            let f = &mut self.stack[self.live - 1];
            if let Some(&p) = f.placements.get(f.at) {
                f.at += 1;
                let s = f.state;
                if p.piece.cells().iter().any(|&(_, y)| y >= s.lines as i8) {
                    continue;
                }
                let (_, hold, next, _) = f.options[f.option - 1].expect("placements of an option");
                let mut board = s.board;
                board.place(&p.piece);
                let cleared = board.clear_lines();
                let mut lines = s.lines - cleared;
                let mut risen = s.risen;
                if cleared == 0 {
                    match q.rise(&mut board, s.attack + s.risen, s.placed) {
                        Rise::Nothing => {}
                        Rise::Spoiled => continue,
                        Rise::Lines(n) => {
                            lines += n;
                            risen += u16::from(n);
                            if lines > MAX_LINES {
                                continue;
                            }
                        }
                    }
                }
                let mut chain = s.chain;
                let sent = chain.apply(Clear {
                    lines: cleared,
                    spin: p.spin,
                    perfect: board.is_empty(),
                });
                let child = State {
                    board,
                    hold,
                    next,
                    lines,
                    root: false,
                    chain,
                    attack: s.attack + sent.lines,
                    risen,
                    placed: s.placed.saturating_add(1),
                };
                match self.enter(q, child) {
                    Enter::Cleared => {
                        let root = &self.stack[0];
                        let first = root.placements[root.at - 1];
                        let worth = Worth::of(&child);
                        if self.best.is_none_or(|(w, _)| worth > w) {
                            self.best = Some((worth, first));
                        }
                        for f in &mut self.stack[..self.live] {
                            f.found = true;
                        }
                        if self.first_only || self.nodes >= node_limit {
                            return self.done();
                        }
                    }
                    Enter::Dead if self.nodes >= node_limit => return self.done(),
                    Enter::Dead | Enter::Opened => continue,
                }
                continue;
            }
            if f.option >= f.options.len() {
                // Every way tried: remember the state if none cleared, back up to its parent.
                if !f.found {
                    self.failed.insert(f.key);
                }
                self.live -= 1;
                if self.live > 0 && self.nodes >= node_limit {
                    return self.done();
                }
                continue;
            }
            let Some((kind, _, _, is_hold)) = f.options[f.option] else {
                f.option += 1;
                continue;
            };
            if self.nodes >= node_limit {
                return self.done();
            }
            let start = if f.state.root && !is_hold {
                q.current
            } else {
                match spawn_position(&f.state.board, kind) {
                    Some(p) => p,
                    None => {
                        f.option += 1;
                        f.placements.clear();
                        continue;
                    }
                }
            };
            if self.nodes >= stop_at {
                return Progress::Paused;
            }
            self.nodes += 1;
            f.placements.clear();
            f.at = 0;
            f.option += 1;
            self.movegen.generate(
                &f.state.board,
                start,
                q.allow_180,
                is_hold,
                &mut f.placements,
            );
        }
    }

    /// The search is over: the first placement of the best perfect clear found, if any.
    fn done(&mut self) -> Progress<Option<Placement>> {
        Progress::Done(self.best.map(|(_, p)| p))
    }

    /// The next box height worth a search: its free cells are a multiple of four and no more
    /// than the known pieces fill.
    fn next_box(&mut self, q: &PcQuery) -> Option<u8> {
        let filled: u32 = q.board.cols.iter().map(|c| c.count_ones()).sum();
        let known = q.sequence.len() as u32 + u32::from(q.hold.is_some());
        while self.next_lines <= MAX_LINES {
            let lines = self.next_lines;
            self.next_lines += 1;
            let cells = u32::from(lines) * COLUMNS as u32;
            if cells < filled || filled + 4 > cells {
                continue;
            }
            // Each line that rises adds one empty cell (its hole) and a row to the box.
            let rises = if q.next_hole(0).is_some() {
                u32::from(self.queued.min(u16::from(MAX_LINES - lines)))
            } else {
                0
            };
            if !(0..=rises).any(|r| (cells - filled + r).is_multiple_of(4)) {
                continue;
            }
            if (cells - filled) / 4 > known {
                continue;
            }
            return Some(lines);
        }
        None
    }

    /// Checks state `s` and, if it may still lead to a perfect clear, pushes a frame for it.
    fn enter(&mut self, q: &PcQuery, s: State) -> Enter {
        if !s.root && s.board.is_empty() {
            return Enter::Cleared;
        }
        let empty = box_empty(&s.board, s.lines);
        // Garbage still to rise adds its hole to the region above it.
        let growing = q
            .next_hole(s.attack + s.risen)
            .map_or(0, |h| 1u64 << h as u64);
        if !regions_fit_but(empty, growing) {
            return Enter::Dead;
        }
        let need = empty.count_ones() / 4;
        let known =
            (q.sequence.len() - s.next.min(q.sequence.len())) as u32 + u32::from(s.hold.is_some());
        if known < need || s.next >= q.sequence.len() {
            return Enter::Dead;
        }
        // Queued lines gone so far decide whether garbage rises later; none queued, none count.
        let key = state_key(&s, (s.attack + s.risen).min(self.queued));
        if self.failed.contains(&key) {
            return Enter::Dead;
        }
        let current = q.sequence[s.next];
        let mut options: [Option<Choice>; 2] = [None; 2];
        options[0] = Some((current, s.hold, s.next + 1, false));
        if !s.root || q.hold_allowed {
            match s.hold {
                Some(h) if h != current => options[1] = Some((h, Some(current), s.next + 1, true)),
                None => {
                    if let Some(&after) = q.sequence.get(s.next + 1)
                        && after != current
                    {
                        options[1] = Some((after, Some(current), s.next + 2, true));
                    }
                }
                _ => {}
            }
        }
        if self.live == self.stack.len() {
            self.stack.push(Frame {
                state: s,
                key,
                options,
                option: 0,
                placements: Vec::new(),
                at: 0,
                found: false,
            });
        } else {
            let f = &mut self.stack[self.live];
            f.state = s;
            f.key = key;
            f.options = options;
            f.option = 0;
            f.placements.clear();
            f.at = 0;
            f.found = false;
        }
        self.live += 1;
        Enter::Opened
    }
}

/// A way to play the next piece: (piece, hold slot after, next index, is a hold placement).
type Choice = (PieceKind, Option<PieceKind>, usize, bool);

fn state_key(s: &State, cancelled: u16) -> u64 {
    let mut h: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut mix = |v: u64| {
        h ^= v;
        h = h.wrapping_mul(0x0100_0000_01b3).rotate_left(27);
    };
    for c in s.board.cols {
        mix(c);
    }
    mix(s.hold.map_or(7, |k| k.index() as u64)
        | (s.next as u64) << 8
        | u64::from(s.lines) << 16
        | u64::from(cancelled) << 24);
    h
}

/// The empty cells of the box as bits `y * 10 + x`.
fn box_empty(board: &BitBoard, lines: u8) -> u64 {
    let mut m = 0u64;
    for (x, &col) in board.cols.iter().enumerate() {
        for y in 0..u32::from(lines) {
            if col >> y & 1 == 0 {
                m |= 1 << (y as usize * COLUMNS + x);
            }
        }
    }
    m
}

const NOT_COL0: u64 = {
    let mut m = 0u64;
    let mut i = 0;
    while i < 60 {
        if i % 10 != 0 {
            m |= 1 << i;
        }
        i += 1;
    }
    m
};
const NOT_COL9: u64 = {
    let mut m = 0u64;
    let mut i = 0;
    while i < 60 {
        if i % 10 != 9 {
            m |= 1 << i;
        }
        i += 1;
    }
    m
};

/// Whether every 4-connected empty region has a size divisible by four.
pub(crate) fn regions_fit(empty: u64) -> bool {
    regions_fit_but(empty, 0)
}

/// [`regions_fit`], except for the region holding a cell of `growing` (which rising garbage
/// will add to).
fn regions_fit_but(mut empty: u64, growing: u64) -> bool {
    while empty != 0 {
        let mut region = empty & empty.wrapping_neg();
        loop {
            let grown = (region
                | ((region << 1) & NOT_COL0)
                | ((region >> 1) & NOT_COL9)
                | (region << 10)
                | (region >> 10))
                & empty;
            if grown == region {
                break;
            }
            region = grown;
        }
        if region & growing == 0 && !region.count_ones().is_multiple_of(4) {
            return false;
        }
        empty &= !region;
    }
    true
}

mod garbage;
#[cfg(test)]
mod tests;
