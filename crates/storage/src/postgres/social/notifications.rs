//! Notifications on PostgreSQL: pushed with the per-player cap, listed, marked shown and seen.

use postgres::{GenericClient, Row};

use super::super::db;
use super::pairs::PgPairs;
use crate::PlayerId;
use crate::columns::NOTIFICATION_COLUMNS;
use crate::moderation::{from_unix, unix};
use crate::social::{
    MAX_NOTIFICATIONS, MAX_PAGE, Notification, NotificationId, NotificationKind, NotificationPage,
    Page, Pairs, SocialError, check_notification,
};

fn notification_row(r: &Row) -> Result<Notification, postgres::Error> {
    Ok(Notification {
        id: NotificationId(r.try_get(0)?),
        kind: NotificationKind::from_code(r.try_get(1)?),
        subject: r.try_get(2)?,
        content: r.try_get(3)?,
        created_unix: from_unix(r.try_get(4)?),
        seen: r.try_get::<_, i64>(5)? != 0,
    })
}

fn notification_rows(rows: &[Row]) -> Result<Vec<Notification>, SocialError> {
    Ok(rows
        .iter()
        .map(notification_row)
        .collect::<Result<Vec<_>, _>>()
        .map_err(db)?)
}

/// Keeps a notification for `to`, then drops what is over [`MAX_NOTIFICATIONS`] (seen ones
/// first, each kind oldest first); `tx` is committed by the caller.
pub(super) fn push(
    tx: &mut impl GenericClient,
    to: PlayerId,
    kind: NotificationKind,
    subject: &str,
    content: &str,
    created_unix: u64,
) -> Result<NotificationId, SocialError> {
    check_notification(subject, content)?;
    if PgPairs(&mut *tx).policy(to)?.is_none() {
        return Err(SocialError::NoSuchPlayer);
    }
    let id: i64 = tx
        .query_one(
            "INSERT INTO notifications (player_id, kind, subject, content, created_unix) \
             VALUES ($1, $2, $3, $4, $5) RETURNING id",
            &[&to.0, &kind.code(), &subject, &content, &unix(created_unix)],
        )
        .and_then(|r| r.try_get(0))
        .map_err(db)?;
    let kept: i64 = tx
        .query_one(
            "SELECT COUNT(*) FROM notifications WHERE player_id = $1",
            &[&to.0],
        )
        .and_then(|r| r.try_get(0))
        .map_err(db)?;
    let over = kept - i64::from(MAX_NOTIFICATIONS);
    if over > 0 {
        tx.execute(
            "DELETE FROM notifications WHERE id IN (SELECT id FROM notifications \
             WHERE player_id = $1 ORDER BY seen DESC, id LIMIT $2)",
            &[&to.0, &over],
        )
        .map_err(db)?;
    }
    Ok(NotificationId(id))
}

/// `to`'s unseen notifications, oldest first.
pub(super) fn unseen(
    conn: &mut impl GenericClient,
    to: PlayerId,
    limit: u32,
) -> Result<Vec<Notification>, SocialError> {
    listed(conn, to, limit, "seen = 0")
}

/// `to`'s notifications neither seen nor shown, oldest first.
pub(super) fn unshown(
    conn: &mut impl GenericClient,
    to: PlayerId,
    limit: u32,
) -> Result<Vec<Notification>, SocialError> {
    listed(conn, to, limit, "seen = 0 AND shown = 0")
}

/// `to`'s notifications that meet `filter` (a fixed condition of this module), oldest first.
fn listed(
    conn: &mut impl GenericClient,
    to: PlayerId,
    limit: u32,
    filter: &'static str,
) -> Result<Vec<Notification>, SocialError> {
    let rows = conn
        .query(
            &format!(
                "SELECT {NOTIFICATION_COLUMNS} FROM notifications \
                 WHERE player_id = $1 AND {filter} ORDER BY id LIMIT $2"
            ),
            &[&to.0, &i64::from(limit.min(MAX_PAGE))],
        )
        .map_err(db)?;
    notification_rows(&rows)
}

/// Marks `to`'s own unseen ones among `ids` as seen (one statement).
pub(super) fn mark_seen(
    conn: &mut impl GenericClient,
    to: PlayerId,
    ids: &[NotificationId],
) -> Result<u32, SocialError> {
    mark(conn, to, ids, "seen")
}

/// Marks `to`'s own not yet shown ones among `ids` as shown (one statement).
pub(super) fn mark_shown(
    conn: &mut impl GenericClient,
    to: PlayerId,
    ids: &[NotificationId],
) -> Result<u32, SocialError> {
    mark(conn, to, ids, "shown")
}

/// Sets `column` (a fixed 0-or-1 column of this module) to 1 on `to`'s own ones among `ids`
/// where it is 0, returning how many changed.
fn mark(
    conn: &mut impl GenericClient,
    to: PlayerId,
    ids: &[NotificationId],
    column: &'static str,
) -> Result<u32, SocialError> {
    let ids: Vec<i64> = ids.iter().map(|id| id.0).collect();
    let marked = conn
        .execute(
            &format!(
                "UPDATE notifications SET {column} = 1 \
                 WHERE player_id = $1 AND id = ANY($2) AND {column} = 0"
            ),
            &[&to.0, &ids],
        )
        .map_err(db)?;
    Ok(u32::try_from(marked).unwrap_or(u32::MAX))
}

/// A page of `to`'s notifications, newest first, with their count (`conn`: one snapshot).
pub(super) fn page(
    conn: &mut impl GenericClient,
    to: PlayerId,
    page: Page,
) -> Result<NotificationPage, SocialError> {
    let total: i64 = conn
        .query_one(
            "SELECT COUNT(*) FROM notifications WHERE player_id = $1",
            &[&to.0],
        )
        .and_then(|r| r.try_get(0))
        .map_err(db)?;
    let rows = conn
        .query(
            &format!(
                "SELECT {NOTIFICATION_COLUMNS} FROM notifications WHERE player_id = $1 \
                 ORDER BY id DESC LIMIT $2 OFFSET $3"
            ),
            &[&to.0, &i64::from(page.size()), &i64::from(page.offset)],
        )
        .map_err(db)?;
    Ok(NotificationPage::new(
        notification_rows(&rows)?,
        total.max(0) as u64,
        page,
    ))
}
