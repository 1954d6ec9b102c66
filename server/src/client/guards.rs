//! Refusal guards shared by the requests that enter a room or a queue: already in a room,
//! banned, a guest under a registered player's name, and whom a player must not be paired
//! with.

use super::*;

impl Client {
    /// Why this connection may not create, join or queue now, if it may not.
    pub(super) fn ban_refusal(&self) -> Option<String> {
        let now = crate::db::unix_now();
        self.banned
            .clone()
            .or_else(|| {
                let player = self.identity?.id;
                self.shared.moderation.ban_of(player, now)
            })
            .or_else(|| self.shared.moderation.address_ban(self.tags.ip(), now))
    }

    /// Refuses the request (and says why) when [`Client::ban_refusal`] has a reason.
    pub(super) fn refused_by_ban(&self) -> bool {
        match self.ban_refusal() {
            Some(text) => {
                self.shared.metrics.moderation("refused_banned");
                self.error(ErrorCode::Banned, text);
                true
            }
            None => false,
        }
    }

    pub(super) fn in_room_error(&self) -> bool {
        if let Some(m) = &self.room {
            self.error(
                ErrorCode::BadMessage,
                format!("you are in room {}; send LeaveRoom first", m.code),
            );
            return true;
        }
        false
    }

    /// Whether this connection may create, join or queue for a room now: not while it is in a
    /// room (nor, with `queued_refused`, while it waits in a queue), nor while it is banned,
    /// nor as a guest whose name reads as a registered player's.
    /// The refusals it meets are told to the client (waiting in a queue is not: the queue
    /// already answered); `false` means the request is dropped.
    pub(super) async fn may_enter(&self, queued_refused: bool) -> bool {
        !(self.in_room_error()
            || (queued_refused && self.queued)
            || self.refused_by_ban()
            || self.refused_as_impostor().await)
    }

    /// Refuses (`NameTaken`, and says why) a guest whose `Hello` name is a registered
    /// player's, or looks like one (`identity::registered_look_alike`). An identified
    /// connection plays under its identity's name and is never refused here.
    async fn refused_as_impostor(&self) -> bool {
        let (None, Some(db), Some(hello)) = (self.identity, &self.shared.db, &self.hello) else {
            return false;
        };
        let taken = match identity::registered_look_alike(db, &hello.typed).await {
            Ok(taken) => taken,
            Err(e) => {
                // The guest mark still tells them apart: let the guest play.
                tracing::warn!(error = %e, "cannot compare a guest's name with registered names");
                None
            }
        };
        let Some(registered) = taken else {
            return false;
        };
        self.error(
            ErrorCode::NameTaken,
            format!(
                "{:?} is (or looks like) the registered player {registered}'s name: identify \
                 as them, or play as a guest under another name",
                hello.typed
            ),
        );
        true
    }

    /// Whom this connection's player must not be paired with (`ranked`: with the daily pair
    /// limit and the same-address rule).
    pub(super) async fn avoid(&self, ranked: bool) -> Avoid {
        let config = &self.shared.config.moderation;
        let mut avoid = Avoid {
            same_address_ok: !ranked || config.ranked_same_address,
            ..Avoid::default()
        };
        let (Some(player), Some(db)) = (self.tags.player(), &self.shared.db) else {
            return avoid;
        };
        let limit =
            config
                .ranked_pair_daily
                .filter(|_| ranked)
                .map(|max| sevenbag_storage::PairLimit {
                    max,
                    since_unix: crate::db::unix_now().saturating_sub(24 * 3600),
                });
        let read = db
            .read(move |s| {
                let blocked = s.avoided_by(player, None)?;
                let all = match limit {
                    Some(l) => s.avoided_by(player, Some(l))?,
                    None => blocked.clone(),
                };
                Ok((blocked, all))
            })
            .await;
        match read {
            Ok((blocked, all)) => {
                avoid.met_enough = all.into_iter().filter(|p| !blocked.contains(p)).collect();
                avoid.blocked = blocked;
            }
            Err(e) => {
                tracing::warn!(error = %e, "cannot read whom a player avoids; pairing without")
            }
        }
        avoid
    }
}
