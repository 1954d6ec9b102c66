//! What every online room screen shares, two seats or more: the chat field (T opens it, Enter
//! sends, Esc closes), where its lines are drawn (the title strip in a match, a log under the
//! lobby's rows), and the banner over a match while the connection is taken back.
//!
//! The screens hand in their connection as a [`RoomChat`]: the two-seat controller and the
//! free-for-all one keep the same [`Chat`] and send the same requests.

use macroquad::input::KeyCode;
use macroquad::math::Rect;
use sevenbag_protocol::moderation::ReportCategory;

use crate::input::{Action, Keyboard, taps};
use crate::layout::{ListLayout, list_layout};
use crate::net::battle::BattleOnline;
use crate::net::online::Online;
use crate::net::online::chat::{Chat, Submit};
use crate::net::online::reconnect::{BANNER, BANNER_PAST_WINDOW};
use crate::render::gfx::{Align, Weight, fill, outline};
use crate::render::theme::{self, alpha};
use crate::render::widgets::shrink_then_cut;
use crate::screen::{Ctx, TextField, TextKind};

/// Seconds a chat line stays in a match view's title strip.
pub const CHAT_SHOWN_SECS: f32 = 6.0;

/// A connection with a room chat.
pub trait RoomChat {
    /// The room's chat.
    fn chat(&self) -> &Chat;
    /// The room's chat, to type in.
    fn chat_mut(&mut self) -> &mut Chat;
    /// Says a cleaned line to the room.
    fn say(&mut self, text: String);
    /// Blocks `name` (or unblocks them).
    fn block(&mut self, name: &str, block: bool);
    /// Reports `name`.
    fn report(&mut self, name: &str, category: ReportCategory, text: &str);
    /// Asks `name` to be friends.
    fn befriend(&mut self, name: &str);
}

impl RoomChat for Online {
    fn chat(&self) -> &Chat {
        Online::chat(self)
    }
    fn chat_mut(&mut self) -> &mut Chat {
        Online::chat_mut(self)
    }
    fn say(&mut self, text: String) {
        Online::say(self, text);
    }
    fn block(&mut self, name: &str, block: bool) {
        Online::block(self, name, block);
    }
    fn report(&mut self, name: &str, category: ReportCategory, text: &str) {
        Online::report(self, name, category, text);
    }
    fn befriend(&mut self, name: &str) {
        Online::befriend(self, name);
    }
}

impl RoomChat for BattleOnline {
    fn chat(&self) -> &Chat {
        BattleOnline::chat(self)
    }
    fn chat_mut(&mut self) -> &mut Chat {
        BattleOnline::chat_mut(self)
    }
    fn say(&mut self, text: String) {
        BattleOnline::say(self, text);
    }
    fn block(&mut self, name: &str, block: bool) {
        BattleOnline::block(self, name, block);
    }
    fn report(&mut self, name: &str, category: ReportCategory, text: &str) {
        BattleOnline::report(self, name, category, text);
    }
    fn befriend(&mut self, name: &str) {
        BattleOnline::befriend(self, name);
    }
}

/// Whether T is one of the player's game keys (then it does not open the chat mid-match).
pub fn t_plays(ctx: &Ctx) -> bool {
    let keys = &ctx.config.keys;
    Action::ALL
        .into_iter()
        .any(|a| keys.keys(a).contains(&Some(KeyCode::T)))
}

/// The chat field's keys: while it is open, Esc closes it, Enter sends (or runs a command),
/// anything else types; T opens it when `may_open`. Returns whether it has the keyboard this
/// frame (the screen then runs without keys).
pub fn chat_keys(room: &mut dyn RoomChat, ctx: &mut Ctx, kb: &Keyboard, may_open: bool) -> bool {
    if room.chat().draft().is_some() {
        if kb.pressed(KeyCode::Escape) {
            room.chat_mut().close();
        } else if kb.pressed_any(&[KeyCode::Enter, KeyCode::KpEnter]) {
            match room.chat_mut().submit() {
                Submit::Say(text) => room.say(text),
                Submit::Note(note) if !note.is_empty() => ctx.notify(note, theme::ACCENT2),
                Submit::Note(_) => {}
                Submit::Block(name) => room.block(&name, true),
                Submit::Unblock(name) => room.block(&name, false),
                Submit::Befriend(name) => room.befriend(&name),
                Submit::Report {
                    name,
                    category,
                    text,
                } => room.report(&name, category, &text),
            }
        } else {
            let backspace = kb.pressed(KeyCode::Backspace);
            room.chat_mut().type_chars(&kb.chars, backspace);
        }
        return true;
    }
    if may_open && kb.pressed(KeyCode::T) {
        room.chat_mut().open();
        return true;
    }
    false
}

/// In a match, the chat takes the title strip `title` (never the boards): the field while
/// typing, else the newest line for [`CHAT_SHOWN_SECS`]. False when there was nothing to show.
pub fn draw_chat_strip(ctx: &Ctx, chat: &Chat, title: Rect) -> bool {
    let line = match chat.draft() {
        Some(d) => Some((format!("say: {d}_"), theme::TEXT)),
        None => chat
            .last(1)
            .next()
            .filter(|l| l.at.elapsed().as_secs_f32() < CHAT_SHOWN_SECS)
            .map(|l| (format!("{}: {}", l.from, l.text), theme::ACCENT2)),
    };
    let Some((text, colour)) = line else {
        return false;
    };
    fill(title, alpha(theme::PANEL, 0.95));
    let size = (title.h * 0.5).round();
    let text = ctx.gfx.fit(&text, title.w * 0.9, size, Weight::Regular);
    ctx.gfx.text_mid(
        &text,
        title.x + title.w / 2.0,
        title.y + title.h / 2.0,
        size,
        Weight::Regular,
        Align::Center,
        colour,
    );
    true
}

/// Where a room's lobby shows its chat: under its `rows` rows, down to the footer; upright,
/// where the side panel (the room card) is under the rows, the lower part of that place, the
/// card keeping the rest ([`lobby_card_area`]).
pub fn lobby_chat_area(l: &ListLayout, rows: usize) -> Rect {
    if upright(l) {
        let h = (l.side.h * 0.3)
            .max(chat_line_h(l.unit) * 3.0)
            .min(l.side.h);
        return Rect::new(l.side.x, l.side.bottom() - h, l.side.w, h);
    }
    let top = l.row(rows).y + l.unit * 0.5;
    Rect::new(l.rows.x, top, l.rows.w, l.footer.y - top - l.unit * 0.5)
}

/// Where a room's lobby draws its card (the side panel): all of it beside the rows, and upright
/// what the chat leaves above itself, so the two never overlap.
pub fn lobby_card_area(l: &ListLayout, rows: usize) -> Rect {
    if upright(l) {
        let chat = lobby_chat_area(l, rows);
        return Rect::new(
            l.side.x,
            l.side.y,
            l.side.w,
            (chat.y - l.unit * 0.5 - l.side.y).max(0.0),
        );
    }
    l.side
}

/// Whether `l` puts its side panel under the rows (a phone held upright).
fn upright(l: &ListLayout) -> bool {
    l.side.y > l.rows.y && l.side.x <= l.rows.x + 0.5
}

/// The height of one line of the chat log at `unit`.
fn chat_line_h(unit: f32) -> f32 {
    unit * 0.85
}

/// The chat field while it is open, for the on-screen keyboard: in a match the title strip
/// `strip` (where [`draw_chat_strip`] draws it), in the lobby the log's last line in `area`
/// (where [`draw_chat_log`] draws it), so a tap on the line typed in is a tap on the field.
pub fn chat_field(chat: &Chat, strip: Option<Rect>, area: Rect, unit: f32) -> Option<TextField> {
    let text = chat.draft()?;
    let line_h = chat_line_h(unit);
    let rect = strip.unwrap_or(Rect::new(area.x, area.bottom() - line_h, area.w, line_h));
    Some(TextField {
        kind: TextKind::Plain,
        text: text.to_owned(),
        rect,
        active: true,
    })
}

/// In the room, the chat in `r`: the last lines that fit, then the field or the keys that
/// open it.
pub fn draw_chat_log(ctx: &Ctx, chat: &Chat, r: Rect, unit: f32) {
    let gfx = &ctx.gfx;
    let size = (unit * 0.55).round();
    let line_h = chat_line_h(unit);
    if r.h < line_h * 2.0 || r.w < unit * 6.0 {
        return;
    }
    let prompt = match chat.draft() {
        Some(d) => format!("say: {d}_"),
        None if taps::shown() => "/mute NAME hides a player".to_owned(),
        None => "T  chat   ·   /mute NAME hides a player".to_owned(),
    };
    let fits = ((r.h / line_h) as usize).saturating_sub(1);
    let mut y = r.y + line_h / 2.0;
    for l in chat.last(fits) {
        let who = match l.seat {
            Some(_) => l.from.clone(),
            None => format!("{} (watching)", l.from),
        };
        let text = gfx.fit(&format!("{who}: {}", l.text), r.w, size, Weight::Regular);
        gfx.text_mid(
            &text,
            r.x,
            y,
            size,
            Weight::Regular,
            Align::Left,
            theme::TEXT,
        );
        y += line_h;
    }
    let colour = if chat.draft().is_some() {
        theme::ACCENT
    } else {
        theme::TEXT_FAINT
    };
    let (prompt, size) = shrink_then_cut(gfx, &prompt, r.w, size, Weight::Regular);
    gfx.text_mid(
        &prompt,
        r.x,
        r.bottom() - line_h / 2.0,
        size,
        Weight::Regular,
        Align::Left,
        colour,
    );
}

/// Where a reconnect stands, for its banner.
pub struct Reconnecting {
    /// Whole seconds left of the room's window.
    pub left: u32,
    /// The window passed: the server decides the match, we keep trying to hear it.
    pub window_passed: bool,
    /// Connection attempts so far.
    pub attempts: u32,
}

/// The banner over a match while the connection is taken back.
pub fn draw_reconnecting(ctx: &Ctx, width: f32, height: f32, r: &Reconnecting) {
    let unit = list_layout(width, height, 1).unit;
    let w = width.min(unit * 34.0);
    let rect = Rect::new((width - w) / 2.0, height * 0.4, w, unit * 4.0);
    fill(rect, alpha(theme::PANEL, 0.95));
    outline(rect, 1.0, theme::GARBAGE_QUEUED);
    let size = (unit * 1.0).round();
    let text = if r.window_passed {
        BANNER_PAST_WINDOW.to_owned()
    } else {
        format!("{BANNER} {}s", r.left)
    };
    let line = ctx.gfx.fit(&text, rect.w - unit, size, Weight::Bold);
    ctx.gfx.banner(
        &line,
        rect.x + rect.w / 2.0,
        rect.y + unit * 1.4,
        size,
        theme::GARBAGE_QUEUED,
    );
    let why = if r.window_passed {
        "Still trying to reach the server to hear its result"
    } else {
        "The match goes on when the server takes us back"
    };
    let leave = crate::input::taps::hint("Esc  leave", "‹  leave");
    let hint = format!("attempt {}   {why}   {leave}", r.attempts.max(1));
    ctx.gfx.text_mid(
        &hint,
        rect.x + rect.w / 2.0,
        rect.y + unit * 2.9,
        (unit * 0.6).round(),
        Weight::Regular,
        Align::Center,
        theme::TEXT_DIM,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lobbys_chat_overlaps_neither_its_card_nor_its_rows_nor_its_footer() {
        let meet = |a: Rect, b: Rect| {
            a.x < b.right() - 0.5
                && b.x < a.right() - 0.5
                && a.y < b.bottom() - 0.5
                && b.y < a.bottom() - 0.5
        };
        for (w, h) in [
            (1280.0, 720.0),
            (800.0, 600.0),
            (800.0, 1731.0),
            (800.0, 1440.0),
            (1920.0, 1080.0),
        ] {
            for rows in 1..=3 {
                let l = list_layout(w, h, rows);
                let chat = lobby_chat_area(&l, rows);
                let card = lobby_card_area(&l, rows);
                let at = format!("{w}x{h}, {rows} rows");
                assert!(
                    !meet(chat, card),
                    "{at}: chat {chat:?} over the card {card:?}"
                );
                assert!(!meet(chat, l.footer), "{at}: chat over the footer");
                for i in 0..rows {
                    assert!(!meet(chat, l.row(i)), "{at}: chat over row {i}");
                }
                assert!(
                    chat.h >= chat_line_h(l.unit) * 2.0,
                    "{at}: room for the prompt and a line"
                );
                assert!(
                    card.h >= l.unit * 12.0 || card == l.side,
                    "{at}: the card keeps its room"
                );
            }
        }
    }
}
