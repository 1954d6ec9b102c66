//! [`SocialStorage`] on SQLite (the schema is migration 5, `migrations.rs`): `pairs` reads and
//! writes a pair's rows for the shared rules, `lists` lists friends and requests,
//! `notifications` and `messages` keep theirs.

mod lists;
mod messages;
mod notifications;
mod pairs;

use rusqlite::{Connection, OptionalExtension};

use super::{SqliteStorage, db};
use crate::PlayerId;
use crate::social::{
    DirectMessage, FriendPage, FriendState, MessageId, Notification, NotificationId,
    NotificationKind, NotificationPage, Page, Pairs, PendingRequests, RequestOutcome,
    RequestPolicy, Settle, SocialError, SocialStorage, friendship, send_request, settle,
};

use self::pairs::SqlitePairs;

impl SqliteStorage {
    /// Runs `f` on the writer in one transaction, committed only when `f` succeeds.
    fn in_transaction<T>(
        &self,
        f: impl FnOnce(&Connection) -> Result<T, SocialError>,
    ) -> Result<T, SocialError> {
        let mut conn = self.write();
        let tx = conn.transaction().map_err(db)?;
        let out = f(&tx)?;
        tx.commit().map_err(db)?;
        Ok(out)
    }

    fn settle(&self, me: PlayerId, other: PlayerId, how: Settle) -> Result<(), SocialError> {
        self.in_transaction(|tx| settle(&mut SqlitePairs(tx), me, other, how))
    }
}

impl SocialStorage for SqliteStorage {
    fn send_friend_request(
        &self,
        from: PlayerId,
        to: PlayerId,
        now_unix: u64,
    ) -> Result<RequestOutcome, SocialError> {
        self.in_transaction(|tx| send_request(&mut SqlitePairs(tx), from, to, now_unix))
    }

    fn accept_friend_request(
        &self,
        me: PlayerId,
        from: PlayerId,
        now_unix: u64,
    ) -> Result<(), SocialError> {
        self.settle(me, from, Settle::Accept(now_unix))
    }

    fn decline_friend_request(&self, me: PlayerId, from: PlayerId) -> Result<(), SocialError> {
        self.settle(me, from, Settle::Decline)
    }

    fn cancel_friend_request(&self, me: PlayerId, to: PlayerId) -> Result<(), SocialError> {
        self.settle(me, to, Settle::Cancel)
    }

    fn remove_friend(&self, me: PlayerId, other: PlayerId) -> Result<(), SocialError> {
        self.settle(me, other, Settle::Remove)
    }

    fn friends(&self, me: PlayerId, page: Page) -> Result<FriendPage, SocialError> {
        lists::friends(&mut self.read(), me, page)
    }

    fn pending_requests(&self, me: PlayerId) -> Result<PendingRequests, SocialError> {
        lists::pending(&mut self.read(), me)
    }

    fn friendship(&self, a: PlayerId, b: PlayerId) -> Result<FriendState, SocialError> {
        let mut conn = self.read();
        let tx = conn.transaction().map_err(db)?;
        let state = friendship(&mut SqlitePairs(&tx), a, b)?;
        tx.commit().map_err(db)?;
        Ok(state)
    }

    fn set_request_policy(
        &self,
        player: PlayerId,
        policy: RequestPolicy,
    ) -> Result<(), SocialError> {
        let n = self
            .write()
            .execute(
                "UPDATE players SET friend_requests = ?1 WHERE id = ?2",
                [policy.code(), player.0],
            )
            .map_err(db)?;
        if n == 0 {
            return Err(SocialError::NoSuchPlayer);
        }
        Ok(())
    }

    fn request_policy(&self, player: PlayerId) -> Result<RequestPolicy, SocialError> {
        SqlitePairs(&self.read())
            .policy(player)?
            .ok_or(SocialError::NoSuchPlayer)
    }

    fn set_appear_offline(&self, player: PlayerId, on: bool) -> Result<(), SocialError> {
        let n = self
            .write()
            .execute(
                "UPDATE players SET appear_offline = ?1 WHERE id = ?2",
                [i64::from(on), player.0],
            )
            .map_err(db)?;
        if n == 0 {
            return Err(SocialError::NoSuchPlayer);
        }
        Ok(())
    }

    fn appear_offline(&self, player: PlayerId) -> Result<bool, SocialError> {
        let on: Option<i64> = self
            .read()
            .prepare_cached("SELECT appear_offline FROM players WHERE id = ?1")
            .and_then(|mut s| s.query_row([player.0], |r| r.get(0)).optional())
            .map_err(db)?;
        on.map(|v| v != 0).ok_or(SocialError::NoSuchPlayer)
    }

    fn push_notification(
        &self,
        to: PlayerId,
        kind: NotificationKind,
        subject: &str,
        content: &str,
        created_unix: u64,
    ) -> Result<NotificationId, SocialError> {
        notifications::push(&mut self.write(), to, kind, subject, content, created_unix)
    }

    fn unseen_notifications(
        &self,
        to: PlayerId,
        limit: u32,
    ) -> Result<Vec<Notification>, SocialError> {
        notifications::unseen(&self.read(), to, limit)
    }

    fn mark_seen(&self, to: PlayerId, ids: &[NotificationId]) -> Result<u32, SocialError> {
        notifications::mark_seen(&mut self.write(), to, ids)
    }

    fn unshown_notifications(
        &self,
        to: PlayerId,
        limit: u32,
    ) -> Result<Vec<Notification>, SocialError> {
        notifications::unshown(&self.read(), to, limit)
    }

    fn mark_shown(&self, to: PlayerId, ids: &[NotificationId]) -> Result<u32, SocialError> {
        notifications::mark_shown(&mut self.write(), to, ids)
    }

    fn notifications(&self, to: PlayerId, page: Page) -> Result<NotificationPage, SocialError> {
        notifications::page(&mut self.read(), to, page)
    }

    fn store_direct_message(
        &self,
        from: PlayerId,
        to: PlayerId,
        text: &str,
        sent_unix: u64,
    ) -> Result<MessageId, SocialError> {
        messages::store(&mut self.write(), from, to, text, sent_unix)
    }

    fn direct_messages(
        &self,
        a: PlayerId,
        b: PlayerId,
        before: Option<MessageId>,
        limit: u32,
    ) -> Result<Vec<DirectMessage>, SocialError> {
        messages::between(&self.read(), a, b, before, limit)
    }
}
