//! One layer of the beam: expand every node by every resting placement of the next brick (split
//! over threads), drop duplicates, and keep the best `width` children with a per-fullness quota
//! so boards of every fullness survive. The choice is a total order on (value, parent,
//! placement), so the result does not depend on the number of threads.

use super::eval::{Weights, evaluate};
use super::movegen::{Placement, piece_at, placements};
use crate::rules::{Board, Brick, LINE_FACTOR};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

/// A board in the beam.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub struct Node {
    pub board: Board,
    pub score: u64,
    /// Score plus evaluation: the ranking key.
    pub value: i64,
}

/// How a node was reached: its parent in the previous layer and the placement.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub struct Link {
    pub parent: u32,
    pub placement: Placement,
}

#[derive(Clone, Copy)]
struct Child {
    node: Node,
    link: Link,
    order: u32,
}

/// Expands `nodes` by `brick` (whose lock is numbered `brick_no`), returning the kept children
/// and their links. `threads` ≥ 1.
pub fn step(
    nodes: &[Node],
    brick: Brick,
    width: usize,
    weights: &Weights,
    threads: usize,
) -> (Vec<Node>, Vec<Link>) {
    let threads = threads.max(1).min(nodes.len().max(1));
    let chunk = nodes.len().div_ceil(threads).max(1);
    let mut children: Vec<Child> = std::thread::scope(|scope| {
        let handles: Vec<_> = nodes
            .chunks(chunk)
            .enumerate()
            .map(|(ci, part)| scope.spawn(move || expand(part, ci * chunk, brick, weights)))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    });
    select(&mut children, width)
}

/// Children of a run of nodes starting at index `base`.
fn expand(part: &[Node], base: usize, brick: Brick, w: &Weights) -> Vec<Child> {
    let mut out = Vec::with_capacity(part.len() * 24);
    let mut places = Vec::with_capacity(64);
    for (i, node) in part.iter().enumerate() {
        placements(&node.board, brick, &mut places);
        for (k, &p) in places.iter().enumerate() {
            let mut board = node.board;
            let piece = piece_at(brick, p);
            board.write(&piece);
            if board.top_touched() {
                continue;
            }
            let cells = board.cell_count() as u64;
            let lines = board.clear_lines();
            let score = node.score + cells * LINE_FACTOR[lines as usize];
            let value = score as i64 + evaluate(&board, w);
            out.push(Child {
                node: Node {
                    board,
                    score,
                    value,
                },
                link: Link {
                    parent: (base + i) as u32,
                    placement: p,
                },
                order: k as u32,
            });
        }
    }
    out
}

fn better(a: &Child, b: &Child) -> std::cmp::Ordering {
    b.node
        .value
        .cmp(&a.node.value)
        .then(a.link.parent.cmp(&b.link.parent))
        .then(a.order.cmp(&b.order))
}

fn board_hash(b: &Board) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &r in &b.rows {
        h = (h ^ r as u64).wrapping_mul(0x100_0000_01b3);
    }
    h
}

/// Keeps the best `width` distinct boards, at most a sixth of them per fullness band.
fn select(children: &mut Vec<Child>, width: usize) -> (Vec<Node>, Vec<Link>) {
    let cut = (width * 4).min(children.len());
    if cut < children.len() && cut > 0 {
        children.select_nth_unstable_by(cut - 1, better);
        children.truncate(cut);
    }
    children.sort_unstable_by(better);
    let quota = (width / 6).max(1);
    let mut per_band = [0usize; 64];
    let mut seen: HashSet<u64> = HashSet::with_capacity(children.len());
    let mut nodes = Vec::with_capacity(width);
    let mut links = Vec::with_capacity(width);
    for c in children.iter() {
        if nodes.len() >= width {
            break;
        }
        let band = (c.node.board.cell_count() / 4) as usize;
        if per_band[band] >= quota || !seen.insert(board_hash(&c.node.board)) {
            continue;
        }
        per_band[band] += 1;
        nodes.push(c.node);
        links.push(c.link);
    }
    (nodes, links)
}
