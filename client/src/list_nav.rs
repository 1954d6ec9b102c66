//! Keyboard and mouse navigation shared by every list screen, over the rows `crate::layout`
//! places.

use macroquad::input::KeyCode;
use macroquad::math::Rect;

use crate::layout::{ListLayout, scroll_offset};
use crate::screen::FrameIo;

/// What the player did to a list this frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListEvent {
    /// Nothing (or only moved the cursor).
    None,
    /// Enter, Space or a click on row `i`.
    Activate(usize),
    /// Left (-1) or Right (+1) on row `i`.
    Adjust(usize, i32),
    /// Escape: leave the screen.
    Back,
}

/// A cursor over `len` rows, some of which may not be selectable (section headers).
#[derive(Clone, Copy, Debug, Default)]
pub struct ListNav {
    /// The selected row.
    pub selected: usize,
    /// The first row shown, as last kept: the window moves only as far as the cursor leaves
    /// it, so a tap or click (on a row already shown) never scrolls the list under the
    /// finger, and the next tap lands where the player sees. The "▲ more" / "▼ more" marks
    /// scroll by a page when tapped. `None` until a frame kept one.
    pub top: Option<usize>,
}

/// The first row shown when the window of `visible` rows over `total` started at `top` and
/// the cursor is on `selected`: unchanged while the cursor is inside it, else moved just far
/// enough to show the cursor.
pub fn keep_visible(top: usize, selected: usize, visible: usize, total: usize) -> usize {
    if total <= visible {
        return 0;
    }
    let top = top.min(total - visible);
    if selected < top {
        selected
    } else if selected >= top + visible {
        (selected + 1 - visible).min(total - visible)
    } else {
        top
    }
}

impl ListNav {
    /// A cursor on row `selected`.
    pub fn at(selected: usize) -> ListNav {
        ListNav {
            selected,
            top: None,
        }
    }

    /// The first row of the visible window for this layout.
    pub fn scroll(&self, layout: &ListLayout, len: usize) -> usize {
        match self.top {
            // A cursor placed before any frame kept a window: centred.
            None => scroll_offset(self.selected, layout.visible_rows(), len),
            Some(top) => keep_visible(top, self.selected, layout.visible_rows(), len),
        }
    }

    /// Where the "▲ more" and "▼ more" marks are for `shown` rows (their tap areas: the gap
    /// above the first row and below the last), when there are rows that way.
    fn more_marks(&self, layout: &ListLayout, len: usize) -> (Option<Rect>, Option<Rect>) {
        let shown = self.visible(layout, len);
        let h = layout.unit;
        let up = shown
            .first()
            .filter(|(i, _)| *i > 0)
            .map(|(_, r)| Rect::new(r.x, r.y - h, r.w, h));
        let down = shown
            .last()
            .filter(|(i, _)| i + 1 < len)
            .map(|(_, r)| Rect::new(r.x, r.bottom(), r.w, h));
        (up, down)
    }

    /// Scrolls a page of `layout` by `dir`, keeping the cursor on a row that shows.
    fn page(
        &mut self,
        dir: i32,
        layout: &ListLayout,
        len: usize,
        selectable: &dyn Fn(usize) -> bool,
    ) {
        let visible = layout.visible_rows();
        let first = self.scroll(layout, len);
        let step = visible.saturating_sub(1).max(1) as i32;
        let max_top = len.saturating_sub(visible) as i32;
        let top = (first as i32 + dir * step).clamp(0, max_top) as usize;
        self.top = Some(top);
        if self.selected < top || self.selected >= top + visible {
            let pick = (top..(top + visible).min(len)).find(|&i| selectable(i));
            if let Some(i) = pick {
                self.selected = i;
            }
        }
    }

    /// Rectangles of the visible rows with their row index.
    pub fn visible(&self, layout: &ListLayout, len: usize) -> Vec<(usize, Rect)> {
        let first = self.scroll(layout, len);
        let count = layout.visible_rows().min(len - first.min(len));
        (0..count).map(|i| (first + i, layout.row(i))).collect()
    }

    /// Moves the cursor by `dir`, skipping rows `selectable` refuses, wrapping at the ends.
    pub fn step(&mut self, dir: i32, len: usize, selectable: &dyn Fn(usize) -> bool) {
        if len == 0 {
            return;
        }
        let mut i = self.selected;
        for _ in 0..len {
            i = (i as i32 + dir).rem_euclid(len as i32) as usize;
            if selectable(i) {
                self.selected = i;
                return;
            }
        }
    }

    /// Reads this frame's keys and mouse for a list of `len` rows laid out by `layout`. While
    /// `typing` (a text field is selected) Space, Left and Right belong to the field.
    pub fn handle(
        &mut self,
        io: &FrameIo,
        layout: &ListLayout,
        len: usize,
        selectable: &dyn Fn(usize) -> bool,
        typing: bool,
    ) -> ListEvent {
        self.handle_with_fields(io, layout, len, selectable, typing, &|_| false)
    }

    /// [`ListNav::handle`] for a list with text fields (`is_field`): a click or tap on a field
    /// puts the cursor there to type, rather than doing what Enter does on it.
    pub fn handle_with_fields(
        &mut self,
        io: &FrameIo,
        layout: &ListLayout,
        len: usize,
        selectable: &dyn Fn(usize) -> bool,
        typing: bool,
        is_field: &dyn Fn(usize) -> bool,
    ) -> ListEvent {
        let kb = &io.keyboard;
        if !selectable(self.selected) {
            self.step(1, len, selectable);
        }
        if kb.pressed(KeyCode::Escape) {
            return ListEvent::Back;
        }
        if kb.pressed(KeyCode::Up) {
            self.step(-1, len, selectable);
        }
        if kb.pressed(KeyCode::Down) || kb.pressed(KeyCode::Tab) {
            self.step(1, len, selectable);
        }
        if io.mouse.wheel > 0.0 {
            self.step(-1, len, selectable);
        } else if io.mouse.wheel < 0.0 {
            self.step(1, len, selectable);
        }
        let event = self.read(io, layout, len, selectable, typing, is_field);
        self.top = Some(self.scroll(layout, len));
        event
    }

    /// [`ListNav::handle_with_fields`] past the keys that move the cursor.
    fn read(
        &mut self,
        io: &FrameIo,
        layout: &ListLayout,
        len: usize,
        selectable: &dyn Fn(usize) -> bool,
        typing: bool,
        is_field: &dyn Fn(usize) -> bool,
    ) -> ListEvent {
        let kb = &io.keyboard;
        if io.mouse.clicked {
            let (up, down) = self.more_marks(layout, len);
            for (mark, dir) in [(up, -1), (down, 1)] {
                if mark.is_some_and(|r| io.mouse.over(r)) {
                    self.page(dir, layout, len, selectable);
                    return ListEvent::None;
                }
            }
        }
        for (i, r) in self.visible(layout, len) {
            if io.mouse.over(r) && selectable(i) {
                if io.mouse.moved {
                    self.selected = i;
                }
                if io.mouse.clicked {
                    self.selected = i;
                    if is_field(i) {
                        return ListEvent::None;
                    }
                    return ListEvent::Activate(i);
                }
            }
        }
        if kb.pressed_any(&[KeyCode::Enter, KeyCode::KpEnter])
            || (!typing && kb.pressed(KeyCode::Space))
        {
            return ListEvent::Activate(self.selected);
        }
        if typing {
            return ListEvent::None;
        }
        if kb.pressed(KeyCode::Left) {
            return ListEvent::Adjust(self.selected, -1);
        }
        if kb.pressed(KeyCode::Right) {
            return ListEvent::Adjust(self.selected, 1);
        }
        ListEvent::None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::Keyboard;
    use crate::screen::Mouse;
    use macroquad::math::Vec2;

    /// A phone's settings-like list: 40 rows, far more than show.
    const ROWS: usize = 40;

    fn phone() -> ListLayout {
        crate::layout::list_layout(390.0, 844.0, ROWS)
    }

    /// A frame with a tap at `pos`.
    fn tap(pos: Vec2) -> FrameIo {
        FrameIo {
            keyboard: Keyboard::default(),
            mouse: Mouse {
                pos,
                moved: true,
                clicked: true,
                wheel: 0.0,
            },
            dt: 0.016,
            steps: 1,
            width: 390.0,
            height: 844.0,
        }
    }

    #[test]
    fn a_tap_on_a_row_never_scrolls_the_list() {
        let l = phone();
        let all = |_| true;
        let mut nav = ListNav::at(0);
        nav.handle(&tap(Vec2::new(-10.0, -10.0)), &l, ROWS, &all, false);
        let shown = nav.visible(&l, ROWS);
        assert!(shown.len() < ROWS, "the list scrolls on a phone");
        // Tap the last row shown, then the row now under the same finger: the same row.
        let (last, r) = *shown.last().expect("rows");
        let at = macroquad::math::vec2(r.x + r.w / 2.0, r.y + r.h / 2.0);
        assert_eq!(
            nav.handle(&tap(at), &l, ROWS, &all, false),
            ListEvent::Activate(last)
        );
        assert_eq!(
            nav.visible(&l, ROWS),
            shown,
            "the rows stayed where they were"
        );
        assert_eq!(
            nav.handle(&tap(at), &l, ROWS, &all, false),
            ListEvent::Activate(last)
        );
    }

    #[test]
    fn the_more_mark_scrolls_a_page_and_the_keys_follow_the_cursor() {
        let l = phone();
        let all = |_| true;
        let mut nav = ListNav::at(0);
        nav.handle(&tap(Vec2::new(-10.0, -10.0)), &l, ROWS, &all, false);
        let shown = nav.visible(&l, ROWS);
        let (_, last) = *shown.last().expect("rows");
        let below = macroquad::math::vec2(last.x + 10.0, last.bottom() + l.unit * 0.5);
        assert_eq!(
            nav.handle(&tap(below), &l, ROWS, &all, false),
            ListEvent::None
        );
        let paged = nav.visible(&l, ROWS);
        assert_eq!(
            paged[0].0,
            shown.len() - 1,
            "a page down, the last row kept in sight"
        );
        assert!(paged.iter().any(|(i, _)| *i == nav.selected));
        // Down from the last row shown moves the window by one row, no more.
        let mut keys = tap(Vec2::new(-10.0, -10.0));
        keys.mouse.clicked = false;
        keys.mouse.moved = false;
        nav.selected = paged.last().expect("rows").0;
        keys.keyboard.pressed.insert(KeyCode::Down);
        nav.handle(&keys, &l, ROWS, &all, false);
        assert_eq!(nav.visible(&l, ROWS)[0].0, paged[0].0 + 1);
    }

    #[test]
    fn keeping_the_cursor_in_sight_moves_the_window_least() {
        assert_eq!(keep_visible(5, 7, 10, 40), 5);
        assert_eq!(keep_visible(5, 3, 10, 40), 3);
        assert_eq!(keep_visible(5, 20, 10, 40), 11);
        assert_eq!(keep_visible(35, 39, 10, 40), 30);
        assert_eq!(keep_visible(9, 2, 10, 5), 0);
    }

    #[test]
    fn stepping_skips_headers_and_wraps() {
        let mut nav = ListNav::default();
        let headers = |i: usize| i != 0 && i != 3;
        nav.step(1, 5, &headers);
        assert_eq!(nav.selected, 1);
        nav.step(1, 5, &headers);
        nav.step(1, 5, &headers);
        assert_eq!(nav.selected, 4);
        nav.step(1, 5, &headers);
        assert_eq!(nav.selected, 1, "wraps past the header at 0");
        nav.step(-1, 5, &headers);
        assert_eq!(nav.selected, 4);
    }
}
