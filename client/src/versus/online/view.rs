//! Drawing the online screen: the room card (code, seats, ready), the chat, the leave
//! confirmation, the reconnecting banner and the result, and the room card's layout sizes.

use sevenbag_netplay::time::Instant;

use macroquad::input::KeyCode;
use macroquad::math::Rect;
use macroquad::shapes::draw_rectangle;
use sevenbag_protocol::SeatStatus;

use crate::input::taps;
use crate::layout::list_layout;
use crate::net::online::Stage;
use crate::render::gfx::{Align, Weight, background, fill, outline};
use crate::render::key_buttons::{KeyChoice, button_row, footer_keys};
use crate::render::theme::{self, alpha};
use crate::render::widgets::{
    RowState, heading, menu_row, modal, shrink_then_cut, side_panel, wrap,
};
use crate::screen::{Ctx, FrameIo, Screen};

use super::room_chat::{
    Reconnecting, draw_chat_log, draw_chat_strip, draw_reconnecting, lobby_card_area,
    lobby_chat_area,
};
use super::{CONFIRM_TITLE, OnlineScreen, Row, confirm_options, footer_hint, leave_label};

impl OnlineScreen {
    /// Draws the screen.
    pub(super) fn draw_view(&self, ctx: &Ctx, io: &FrameIo) {
        if self.in_match() {
            self.play.draw(ctx, io);
            let o = self.online();
            if o.outcome().is_some() && o.seat().is_some() && !self.confirm_leave {
                let unit = list_layout(io.width, io.height, 1).unit;
                let state = RowState {
                    selected: false,
                    enabled: true,
                };
                for (r, _, label) in super::result_buttons(io) {
                    menu_row(&ctx.gfx, r, unit, label, "", state, ctx.time);
                }
            }
            let title = crate::layout::match_layout(io.width, io.height).title;
            draw_chat_strip(ctx, o.chat(), title);
            self.draw_result(ctx, io);
            let now = Instant::now();
            if let Some(left) = o.reconnecting(now) {
                let r = Reconnecting {
                    left,
                    window_passed: o.reconnect_window_passed(now),
                    attempts: o.reconnect_attempts(),
                };
                draw_reconnecting(ctx, io.width, io.height, &r);
            }
            if self.confirm_leave {
                let unit = list_layout(io.width, io.height, 1).unit;
                modal(
                    &ctx.gfx,
                    io.width,
                    io.height,
                    unit,
                    CONFIRM_TITLE,
                    &confirm_options(),
                    0,
                    ctx.time,
                );
            }
            return;
        }
        let gfx = &ctx.gfx;
        background(io.width, io.height);
        ctx.backdrop.draw();
        let o = self.online();
        let rows = self.rows();
        let l = list_layout(io.width, io.height, rows.len());
        let subtitle = match o.stage() {
            Stage::Connecting => format!("Connecting to {}", o.url()),
            Stage::Waiting | Stage::Browsing => format!("Connected to {}", o.server_name()),
            Stage::InRoom if o.is_spectator() => {
                "Watching — the match appears when it starts".into()
            }
            Stage::InRoom => "Share the code; the match starts when both players are ready".into(),
            Stage::Failed(_) => "Something went wrong".into(),
        };
        heading(gfx, l.title, l.unit, &self.title, &subtitle);
        for (i, row) in rows.iter().enumerate() {
            let r = l.row(i);
            let state = RowState {
                selected: i == self.selected,
                enabled: true,
            };
            match row {
                Row::Ready if o.ready_sent() => menu_row(
                    gfx,
                    r,
                    l.unit,
                    "Ready — waiting for opponent",
                    "✓",
                    state,
                    ctx.time,
                ),
                Row::Ready => menu_row(gfx, r, l.unit, "I'm ready", "ENTER", state, ctx.time),
                Row::Invite => menu_row(
                    gfx,
                    r,
                    l.unit,
                    "Invite a friend",
                    "FRIENDS",
                    state,
                    ctx.time,
                ),
                Row::CopyLink => {
                    let label = if o.seat().is_some() {
                        "Copy the room's link"
                    } else {
                        "Copy the spectator link"
                    };
                    menu_row(gfx, r, l.unit, label, "LINK", state, ctx.time)
                }
                Row::Leave => menu_row(
                    gfx,
                    r,
                    l.unit,
                    leave_label(o.stage()),
                    "ESC",
                    state,
                    ctx.time,
                ),
            }
        }
        match o.stage() {
            Stage::Failed(msg) => {
                let head = if o.void_result().is_some() {
                    "No result"
                } else if o.outcome().is_some() {
                    "Match over"
                } else {
                    "Could not continue"
                };
                side_panel(gfx, l.side, l.unit, head, msg);
            }
            Stage::InRoom => {
                self.draw_room(ctx, lobby_card_area(&l, rows.len()), l.unit);
                let r = lobby_chat_area(&l, rows.len());
                draw_chat_log(ctx, o.chat(), r, l.unit);
            }
            _ => {
                let dots = ".".repeat(1 + (ctx.time * 2.0) as usize % 3);
                let (head, body) = match o.stage() {
                    Stage::Connecting => (
                        format!("Connecting{dots}"),
                        format!("Saying hello to {}.", o.url()),
                    ),
                    _ => {
                        let (head, body) = crate::net::online::texts::waiting_text(o.request());
                        (format!("{head}{dots}"), body)
                    }
                };
                side_panel(gfx, l.side, l.unit, &head, &body);
            }
        }
        let ping = o.ping().map_or("ping —".to_owned(), |p| {
            format!("ping {} ms", p.as_millis())
        });
        let row = rows[self.selected.min(rows.len() - 1)];
        let hint = footer_hint(row, leave_label(o.stage()), o.code().is_some());
        let chat: &[KeyChoice] = if o.code().is_some() {
            &[("Chat", KeyCode::T)]
        } else {
            &[]
        };
        footer_keys(gfx, l.footer, l.unit, &hint, chat, &ping);
        if let Some(picker) = &self.picker {
            picker.draw(ctx, io);
        }
    }

    /// The room card: the code in big letters, the address, both seats and the watchers.
    fn draw_room(&self, ctx: &Ctx, r: Rect, unit: f32) {
        let gfx = &ctx.gfx;
        let o = self.online();
        if r.w < unit * 8.0 {
            return;
        }
        let pad = unit;
        fill(r, alpha(theme::PANEL, 0.85));
        outline(r, 1.0, alpha(theme::FRAME, 0.6));
        draw_rectangle(r.x, r.y, r.w, unit * 0.12, alpha(theme::ACCENT, 0.6));
        let cx = r.x + r.w / 2.0;
        let mut y = r.y + pad + unit * 0.6;
        gfx.text(
            "ROOM CODE",
            cx,
            y,
            (unit * 0.6).round(),
            Weight::Bold,
            Align::Center,
            theme::TEXT_DIM,
        );
        y += unit * 0.8;
        let spaced = spaced_code(o.code().unwrap_or("—"));
        let (size, room) = code_text(r.w, unit);
        let code_box = Rect::new(r.x + pad, y, r.w - 2.0 * pad, size * 1.35);
        let size = gfx.fit_size(&spaced, room, size, Weight::Bold);
        fill(code_box, theme::WELL);
        outline(code_box, 1.0, alpha(theme::ACCENT, 0.5));
        gfx.text_mid(
            &spaced,
            cx,
            code_box.y + code_box.h / 2.0,
            size,
            Weight::Bold,
            Align::Center,
            theme::ACCENT,
        );
        y = code_box.bottom() + unit * 1.1;
        let small = (unit * 0.75).round();
        let where_ = match &self.lan {
            Some(lan) => format!("LAN address  {}", lan.address),
            None => format!("Server  {}", o.url()),
        };
        gfx.text(
            &gfx.fit(&where_, r.w - 2.0 * pad, small, Weight::Regular),
            cx,
            y,
            small,
            Weight::Regular,
            Align::Center,
            theme::TEXT,
        );
        y += unit * 1.2;
        if let Some(opts) = o.options() {
            let line = format!(
                "{} · first to {} · {} · 180° {} · garbage travel {} f, cap {}, messiness {}% · reconnect {} s",
                opts.preset.name(),
                opts.first_to,
                opts.randomizer.name(),
                if opts.allow_180 { "on" } else { "off" },
                opts.garbage_travel,
                opts.garbage_cap,
                opts.messiness,
                opts.reconnect_seconds
            );
            for l in wrap(gfx, &line, r.w - 2.0 * pad, (unit * 0.6).round()) {
                gfx.text(
                    &l,
                    cx,
                    y,
                    (unit * 0.6).round(),
                    Weight::Regular,
                    Align::Center,
                    theme::TEXT_DIM,
                );
                y += unit * 0.85;
            }
        }
        y += unit * 0.6;
        let seat_h = unit * 2.2;
        for (i, seat) in o.seats().iter().enumerate() {
            let sr = Rect::new(r.x + pad, y, r.w - 2.0 * pad, seat_h);
            let mine = o.seat().map(|s| s.index()) == Some(i);
            fill(
                sr,
                if mine {
                    alpha(theme::ACCENT2, 0.10)
                } else {
                    theme::WELL
                },
            );
            outline(sr, 1.0, alpha(theme::FRAME, 0.7));
            let mid = sr.y + sr.h / 2.0;
            gfx.text_mid(
                &format!("{}", i + 1),
                sr.x + unit * 0.8,
                mid,
                (unit * 0.9).round(),
                Weight::Bold,
                Align::Center,
                theme::TEXT_FAINT,
            );
            let (name, tag, colour) = match seat {
                None => (
                    "empty seat".to_owned(),
                    "WAITING".to_owned(),
                    theme::TEXT_FAINT,
                ),
                Some(s) => {
                    let (tag, colour) = match s.status {
                        SeatStatus::Reconnecting { seconds_left } => (
                            format!(
                                "RECONNECTING {}s",
                                o.seconds_left(
                                    sevenbag_core::Seat::BOTH[i],
                                    seconds_left,
                                    sevenbag_netplay::time::Instant::now()
                                )
                            ),
                            theme::GARBAGE_QUEUED,
                        ),
                        SeatStatus::Forfeited => ("LEFT".to_owned(), theme::BAD),
                        SeatStatus::Connected if s.ready => ("READY".to_owned(), theme::GOOD),
                        SeatStatus::Connected => ("NOT READY".to_owned(), theme::TEXT_DIM),
                    };
                    let you = if mine { "  (you)" } else { "" };
                    let bot = if o.is_bot(i) { " [BOT]" } else { "" };
                    (format!("{}{bot}{you}", s.name), tag, colour)
                }
            };
            let name_c = if seat.is_some() {
                theme::TEXT
            } else {
                theme::TEXT_FAINT
            };
            let (name_size, tag_size) = seat_sizes(unit);
            let tag_w = gfx.width(&tag, tag_size, Weight::Bold);
            let (name, name_size) = shrink_then_cut(
                gfx,
                &name,
                seat_name_room(r.w, unit, tag_w),
                name_size,
                Weight::Bold,
            );
            gfx.text_mid(
                &name,
                sr.x + unit * 1.8,
                mid,
                name_size,
                Weight::Bold,
                Align::Left,
                name_c,
            );
            gfx.text_mid(
                &tag,
                sr.right() - unit * 0.8,
                mid,
                tag_size,
                Weight::Bold,
                Align::Right,
                colour,
            );
            y += seat_h + unit * 0.4;
        }
        let watchers = match o.spectators() {
            0 => "no spectators".to_owned(),
            1 => "1 spectator".to_owned(),
            n => format!("{n} spectators"),
        };
        gfx.text(
            &watchers,
            cx,
            y + unit * 0.8,
            small,
            Weight::Regular,
            Align::Center,
            theme::TEXT_DIM,
        );
    }

    /// Over the match view: the server's verdict when the boards do not show it (a forfeit), and
    /// a disconnect.
    fn draw_result(&self, ctx: &Ctx, io: &FrameIo) {
        let o = self.online();
        let Some(text) = crate::match_source::MatchSource::verdict(o) else {
            return;
        };
        let unit = list_layout(io.width, io.height, 1).unit;
        let w = io.width.min(unit * 34.0);
        let r = Rect::new((io.width - w) / 2.0, io.height * 0.4, w, unit * 4.0);
        fill(r, alpha(theme::PANEL, 0.95));
        outline(r, 1.0, theme::ACCENT);
        ctx.gfx.banner(
            &text,
            r.x + r.w / 2.0,
            r.y + unit * 1.4,
            (unit * 1.3).round(),
            theme::ACCENT,
        );
        let hint = if o.seat().is_some() {
            if o.ready_sent() {
                "Ready — waiting for your opponent   Esc leave"
            } else {
                "Enter  ready again   G  stats   S  save replay   L  link   R  report   B  block   Esc  leave"
            }
        } else {
            "Esc  leave"
        };
        if taps::shown() {
            let buttons: &[KeyChoice] = match (o.seat().is_some(), o.ready_sent()) {
                (true, false) => &[
                    ("Ready again", KeyCode::Enter),
                    ("Report", KeyCode::R),
                    ("Block", KeyCode::B),
                    ("Leave", KeyCode::Escape),
                ],
                _ => &[("Leave", KeyCode::Escape)],
            };
            let row = Rect::new(r.x + unit, r.y + unit * 2.4, r.w - unit * 2.0, unit * 1.2);
            button_row(&ctx.gfx, row, buttons);
            return;
        }
        ctx.gfx.text_mid(
            hint,
            r.x + r.w / 2.0,
            r.y + unit * 2.9,
            (unit * 0.6).round(),
            Weight::Regular,
            Align::Center,
            theme::TEXT_DIM,
        );
    }
}

/// A room code with a space between its characters, as the room card shows it.
pub fn spaced_code(code: &str) -> String {
    code.chars()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The room code's text size in a room card `card_w` wide, and the width it may take (it
/// shrinks to that, [`crate::render::gfx::Gfx::fit_size`]).
pub fn code_text(card_w: f32, unit: f32) -> (f32, f32) {
    let size = (unit * 4.2).round().min(card_w / 5.0);
    (size, card_w - 3.0 * unit)
}

/// Text sizes of a seat row in the room card: the player's name and the status tag.
pub fn seat_sizes(unit: f32) -> (f32, f32) {
    ((unit * 0.85).round(), (unit * 0.6).round())
}

/// The width a seat's player name may take in a room card `card_w` wide beside a status tag
/// `tag_w` wide: from after the seat number to a gap before the tag.
pub fn seat_name_room(card_w: f32, unit: f32, tag_w: f32) -> f32 {
    card_w - 2.0 * unit - unit * 1.8 - unit * 0.8 - tag_w - unit * 0.6
}
