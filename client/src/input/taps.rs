//! Key buttons: labelled buttons that stand for keys on a touch screen, where a screen would
//! otherwise name keys a phone does not have (replay playback, the result card, undo and redo,
//! footers). Drawing one notes where it is and which key it presses; the next frame's input
//! ([`crate::on_screen`]) turns a tap on it into that key's press, so every screen reads
//! a tap exactly as it reads the key.

use std::cell::{Cell, RefCell};

use macroquad::input::KeyCode;
use macroquad::math::{Rect, Vec2};

/// Most key buttons kept from one frame (a screen shows a handful; the cap bounds a bug).
const MOST: usize = 32;

/// A key button as drawn: where, which key, and its label (for the page's test hook).
#[derive(Clone, Debug, PartialEq)]
pub struct KeyButton {
    /// Where it was drawn, in logical pixels.
    pub rect: Rect,
    /// The key a tap presses.
    pub key: KeyCode,
    /// What it says.
    pub label: String,
}

thread_local! {
    static DRAWN: RefCell<Vec<KeyButton>> = const { RefCell::new(Vec::new()) };
    static SHOWN: Cell<bool> = const { Cell::new(false) };
    static BACK: Cell<Option<Rect>> = const { Cell::new(None) };
}

/// Sets where this frame's back button is (a touch screen's Esc, top right), if it shows.
pub fn set_back(back: Option<Rect>) {
    BACK.with(|b| b.set(back));
}

/// `strip` (a title) less what lies under this frame's back button, so no title runs under
/// it.
pub fn clear_of_back(strip: Rect) -> Rect {
    match BACK.with(Cell::get) {
        Some(back) => crate::layout::left_of(strip, back, back.w * 0.15),
        None => strip,
    }
}

/// Sets whether screens draw key buttons in place of key hints this frame (a touch screen, or
/// touch controls turned on in Settings).
pub fn set_shown(on: bool) {
    SHOWN.with(|s| s.set(on));
}

/// Whether screens draw key buttons in place of key hints.
pub fn shown() -> bool {
    SHOWN.with(Cell::get)
}

/// `keys` where keys are named, or `touch` on a touch screen, which has buttons instead (the
/// back button `‹` for Esc, key buttons, taps on rows). Every line that names a key goes
/// through here or is drawn only without touch (the test `screen_texts::touch_words` reads them).
pub fn hint<'a>(keys: &'a str, touch: &'a str) -> &'a str {
    if shown() { touch } else { keys }
}

/// Notes that a button for `key` labelled `label` was drawn at `rect`.
pub fn record(rect: Rect, key: KeyCode, label: &str) {
    DRAWN.with(|d| {
        let mut d = d.borrow_mut();
        if d.len() < MOST {
            d.push(KeyButton {
                rect,
                key,
                label: label.to_owned(),
            });
        }
    });
}

/// The buttons drawn since the last call.
pub fn take() -> Vec<KeyButton> {
    DRAWN.with(|d| std::mem::take(&mut *d.borrow_mut()))
}

/// The key of the button under `pos`, if any (the last drawn wins, as it is on top).
pub fn hit(buttons: &[KeyButton], pos: Vec2) -> Option<KeyCode> {
    buttons
        .iter()
        .rev()
        .find(|b| b.rect.contains(pos))
        .map(|b| b.key)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn button(x: f32, key: KeyCode) -> KeyButton {
        KeyButton {
            rect: Rect::new(x, 0.0, 10.0, 10.0),
            key,
            label: String::new(),
        }
    }

    #[test]
    fn a_tap_on_a_button_presses_its_key() {
        let buttons = [button(0.0, KeyCode::Space), button(20.0, KeyCode::Right)];
        assert_eq!(hit(&buttons, Vec2::new(25.0, 5.0)), Some(KeyCode::Right));
        assert_eq!(hit(&buttons, Vec2::new(5.0, 5.0)), Some(KeyCode::Space));
    }

    #[test]
    fn a_tap_between_buttons_presses_nothing() {
        let buttons = [button(0.0, KeyCode::Space), button(20.0, KeyCode::Right)];
        assert_eq!(hit(&buttons, Vec2::new(15.0, 5.0)), None);
    }

    #[test]
    fn the_buttons_are_taken_once() {
        record(Rect::new(0.0, 0.0, 1.0, 1.0), KeyCode::L, "Copy link");
        assert_eq!(take().len(), 1);
        assert!(take().is_empty());
    }

    #[test]
    fn a_runaway_screen_keeps_at_most_the_cap() {
        for _ in 0..100 {
            record(Rect::new(0.0, 0.0, 1.0, 1.0), KeyCode::L, "x");
        }
        assert_eq!(take().len(), MOST);
    }
}
