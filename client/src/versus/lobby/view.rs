//! Drawing a lobby form (online, room, LAN host or join): its rows with their values, the
//! hosts heard on the network, and the help text for the selected row.

use sevenbag_core::rules::MIN_GARBAGE_TRAVEL;

use crate::layout::list_layout;
use crate::net::online::transport::DEFAULT_GAME_PORT;
use crate::render::gfx::background;
use crate::render::widgets::{
    RowState, footer, heading, menu_row, scroll_marks, select_value, side_panel, value_row,
};
use crate::screen::{Ctx, FrameIo};

use super::{LobbyKind, LobbyScreen, Row, capitalise, footer_hint, on, row_label};

impl LobbyScreen {
    /// Draws the screen.
    pub(super) fn draw_view(&self, ctx: &Ctx, io: &FrameIo) {
        let gfx = &ctx.gfx;
        background(io.width, io.height);
        ctx.backdrop.draw();
        let rows = self.rows();
        let l = list_layout(io.width, io.height, rows.len());
        let (title, subtitle, go) = self.texts();
        heading(gfx, l.title, l.unit, &title, subtitle);
        let o = &self.options;
        let shown = self.nav.visible(&l, rows.len());
        scroll_marks(gfx, &shown, rows.len(), l.unit);
        for (i, r) in shown {
            let selected = i == self.nav.selected;
            let state = RowState {
                selected,
                enabled: true,
            };
            let t = ctx.time;
            let arrows = |v: String| {
                if selected {
                    format!("‹  {v}  ›")
                } else {
                    v
                }
            };
            let value = |label: &str, v: String| {
                value_row(gfx, r, l.unit, label, &arrows(v), state, false, t)
            };
            match rows[i] {
                Row::Server => value_row(
                    gfx,
                    r,
                    l.unit,
                    row_label(Row::Server),
                    self.server(ctx),
                    state,
                    selected,
                    t,
                ),
                Row::Code => {
                    value_row(
                        gfx,
                        r,
                        l.unit,
                        row_label(Row::Code),
                        &self.code,
                        state,
                        selected,
                        t,
                    );
                    if self.code_selected {
                        select_value(gfx, r, l.unit, &self.code);
                    }
                }
                Row::Address => value_row(
                    gfx,
                    r,
                    l.unit,
                    row_label(Row::Address),
                    &self.address,
                    state,
                    selected,
                    t,
                ),
                Row::Port => value(row_label(Row::Port), self.port.to_string()),
                Row::Host(h) => {
                    let (label, tag) = self.hosts.get(h).map_or_else(
                        || (String::new(), String::new()),
                        |h| {
                            (
                                format!("{} · room {}", h.beacon.name, h.beacon.code),
                                h.addr.to_string(),
                            )
                        },
                    );
                    menu_row(gfx, r, l.unit, &label, &tag, state, t)
                }
                Row::Preset => value(row_label(Row::Preset), capitalise(o.preset.name())),
                Row::FirstTo => value(row_label(Row::FirstTo), format!("{} rounds", o.first_to)),
                Row::Randomizer => {
                    value(row_label(Row::Randomizer), o.randomizer.name().to_owned())
                }
                Row::Allow180 => value(row_label(Row::Allow180), on(o.allow_180)),
                Row::Travel => value(
                    row_label(Row::Travel),
                    format!("{} frames", o.garbage_travel),
                ),
                Row::Cap => value(row_label(Row::Cap), format!("{} lines", o.garbage_cap)),
                Row::Messiness => value(row_label(Row::Messiness), format!("{}%", o.messiness)),
                Row::Reconnect => value(
                    row_label(Row::Reconnect),
                    format!("{} s", o.reconnect_seconds),
                ),
                Row::Go => menu_row(gfx, r, l.unit, go, "ENTER", state, t),
                Row::Back => menu_row(gfx, r, l.unit, "Back", "ESC", state, t),
            }
        }
        let (head, body) = self.help(
            rows[self.nav.selected.min(rows.len() - 1)],
            &ctx.config.player_name,
            &ctx.config.server,
        );
        side_panel(gfx, l.side, l.unit, head, &body);
        let right = match self.kind {
            LobbyKind::LanHost | LobbyKind::LanJoin => "LAN".to_owned(),
            _ => self.server(ctx).to_owned(),
        };
        let at = self.nav.selected.min(rows.len() - 1);
        let typing = matches!(rows[at], Row::Code | Row::Address | Row::Server);
        let hint = footer_hint(
            self.kind,
            self.enter_does(&rows, at, &ctx.config.server),
            typing,
        );
        footer(gfx, l.footer, l.unit, &hint, &right);
    }

    /// The side panel's title and text for `row`, for a player called `name` whose Settings
    /// name `settings_server`. It says what the row does; nothing is connected on this screen
    /// (a connection lives on the screen "Go" opens, and is gone when it closes).
    pub(super) fn help(
        &self,
        row: Row,
        name: &str,
        settings_server: &str,
    ) -> (&'static str, String) {
        let server = self.server.as_deref().unwrap_or(settings_server);
        match row {
            Row::Server => ("Server", format!("The Sevenbag server, as host:port (port 7878 when left out). A server typed here is for this screen only: the default stays as set in Settings ({settings_server}). You play as {name} with your handling from Settings.")),
            Row::Code => ("Room code", "Five letters or digits, as the room's creator sees them. Case does not matter.".into()),
            Row::Address => ("Host address", "The address the LAN host shows, like 192.168.1.20:7878 (the port defaults to 7878).".into()),
            Row::Port => ("Port", format!("The TCP port your game server listens on (default {DEFAULT_GAME_PORT}). If it is busy another one is picked. Others find you through a beacon on UDP port {}.", crate::net::lan::BEACON_PORT)),
            Row::Host(_) => ("Game on your network", format!("Heard through its beacon in the last few seconds. {} joins it.", crate::input::taps::hint("Enter", "A tap"))),
            Row::Preset => ("Rules", "Versus: 7-bag, 180°, cap 8. Classic: memoryless pieces, no 180°, cap 4. Chaos: messy garbage, cap 12. Changing it resets the options below to the preset.".into()),
            Row::FirstTo => ("First to", "Round wins needed to take the match.".into()),
            Row::Randomizer => ("Randomizer", "7bag: every piece once per 7. 14bag: two of each per 14. random: memoryless. history: TGM-style rerolls.".into()),
            Row::Allow180 => ("180° rotation", "Whether the rotate 180° key works in this room.".into()),
            Row::Travel => ("Garbage travel", format!("Frames before sent lines can rise on the other board. At least {MIN_GARBAGE_TRAVEL} (the prediction window), so a correction never changes your own board.")),
            Row::Cap => ("Garbage cap", "Most garbage lines that rise at once after a piece locks.".into()),
            Row::Messiness => ("Messiness", "Chance that each garbage line moves its hole: 0% is clean stacks, 100% is every line different.".into()),
            Row::Reconnect => ("Reconnect window", "Seconds a dropped player may take to come back before forfeiting.".into()),
            Row::Go | Row::Back => match self.kind {
                LobbyKind::LanJoin => ("Join on LAN", match &self.listener {
                    Some(Err(e)) => format!("Cannot listen for games on UDP port {}: {e}. Type the host's address and room code instead.", crate::net::lan::BEACON_PORT),
                    _ if self.hosts.is_empty() => "Listening for games on your network… none yet. Or type the host's address and the room code.".into(),
                    _ => format!("{} game(s) found on your network.", self.hosts.len()),
                }),
                LobbyKind::LanHost => ("Host on LAN", "Starts a game server on this computer, creates a room on it and announces it on your network. Your friends pick it under LAN: join a game.".into()),
                _ if row == Row::Back => ("Back", "Back to the menu.".into()),
                _ => ("Online", format!("{} connects to {server} as {name}, with your handling from Settings.", self.texts().2)),
            },
        }
    }
}
