//! [`SocialStorage`] on PostgreSQL: the SQLite statements (`sqlite/social/`) in PostgreSQL's
//! dialect, on the same schema (migration 5). A call that reads a pair's rows before writing
//! them holds the pair's advisory lock, so instances sharing the database take turns.

mod lists;
mod messages;
mod notifications;
mod pairs;

use postgres::{IsolationLevel, Transaction};

use super::{PostgresStorage, db};
use crate::PlayerId;
use crate::social::{
    DirectMessage, FriendPage, FriendState, MessageId, Notification, NotificationId,
    NotificationKind, NotificationPage, Page, Pairs, PendingRequests, RequestOutcome,
    RequestPolicy, Settle, SocialError, SocialStorage, friendship, send_request, settle,
};

use self::pairs::PgPairs;

impl PostgresStorage {
    /// Runs `f` on the writer in one transaction, committed only when `f` succeeds.
    fn in_transaction<T>(
        &self,
        f: impl FnOnce(&mut Transaction<'_>) -> Result<T, SocialError>,
    ) -> Result<T, SocialError> {
        let mut conn = self.write()?;
        let mut tx = conn.transaction().map_err(db)?;
        let out = f(&mut tx)?;
        tx.commit().map_err(db)?;
        Ok(out)
    }

    /// Runs `f` on the reader in one read-only snapshot (a count and its page agree).
    fn in_snapshot<T>(
        &self,
        f: impl FnOnce(&mut Transaction<'_>) -> Result<T, SocialError>,
    ) -> Result<T, SocialError> {
        let mut conn = self.read()?;
        let mut tx = conn
            .build_transaction()
            .isolation_level(IsolationLevel::RepeatableRead)
            .read_only(true)
            .start()
            .map_err(db)?;
        let out = f(&mut tx)?;
        tx.commit().map_err(db)?;
        Ok(out)
    }

    fn settle(&self, me: PlayerId, other: PlayerId, how: Settle) -> Result<(), SocialError> {
        self.in_transaction(|tx| {
            let mut pairs = PgPairs(tx);
            pairs.lock_pair(me, other)?;
            settle(&mut pairs, me, other, how)
        })
    }
}

impl SocialStorage for PostgresStorage {
    fn send_friend_request(
        &self,
        from: PlayerId,
        to: PlayerId,
        now_unix: u64,
    ) -> Result<RequestOutcome, SocialError> {
        self.in_transaction(|tx| {
            let mut pairs = PgPairs(tx);
            pairs.lock_pair(from, to)?;
            send_request(&mut pairs, from, to, now_unix)
        })
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
        self.in_snapshot(|tx| lists::friends(tx, me, page))
    }

    fn pending_requests(&self, me: PlayerId) -> Result<PendingRequests, SocialError> {
        self.in_snapshot(|tx| lists::pending(tx, me))
    }

    fn friendship(&self, a: PlayerId, b: PlayerId) -> Result<FriendState, SocialError> {
        self.in_snapshot(|tx| friendship(&mut PgPairs(tx), a, b))
    }

    fn set_request_policy(
        &self,
        player: PlayerId,
        policy: RequestPolicy,
    ) -> Result<(), SocialError> {
        let n = self
            .write()?
            .execute(
                "UPDATE players SET friend_requests = $1 WHERE id = $2",
                &[&policy.code(), &player.0],
            )
            .map_err(db)?;
        if n == 0 {
            return Err(SocialError::NoSuchPlayer);
        }
        Ok(())
    }

    fn request_policy(&self, player: PlayerId) -> Result<RequestPolicy, SocialError> {
        PgPairs(&mut **self.read()?)
            .policy(player)?
            .ok_or(SocialError::NoSuchPlayer)
    }

    fn set_appear_offline(&self, player: PlayerId, on: bool) -> Result<(), SocialError> {
        let n = self
            .write()?
            .execute(
                "UPDATE players SET appear_offline = $1 WHERE id = $2",
                &[&i64::from(on), &player.0],
            )
            .map_err(db)?;
        if n == 0 {
            return Err(SocialError::NoSuchPlayer);
        }
        Ok(())
    }

    fn appear_offline(&self, player: PlayerId) -> Result<bool, SocialError> {
        let row = self
            .read()?
            .query_opt(
                "SELECT appear_offline FROM players WHERE id = $1",
                &[&player.0],
            )
            .map_err(db)?;
        let on: Option<i64> = row.map(|r| r.try_get(0)).transpose().map_err(db)?;
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
        self.in_transaction(|tx| notifications::push(tx, to, kind, subject, content, created_unix))
    }

    fn unseen_notifications(
        &self,
        to: PlayerId,
        limit: u32,
    ) -> Result<Vec<Notification>, SocialError> {
        notifications::unseen(&mut **self.read()?, to, limit)
    }

    fn mark_seen(&self, to: PlayerId, ids: &[NotificationId]) -> Result<u32, SocialError> {
        notifications::mark_seen(&mut **self.write()?, to, ids)
    }

    fn unshown_notifications(
        &self,
        to: PlayerId,
        limit: u32,
    ) -> Result<Vec<Notification>, SocialError> {
        notifications::unshown(&mut **self.read()?, to, limit)
    }

    fn mark_shown(&self, to: PlayerId, ids: &[NotificationId]) -> Result<u32, SocialError> {
        notifications::mark_shown(&mut **self.write()?, to, ids)
    }

    fn notifications(&self, to: PlayerId, page: Page) -> Result<NotificationPage, SocialError> {
        self.in_snapshot(|tx| notifications::page(tx, to, page))
    }

    fn store_direct_message(
        &self,
        from: PlayerId,
        to: PlayerId,
        text: &str,
        sent_unix: u64,
    ) -> Result<MessageId, SocialError> {
        self.in_transaction(|tx| messages::store(tx, from, to, text, sent_unix))
    }

    fn direct_messages(
        &self,
        a: PlayerId,
        b: PlayerId,
        before: Option<MessageId>,
        limit: u32,
    ) -> Result<Vec<DirectMessage>, SocialError> {
        messages::between(&mut **self.read()?, a, b, before, limit)
    }
}
