//! The free-for-all view: your panel large (hold, meter, board, next, stats), the other boards
//! smaller in a grid sized by how many they are, a title strip and a status line.
//!
//! Landscape puts your panel on the left and the grid on the right; portrait (a phone held
//! upright) puts the grid above your panel. The grid takes the number of columns that gives its
//! boards the largest cells, never larger than three quarters of yours.

use macroquad::math::Rect;

use super::{BOARD_COLS, BOARD_ROWS, METER_GAP, METER_W, PANEL_W, PanelLayout, panel_at};

/// A small board's slot in cells: meter, gap, board, and room around it for the target frame.
const MINI_W: f32 = METER_W + METER_GAP + BOARD_COLS + 0.9;
/// Rows above a small board a piece can be drawn in (`render::board` draws three overflow rows).
const MINI_SPAWN: f32 = 3.0;
/// The strip for the target tags, above the spawn rows so no piece covers them.
const MINI_TAGS: f32 = 1.3;
/// Cells above a small board: the target tags, then its spawn rows.
const MINI_TOP: f32 = MINI_TAGS + MINI_SPAWN;
/// A small board's slot in cells: tags and spawn rows above, the board, the name and figures
/// under it.
const MINI_H: f32 = MINI_TOP + BOARD_ROWS + 2.7;
/// Cells above your board: the spawn rows a piece pokes into.
const OWN_TOP: f32 = 2.2;
/// Your panel in cells, top to bottom: spawn rows, the board, the name plate.
const OWN_H: f32 = OWN_TOP + BOARD_ROWS + 2.2;
/// The small boards' cells against yours, at most.
const MINI_MAX: f32 = 0.75;
/// The smallest small-board cell drawn, in pixels.
const MINI_MIN: f32 = 3.0;

/// One opponent's small board.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MiniLayout {
    /// The whole slot (board, meter, labels); slots never overlap.
    pub slot: Rect,
    /// The visible 10 × 20 well.
    pub board: Rect,
    /// The incoming-garbage meter, touching the board's left edge.
    pub meter: Rect,
    /// The marks "YOUR TARGET" and "→ YOU", at the slot's top, above every row a piece reaches.
    pub tags: Rect,
    /// Name and place under the board.
    pub name: Rect,
    /// Knock-outs, badges and lines sent, under the name.
    pub figures: Rect,
}

impl MiniLayout {
    /// Side of one board cell in pixels.
    pub fn cell(&self) -> f32 {
        self.board.w / BOARD_COLS
    }
}

/// The whole free-for-all view.
#[derive(Clone, Debug, PartialEq)]
pub struct PartyLayout {
    /// The window.
    pub window: Rect,
    /// The title strip (mode, targeting rule, round).
    pub title: Rect,
    /// The status line at the bottom (keys, your target).
    pub status: Rect,
    /// Your panel.
    pub own: PanelLayout,
    /// The other seats' boards, in seat order after yours.
    pub others: Vec<MiniLayout>,
}

impl PartyLayout {
    /// Every rectangle drawn, for the tests: your panel's parts and each small board's slot.
    #[cfg(test)]
    pub fn regions(&self) -> Vec<Rect> {
        let o = &self.own;
        let mut v = vec![
            self.title,
            self.status,
            o.hold,
            o.next,
            o.meter,
            o.board,
            o.name,
        ];
        v.extend(self.others.iter().map(|m| m.slot));
        v
    }
}

/// Lays out `seats` boards (2 to 8, yours first) in a `width` × `height` window.
pub fn party_layout(width: f32, height: f32, seats: usize) -> PartyLayout {
    let others = seats.clamp(2, 8) - 1;
    let title_h = (height * 0.055).clamp(22.0, 44.0).floor();
    let status_h = (height * 0.04).clamp(18.0, 30.0).floor();
    let body = Rect::new(0.0, title_h, width, height - title_h - status_h);
    let portrait = height > width;
    // Your region and the grid's.
    let (own_region, grid_region) = if portrait {
        let share = (0.3 + 0.03 * others as f32).min(0.5);
        let grid_h = (body.h * share).floor();
        (
            Rect::new(body.x, body.y + grid_h, body.w, body.h - grid_h),
            Rect::new(body.x, body.y, body.w, grid_h),
        )
    } else {
        let own_w = (body.w * if others > 4 { 0.44 } else { 0.48 }).floor();
        (
            Rect::new(body.x, body.y, own_w, body.h),
            Rect::new(body.x + own_w, body.y, body.w - own_w, body.h),
        )
    };
    let cell = (own_region.w / (PANEL_W + 0.6))
        .min(own_region.h / OWN_H)
        .floor()
        .max(4.0);
    let own_w = PANEL_W * cell;
    let x0 = (own_region.x + (own_region.w - own_w) / 2.0).floor();
    let board_top = (own_region.y + OWN_TOP * cell).floor();
    let mut own = panel_at(x0, board_top, cell, false);
    // No network readout here: the name plate takes the line under the board.
    own.net = Rect::new(own.name.x, own.name.bottom(), own.name.w, 0.0);
    PartyLayout {
        window: Rect::new(0.0, 0.0, width, height),
        title: Rect::new(0.0, 0.0, width, title_h),
        status: Rect::new(0.0, height - status_h, width, status_h),
        own,
        others: grid(grid_region, others, cell * MINI_MAX),
    }
}

/// `count` small boards in `region`, in the column count that gives the largest cells (at most
/// `max_cell`), centred.
fn grid(region: Rect, count: usize, max_cell: f32) -> Vec<MiniLayout> {
    let fit = |cols: usize| {
        let rows = count.div_ceil(cols);
        (region.w / (cols as f32 * MINI_W))
            .min(region.h / (rows as f32 * MINI_H))
            .min(max_cell)
            .floor()
    };
    let cols = (1..=count.max(1))
        .max_by(|&a, &b| fit(a).total_cmp(&fit(b)).then(b.cmp(&a)))
        .unwrap_or(1);
    let rows = count.div_ceil(cols);
    let cell = fit(cols).max(MINI_MIN);
    let (slot_w, slot_h) = (MINI_W * cell, MINI_H * cell);
    let left = (region.x + (region.w - cols as f32 * slot_w) / 2.0).floor();
    let top = (region.y + (region.h - rows as f32 * slot_h) / 2.0).floor();
    (0..count)
        .map(|i| {
            // The last row's boards are centred under the others.
            let row = i / cols;
            let in_row = if row + 1 == rows {
                count - row * cols
            } else {
                cols
            };
            let indent = (cols - in_row) as f32 * slot_w / 2.0;
            let x = left + indent + (i % cols) as f32 * slot_w;
            let y = top + row as f32 * slot_h;
            let slot = Rect::new(x, y, slot_w, slot_h);
            let meter_x = x + 0.45 * cell;
            let board_x = (meter_x + (METER_W + METER_GAP) * cell).floor();
            let board_y = (y + MINI_TOP * cell).floor();
            let board = Rect::new(board_x, board_y, BOARD_COLS * cell, BOARD_ROWS * cell);
            let text_h = 1.2 * cell;
            MiniLayout {
                slot,
                board,
                meter: Rect::new(meter_x, board_y, METER_W * cell, BOARD_ROWS * cell),
                // Measured up from the (rounded) board, so it ends where the spawn rows start.
                tags: Rect::new(
                    board_x,
                    y,
                    BOARD_COLS * cell,
                    board_y - MINI_SPAWN * cell - y,
                ),
                name: Rect::new(meter_x, board.bottom() + 0.2 * cell, slot_w - cell, text_h),
                figures: Rect::new(
                    meter_x,
                    board.bottom() + 0.2 * cell + text_h,
                    slot_w - cell,
                    text_h,
                ),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const SIZES: [(f32, f32); 4] = [
        (1280.0, 720.0),
        (390.0, 844.0),
        (800.0, 600.0),
        (1920.0, 1080.0),
    ];

    fn overlap(a: Rect, b: Rect) -> bool {
        a.x < b.right() - 0.5
            && b.x < a.right() - 0.5
            && a.y < b.bottom() - 0.5
            && b.y < a.bottom() - 0.5
    }

    fn inside(outer: Rect, r: Rect) -> bool {
        r.x >= outer.x - 0.01
            && r.y >= outer.y - 0.01
            && r.right() <= outer.right() + 0.01
            && r.bottom() <= outer.bottom() + 0.01
    }

    #[test]
    fn boards_never_overlap_for_2_to_8_seats() {
        for (w, h) in SIZES {
            for seats in 2..=8 {
                let l = party_layout(w, h, seats);
                let r = l.regions();
                for i in 0..r.len() {
                    for j in i + 1..r.len() {
                        assert!(
                            !overlap(r[i], r[j]),
                            "{w}x{h}, {seats} seats: {:?} and {:?}",
                            r[i],
                            r[j]
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn everything_stays_on_screen_for_2_to_8_seats() {
        for (w, h) in SIZES {
            for seats in 2..=8 {
                let l = party_layout(w, h, seats);
                assert_eq!(l.others.len(), seats - 1);
                for r in l.regions() {
                    assert!(inside(l.window, r), "{w}x{h}, {seats} seats: {r:?}");
                }
                for m in &l.others {
                    for part in [m.board, m.meter, m.tags, m.name, m.figures] {
                        assert!(
                            inside(m.slot, part),
                            "{w}x{h}, {seats} seats: {part:?} in {:?}",
                            m.slot
                        );
                    }
                }
                // The spawn rows above your board stay under the title.
                assert!(l.own.board.y - 1.0 * l.own.cell() >= l.title.bottom() - 0.01);
            }
        }
    }

    #[test]
    fn no_piece_of_a_small_board_reaches_its_tags() {
        for (w, h) in SIZES {
            for seats in 2..=8 {
                for m in &party_layout(w, h, seats).others {
                    let highest_piece_row = m.board.y - MINI_SPAWN * m.cell();
                    assert!(
                        m.tags.bottom() <= highest_piece_row + 0.01,
                        "{w}x{h}: {m:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn your_board_is_the_largest_and_the_others_stay_readable_at_1280x720() {
        for seats in 2..=8 {
            let l = party_layout(1280.0, 720.0, seats);
            let own = l.own.cell();
            assert!(own >= 24.0, "{seats} seats: your cells are {own}");
            for m in &l.others {
                assert!(m.cell() < own, "{seats} seats");
                assert!(
                    m.cell() >= 12.0,
                    "{seats} seats: small cells of {}",
                    m.cell()
                );
            }
        }
    }

    #[test]
    fn a_phone_held_upright_shows_every_board() {
        for seats in 2..=8 {
            let l = party_layout(390.0, 844.0, seats);
            assert!(l.own.cell() >= 12.0, "{seats} seats: {}", l.own.cell());
            for m in &l.others {
                assert!(
                    m.board.bottom() <= l.own.board.y,
                    "the others are above yours"
                );
                assert!(m.cell() >= 5.0, "{seats} seats: {}", m.cell());
            }
        }
    }
}
