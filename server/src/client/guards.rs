//! Refusal guards shared by the requests that enter a room or a queue: already in a room,
//! banned, and whom a player must not be paired with.

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
    /// room (nor, with `queued_refused`, while it waits in a queue), nor while it is banned.
    /// The refusals it meets are told to the client (waiting in a queue is not: the queue
    /// already answered); `false` means the request is dropped.
    pub(super) fn may_enter(&self, queued_refused: bool) -> bool {
        !(self.in_room_error() || (queued_refused && self.queued) || self.refused_by_ban())
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
