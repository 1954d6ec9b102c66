//! The values [`SocialStorage`](super::SocialStorage) takes and gives: states of a pair of
//! players, request policies, pages, notifications and direct messages, with their stored codes.

use crate::PlayerId;

/// The most rows one page may hold ([`Page::limit`] is cut down to this).
pub const MAX_PAGE: u32 = 1_000;

/// The longest notification subject, in characters.
pub const MAX_SUBJECT_CHARS: usize = 200;

/// The longest notification content (JSON text), in bytes.
pub const MAX_CONTENT_BYTES: usize = 4 * 1024;

/// The most notifications kept for one player. Past it, pushing one drops the player's
/// oldest seen notifications first, then (only when all kept ones are unseen) the oldest
/// unseen: what the player has read goes before what they have not.
pub const MAX_NOTIFICATIONS: u32 = 500;

/// The longest direct message, in characters: a room chat line's limit
/// (`sevenbag_protocol::identity::MAX_CHAT_CHARS`), so one text box serves both.
pub const MAX_DIRECT_MESSAGE_CHARS: usize = 200;

/// A notification's row id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NotificationId(pub i64);

/// A direct message's row id (increasing: a later message has a larger id).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MessageId(pub i64);

/// What one player is to another, as the first of the two sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FriendState {
    /// Nothing between them (also what a player who does not exist, or who blocks the
    /// asker, reads as).
    None,
    /// Friends.
    Friends,
    /// The asker sent a request the other has not answered.
    RequestSent,
    /// The other sent the asker a request the asker has not answered.
    RequestReceived,
    /// The asker blocks the other (whatever else is stored between them).
    Blocked,
}

/// What [`SocialStorage::send_friend_request`](super::SocialStorage::send_friend_request)
/// did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RequestOutcome {
    /// A new request waits for the other player's answer.
    Sent,
    /// The other player had sent a request already: it is accepted, they are friends now.
    BecameFriends,
    /// They were friends already; nothing changed.
    AlreadyFriends,
    /// A request of the sender's was waiting already; nothing changed.
    AlreadySent,
}

/// Whom a player takes friend requests from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum RequestPolicy {
    /// Any player (the default).
    #[default]
    Anyone,
    /// Only players they share a stored match with (a two-seat match or a battle).
    PlayedWith,
    /// No one.
    Nobody,
}

impl RequestPolicy {
    /// Its stored code: `Anyone` 0, `PlayedWith` 1, `Nobody` 2.
    pub const fn code(self) -> i64 {
        match self {
            RequestPolicy::Anyone => 0,
            RequestPolicy::PlayedWith => 1,
            RequestPolicy::Nobody => 2,
        }
    }

    /// The policy a stored code names.
    pub fn from_code(code: i64) -> Result<RequestPolicy, UnknownCode> {
        match code {
            0 => Ok(RequestPolicy::Anyone),
            1 => Ok(RequestPolicy::PlayedWith),
            2 => Ok(RequestPolicy::Nobody),
            _ => Err(UnknownCode {
                what: "request policy",
                code,
            }),
        }
    }
}

/// What a notification is about. Stored as a small integer ([`NotificationKind::code`]);
/// new kinds take the next free code, and a code this build does not know reads as an
/// [`UnknownCode`] in [`Notification::kind`] (a newer server's row), never as a panic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NotificationKind {
    /// Someone sent the player a friend request (code 1).
    FriendRequest,
    /// Someone accepted the player's friend request (code 2).
    FriendAccepted,
    /// An invitation to a room (code 3).
    Invite,
    /// A direct message arrived while the player was away (code 4).
    DirectMessage,
    /// The player's next tournament match is ready (code 5).
    TournamentMatchReady,
}

impl NotificationKind {
    /// Every kind, in code order.
    pub const ALL: [NotificationKind; 5] = [
        NotificationKind::FriendRequest,
        NotificationKind::FriendAccepted,
        NotificationKind::Invite,
        NotificationKind::DirectMessage,
        NotificationKind::TournamentMatchReady,
    ];

    /// Its stored code (1 to 5, in the order of [`NotificationKind::ALL`]; 0 is never used).
    pub const fn code(self) -> i64 {
        match self {
            NotificationKind::FriendRequest => 1,
            NotificationKind::FriendAccepted => 2,
            NotificationKind::Invite => 3,
            NotificationKind::DirectMessage => 4,
            NotificationKind::TournamentMatchReady => 5,
        }
    }

    /// The kind a stored code names.
    pub fn from_code(code: i64) -> Result<NotificationKind, UnknownCode> {
        NotificationKind::ALL
            .into_iter()
            .find(|k| k.code() == code)
            .ok_or(UnknownCode {
                what: "notification kind",
                code,
            })
    }
}

/// A stored code this build does not know (written by a newer server, or damaged).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[error("unknown {what} code {code}")]
pub struct UnknownCode {
    /// What the code stands for (`notification kind`, `request policy`).
    pub what: &'static str,
    /// The stored code.
    pub code: i64,
}

/// Which rows of a listing to read: `limit` rows after skipping `offset`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Page {
    /// Rows skipped.
    pub offset: u32,
    /// Rows wanted (at most [`MAX_PAGE`]; more is cut down to it).
    pub limit: u32,
}

impl Page {
    /// The first `limit` rows.
    pub const fn first(limit: u32) -> Page {
        Page { offset: 0, limit }
    }

    /// The limit actually read: at most [`MAX_PAGE`].
    pub fn size(self) -> u32 {
        self.limit.min(MAX_PAGE)
    }

    /// The page after this one, when `total` rows are listed (`None` past the end).
    pub fn next(self, total: u64) -> Option<Page> {
        let end = u64::from(self.offset) + u64::from(self.size());
        (self.size() > 0 && end < total).then(|| Page {
            offset: u32::try_from(end).unwrap_or(u32::MAX),
            limit: self.limit,
        })
    }
}

/// One page of a listing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Paged<T> {
    /// The rows of this page.
    pub items: Vec<T>,
    /// Rows in the whole listing.
    pub total: u64,
    /// The page after this one, if there are rows past it.
    pub next: Option<Page>,
}

impl<T> Paged<T> {
    /// `items` read at `page` of a listing of `total` rows.
    pub fn new(items: Vec<T>, total: u64, page: Page) -> Paged<T> {
        Paged {
            items,
            total,
            next: page.next(total),
        }
    }
}

/// A friend, as listed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Friend {
    /// Who.
    pub player: PlayerId,
    /// Their current name.
    pub name: String,
    /// When they became friends (Unix seconds).
    pub since_unix: u64,
}

/// A page of friends, in the order of their folded names.
pub type FriendPage = Paged<Friend>;

/// A friend request waiting for its answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PendingRequest {
    /// The other player (the sender of an incoming request, the receiver of an outgoing one).
    pub player: PlayerId,
    /// Their current name.
    pub name: String,
    /// When it was sent (Unix seconds).
    pub sent_unix: u64,
}

/// A player's unanswered friend requests, each list newest first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PendingRequests {
    /// Sent to the player.
    pub incoming: Vec<PendingRequest>,
    /// Sent by the player.
    pub outgoing: Vec<PendingRequest>,
}

/// A stored notification.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notification {
    /// Its id.
    pub id: NotificationId,
    /// What it is about; an unknown stored code reads as its [`UnknownCode`], so one row of
    /// a newer server's does not hide the rest.
    pub kind: Result<NotificationKind, UnknownCode>,
    /// A short line for people.
    pub subject: String,
    /// Its details, as JSON text (stored as given).
    pub content: String,
    /// When it was pushed (Unix seconds).
    pub created_unix: u64,
    /// Whether the player has marked it seen.
    pub seen: bool,
}

/// A page of notifications, newest first.
pub type NotificationPage = Paged<Notification>;

/// A stored direct message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DirectMessage {
    /// Its id.
    pub id: MessageId,
    /// Who sent it.
    pub from: PlayerId,
    /// To whom.
    pub to: PlayerId,
    /// What it says.
    pub text: String,
    /// When it was sent (Unix seconds).
    pub sent_unix: u64,
}
