//! What the server remembers between players: friendships and friend requests, who may send
//! a player requests, notifications kept until seen, and direct messages between friends.
//!
//! [`SocialStorage`] is a supertrait of [`crate::Storage`], implemented by both backends
//! (`sqlite/social/`, `postgres/social/`) on the same schema (migration 5). The decisions
//! (who may send what to whom) are made once, in `rules.rs`, over the few facts each backend
//! reads inside its transaction; the backends only read and write rows.
//!
//! ## The model
//! A pair of players is stored as two rows of `friendships`, one per side, each holding the
//! pair as that side sees it (friends, request sent, request received: the states of
//! Nakama's friend model), so "X's friends" and "X's requests" are one index range of X's
//! rows. Both rows are written and deleted together, in one transaction.
//!
//! ## A block wins over everything
//! Blocks live in moderation's `blocks` table ([`crate::ModerationStorage::block`]) and are
//! not copied here: while either player of a pair blocks the other, every call reads the pair
//! as if the other player did not exist. Their friendship and requests are not listed, cannot
//! be answered, and a new request or message is refused with [`SocialError::NoSuchPlayer`],
//! exactly as for an id nobody has. The rows stay, hidden, and read as before once the block
//! is lifted. Only the blocker learns of the block, from [`SocialStorage::friendship`]
//! ([`FriendState::Blocked`]); the blocked player reads [`FriendState::None`] there.

mod rules;
mod types;

pub(crate) use self::rules::{
    Link, Pairs, Settle, check_message, check_notification, friendship, may_message, send_request,
    settle,
};
pub use self::types::{
    DirectMessage, Friend, FriendPage, FriendState, MAX_CONTENT_BYTES, MAX_DIRECT_MESSAGE_CHARS,
    MAX_NOTIFICATIONS, MAX_PAGE, MAX_SUBJECT_CHARS, MessageId, Notification, NotificationId,
    NotificationKind, NotificationPage, Page, Paged, PendingRequest, PendingRequests,
    RequestOutcome, RequestPolicy, UnknownCode,
};

use crate::{PlayerId, StorageError};

/// Why a social call was refused or failed.
#[derive(Debug, thiserror::Error)]
pub enum SocialError {
    /// No player has this id, or one of the pair blocks the other: the two read the same,
    /// and the server answers both with the same words, so a block cannot be found out.
    #[error("no such player")]
    NoSuchPlayer,
    /// A friend request (or a message) to oneself.
    #[error("that is yourself")]
    ToSelf,
    /// The receiver takes no friend requests ([`RequestPolicy::Nobody`]).
    #[error("this player takes no friend requests")]
    RequestsClosed,
    /// The receiver takes friend requests only from players they have played with
    /// ([`RequestPolicy::PlayedWith`]), and the sender is not one.
    #[error("this player takes friend requests only from players they have played with")]
    NotPlayedWith,
    /// No unanswered request of that direction between the two.
    #[error("no such friend request")]
    NoSuchRequest,
    /// The two are not friends.
    #[error("you are not friends")]
    NotFriends,
    /// A text that must not be empty is.
    #[error("the {0} is empty")]
    Empty(&'static str),
    /// A text over its limit, refused before anything is written.
    #[error("the {what} is longer than {max} {unit}")]
    TooLong {
        /// Which text (`subject`, `content`, `message`).
        what: &'static str,
        /// Its limit...
        max: usize,
        /// ...in `characters` or `bytes`.
        unit: &'static str,
    },
    /// A stored code this build does not know.
    #[error(transparent)]
    UnknownCode(#[from] UnknownCode),
    /// The database failed.
    #[error(transparent)]
    Storage(#[from] StorageError),
}

/// The social side of the storage. Calls block, like [`crate::Storage`]'s. Every call that
/// writes more than one row does so in one transaction.
pub trait SocialStorage {
    /// `from` asks `to` to be friends, at `now_unix`. If `to` had asked `from` already, this
    /// accepts that request instead ([`RequestOutcome::BecameFriends`]). Refused with
    /// [`SocialError::ToSelf`] for oneself; [`SocialError::NoSuchPlayer`] when either player
    /// does not exist or either blocks the other (the same answer, on purpose: see the
    /// module docs); [`SocialError::RequestsClosed`] or [`SocialError::NotPlayedWith`] under
    /// `to`'s [`RequestPolicy`] (not asked when the request is an answer to `to`'s own).
    fn send_friend_request(
        &self,
        from: PlayerId,
        to: PlayerId,
        now_unix: u64,
    ) -> Result<RequestOutcome, SocialError>;
    /// `me` accepts `from`'s request: both are friends since `now_unix`.
    /// [`SocialError::NoSuchRequest`] if there is none (or the pair is blocked).
    fn accept_friend_request(
        &self,
        me: PlayerId,
        from: PlayerId,
        now_unix: u64,
    ) -> Result<(), SocialError>;
    /// `me` declines `from`'s request: it is gone for both. [`SocialError::NoSuchRequest`]
    /// if there is none (or the pair is blocked).
    fn decline_friend_request(&self, me: PlayerId, from: PlayerId) -> Result<(), SocialError>;
    /// `me` takes back their request to `to`. [`SocialError::NoSuchRequest`] if there is
    /// none (or the pair is blocked).
    fn cancel_friend_request(&self, me: PlayerId, to: PlayerId) -> Result<(), SocialError>;
    /// `me` and `other` are friends no more. [`SocialError::NotFriends`] if they were not
    /// (or the pair is blocked).
    fn remove_friend(&self, me: PlayerId, other: PlayerId) -> Result<(), SocialError>;
    /// One page of `me`'s friends (blocked pairs left out) in the order of their folded
    /// names (`name_key`), with how many friends there are in all.
    fn friends(&self, me: PlayerId, page: Page) -> Result<FriendPage, SocialError>;
    /// `me`'s unanswered requests, sent and received, newest first, at most [`MAX_PAGE`] of
    /// each (blocked pairs left out).
    fn pending_requests(&self, me: PlayerId) -> Result<PendingRequests, SocialError>;
    /// What `b` is to `a`, as `a` sees it: [`FriendState::Blocked`] when `a` blocks `b`;
    /// [`FriendState::None`] when `b` blocks `a`, as for a player who does not exist.
    fn friendship(&self, a: PlayerId, b: PlayerId) -> Result<FriendState, SocialError>;
    /// Sets whom `player` takes friend requests from. [`SocialError::NoSuchPlayer`] for an
    /// unknown player.
    fn set_request_policy(
        &self,
        player: PlayerId,
        policy: RequestPolicy,
    ) -> Result<(), SocialError>;
    /// Whom `player` takes friend requests from ([`RequestPolicy::Anyone`] unless set).
    /// [`SocialError::NoSuchPlayer`] for an unknown player.
    fn request_policy(&self, player: PlayerId) -> Result<RequestPolicy, SocialError>;
    /// Keeps whether `player` appears offline to their friends, so it holds on their next
    /// connection too. [`SocialError::NoSuchPlayer`] for an unknown player.
    fn set_appear_offline(&self, player: PlayerId, on: bool) -> Result<(), SocialError>;
    /// Whether `player` appears offline (`false` unless set). [`SocialError::NoSuchPlayer`]
    /// for an unknown player.
    fn appear_offline(&self, player: PlayerId) -> Result<bool, SocialError>;
    /// Keeps a notification for `to` until they mark it seen. `subject` is at most
    /// [`MAX_SUBJECT_CHARS`] characters and `content` (JSON text, stored as given) at most
    /// [`MAX_CONTENT_BYTES`] bytes, checked before anything is written
    /// ([`SocialError::TooLong`]). Past [`MAX_NOTIFICATIONS`] kept for `to`, the oldest seen
    /// ones go first, then the oldest unseen.
    fn push_notification(
        &self,
        to: PlayerId,
        kind: NotificationKind,
        subject: &str,
        content: &str,
        created_unix: u64,
    ) -> Result<NotificationId, SocialError>;
    /// `to`'s notifications not yet seen, oldest first (the order to show them in), at most
    /// `limit` (and [`MAX_PAGE`]).
    fn unseen_notifications(
        &self,
        to: PlayerId,
        limit: u32,
    ) -> Result<Vec<Notification>, SocialError>;
    /// Marks those of `ids` that are `to`'s own and unseen as seen (another player's ids are
    /// left alone), returning how many it marked.
    fn mark_seen(&self, to: PlayerId, ids: &[NotificationId]) -> Result<u32, SocialError>;
    /// `to`'s notifications neither seen nor shown yet, oldest first, at most `limit` (and
    /// [`MAX_PAGE`]): what to tell a player who comes back.
    fn unshown_notifications(
        &self,
        to: PlayerId,
        limit: u32,
    ) -> Result<Vec<Notification>, SocialError>;
    /// Marks those of `ids` that are `to`'s own and not yet shown as shown (they stay unseen),
    /// returning how many it marked.
    fn mark_shown(&self, to: PlayerId, ids: &[NotificationId]) -> Result<u32, SocialError>;
    /// One page of all `to`'s kept notifications, seen or not, newest first.
    fn notifications(&self, to: PlayerId, page: Page) -> Result<NotificationPage, SocialError>;
    /// Keeps a message from `from` to `to`: refused unless they are friends
    /// ([`SocialError::NotFriends`]) and neither blocks the other
    /// ([`SocialError::NoSuchPlayer`], as for an unknown player). `text` is 1 to
    /// [`MAX_DIRECT_MESSAGE_CHARS`] characters, checked before anything is written.
    fn store_direct_message(
        &self,
        from: PlayerId,
        to: PlayerId,
        text: &str,
        sent_unix: u64,
    ) -> Result<MessageId, SocialError>;
    /// The messages between `a` and `b` (either way), newest first, older than `before` if
    /// given, at most `limit` (and [`MAX_PAGE`]).
    fn direct_messages(
        &self,
        a: PlayerId,
        b: PlayerId,
        before: Option<MessageId>,
        limit: u32,
    ) -> Result<Vec<DirectMessage>, SocialError>;
}
