//! What the Friends screen lists, without a window: the rows built from the lists the
//! connection holds, and the name "Add a friend" sends to. Beside it, one job each:
//!
//! - [`actions`] — what a row lets the player do, with the key and the button of each, and
//!   the footers that name them;
//! - [`words`] — presence and notifications in words (tags, sentences, an invite's code).

mod actions;
#[cfg(test)]
mod tests;
mod words;

pub use actions::*;
pub use words::*;

use sevenbag_protocol::social::{Notification, NotificationKind, PendingEntry};

use crate::friends::social::{FriendList, You};
use crate::name_field::NameField;

/// One row of the screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Row {
    /// The name field: type a name, Enter sends the request.
    Add,
    /// The direct message being written (only while one is).
    Message,
    /// Whom you take friend requests from.
    Policy,
    /// Whether friends see you offline.
    Offline,
    /// A section's title (not selectable).
    Section(Section),
    /// Notification `i` of the connection's list.
    Notice(usize),
    /// Incoming request `i`.
    Incoming(usize),
    /// Outgoing request `i`.
    Outgoing(usize),
    /// Friend `i` of the list as loaded.
    Friend(usize),
    /// More friends than loaded: the next page is on its way (not selectable).
    Loading,
    /// No friends yet (not selectable).
    NoFriends,
    /// Leave the screen.
    Back,
}

/// The sections of the list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Section {
    /// Your own settings.
    You,
    /// The direct message being written.
    Message,
    /// Notifications that arrived unseen.
    Notifications,
    /// Friend requests both ways.
    Requests,
    /// The friend list, with how many.
    Friends(usize),
}

impl Section {
    /// Its title.
    pub fn title(self) -> String {
        match self {
            Section::You => "YOU".to_owned(),
            Section::Message => "MESSAGE".to_owned(),
            Section::Notifications => "NEW".to_owned(),
            Section::Requests => "FRIEND REQUESTS".to_owned(),
            Section::Friends(n) => format!("FRIENDS · {n}"),
        }
    }
}

impl Row {
    /// Whether the cursor can stop on it.
    pub fn selectable(self) -> bool {
        !matches!(self, Row::Section(_) | Row::Loading | Row::NoFriends)
    }
}

/// What the lists of the connection hold now.
#[derive(Clone, Copy, Debug)]
pub struct Lists<'a> {
    /// Unseen notifications, oldest first.
    pub notifications: &'a [Notification],
    /// Requests to you.
    pub incoming: &'a [PendingEntry],
    /// Your requests.
    pub outgoing: &'a [PendingEntry],
    /// The friend list as loaded.
    pub friends: &'a FriendList,
    /// Your settings as the connection knows them.
    pub you: You,
    /// The friend a message is being written to.
    pub writing: Option<&'a str>,
}

/// The rows for `lists`: the name field, your settings, the message being written, the new
/// notifications, the requests, the friends (a loading row while pages remain), then Back.
pub fn build(lists: Lists) -> Vec<Row> {
    // A section follows the name field: its refusal is drawn in the section's space.
    let mut rows = vec![
        Row::Add,
        Row::Section(Section::You),
        Row::Policy,
        Row::Offline,
    ];
    if lists.writing.is_some() {
        rows.extend([Row::Section(Section::Message), Row::Message]);
    }
    // A request still waiting has its own row with its answers, and one accepted its friend's
    // row: its notification would say it twice, or say what no longer holds.
    let notices: Vec<Row> = (lists.notifications.iter().enumerate())
        .filter(|(_, n)| {
            n.kind != NotificationKind::FriendRequest
                || !(lists.incoming.iter().any(|p| p.name == n.subject)
                    || lists.friends.entries.iter().any(|f| f.name == n.subject))
        })
        .map(|(i, _)| Row::Notice(i))
        .collect();
    if !notices.is_empty() {
        rows.push(Row::Section(Section::Notifications));
        rows.extend(notices);
    }
    if !lists.incoming.is_empty() || !lists.outgoing.is_empty() {
        rows.push(Row::Section(Section::Requests));
        rows.extend((0..lists.incoming.len()).map(Row::Incoming));
        rows.extend((0..lists.outgoing.len()).map(Row::Outgoing));
    }
    let friends = lists.friends;
    rows.push(Row::Section(Section::Friends(friends.total)));
    if friends.total == 0 {
        rows.push(Row::NoFriends);
    }
    rows.extend((0..friends.entries.len()).map(Row::Friend));
    if friends.entries.len() < friends.total {
        rows.push(Row::Loading);
    }
    rows.push(Row::Back);
    rows
}

/// The name in "Add a friend" to send a request to, when it follows the name rules and is
/// not `me`; otherwise why not is kept in the field (the rules' words, as the welcome screen
/// gives them). A sent name empties the field.
pub fn request_name(field: &mut NameField, me: Option<&str>) -> Option<String> {
    let name = field.submit()?;
    if me.is_some_and(|me| me.eq_ignore_ascii_case(&name)) {
        field.refuse("That is your own name.");
        return None;
    }
    field.text.clear();
    Some(name)
}
