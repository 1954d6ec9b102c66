//! Drawing the Friends screen: the heading with who you are, the rows (the name field and the
//! refusal under it, the message being written, your settings, sections, notifications,
//! requests, friends with their presence), the side
//! panel about the row under the cursor, the footer with the row's keys (buttons on a touch
//! screen), and the box that asks before a friend is removed.

use macroquad::math::Rect;

use crate::input::taps;
use crate::layout::list_layout;
use crate::render::gfx::{Align, Weight, background};
use crate::render::key_buttons::{KeyChoice, footer_keys};
use crate::render::theme;
use crate::render::widgets::{
    RowState, heading, menu_row, modal, scroll_marks, section_row, side_panel, value_row,
};
use crate::screen::{Ctx, FrameIo};
use crate::text::utc_stamp;

use sevenbag_protocol::social::RequestPolicy;

use super::rows::{self, Action, Lists, Row};
use super::social::{self, Status};
use super::{CONFIRM, FriendsScreen};

/// Draws `s`.
pub fn draw(s: &FriendsScreen, ctx: &Ctx, io: &FrameIo) {
    let gfx = &ctx.gfx;
    background(io.width, io.height);
    ctx.backdrop.draw();
    let list = s.rows();
    let l = list_layout(io.width, io.height, list.len());
    let subtitle = match (s.social.status(), s.social.me()) {
        (Status::Connecting, _) => format!("Connecting to {}…", s.address),
        (Status::Ready, Some(me)) => format!("You are {me} on {}", s.address),
        (Status::Ready, None) => s.address.clone(),
        (Status::Failed(why), _) => why.clone(),
    };
    heading(
        gfx,
        taps::clear_of_back(l.title),
        l.unit,
        "Friends",
        &subtitle,
    );
    let lists = s.lists();
    let selected = s.selected(&list);
    let shown = s.nav.visible(&l, list.len());
    scroll_marks(gfx, &shown, list.len(), l.unit);
    for (i, r) in shown {
        let state = RowState {
            selected: i == s.nav.selected,
            enabled: true,
        };
        draw_row(s, ctx, list[i], r, l.unit, state, lists);
    }
    let (head, body) = panel(s, selected, lists, ctx.config.chat_filter);
    side_panel(gfx, l.side, l.unit, &head, &body);
    let actions = rows::actions(selected, lists);
    let buttons: Vec<KeyChoice> = actions
        .iter()
        .filter(|a| **a != Action::Back)
        .map(|a| (a.label(), a.key()))
        .collect();
    let footer = rows::footer(&actions);
    footer_keys(gfx, l.footer, l.unit, &footer, &buttons, &s.address);
    if let Some((name, choice)) = &s.confirm {
        modal(
            gfx,
            io.width,
            io.height,
            l.unit,
            &format!("Remove {name}?"),
            &CONFIRM,
            *choice,
            ctx.time,
        );
    }
}

/// One row.
fn draw_row(
    s: &FriendsScreen,
    ctx: &Ctx,
    row: Row,
    r: Rect,
    unit: f32,
    state: RowState,
    lists: Lists,
) {
    let gfx = &ctx.gfx;
    let t = ctx.time;
    match row {
        Row::Add => {
            value_row(
                gfx,
                r,
                unit,
                "Add a friend",
                &s.field.text,
                state,
                state.selected,
                t,
            );
            if let Some(e) = &s.field.error {
                under_row(ctx, r, unit, e, theme::BAD);
            }
        }
        Row::Message => {
            if let Some(d) = &s.draft {
                let label = if d.sending {
                    format!("Sending to {}…", d.to)
                } else {
                    format!("Message to {}", d.to)
                };
                value_row(gfx, r, unit, &label, &d.text, state, state.selected, t);
            }
        }
        Row::Policy => {
            let value = rows::policy_value(lists.you.policy);
            value_row(gfx, r, unit, "Friend requests from", value, state, false, t);
        }
        Row::Offline => {
            let value = rows::offline_value(lists.you);
            value_row(gfx, r, unit, "Appear offline", value, state, false, t);
        }
        Row::Section(section) => section_row(gfx, r, unit, &section.title()),
        Row::Notice(i) => {
            if let Some(n) = lists.notifications.get(i) {
                let tag = rows::notice_tag(n);
                let text = rows::shown_text(n, ctx.config.chat_filter);
                menu_row(gfx, r, unit, &text, tag, state, t);
            }
        }
        Row::Incoming(i) => {
            if let Some(p) = lists.incoming.get(i) {
                let label = format!("{} wants to be friends", p.name);
                menu_row(gfx, r, unit, &label, "ASKS YOU", state, t);
            }
        }
        Row::Outgoing(i) => {
            if let Some(p) = lists.outgoing.get(i) {
                let label = format!("Asked {}", p.name);
                menu_row(gfx, r, unit, &label, "WAITING", state, t);
            }
        }
        Row::Friend(i) => {
            if let Some(f) = lists.friends.entries.get(i) {
                let tag = rows::presence_tag(&f.presence);
                menu_row(gfx, r, unit, &f.name, &tag, state, t);
            }
        }
        Row::Loading => {
            let label = format!(
                "Loading more… ({} of {})",
                lists.friends.entries.len(),
                lists.friends.total
            );
            menu_row(
                gfx,
                r,
                unit,
                &label,
                "",
                RowState {
                    enabled: false,
                    ..state
                },
                t,
            );
        }
        Row::NoFriends => menu_row(
            gfx,
            r,
            unit,
            "No friends yet",
            "",
            RowState {
                enabled: false,
                ..state
            },
            t,
        ),
        Row::Back => menu_row(gfx, r, unit, "Back", "", state, t),
    }
}

/// A short line under a field row (a refusal, or that it is on its way).
fn under_row(ctx: &Ctx, r: Rect, unit: f32, line: &str, colour: macroquad::color::Color) {
    let size = (unit * 0.62).round();
    ctx.gfx.text(
        line,
        r.x + unit * 0.6,
        r.bottom() + size * 0.1,
        size,
        Weight::Regular,
        Align::Left,
        colour,
    );
}

/// The side panel about `row`.
fn panel(s: &FriendsScreen, row: Row, lists: Lists, filter: bool) -> (String, String) {
    if let Status::Failed(why) = s.social.status() {
        return ("Friends".to_owned(), why.clone());
    }
    if *s.social.status() == Status::Connecting {
        return ("Friends".to_owned(), "Connecting…".to_owned());
    }
    let with = |what: &str| format!("{what}{}", keys_line(&rows::actions(row, lists)));
    match row {
        Row::Add => ("Add a friend".to_owned(), add_help()),
        Row::Message => match &s.draft {
            Some(d) => (
                format!("To {}", d.to),
                format!(
                    "{} reads it in their notifications, now or the next time they are online. Up to 200 characters.{}",
                    d.to,
                    keys_line(&rows::actions(row, lists))
                ),
            ),
            None => (String::new(), String::new()),
        },
        Row::Policy => ("Friend requests".to_owned(), policy_help(lists.you.policy)),
        Row::Offline => ("Appear offline".to_owned(), offline_help()),
        Row::Notice(i) => match lists.notifications.get(i) {
            Some(n) => (
                rows::notice_tag(n).to_owned(),
                with(&format!(
                    "{}.\n{}",
                    rows::shown_text(n, filter),
                    utc_stamp(n.created_unix)
                )),
            ),
            None => (String::new(), String::new()),
        },
        Row::Incoming(i) => match lists.incoming.get(i) {
            Some(p) => (
                p.name.clone(),
                with(&format!(
                    "{} asked to be your friend on {}.",
                    p.name,
                    utc_stamp(p.sent_unix)
                )),
            ),
            None => (String::new(), String::new()),
        },
        Row::Outgoing(i) => match lists.outgoing.get(i) {
            Some(p) => (
                p.name.clone(),
                with(&format!(
                    "You asked {} on {}; no answer yet.",
                    p.name,
                    utc_stamp(p.sent_unix)
                )),
            ),
            None => (String::new(), String::new()),
        },
        Row::Friend(i) => match lists.friends.entries.get(i) {
            Some(f) => (
                f.name.clone(),
                with(&format!(
                    "{}\nFriends since {}.",
                    rows::presence_sentence(f),
                    utc_stamp(f.since_unix)
                )),
            ),
            None => (String::new(), String::new()),
        },
        _ => (
            "Friends".to_owned(),
            "Your friends and where they are, live: watch a friend's match in one step, join a room you are invited to, answer requests.".to_owned(),
        ),
    }
}

/// The side panel on the name field.
pub fn add_help() -> String {
    format!(
        "Type a player's name on this server{}. They see your request the next time they are online, and their friends list shows you once they accept.\n\nNames: 3 to 16 letters, digits, '_' or '-'.",
        taps::hint(" and press Enter", " and tap Send"),
    )
}

/// The side panel on the policy row.
pub fn policy_help(now: Option<RequestPolicy>) -> String {
    let now = match now {
        Some(p) => format!("Now: {}", social::policy_text(p)),
        None => {
            "The server keeps your choice but does not say it until you choose here.".to_owned()
        }
    };
    format!(
        "Who may send you friend requests: anyone, only players you have played a match with, or nobody. {}",
        now,
    ) + taps::hint(
        "\n\n1 anyone, 2 played with, 3 nobody; Enter steps through them.",
        "",
    )
}

/// The side panel on the appear-offline row.
pub fn offline_help() -> String {
    format!(
        "While on, your friends see you offline wherever you are. This server keeps it until you turn it off, also after you leave and when you come back.{}",
        taps::hint(" O or Enter turns it on or off.", ""),
    )
}

/// What a row's actions do, in words, for the side panel (empty without any).
fn keys_line(actions: &[Action]) -> String {
    let words: Vec<&str> = actions
        .iter()
        .filter_map(|a| match a {
            Action::Join(_) => Some("Join takes you into that room; Decline drops the invite."),
            Action::Watch(_) => Some("Watch spectates their room."),
            Action::Accept(_) => Some("Accept makes you friends; Decline says no."),
            Action::Cancel(_) => Some("Cancel takes the request back."),
            Action::Remove(_) => Some("Remove asks first."),
            Action::Reply(_) => Some("Reply writes them a direct message."),
            Action::ReportMessage(_) => {
                Some("Report sends the message to the server's operators as abuse.")
            }
            Action::Challenge(_) => {
                Some("Challenge makes a room with your rules and invites them to it.")
            }
            _ => None,
        })
        .collect();
    if words.is_empty() {
        String::new()
    } else {
        format!("\n\n{}", words.join(" "))
    }
}
