//! The room's chat and the connection's state on the free-for-all screen, as in a two-seat
//! room (the same field, strip, log and banner: [`crate::versus::online::room_chat`]): T opens
//! the field in the lobby and during a match (unless T is one of your game keys while you
//! play), the newest line takes the title strip over the boards for a few seconds, the lobby
//! shows the log under its rows, and a banner over the frozen match counts the reconnect
//! window down.

use sevenbag_netplay::time::Instant;

use super::PartyOnlineScreen;
use crate::input::Keyboard;
use macroquad::math::Rect;

use crate::layout::party::party_layout;
use crate::layout::{list_layout, match_layout};
use crate::screen::{Ctx, FrameIo, TextField};
use crate::versus::online::room_chat::{
    Reconnecting, chat_field, chat_keys, draw_chat_log, draw_chat_strip, draw_reconnecting,
    lobby_chat_area, t_plays,
};

impl PartyOnlineScreen {
    /// The chat field's frame. Returns the frame the rest of the screen sees: without keys
    /// while the field has the keyboard.
    pub(super) fn update_chat(&mut self, ctx: &mut Ctx, io: &FrameIo) -> Option<FrameIo> {
        let filter = ctx.config.chat_filter;
        self.online_mut().chat_mut().set_filter(filter);
        let o = self.online();
        let playing = self.in_match() && o.is_live() && o.battle_seat().is_some();
        let may_open = o.code().is_some()
            && !self.confirm_leave
            && self.picker.is_none()
            && !(playing && t_plays(ctx));
        chat_keys(self.online_mut(), ctx, &io.keyboard, may_open).then(|| FrameIo {
            keyboard: Keyboard::default(),
            ..io.clone()
        })
    }

    /// Over the match: the chat in the title strip, and the banner while reconnecting.
    /// `title` is the strip the match view leaves for the title.
    pub(super) fn draw_match_talk(&self, ctx: &Ctx, io: &FrameIo, title: Rect) {
        let o = self.online();
        draw_chat_strip(ctx, o.chat(), title);
        let now = Instant::now();
        if let Some(left) = o.reconnecting(now) {
            let r = Reconnecting {
                left,
                window_passed: o.reconnect_window_passed(now),
                attempts: o.reconnect_attempts(),
            };
            draw_reconnecting(ctx, io.width, io.height, &r);
        }
    }

    /// In the lobby, the chat log under the rows (`rows` of them).
    pub(super) fn draw_lobby_talk(&self, ctx: &Ctx, io: &FrameIo, rows: usize) {
        let l = list_layout(io.width, io.height, rows);
        draw_chat_log(ctx, self.online().chat(), lobby_chat_area(&l, rows), l.unit);
    }

    /// The chat field while it is open (for a touch screen's keyboard): the title strip over
    /// a match, the log's last line in the lobby (`rows` rows above it).
    pub(super) fn chat_fields(&self, io: &FrameIo, rows: usize) -> Vec<TextField> {
        let l = list_layout(io.width, io.height, rows);
        let strip = self.in_match().then(|| {
            let seats = self.online().battle().seats();
            if self.duel() {
                match_layout(io.width, io.height).title
            } else {
                party_layout(io.width, io.height, seats).title
            }
        });
        chat_field(
            self.online().chat(),
            strip,
            lobby_chat_area(&l, rows),
            l.unit,
        )
        .into_iter()
        .collect()
    }
}
