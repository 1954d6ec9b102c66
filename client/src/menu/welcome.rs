//! The first-start screen: "Welcome — choose your name". Shown once, when there is no settings
//! file yet; Enter keeps a name that follows the server's name rules, Escape keeps "Player".
//! Either way the settings file is written, so the question is not asked again. Nothing here
//! talks to a server.

use macroquad::input::KeyCode;

use crate::input::taps;
use crate::layout::list_layout;
use crate::name_field::NameField;
use crate::render::gfx::{Align, Weight, background};
use crate::render::key_buttons::button_row;
use crate::render::theme;
use crate::render::widgets::{RowState, footer, heading, side_panel, value_row};
use crate::screen::{Ctx, FrameIo, Screen, TextField, TextKind, Transition};
use crate::sound::sfx::Sfx;

/// The footer's key hints (the layout tests check they fit the smallest window).
pub const FOOTER: &str = "Type your name   Enter save   Esc skip (stay \"Player\")";

/// The name rules, as the player reads them.
const RULES: &str = "3 to 16 characters: letters A–Z and a–z, digits 0–9, '_' and '-'. The same rules hold for ranked play, so a name that passes here can be registered (unless someone already has it, or one that looks like it). You can change it later in Settings.";

/// The welcome screen.
#[derive(Default)]
pub struct WelcomeScreen {
    form: NameField,
}

impl Screen for WelcomeScreen {
    /// Handles the frame.
    fn update(&mut self, ctx: &mut Ctx, io: &FrameIo) -> Transition {
        ctx.backdrop.advance(io.dt, io.width, io.height);
        let kb = &io.keyboard;
        if kb.pressed(KeyCode::Escape) {
            keep(ctx);
            return Transition::Pop;
        }
        self.form.edit(&kb.chars, kb.pressed(KeyCode::Backspace));
        if kb.pressed_any(&[KeyCode::Enter, KeyCode::KpEnter]) {
            match self.form.submit() {
                Some(name) => {
                    ctx.config.player_name = name;
                    ctx.play(Sfx::Select);
                    keep(ctx);
                    return Transition::Pop;
                }
                None => ctx.play(Sfx::Move),
            }
        }
        Transition::None
    }

    fn text_fields(&self, _ctx: &Ctx, io: &FrameIo) -> Vec<TextField> {
        vec![TextField {
            kind: TextKind::Plain,
            text: self.form.text.clone(),
            rect: list_layout(io.width, io.height, 3).row(0),
            active: true,
        }]
    }

    /// Draws the screen.
    fn draw(&self, ctx: &Ctx, io: &FrameIo) {
        let gfx = &ctx.gfx;
        background(io.width, io.height);
        ctx.backdrop.draw();
        let l = list_layout(io.width, io.height, 3);
        heading(
            gfx,
            l.title,
            l.unit,
            "Welcome — choose your name",
            "Opponents and spectators see it; ranked play registers it",
        );
        let state = RowState {
            selected: true,
            enabled: true,
        };
        let field = l.row(0);
        value_row(
            gfx,
            field,
            l.unit,
            "Name",
            &self.form.text,
            state,
            true,
            ctx.time,
        );
        let size = (l.unit * 0.85).round();
        let (line, colour) = match &self.form.error {
            Some(e) => (e.as_str(), theme::BAD),
            None => (keep_line(), theme::TEXT_DIM),
        };
        gfx.text(
            line,
            field.x,
            field.bottom() + l.unit * 1.2 + size * 0.5,
            size,
            Weight::Regular,
            Align::Left,
            colour,
        );
        // A touch screen has no Enter or Esc: buttons under the field do what they do.
        if taps::shown() {
            let row = save_buttons(&l);
            button_row(
                gfx,
                row,
                &[("Save", KeyCode::Enter), ("Skip", KeyCode::Escape)],
            );
        }
        side_panel(gfx, l.side, l.unit, "Name rules", RULES);
        footer(gfx, l.footer, l.unit, FOOTER, "Asked once");
    }

    fn calm(&self) -> bool {
        true
    }

    fn name(&self) -> &'static str {
        "welcome"
    }
}

/// The line under the field: what keeps the name.
pub fn keep_line() -> &'static str {
    taps::hint("Enter keeps it.", "Save keeps it.")
}

/// Where the Save and Skip buttons go on a touch screen: under the field's line, inside the
/// rows' area (the side panel is beside it, or under it upright).
pub fn save_buttons(l: &crate::layout::ListLayout) -> macroquad::math::Rect {
    let field = l.row(0);
    let h = l.unit * 1.6;
    let y = field.bottom() + l.unit * 2.4;
    macroquad::math::Rect::new(field.x, y, field.w.min(l.unit * 14.0), h)
}

/// What the screen says in words, for the touch wording test.
#[cfg(test)]
pub fn touch_texts() -> Vec<String> {
    vec![keep_line().to_owned()]
}

/// Writes the settings file, so the first-start question is asked once.
fn keep(ctx: &mut Ctx) {
    if let Some(path) = &ctx.config_path
        && let Err(e) = ctx.config.save(path)
    {
        ctx.notify(format!("Settings could not be saved: {e}"), theme::BAD);
    }
}
