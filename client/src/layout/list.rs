//! The layout of the list screens (menu, settings, lobbies): a title, a column of rows that
//! scrolls when it does not fit, a side panel and a footer, in landscape and upright.

use macroquad::math::Rect;

use super::is_portrait;

/// The layout of a list screen (menu, settings, lobby): a title, a column of rows and a side panel.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ListLayout {
    /// Unit of the screen: text sizes and spacing derive from it.
    pub unit: f32,
    /// The big title.
    pub title: Rect,
    /// The rows, top to bottom.
    pub rows: Rect,
    /// Height of one row.
    pub row_h: f32,
    /// The description panel beside the rows.
    pub side: Rect,
    /// The hint line at the bottom.
    pub footer: Rect,
}

/// Lays out a list screen with `rows` rows in a `width` × `height` window. When the rows do not
/// all fit, `row_h` shrinks to a minimum and the caller scrolls (see [`ListLayout::visible_rows`]).
pub fn list_layout(width: f32, height: f32, rows: usize) -> ListLayout {
    if is_portrait(width, height) {
        return portrait_list_layout(width, height, rows);
    }
    let unit = (height / 36.0).min(width / 56.0).floor().max(8.0);
    let margin = (2.0 * unit).min(width * 0.05);
    let title = Rect::new(margin, unit * 1.5, width - 2.0 * margin, unit * 5.0);
    let footer = Rect::new(
        margin,
        height - unit * 2.6,
        width - 2.0 * margin,
        unit * 1.6,
    );
    let rows_top = title.bottom() + unit * 1.2;
    let rows_h = (footer.y - unit * 0.8 - rows_top).max(unit);
    let wanted = unit * 2.4;
    let row_h = if rows == 0 {
        wanted
    } else {
        (rows_h / rows as f32).clamp(unit * 1.7, wanted).floor()
    };
    let list_w = (width * 0.46).max(unit * 20.0).min(width - 2.0 * margin);
    let rows_rect = Rect::new(margin, rows_top, list_w, rows_h);
    let side_x = rows_rect.right() + unit * 2.0;
    let side = Rect::new(side_x, rows_top, (width - margin - side_x).max(0.0), rows_h);
    ListLayout {
        unit,
        title,
        rows: rows_rect,
        row_h,
        side,
        footer,
    }
}

/// Shortest row, in units, a list laid out by [`list_layout_all`] may shrink to: the menu's
/// label (1 unit) and tag box (about 1 unit) still fit with a gap (a row's box is 1.1 units
/// high at this height).
pub const COMPACT_ROW_UNITS: f32 = 1.4;

/// [`list_layout`] for a list that should show every row at once (the main menu): when the rows
/// do not fit at the usual minimum height, they shrink further, to [`COMPACT_ROW_UNITS`], before
/// the list has to scroll. A wide window is short in units (its unit follows the height), which
/// is where the seventeen entries of the menu needed it.
pub fn list_layout_all(width: f32, height: f32, rows: usize) -> ListLayout {
    let mut l = list_layout(width, height, rows);
    if rows > l.visible_rows() {
        let fit = (l.rows.h / rows as f32).floor();
        if fit >= l.unit * COMPACT_ROW_UNITS {
            l.row_h = fit;
        }
    }
    l
}

/// [`list_layout`] in portrait (a phone held upright): larger text, the rows the whole width,
/// and the side panel under them.
fn portrait_list_layout(width: f32, height: f32, rows: usize) -> ListLayout {
    let unit = (width / 26.0).min(height / 44.0).floor().max(8.0);
    let margin = (1.2 * unit).min(width * 0.05);
    let inner = width - 2.0 * margin;
    let title = Rect::new(margin, unit * 1.5, inner, unit * 5.0);
    let footer = Rect::new(margin, height - unit * 2.6, inner, unit * 1.6);
    let rows_top = title.bottom() + unit * 1.2;
    let wanted = unit * 2.4;
    // The rows take what they need, at most 60% of what is left; the side panel the rest.
    let room = (footer.y - unit * 0.8 - rows_top).max(unit);
    let rows_h = (wanted * rows.max(1) as f32)
        .min(room * 0.6)
        .max(unit * 1.7);
    let row_h = if rows == 0 {
        wanted
    } else {
        (rows_h / rows as f32).clamp(unit * 1.7, wanted).floor()
    };
    let rows_rect = Rect::new(margin, rows_top, inner, rows_h);
    let side_y = rows_rect.bottom() + unit * 1.0;
    let side = Rect::new(
        margin,
        side_y,
        inner,
        (footer.y - unit * 0.8 - side_y).max(0.0),
    );
    ListLayout {
        unit,
        title,
        rows: rows_rect,
        row_h,
        side,
        footer,
    }
}

impl ListLayout {
    /// How many rows fit in the rows area.
    pub fn visible_rows(&self) -> usize {
        ((self.rows.h / self.row_h).floor() as usize).max(1)
    }

    /// The rectangle of the `i`-th visible row.
    pub fn row(&self, i: usize) -> Rect {
        Rect::new(
            self.rows.x,
            self.rows.y + i as f32 * self.row_h,
            self.rows.w,
            self.row_h - (self.unit * 0.3).floor(),
        )
    }
}

/// The first row to show so that `selected` is visible in a window of `visible` rows out of
/// `total`, keeping the selection away from the edges when possible.
pub fn scroll_offset(selected: usize, visible: usize, total: usize) -> usize {
    if total <= visible {
        return 0;
    }
    let half = visible / 2;
    selected.saturating_sub(half).min(total - visible)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::tests::sizes;

    #[test]
    fn list_rows_fit_and_scroll() {
        for (w, h) in sizes() {
            for n in [3, 11, 43] {
                let l = list_layout(w, h, n);
                let vis = l.visible_rows().min(n);
                let last = l.row(vis - 1);
                assert!(
                    last.bottom() <= l.footer.y + 0.01,
                    "rows run into the footer at {w}x{h}"
                );
                assert!(l.title.bottom() <= l.rows.y);
                if is_portrait(w, h) {
                    assert!(
                        last.bottom() <= l.side.y + 0.01,
                        "side panel under the rows"
                    );
                } else {
                    assert!(l.rows.right() <= l.side.x);
                }
                assert!(l.side.right() <= w + 0.01 && l.footer.right() <= w + 0.01);
            }
        }
    }

    #[test]
    fn eleven_menu_rows_fit_without_scrolling_at_800x600() {
        let l = list_layout(800.0, 600.0, 11);
        assert!(l.visible_rows() >= 11);
    }

    #[test]
    fn scrolling_keeps_the_selection_visible() {
        for total in 1..20 {
            for visible in 1..8 {
                for sel in 0..total {
                    let off = scroll_offset(sel, visible, total);
                    assert!(sel >= off && sel < off + visible.min(total));
                    assert!(off + visible.min(total) <= total);
                }
            }
        }
    }
}
