//! Drawing. Everything here reads state and draws it; nothing here changes the game.
//!
//! - [`theme`] — colours.
//! - [`backdrop`] — pieces drifting behind the menus.
//! - [`fonts`] — the embedded fonts and their weights.
//! - [`gfx`] — crisp text, shared shapes.
//! - [`metrics`] — text widths without a window, and the shrink-to-fit rule.
//! - [`look`] — accessibility choices: piece palette, letters, high contrast, reduced motion.
//! - [`skin`] — the block skin in force: which tile a mino shows, its texture, drawing it.
//! - [`builtin_skins`] — the skins the game ships, drawn in code.
//! - [`cells`] — the bevelled (or skinned) block and piece pictures.
//! - [`board`] — one well with its cells, ghost, active piece and flashes.
//! - [`side`] — hold, next, garbage meter, stats, popups and name plate around a well.
//! - [`fx`] — popups, flashes and sounds made from each frame's match events.
//! - [`heading`] — a list screen's title and subtitle, fitted to the title strip.
//! - [`results_table`] — the results table of a match of several seats, seat by seat.
//! - [`showcase`] — the decorative well on the menus.
//! - [`widgets`] — menu rows, value rows and text fields for the list screens.
//! - [`touch`] — the touch controls and the back button of a touch screen.

pub mod backdrop;
pub mod board;
pub mod builtin_skins;
pub mod cells;
mod faces;
pub mod fonts;
pub mod fx;
pub mod gfx;
mod glyphs;
pub mod heading;
pub mod key_buttons;
mod large_text;
pub mod line_chart;
pub mod look;
pub mod metrics;
pub mod results_table;
pub mod showcase;
pub mod side;
pub mod skin;
pub mod theme;
pub mod touch;
pub mod widgets;

use macroquad::color::Color;

/// Formats a ×100 integer rate as "1.23".
pub fn hundredths(v: u32) -> String {
    format!("{}.{:02}", v / 100, v % 100)
}

/// Formats a ×100 integer as tenths, rounded: 4_012 → "40.1".
pub fn tenths(x100: u32) -> String {
    let tenths = x100.saturating_add(5) / 10;
    format!("{}.{}", tenths / 10, tenths % 10)
}

/// Formats frames as "m:ss.cc".
pub fn clock(frames: u32) -> String {
    let cs = frames * 100 / 60;
    format!("{}:{:02}.{:02}", cs / 6000, cs / 100 % 60, cs % 100)
}

/// The colour a seat's accents use: the local player's blue, the other's warm accent.
pub fn seat_colour(local: bool) -> Color {
    if local { theme::ACCENT2 } else { theme::ACCENT }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn number_formats() {
        assert_eq!(hundredths(123), "1.23");
        assert_eq!(hundredths(5), "0.05");
        assert_eq!(hundredths(0), "0.00");
        assert_eq!(hundredths(10_000), "100.00");
        assert_eq!(clock(0), "0:00.00");
        assert_eq!(clock(60 * 83 + 30), "1:23.50");
    }
}
