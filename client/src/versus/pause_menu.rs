//! The pause card of a match (versus and free-for-all): Resume, Restart match, Leave to menu,
//! chosen by keys, the mouse or a tap.

use macroquad::input::KeyCode;

use crate::layout::list_layout;
use crate::render::widgets::{modal, modal_layout};
use crate::screen::{Ctx, FrameIo};
use crate::sound::sfx::Sfx;

/// The card's rows.
pub const PAUSE_OPTIONS: [&str; 3] = ["Resume", "Restart match", "Leave to menu"];

/// What a frame on the pause card decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PauseChoice {
    /// Still paused, this row selected.
    Stay(usize),
    /// Play on (Resume, or Esc).
    Resume,
    /// Restart the match.
    Restart,
    /// Leave to the menu.
    Leave,
}

/// One frame of the card with row `sel` selected: ↑ ↓ move, Enter or Space choose, Esc
/// resumes, the pointer selects and a click or tap chooses.
pub fn update_pause(ctx: &mut Ctx, io: &FrameIo, mut sel: usize) -> PauseChoice {
    let kb = &io.keyboard;
    let unit = list_layout(io.width, io.height, 1).unit;
    let (_, rows) = modal_layout(io.width, io.height, unit, PAUSE_OPTIONS.len());
    let n = PAUSE_OPTIONS.len();
    if kb.pressed(KeyCode::Up) {
        sel = (sel + n - 1) % n;
        ctx.play(Sfx::Move);
    }
    if kb.pressed(KeyCode::Down) {
        sel = (sel + 1) % n;
        ctx.play(Sfx::Move);
    }
    let mut chosen = None;
    for (i, r) in rows.iter().enumerate() {
        if io.mouse.over(*r) {
            if io.mouse.moved {
                sel = i;
            }
            if io.mouse.clicked {
                chosen = Some(i);
            }
        }
    }
    if kb.pressed_any(&[KeyCode::Enter, KeyCode::KpEnter, KeyCode::Space]) {
        chosen = Some(sel);
    }
    if kb.pressed(KeyCode::Escape) {
        chosen = Some(0);
    }
    match chosen {
        Some(0) => PauseChoice::Resume,
        Some(1) => PauseChoice::Restart,
        Some(_) => PauseChoice::Leave,
        None => PauseChoice::Stay(sel),
    }
}

/// Draws the card with row `sel` selected.
pub fn draw_pause(ctx: &Ctx, io: &FrameIo, sel: usize) {
    let unit = list_layout(io.width, io.height, 1).unit;
    modal(
        &ctx.gfx,
        io.width,
        io.height,
        unit,
        "PAUSED",
        &PAUSE_OPTIONS,
        sel,
        ctx.time,
    );
}
