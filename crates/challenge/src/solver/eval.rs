//! The board evaluation made for this scoring: points come from cells on the board when lines
//! clear, so a good board is full (many cells), clean (no covered holes, flat apart from one
//! well for vertical I's) and safely below the top (spawn rows free, never 20 rows in use).
//! Integer arithmetic only, so the search is deterministic.

use crate::rules::{Board, FULL_ROW, HEIGHT};

/// Weights of the evaluation (per unit of each feature).
#[derive(Clone, Copy, Debug, serde::Serialize, serde::Deserialize)]
pub struct Weights {
    /// Value of one cell on the board (future clears score it).
    pub cell: i64,
    /// Cost of one empty cell covered by a filled one.
    pub hole: i64,
    /// Cost of one row holding a covered hole.
    pub hole_row: i64,
    /// Cost per unit of height difference between neighbouring non-well columns.
    pub bump: i64,
    /// Cost per row of stack above `safe_height`.
    pub high: i64,
    /// Stack height (rows) from which `high` applies.
    pub safe_height: i32,
    /// Reward per row (up to 4) that is full but for the well column.
    pub ready_row: i64,
    /// Cost of a well not at the side columns.
    pub inner_well: i64,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            cell: 30,
            hole: 150,
            hole_row: 100,
            bump: 12,
            high: 400,
            safe_height: 19,
            ready_row: 60,
            inner_well: 20,
        }
    }
}

impl std::str::FromStr for Weights {
    type Err = String;
    /// Parses `cell,hole,hole_row,bump,high,safe_height,ready_row,inner_well`.
    fn from_str(s: &str) -> Result<Self, String> {
        let v: Vec<i64> = s
            .split(',')
            .map(|t| {
                t.trim()
                    .parse::<i64>()
                    .map_err(|e| format!("weight {t:?}: {e}"))
            })
            .collect::<Result<_, _>>()?;
        let [
            cell,
            hole,
            hole_row,
            bump,
            high,
            safe_height,
            ready_row,
            inner_well,
        ] = v[..]
        else {
            return Err(format!("expected 8 weights, got {}", v.len()));
        };
        Ok(Weights {
            cell,
            hole,
            hole_row,
            bump,
            high,
            safe_height: safe_height.clamp(0, 20) as i32,
            ready_row,
            inner_well,
        })
    }
}

/// The board's value (higher is better), to be added to the score so far.
pub fn evaluate(board: &Board, w: &Weights) -> i64 {
    let mut heights = [0i32; 10];
    let mut seen = 0u16;
    let mut holes = 0i64;
    let mut hole_rows = 0i64;
    let mut cells = 0i64;
    for (y, &row) in board.rows.iter().enumerate() {
        let covered = seen & !row;
        if covered != 0 {
            holes += covered.count_ones() as i64;
            hole_rows += 1;
        }
        let new = row & !seen;
        let mut bits = new;
        while bits != 0 {
            let x = bits.trailing_zeros() as usize;
            heights[x] = (HEIGHT - y) as i32;
            bits &= bits - 1;
        }
        seen |= row;
        cells += row.count_ones() as i64;
    }
    let well = (0..10).min_by_key(|&c| (heights[c], c)).unwrap_or(0);
    let mut bump = 0i64;
    let mut prev: Option<i32> = None;
    for (c, &h) in heights.iter().enumerate() {
        if c == well {
            continue;
        }
        if let Some(p) = prev {
            bump += (p - h).abs() as i64;
        }
        prev = Some(h);
    }
    let max_h = heights.iter().copied().max().unwrap_or(0);
    let over = (max_h - w.safe_height).max(0) as i64;
    // Rows just above the well's floor that are full but for the well column.
    let well_bit = 1u16 << well;
    let mut ready = 0i64;
    let mut y = HEIGHT as i32 - heights[well] - 1;
    while y >= 0 && ready < 4 && board.rows[y as usize] == FULL_ROW ^ well_bit {
        ready += 1;
        y -= 1;
    }
    let inner = if well == 0 || well == 9 { 0 } else { 1 };
    cells * w.cell - holes * w.hole - hole_rows * w.hole_row - bump * w.bump - over * over * w.high
        + ready * w.ready_row
        - inner * w.inner_well
}
