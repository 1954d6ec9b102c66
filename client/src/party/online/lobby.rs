//! The room before (and between) matches: the code, who sits in each seat and who is ready,
//! the room's rules, and the rows to ready up, copy the room's link or leave.

use macroquad::input::KeyCode;
use sevenbag_protocol::{BattleRoomOptions, SeatStatus};

use super::PartyOnlineScreen;
use crate::layout::list_layout;
use crate::list_nav::{ListEvent, ListNav};
use crate::net::battle::{BattleOnline, BattleStage};
use crate::render::gfx::background;
use crate::render::key_buttons::{KeyChoice, footer_keys};
use crate::render::widgets::{RowState, footer, heading, menu_row, side_panel};
use crate::screen::{Ctx, FrameIo, Picked, Transition};
use crate::sound::sfx::Sfx;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Row {
    Ready,
    /// Invite a friend (only on an identified connection).
    Invite,
    CopyLink,
    Leave,
}

/// The rows shown for `o`.
/// The rows shown for `o`; a room hosted on the LAN (`lan`) has no page link and no invites
/// (its address is the host's own).
pub(super) fn rows(o: &BattleOnline, lan: bool) -> Vec<Row> {
    let mut rows = match o.stage() {
        BattleStage::InRoom if lan && o.seat().is_some() => vec![Row::Ready, Row::Leave],
        BattleStage::InRoom if o.seat().is_some() => vec![Row::Ready, Row::CopyLink, Row::Leave],
        BattleStage::InRoom if !lan => vec![Row::CopyLink, Row::Leave],
        _ => vec![Row::Leave],
    };
    if !lan && o.may_invite() && matches!(o.stage(), BattleStage::InRoom) {
        rows.insert(rows.len() - 2, Row::Invite);
    }
    rows
}

/// The room's rules in a line: "5 seats · targeting even · 2 teams · badges · first to 2".
/// A room of two seats is a versus match, where targeting and badges mean nothing: "versus ·
/// first to 3".
pub fn rules_line(o: &BattleRoomOptions) -> String {
    if o.seats == 2 && o.battle.teams.is_none() {
        let mut s = "versus".to_owned();
        if o.room.first_to > 1 {
            s.push_str(&format!("  ·  first to {}", o.room.first_to));
        }
        return s;
    }
    let mut s = format!(
        "{} seats  ·  targeting {}",
        o.seats,
        o.battle.targeting.name()
    );
    if let Some(teams) = o.battle.teams {
        let n = teams[..usize::from(o.seats)]
            .iter()
            .max()
            .map_or(0, |t| t + 1);
        s.push_str(&format!("  ·  {n} teams"));
    }
    if o.battle.badges {
        s.push_str("  ·  badges");
    }
    if o.room.first_to > 1 {
        s.push_str(&format!("  ·  first to {}", o.room.first_to));
    }
    s
}

/// Who sits where, one line a seat, yours marked, then the spectators.
pub fn seats_text(o: &BattleOnline) -> String {
    let mut lines = Vec::new();
    for (i, seat) in o.room().iter().enumerate() {
        let you = if o.seat() == Some(i as u8) {
            " (you)"
        } else {
            ""
        };
        let line = match seat {
            None => format!("{}   — free —", i + 1),
            Some(s) => {
                let state = match s.status {
                    SeatStatus::Connected if s.ready => "ready",
                    SeatStatus::Connected => "not ready",
                    SeatStatus::Reconnecting { .. } => "reconnecting",
                    SeatStatus::Forfeited => "left",
                };
                format!("{}   {}{you}   ·   {state}", i + 1, s.name)
            }
        };
        lines.push(line);
    }
    let watching = o.spectators();
    if watching > 0 {
        lines.push(format!("\n{watching} watching"));
    }
    lines.join("\n")
}

impl PartyOnlineScreen {
    /// The lobby's frame: the rows (Enter readies, copies the link or leaves), Esc leaves.
    pub(super) fn update_lobby(&mut self, ctx: &mut Ctx, io: &FrameIo) -> Transition {
        if let Some(picker) = &mut self.picker {
            match picker.update(ctx, io) {
                Picked::Nothing => {}
                Picked::Closed => self.picker = None,
                Picked::Friend(name) => {
                    self.picker = None;
                    self.online_mut().invite(&name);
                }
            }
            return Transition::None;
        }
        let rows = rows(self.online(), self.lan_address().is_some());
        let l = list_layout(io.width, io.height, rows.len());
        let mut nav = ListNav::at(self.lobby_row.min(rows.len() - 1));
        let before = nav.selected;
        let event = nav.handle(io, &l, rows.len(), &|_| true, false);
        self.lobby_row = nav.selected;
        if before != nav.selected {
            ctx.play(Sfx::Move);
        }
        match event {
            ListEvent::Back => self.leave(),
            ListEvent::Activate(i) => match rows[i] {
                Row::Ready => {
                    ctx.play(Sfx::Select);
                    self.online_mut().ready();
                    Transition::None
                }
                Row::Invite => {
                    ctx.play(Sfx::Select);
                    self.picker = Some((ctx.open_friend_picker)(ctx, self.online().code()));
                    Transition::None
                }
                Row::CopyLink => {
                    ctx.play(Sfx::Select);
                    if let Some(link) = self.room_link() {
                        ctx.copy_game_link(&link);
                    }
                    Transition::None
                }
                Row::Leave => self.leave(),
            },
            _ => Transition::None,
        }
    }

    /// Draws the lobby.
    pub(super) fn draw_lobby(&self, ctx: &Ctx, io: &FrameIo) {
        let gfx = &ctx.gfx;
        background(io.width, io.height);
        ctx.backdrop.draw();
        let o = self.online();
        let rows = rows(o, self.lan_address().is_some());
        let l = list_layout(io.width, io.height, rows.len());
        let versus = o.options().is_some_and(|opts| opts.seats == 2);
        let title = match (o.code(), o.stage()) {
            (Some(code), _) if self.lan_address().is_some() => format!("LAN room {code}"),
            (Some(code), _) if versus => format!("Room {code}"),
            (Some(code), _) => format!("Free-for-all room {code}"),
            (None, BattleStage::Queued(_)) => "Quick play".to_owned(),
            (None, _) => "Free-for-all room".to_owned(),
        };
        let subtitle = match o.stage() {
            BattleStage::Connecting => "Connecting and opening the room…".to_owned(),
            BattleStage::Queued(_) => {
                "Free-for-all: the server seats you in a room of 3 to 8 players".to_owned()
            }
            BattleStage::InRoom if o.is_spectator() => {
                "Watching: the boards appear when the match starts".to_owned()
            }
            BattleStage::InRoom => {
                "Share the code; the match starts when everyone seated is ready".to_owned()
            }
            BattleStage::Failed(_) => "Something went wrong".to_owned(),
        };
        heading(gfx, l.title, l.unit, &title, &subtitle);
        for (i, row) in rows.iter().enumerate() {
            let state = RowState {
                selected: i == self.lobby_row.min(rows.len() - 1),
                enabled: true,
            };
            let (label, tag) = match row {
                Row::Ready if o.ready_sent() => ("Ready — waiting for the others", "✓"),
                Row::Ready => ("I'm ready", "ENTER"),
                Row::Invite => ("Invite a friend", "FRIENDS"),
                Row::CopyLink if o.seat().is_some() => ("Copy the room's link", "LINK"),
                Row::CopyLink => ("Copy the spectator link", "LINK"),
                Row::Leave if matches!(o.stage(), BattleStage::Failed(_)) => ("Back", "ESC"),
                Row::Leave if matches!(o.stage(), BattleStage::Queued(_)) => ("Cancel", "ESC"),
                Row::Leave => ("Leave room", "ESC"),
            };
            menu_row(gfx, l.row(i), l.unit, label, tag, state, ctx.time);
        }
        match o.stage() {
            BattleStage::Failed(why) => {
                side_panel(gfx, l.side, l.unit, "Could not continue", why);
            }
            BattleStage::Queued(wait) => {
                let (head, body) = wait.card(sevenbag_netplay::time::Instant::now());
                side_panel(gfx, l.side, l.unit, &head, &body);
            }
            BattleStage::Connecting => {
                side_panel(
                    gfx,
                    l.side,
                    l.unit,
                    "Connecting",
                    "Saying hello to the server.",
                );
            }
            BattleStage::InRoom => {
                let mut body = seats_text(o);
                if let Some(options) = o.options() {
                    body = format!("{}\n\n{body}", rules_line(options));
                }
                if let Some(address) = self.lan_address() {
                    body = format!("LAN address  {address}\n{body}");
                }
                if let Some(r) = o.result() {
                    let places: Vec<String> = r
                        .placements
                        .iter()
                        .enumerate()
                        .map(|(i, p)| {
                            let name = o.names().get(i).map_or("—", String::as_str);
                            format!("{}  {name}", crate::text::ordinal(*p))
                        })
                        .collect();
                    body.push_str(&format!("\n\nLast match: {}", places.join(",  ")));
                }
                let card = crate::versus::online::room_chat::lobby_card_area(&l, rows.len());
                side_panel(gfx, card, l.unit, "Seats", &body);
                self.draw_lobby_talk(ctx, io, rows.len());
            }
        }
        if let Some(picker) = &self.picker {
            picker.draw(ctx, io);
            return;
        }
        if matches!(o.stage(), BattleStage::Queued(_)) {
            // A touch screen has no Esc: a Cancel button besides the row.
            let cancel: &[KeyChoice] = &[("Cancel", KeyCode::Escape)];
            let hint = "Enter or Esc  leave the queue";
            footer_keys(gfx, l.footer, l.unit, hint, cancel, "online");
            return;
        }
        if o.code().is_some() {
            // On a touch screen the chat's key is a button (a phone has no T).
            let chat: &[KeyChoice] = &[("Chat", KeyCode::T)];
            let hint = "↑ ↓ choose   Enter pick   T chat   Esc leave";
            footer_keys(gfx, l.footer, l.unit, hint, chat, "online");
        } else {
            footer(
                gfx,
                l.footer,
                l.unit,
                "↑ ↓ choose   Enter pick   Esc leave",
                "online",
            );
        }
    }
}
