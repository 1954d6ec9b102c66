//! Friends' news while the Friends screen is closed: one connection (the Friends screen's
//! [`Social`], identified with the player key), opened once the game has a key and a server,
//! and each notification pushed on it (a friend request, an accepted request, an invite, a
//! message) said as a [`toast`](super::toast) in the top right corner over whatever screen is
//! open: the menu, a room's lobby, a match, a replay. It only draws: it takes no key and no
//! click, so it never gets in the way of play.
//!
//! It marks nothing seen: the Friends screen still lists each notification until its own
//! connection does. While that screen is on top, which lists them itself, no toast is queued.

use macroquad::shapes::draw_rectangle;

use super::rows::notice_text;
use super::social::{Social, Status};
use super::toast::Toasts;
use crate::render::gfx::{Align, Weight, fill, outline};
use crate::render::theme::{self, alpha};
use crate::render::widgets::wrap;
use crate::screen::Ctx;

/// How often to look again for a key or a changed server address.
const LOOK_SECONDS: f32 = 10.0;

/// The connection, the server it is on, and the toasts (see the module docs).
pub struct News {
    social: Option<(String, Social)>,
    toasts: Toasts,
    /// The toast to draw this frame and its opacity.
    shown: Option<(String, f32)>,
    /// When to look for a key or a new server address again.
    next_look: f32,
}

impl News {
    /// Nothing connected yet: the first [`News::frame`] looks.
    pub fn new() -> News {
        News {
            social: None,
            toasts: Toasts::default(),
            shown: None,
            next_look: 0.0,
        }
    }

    /// Once a frame: connects when there is a key and a server (or the server in Settings
    /// changed), takes what arrived and moves the toasts on. `friends_open`: the Friends screen
    /// is on top and shows them itself.
    pub fn frame(&mut self, ctx: &Ctx, friends_open: bool) {
        let now = ctx.time;
        if now >= self.next_look {
            self.next_look = now + LOOK_SECONDS;
            let server = ctx.config.server.trim();
            // A failed connection (the server was down, say) is tried again.
            let alive = self.social.as_ref().is_some_and(|(s, social)| {
                s == server && !matches!(social.status(), Status::Failed(_))
            });
            if !alive {
                self.social = (!server.is_empty())
                    .then(crate::identity::existing_key)
                    .flatten()
                    .map(|key| {
                        let social = Social::connect(server, &ctx.config.player_name, key);
                        (server.to_owned(), social)
                    });
            }
        }
        if let Some((_, social)) = &mut self.social {
            social.poll();
            // The connection's own answers are the Friends screen's business.
            social.take_notices();
            for n in social.take_arrived() {
                if !friends_open {
                    self.toasts.push(notice_text(&n));
                }
            }
        }
        self.shown = self.toasts.at(now).map(|s| (s.text.to_owned(), s.alpha));
    }

    /// Draws the toast showing, if any, in the top right corner of a `width` × `height` window.
    pub fn draw(&self, ctx: &Ctx, width: f32, height: f32) {
        let Some((text, a)) = &self.shown else {
            return;
        };
        let unit = crate::layout::list_layout(width, height, 1).unit;
        let size = (unit * 0.7).round();
        let w = (unit * 20.0).min(width * 0.6);
        let lines = wrap(&ctx.gfx, text, w - unit * 1.6, size);
        let lines = &lines[..lines.len().min(2)];
        let line_h = size * 1.35;
        let h = line_h * lines.len() as f32 + unit * 0.9;
        let r = macroquad::math::Rect::new(width - w - unit * 0.5, unit * 0.5, w, h);
        fill(r, alpha(theme::PANEL, 0.94 * a));
        outline(r, 1.0, alpha(theme::ACCENT2, *a));
        draw_rectangle(r.x, r.y, unit * 0.18, r.h, alpha(theme::ACCENT2, *a));
        let mut y = r.y + unit * 0.45 + size;
        for line in lines {
            let colour = alpha(theme::TEXT, *a);
            let x = r.x + unit * 0.7;
            ctx.gfx
                .text(line, x, y, size, Weight::Regular, Align::Left, colour);
            y += line_h;
        }
    }
}
