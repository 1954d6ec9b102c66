//! The settings screen's frame, part by part: a binding being captured, typing into a field,
//! the list's event (a tap on a ‹ › row steps it), and what ← → or Enter do to a row.

use macroquad::input::KeyCode;

use super::rows::{EnterDoes, Row, enter_does, is_text_field, step_percent, step_sdf};
use super::skin::MAX_SKIN_PATH;
use super::{MAX_CERT_PATH, SettingsScreen, show_display, show_skin};
use crate::account::rows::AccountRow;
use crate::config::{Config, MAX_ADDRESS, MAX_NAME};
use crate::input::Keyboard;
use crate::input::keys::key_name;
use crate::input::touch::{INSET_RANGE, RAISE_RANGE, SIZE_RANGE, TouchMode};
use crate::layout::ListLayout;
use crate::list_nav::ListEvent;
use crate::render::theme;
use crate::render::widgets::key_caps;
use crate::screen::{Ctx, FrameIo, Transition};
use crate::sound::sfx::Sfx;
use crate::sound::theme::Group;

/// Steps `v` by `d`, kept within 0..=`max`.
fn adjust(v: &mut u8, d: i32, max: u8) {
    *v = (i32::from(*v) + d).clamp(0, i32::from(max)) as u8;
}

impl SettingsScreen {
    /// While a key or pad button is being captured, the next one pressed becomes the binding
    /// (Escape cancels); true while a capture takes this frame's keys.
    pub(super) fn capturing(&mut self, ctx: &mut Ctx, kb: &Keyboard) -> bool {
        if let Some((action, slot)) = self.pad_capture {
            if let Some(button) = kb.pad_buttons.iter().copied().next() {
                self.draft.pad.bind(action, slot, button);
                ctx.play(Sfx::Select);
                self.pad_capture = None;
            } else if kb.pressed.contains(&KeyCode::Escape) {
                self.pad_capture = None;
            }
            return true;
        }
        if let Some((map, action, slot)) = self.capture {
            if kb.pressed(KeyCode::Escape) {
                self.capture = None;
            } else if let Some(key) = kb.pressed.iter().copied().next() {
                if key_name(key).is_some() {
                    self.map_mut(map).bind(action, slot, key);
                    ctx.play(Sfx::Select);
                } else {
                    ctx.notify("That key cannot be bound.", theme::BAD);
                }
                self.capture = None;
            }
            return true;
        }
        false
    }

    /// Types this frame's characters (and Backspace) into the text field `row`.
    pub(super) fn type_into(&mut self, row: Row, kb: &Keyboard) {
        if row == Row::Account(AccountRow::Import) {
            self.account.type_code(kb);
            return;
        }
        let (text, max) = match row {
            Row::Name => (&mut self.draft.player_name, MAX_NAME),
            Row::TrustCert => (&mut self.trust_text, MAX_CERT_PATH),
            Row::SkinFile => (&mut self.skin.path, MAX_SKIN_PATH),
            _ => (&mut self.draft.server, MAX_ADDRESS),
        };
        for c in &kb.chars {
            if !c.is_control() && text.chars().count() < max {
                text.push(*c);
            }
        }
        if kb.pressed(KeyCode::Backspace) {
            text.pop();
        }
    }

    /// Moves the cursor (with a sound) and returns the list's event; a tap (or click) on a row
    /// changed with ← → steps it: down on its left half, up on its right half, as the ‹ ›
    /// around its value show.
    pub(super) fn list_event(
        &mut self,
        ctx: &mut Ctx,
        io: &FrameIo,
        layout: &ListLayout,
        typing: bool,
    ) -> ListEvent {
        let rows = &self.rows;
        let before = self.nav.selected;
        let event = self.nav.handle_with_fields(
            io,
            layout,
            rows.len(),
            &|i| !matches!(rows[i], Row::Section(_)),
            typing,
            &|i| is_text_field(rows[i]),
        );
        if before != self.nav.selected {
            ctx.play(Sfx::Move);
        }
        match event {
            ListEvent::Activate(i)
                if io.mouse.clicked
                    && matches!(
                        enter_does(self.rows[i]),
                        EnterDoes::Nothing | EnterDoes::Toggle
                    ) =>
            {
                let r = self.row_rect(layout, i);
                ListEvent::Adjust(
                    i,
                    if io.mouse.pos.x < r.x + r.w / 2.0 {
                        -1
                    } else {
                        1
                    },
                )
            }
            e => e,
        }
    }

    /// ← → (or a tap on a half) on `row`: steps its value by `d` or flips it.
    pub(super) fn adjust(&mut self, ctx: &mut Ctx, row: Row, d: i32) {
        let h = &mut self.draft.handling;
        match row {
            Row::Das => adjust(&mut h.das, d, 60),
            Row::Arr => adjust(&mut h.arr, d, 30),
            Row::Dcd => adjust(&mut h.dcd, d, 30),
            Row::Sdf => h.sdf = step_sdf(h.sdf, d),
            Row::Irs => h.irs = !h.irs,
            Row::Ihs => h.ihs = !h.ihs,
            Row::Background => self.toggle_background(),
            Row::Skin => SettingsScreen::show_chosen_skin(self.skin.step(&mut self.draft, d)),
            Row::Palette | Row::Letters | Row::HighContrast | Row::ReducedMotion => {
                self.change_look(row, d)
            }
            Row::ChatFilter => self.draft.chat_filter = !self.draft.chat_filter,
            Row::ShareSkin | Row::OthersSkins => self.change_sharing(row, d),
            Row::Volume => {
                adjust(&mut self.draft.volume, d * 5, 100);
                ctx.audio.set_volume(self.draft.volume);
                ctx.play(Sfx::Move);
            }
            Row::GroupVolume(g) => {
                let v = &mut self.draft.sound_groups[g as usize];
                adjust(v, d * 5, 100);
                ctx.audio.set_group_volume(g, *v);
                ctx.play(match g {
                    Group::Movement => Sfx::Move,
                    Group::Clears => Sfx::Clear,
                    Group::Alerts => Sfx::Garbage,
                });
            }
            Row::Key(..) | Row::Pad(_) => self.slot = if d < 0 { 0 } else { 1 },
            Row::TouchMode => {
                let all = TouchMode::ALL;
                let at = all
                    .iter()
                    .position(|m| *m == self.draft.touch.mode)
                    .unwrap_or(0);
                let next = (at as i32 + d).rem_euclid(all.len() as i32) as usize;
                self.draft.touch.mode = all[next];
            }
            Row::TouchSize => step_percent(&mut self.draft.touch.size, d * 10, SIZE_RANGE),
            Row::TouchInset => step_percent(&mut self.draft.touch.inset, d, INSET_RANGE),
            Row::TouchRaise => step_percent(&mut self.draft.touch.raise, d * 2, RAISE_RANGE),
            _ => {}
        }
    }

    /// Enter (or a tap) on `row`, the `i`th: what [`enter_does`] says.
    pub(super) fn activate(
        &mut self,
        ctx: &mut Ctx,
        io: &FrameIo,
        layout: &ListLayout,
        i: usize,
        row: Row,
    ) -> Transition {
        let h = &mut self.draft.handling;
        match (enter_does(row), row) {
            (EnterDoes::Rebind, Row::Key(map, action)) => {
                if io.mouse.clicked {
                    let caps = key_caps(self.row_rect(layout, i), layout.unit);
                    if let Some(s) = caps.iter().position(|r| io.mouse.over(*r)) {
                        self.slot = s;
                    }
                }
                self.capture = Some((map, action, self.slot));
            }
            (EnterDoes::Rebind, Row::Pad(action)) => self.pad_capture = Some((action, self.slot)),
            (EnterDoes::Toggle, Row::Irs) => h.irs = !h.irs,
            (EnterDoes::Toggle, Row::Ihs) => h.ihs = !h.ihs,
            (EnterDoes::Toggle, Row::Background) => self.toggle_background(),
            (EnterDoes::Toggle, Row::ChatFilter) => {
                self.draft.chat_filter = !self.draft.chat_filter
            }
            (EnterDoes::Toggle, row @ (Row::ShareSkin | Row::OthersSkins)) => {
                self.change_sharing(row, 1)
            }
            (EnterDoes::Toggle, Row::Skin) => {
                SettingsScreen::show_chosen_skin(self.skin.step(&mut self.draft, 1))
            }
            (EnterDoes::Toggle, row) => self.change_look(row, 1),
            // In a page the row holds a link: the browser reads it, and the skin lands later.
            #[cfg(target_arch = "wasm32")]
            (EnterDoes::LoadSkin, _) => super::page_skin::fetch(ctx, &self.skin.path),
            #[cfg(not(target_arch = "wasm32"))]
            (EnterDoes::LoadSkin, _) => {
                SettingsScreen::show_chosen_skin(self.skin.load_path(&mut self.draft))
            }
            (EnterDoes::Save, _) if self.save(ctx) => return Transition::Pop,
            (EnterDoes::Discard, _) => {
                show_display(&ctx.config);
                // The volumes tried while changing them go back to the saved ones.
                ctx.audio.set_volume(ctx.config.volume);
                ctx.audio.set_groups(ctx.config.sound_groups);
                // The skin in force loaded before, so it loads again; if its file has gone
                // since, the flat blocks are drawn.
                let _ = show_skin(ctx.config.skin, ctx.config.skin_file.as_deref());
                return Transition::Pop;
            }
            (EnterDoes::Defaults, _) => self.defaults(ctx),
            (EnterDoes::Ask(which), _) => {
                let (server, name) = (self.draft.server.clone(), self.draft.player_name.clone());
                self.account.activate(ctx, which, &server, &name);
            }
            (EnterDoes::NextField, _) => {
                let rows = self.rows.clone();
                self.nav
                    .step(1, rows.len(), &|i| !matches!(rows[i], Row::Section(_)));
            }
            _ => {}
        }
        Transition::None
    }

    /// Puts every setting but the name and server back to its default (shown, not saved).
    fn defaults(&mut self, ctx: &mut Ctx) {
        let (name, server) = (self.draft.player_name.clone(), self.draft.server.clone());
        self.draft = Config {
            player_name: name,
            server,
            ..Config::default()
        };
        show_display(&self.draft);
        ctx.audio.set_volume(self.draft.volume);
        ctx.audio.set_groups(self.draft.sound_groups);
        self.skin.shown = self.draft.skin;
        self.skin.error = None;
        crate::render::skin::set(None);
        ctx.notify(
            "Handling, volume, keys and display reset to defaults (not saved yet).",
            theme::ACCENT2,
        );
    }

    /// Delete or Backspace on a key or pad row clears the binding under the cursor.
    pub(super) fn clear_binding(&mut self, row: Row, kb: &Keyboard) {
        if !kb.pressed_any(&[KeyCode::Delete, KeyCode::Backspace]) {
            return;
        }
        match row {
            Row::Key(map, action) => {
                let slot = self.slot;
                self.map_mut(map).clear(action, slot);
            }
            Row::Pad(action) => self.draft.pad.clear(action, self.slot),
            _ => {}
        }
    }
}
