//! The first-bag perfect-clear opener (Max): placements for the first bag that keep a perfect
//! clear possible for as many orders of the second bag as they can.
//!
//! At the first piece of a game the whole first bag is known (the piece in play, five next and
//! the seventh deduced), but a four-row perfect clear takes ten pieces, so the first placements
//! must be chosen before the second bag's pieces are seen. The [`book`] lists setups: six
//! first-bag pieces placed, the seventh kept in hold, and for each of the 840 orders the second
//! bag's first four pieces can come in, whether the perfect clear can then finish. Each piece,
//! [`Opener::choose`] looks at the setups the board is still on the way to and plays the
//! placement with the most expected successes over the orders still possible, counted by an
//! expectimax over the rest of the build: up to the [`FORESIGHT`]th placement its own later
//! choices are made knowing the pieces it will have seen by then (the preview shows one more
//! piece of the second bag after each placement), after that they are valued by the best single
//! setup they can still build; a setup counts only where this bag's order, with hold, can build
//! it. It decides again at every piece, with the pieces then in view.
//! Once the setup stands the next pieces are all visible and the ordinary perfect-clear search
//! ([`crate::pc`]) finishes it; it also takes over earlier whenever it finds a perfect clear
//! from the pieces it can see.
//!
//! Work is counted in expectimax nodes (at most [`NODE_LIMIT`] a decision, past which a state
//! is valued by its best single setup), never in time. The book's success bits were computed
//! with 180° rotation; without it (a room that turns it off, a TBP game) a finish that needs a
//! half turn is counted as possible when it is not, and which placements the build can reach is
//! checked under the real rules. Measured without 180° (botmatch, seeds 0 and 1000): 91 and 95
//! first-bag perfect clears in 100 games, about as many as with it.

pub mod book;
pub mod generate;

use std::collections::HashMap;

use sevenbag_core::{Piece, PieceKind};

use crate::bitboard::BitBoard;
use crate::movegen::{MoveGen, Placement, spawn_position};
use crate::search::Progress;
pub use book::piece_cells;
pub use book::{Book, BookError, Setup};
use book::{LINES, block};

/// Expectimax nodes allowed per decision.
pub const NODE_LIMIT: u32 = 200_000;

/// Placements (counted from the start of the game) up to which the expectimax branches on the
/// second-bag pieces still to be seen; later choices are valued as if nothing more were seen,
/// that is by the best single setup they can still build. (Branching all the way measured
/// fewer perfect clears: its node budget ran out and cut the tree short.)
pub const FORESIGHT: u32 = 3;

/// What the opener decides from.
#[derive(Clone, Debug)]
pub struct OpenerQuery<'a> {
    /// The locked cells.
    pub board: BitBoard,
    /// The first bag, in order.
    pub bag: [PieceKind; 7],
    /// The index in the sequence of the piece in play: pieces placed, plus one when the hold
    /// slot holds a piece.
    pub index: usize,
    /// The hold slot.
    pub hold: Option<PieceKind>,
    /// The second bag's pieces seen so far, in order.
    pub revealed: &'a [PieceKind],
    /// Whether 180° rotation is on (for which placements can be reached).
    pub allow_180: bool,
}

/// The opener's choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpenerMove {
    /// Where the piece locks.
    pub piece: Piece,
    /// Whether it is the piece hold swaps in.
    pub hold: bool,
    /// Of the orders of the second bag still possible, for how many the perfect clear can
    /// finish with the best play from here (expected, as the later choices see more pieces).
    pub successes: u32,
    /// How many orders are still possible.
    pub orders: u32,
}

impl OpenerMove {
    /// This choice as a placement from spawn on `board`: `current` is the piece in play (if
    /// any) and `swap_in` the piece a hold would bring (the hold slot, or else the next piece).
    /// `None` when the piece it needs is missing or move generation cannot reach it under the
    /// room's rotation rules.
    pub fn placement(
        &self,
        board: &BitBoard,
        current: Option<Piece>,
        swap_in: Option<PieceKind>,
        allow_180: bool,
        movegen: &mut MoveGen,
    ) -> Option<Placement> {
        let start = if self.hold {
            spawn_position(board, swap_in?)?
        } else {
            current?
        };
        let mut placements = Vec::new();
        movegen.generate(board, start, allow_180, self.hold, &mut placements);
        let cells = piece_cells(&self.piece);
        placements
            .into_iter()
            .find(|p| piece_cells(&p.piece) == cells)
    }
}

/// Buffers for the opener's decisions.
#[derive(Clone, Debug, Default)]
pub struct Opener {
    movegen: MoveGen,
    buf: Vec<Placement>,
    /// Cells of every placement of a kind on a board, for the decision in progress.
    reach: HashMap<(u64, PieceKind), Vec<u64>>,
    nodes: u32,
    allow_180: bool,
    /// The decision in progress.
    pending: Option<Box<Pending>>,
    /// Expectimax nodes of the last decision.
    pub expanded: u32,
}

/// A decision in progress: the ways to play the piece in play, and the best valued so far.
#[derive(Clone, Debug)]
struct Pending {
    bag: [PieceKind; 7],
    /// Orders of the second bag still possible.
    orders: u32,
    actions: Vec<(Action, Vec<u16>)>,
    /// The next action to value.
    next: usize,
    /// (expected successes, setups kept, action index) of the best so far.
    best: Option<(u32, usize, usize)>,
    /// The expectimax below the action being valued, innermost last.
    stack: Vec<Frame>,
    /// The value of the frame just finished, for the frame below it (or the action).
    value: Option<u32>,
}

/// A node of the expectimax under way.
#[derive(Clone, Debug)]
enum Frame {
    /// The build's own choice: the actions from a state (each with the setups it keeps), the
    /// next to value and the best so far (expected successes, setups kept).
    Decide {
        actions: Vec<(Action, Vec<u16>)>,
        at: usize,
        best: Option<(u32, usize)>,
    },
    /// The next piece the preview shows: the kinds (by index) tried so far and their total.
    Reveal {
        st: State,
        live: Vec<u16>,
        kind: usize,
        total: u32,
    },
}

/// A state of the build: pieces placed, hold, the next piece's index, the second-bag pieces
/// seen.
#[derive(Clone, Copy, Debug)]
struct State {
    /// Kinds placed, one bit per kind index.
    placed: u8,
    /// Their cells, as box bits.
    board: u64,
    hold: Option<PieceKind>,
    /// Index of the piece in play.
    index: usize,
    revealed: [PieceKind; 4],
    seen: usize,
}

/// One way to go on: lock `piece` (through hold or not), reaching `next`.
#[derive(Clone, Copy, Debug)]
struct Action {
    piece: Piece,
    cells: u64,
    hold: bool,
    next: State,
}

/// The box bits of a board no higher than [`LINES`] rows, `None` if it is higher.
fn box_bits(board: &BitBoard) -> Option<u64> {
    if board.max_height() > LINES as i8 {
        return None;
    }
    let mut m = 0;
    for (x, &col) in board.cols.iter().enumerate() {
        for y in 0..u32::from(LINES) {
            if col >> y & 1 == 1 {
                m |= 1 << (y * 10 + x as u32);
            }
        }
    }
    Some(m)
}

/// The board of box bits.
fn board_of(cells: u64) -> BitBoard {
    let mut b = BitBoard::new();
    for i in 0..60 {
        if cells >> i & 1 == 1 {
            b.cols[i % 10] |= 1 << (i / 10);
        }
    }
    b
}

/// How many second-bag pieces are visible in a state: the preview shows five pieces after the
/// one in play.
fn visible(placed: u32, hold: bool) -> usize {
    (placed as usize + usize::from(hold) + 5)
        .saturating_sub(6)
        .min(4)
}

impl Opener {
    /// Fresh buffers.
    pub fn new() -> Opener {
        Opener::default()
    }

    /// The placement to play, or `None` when the board is not on the way to any setup of the
    /// book that this bag can still build (or the setup already stands).
    pub fn choose(&mut self, book: &Book, q: &OpenerQuery) -> Option<OpenerMove> {
        self.start(book, q);
        loop {
            if let Progress::Done(found) = self.resume(book, u32::MAX) {
                return found;
            }
        }
    }

    /// Starts a decision about `q`, dropping any unfinished one; [`Opener::resume`] makes it.
    pub fn start(&mut self, book: &Book, q: &OpenerQuery) {
        self.nodes = 0;
        self.expanded = 0;
        self.reach.clear();
        self.allow_180 = q.allow_180;
        self.pending = self.root(book, q).map(Box::new);
    }

    /// Goes on with the decision for at most `work` more expectimax nodes (at least one): the
    /// answer once every placement of the piece in play is valued. The answer does not depend
    /// on how the work is sliced.
    pub fn resume(&mut self, book: &Book, work: u32) -> Progress<Option<OpenerMove>> {
        let Some(mut p) = self.pending.take() else {
            return Progress::Done(None);
        };
        let stop_at = self.nodes.saturating_add(work.max(1));
        loop {
            // The next state to value, once the value just found has gone to its frame.
            let next = match p.stack.last_mut() {
                None => {
                    if let Some(w) = p.value.take() {
                        let live = p.actions[p.next].1.len();
                        if p.best.is_none_or(|(bw, bl, _)| (w, live) > (bw, bl)) {
                            p.best = Some((w, live, p.next));
                        }
                        p.next += 1;
                    }
                    match p.actions.get(p.next) {
                        Some((action, live)) => (action.next, live.clone()),
                        None => break,
                    }
                }
                Some(Frame::Decide { actions, at, best }) => {
                    if let Some(w) = p.value.take() {
                        let live = actions[*at].1.len();
                        if best.is_none_or(|(bw, bl)| (w, live) > (bw, bl)) {
                            *best = Some((w, live));
                        }
                        *at += 1;
                    }
                    match actions.get(*at) {
                        Some((action, live)) => (action.next, live.clone()),
                        None => {
                            p.value = Some(best.map_or(0, |b| b.0));
                            p.stack.pop();
                            continue;
                        }
                    }
                }
                Some(Frame::Reveal {
                    st,
                    live,
                    kind,
                    total,
                }) => {
                    if let Some(w) = p.value.take() {
                        *total += w;
                        *kind += 1;
                    }
                    while PieceKind::ALL
                        .get(*kind)
                        .is_some_and(|k| st.revealed[..st.seen].contains(k))
                    {
                        *kind += 1;
                    }
                    match PieceKind::ALL.get(*kind) {
                        Some(&k) => {
                            let mut next = *st;
                            next.revealed[st.seen] = k;
                            next.seen += 1;
                            (next, live.clone())
                        }
                        None => {
                            p.value = Some(*total);
                            p.stack.pop();
                            continue;
                        }
                    }
                }
            };
            if self.nodes >= stop_at {
                self.pending = Some(p);
                return Progress::Paused;
            }
            p.value = self.enter(book, &p.bag, &mut p.stack, next.0, next.1);
        }
        self.expanded = self.nodes;
        let found = p.best.filter(|b| b.0 > 0).map(|(successes, _, i)| {
            let action = p.actions[i].0;
            OpenerMove {
                piece: action.piece,
                hold: action.hold,
                successes,
                orders: p.orders,
            }
        });
        Progress::Done(found)
    }

    /// Starts valuing `st` (expected successes, after the pieces its preview newly shows,
    /// under the best play): its value when it is known at once, else `None` and the frame
    /// that finds it is pushed on `stack`.
    fn enter(
        &mut self,
        book: &Book,
        bag: &[PieceKind; 7],
        stack: &mut Vec<Frame>,
        st: State,
        live: Vec<u16>,
    ) -> Option<u32> {
        let shown = visible(st.placed.count_ones(), st.hold.is_some()).max(st.seen);
        if shown == st.seen || st.placed.count_ones() >= FORESIGHT {
            // The build chooses: valued by its best action, or past the horizon (or the node
            // budget) by the best single setup it can still build.
            self.nodes += 1;
            if st.placed.count_ones() == 6 || self.nodes > NODE_LIMIT {
                let orders = block(&st.revealed[..st.seen]);
                let best_single = live
                    .iter()
                    .map(|&j| book.setups[usize::from(j)].successes(orders))
                    .max()
                    .unwrap_or(0);
                return Some(best_single);
            }
            let actions = self.actions(book, bag, &st, &live);
            stack.push(Frame::Decide {
                actions,
                at: 0,
                best: None,
            });
        } else {
            // One more piece of the second bag shows (two after a first hold): every kind the
            // bag has left, each as likely as the orders it begins.
            stack.push(Frame::Reveal {
                st,
                live,
                kind: 0,
                total: 0,
            });
        }
        None
    }

    /// The root of a decision: the setups the board is on the way to and the ways to play the
    /// piece in play onto them; `None` when there are none.
    fn root(&mut self, book: &Book, q: &OpenerQuery) -> Option<Pending> {
        if q.index >= 7 {
            return None;
        }
        let mut placed = q.bag[..q.index].iter().fold(0u8, |m, k| m | 1 << k.index());
        if let Some(h) = q.hold {
            if placed >> h.index() & 1 == 0 {
                return None;
            }
            placed &= !(1 << h.index());
        }
        let board = box_bits(&q.board)?;
        if placed.count_ones() >= 6 || board.count_ones() != 4 * placed.count_ones() {
            return None;
        }
        let live: Vec<u16> = (0..book.setups.len() as u16)
            .filter(|&j| {
                let s = &book.setups[usize::from(j)];
                placed >> s.hold.index() & 1 == 0
                    && (0..7)
                        .filter(|k| placed >> k & 1 == 1)
                        .fold(0, |a, k| a | s.cells[k])
                        == board
            })
            .collect();
        if live.is_empty() {
            return None;
        }
        let mut revealed = [PieceKind::I; 4];
        let seen = q.revealed.len().min(4);
        revealed[..seen].copy_from_slice(&q.revealed[..seen]);
        let root = State {
            placed,
            board,
            hold: q.hold,
            index: q.index,
            revealed,
            seen,
        };
        self.nodes += 1;
        let actions = self.actions(book, &q.bag, &root, &live);
        Some(Pending {
            bag: q.bag,
            orders: block(&revealed[..seen]).1 as u32,
            actions,
            next: 0,
            best: None,
            stack: Vec::new(),
            value: None,
        })
    }

    /// The ways to play the piece in play (or the hold piece) onto a setup of `live`, each with
    /// the setups it keeps.
    fn actions(
        &mut self,
        book: &Book,
        bag: &[PieceKind; 7],
        st: &State,
        live: &[u16],
    ) -> Vec<(Action, Vec<u16>)> {
        if st.index >= 7 {
            return Vec::new();
        }
        let current = bag[st.index];
        // (kind placed, hold used, hold after, index after)
        let mut ways = vec![(current, false, st.hold, st.index + 1)];
        match st.hold {
            Some(h) => ways.push((h, true, Some(current), st.index + 1)),
            None if st.index + 1 < 7 => {
                ways.push((bag[st.index + 1], true, Some(current), st.index + 2))
            }
            None => {}
        }
        let mut out: Vec<(Action, Vec<u16>)> = Vec::new();
        for (kind, hold, hold_after, index) in ways {
            let k = kind.index();
            if st.placed >> k & 1 == 1 {
                continue;
            }
            for &j in live {
                let s = &book.setups[usize::from(j)];
                let Some(piece) = s.pieces[k] else { continue };
                let cells = s.cells[k];
                if let Some(found) = out
                    .iter_mut()
                    .find(|(a, _)| a.hold == hold && a.piece.kind == kind && a.cells == cells)
                {
                    found.1.push(j);
                    continue;
                }
                if !self.reachable(st.board, &piece) {
                    continue;
                }
                let next = State {
                    placed: st.placed | 1 << k,
                    board: st.board | cells,
                    hold: hold_after,
                    index,
                    ..*st
                };
                out.push((
                    Action {
                        piece,
                        cells,
                        hold,
                        next,
                    },
                    vec![j],
                ));
            }
        }
        out
    }

    /// Whether `piece` can lock where it stands on the box `board`, from spawn.
    fn reachable(&mut self, board: u64, piece: &Piece) -> bool {
        let b = board_of(board);
        // Straight down from above: no need for move generation.
        let above = Piece { y: 30, ..*piece };
        let landed = b.drop_position(&above);
        if landed.y == piece.y {
            return true;
        }
        if !b.grounded(piece) || b.collides_piece(piece) {
            return false;
        }
        let cells = piece_cells(piece);
        let key = (board, piece.kind);
        if !self.reach.contains_key(&key) {
            let mut found = Vec::new();
            if let Some(start) = spawn_position(&b, piece.kind) {
                self.buf.clear();
                self.movegen
                    .generate(&b, start, self.allow_180, false, &mut self.buf);
                found.extend(self.buf.iter().map(|p| piece_cells(&p.piece)));
            }
            self.reach.insert(key, found);
        }
        self.reach[&key].contains(&cells)
    }
}
