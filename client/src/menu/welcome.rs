//! The first-start screen: "Welcome — choose your name". Shown once, when there is no settings
//! file yet; Enter keeps a name that follows the server's name rules, Escape keeps "Player".
//! Either way the settings file is written, so the question is not asked again. Nothing here
//! talks to a server.

use macroquad::input::KeyCode;
use sevenbag_protocol::identity::validate_name;

use crate::config::MAX_NAME;
use crate::input::taps;
use crate::layout::list_layout;
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

/// The name being typed and why it was last refused (window-free, so it can be tested).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NameForm {
    /// The text in the field.
    pub text: String,
    /// Why Enter was refused, until the text changes.
    pub error: Option<String>,
}

impl NameForm {
    /// Adds typed characters (control characters are ignored, the field holds [`MAX_NAME`])
    /// and applies Backspace.
    pub fn edit(&mut self, chars: &[char], backspace: bool) {
        let before = self.text.clone();
        for c in chars {
            if !c.is_control() && self.text.chars().count() < MAX_NAME {
                self.text.push(*c);
            }
        }
        if backspace {
            self.text.pop();
        }
        if self.text != before {
            self.error = None;
        }
    }

    /// The name to keep when it follows the rules; otherwise the reason is kept in `error`.
    pub fn submit(&mut self) -> Option<String> {
        let name = self.text.trim();
        match validate_name(name) {
            Ok(()) => {
                self.error = None;
                Some(name.to_owned())
            }
            Err(e) => {
                self.error = Some(format!("Not yet: {e}."));
                None
            }
        }
    }
}

/// The welcome screen.
#[derive(Default)]
pub struct WelcomeScreen {
    form: NameForm,
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

#[cfg(test)]
mod tests {
    use super::*;

    fn typed(text: &str) -> NameForm {
        let mut form = NameForm::default();
        form.edit(&text.chars().collect::<Vec<_>>(), false);
        form
    }

    #[test]
    fn a_name_within_the_rules_is_kept() {
        assert_eq!(typed("Alice_99").submit(), Some("Alice_99".to_owned()));
        assert_eq!(typed(" bob-1 ").submit(), Some("bob-1".to_owned()));
    }

    #[test]
    fn a_name_outside_the_rules_says_why() {
        let mut short = typed("ab");
        assert_eq!(short.submit(), None);
        assert_eq!(
            short.error.as_deref(),
            Some("Not yet: a name is 3 to 16 characters.")
        );
        let mut spaced = typed("Zoë 1");
        assert_eq!(spaced.submit(), None);
        assert!(
            spaced
                .error
                .as_deref()
                .is_some_and(|e| e.contains("only letters"))
        );
    }

    #[test]
    fn typing_clears_the_error_and_the_field_stops_at_sixteen() {
        let mut form = typed("ab");
        form.submit();
        form.edit(&['c'], false);
        assert_eq!(form.error, None);
        form.edit(&['x'; 30], false);
        assert_eq!(form.text.chars().count(), MAX_NAME);
        form.edit(&['\u{7}'], true);
        assert_eq!(form.text.chars().count(), MAX_NAME - 1);
    }
}
