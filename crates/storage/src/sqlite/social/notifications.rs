//! Notifications on SQLite: pushed with the per-player cap, listed, marked shown and seen.

use rusqlite::{Connection, Row, params};

use super::super::db;
use super::pairs::SqlitePairs;
use crate::PlayerId;
use crate::columns::NOTIFICATION_COLUMNS;
use crate::moderation::{from_unix, unix};
use crate::social::{
    MAX_NOTIFICATIONS, MAX_PAGE, Notification, NotificationId, NotificationKind, NotificationPage,
    Page, Pairs, SocialError, check_notification,
};

fn notification_row(r: &Row<'_>) -> rusqlite::Result<Notification> {
    Ok(Notification {
        id: NotificationId(r.get(0)?),
        kind: NotificationKind::from_code(r.get(1)?),
        subject: r.get(2)?,
        content: r.get(3)?,
        created_unix: from_unix(r.get(4)?),
        seen: r.get::<_, i64>(5)? != 0,
    })
}

/// Keeps a notification for `to`, then drops what is over [`MAX_NOTIFICATIONS`] (seen ones
/// first, each kind oldest first), in one transaction.
pub(super) fn push(
    conn: &mut Connection,
    to: PlayerId,
    kind: NotificationKind,
    subject: &str,
    content: &str,
    created_unix: u64,
) -> Result<NotificationId, SocialError> {
    check_notification(subject, content)?;
    let tx = conn.transaction().map_err(db)?;
    if SqlitePairs(&tx).policy(to)?.is_none() {
        return Err(SocialError::NoSuchPlayer);
    }
    tx.execute(
        "INSERT INTO notifications (player_id, kind, subject, content, created_unix) \
         VALUES (?1, ?2, ?3, ?4, ?5)",
        params![to.0, kind.code(), subject, content, unix(created_unix)],
    )
    .map_err(db)?;
    let id = NotificationId(tx.last_insert_rowid());
    let kept: u32 = tx
        .query_row(
            "SELECT COUNT(*) FROM notifications WHERE player_id = ?1",
            [to.0],
            |r| r.get(0),
        )
        .map_err(db)?;
    if kept > MAX_NOTIFICATIONS {
        tx.execute(
            "DELETE FROM notifications WHERE id IN (SELECT id FROM notifications \
             WHERE player_id = ?1 ORDER BY seen DESC, id LIMIT ?2)",
            params![to.0, kept - MAX_NOTIFICATIONS],
        )
        .map_err(db)?;
    }
    tx.commit().map_err(db)?;
    Ok(id)
}

/// `to`'s unseen notifications, oldest first.
pub(super) fn unseen(
    conn: &Connection,
    to: PlayerId,
    limit: u32,
) -> Result<Vec<Notification>, SocialError> {
    listed(conn, to, limit, "seen = 0")
}

/// `to`'s notifications neither seen nor shown, oldest first.
pub(super) fn unshown(
    conn: &Connection,
    to: PlayerId,
    limit: u32,
) -> Result<Vec<Notification>, SocialError> {
    listed(conn, to, limit, "seen = 0 AND shown = 0")
}

/// `to`'s notifications that meet `filter` (a fixed condition of this module), oldest first.
fn listed(
    conn: &Connection,
    to: PlayerId,
    limit: u32,
    filter: &'static str,
) -> Result<Vec<Notification>, SocialError> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT {NOTIFICATION_COLUMNS} FROM notifications WHERE player_id = ?1 AND {filter} \
             ORDER BY id LIMIT ?2"
        ))
        .and_then(|mut s| {
            s.query_map(params![to.0, limit.min(MAX_PAGE)], notification_row)?
                .collect::<rusqlite::Result<Vec<_>>>()
        })
        .map_err(db)?)
}

/// Marks `to`'s own unseen ones among `ids` as seen, in one transaction.
pub(super) fn mark_seen(
    conn: &mut Connection,
    to: PlayerId,
    ids: &[NotificationId],
) -> Result<u32, SocialError> {
    mark(conn, to, ids, "seen")
}

/// Marks `to`'s own not yet shown ones among `ids` as shown, in one transaction.
pub(super) fn mark_shown(
    conn: &mut Connection,
    to: PlayerId,
    ids: &[NotificationId],
) -> Result<u32, SocialError> {
    mark(conn, to, ids, "shown")
}

/// Sets `column` (a fixed 0-or-1 column of this module) to 1 on `to`'s own ones among `ids`
/// where it is 0, returning how many changed.
fn mark(
    conn: &mut Connection,
    to: PlayerId,
    ids: &[NotificationId],
    column: &'static str,
) -> Result<u32, SocialError> {
    let tx = conn.transaction().map_err(db)?;
    let mut marked = 0;
    {
        let mut stmt = tx
            .prepare_cached(&format!(
                "UPDATE notifications SET {column} = 1 \
                 WHERE player_id = ?1 AND id = ?2 AND {column} = 0"
            ))
            .map_err(db)?;
        for id in ids {
            marked += stmt.execute(params![to.0, id.0]).map_err(db)? as u32;
        }
    }
    tx.commit().map_err(db)?;
    Ok(marked)
}

/// A page of `to`'s notifications, newest first, with their count (one snapshot).
pub(super) fn page(
    conn: &mut Connection,
    to: PlayerId,
    page: Page,
) -> Result<NotificationPage, SocialError> {
    let tx = conn.transaction().map_err(db)?;
    let total: i64 = tx
        .query_row(
            "SELECT COUNT(*) FROM notifications WHERE player_id = ?1",
            [to.0],
            |r| r.get(0),
        )
        .map_err(db)?;
    let items = tx
        .prepare(&format!(
            "SELECT {NOTIFICATION_COLUMNS} FROM notifications WHERE player_id = ?1 \
             ORDER BY id DESC LIMIT ?2 OFFSET ?3"
        ))
        .and_then(|mut s| {
            s.query_map(params![to.0, page.size(), page.offset], notification_row)?
                .collect::<rusqlite::Result<Vec<_>>>()
        })
        .map_err(db)?;
    tx.commit().map_err(db)?;
    Ok(NotificationPage::new(items, total.max(0) as u64, page))
}
