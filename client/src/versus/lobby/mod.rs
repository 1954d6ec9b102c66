//! Online and LAN entry forms: quick match, create room (every room option), join or spectate by
//! code, host or join on the LAN. "Go" opens the
//! [`OnlineScreen`](crate::versus::online::OnlineScreen) with a live connection.

mod go;
mod view;

pub(crate) use go::{connection_as, player_connection};

use sevenbag_netplay::time::Instant;

use macroquad::input::KeyCode;
use sevenbag_core::rules::MIN_GARBAGE_TRAVEL;
use sevenbag_core::{Preset, Randomizer};
use sevenbag_protocol::RoomOptions;

use crate::layout::list_layout;
use crate::list_nav::{ListEvent, ListNav};
use crate::net::lan::{BeaconListener, LanHost};
use crate::net::online::transport::DEFAULT_GAME_PORT;
use crate::screen::{Ctx, FrameIo, Screen, TextField, TextKind, Transition};
use crate::sound::sfx::Sfx;

/// What Enter does on a row: the handler acts on it and the footer says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum EnterDoes {
    /// Connects (the form's action: find a match, create, join, watch, host, connect).
    Go,
    /// Joins the LAN game under the cursor.
    JoinHost,
    /// Moves to the next row (a text field with empty fields after it).
    NextField,
    /// Steps the value, as → does.
    Change,
    /// Leaves the screen.
    Back,
}

/// The footer's key hints for what Enter does on the row under the cursor, `typing` when that
/// row is a text field.
fn footer_hint(kind: LobbyKind, does: EnterDoes, typing: bool) -> String {
    let enter = match does {
        EnterDoes::Go => format!("Enter {}", go_verb(kind)),
        EnterDoes::JoinHost => "Enter join".to_owned(),
        EnterDoes::NextField => "Enter next".to_owned(),
        EnterDoes::Change => "← → or Enter change".to_owned(),
        EnterDoes::Back => "Enter back".to_owned(),
    };
    if typing {
        format!("↑ ↓ choose   type to edit   {enter}   Esc back")
    } else {
        format!("↑ ↓ choose   {enter}   Esc back")
    }
}

/// The footer's word for the form's action.
fn go_verb(kind: LobbyKind) -> &'static str {
    match kind {
        LobbyKind::QuickMatch | LobbyKind::Ranked => "find a match",
        LobbyKind::CreateRoom => "create",
        LobbyKind::JoinRoom => "join",
        LobbyKind::Spectate => "watch",
        LobbyKind::LanHost => "host",
        LobbyKind::LanJoin => "connect",
    }
}

/// Every footer the lobby forms show, for the layout tests.
#[cfg(test)]
pub fn footers() -> Vec<String> {
    let mut v = Vec::new();
    for kind in ALL_KINDS {
        for does in [
            EnterDoes::Go,
            EnterDoes::JoinHost,
            EnterDoes::NextField,
            EnterDoes::Change,
            EnterDoes::Back,
        ] {
            for typing in [false, true] {
                v.push(footer_hint(kind, does, typing));
            }
        }
    }
    v
}

/// Every kind of form.
#[cfg(test)]
const ALL_KINDS: [LobbyKind; 7] = [
    LobbyKind::QuickMatch,
    LobbyKind::Ranked,
    LobbyKind::CreateRoom,
    LobbyKind::JoinRoom,
    LobbyKind::Spectate,
    LobbyKind::LanHost,
    LobbyKind::LanJoin,
];

/// Which online or LAN action this screen sets up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LobbyKind {
    /// Matchmaking on the configured server.
    QuickMatch,
    /// Ranked matchmaking (identity from the key file).
    Ranked,
    /// A private room with chosen rules.
    CreateRoom,
    /// Joining a room by its code.
    JoinRoom,
    /// Watching a room by its code.
    Spectate,
    /// Hosting a server on this machine for the local network.
    LanHost,
    /// Joining a LAN host by address.
    LanJoin,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Row {
    Server,
    Code,
    Address,
    Port,
    Host(usize),
    Preset,
    FirstTo,
    Randomizer,
    Allow180,
    Travel,
    Cap,
    Messiness,
    Reconnect,
    Go,
    Back,
}

/// Longest room code accepted in the field.
const MAX_CODE: usize = 8;

/// The screen.
pub struct LobbyScreen {
    kind: LobbyKind,
    nav: ListNav,
    code: String,
    /// The code was used (Go pressed with it) and is shown selected: the next character typed
    /// replaces it, Backspace clears it, so a new code never runs on from the last one.
    code_selected: bool,
    address: String,
    port: u16,
    options: RoomOptions,
    listener: Option<Result<BeaconListener, String>>,
    hosts: Vec<LanHost>,
    /// The server typed on this screen; `None` uses the one in Settings, which this screen
    /// never changes.
    server: Option<String>,
    /// The friend a created room invites once it exists (a challenge from the Friends screen).
    challenge: Option<String>,
}

impl LobbyScreen {
    /// A form for `kind`.
    pub fn new(kind: LobbyKind) -> LobbyScreen {
        LobbyScreen {
            kind,
            nav: ListNav::default(),
            code: String::new(),
            code_selected: false,
            address: String::new(),
            port: DEFAULT_GAME_PORT,
            options: RoomOptions::default(),
            listener: None,
            hosts: Vec::new(),
            server: None,
            challenge: None,
        }
    }

    /// The create-room form for challenging friend `name`: the room they are invited to is
    /// made with the rules chosen here.
    pub fn challenge(name: &str) -> LobbyScreen {
        LobbyScreen {
            challenge: Some(name.to_owned()),
            ..LobbyScreen::new(LobbyKind::CreateRoom)
        }
    }

    fn option_rows() -> [Row; 9] {
        [
            Row::Preset,
            Row::FirstTo,
            Row::Randomizer,
            Row::Allow180,
            Row::Travel,
            Row::Cap,
            Row::Messiness,
            Row::Reconnect,
            Row::Go,
        ]
    }

    fn rows(&self) -> Vec<Row> {
        let mut v = match self.kind {
            LobbyKind::QuickMatch | LobbyKind::Ranked => vec![Row::Server, Row::Go],
            LobbyKind::CreateRoom => {
                let mut v = vec![Row::Server];
                v.extend(Self::option_rows());
                v
            }
            LobbyKind::JoinRoom | LobbyKind::Spectate => vec![Row::Code, Row::Server, Row::Go],
            LobbyKind::LanHost => {
                let mut v = vec![Row::Port];
                v.extend(Self::option_rows());
                v
            }
            LobbyKind::LanJoin => {
                let mut v: Vec<Row> = (0..self.hosts.len()).map(Row::Host).collect();
                v.extend([Row::Address, Row::Code, Row::Go]);
                v
            }
        };
        v.push(Row::Back);
        v
    }

    fn texts(&self) -> (String, &'static str, &'static str) {
        if let (LobbyKind::CreateRoom, Some(name)) = (self.kind, &self.challenge) {
            return (
                format!("Challenge {name}"),
                "Your rules: they get an invite once the room is made",
                "Create and invite",
            );
        }
        let (title, subtitle, go) = self.plain_texts();
        (title.to_owned(), subtitle, go)
    }

    fn plain_texts(&self) -> (&'static str, &'static str, &'static str) {
        match self.kind {
            LobbyKind::QuickMatch => (
                "Quick match",
                "Play the next player waiting on your server",
                "Find a match",
            ),
            LobbyKind::Ranked => (
                "Ranked match",
                "Play someone near your rating",
                "Find a ranked match",
            ),
            LobbyKind::CreateRoom => (
                "Create room",
                "A private room with a code to share",
                "Create the room",
            ),
            LobbyKind::JoinRoom => ("Join room", "Type the code a friend gave you", "Join"),
            LobbyKind::Spectate => ("Spectate", "Watch a live match by its room code", "Watch"),
            LobbyKind::LanHost => (
                "Host on LAN",
                "Players on your network join you directly",
                "Start hosting",
            ),
            LobbyKind::LanJoin => (
                "Join on LAN",
                "Games announced on your network, or an address",
                "Connect to the address",
            ),
        }
    }

    fn adjust(&mut self, row: Row, d: i32) {
        let o = &mut self.options;
        let cycle = |v: usize, n: usize| (v as i32 + d).rem_euclid(n as i32) as usize;
        match row {
            Row::Preset => {
                let i = Preset::ALL.iter().position(|p| *p == o.preset).unwrap_or(0);
                let reconnect = o.reconnect_seconds;
                *o = RoomOptions::from_preset(Preset::ALL[cycle(i, Preset::ALL.len())]);
                o.reconnect_seconds = reconnect;
            }
            Row::FirstTo => o.first_to = (i32::from(o.first_to) + d).clamp(1, 9) as u8,
            Row::Randomizer => {
                let i = Randomizer::ALL
                    .iter()
                    .position(|r| *r == o.randomizer)
                    .unwrap_or(0);
                o.randomizer = Randomizer::ALL[cycle(i, Randomizer::ALL.len())];
            }
            Row::Allow180 => o.allow_180 = !o.allow_180,
            Row::Travel => {
                o.garbage_travel = (i32::from(o.garbage_travel) + 6 * d)
                    .clamp(i32::from(MIN_GARBAGE_TRAVEL), 240)
                    as u16
            }
            Row::Cap => o.garbage_cap = (i32::from(o.garbage_cap) + d).clamp(1, 40) as u8,
            Row::Messiness => o.messiness = (i32::from(o.messiness) + 10 * d).clamp(0, 100) as u8,
            Row::Reconnect => {
                o.reconnect_seconds = (i32::from(o.reconnect_seconds) + 5 * d).clamp(0, 120) as u8
            }
            Row::Port => self.port = (i32::from(self.port) + d).clamp(1024, 65535) as u16,
            _ => {}
        }
    }

    /// What Enter does on row `i` of `rows` (`settings_server`: the server in Settings, used
    /// when none is typed here). On a text field it moves on, unless every field after it is
    /// already filled in (the server always is): then it submits, so a room code and one Enter
    /// join.
    fn enter_does(&self, rows: &[Row], i: usize, settings_server: &str) -> EnterDoes {
        match rows[i] {
            Row::Back => EnterDoes::Back,
            Row::Go => EnterDoes::Go,
            Row::Host(_) => EnterDoes::JoinHost,
            Row::Code | Row::Address | Row::Server => {
                let server = self.server.as_deref().unwrap_or(settings_server);
                let filled = |r: &Row| match r {
                    Row::Code => !self.code.trim().is_empty(),
                    Row::Address => !self.address.trim().is_empty(),
                    Row::Server => !server.trim().is_empty(),
                    _ => false,
                };
                let mut rest = rows[i + 1..].iter().take_while(|r| **r != Row::Go);
                if rest.all(filled) && rows[i + 1..].contains(&Row::Go) {
                    EnterDoes::Go
                } else {
                    EnterDoes::NextField
                }
            }
            _ => EnterDoes::Change,
        }
    }

    /// Typing in the code field: letters and digits in capitals, up to [`MAX_CODE`]; over a
    /// selected code (one already used) the first key replaces it.
    fn type_code(&mut self, chars: &[char], backspace: bool) {
        let typed: Vec<char> = chars
            .iter()
            .filter(|c| c.is_ascii_alphanumeric())
            .map(char::to_ascii_uppercase)
            .collect();
        if self.code_selected && (backspace || !typed.is_empty()) {
            self.code_selected = false;
            self.code.clear();
            if backspace && typed.is_empty() {
                return;
            }
        }
        for c in typed {
            if self.code.len() < MAX_CODE {
                self.code.push(c);
            }
        }
        if backspace {
            self.code.pop();
        }
    }

    /// Go was pressed: back on this form, the code shows selected, and a new one is typed
    /// over it.
    fn code_used(&mut self) {
        self.code_selected = !self.code.is_empty();
    }

    /// The server this screen connects to: the one typed here, else the one in Settings.
    fn server<'a>(&'a self, ctx: &'a Ctx) -> &'a str {
        self.server.as_deref().unwrap_or(&ctx.config.server)
    }
}

impl Screen for LobbyScreen {
    /// Handles the frame.
    fn update(&mut self, ctx: &mut Ctx, io: &FrameIo) -> Transition {
        ctx.backdrop.advance(io.dt, io.width, io.height);
        if self.kind == LobbyKind::LanJoin {
            let listener = self
                .listener
                .get_or_insert_with(|| BeaconListener::open().map_err(|e| e.to_string()));
            if let Ok(l) = listener {
                l.poll(Instant::now());
                self.hosts = l.hosts();
            }
        }
        let rows = self.rows();
        let layout = list_layout(io.width, io.height, rows.len());
        self.nav.selected = self.nav.selected.min(rows.len() - 1);
        let row = rows[self.nav.selected];
        let kb = &io.keyboard;
        let typing = matches!(row, Row::Code | Row::Address | Row::Server);
        match row {
            Row::Code => self.type_code(&kb.chars, kb.pressed(KeyCode::Backspace)),
            Row::Address => {
                for c in &kb.chars {
                    if (c.is_ascii_alphanumeric() || ".:-[]".contains(*c))
                        && self.address.len() < 64
                    {
                        self.address.push(*c);
                    }
                }
                if kb.pressed(KeyCode::Backspace) {
                    self.address.pop();
                }
            }
            Row::Server => {
                let server = self.server.get_or_insert_with(|| ctx.config.server.clone());
                for c in &kb.chars {
                    if !c.is_control() && server.len() < crate::config::MAX_ADDRESS {
                        server.push(*c);
                    }
                }
                if kb.pressed(KeyCode::Backspace) {
                    server.pop();
                }
            }
            _ => {}
        }
        let before = self.nav.selected;
        let is_field = |i: usize| matches!(rows[i], Row::Code | Row::Address | Row::Server);
        let event =
            self.nav
                .handle_with_fields(io, &layout, rows.len(), &|_| true, typing, &is_field);
        if before != self.nav.selected {
            ctx.play(Sfx::Move);
        }
        match event {
            ListEvent::Back => Transition::Pop,
            ListEvent::Adjust(i, d) => {
                self.adjust(rows[i], d);
                Transition::None
            }
            ListEvent::Activate(i) => match self.enter_does(&rows, i, &ctx.config.server) {
                EnterDoes::Back => Transition::Pop,
                EnterDoes::Go => self.go(ctx, None),
                EnterDoes::JoinHost => match rows[i] {
                    Row::Host(h) => self.go(ctx, Some(h)),
                    _ => Transition::None,
                },
                EnterDoes::NextField => {
                    self.nav.step(1, rows.len(), &|_| true);
                    Transition::None
                }
                EnterDoes::Change => {
                    self.adjust(rows[i], 1);
                    Transition::None
                }
            },
            ListEvent::None => Transition::None,
        }
    }

    fn draw(&self, ctx: &Ctx, io: &FrameIo) {
        self.draw_view(ctx, io);
    }

    fn calm(&self) -> bool {
        true
    }

    fn text_fields(&self, ctx: &Ctx, io: &FrameIo) -> Vec<TextField> {
        let rows = self.rows();
        let layout = list_layout(io.width, io.height, rows.len());
        self.nav
            .visible(&layout, rows.len())
            .into_iter()
            .filter_map(|(i, rect)| {
                let (kind, text) = match rows[i] {
                    Row::Code => (TextKind::Code, self.code.clone()),
                    Row::Address => (TextKind::Address, self.address.clone()),
                    Row::Server => (
                        TextKind::Address,
                        self.server
                            .clone()
                            .unwrap_or_else(|| ctx.config.server.clone()),
                    ),
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
        "lobby"
    }
}

/// The label of a value row.
fn row_label(row: Row) -> &'static str {
    match row {
        Row::Server => "Server",
        Row::Code => "Room code",
        Row::Address => "Host address",
        Row::Port => "Port",
        Row::Preset => "Rules",
        Row::FirstTo => "First to",
        Row::Randomizer => "Randomizer",
        Row::Allow180 => "180° rotation",
        Row::Travel => "Garbage travel",
        Row::Cap => "Garbage cap",
        Row::Messiness => "Messiness",
        Row::Reconnect => "Reconnect window",
        Row::Host(_) | Row::Go | Row::Back => "",
    }
}

/// Every value row's label with the widest values it shows (selected, with its ‹ › hints), and
/// whether players type it, for the layout tests.
#[cfg(test)]
pub fn value_rows() -> Vec<(&'static str, Vec<String>, bool)> {
    let arrows = |v: &str| format!("‹  {v}  ›");
    let presets = Preset::ALL.iter().map(|p| arrows(&capitalise(p.name())));
    let randomizers = Randomizer::ALL.iter().map(|r| arrows(r.name()));
    vec![
        (row_label(Row::Server), vec![], true),
        (row_label(Row::Code), vec![], true),
        (row_label(Row::Address), vec![], true),
        (row_label(Row::Port), vec![arrows("65535")], false),
        (row_label(Row::Preset), presets.collect(), false),
        (row_label(Row::FirstTo), vec![arrows("9 rounds")], false),
        (row_label(Row::Randomizer), randomizers.collect(), false),
        (row_label(Row::Allow180), vec![arrows("off")], false),
        (row_label(Row::Travel), vec![arrows("240 frames")], false),
        (row_label(Row::Cap), vec![arrows("40 lines")], false),
        (row_label(Row::Messiness), vec![arrows("100%")], false),
        (row_label(Row::Reconnect), vec![arrows("120 s")], false),
    ]
}

/// Every form's action row label (with its ENTER tag), for the layout tests.
#[cfg(test)]
pub fn go_labels() -> Vec<&'static str> {
    ALL_KINDS
        .iter()
        .map(|k| LobbyScreen::new(*k).texts().2)
        .collect()
}

fn on(b: bool) -> String {
    if b { "on" } else { "off" }.to_owned()
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_footer_says_what_enter_does_on_each_row_of_each_form() {
        for kind in ALL_KINDS {
            for code in ["", "ABCDE"] {
                for address in ["", "192.168.1.20"] {
                    let mut screen = LobbyScreen::new(kind);
                    screen.code = code.to_owned();
                    screen.address = address.to_owned();
                    let rows = screen.rows();
                    for (i, row) in rows.iter().enumerate() {
                        let does = screen.enter_does(&rows, i, "127.0.0.1:7878");
                        let typing = matches!(row, Row::Code | Row::Address | Row::Server);
                        let hint = footer_hint(kind, does, typing);
                        let says = match does {
                            EnterDoes::Go => format!("Enter {}", go_verb(kind)),
                            EnterDoes::JoinHost => "Enter join".to_owned(),
                            EnterDoes::NextField => "Enter next".to_owned(),
                            EnterDoes::Change => "Enter change".to_owned(),
                            EnterDoes::Back => "Enter back".to_owned(),
                        };
                        assert!(hint.contains(&says), "{kind:?} {row:?}: {hint}");
                        assert_eq!(typing, hint.contains("type to edit"), "{hint}");
                    }
                }
            }
        }
    }

    #[test]
    fn the_side_panel_says_what_the_action_will_do_never_that_it_is_connecting() {
        for kind in ALL_KINDS {
            let screen = LobbyScreen::new(kind);
            for row in screen.rows() {
                let (_, text) = screen.help(row, "Alice", "127.0.0.1:7878");
                assert!(!text.contains("Connecting"), "{kind:?} {row:?}: {text}");
            }
        }
        let screen = LobbyScreen::new(LobbyKind::JoinRoom);
        let (_, go) = screen.help(Row::Go, "Alice", "127.0.0.1:7878");
        assert_eq!(
            go,
            "Join connects to 127.0.0.1:7878 as Alice, with your handling from Settings."
        );
    }

    #[test]
    fn a_new_code_is_typed_over_the_one_last_used() {
        let chars = |s: &str| s.chars().collect::<Vec<_>>();
        let mut screen = LobbyScreen::new(LobbyKind::JoinRoom);
        screen.type_code(&chars("abcde"), false);
        assert_eq!(screen.code, "ABCDE");
        screen.code_used();
        screen.type_code(&chars("X"), false);
        screen.type_code(&chars("Y7Z2Q"), false);
        assert_eq!(
            screen.code, "XY7Z2Q",
            "typing replaced the old code, then went on"
        );
        screen.code_used();
        screen.type_code(&[], true);
        assert_eq!(screen.code, "", "Backspace clears a used code");
        screen.type_code(&chars("k3"), false);
        screen.type_code(&[], true);
        assert_eq!(screen.code, "K", "and then deletes one character");
    }

    #[test]
    fn enter_on_a_room_code_joins_once_the_server_is_known() {
        let mut screen = LobbyScreen::new(LobbyKind::JoinRoom);
        let rows = screen.rows();
        assert_eq!(rows[0], Row::Code);
        screen.code = "ABCDE".into();
        assert_eq!(screen.enter_does(&rows, 0, "host:7878"), EnterDoes::Go);
        assert_eq!(screen.enter_does(&rows, 0, ""), EnterDoes::NextField);
    }
}
