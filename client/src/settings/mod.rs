//! Settings: name, server, account, handling, volume and three key maps, saved to the TOML file
//! (`crate::config`; the screen's drawing is `view`).
//!
//! The screen edits a draft copy; "Save" (or Escape) validates, writes the file and puts the
//! draft in force; "Discard" drops it. Key rows capture the next key pressed ("press a key").

#[cfg(target_arch = "wasm32")]
pub mod page_skin;
mod rows;
mod skin;
#[cfg(any(target_arch = "wasm32", test))]
mod skin_link;
mod skin_preview;
mod update;
mod view;

use crate::account::rows::{AccountRow, AccountRows};
use crate::config::{Config, clean_name};
use crate::input::{Action, KeyMap};
use crate::layout::list_layout;
use crate::list_nav::{ListEvent, ListNav};
use crate::render::gfx::set_plain_background;
use crate::render::theme;
use crate::screen::{Ctx, FrameIo, Screen, Transition};
use rows::{MapId, Row, is_text_field, rows};
use skin::SkinRow;

pub use skin::{choice_from_arg, show_skin};

#[cfg(test)]
pub use rows::{FOOTER_RIGHT, footers, key_row_labels, touch_texts, value_rows};

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
    /// The block skin rows.
    skin: SkinRow,
}

impl SettingsScreen {
    /// A settings screen editing a copy of the settings in force.
    /// The screen with the cursor on the Block skin row (a capture of a skin's preview:
    /// `--screen settings --skin NAME`).
    pub fn at_skin_row(ctx: &Ctx) -> SettingsScreen {
        let mut screen = SettingsScreen::new(ctx);
        if let Some(at) = screen.rows.iter().position(|r| *r == Row::Skin) {
            screen.nav = ListNav::at(at);
        }
        screen
    }

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
            nav: ListNav::at(1),
            slot: 0,
            capture: None,
            pad_capture: None,
            account: AccountRows::default(),
            skin: SkinRow::new(&ctx.config),
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

    /// Flips sharing our skin, or steps whose skins others' boards show, shown at once.
    fn change_sharing(&mut self, row: Row, d: i32) {
        match row {
            Row::ShareSkin => self.draft.share_skin = !self.draft.share_skin,
            Row::OthersSkins => {
                let all = crate::render::skin::Others::ALL;
                let at = all
                    .iter()
                    .position(|o| *o == self.draft.others_skins)
                    .unwrap_or(0);
                let next = (at as i32 + d).rem_euclid(all.len() as i32) as usize;
                self.draft.others_skins = all[next];
            }
            _ => return,
        }
        show_display(&self.draft);
    }

    /// Puts the skin the skin rows loaded in force at once (Discard puts back the one in force).
    fn show_chosen_skin(chosen: Option<skin::Chosen>) {
        if let Some(skin) = chosen {
            crate::render::skin::set(skin.as_ref());
        }
    }

    fn save(&mut self, ctx: &mut Ctx) -> bool {
        self.draft.player_name = clean_name(&self.draft.player_name);
        self.skin.save_path(&mut self.draft);
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
        ctx.audio.set_groups(ctx.config.sound_groups);
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
    /// Handles the frame: a binding being captured takes every key; otherwise typing into the
    /// cursor's field, moving the cursor, and what the list's event asks of its row.
    fn update(&mut self, ctx: &mut Ctx, io: &FrameIo) -> Transition {
        ctx.backdrop.advance(io.dt, io.width, io.height);
        self.account.poll(ctx);
        // A skin file dropped, picked or read from a link has been kept as the page's skin:
        // the draft follows, so saving keeps it.
        #[cfg(target_arch = "wasm32")]
        if page_skin::take_landed() {
            self.draft.skin = ctx.config.skin;
            self.draft.skin_file = ctx.config.skin_file.clone();
            self.skin.shown = ctx.config.skin;
            self.skin.error = None;
        }
        if self.capturing(ctx, &io.keyboard) {
            return Transition::None;
        }
        let layout = list_layout(io.width, io.height, self.rows.len());
        let row = self.rows[self.nav.selected];
        let typing = is_text_field(row);
        if typing {
            self.type_into(row, &io.keyboard);
        }
        let event = self.list_event(ctx, io, &layout, typing);
        // The row the event is about (the cursor row, or the row clicked).
        let target = match event {
            ListEvent::Adjust(i, _) | ListEvent::Activate(i) => self.rows[i],
            _ => row,
        };
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
            ListEvent::Adjust(_, d) => self.adjust(ctx, target, d),
            ListEvent::Activate(i) => return self.activate(ctx, io, &layout, i, target),
            ListEvent::None => self.clear_binding(row, &io.keyboard),
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
                    Row::SkinFile => (TextKind::Address, self.skin.path.clone()),
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

/// Shows the display choices of `config` at once: the background, the accessibility look, and
/// whose skins boards show online (and whether ours is shared).
pub fn show_display(config: &Config) {
    set_plain_background(config.plain_background);
    crate::render::look::set(config.look);
    crate::render::skin::set_sharing(config.others_skins, config.share_skin);
}
