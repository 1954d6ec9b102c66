//! The lists a player reads of their own outside the game's connection (the HTTP API,
//! `crate::api_social`): their friends with each one's presence, their waiting requests and
//! their unseen notifications.

use sevenbag_protocol::social::{FriendEntry, MAX_PENDING_PER_LIST, Notification, PendingEntry};
use sevenbag_storage::{self as storage, Page, PlayerId};

use super::notify::wire;
use super::presence::PresenceBook;
use super::store::{db, run};
use crate::refusal::Refusal;
use crate::services::Services;

/// One page of a player's friends, in name order.
#[derive(Debug)]
pub(crate) struct FriendsRead {
    /// How many friends there are in all.
    pub(crate) total: u64,
    /// This page's, each with where they are now (across the cluster).
    pub(crate) friends: Vec<FriendEntry>,
}

/// `player`'s friends at `page` (`offset`, `limit`), each with their presence in `book`.
pub(crate) async fn friends(
    services: &Services,
    book: &PresenceBook,
    player: PlayerId,
    page: Page,
) -> Result<FriendsRead, Refusal> {
    let read = run(db(services)?, false, move |s| s.friends(player, page)).await?;
    let friends = read
        .items
        .into_iter()
        .map(|f| FriendEntry {
            presence: book.state_of(f.player),
            name: f.name,
            since_unix: f.since_unix,
        })
        .collect();
    Ok(FriendsRead {
        total: read.total,
        friends,
    })
}

/// `player`'s waiting friend requests, received and sent, newest first (at most 100 each).
pub(crate) async fn requests(
    services: &Services,
    player: PlayerId,
) -> Result<(Vec<PendingEntry>, Vec<PendingEntry>), Refusal> {
    let pending = run(db(services)?, false, move |s| s.pending_requests(player)).await?;
    let rows = |list: Vec<storage::PendingRequest>| {
        list.into_iter()
            .take(MAX_PENDING_PER_LIST)
            .map(|r| PendingEntry {
                name: r.name,
                sent_unix: r.sent_unix,
            })
            .collect()
    };
    Ok((rows(pending.incoming), rows(pending.outgoing)))
}

/// Every notification `player` has not marked seen, newest first.
pub(crate) async fn unseen(
    services: &Services,
    player: PlayerId,
) -> Result<Vec<Notification>, Refusal> {
    let limit = storage::social::MAX_PAGE;
    let list = run(db(services)?, false, move |s| {
        s.unseen_notifications(player, limit)
    })
    .await?;
    Ok(list.into_iter().rev().map(wire).collect())
}
