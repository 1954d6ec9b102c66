//! Settings: name, server, account, handling, volume and three key maps, saved to the TOML file
//! ([`config`]; the screen's drawing is `view`).
//!
//! The screen edits a draft copy; "Save" (or Escape) validates, writes the file and puts the
//! draft in force; "Discard" drops it. Key rows capture the next key pressed ("press a key").

pub mod config;

mod view;

use macroquad::input::KeyCode;
use sevenbag_core::Handling;

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

/// Longest trusted-certificate path typed in settings, in characters.
const MAX_CERT_PATH: usize = 256;

/// Which key map a key row edits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum MapId {
    Solo,
    LocalLeft,
    LocalRight,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Row {
    Section(&'static str),
    Name,
    Server,
    TrustCert,
    Account(AccountRow),
    Das,
    Arr,
    Dcd,
    Sdf,
    Irs,
    Ihs,
    Volume,
    /// The background: the gradient or one plain colour.
    Background,
    /// The piece palette (guideline or a colour-blind-safe one).
    Palette,
    /// Each block's piece letter on or off.
    Letters,
    /// The high-contrast skin on or off.
    HighContrast,
    /// Reduced motion on or off.
    ReducedMotion,
    /// The chat filter: off or on.
    ChatFilter,
    Key(MapId, Action),
    /// A gamepad binding (builds with the `gamepad` feature).
    Pad(Action),
    /// When the touch controls show.
    TouchMode,
    /// Their size.
    TouchSize,
    /// Their distance from the sides.
    TouchInset,
    /// Their height above the bottom.
    TouchRaise,
    Save,
    Discard,
    Defaults,
}

fn rows() -> Vec<Row> {
    let mut v = vec![
        Row::Section("PLAYER"),
        Row::Name,
        Row::Server,
        Row::TrustCert,
        Row::Section("ACCOUNT"),
        Row::Account(AccountRow::Recovery),
        Row::Account(AccountRow::Import),
        Row::Account(AccountRow::Rename),
        Row::Section("HANDLING"),
        Row::Das,
        Row::Arr,
        Row::Dcd,
        Row::Sdf,
        Row::Irs,
        Row::Ihs,
    ];
    // A build without the `audio` feature is silent: no volume to set, so no slider.
    if cfg!(feature = "audio") {
        v.extend([Row::Section("AUDIO"), Row::Volume]);
    }
    v.extend([Row::Section("DISPLAY"), Row::Background, Row::ChatFilter]);
    v.extend([
        Row::Section("ACCESSIBILITY"),
        Row::Palette,
        Row::Letters,
        Row::HighContrast,
        Row::ReducedMotion,
    ]);
    v.extend([
        Row::Section("TOUCH CONTROLS"),
        Row::TouchMode,
        Row::TouchSize,
        Row::TouchInset,
        Row::TouchRaise,
    ]);
    for (title, map) in [
        ("KEYS · SOLO AND ONLINE", MapId::Solo),
        ("KEYS · LOCAL LEFT PLAYER", MapId::LocalLeft),
        ("KEYS · LOCAL RIGHT PLAYER", MapId::LocalRight),
    ] {
        v.push(Row::Section(title));
        v.extend(Action::ALL.into_iter().map(|a| Row::Key(map, a)));
    }
    if cfg!(feature = "gamepad") {
        v.push(Row::Section("GAMEPAD"));
        v.extend(Action::ALL.into_iter().map(Row::Pad));
    }
    v.extend([Row::Section(""), Row::Save, Row::Discard, Row::Defaults]);
    v
}

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

/// What Enter does on a row: the handler acts on it and the footer says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum EnterDoes {
    /// Waits for the key (or pad button) to bind.
    Rebind,
    /// Flips an on/off setting.
    Toggle,
    /// Saves and leaves.
    Save,
    /// Leaves without saving.
    Discard,
    /// Puts handling, volume and keys back to their defaults.
    Defaults,
    /// Asks the server (an ACCOUNT row).
    Ask(AccountRow),
    /// Moves to the next row (a text field).
    NextField,
    /// Nothing: a number changed with ← →.
    Nothing,
}

/// What Enter does on `row`.
fn enter_does(row: Row) -> EnterDoes {
    match row {
        Row::Key(..) | Row::Pad(_) => EnterDoes::Rebind,
        Row::Irs | Row::Ihs | Row::Background | Row::ChatFilter => EnterDoes::Toggle,
        Row::Palette | Row::Letters | Row::HighContrast | Row::ReducedMotion => EnterDoes::Toggle,
        Row::Save => EnterDoes::Save,
        Row::Discard => EnterDoes::Discard,
        Row::Defaults => EnterDoes::Defaults,
        Row::Account(which) => EnterDoes::Ask(which),
        Row::Name | Row::Server | Row::TrustCert => EnterDoes::NextField,
        Row::Das | Row::Arr | Row::Dcd | Row::Sdf | Row::Volume | Row::Section(_) => {
            EnterDoes::Nothing
        }
        Row::TouchMode | Row::TouchSize | Row::TouchInset | Row::TouchRaise => EnterDoes::Nothing,
    }
}

/// Adds `d` to a percentage, kept inside `(lo, hi)`.
fn step_percent(v: &mut u8, d: i32, (lo, hi): (u8, u8)) {
    *v = (i32::from(*v) + d).clamp(i32::from(lo), i32::from(hi)) as u8;
}

/// The footer's right-hand text.
pub const FOOTER_RIGHT: &str = "Esc always opens the menu in a match";

/// The footer's key hints on `row` (when no key is being captured): they name what Enter does
/// there ([`enter_does`]).
fn footer_hint(row: Row) -> &'static str {
    match enter_does(row) {
        EnterDoes::Rebind => "↑ ↓ choose   ← → key slot   Enter rebind   Del clear   Esc save",
        EnterDoes::Toggle => "↑ ↓ choose   ← → or Enter change   Esc save and back",
        EnterDoes::Save => "↑ ↓ choose   Enter save and back   Esc save and back",
        EnterDoes::Discard => "↑ ↓ choose   Enter discard changes   Esc save and back",
        EnterDoes::Defaults => "↑ ↓ choose   Enter restore defaults   Esc save and back",
        EnterDoes::Ask(AccountRow::Recovery) => "↑ ↓ choose   Enter show the code   Esc save",
        EnterDoes::Ask(AccountRow::Import) => {
            "Type the code   Enter import   ↑ ↓ choose   Esc save"
        }
        EnterDoes::Ask(AccountRow::Rename) => "↑ ↓ choose   Enter rename   Esc save and back",
        EnterDoes::NextField => "Type to edit   Enter next   ↑ ↓ choose   Esc save",
        EnterDoes::Nothing => "↑ ↓ choose   ← → change   Esc save and back",
    }
}

/// Every footer the screen shows, for the layout tests.
#[cfg(test)]
pub fn footers() -> Vec<&'static str> {
    let mut v: Vec<&str> = rows().into_iter().map(footer_hint).collect();
    v.extend([
        "Press the key to bind   Esc cancel",
        "Press the gamepad button to bind   Esc (keyboard) cancel",
    ]);
    v.sort_unstable();
    v.dedup();
    v
}

/// Every value row's label with the widest values it shows (selected, with its ‹ › hints), and
/// whether players type it (typed values may be cut with "…"), for the layout tests.
#[cfg(test)]
pub fn value_rows() -> Vec<(&'static str, Vec<String>, bool)> {
    let arrows = |v: &str| format!("‹  {v}  ›");
    rows()
        .into_iter()
        .filter_map(|row| {
            let (values, typed): (Vec<String>, bool) = match row {
                Row::Name | Row::Server | Row::TrustCert => (vec![], true),
                Row::Account(AccountRow::Import) => (vec![], true),
                Row::Account(AccountRow::Recovery) => (
                    vec![
                        "asking the server…".into(),
                        "Enter to show".into(),
                        "WWWWW-WWWWW-WWWWW-WWWWW".into(),
                    ],
                    false,
                ),
                Row::Account(AccountRow::Rename) => (
                    vec!["asking the server…".into(), "to WWWWWWWWWWWWWWWW".into()],
                    false,
                ),
                Row::Das | Row::Arr | Row::Dcd => (
                    vec![arrows("60 f  (1000 ms)"), arrows("0  (instant)")],
                    false,
                ),
                Row::Sdf => (vec![arrows("∞  (instant)"), arrows("60×")], false),
                Row::Irs | Row::Ihs => (vec![arrows("off")], false),
                Row::Background => (vec![arrows("gradient"), arrows("plain")], false),
                Row::Palette => (
                    crate::render::look::Palette::ALL
                        .iter()
                        .map(|p| arrows(p.label()))
                        .collect(),
                    false,
                ),
                Row::Letters | Row::HighContrast | Row::ReducedMotion => {
                    (vec![arrows("off"), arrows("on")], false)
                }
                Row::ChatFilter => (vec![arrows("off"), arrows("on")], false),
                Row::Volume => (vec![arrows("100%")], false),
                Row::TouchMode => (vec![arrows("auto"), arrows("off")], false),
                Row::TouchSize | Row::TouchInset | Row::TouchRaise => {
                    (vec![arrows("160%"), arrows("30%")], false)
                }
                _ => return None,
            };
            Some((row_label(row), values, typed))
        })
        .collect()
}

/// Every key row's label (the actions), for the layout tests.
#[cfg(test)]
pub fn key_row_labels() -> Vec<&'static str> {
    Action::ALL.iter().map(|a| a.label()).collect()
}

/// The label of a settings row with a value ([`value_row`]); empty for the others.
fn row_label(row: Row) -> &'static str {
    match row {
        Row::Name => "Name",
        Row::Server => "Server",
        Row::TrustCert => "Trusted cert",
        Row::Account(AccountRow::Recovery) => "Recovery code",
        Row::Account(AccountRow::Import) => "Import recovery code",
        Row::Account(AccountRow::Rename) => "Rename on server",
        Row::Das => "DAS  delayed auto shift",
        Row::Arr => "ARR  auto repeat rate",
        Row::Dcd => "DCD  DAS cut delay",
        Row::Sdf => "SDF  soft drop factor",
        Row::Irs => "IRS  initial rotation",
        Row::Ihs => "IHS  initial hold",
        Row::Volume => "Volume",
        Row::Background => "Background",
        Row::Palette => "Piece colours",
        Row::Letters => "Piece letters",
        Row::HighContrast => "High contrast",
        Row::ReducedMotion => "Reduced motion",
        Row::ChatFilter => "Chat filter",
        Row::TouchMode => "Touch controls",
        Row::TouchSize => "Button size",
        Row::TouchInset => "From the sides",
        Row::TouchRaise => "From the bottom",
        Row::Key(_, a) | Row::Pad(a) => a.label(),
        Row::Section(title) => title,
        Row::Save | Row::Discard | Row::Defaults => "",
    }
}

fn help(row: Row, h: &Handling) -> (&'static str, String) {
    match row {
        Row::Name => ("Name", "Shown to opponents and spectators, and registered with your first Ranked match: 3 to 16 of A–Z a–z 0–9 _ -. \"Rename on server\" (ACCOUNT) changes a registered name.".into()),
        Row::Server => ("Server", "The Sevenbag server for online play, as host:port, or wss://host:port/ for a server with TLS. LAN games use the host's address instead.".into()),
        Row::TrustCert => ("Trusted cert", "A PEM certificate file to trust for wss:// servers besides the public web's authorities: a LAN or test server's self-signed one. Empty: none.".into()),
        Row::Das => ("DAS", format!("How long a direction key is held before the piece starts sliding on its own. 0–60 frames; now {} frames. Lower is faster; 6–10 is common.", h.das)),
        Row::Arr => ("ARR", "Frames between steps once the piece slides. 0 sends it straight to the wall; 0–30.".into()),
        Row::Dcd => ("DCD", "After a rotation, hold or new piece, sliding waits this many frames, so a slide does not carry over by accident. 0–30.".into()),
        Row::Sdf => ("SDF", "How many times faster than gravity soft drop falls, 1–60×; past 60 is ∞: instantly to the floor (as TETR.IO and Jstris), without locking.".into()),
        Row::Irs => ("IRS", "A rotate key held when a piece appears rotates it right away.".into()),
        Row::Ihs => ("IHS", "The hold key held when a piece appears holds it right away.".into()),
        Row::Volume => ("Volume", "Sound effects volume (0 mutes). Without a sound device the game stays silent.".into()),
        Row::Background => ("Background", "Gradient: a violet glow from the top. Plain: one dark colour, which costs less on a computer drawing without a graphics driver (software rendering).".into()),
        Row::Palette => ("Piece colours", "Guideline: the usual colours. Red–green safe: the Okabe–Ito colours, told apart with deuteranopia or protanopia. Blue–yellow safe: colours told apart with tritanopia.".into()),
        Row::Letters => ("Piece letters", "Draws each piece's letter (I O T S Z J L) on its blocks, on the board, in hold and in the queue, so pieces are told apart without colour.".into()),
        Row::HighContrast => ("High contrast", "A black background and well, white outlines on every block, a stronger grid and a brighter ghost.".into()),
        Row::ReducedMotion => ("Reduced motion", "No screen shake, no flashes on locks and line clears, no hard-drop trails, no pulsing or popping, no drifting shapes behind the menus.".into()),
        Row::ChatFilter => ("Chat filter", "On: common insults and slurs in room chat show as asterisks. To hide a player altogether, type /mute NAME in chat (this session) or /block NAME (kept by the server; never matched with them again).".into()),
        Row::Key(_, action) => (action.label(), "Enter (or click a key cap) and press the new key. Each key does one thing per key map: binding it here removes it elsewhere in the same map. Escape is always the menu key.".into()),
        Row::Pad(action) => (action.label(), "Enter, then press a gamepad button. A button does one thing: binding it here removes it from another action. Start is always the menu button; B is Back in menus and in play unless you bind it to an action. The d-pad and the left stick are the same buttons.".into()),
        Row::TouchMode => ("Touch controls", "Buttons on the screen for every action, in two clusters for your thumbs: the d-pad (move, soft drop below, hard drop above) and the rotations with hold. Auto shows them on a touch screen; on and off as they say. They use your DAS, ARR and SDF like keys, and several fingers at once work.".into()),
        Row::TouchSize => ("Button size", "The touch buttons' size, 60–160% of a thumb's width.".into()),
        Row::TouchInset => ("From the sides", "How far the two clusters sit from the screen's sides, as a share of its width.".into()),
        Row::TouchRaise => ("From the bottom", "How high the clusters sit above the bottom edge, as a share of the screen's height.".into()),
        Row::Save => ("Save", "Write the settings file and use these settings from now on.".into()),
        Row::Discard => ("Discard", "Leave without keeping any change made on this screen.".into()),
        Row::Defaults => ("Defaults", "Guideline keys, default handling (DAS 10, ARR 2, DCD 0, SDF 20), volume, the gradient background and the accessibility choices off. Name and server stay.".into()),
        Row::Section(_) | Row::Account(_) => ("", String::new()),
    }
}

/// SDF one step up or down the scale players expect: 1×, 2×, … 60×, then ∞ (stored as 0, the
/// core's instant soft drop) at the fast end.
fn step_sdf(sdf: u8, d: i32) -> u8 {
    let infinite = i32::from(MAX_SDF) + 1;
    let at = if sdf == 0 { infinite } else { i32::from(sdf) };
    match (at + d).clamp(1, infinite) {
        v if v == infinite => 0,
        v => v as u8,
    }
}

/// The largest finite SDF (`Handling::validate`'s bound).
const MAX_SDF: u8 = 60;

/// Shows the display choices of `config` at once: the background and the accessibility look.
pub fn show_display(config: &Config) {
    set_plain_background(config.plain_background);
    crate::render::look::set(config.look);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_action_of_every_map_has_a_row() {
        let rows = rows();
        for map in [MapId::Solo, MapId::LocalLeft, MapId::LocalRight] {
            for a in Action::ALL {
                assert!(rows.contains(&Row::Key(map, a)));
            }
        }
        assert!(
            !matches!(rows[1], Row::Section(_)),
            "the cursor starts on a real row"
        );
    }

    #[test]
    fn the_footer_says_what_enter_does_on_each_row() {
        for row in rows() {
            let hint = footer_hint(row);
            let says = match enter_does(row) {
                EnterDoes::Rebind => "Enter rebind",
                EnterDoes::Toggle => "Enter change",
                EnterDoes::Save => "Enter save",
                EnterDoes::Discard => "Enter discard",
                EnterDoes::Defaults => "Enter restore defaults",
                EnterDoes::Ask(AccountRow::Recovery) => "Enter show",
                EnterDoes::Ask(AccountRow::Import) => "Enter import",
                EnterDoes::Ask(AccountRow::Rename) => "Enter rename",
                EnterDoes::NextField => "Enter next",
                EnterDoes::Nothing => {
                    assert!(!hint.contains("Enter"), "{row:?}: {hint}");
                    continue;
                }
            };
            assert!(hint.contains(says), "{row:?}: {hint}");
        }
    }

    #[test]
    fn sdf_infinity_sits_past_60_at_the_fast_end() {
        assert_eq!(step_sdf(60, 1), 0, "60× then ∞");
        assert_eq!(step_sdf(0, 1), 0, "∞ is the top");
        assert_eq!(step_sdf(0, -1), 60);
        assert_eq!(step_sdf(1, -1), 1, "1× is the bottom");
        assert_eq!(step_sdf(20, 1), 21);
    }
}
