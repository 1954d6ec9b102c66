//! The playback buttons a touch screen shows under a replay: to the start, back and forward
//! 5 s, pause, slower and faster, and continue from here. Each presses the key the desktop uses
//! ([`crate::replay_files::ReplaySession`] reads them), so playback has one set of rules.

use macroquad::input::KeyCode;
use macroquad::math::Rect;

use crate::render::gfx::{Gfx, fill};
use crate::render::key_buttons::{KeyChoice, button_row};
use crate::render::theme::{self, alpha};

/// The buttons, in the order they are laid out.
pub const BUTTONS: [KeyChoice<'static>; 7] = [
    ("Start", KeyCode::Home),
    ("−5 s", KeyCode::Left),
    ("Pause", KeyCode::Space),
    ("+5 s", KeyCode::Right),
    ("Slower", KeyCode::Minus),
    ("Faster", KeyCode::Equal),
    ("Play on", KeyCode::C),
];

/// Where the bar goes in a `width` × `height` view whose cell is `cell`: along the bottom.
pub fn area(width: f32, height: f32, cell: f32) -> Rect {
    let h = (cell * 1.4).clamp(28.0, 56.0);
    Rect::new(cell * 0.5, height - h - cell * 0.3, width - cell, h)
}

/// Draws the bar on a strip of the background (over the names' status lines, which the
/// title's replay clock stands in for).
pub fn draw(gfx: &Gfx, width: f32, height: f32, cell: f32) {
    let r = area(width, height, cell);
    let top = r.y - cell * 0.3;
    fill(
        Rect::new(0.0, top, width, height - top),
        alpha(theme::BACKGROUND, 0.96),
    );
    button_row(gfx, r, &BUTTONS);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bar_stays_on_a_phone_and_a_desktop_screen() {
        for (w, h) in [(390.0, 844.0), (844.0, 390.0), (1280.0, 720.0)] {
            let r = area(w, h, 20.0);
            assert!(r.x >= 0.0 && r.right() <= w && r.y >= 0.0 && r.bottom() <= h);
        }
    }
}
