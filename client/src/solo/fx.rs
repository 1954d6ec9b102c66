//! Effects of a solo run, made from each frame's events like the match view's: the lock flash,
//! the hard-drop trail, cleared rows flashing, and the clear, back-to-back and combo popups. They
//! fill the same [`SeatFx`] the board and side-panel drawing read, and age with
//! [`crate::render::fx::MatchFx::advance`].

use sevenbag_core::{Board, Piece, PieceKind, Solo, Spin};

use crate::render::fx::{Popup, SeatFx, b2b_label, clear_label, combo_label, completed_rows};
use crate::render::theme;

fn popup(text: String, colour: macroquad::color::Color) -> Option<Popup> {
    Some(Popup {
        text,
        colour,
        age: 0.0,
    })
}

/// Reads the frame `solo` just simulated; `before` and `active_before` are the board and piece
/// as they were before it.
pub fn after_step(fx: &mut SeatFx, before: &Board, active_before: Option<Piece>, solo: &Solo) {
    let ev = solo.events();
    let Some(lock) = ev.locked else { return };
    fx.lock = Some((lock.piece, 0.0));
    if ev.hard_dropped
        && let Some(from) = active_before
    {
        fx.trail = Some((from, lock.piece, 0.0));
    }
    if lock.clear.lines > 0 {
        for y in completed_rows(before, &lock.piece) {
            fx.rows.push((y, 0.0));
        }
    }
    if let Some(label) = clear_label(lock.clear) {
        let colour = match (lock.clear.spin, lock.clear.lines) {
            (Spin::Full | Spin::Mini, _) => theme::piece_colour(PieceKind::T),
            (_, 4) => theme::piece_colour(PieceKind::I),
            _ => theme::TEXT,
        };
        fx.clear = popup(label, colour);
    }
    if let Some(label) = b2b_label(&lock) {
        fx.b2b = popup(label, theme::ACCENT);
    }
    if let Some(label) = combo_label(&lock) {
        fx.combo = popup(label, theme::ACCENT2);
    }
    if lock.clear.perfect {
        fx.perfect = popup("PERFECT CLEAR".to_owned(), theme::ACCENT);
    }
}
