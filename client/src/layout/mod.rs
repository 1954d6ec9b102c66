//! Where everything goes on screen, computed from the window size alone.
//!
//! Pure functions of `(width, height)` in logical pixels, so they are unit-tested here and shared by
//! the renderer and by `--check-screenshot`, which finds the two wells in a PNG with the same maths.
//! The match view is measured in *cells*: one cell is the side of a board square, snapped to whole
//! pixels so grid lines stay crisp.
//!
//! It imports no other part of the game, so every part may place things with it. The list
//! screens' keyboard and mouse navigation is `crate::list_nav`; `crate::screen_texts` (tests
//! only) checks that every label fits its box at every window size.

mod list;
pub mod party;

pub use list::{ListLayout, list_layout, list_layout_all, scroll_offset};

use macroquad::math::Rect;

/// A window taller than this times its width is laid out in portrait (a phone held upright).
pub const PORTRAIT: f32 = 1.15;

/// Whether a `width` × `height` window is laid out in portrait.
pub fn is_portrait(width: f32, height: f32) -> bool {
    height > width * PORTRAIT
}

/// The back button's place: the top-right corner (titles start on the left, the opponent's
/// small board in portrait too), a thumb wide.
pub fn back_button(width: f32, height: f32) -> Rect {
    let side = (width.min(height) * 0.09).max(32.0);
    Rect::new(width - side * 1.15, side * 0.15, side, side)
}

/// Columns of a board.
pub const BOARD_COLS: f32 = 10.0;
/// Visible rows of a board.
pub const BOARD_ROWS: f32 = 20.0;

// The match view in cells, left to right for one panel:
// side box, gap, garbage meter, gap, board, gap, side box.
const SIDE_W: f32 = 4.6;
const GAP: f32 = 0.35;
const METER_W: f32 = 0.55;
const METER_GAP: f32 = 0.15;
const PANEL_W: f32 = SIDE_W + GAP + METER_W + METER_GAP + BOARD_COLS + GAP + SIDE_W;
/// Space between the two panels (holds "VS" and the round).
const MIDDLE_W: f32 = 3.2;
/// Cells of margin left and right of the whole view.
const OUTER_W: f32 = 0.8;
/// Above the board: the spawn rows a piece may poke into, and the mode title.
const TOP_H: f32 = 3.0;
/// Below the board: name plate and network readout.
const BOTTOM_H: f32 = 2.9;
const VIEW_W: f32 = 2.0 * PANEL_W + MIDDLE_W + 2.0 * OUTER_W;
const VIEW_H: f32 = TOP_H + BOARD_ROWS + BOTTOM_H;

/// Smallest cell size we draw, in pixels; below this the window is simply too small.
pub const MIN_CELL: f32 = 8.0;

/// The smallest window the game lays itself out for, in logical pixels. A smaller window shows
/// the game at this size scaled down (see [`logical_size`]), so every label keeps the room the
/// layout tests check it against.
pub const MIN_WINDOW: (f32, f32) = (800.0, 600.0);

/// The logical size the game lays out for in a `width` × `height` window, and the scale that
/// maps it onto the window (1 unless the window is smaller than [`MIN_WINDOW`]).
pub fn logical_size(width: f32, height: f32) -> (f32, f32, f32) {
    let scale = (width / MIN_WINDOW.0)
        .min(height / MIN_WINDOW.1)
        .clamp(0.05, 1.0);
    (width / scale, height / scale, scale)
}

/// One player's panel of the match view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PanelLayout {
    /// The visible 10 × 20 well (rows above it are drawn upward from its top edge).
    pub board: Rect,
    /// The hold box (left of the board).
    pub hold: Rect,
    /// Stats under the hold box: PPS, APM, VS.
    pub stats: Rect,
    /// Where clear-kind, combo and B2B popups appear (left of the board, above the stats).
    pub popups: Rect,
    /// The five-piece next preview (right of the board).
    pub next: Rect,
    /// The incoming-garbage meter, touching the board's left edge.
    pub meter: Rect,
    /// Name plate and round-win pips under the board.
    pub name: Rect,
    /// Connection state and network readout under the name plate.
    pub net: Rect,
    /// A small panel (the opponent's in portrait): its board, hold, next and name only; no
    /// stats, popups or network readout (too small to read).
    pub mini: bool,
}

impl PanelLayout {
    /// Side of one of this panel's board cells in pixels.
    pub fn cell(&self) -> f32 {
        self.board.w / BOARD_COLS
    }
}

/// The whole match view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MatchLayout {
    /// Side of one board cell in pixels (a whole number).
    pub cell: f32,
    /// Left panel (the local player) and right panel (the opponent).
    pub panels: [PanelLayout; 2],
    /// The strip between the panels, board height.
    pub middle: Rect,
    /// The title strip over everything.
    pub title: Rect,
    /// The whole view, centred in the window.
    pub view: Rect,
    /// The window itself (the view's background covers it).
    pub window: Rect,
}

/// Lays out the match view in a `width` × `height` window: side by side, or in portrait (a phone
/// held upright, [`crate::layout::is_portrait`]) your board large and the opponent's
/// small above it ([`portrait_match_layout`]).
pub fn match_layout(width: f32, height: f32) -> MatchLayout {
    if is_portrait(width, height) {
        return portrait_match_layout(width, height);
    }
    let cell = (width / VIEW_W).min(height / VIEW_H).floor().max(MIN_CELL);
    let view_w = VIEW_W * cell;
    let view_h = VIEW_H * cell;
    let left = ((width - view_w) / 2.0).max(0.0).floor();
    let top = ((height - view_h) / 2.0).max(0.0).floor();
    let board_top = top + TOP_H * cell;
    let panel = |x0: f32| panel_at(x0, board_top, cell, false);
    let x0 = left + OUTER_W * cell;
    let x1 = x0 + (PANEL_W + MIDDLE_W) * cell;
    let panels = [panel(x0), panel(x1)];
    let middle_x = panels[0].next.right();
    MatchLayout {
        cell,
        panels,
        middle: Rect::new(
            middle_x,
            board_top,
            panels[1].hold.x - middle_x,
            BOARD_ROWS * cell,
        ),
        title: Rect::new(left, top, view_w, 1.2 * cell),
        view: Rect::new(left, top, view_w, view_h),
        window: Rect::new(0.0, 0.0, width, height),
    }
}

/// One panel whose hold box starts at `x0`, its board's top at `board_top`, cells `cell` wide.
fn panel_at(x0: f32, board_top: f32, cell: f32, mini: bool) -> PanelLayout {
    let hold_x = x0;
    let meter_x = hold_x + (SIDE_W + GAP) * cell;
    let board_x = (meter_x + (METER_W + METER_GAP) * cell).round();
    let next_x = board_x + (BOARD_COLS + GAP) * cell;
    let board = Rect::new(board_x, board_top, BOARD_COLS * cell, BOARD_ROWS * cell);
    let hold = Rect::new(hold_x, board_top, SIDE_W * cell, 4.0 * cell);
    let stats_h = 6.6 * cell;
    let stats = Rect::new(hold_x, board.bottom() - stats_h, SIDE_W * cell, stats_h);
    let popups_top = hold.bottom() + 0.8 * cell;
    let popups = Rect::new(
        hold_x,
        popups_top,
        SIDE_W * cell,
        (stats.y - 0.4 * cell - popups_top).max(0.0),
    );
    PanelLayout {
        board,
        hold,
        stats,
        popups,
        next: Rect::new(next_x, board_top, SIDE_W * cell, 15.2 * cell),
        meter: Rect::new(meter_x, board_top, METER_W * cell, BOARD_ROWS * cell),
        name: Rect::new(
            hold_x,
            board.bottom() + 0.35 * cell,
            PANEL_W * cell,
            1.4 * cell,
        ),
        net: Rect::new(
            hold_x,
            board.bottom() + 1.85 * cell,
            PANEL_W * cell,
            0.9 * cell,
        ),
        mini,
    }
}

/// The portrait match view: the title, then the opponent's panel small on the left of a band
/// whose right part is the middle strip (score, round), then your panel as large as the width
/// and the rest of the height allow. The opponent's cells are at least a third of yours and
/// grow, up to half, into the height your panel leaves over.
pub fn portrait_match_layout(width: f32, height: f32) -> MatchLayout {
    /// The opponent's cells against yours: at least, and at most.
    const MINI: f32 = 0.32;
    const MINI_MAX: f32 = 0.5;
    const MINI_H: f32 = BOARD_ROWS + 3.2;
    let own_h = TOP_H + BOARD_ROWS + BOTTOM_H;
    let cell = (width / (PANEL_W + 2.0 * OUTER_W))
        .min(height / (1.2 + MINI * MINI_H + 0.6 + own_h))
        .floor()
        .max(MIN_CELL);
    let view_w = (PANEL_W + 2.0 * OUTER_W) * cell;
    let left = ((width - view_w) / 2.0).max(0.0).floor();
    let top = 0.0;
    let title = Rect::new(left, top, view_w, 1.2 * cell);
    /// Your cells between the opponent's band and your board: your spawn rows and a gap.
    const ABOVE: f32 = 2.4;
    // Your board as low as the height allows; the opponent's band takes what is left above it.
    let lowest_board_top = height - (BOARD_ROWS + BOTTOM_H) * cell;
    let room = lowest_board_top - ABOVE * cell - title.bottom();
    let mini = (room / MINI_H)
        .min(cell * MINI_MAX)
        .max(cell * MINI)
        .floor()
        .max(4.0);
    let x0 = left + OUTER_W * cell;
    let band_top = title.bottom() + mini * 1.2;
    let opponent = panel_at(x0, band_top, mini, true);
    let band_h = mini * MINI_H;
    let own_board_top = lowest_board_top
        .max(title.bottom() + band_h + ABOVE * cell)
        .floor();
    let own = panel_at(x0, own_board_top, cell, false);
    let middle_x = opponent.next.right() + cell * 0.5;
    MatchLayout {
        cell,
        panels: [own, opponent],
        middle: Rect::new(
            middle_x,
            band_top,
            (left + view_w - OUTER_W * cell - middle_x).max(0.0),
            band_h - mini * 1.2,
        ),
        title,
        view: Rect::new(left, top, view_w, height),
        window: Rect::new(0.0, 0.0, width, height),
    }
}

/// Where a finished match's result card goes: the verdict with the rematch keys (or buttons),
/// one line taller for a player after an online match (report, block), and under it that
/// match's Save replay and Copy link buttons.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ResultCard {
    /// The card.
    pub card: Rect,
    /// The card of a player after an online match (one line taller).
    pub tall: Rect,
    /// Save replay, Stats, then Copy link, under the tall card.
    pub buttons: [Rect; 3],
}

/// The result card of `l`: never over the title, the NEXT and HOLD labels, a well or a name.
/// Side by side it sits between the wells under the labels (over the next and hold boxes'
/// pieces, which a finished match no longer needs); in portrait it takes the strip beside the
/// opponent's small board, under the title and a touch screen's back button (top right).
pub fn result_card(l: &MatchLayout) -> ResultCard {
    let cell = l.cell;
    let portrait = l.panels[1].mini;
    let (cx, top, w) = if portrait {
        let m = l.middle;
        let back = back_button(l.window.w, l.window.h);
        let top = m.y.max(back.bottom() + cell * 0.3);
        (m.x + m.w / 2.0, top, (cell * 13.0).min(m.w))
    } else {
        let labels = l.panels[0].next.y.max(l.panels[1].hold.y) + cell * 1.3;
        (l.middle.x + l.middle.w / 2.0, labels, cell * 13.0)
    };
    let card = Rect::new(cx - w / 2.0, top, w, cell * 2.3);
    let tall = Rect::new(card.x, card.y, card.w, card.h + cell * 0.8);
    let gap = card.h * 0.15;
    let (bw, bh) = ((w - 2.0 * gap) / 3.0, card.h * 0.55);
    let y = tall.bottom() + gap;
    let button = |k: f32| Rect::new(card.x + k * (bw + gap), y, bw, bh);
    ResultCard {
        card,
        tall,
        buttons: [button(0.0), button(1.0), button(2.0)],
    }
}

/// `r` less what lies under `obstacle` on its right (the touch screen's back button over a
/// title strip): `r` itself when they do not meet.
pub fn left_of(r: Rect, obstacle: Rect, gap: f32) -> Rect {
    if r.overlaps(&obstacle) {
        Rect::new(r.x, r.y, (obstacle.x - gap - r.x).max(0.0), r.h)
    } else {
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether `a` and `b` share more than an edge.
    fn meet(a: Rect, b: Rect) -> bool {
        a.x < b.right() - 0.5
            && b.x < a.right() - 0.5
            && a.y < b.bottom() - 0.5
            && b.y < a.bottom() - 0.5
    }

    /// Desktop windows and phones held upright and sideways.
    const SCREENS: [(f32, f32); 9] = [
        (800.0, 600.0),
        (1280.0, 720.0),
        (1920.0, 1080.0),
        (2560.0, 600.0),
        (390.0, 844.0),
        (360.0, 780.0),
        (430.0, 932.0),
        (800.0, 1440.0),
        (844.0, 390.0),
    ];

    #[test]
    fn the_result_card_covers_no_title_label_well_or_name() {
        for (w, h) in SCREENS {
            let (lw, lh, _) = logical_size(w, h);
            let l = match_layout(lw, lh);
            let card = result_card(&l);
            let cell = l.cell;
            let back = back_button(lw, lh);
            let mut kept = vec![("title", l.title), ("back button", back)];
            for (i, p) in l.panels.iter().enumerate() {
                let label = |r: Rect| Rect::new(r.x, r.y, r.w, p.cell() * 1.2);
                kept.extend([
                    ("HOLD label", label(p.hold)),
                    ("NEXT label", label(p.next)),
                    ("well", p.board),
                    ("name", p.name),
                ]);
                let _ = i;
            }
            let parts = [
                card.card,
                card.tall,
                card.buttons[0],
                card.buttons[1],
                card.buttons[2],
            ];
            for part in parts {
                for (what, r) in &kept {
                    assert!(
                        !meet(part, *r),
                        "{w}x{h}: the card {part:?} covers the {what} {r:?}"
                    );
                }
                assert!(
                    l.window.contains(part.point()) && part.right() <= lw && part.bottom() <= lh,
                    "{w}x{h}: {part:?} leaves the window"
                );
            }
            assert!(!meet(card.buttons[0], card.buttons[1]));
            assert!(
                card.card.w >= cell * 8.0,
                "{w}x{h}: a card of {} px",
                card.card.w
            );
        }
    }

    #[test]
    fn a_title_strip_stops_short_of_the_back_button() {
        for (w, h) in SCREENS {
            let (lw, lh, _) = logical_size(w, h);
            let back = back_button(lw, lh);
            for title in [match_layout(lw, lh).title, list_layout(lw, lh, 3).title] {
                let kept = left_of(title, back, 4.0);
                assert!(!meet(kept, back), "{w}x{h}: {kept:?} under {back:?}");
                assert!(kept.w > title.w * 0.5, "{w}x{h}: most of the strip is kept");
            }
            for seats in 2..=8 {
                let title = party::party_layout(lw, lh, seats).title;
                assert!(!meet(left_of(title, back, 4.0), back));
            }
        }
    }

    /// Desktop window sizes from the minimum up, upright and wide among them.
    pub(crate) fn sizes() -> Vec<(f32, f32)> {
        let mut v = vec![
            (800.0, 600.0),
            (1024.0, 768.0),
            (1280.0, 720.0),
            (1366.0, 768.0),
            (1920.0, 1080.0),
            (2560.0, 1440.0),
            (800.0, 1440.0),
            (2560.0, 600.0),
            (1280.0, 1024.0),
        ];
        for w in (800..=2560).step_by(97) {
            for h in (600..=1440).step_by(89) {
                v.push((w as f32, h as f32));
            }
        }
        v
    }

    fn inside(outer: Rect, inner: Rect) -> bool {
        inner.x >= outer.x - 0.01
            && inner.y >= outer.y - 0.01
            && inner.right() <= outer.right() + 0.01
            && inner.bottom() <= outer.bottom() + 0.01
    }

    fn strictly_overlap(a: Rect, b: Rect) -> bool {
        a.x < b.right() - 0.01
            && b.x < a.right() - 0.01
            && a.y < b.bottom() - 0.01
            && b.y < a.bottom() - 0.01
    }

    /// Phones held upright (CSS pixels, with the controls' strip taken off the height or not).
    fn phone_sizes() -> Vec<(f32, f32)> {
        let mut v = Vec::new();
        for w in [320.0, 360.0, 375.0, 390.0, 414.0, 430.0] {
            for h in [480.0, 560.0, 640.0, 700.0, 760.0, 844.0, 932.0] {
                if is_portrait(w, h) {
                    v.push((w, h));
                }
            }
        }
        v
    }

    #[test]
    fn in_portrait_the_opponent_sits_between_the_title_and_your_panel_and_grows_into_the_room() {
        for (w, h) in phone_sizes() {
            let l = match_layout(w, h);
            let [own, opponent] = l.panels;
            assert!(opponent.mini && !own.mini);
            assert!(
                l.title.bottom() <= opponent.hold.y,
                "under the title at {w}x{h}"
            );
            // The opponent's name and connection lines end above your spawn rows.
            assert!(
                opponent.net.bottom() <= own.board.y - 2.0 * l.cell + 0.01,
                "the opponent's band runs into your panel at {w}x{h}"
            );
            assert!(own.board.right() <= w + 0.01 && own.name.bottom() <= h + 0.01);
            let ratio = opponent.board.w / own.board.w;
            assert!((0.3..=0.51).contains(&ratio), "{ratio} at {w}x{h}");
            assert!(
                !strictly_overlap(opponent.next, l.middle),
                "score over the board"
            );
        }
        // A tall phone fills its room: the opponent's cells are half of yours.
        let l = match_layout(390.0, 700.0);
        assert!(l.panels[1].board.w / l.panels[0].board.w >= 0.45);
    }

    #[test]
    fn boards_never_overlap_and_everything_fits() {
        for (w, h) in sizes() {
            let l = match_layout(w, h);
            let screen = Rect::new(0.0, 0.0, w, h);
            assert!(inside(screen, l.view), "view at {w}x{h}: {:?}", l.view);
            assert!(l.cell >= 12.0, "cell too small at {w}x{h}");
            assert_eq!(l.cell, l.cell.floor(), "cell is whole pixels");
            let [a, b] = l.panels;
            assert!(
                !strictly_overlap(a.board, b.board),
                "boards overlap at {w}x{h}"
            );
            if is_portrait(w, h) {
                assert!(b.board.bottom() < a.board.y, "the opponent's is above mine");
            } else {
                assert!(a.board.right() < b.board.x, "mine is on the left");
            }
            for p in [a, b] {
                let parts = [
                    p.board, p.hold, p.stats, p.next, p.meter, p.name, p.net, p.popups,
                ];
                for r in parts {
                    assert!(inside(l.view, r), "{r:?} outside the view at {w}x{h}");
                }
                // The side parts never cover the well or each other.
                let solid = [p.board, p.hold, p.stats, p.next, p.meter, p.name, p.net];
                for (i, r) in solid.iter().enumerate() {
                    for s in &solid[i + 1..] {
                        assert!(!strictly_overlap(*r, *s), "{r:?} overlaps {s:?} at {w}x{h}");
                    }
                }
                assert!(
                    !strictly_overlap(p.popups, p.hold) && !strictly_overlap(p.popups, p.stats)
                );
                // The spawn rows above the well stay on screen.
                assert!(p.board.y - 2.0 * p.board.w / 10.0 >= l.view.y);
            }
            assert!(!strictly_overlap(l.middle, a.next) && !strictly_overlap(l.middle, b.hold));
        }
    }

    #[test]
    fn a_window_below_the_minimum_is_laid_out_at_the_minimum_and_scaled() {
        assert_eq!(logical_size(1280.0, 720.0), (1280.0, 720.0, 1.0));
        let (w, h, s) = logical_size(400.0, 300.0);
        assert_eq!((w, h, s), (800.0, 600.0, 0.5));
        let (w, h, s) = logical_size(640.0, 900.0);
        assert!(w >= MIN_WINDOW.0 && h >= MIN_WINDOW.1 && s < 1.0);
        assert!((w * s - 640.0).abs() < 0.01 && (h * s - 900.0).abs() < 0.01);
    }

    #[test]
    fn board_is_ten_by_twenty_cells() {
        let l = match_layout(1280.0, 720.0);
        for p in l.panels {
            assert_eq!(p.board.w, 10.0 * l.cell);
            assert_eq!(p.board.h, 20.0 * l.cell);
        }
        assert!(
            l.cell >= 26.0,
            "1280x720 should give big cells, got {}",
            l.cell
        );
    }
}
