//! The hint line at the bottom of a list screen: key hints fitted to the room, and the right-hand text.

use macroquad::prelude::*;

use crate::render::gfx::{Align, Gfx, Weight};
use crate::render::theme::{self, alpha};

/// The text size of a footer's hints.
pub fn footer_size(unit: f32) -> f32 {
    (unit * 0.7).round()
}

/// The width a footer's hints may take: the line less the right-hand text and a gap.
pub fn footer_room(r: Rect, unit: f32, right_w: f32) -> f32 {
    r.w - right_w - if right_w > 0.0 { unit * 1.5 } else { 0.0 }
}

/// The widest the footer's right-hand text may be (it can be a server address a player typed,
/// which is cut with "…" past this).
pub fn footer_right_room(r: Rect) -> f32 {
    r.w * 0.35
}

/// The hints of a footer that fit `room` at the size [`fit_size`](crate::render::metrics::fit_size)
/// gives them: whole, or (on a phone held upright) without their last groups (hints are
/// separated by three spaces, the most useful first), so none is cut or runs over.
pub fn footer_hints(
    width_at: impl Fn(&str, f32) -> f32,
    hints: &str,
    size: f32,
    room: f32,
) -> (String, f32) {
    let mut kept: Vec<&str> = hints.split("   ").collect();
    loop {
        let text = kept.join("   ");
        let fitted = crate::render::metrics::fit_size(|px| width_at(&text, px), size, room);
        if kept.len() <= 1 || width_at(&text, fitted) <= room {
            return (text, fitted);
        }
        kept.pop();
    }
}

/// The hint line at the bottom of a list screen. The hints shrink to the room the right-hand
/// text leaves them on a narrow window, and drop their last groups where even that is too wide.
/// A touch screen shows no key hints (rows are tapped; keys beyond them get key buttons, see
/// [`crate::render::key_buttons::footer_keys`]).
pub fn footer(gfx: &Gfx, r: Rect, unit: f32, hints: &str, right: &str) {
    let hints = if crate::input::taps::shown() {
        ""
    } else {
        hints
    };
    draw_rectangle(r.x, r.y, r.w, 1.0, alpha(theme::FRAME, 0.5));
    let cy = r.y + r.h / 2.0 + unit * 0.2;
    let size = footer_size(unit);
    let right = &gfx.fit(right, footer_right_room(r), size, Weight::Regular);
    let right_w = gfx.width(right, size, Weight::Regular);
    let (hints, hint_size) = footer_hints(
        |t, px| gfx.width(t, px, Weight::Regular),
        hints,
        size,
        footer_room(r, unit, right_w),
    );
    gfx.text_mid(
        &hints,
        r.x,
        cy,
        hint_size,
        Weight::Regular,
        Align::Left,
        theme::TEXT_FAINT,
    );
    gfx.text_mid(
        right,
        r.right(),
        cy,
        size,
        Weight::Regular,
        Align::Right,
        theme::TEXT_FAINT,
    );
}
