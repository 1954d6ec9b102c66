//! Settings: name, server, account, handling, volume and three key maps, saved to the TOML file
//! ([`config`]; the screen's drawing is `view`).
//!
//! The screen edits a draft copy; "Save" (or Escape) validates, writes the file and puts the
//! draft in force; "Discard" drops it. Key rows capture the next key pressed ("press a key").

pub mod config;

mod rows;
mod view;

use macroquad::input::KeyCode;

use crate::account::rows::{AccountRow, AccountRows};
use crate::input::keys::key_name;
use crate::input::touch::{INSET_RANGE, RAISE_RANGE, SIZE_RANGE, TouchMode};
use crate::input::{Action, KeyMap};
use crate::layout::list::{ListEvent, ListNav};
use crate::layout::list_layout;
use crate::render::gfx::set_plain_background;
use crate::render::theme;
use crate::render::widgets::key_caps;
use crate::screen::{Ctx, FrameIo, Screen, Transition};
use crate::settings::config::{Config, MAX_ADDRESS, MAX_NAME, clean_name};
use crate::sound::sfx::Sfx;
use rows::{EnterDoes, MapId, Row, enter_does, rows, step_percent, step_sdf};

#[cfg(test)]
pub use rows::{FOOTER_RIGHT, footers, key_row_labels, value_rows};

/// Longest trusted-certificate path typed in settings, in characters.
const MAX_CERT_PATH: usize = 256;

/// The settings screen.
pub struct SettingsScreen {
    draft: Config,
    /// The trusted-certificate path as typed (empty: none); becomes `draft.trust_cert` on save.
    trust_text: String,
    rows: Vec<Row>,
    nav: ListNav,
    /// Which key cap of a key row the cursor is on.
    slot: usize,
    /// Waiting for a key for this row and slot.
    capture: Option<(MapId, Action, usize)>,
    /// Waiting for a gamepad button for this action and slot.
    pad_capture: Option<(Action, usize)>,
    /// The ACCOUNT rows (recovery code, import).
    account: AccountRows,
}

impl SettingsScreen {
    /// A settings screen editing a copy of the settings in force.
    pub fn new(ctx: &Ctx) -> SettingsScreen {
        SettingsScreen {
            draft: ctx.config.clone(),
            trust_text: ctx
                .config
                .trust_cert
                .as_ref()
                .map(|p| p.display().to_string())
                .unwrap_or_default(),
            rows: rows(),
            nav: ListNav { selected: 1 },
            slot: 0,
            capture: None,
            pad_capture: None,
            account: AccountRows::default(),
        }
    }

    fn map_mut(&mut self, id: MapId) -> &mut KeyMap {
        match id {
            MapId::Solo => &mut self.draft.keys,
            MapId::LocalLeft => &mut self.draft.local_left,
            MapId::LocalRight => &mut self.draft.local_right,
        }
    }

    fn map(&self, id: MapId) -> &KeyMap {
        match id {
            MapId::Solo => &self.draft.keys,
            MapId::LocalLeft => &self.draft.local_left,
            MapId::LocalRight => &self.draft.local_right,
        }
    }

    /// Flips the background between the gradient and plain, shown at once (Discard puts back
    /// the one in force).
    fn toggle_background(&mut self) {
        self.draft.plain_background = !self.draft.plain_background;
        show_display(&self.draft);
    }

    /// Changes an accessibility choice (`d` steps the palette; the others flip), shown at once
    /// like the background.
    fn change_look(&mut self, row: Row, d: i32) {
        let look = &mut self.draft.look;
        match row {
            Row::Palette => look.palette = look.palette.step(d),
            Row::Letters => look.letters = !look.letters,
            Row::HighContrast => look.high_contrast = !look.high_contrast,
            Row::ReducedMotion => look.reduced_motion = !look.reduced_motion,
            _ => return,
        }
        show_display(&self.draft);
    }

    fn save(&mut self, ctx: &mut Ctx) -> bool {
        self.draft.player_name = clean_name(&self.draft.player_name);
        if self.draft.handling.validate().is_err() {
            ctx.notify("Handling out of range.", theme::BAD);
            return false;
        }
        let path = self.trust_text.trim();
        self.draft.trust_cert = (!path.is_empty()).then(|| std::path::PathBuf::from(path));
        // Only a change replaces the trust in use (which `--trust-cert` may have set).
        if self.draft.trust_cert != ctx.config.trust_cert
            && let Err(e) = crate::net::online::set_trust(self.draft.trust_cert.as_deref())
        {
            ctx.notify(e, theme::BAD);
            return false;
        }
        ctx.config = self.draft.clone();
        ctx.audio.set_volume(ctx.config.volume);
        match &ctx.config_path {
            Some(path) => match ctx.config.save(path) {
                Ok(()) => {
                    ctx.notify(format!("Settings saved to {}", path.display()), theme::GOOD);
                    true
                }
                Err(e) => {
                    ctx.notify(
                        format!("Settings are in use but could not be saved: {e}"),
                        theme::BAD,
                    );
                    true
                }
            },
            None => {
                ctx.notify(
                    "Settings are in use for this session (no config directory to save to).",
                    theme::GARBAGE_QUEUED,
                );
                true
            }
        }
    }

    fn row_rect(&self, layout: &crate::layout::ListLayout, i: usize) -> macroquad::math::Rect {
        self.nav
            .visible(layout, self.rows.len())
            .into_iter()
            .find(|(j, _)| *j == i)
            .map_or(layout.row(0), |(_, r)| r)
    }
}

impl Screen for SettingsScreen {
    /// Handles the frame.
    fn update(&mut self, ctx: &mut Ctx, io: &FrameIo) -> Transition {
        ctx.backdrop.advance(io.dt, io.width, io.height);
        self.account.poll(ctx);
        let kb = &io.keyboard;
        if let Some((action, slot)) = self.pad_capture {
            // The next pad button pressed becomes the binding; Escape on the keyboard cancels.
            if let Some(button) = kb.pad_buttons.iter().copied().next() {
                self.draft.pad.bind(action, slot, button);
                ctx.play(Sfx::Select);
                self.pad_capture = None;
            } else if kb.pressed.contains(&KeyCode::Escape) {
                self.pad_capture = None;
            }
            return Transition::None;
        }
        if let Some((map, action, slot)) = self.capture {
            // The next key pressed becomes the binding; Escape cancels.
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
            return Transition::None;
        }
        let layout = list_layout(io.width, io.height, self.rows.len());
        let row = self.rows[self.nav.selected];
        let typing = matches!(
            row,
            Row::Name | Row::Server | Row::TrustCert | Row::Account(AccountRow::Import)
        );
        if row == Row::Account(AccountRow::Import) {
            self.account.type_code(kb);
        } else if typing {
            let (text, max) = match row {
                Row::Name => (&mut self.draft.player_name, MAX_NAME),
                Row::TrustCert => (&mut self.trust_text, MAX_CERT_PATH),
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
        let rows = &self.rows;
        let before = self.nav.selected;
        let is_field = |i: usize| {
            matches!(
                rows[i],
                Row::Name | Row::Server | Row::TrustCert | Row::Account(AccountRow::Import)
            )
        };
        let event = self.nav.handle_with_fields(
            io,
            &layout,
            rows.len(),
            &|i| !matches!(rows[i], Row::Section(_)),
            typing,
            &is_field,
        );
        if before != self.nav.selected {
            ctx.play(Sfx::Move);
        }
        // A tap (or click) on a row changed with ← → steps it: down on its left half, up on
        // its right half, as the ‹ › around its value show.
        let event = match event {
            ListEvent::Activate(i)
                if io.mouse.clicked
                    && matches!(
                        enter_does(self.rows[i]),
                        EnterDoes::Nothing | EnterDoes::Toggle
                    ) =>
            {
                let r = self.row_rect(&layout, i);
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
        };
        // The row the event is about (the cursor row, or the row clicked).
        let target = match event {
            ListEvent::Adjust(i, _) | ListEvent::Activate(i) => self.rows[i],
            _ => row,
        };
        let h = &mut self.draft.handling;
        let adjust =
            |v: &mut u8, d: i32, max: u8| *v = (i32::from(*v) + d).clamp(0, i32::from(max)) as u8;
        match event {
            // Leaving mid-import could lose the key the server is moving the identity to.
            ListEvent::Back if self.account.importing() => {
                ctx.notify(
                    "Waiting for the server's answer to the import.",
                    theme::GARBAGE_QUEUED,
                );
            }
            ListEvent::Back => {
                if self.save(ctx) {
                    return Transition::Pop;
                }
            }
            ListEvent::Adjust(_, d) => match target {
                Row::Das => adjust(&mut h.das, d, 60),
                Row::Arr => adjust(&mut h.arr, d, 30),
                Row::Dcd => adjust(&mut h.dcd, d, 30),
                Row::Sdf => h.sdf = step_sdf(h.sdf, d),
                Row::Irs => h.irs = !h.irs,
                Row::Ihs => h.ihs = !h.ihs,
                Row::Background => self.toggle_background(),
                Row::Palette | Row::Letters | Row::HighContrast | Row::ReducedMotion => {
                    self.change_look(target, d)
                }
                Row::ChatFilter => self.draft.chat_filter = !self.draft.chat_filter,
                Row::Volume => {
                    adjust(&mut self.draft.volume, d * 5, 100);
                    ctx.audio.set_volume(self.draft.volume);
                    ctx.play(Sfx::Move);
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
            },
            ListEvent::Activate(i) => match (enter_does(target), target) {
                (EnterDoes::Rebind, Row::Key(map, action)) => {
                    if io.mouse.clicked {
                        let caps = key_caps(self.row_rect(&layout, i), layout.unit);
                        if let Some(s) = caps.iter().position(|r| io.mouse.over(*r)) {
                            self.slot = s;
                        }
                    }
                    self.capture = Some((map, action, self.slot));
                }
                (EnterDoes::Rebind, Row::Pad(action)) => {
                    self.pad_capture = Some((action, self.slot))
                }
                (EnterDoes::Toggle, Row::Irs) => h.irs = !h.irs,
                (EnterDoes::Toggle, Row::Ihs) => h.ihs = !h.ihs,
                (EnterDoes::Toggle, Row::Background) => self.toggle_background(),
                (EnterDoes::Toggle, Row::ChatFilter) => {
                    self.draft.chat_filter = !self.draft.chat_filter
                }
                (EnterDoes::Toggle, row) => self.change_look(row, 1),
                (EnterDoes::Save, _) if self.save(ctx) => return Transition::Pop,
                (EnterDoes::Discard, _) => {
                    show_display(&ctx.config);
                    return Transition::Pop;
                }
                (EnterDoes::Defaults, _) => {
                    let (name, server) =
                        (self.draft.player_name.clone(), self.draft.server.clone());
                    self.draft = Config {
                        player_name: name,
                        server,
                        ..Config::default()
                    };
                    show_display(&self.draft);
                    ctx.notify(
                        "Handling, volume, keys and display reset to defaults (not saved yet).",
                        theme::ACCENT2,
                    );
                }
                (EnterDoes::Ask(which), _) => {
                    let (server, name) =
                        (self.draft.server.clone(), self.draft.player_name.clone());
                    self.account.activate(ctx, which, &server, &name);
                }
                (EnterDoes::NextField, _) => {
                    let rows = self.rows.clone();
                    self.nav
                        .step(1, rows.len(), &|i| !matches!(rows[i], Row::Section(_)));
                }
                _ => {}
            },
            ListEvent::None => {
                if let Row::Key(map, action) = row
                    && kb.pressed_any(&[KeyCode::Delete, KeyCode::Backspace])
                {
                    let slot = self.slot;
                    self.map_mut(map).clear(action, slot);
                }
                if let Row::Pad(action) = row
                    && kb.pressed_any(&[KeyCode::Delete, KeyCode::Backspace])
                {
                    self.draft.pad.clear(action, self.slot);
                }
            }
        }
        Transition::None
    }

    fn draw(&self, ctx: &Ctx, io: &FrameIo) {
        self.draw_view(ctx, io);
    }

    fn calm(&self) -> bool {
        true
    }

    fn text_fields(&self, _ctx: &Ctx, io: &FrameIo) -> Vec<crate::screen::TextField> {
        use crate::screen::{TextField, TextKind};
        let layout = list_layout(io.width, io.height, self.rows.len());
        self.nav
            .visible(&layout, self.rows.len())
            .into_iter()
            .filter_map(|(i, rect)| {
                let (kind, text) = match self.rows[i] {
                    Row::Name => (TextKind::Plain, self.draft.player_name.clone()),
                    Row::Server => (TextKind::Address, self.draft.server.clone()),
                    Row::TrustCert => (TextKind::Address, self.trust_text.clone()),
                    Row::Account(AccountRow::Import) => {
                        (TextKind::Code, self.account.typed_code().to_owned())
                    }
                    _ => return None,
                };
                Some(TextField {
                    kind,
                    text,
                    rect,
                    active: i == self.nav.selected,
                })
            })
            .collect()
    }

    fn name(&self) -> &'static str {
        "settings"
    }
}

/// Shows the display choices of `config` at once: the background and the accessibility look.
pub fn show_display(config: &Config) {
    set_plain_background(config.plain_background);
    crate::render::look::set(config.look);
}
