//! Friends' news while the Friends screen is closed: one connection (the Friends screen's
//! [`Social`], identified with the player key), opened once the game has a key and a server,
//! and each notification pushed on it (a friend request, an accepted request, an invite, a
//! message) said as a [`toast`](super::toast) in the top right corner over whatever screen is
//! open: the menu, a room's lobby, a match, a replay. The server pushes on identifying the
//! unseen notifications no toast has shown yet (what came while the player was away), then
//! each new one as it comes; every toast queued is marked shown, so the next connection does
//! not say it again, while the Friends screen still lists it until it is seen there.
//!
//! An invite's toast has Join and Decline ([`super::invite_toast`]): Join opens the room as
//! the Friends screen's Join does (asking first over a match in progress), Decline turns it
//! down; either marks it seen. Other toasts only draw and take no key or click.

use macroquad::math::Rect;
use macroquad::shapes::draw_rectangle;

use super::invite_toast::{self, ASK_CHOICES, Answer, Asked, Joining};
use super::rows::{invite_code, shown_text};
use super::social::{Social, Status};
use super::toast::{Invite, Toasts};
use crate::net::online::Request;
use crate::render::gfx::{Align, Weight, fill, outline};
use crate::render::theme::{self, alpha};
use crate::render::widgets::{modal, modal_layout, targets, wrap};
use crate::screen::{Ctx, FrameIo, Screen, Transition};
use crate::sound::sfx::Sfx;
use crate::versus::lobby::player_connection;
use crate::versus::online::OnlineScreen;

/// How often to look again for a key or a changed server address.
const LOOK_SECONDS: f32 = 10.0;

/// The toast drawn this frame, laid out.
#[derive(Clone, Debug, PartialEq)]
struct Drawn {
    lines: Vec<String>,
    alpha: f32,
    size: f32,
    rect: Rect,
    /// The invite and its Join and Decline buttons, for an invite.
    invite: Option<(Invite, [Rect; 2])>,
}

/// The connection, the server it is on, and the toasts (see the module docs).
pub struct News {
    social: Option<(String, Social)>,
    toasts: Toasts,
    /// The toast to draw this frame.
    shown: Option<Drawn>,
    /// The invite whose Join waits on the box asking to leave a match, and the choice under
    /// the cursor.
    asking: Option<(Invite, usize)>,
    /// When to look for a key or a new server address again.
    next_look: f32,
}

/// The toast's box in a `width` window with `lines` lines of text of `size`, and for an
/// invite its Join and Decline buttons along its foot. 16 units wide: in a 1280 px window it
/// sits right of a match's next-piece column rather than over it.
fn layout(
    width: f32,
    unit: f32,
    lines: usize,
    size: f32,
    invite: bool,
) -> (Rect, Option<[Rect; 2]>) {
    let w = (unit * 16.0).min(width * 0.6);
    let line_h = size * 1.35;
    let button_h = (unit * 1.5).round();
    let foot = if invite { button_h + unit * 0.5 } else { 0.0 };
    let h = line_h * lines as f32 + unit * 0.9 + foot;
    let r = Rect::new(width - w - unit * 0.5, unit * 0.5, w, h);
    let buttons = invite.then(|| {
        let gap = unit * 0.5;
        let bw = ((r.w - unit * 0.7 - unit * 0.5 - gap) / 2.0).floor();
        let y = r.y + r.h - unit * 0.45 - button_h;
        let x = r.x + unit * 0.7;
        [
            Rect::new(x, y, bw, button_h),
            Rect::new(x + bw + gap, y, bw, button_h),
        ]
    });
    (r, buttons)
}

impl News {
    /// Nothing connected yet: the first [`News::frame`] looks.
    pub fn new() -> News {
        News {
            social: None,
            toasts: Toasts::default(),
            shown: None,
            asking: None,
            next_look: 0.0,
        }
    }

    /// The captures' news (`--screen invite-toast`, `invite-ask`): connected nowhere, with an
    /// invite's toast showing, or (`asking`) its Join waiting on the box over the match.
    pub fn capture(asking: bool) -> News {
        let mut news = News::new();
        news.next_look = f32::INFINITY;
        let invite = Invite {
            id: 1,
            code: "QX7RD".to_owned(),
        };
        if asking {
            news.asking = Some((invite, 0));
        } else {
            news.toasts
                .push_invite("ann invites you to room QX7RD", invite);
        }
        news
    }

    /// Before the screen on top (`top`) updates: an answer to the invite's toast drawn last
    /// frame, or to the box asking to leave a match. What the toast takes (its keys, a click
    /// on it; everything while the box is open) is taken out of `io`, so the screen does not
    /// act on it too. Returns the room to open, if Join went through.
    pub fn input(
        &mut self,
        ctx: &mut Ctx,
        io: &mut FrameIo,
        top: Option<&dyn Screen>,
    ) -> Transition {
        if let Some((invite, choice)) = self.asking.clone() {
            let unit = crate::layout::list_layout(io.width, io.height, 1).unit;
            let (_, rows) = modal_layout(io.width, io.height, unit, ASK_CHOICES.len());
            let asked = invite_toast::asked(io, choice, &rows);
            let moved = io.keyboard.pressed_any(&[
                macroquad::input::KeyCode::Up,
                macroquad::input::KeyCode::Down,
                macroquad::input::KeyCode::Tab,
            ]);
            *io = FrameIo {
                steps: io.steps,
                dt: io.dt,
                width: io.width,
                height: io.height,
                ..FrameIo::default()
            };
            return match asked {
                Asked::Waiting => {
                    if moved {
                        ctx.play(Sfx::Move);
                        self.asking = Some((invite, 1 - choice));
                    }
                    Transition::None
                }
                Asked::Stay => {
                    self.asking = None;
                    Transition::None
                }
                // The match's screen gives way to the room's.
                Asked::Leave => {
                    self.asking = None;
                    self.join(ctx, &invite)
                        .map_or(Transition::None, Transition::Replace)
                }
            };
        }
        let Some((invite, buttons)) = self.shown.as_ref().and_then(|d| d.invite.clone()) else {
            return Transition::None;
        };
        let keys = invite_toast::keys(&ctx.config.keys);
        let typing = top.is_some_and(|s| s.text_fields(ctx, io).iter().any(|f| f.active));
        let Some(answer) = invite_toast::answer(io, keys, buttons, typing) else {
            return Transition::None;
        };
        io.mouse.clicked = false;
        invite_toast::take_key(&mut io.keyboard, keys.0);
        invite_toast::take_key(&mut io.keyboard, keys.1);
        self.toasts.close();
        self.shown = None;
        match answer {
            Answer::Decline => {
                ctx.play(Sfx::Select);
                self.settle(invite.id);
                Transition::None
            }
            Answer::Join => match invite_toast::joining(top.is_some_and(|s| s.plays_by_touch())) {
                Joining::Ask => {
                    ctx.play(Sfx::Move);
                    self.asking = Some((invite, 0));
                    Transition::None
                }
                Joining::Now => self
                    .join(ctx, &invite)
                    .map_or(Transition::None, Transition::Push),
            },
        }
    }

    /// The room screen of `invite`, on the server this connection is on; the invite is seen.
    fn join(&mut self, ctx: &Ctx, invite: &Invite) -> Option<Box<dyn Screen>> {
        ctx.play(Sfx::Select);
        self.settle(invite.id);
        let (address, _) = self.social.as_ref()?;
        let online = player_connection(&ctx.config, address, Request::Join(invite.code.clone()));
        Some(Box::new(OnlineScreen::new(online, "Room", None)))
    }

    /// Marks notification `id` seen on the server (an invite answered).
    fn settle(&mut self, id: u64) {
        if let Some((_, social)) = &mut self.social {
            social.settle(id);
        }
    }

    /// Once a frame, after the screen on top updated: connects when there is a key and a
    /// server (or the server in Settings changed), takes what arrived and moves the toasts on,
    /// laid out for a `width` window. `friends_open`: the Friends screen is on top and shows
    /// them itself.
    pub fn frame(&mut self, ctx: &Ctx, friends_open: bool, width: f32, height: f32) {
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
            let mut queued = Vec::new();
            for n in social.take_arrived() {
                if friends_open {
                    continue;
                }
                let text = shown_text(&n, ctx.config.chat_filter);
                match invite_code(&n) {
                    Some(code) => self.toasts.push_invite(text, Invite { id: n.id, code }),
                    None => self.toasts.push(text),
                }
                queued.push(n.id);
            }
            social.mark_toasted(&queued);
        }
        self.shown = self.toasts.at(now).map(|s| {
            let unit = crate::layout::list_layout(width, height, 1).unit;
            let size = (unit * 0.7).round();
            let (w, _) = layout(width, unit, 1, size, false);
            let mut lines = wrap(&ctx.gfx, s.text, w.w - unit * 1.6, size);
            lines.truncate(2);
            let (rect, buttons) = layout(width, unit, lines.len(), size, s.invite.is_some());
            Drawn {
                lines,
                alpha: s.alpha,
                size,
                rect,
                invite: s.invite.cloned().zip(buttons),
            }
        });
    }

    /// Draws the toast showing, if any, in the top right corner of a `width` × `height` window,
    /// and over everything the box asking to leave a match.
    pub fn draw(&self, ctx: &Ctx, width: f32, height: f32) {
        if self.asking.is_some() {
            let unit = crate::layout::list_layout(width, height, 1).unit;
            let choice = self.asking.as_ref().map_or(0, |(_, c)| *c);
            let title = "Leave the match to join?";
            modal(
                &ctx.gfx,
                width,
                height,
                unit,
                title,
                &ASK_CHOICES,
                choice,
                ctx.time,
            );
            return;
        }
        let Some(d) = &self.shown else {
            return;
        };
        let (r, a) = (d.rect, d.alpha);
        let unit = crate::layout::list_layout(width, height, 1).unit;
        fill(r, alpha(theme::PANEL, 0.94 * a));
        outline(r, 1.0, alpha(theme::ACCENT2, a));
        draw_rectangle(r.x, r.y, unit * 0.18, r.h, alpha(theme::ACCENT2, a));
        let mut y = r.y + unit * 0.45 + d.size;
        let x = r.x + unit * 0.7;
        for line in &d.lines {
            let colour = alpha(theme::TEXT, a);
            ctx.gfx
                .text(line, x, y, d.size, Weight::Regular, Align::Left, colour);
            y += d.size * 1.35;
        }
        let Some((_, buttons)) = &d.invite else {
            return;
        };
        let (join, decline) = invite_toast::keys(&ctx.config.keys);
        let labels = [
            ("Join", invite_toast::key_name(join), theme::ACCENT2),
            ("Decline", invite_toast::key_name(decline), theme::TEXT_DIM),
        ];
        for (b, (label, key, colour)) in buttons.iter().zip(labels) {
            fill(*b, alpha(colour, 0.16 * a));
            outline(*b, 1.0, alpha(colour, a));
            let text = format!("{label}  ({key})");
            let size = (d.size * 0.9).round();
            let (cx, cy) = (b.x + b.w / 2.0, b.y + b.h / 2.0 + size * 0.35);
            let colour = alpha(theme::TEXT, a);
            ctx.gfx
                .text(&text, cx, cy, size, Weight::Bold, Align::Center, colour);
            targets::record(label, *b);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_invites_buttons_sit_inside_its_toast_side_by_side() {
        let (r, buttons) = layout(1280.0, 32.0, 2, 22.0, true);
        let [join, decline] = buttons.expect("an invite has buttons");
        for b in [join, decline] {
            assert!(
                r.contains(b.point()) && r.contains(b.point() + b.size()),
                "{b:?} in {r:?}"
            );
        }
        assert!(join.x + join.w < decline.x);
        assert_eq!(join.y, decline.y);
    }

    #[test]
    fn other_toasts_have_no_buttons() {
        assert_eq!(layout(1280.0, 32.0, 1, 22.0, false).1, None);
    }
}
