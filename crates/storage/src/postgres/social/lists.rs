//! Listing a player's friends (paged, by name) and unanswered requests on PostgreSQL.

use postgres::{GenericClient, Row};

use super::super::db;
use crate::PlayerId;
use crate::columns::{FRIEND_FROM, UNBLOCKED};
use crate::moderation::from_unix;
use crate::social::{
    Friend, FriendPage, Link, MAX_PAGE, Page, PendingRequest, PendingRequests, SocialError,
};

/// A page of `me`'s friends and their count (`conn`: a repeatable-read transaction, so
/// both are read from one snapshot).
pub(super) fn friends(
    conn: &mut impl GenericClient,
    me: PlayerId,
    page: Page,
) -> Result<FriendPage, SocialError> {
    let total: i64 = conn
        .query_one(
            &format!(
                "SELECT COUNT(*) FROM friendships f WHERE f.player_id = $1 AND f.state = $2 \
                 AND {UNBLOCKED}"
            ),
            &[&me.0, &Link::Friends.code()],
        )
        .and_then(|r| r.try_get(0))
        .map_err(db)?;
    // The player's rows are one index range; only they are sorted by name.
    let rows = conn
        .query(
            &format!(
                "SELECT f.other_id, p.name, f.since_unix FROM {FRIEND_FROM} \
                 WHERE f.player_id = $1 AND f.state = $2 AND {UNBLOCKED} \
                 ORDER BY p.name_key, p.id LIMIT $3 OFFSET $4"
            ),
            &[
                &me.0,
                &Link::Friends.code(),
                &i64::from(page.size()),
                &i64::from(page.offset),
            ],
        )
        .map_err(db)?;
    let friends = rows
        .iter()
        .map(|r| {
            Ok(Friend {
                player: PlayerId(r.try_get(0)?),
                name: r.try_get(1)?,
                since_unix: from_unix(r.try_get(2)?),
            })
        })
        .collect::<Result<Vec<_>, postgres::Error>>()
        .map_err(db)?;
    Ok(FriendPage::new(friends, total.max(0) as u64, page))
}

fn pending_row(r: &Row) -> Result<PendingRequest, postgres::Error> {
    Ok(PendingRequest {
        player: PlayerId(r.try_get(0)?),
        name: r.try_get(1)?,
        sent_unix: from_unix(r.try_get(2)?),
    })
}

/// `me`'s requests sent and received, newest first (`conn`: one snapshot, as above).
pub(super) fn pending(
    conn: &mut impl GenericClient,
    me: PlayerId,
) -> Result<PendingRequests, SocialError> {
    let mut list = |link: Link| {
        conn.query(
            &format!(
                "SELECT f.other_id, p.name, f.since_unix FROM {FRIEND_FROM} \
                 WHERE f.player_id = $1 AND f.state = $2 AND {UNBLOCKED} \
                 ORDER BY f.since_unix DESC, f.other_id DESC LIMIT $3"
            ),
            &[&me.0, &link.code(), &i64::from(MAX_PAGE)],
        )
        .and_then(|rows| rows.iter().map(pending_row).collect::<Result<Vec<_>, _>>())
        .map_err(db)
    };
    Ok(PendingRequests {
        incoming: list(Link::Received)?,
        outgoing: list(Link::Sent)?,
    })
}
