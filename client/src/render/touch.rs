//! Drawing the touch controls ([`crate::input::touch`]): round buttons with their labels, lit
//! while a finger holds them, over a dark strip in portrait and see-through over the game in
//! landscape; and the back button a touch screen shows in place of Esc.

use macroquad::prelude::*;

use crate::input::Action;
use crate::input::touch::TouchLayout;
use crate::render::gfx::{Align, Gfx, Weight};
use crate::render::theme::{self, alpha};

/// Draws the buttons of `layout`; `held` are lit. `strip` is the portrait strip under the game.
pub fn draw_controls(gfx: &Gfx, layout: &TouchLayout, held: &[Action], strip: Option<Rect>) {
    let see_through = strip.is_none();
    if let Some(s) = strip {
        draw_rectangle(s.x, s.y, s.w, s.h, theme::BACKGROUND);
        draw_rectangle(s.x, s.y, s.w, 1.0, alpha(theme::FRAME, 0.6));
    }
    for b in &layout.buttons {
        let lit = held.contains(&b.action);
        let (fill, edge, text) = match (lit, see_through) {
            (true, _) => (alpha(theme::ACCENT, 0.55), theme::ACCENT, theme::TEXT),
            (false, false) => (theme::PANEL, theme::FRAME, theme::TEXT),
            (false, true) => (
                alpha(theme::PANEL, 0.35),
                alpha(theme::FRAME, 0.7),
                alpha(theme::TEXT, 0.8),
            ),
        };
        draw_circle(b.centre.x, b.centre.y, b.radius, fill);
        draw_circle_lines(b.centre.x, b.centre.y, b.radius, 2.0, edge);
        let size = if b.label.chars().count() > 2 {
            (b.radius * 0.42).round()
        } else {
            (b.radius * 0.8).round()
        };
        gfx.text_mid(
            b.label,
            b.centre.x,
            b.centre.y,
            size,
            Weight::Bold,
            Align::Center,
            text,
        );
    }
}

/// Draws the back button (a touch screen's Esc).
pub fn draw_back(gfx: &Gfx, r: Rect) {
    draw_rectangle(r.x, r.y, r.w, r.h, alpha(theme::PANEL, 0.8));
    draw_rectangle_lines(r.x, r.y, r.w, r.h, 2.0, alpha(theme::FRAME, 0.9));
    gfx.text_mid(
        "‹",
        r.x + r.w / 2.0,
        r.y + r.h / 2.0,
        (r.h * 0.7).round(),
        Weight::Bold,
        Align::Center,
        theme::TEXT,
    );
}
