//! Online and LAN entry screens: the forms are real (codes, addresses), the connection arrives
//! with the online build (phase 2), and until then "Go" explains that clearly and stays usable.

use macroquad::input::KeyCode;
use sevenbag_core::Preset;

use crate::layout::list_layout;
use crate::render::gfx::background;
use crate::render::theme;
use crate::render::widgets::{RowState, footer, heading, menu_row, side_panel, value_row};
use crate::screen::{Ctx, FrameIo, Transition};
use crate::screens::list::{ListEvent, ListNav};
use crate::sfx::Sfx;

/// Which online or LAN action this screen sets up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LobbyKind {
    /// Matchmaking on the configured server.
    QuickMatch,
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
    Rules,
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
    address: String,
    port: u16,
    preset: usize,
}

impl LobbyScreen {
    /// A form for `kind`.
    pub fn new(kind: LobbyKind) -> LobbyScreen {
        LobbyScreen {
            kind,
            nav: ListNav::default(),
            code: String::new(),
            address: String::new(),
            port: 7070,
            preset: 0,
        }
    }

    fn rows(&self) -> Vec<Row> {
        match self.kind {
            LobbyKind::QuickMatch => vec![Row::Server, Row::Go, Row::Back],
            LobbyKind::CreateRoom => vec![Row::Server, Row::Rules, Row::Go, Row::Back],
            LobbyKind::JoinRoom | LobbyKind::Spectate => {
                vec![Row::Code, Row::Server, Row::Go, Row::Back]
            }
            LobbyKind::LanHost => vec![Row::Port, Row::Rules, Row::Go, Row::Back],
            LobbyKind::LanJoin => vec![Row::Address, Row::Go, Row::Back],
        }
    }

    fn texts(&self) -> (&'static str, &'static str, &'static str) {
        match self.kind {
            LobbyKind::QuickMatch => (
                "Quick match",
                "Play the next player waiting on your server",
                "Find a match",
            ),
            LobbyKind::CreateRoom => (
                "Create room",
                "A private room with a code to share",
                "Create the room",
            ),
            LobbyKind::JoinRoom => ("Join room", "Enter the code a friend gave you", "Join"),
            LobbyKind::Spectate => ("Spectate", "Watch a live match by its room code", "Watch"),
            LobbyKind::LanHost => (
                "Host on LAN",
                "Players on your network join you directly",
                "Start hosting",
            ),
            LobbyKind::LanJoin => (
                "Join on LAN",
                "Connect to a host on your network",
                "Connect",
            ),
        }
    }

    /// Handles the frame.
    pub fn update(&mut self, ctx: &mut Ctx, io: &FrameIo) -> Transition {
        ctx.backdrop.advance(io.dt, io.width, io.height);
        let rows = self.rows();
        let layout = list_layout(io.width, io.height, rows.len());
        let row = rows[self.nav.selected.min(rows.len() - 1)];
        let kb = &io.keyboard;
        let typing = matches!(row, Row::Code | Row::Address | Row::Server);
        match row {
            Row::Code => {
                for c in &kb.chars {
                    if c.is_ascii_alphanumeric() && self.code.len() < MAX_CODE {
                        self.code.push(c.to_ascii_uppercase());
                    }
                }
                if kb.pressed(KeyCode::Backspace) {
                    self.code.pop();
                }
            }
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
                let server = &mut ctx.config.server;
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
        let event = self.nav.handle(io, &layout, rows.len(), &|_| true, typing);
        if before != self.nav.selected {
            ctx.play(Sfx::Move);
        }
        match event {
            ListEvent::Back => Transition::Pop,
            ListEvent::Adjust(i, d) => {
                match rows[i] {
                    Row::Rules => {
                        self.preset =
                            (self.preset as i32 + d).rem_euclid(Preset::ALL.len() as i32) as usize
                    }
                    Row::Port => self.port = (i32::from(self.port) + d).clamp(1024, 65535) as u16,
                    _ => {}
                }
                Transition::None
            }
            ListEvent::Activate(i) => match rows[i] {
                Row::Back => Transition::Pop,
                Row::Go => {
                    if matches!(self.kind, LobbyKind::JoinRoom | LobbyKind::Spectate)
                        && self.code.is_empty()
                    {
                        ctx.notify("Type the room code first.", theme::GARBAGE_QUEUED);
                    } else if self.kind == LobbyKind::LanJoin && self.address.is_empty() {
                        ctx.notify(
                            "Type the host's address first (for example 192.168.1.20:7070).",
                            theme::GARBAGE_QUEUED,
                        );
                    } else {
                        ctx.play(Sfx::Select);
                        ctx.notify(
                            "Online and LAN play come with the online build of Sevenbag; this build plays offline. Try Practice vs bot or Local 2 players meanwhile.",
                            theme::ACCENT2,
                        );
                    }
                    Transition::None
                }
                Row::Rules => {
                    self.preset = (self.preset + 1) % Preset::ALL.len();
                    Transition::None
                }
                _ => {
                    self.nav.step(1, rows.len(), &|_| true);
                    Transition::None
                }
            },
            ListEvent::None => Transition::None,
        }
    }

    /// Draws the screen.
    pub fn draw(&self, ctx: &Ctx, io: &FrameIo) {
        let gfx = &ctx.gfx;
        background(io.width, io.height);
        ctx.backdrop.draw();
        let rows = self.rows();
        let l = list_layout(io.width, io.height, rows.len());
        let (title, subtitle, go) = self.texts();
        heading(gfx, l.title, l.unit, title, subtitle);
        for (i, r) in self.nav.visible(&l, rows.len()) {
            let selected = i == self.nav.selected;
            let state = RowState {
                selected,
                enabled: true,
            };
            let t = ctx.time;
            match rows[i] {
                Row::Server => value_row(
                    gfx,
                    r,
                    l.unit,
                    "Server",
                    &ctx.config.server,
                    state,
                    selected,
                    t,
                ),
                Row::Code => value_row(gfx, r, l.unit, "Room code", &self.code, state, selected, t),
                Row::Address => value_row(
                    gfx,
                    r,
                    l.unit,
                    "Host address",
                    &self.address,
                    state,
                    selected,
                    t,
                ),
                Row::Port => value_row(
                    gfx,
                    r,
                    l.unit,
                    "Port",
                    &format!("‹  {}  ›", self.port),
                    state,
                    false,
                    t,
                ),
                Row::Rules => {
                    let name = Preset::ALL[self.preset].name();
                    value_row(
                        gfx,
                        r,
                        l.unit,
                        "Rules",
                        &format!("‹  {name}  ›"),
                        state,
                        false,
                        t,
                    )
                }
                Row::Go => menu_row(gfx, r, l.unit, go, "ONLINE BUILD", state, t),
                Row::Back => menu_row(gfx, r, l.unit, "Back", "", state, t),
            }
        }
        side_panel(
            gfx,
            l.side,
            l.unit,
            "Coming with the online build",
            "This build of Sevenbag plays offline only: the network client and the LAN host are being finished.\n\nEverything you set here is kept, and the same match screen, rules and bot are used online, so what you practise now is exactly what you will play.",
        );
        footer(
            gfx,
            l.footer,
            l.unit,
            "↑ ↓ choose   type to edit   Enter select   Esc back",
            "offline build",
        );
    }
}
