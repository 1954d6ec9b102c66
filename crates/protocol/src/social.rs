//! What the friends, presence and notification messages carry (`docs/PROTOCOL.md`, "Friends,
//! presence and notifications"): a friend's presence, the rows of the friend, request and
//! notification lists, and the bounds every list is held to on decode.
//!
//! The messages themselves are appended to [`crate::ClientMessage`] (`SendFriendRequest` to
//! `InviteFriend`) and [`crate::ServerMessage`] (`FriendRequestSent` to `Presence`). Names are
//! identity names (`identity::validate_name`, checked by the server); texts a player writes
//! pass the chat's visible-text rules ([`clean_visible`]) before anyone else reads them.

use serde::{Deserialize, Deserializer, Serialize};

use crate::visible::clean_visible;

/// Most friends one [`crate::ServerMessage::Friends`] page holds (and the most a
/// `GetFriends` may ask for): a longer list pages through `offset`.
pub const MAX_FRIENDS_PER_PAGE: usize = 100;
/// Most requests each list of a [`crate::ServerMessage::FriendRequests`] holds.
pub const MAX_PENDING_PER_LIST: usize = 100;
/// Most notifications one [`crate::ServerMessage::Notifications`] holds, and the most ids
/// one `MarkNotificationsSeen` may name.
pub const MAX_NOTIFICATIONS_PER_MESSAGE: usize = 100;
/// The longest direct message, in characters: a room chat line's limit
/// (`identity::MAX_CHAT_CHARS`, the same number; a test holds them equal).
pub const MAX_DIRECT_MESSAGE_CHARS: usize = 200;

/// What kind of match a player is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MatchKind {
    /// A two-seat room or a quick match.
    Versus,
    /// A ranked match.
    Ranked,
    /// A room of several seats (free-for-all or teams).
    FreeForAll,
}

/// Where a friend is, as their friends see it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PresenceState {
    /// Not connected (or appearing offline).
    Offline,
    /// Connected, not playing or watching.
    Online,
    /// Connected but away from the game (a client's own report; the server sends it as told).
    Away,
    /// Seated in a running match.
    InMatch {
        /// What kind.
        kind: MatchKind,
        /// The room's code.
        code: String,
    },
    /// Watching room `code`.
    Spectating {
        /// The room's code.
        code: String,
    },
}

/// How to answer a friend request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RequestAnswer {
    /// Become friends.
    Accept,
    /// Say no: the request is gone for both.
    Decline,
}

/// What a `SendFriendRequest` did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RequestResult {
    /// A new request waits for the other player's answer.
    Sent,
    /// The other player had asked already: that request is accepted, they are friends now.
    BecameFriends,
    /// They were friends already.
    AlreadyFriends,
    /// This request was waiting already.
    AlreadySent,
}

/// Whom a player takes friend requests from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RequestPolicy {
    /// Anyone (the default).
    #[default]
    Anyone,
    /// Only players they have played a stored match with.
    PlayedWith,
    /// No one.
    Nobody,
}

/// What a notification is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum NotificationKind {
    /// Someone sent you a friend request (`subject`: their name).
    FriendRequest,
    /// Someone accepted your friend request (`subject`: their name).
    FriendAccepted,
    /// A friend invites you to a room (`subject`: their name; `content`: `{"code": ...}`).
    Invite,
    /// A friend's direct message (`subject`: their name; `content`: `{"text": ...}`).
    DirectMessage,
    /// Your next tournament match is ready.
    TournamentMatchReady,
    /// A kind this build does not know (kept by a newer server).
    Other,
}

/// A notification, kept by the server until marked seen.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Notification {
    /// Its id, for `MarkNotificationsSeen`.
    pub id: u64,
    /// What it is about.
    pub kind: NotificationKind,
    /// A short line for people: usually the name of the player it comes from.
    pub subject: String,
    /// Its details as JSON text (see [`NotificationKind`]).
    pub content: String,
    /// When it was made (Unix seconds).
    pub created_unix: u64,
}

/// A friend, as listed.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct FriendEntry {
    /// Their current name.
    pub name: String,
    /// Friends since (Unix seconds).
    pub since_unix: u64,
    /// Where they are now, across the instances of a cluster.
    pub presence: PresenceState,
}

/// A friend request waiting for its answer.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PendingEntry {
    /// The other player's current name.
    pub name: String,
    /// When it was sent (Unix seconds).
    pub sent_unix: u64,
}

fn at_most<'de, D, T>(d: D, max: usize, what: &'static str) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    let list = Vec::<T>::deserialize(d)?;
    if list.len() > max {
        return Err(serde::de::Error::invalid_length(list.len(), &what));
    }
    Ok(list)
}

/// Decodes a friend page of at most [`MAX_FRIENDS_PER_PAGE`] entries.
pub fn at_most_friends<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    at_most(d, MAX_FRIENDS_PER_PAGE, "at most 100 friends")
}

/// Decodes a request list of at most [`MAX_PENDING_PER_LIST`] entries.
pub fn at_most_pending<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    at_most(d, MAX_PENDING_PER_LIST, "at most 100 requests")
}

/// Decodes a notification list (or a list of notification ids) of at most
/// [`MAX_NOTIFICATIONS_PER_MESSAGE`] entries.
pub fn at_most_notifications<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    at_most(
        d,
        MAX_NOTIFICATIONS_PER_MESSAGE,
        "at most 100 notifications",
    )
}

/// A direct message as the server delivers it: the visible text a chat line is held to
/// ([`clean_visible`]), at most [`MAX_DIRECT_MESSAGE_CHARS`]; `None` if nothing is left or it
/// is too long.
pub fn clean_direct_message(text: &str) -> Option<String> {
    clean_visible(text, MAX_DIRECT_MESSAGE_CHARS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ClientMessage, ServerMessage, decode_client, decode_server, encode};

    #[test]
    fn lists_over_their_bound_do_not_decode() {
        let ids = ClientMessage::MarkNotificationsSeen {
            ids: (0..=MAX_NOTIFICATIONS_PER_MESSAGE as u64).collect(),
        };
        let bytes = encode(&ids).expect("encodes");
        assert!(decode_client(&bytes, 1 << 20).is_err());
        let entry = FriendEntry {
            name: "ann".into(),
            since_unix: 1,
            presence: PresenceState::Online,
        };
        let page = ServerMessage::Friends {
            offset: 0,
            total: 101,
            friends: vec![entry.clone(); MAX_FRIENDS_PER_PAGE + 1],
        };
        assert!(decode_server(&encode(&page).expect("encodes")).is_err());
        let page = ServerMessage::Friends {
            offset: 0,
            total: 100,
            friends: vec![entry; MAX_FRIENDS_PER_PAGE],
        };
        assert!(decode_server(&encode(&page).expect("encodes")).is_ok());
    }

    #[test]
    fn direct_messages_are_held_to_the_chat_rules() {
        assert_eq!(clean_direct_message(" hi\u{200B} "), Some("hi".into()));
        assert_eq!(clean_direct_message("\u{202E}"), None);
        assert!(clean_direct_message(&"x".repeat(MAX_DIRECT_MESSAGE_CHARS + 1)).is_none());
    }
}
