//! Keyboard and mouse navigation shared by every list screen.

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
}

impl ListNav {
    /// The first row of the visible window for this layout.
    pub fn scroll(&self, layout: &ListLayout, len: usize) -> usize {
        scroll_offset(self.selected, layout.visible_rows(), len)
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
