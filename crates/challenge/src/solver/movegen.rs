//! Every resting placement a brick can reach from its spawn by L, R, D and C steps (tucks and
//! spins included), found by a bit-parallel flood fill over (state, row) × column masks with no
//! allocation; and the shortest step path to one placement, for writing the record.

use crate::rules::{Board, Brick, HEIGHT, Kind, Piece, Step, try_step};

/// A final resting position of a brick (pivot and state).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct Placement {
    pub x: i8,
    pub y: i8,
    pub state: u8,
}

/// Row masks of a shape: `rows[r]` holds bit `dx + 2` for each cell at `dy = r - 2`.
#[derive(Clone, Copy)]
struct ShapeRows {
    rows: [u8; 5],
}

fn shape_rows(kind: Kind, state: u8) -> ShapeRows {
    let mut rows = [0u8; 5];
    for (dx, dy) in kind.cells(state) {
        rows[(dy + 2) as usize] |= 1 << (dx + 2);
    }
    ShapeRows { rows }
}

/// Bit x set when the pivot may stand at column x of row `y` (0..20) in this shape.
fn legal_row(walled: &[u32; HEIGHT + 4], shape: &ShapeRows, y: usize) -> u16 {
    let mut collide = 0u32;
    for (r, &m) in shape.rows.iter().enumerate() {
        if m == 0 {
            continue;
        }
        // walled[i] is board row i - 2; rows past the bottom are solid.
        let w = walled[y + r];
        let mut bits = m;
        while bits != 0 {
            let b = bits.trailing_zeros();
            collide |= w >> (b + 1);
            bits &= bits - 1;
        }
    }
    !(collide as u16) & 0x3FF
}

/// Board rows with 3 wall bits each side (`bit c + 3` = column c), padded with 2 free rows on
/// top and 2 solid rows below.
fn walled_rows(board: &Board) -> [u32; HEIGHT + 4] {
    let wall: u32 = 0b111 | (!0u32 << 13);
    let mut w = [!0u32; HEIGHT + 4];
    w[0] = wall;
    w[1] = wall;
    for (i, &row) in board.rows.iter().enumerate() {
        w[i + 2] = wall | (row as u32) << 3;
    }
    w
}

/// Resting placements of `brick` on `board`, written into `out` (cleared first). Placements
/// with identical cells are reported once; the spawn position itself is left out when the
/// brick would need zero ops to stay there.
pub fn placements(board: &Board, brick: Brick, out: &mut Vec<Placement>) {
    out.clear();
    let walled = walled_rows(board);
    let mut legal = [[0u16; HEIGHT + 1]; 4];
    for (s, row) in legal.iter_mut().enumerate() {
        let shape = shape_rows(brick.kind, s as u8);
        for (y, l) in row.iter_mut().take(HEIGHT).enumerate() {
            *l = legal_row(&walled, &shape, y);
        }
    }
    let start = brick.state as usize & 3;
    if legal[start][0] & (1 << 4) == 0 {
        return;
    }
    let mut reach = [[0u16; HEIGHT + 1]; 4];
    reach[start][0] = 1 << 4;
    let mut changed = true;
    while changed {
        changed = false;
        for y in 0..HEIGHT {
            for s in 0..4 {
                let l = legal[s][y];
                let mut r = reach[s][y];
                if r == 0 {
                    continue;
                }
                loop {
                    let n = (r | r << 1 | r >> 1) & l;
                    if n == r {
                        break;
                    }
                    r = n;
                }
                if r != reach[s][y] {
                    reach[s][y] = r;
                    changed = true;
                }
                let down = r & legal[s][y + 1];
                if down & !reach[s][y + 1] != 0 {
                    reach[s][y + 1] |= down;
                    changed = true;
                }
                let t = (s + 1) & 3;
                let rot = r & legal[t][y];
                if rot & !reach[t][y] != 0 {
                    reach[t][y] |= rot;
                    changed = true;
                }
            }
        }
    }
    let distinct = brick.kind.distinct_states() as usize;
    for y in 0..HEIGHT {
        let mut rest = [0u16; 4];
        for s in 0..4 {
            rest[s % distinct] |= reach[s][y] & !legal[s][y + 1];
        }
        for (s, &bits) in rest.iter().enumerate().take(distinct) {
            let mut bits = bits;
            while bits != 0 {
                let x = bits.trailing_zeros() as i8;
                bits &= bits - 1;
                let is_spawn = y == 0 && x == 4 && s == start % distinct;
                if !is_spawn {
                    out.push(Placement {
                        x,
                        y: y as i8,
                        state: s as u8,
                    });
                }
            }
        }
    }
}

/// The brick's cells at a placement.
pub fn piece_at(brick: Brick, p: Placement) -> Piece {
    Piece {
        kind: brick.kind,
        state: p.state,
        x: p.x,
        y: p.y,
    }
}

/// The shortest step path from spawn to a position with the same cells as `target`
/// (breadth-first, steps tried in the order L, R, D, C). `None` if unreachable.
pub fn path_to(board: &Board, brick: Brick, target: Placement) -> Option<Vec<Step>> {
    const STEPS: [Step; 4] = [Step::Left, Step::Right, Step::Down, Step::Rotate];
    let goal = sorted_cells(&piece_at(brick, target));
    let index = |p: &Piece| ((p.state as usize) * HEIGHT + p.y as usize) * 10 + p.x as usize;
    let mut parent: Vec<Option<(usize, Step)>> = vec![None; 4 * HEIGHT * 10];
    let mut seen = vec![false; 4 * HEIGHT * 10];
    let mut queue = std::collections::VecDeque::new();
    let spawn = Piece::spawn(brick);
    if !board.fits(&spawn) {
        return None;
    }
    seen[index(&spawn)] = true;
    queue.push_back(spawn);
    while let Some(p) = queue.pop_front() {
        let i = index(&p);
        if sorted_cells(&p) == goal && i != index(&spawn) {
            let mut steps = Vec::new();
            let mut at = i;
            while let Some((prev, step)) = parent[at] {
                steps.push(step);
                at = prev;
            }
            steps.reverse();
            return Some(steps);
        }
        for step in STEPS {
            let mut q = p;
            if try_step(board, &mut q, step) && !seen[index(&q)] {
                seen[index(&q)] = true;
                parent[index(&q)] = Some((i, step));
                queue.push_back(q);
            }
        }
    }
    None
}

fn sorted_cells(p: &Piece) -> [(i32, i32); 4] {
    let mut c = p.cells();
    c.sort_unstable();
    c
}
