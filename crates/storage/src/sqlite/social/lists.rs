//! Listing a player's friends (paged, by name) and unanswered requests on SQLite.

use rusqlite::{Connection, Row, params};

use super::super::db;
use crate::PlayerId;
use crate::columns::{FRIEND_FROM, UNBLOCKED};
use crate::moderation::from_unix;
use crate::social::{
    Friend, FriendPage, Link, MAX_PAGE, Page, PendingRequest, PendingRequests, SocialError,
};

/// A page of `me`'s friends and their count, read in one transaction (one snapshot).
pub(super) fn friends(
    conn: &mut Connection,
    me: PlayerId,
    page: Page,
) -> Result<FriendPage, SocialError> {
    let tx = conn.transaction().map_err(db)?;
    let total: i64 = tx
        .query_row(
            &format!("SELECT COUNT(*) FROM friendships f WHERE f.player_id = ?1 AND f.state = ?2 AND {UNBLOCKED}"),
            params![me.0, Link::Friends.code()],
            |r| r.get(0),
        )
        .map_err(db)?;
    // The player's rows are one index range; only they are sorted by name.
    let friends = tx
        .prepare(&format!(
            "SELECT f.other_id, p.name, f.since_unix FROM {FRIEND_FROM} \
             WHERE f.player_id = ?1 AND f.state = ?2 AND {UNBLOCKED} \
             ORDER BY p.name_key, p.id LIMIT ?3 OFFSET ?4"
        ))
        .and_then(|mut s| {
            s.query_map(
                params![me.0, Link::Friends.code(), page.size(), page.offset],
                |r| {
                    Ok(Friend {
                        player: PlayerId(r.get(0)?),
                        name: r.get(1)?,
                        since_unix: from_unix(r.get(2)?),
                    })
                },
            )?
            .collect::<rusqlite::Result<Vec<_>>>()
        })
        .map_err(db)?;
    tx.commit().map_err(db)?;
    Ok(FriendPage::new(friends, total.max(0) as u64, page))
}

fn pending_row(r: &Row<'_>) -> rusqlite::Result<PendingRequest> {
    Ok(PendingRequest {
        player: PlayerId(r.get(0)?),
        name: r.get(1)?,
        sent_unix: from_unix(r.get(2)?),
    })
}

/// `me`'s requests sent and received, newest first, in one transaction.
pub(super) fn pending(conn: &mut Connection, me: PlayerId) -> Result<PendingRequests, SocialError> {
    let tx = conn.transaction().map_err(db)?;
    let list = |link: Link| {
        tx.prepare_cached(&format!(
            "SELECT f.other_id, p.name, f.since_unix FROM {FRIEND_FROM} \
             WHERE f.player_id = ?1 AND f.state = ?2 AND {UNBLOCKED} \
             ORDER BY f.since_unix DESC, f.other_id DESC LIMIT ?3"
        ))
        .and_then(|mut s| {
            s.query_map(params![me.0, link.code(), MAX_PAGE], pending_row)?
                .collect::<rusqlite::Result<Vec<_>>>()
        })
        .map_err(db)
    };
    let pending = PendingRequests {
        incoming: list(Link::Received)?,
        outgoing: list(Link::Sent)?,
    };
    tx.commit().map_err(db)?;
    Ok(pending)
}
