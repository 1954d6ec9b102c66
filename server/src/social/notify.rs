//! Notifications: kept in the database for the receiver until marked seen, and sent at once
//! to the receiver's connections (on this instance, and through the book's `Beyond` on the
//! others); when they identify, the unseen ones no toast has shown yet (the client marks what
//! it showed), leaving out invites to rooms that have closed.

use sevenbag_protocol::social::{MAX_NOTIFICATIONS_PER_MESSAGE, Notification, NotificationKind};
use sevenbag_storage::{self as storage, NotificationId, PlayerId};

use super::presence::PresenceBook;
use super::store::{db, run};
use crate::db::{Db, unix_now};
use crate::refusal::Refusal;
use crate::services::Services;

fn wire_kind(kind: Result<storage::NotificationKind, storage::UnknownCode>) -> NotificationKind {
    match kind {
        Ok(storage::NotificationKind::FriendRequest) => NotificationKind::FriendRequest,
        Ok(storage::NotificationKind::FriendAccepted) => NotificationKind::FriendAccepted,
        Ok(storage::NotificationKind::Invite) => NotificationKind::Invite,
        Ok(storage::NotificationKind::DirectMessage) => NotificationKind::DirectMessage,
        Ok(storage::NotificationKind::TournamentMatchReady) => {
            NotificationKind::TournamentMatchReady
        }
        Err(_) => NotificationKind::Other,
    }
}

/// A stored notification as it travels.
pub(super) fn wire(n: storage::Notification) -> Notification {
    Notification {
        id: u64::try_from(n.id.0).unwrap_or(0),
        kind: wire_kind(n.kind),
        subject: n.subject,
        content: n.content,
        created_unix: n.created_unix,
    }
}

/// Keeps a notification of `kind` for `to` (from `subject`, with JSON `content`) and sends it
/// to `to`'s connections, here or on another instance.
pub(super) async fn push(
    db: &Db,
    book: &PresenceBook,
    to: PlayerId,
    kind: storage::NotificationKind,
    subject: &str,
    content: serde_json::Value,
) -> Result<(), Refusal> {
    let now = unix_now();
    let content = content.to_string();
    let (stored_subject, stored_content) = (subject.to_string(), content.clone());
    let id = run(db, true, move |s| {
        s.push_notification(to, kind, &stored_subject, &stored_content, now)
    })
    .await?;
    let notification = wire(storage::Notification {
        id,
        kind: Ok(kind),
        subject: subject.to_string(),
        content,
        created_unix: now,
        seen: false,
    });
    book.notify(to, notification);
    Ok(())
}

/// `player`'s unseen notifications, oldest first, at most a message's worth.
pub(super) async fn unseen(db: &Db, player: PlayerId) -> Result<Vec<Notification>, Refusal> {
    let limit = MAX_NOTIFICATIONS_PER_MESSAGE as u32;
    let list = run(db, false, move |s| s.unseen_notifications(player, limit)).await?;
    Ok(list.into_iter().map(wire).collect())
}

/// What to tell `player` on identifying: their notifications neither seen nor shown yet,
/// oldest first, at most a message's worth, less invites to rooms for which `open` says no.
pub(super) async fn untold(
    db: &Db,
    player: PlayerId,
    open: &(dyn Fn(&str) -> bool + Sync),
) -> Result<Vec<Notification>, Refusal> {
    let limit = MAX_NOTIFICATIONS_PER_MESSAGE as u32;
    let list = run(db, false, move |s| s.unshown_notifications(player, limit)).await?;
    Ok(list
        .into_iter()
        .map(wire)
        .filter(|n| {
            n.kind != NotificationKind::Invite || invite_code(&n.content).is_some_and(|c| open(&c))
        })
        .collect())
}

/// The room code an invite's stored content names (`{"code": ...}`).
fn invite_code(content: &str) -> Option<String> {
    let value: serde_json::Value = serde_json::from_str(content).ok()?;
    value.get("code")?.as_str().map(str::to_owned)
}

/// `MarkNotificationsShown`: how many of `ids` were `player`'s and not yet shown.
pub(super) async fn mark_shown(
    services: &Services,
    player: PlayerId,
    ids: Vec<u64>,
) -> Result<u32, Refusal> {
    let db = db(services)?;
    let ids = stored_ids(ids);
    run(db, true, move |s| s.mark_shown(player, &ids)).await
}

fn stored_ids(ids: Vec<u64>) -> Vec<NotificationId> {
    ids.into_iter()
        .filter_map(|id| i64::try_from(id).ok().map(NotificationId))
        .collect()
}

/// `MarkNotificationsSeen`: how many of `ids` were `player`'s and unseen.
pub(super) async fn mark_seen(
    services: &Services,
    player: PlayerId,
    ids: Vec<u64>,
) -> Result<u32, Refusal> {
    let db = db(services)?;
    let ids = stored_ids(ids);
    run(db, true, move |s| s.mark_seen(player, &ids)).await
}
