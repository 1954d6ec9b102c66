//! What a row of the Friends screen lets the player do: the actions, the key and the button
//! of each, which one Enter does, the settings rows' values, and the footers naming them.

use macroquad::input::KeyCode;
use sevenbag_protocol::social::{NotificationKind, RequestPolicy};

use super::words::{invite_code, room_of};
use super::{Lists, Row};
use crate::friends::social::You;

/// What a row lets the player do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Send a request to the name in the field.
    Send,
    /// Join room `code` (an invite).
    Join(String),
    /// Turn down the invite of notification `id` (it leaves the list).
    DeclineInvite(u64),
    /// Spectate room `code` (a friend's match).
    Watch(String),
    /// Make a room with one's own rules and invite friend `name` to it.
    Challenge(String),
    /// Accept `name`'s request.
    Accept(String),
    /// Decline `name`'s request.
    Decline(String),
    /// Take back the request to `name`.
    Cancel(String),
    /// Stop being friends with `name` (asked first).
    Remove(String),
    /// Write a direct message to friend `name`.
    Reply(String),
    /// Report the sender of direct message `id` to the server's operators, quoting it.
    ReportMessage(u64),
    /// Send the message being written.
    SendMessage,
    /// Drop the message being written.
    Discard,
    /// Take friend requests from these players only.
    Policy(RequestPolicy),
    /// Appear offline to friends (`true`) or be seen again.
    AppearOffline(bool),
    /// Leave the screen.
    Back,
}

impl Action {
    /// The key that does it on a desktop (Enter does a row's first action too).
    pub fn key(&self) -> KeyCode {
        match self {
            Action::Send => KeyCode::Enter,
            Action::Join(_) => KeyCode::J,
            Action::DeclineInvite(_) => KeyCode::D,
            Action::Watch(_) => KeyCode::W,
            Action::Challenge(_) => KeyCode::C,
            Action::Accept(_) => KeyCode::A,
            Action::Decline(_) => KeyCode::D,
            Action::Cancel(_) => KeyCode::C,
            Action::Remove(_) => KeyCode::Delete,
            Action::Reply(_) => KeyCode::R,
            Action::ReportMessage(_) => KeyCode::X,
            Action::SendMessage => KeyCode::Enter,
            Action::Discard => KeyCode::Escape,
            Action::Policy(RequestPolicy::Anyone) => KeyCode::Key1,
            Action::Policy(RequestPolicy::PlayedWith) => KeyCode::Key2,
            Action::Policy(RequestPolicy::Nobody) => KeyCode::Key3,
            Action::AppearOffline(_) => KeyCode::O,
            Action::Back => KeyCode::Escape,
        }
    }

    /// Its button's label on a touch screen.
    pub fn label(&self) -> &'static str {
        match self {
            Action::Send => "Send",
            Action::Join(_) => "Join",
            Action::DeclineInvite(_) => "Decline",
            Action::Watch(_) => "Watch",
            Action::Challenge(_) => "Challenge",
            Action::Accept(_) => "Accept",
            Action::Decline(_) => "Decline",
            Action::Cancel(_) => "Cancel",
            Action::Remove(_) => "Remove",
            Action::Reply(_) => "Reply",
            Action::ReportMessage(_) => "Report",
            Action::SendMessage => "Send",
            Action::Discard => "Discard",
            Action::Policy(p) => policy_word(*p),
            Action::AppearOffline(true) => "Appear offline",
            Action::AppearOffline(false) => "Be seen",
            Action::Back => "Back",
        }
    }

    /// Its hint in the desktop footer ("W watch").
    pub fn hint(&self) -> String {
        let key = match self {
            Action::Send => "Enter",
            Action::Join(_) => "J",
            Action::DeclineInvite(_) => "D",
            Action::Watch(_) => "W",
            Action::Challenge(_) => "C",
            Action::Accept(_) => "A",
            Action::Decline(_) => "D",
            Action::Cancel(_) => "C",
            Action::Remove(_) => "Del",
            Action::Reply(_) => "R",
            Action::ReportMessage(_) => "X",
            Action::SendMessage => "Enter",
            Action::Discard => "Esc",
            Action::Policy(RequestPolicy::Anyone) => "1",
            Action::Policy(RequestPolicy::PlayedWith) => "2",
            Action::Policy(RequestPolicy::Nobody) => "3",
            Action::AppearOffline(_) => "O",
            Action::Back => "Esc",
        };
        format!("{key} {}", self.label().to_lowercase())
    }
}

/// The actions of `row`, the one Enter (or a tap on the row) does first; destructive ones
/// (decline, cancel, remove) only by their own key or button.
pub fn actions(row: Row, lists: Lists) -> Vec<Action> {
    match row {
        Row::Add => vec![Action::Send],
        Row::Message => vec![Action::SendMessage, Action::Discard],
        Row::Policy => policy_choices(lists.you.policy)
            .into_iter()
            .map(Action::Policy)
            .collect(),
        Row::Offline => vec![Action::AppearOffline(!lists.you.hidden)],
        Row::Notice(i) => {
            lists
                .notifications
                .get(i)
                .map_or(Vec::new(), |n| match (invite_code(n), n.kind) {
                    (Some(code), _) => vec![Action::Join(code), Action::DeclineInvite(n.id)],
                    (None, NotificationKind::DirectMessage) => {
                        vec![
                            Action::Reply(n.subject.clone()),
                            Action::ReportMessage(n.id),
                        ]
                    }
                    _ => Vec::new(),
                })
        }
        Row::Incoming(i) => lists.incoming.get(i).map_or(Vec::new(), |p| {
            vec![
                Action::Accept(p.name.clone()),
                Action::Decline(p.name.clone()),
            ]
        }),
        Row::Outgoing(i) => lists
            .outgoing
            .get(i)
            .map_or(Vec::new(), |p| vec![Action::Cancel(p.name.clone())]),
        Row::Friend(i) => lists.friends.entries.get(i).map_or(Vec::new(), |f| {
            let mut v: Vec<Action> = room_of(&f.presence)
                .map(Action::Watch)
                .into_iter()
                .collect();
            v.push(Action::Reply(f.name.clone()));
            v.push(Action::Challenge(f.name.clone()));
            v.push(Action::Remove(f.name.clone()));
            v
        }),
        Row::Back => vec![Action::Back],
        Row::Section(_) | Row::Loading | Row::NoFriends => Vec::new(),
    }
}

/// What Enter (or a tap on the row) does: the row's first action unless it undoes something.
pub fn primary(row: Row, lists: Lists) -> Option<Action> {
    actions(row, lists).into_iter().next().filter(|a| {
        !matches!(
            a,
            Action::Decline(_)
                | Action::DeclineInvite(_)
                | Action::Cancel(_)
                | Action::Remove(_)
                | Action::ReportMessage(_)
                | Action::Discard
        )
    })
}

/// The policies the policy row offers, the one after `now` first (Enter steps through them);
/// all three while `now` is not known.
pub fn policy_choices(now: Option<RequestPolicy>) -> Vec<RequestPolicy> {
    use RequestPolicy::*;
    match now {
        None => vec![Anyone, PlayedWith, Nobody],
        Some(Anyone) => vec![PlayedWith, Nobody],
        Some(PlayedWith) => vec![Nobody, Anyone],
        Some(Nobody) => vec![Anyone, PlayedWith],
    }
}

/// A policy in a word or two (the policy row's value and its buttons).
pub fn policy_word(policy: RequestPolicy) -> &'static str {
    match policy {
        RequestPolicy::Anyone => "Anyone",
        RequestPolicy::PlayedWith => "Played with",
        RequestPolicy::Nobody => "Nobody",
    }
}

/// The policy row's value: the policy, or "…" until the server has said it.
pub fn policy_value(now: Option<RequestPolicy>) -> &'static str {
    now.map_or("…", policy_word)
}

/// The appear-offline row's value.
pub fn offline_value(you: You) -> &'static str {
    if you.hidden { "On" } else { "Off" }
}

/// The desktop footer for a row's actions (Esc leaves the screen unless an action takes it).
pub fn footer(actions: &[Action]) -> String {
    let mut parts = vec!["↑ ↓ choose".to_owned()];
    parts.extend(
        actions
            .iter()
            .filter(|a| **a != Action::Back)
            .map(Action::hint),
    );
    if !actions.iter().any(|a| a.key() == KeyCode::Escape) {
        parts.push("Esc back".to_owned());
    }
    parts.join("   ")
}

/// Every footer the screen shows, for the text-fit test.
#[cfg(test)]
pub fn footers() -> Vec<String> {
    let n = String::new;
    [
        vec![Action::Send],
        vec![Action::Join(n()), Action::DeclineInvite(0)],
        vec![Action::Accept(n()), Action::Decline(n())],
        vec![Action::Cancel(n())],
        vec![Action::Watch(n()), Action::Reply(n()), Action::Remove(n())],
        vec![Action::Reply(n()), Action::Remove(n())],
        vec![Action::Reply(n())],
        vec![Action::SendMessage, Action::Discard],
        policy_choices(None)
            .into_iter()
            .map(Action::Policy)
            .collect(),
        vec![Action::AppearOffline(true)],
        vec![Action::AppearOffline(false)],
        vec![],
    ]
    .iter()
    .map(|a| footer(a))
    .collect()
}
