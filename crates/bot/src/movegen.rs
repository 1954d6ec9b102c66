//! Move generation: every final placement a piece can reach from where it stands, and the
//! shortest abstract path (taps, rotations, soft drops) to any one of them.
//!
//! The search runs breadth-first over piece states on a [`BitBoard`] with gravity switched off,
//! as cold-clear does: from each state the piece may tap left or right, rotate clockwise,
//! counter-clockwise or 180° (SRS kicks from the core's tables), or soft drop to the floor. A
//! hard drop from any state is a placement (from the air the piece falls first, so the shortest
//! way to a plain drop never pays for a soft drop). Because the last action decides a
//! T-spin, a T state also remembers whether it was reached by a rotation and whether that
//! rotation used kick index 4; the spin itself comes from the core's [`t_spin`], so the bot never
//! disagrees with the rules. Placements are deduplicated by the cells they fill, keeping the best
//! spin and then the fewest moves.
//!
//! Turning a path into per-frame key masks under a player's handling is [`crate::inputs`]' job.

use std::sync::OnceLock;

use sevenbag_core::{Board, Piece, PieceKind, Rotation, Spin, srs, t_spin};

use crate::bitboard::BitBoard;

/// One abstract action of the move search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Move {
    /// Tap left one column.
    Left,
    /// Tap right one column.
    Right,
    /// Rotate clockwise.
    Cw,
    /// Rotate counter-clockwise.
    Ccw,
    /// Rotate 180°.
    Flip,
    /// Soft drop to the floor.
    SoftDrop,
}

/// A final position a piece can lock in, and how it gets there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    /// The piece where it locks.
    pub piece: Piece,
    /// The T-spin kind of the lock (by the core's [`t_spin`]).
    pub spin: Spin,
    /// Whether the piece is the one hold swaps in (the hold piece, or the next one if the hold
    /// slot is empty).
    pub hold: bool,
    /// Abstract actions before the hard drop, a hold counting as one.
    pub moves: u8,
}

impl Placement {
    /// A key naming the filled cells: two placements with the same key fill the same cells.
    pub fn key(&self) -> u64 {
        cells_key(&self.piece)
    }
}

/// The four cells of `piece`, packed sorted into one word (each cell `x + 10 y`).
pub fn cells_key(piece: &Piece) -> u64 {
    let mut cells = piece
        .cells()
        .map(|(x, y)| (x as i32 + 10 * y as i32) as u16);
    cells.sort_unstable();
    cells.iter().fold(0u64, |acc, &c| acc << 16 | u64::from(c))
}

/// Orders spins for deduplication: a full spin beats a mini beats none.
fn spin_rank(spin: Spin) -> u8 {
    match spin {
        Spin::None => 0,
        Spin::Mini => 1,
        Spin::Full => 2,
    }
}

/// Where a new piece of `kind` starts on `board`: the spawn position, one row lower if it can
/// fall (SPEC §1). `None` when the spawn position is blocked (a block out).
pub fn spawn_position(board: &BitBoard, kind: PieceKind) -> Option<Piece> {
    let p = Piece::spawn(kind);
    if board.collides_piece(&p) {
        return None;
    }
    Some(if board.grounded(&p) {
        p
    } else {
        p.shifted(0, -1)
    })
}

/// How the last successful action reached a state: it decides the T-spin of a lock there.
const NOT_ROTATED: u8 = 0;
const ROTATED: u8 = 1;
const KICK_4: u8 = 2;

/// Kick lists for every (kind, from, turn), turn 0 = clockwise, 1 = counter-clockwise, 2 = 180°.
type KickTable = [[[srs::Kicks; 3]; 4]; 7];

fn kick_table() -> &'static KickTable {
    static TABLE: OnceLock<KickTable> = OnceLock::new();
    TABLE.get_or_init(|| {
        std::array::from_fn(|k| {
            std::array::from_fn(|r| {
                let kind = PieceKind::ALL[k];
                let from = Rotation::ALL[r];
                [from.cw(), from.ccw(), from.flip()].map(|to| srs::kicks(kind, from, to))
            })
        })
    })
}

/// For each (kind, rotation), the lowest rotation with the same cells and the centre offset
/// that maps one onto the other: S, Z and I fill the same cells in states 0/2 and R/L, O in all.
type CanonTable = [[(u8, i8, i8); 4]; 7];

fn canon_table() -> &'static CanonTable {
    static TABLE: OnceLock<CanonTable> = OnceLock::new();
    TABLE.get_or_init(|| {
        std::array::from_fn(|k| {
            let kind = PieceKind::ALL[k];
            let sorted = |r: usize| {
                let mut c = kind.cells(Rotation::ALL[r]);
                c.sort_unstable();
                c
            };
            std::array::from_fn(|r| {
                let cells = sorted(r);
                (0..=r)
                    .find_map(|q| {
                        let other = sorted(q);
                        let (dx, dy) = (cells[0].0 - other[0].0, cells[0].1 - other[0].1);
                        let same = cells
                            .iter()
                            .zip(&other)
                            .all(|(a, b)| (a.0 - b.0, a.1 - b.1) == (dx, dy));
                        same.then_some((q as u8, dx, dy))
                    })
                    .unwrap_or((r as u8, 0, 0))
            })
        })
    })
}

/// A dense index naming the cells a piece fills (0..1600): its canonical rotation and centre.
fn canon_index(kind: PieceKind, rot: u8, x: i8, y: i8) -> usize {
    let (r, dx, dy) = canon_table()[kind.index()][usize::from(rot)];
    (usize::from(r) * 40 + (y + dy) as usize) * 10 + (x + dx) as usize
}

/// One state of the breadth-first search (the kind is fixed per search).
#[derive(Clone, Copy, Debug)]
struct Node {
    x: i8,
    y: i8,
    rot: u8,
    class: u8,
    mv: Option<Move>,
    depth: u8,
    parent: u16,
}

/// Reusable buffers for move generation: keep one per thread of search to avoid allocation.
#[derive(Clone, Debug, Default)]
pub struct MoveGen {
    nodes: Vec<Node>,
    kind: Option<PieceKind>,
    map: [[u64; 10]; 4],
    /// Per canonical cell index, 1 + the index of its placement in the output (0: none yet).
    slots: Vec<u16>,
}

/// States are indexed by (class, rotation, y, x); the centre is always one of the piece's
/// cells, so a fitting state has x in 0..10 and y in 0..40.
const STATES: usize = 3 * 4 * 40 * 10;

impl MoveGen {
    /// Fresh buffers.
    pub fn new() -> MoveGen {
        MoveGen::default()
    }

    /// States the last search visited (for benchmarks).
    pub fn states_visited(&self) -> usize {
        self.nodes.len()
    }

    #[inline]
    fn collides(&self, rot: u8, x: i8, y: i8) -> bool {
        !(0..10).contains(&x)
            || !(0..64).contains(&y)
            || self.map[rot as usize][x as usize] >> y & 1 == 1
    }

    #[inline]
    fn landing(&self, rot: u8, x: i8, y: i8) -> i8 {
        let below = self.map[rot as usize][x as usize] & ((1u64 << y) - 1);
        (64 - below.leading_zeros()) as i8
    }

    #[inline]
    fn grounded(&self, n: &Node) -> bool {
        n.y == 0 || self.map[n.rot as usize][n.x as usize] >> (n.y - 1) & 1 == 1
    }

    fn piece(&self, n: &Node) -> Piece {
        Piece {
            kind: self.kind.unwrap_or(PieceKind::I),
            rotation: Rotation::ALL[n.rot as usize],
            x: n.x,
            y: n.y,
        }
    }

    /// Breadth-first search from `start` (reached with spin class `class`).
    fn explore(&mut self, board: &BitBoard, start: Piece, class: u8, allow_180: bool) {
        self.nodes.clear();
        let kind = start.kind;
        self.kind = Some(kind);
        self.map = board.collision_map(kind);
        let rot0 = start.rotation.index() as u8;
        if self.collides(rot0, start.x, start.y) {
            return;
        }
        let is_t = kind == PieceKind::T;
        let mut seen = [0u64; STATES / 64];
        let kicks = &kick_table()[kind.index()];
        let index = |x: i8, y: i8, rot: u8, class: u8| {
            ((usize::from(class) * 4 + usize::from(rot)) * 40 + y as usize) * 10 + x as usize
        };
        let start_class = if is_t { class } else { NOT_ROTATED };
        let i = index(start.x, start.y, rot0, start_class);
        seen[i / 64] |= 1 << (i % 64);
        self.nodes.push(Node {
            x: start.x,
            y: start.y,
            rot: rot0,
            class: start_class,
            mv: None,
            depth: 0,
            parent: u16::MAX,
        });
        let turns = if allow_180 { 3 } else { 2 };
        let mut head = 0;
        while head < self.nodes.len() {
            let n = self.nodes[head];
            let mut visit = |nodes: &mut Vec<Node>, x: i8, y: i8, rot: u8, class: u8, mv: Move| {
                let class = if is_t { class } else { NOT_ROTATED };
                let i = index(x, y, rot, class);
                if seen[i / 64] >> (i % 64) & 1 == 0 {
                    seen[i / 64] |= 1 << (i % 64);
                    nodes.push(Node {
                        x,
                        y,
                        rot,
                        class,
                        mv: Some(mv),
                        depth: n.depth.saturating_add(1),
                        parent: head as u16,
                    });
                }
            };
            if !self.collides(n.rot, n.x - 1, n.y) {
                visit(
                    &mut self.nodes,
                    n.x - 1,
                    n.y,
                    n.rot,
                    NOT_ROTATED,
                    Move::Left,
                );
            }
            if !self.collides(n.rot, n.x + 1, n.y) {
                visit(
                    &mut self.nodes,
                    n.x + 1,
                    n.y,
                    n.rot,
                    NOT_ROTATED,
                    Move::Right,
                );
            }
            for (t, mv) in [Move::Cw, Move::Ccw, Move::Flip][..turns]
                .iter()
                .enumerate()
            {
                let to = match t {
                    0 => (n.rot + 1) % 4,
                    1 => (n.rot + 3) % 4,
                    _ => (n.rot + 2) % 4,
                };
                for (k, &(dx, dy)) in kicks[usize::from(n.rot)][t].as_slice().iter().enumerate() {
                    let (x, y) = (n.x + dx, n.y + dy);
                    if !self.collides(to, x, y) {
                        let class = if t < 2 && k == 4 { KICK_4 } else { ROTATED };
                        visit(&mut self.nodes, x, y, to, class, *mv);
                        break;
                    }
                }
            }
            let land = self.landing(n.rot, n.x, n.y);
            if land < n.y {
                visit(
                    &mut self.nodes,
                    n.x,
                    land,
                    n.rot,
                    NOT_ROTATED,
                    Move::SoftDrop,
                );
            }
            head += 1;
        }
    }

    /// The lock a hard drop from node `i` makes: where the piece locks, its spin, the actions
    /// before the hard drop, and the node whose path those actions are. From a node in the air
    /// the piece falls first (no spin); a soft drop straight before the hard drop is not needed,
    /// so a grounded node reached by one costs what its parent costs.
    fn lock(
        &self,
        i: usize,
        core: &mut Option<Board>,
        board: &BitBoard,
    ) -> (Piece, Spin, u8, usize) {
        let node = &self.nodes[i];
        if !self.grounded(node) {
            let landed = Node {
                y: self.landing(node.rot, node.x, node.y),
                ..*node
            };
            return (self.piece(&landed), Spin::None, node.depth, i);
        }
        let spin = if node.class == NOT_ROTATED {
            Spin::None
        } else {
            let core = core.get_or_insert_with(|| board.to_board());
            t_spin(
                core,
                &self.piece(node),
                if node.class == KICK_4 { 4 } else { 0 },
            )
        };
        if node.mv == Some(Move::SoftDrop) {
            (
                self.piece(node),
                spin,
                node.depth - 1,
                usize::from(node.parent),
            )
        } else {
            (self.piece(node), spin, node.depth, i)
        }
    }

    /// Appends to `out` every placement reachable from `start`, deduplicated by filled cells
    /// (best spin, then fewest moves kept), in the order the search found them. `hold` marks
    /// them as hold placements and counts the hold as a move.
    pub fn generate(
        &mut self,
        board: &BitBoard,
        start: Piece,
        allow_180: bool,
        hold: bool,
        out: &mut Vec<Placement>,
    ) {
        self.explore(board, start, NOT_ROTATED, allow_180);
        let kind = start.kind;
        let first = out.len();
        if self.slots.len() < 1600 {
            self.slots = vec![0; 1600];
        }
        let mut core = None;
        for i in 0..self.nodes.len() {
            let (piece, spin, moves, _) = self.lock(i, &mut core, board);
            let placement = Placement {
                piece,
                spin,
                hold,
                moves: moves + u8::from(hold),
            };
            let canon = canon_index(kind, piece.rotation.index() as u8, piece.x, piece.y);
            match self.slots[canon] {
                0 => {
                    out.push(placement);
                    self.slots[canon] = (out.len() - first) as u16;
                }
                s => {
                    let old = &mut out[first + usize::from(s) - 1];
                    let better = (spin_rank(spin), std::cmp::Reverse(placement.moves))
                        > (spin_rank(old.spin), std::cmp::Reverse(old.moves));
                    if better {
                        *old = placement;
                    }
                }
            }
        }
        for p in &out[first..] {
            self.slots[canon_index(kind, p.piece.rotation.index() as u8, p.piece.x, p.piece.y)] = 0;
        }
    }

    /// The shortest abstract path from `start` (reached with `class`, see [`StartClass`]) to a
    /// lock filling the cells of `key` with spin `spin`; the final hard drop is implied.
    pub fn find_path(
        &mut self,
        board: &BitBoard,
        start: Piece,
        class: StartClass,
        key: u64,
        spin: Spin,
        allow_180: bool,
    ) -> Option<Vec<Move>> {
        let class = match class {
            StartClass::Moved => NOT_ROTATED,
            StartClass::Rotated => ROTATED,
            StartClass::Kick4 => KICK_4,
        };
        self.explore(board, start, class, allow_180);
        let mut core = None;
        let mut best: Option<(u8, usize)> = None;
        for i in 0..self.nodes.len() {
            let (piece, s, moves, end) = self.lock(i, &mut core, board);
            if s == spin && cells_key(&piece) == key && best.is_none_or(|(m, _)| moves < m) {
                best = Some((moves, end));
            }
        }
        let (_, mut i) = best?;
        let mut path = Vec::new();
        while let Some(mv) = self.nodes[i].mv {
            path.push(mv);
            i = usize::from(self.nodes[i].parent);
        }
        path.reverse();
        Some(path)
    }
}

/// How the piece reached its current state, for a path search that starts mid-piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StartClass {
    /// Spawned, moved or dropped: a lock here would not be a spin.
    Moved,
    /// Last action was a rotation with a kick other than index 4.
    Rotated,
    /// Last action was a rotation with kick index 4.
    Kick4,
}

/// Every placement of `kind` spawning on `board`, and of `hold` if given (the piece a hold would
/// swap in). Convenience over [`MoveGen::generate`] for tools and tests.
pub fn find_moves(
    board: &Board,
    kind: PieceKind,
    hold: Option<PieceKind>,
    allow_180: bool,
) -> Vec<Placement> {
    let bits = BitBoard::from_board(board);
    let mut movegen = MoveGen::new();
    let mut out = Vec::new();
    if let Some(start) = spawn_position(&bits, kind) {
        movegen.generate(&bits, start, allow_180, false, &mut out);
    }
    if let Some(h) = hold
        && let Some(start) = spawn_position(&bits, h)
    {
        movegen.generate(&bits, start, allow_180, true, &mut out);
    }
    out
}
