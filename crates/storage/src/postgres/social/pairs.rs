//! [`Pairs`] on a PostgreSQL transaction: the reads and writes of one pair's rows that the
//! social rules (`social/rules.rs`) decide on.

use postgres::GenericClient;

use super::super::connection::MIGRATION_LOCK;
use super::super::db;
use crate::PlayerId;
use crate::moderation::unix;
use crate::social::{Link, Pairs, RequestPolicy, SocialError};

/// A transaction seen as [`Pairs`].
pub(super) struct PgPairs<'a, C>(pub(super) &'a mut C);

impl<C: GenericClient> PgPairs<'_, C> {
    /// Waits until no other transaction (on any instance) changes the pair `a`, `b`: the
    /// rules read a pair's rows before writing them, and two instances must not both write
    /// from the same reading.
    pub(super) fn lock_pair(&mut self, a: PlayerId, b: PlayerId) -> Result<(), SocialError> {
        let key = a.min(b).0.rotate_left(32) ^ a.max(b).0 ^ MIGRATION_LOCK.rotate_left(2);
        self.0
            .execute("SELECT pg_advisory_xact_lock($1)", &[&key])
            .map_err(db)?;
        Ok(())
    }

    /// Whether the query `sql` (a `SELECT EXISTS`) of `a` and `b` holds.
    fn exists(&mut self, sql: &str, a: PlayerId, b: PlayerId) -> Result<bool, SocialError> {
        Ok(self
            .0
            .query_one(sql, &[&a.0, &b.0])
            .and_then(|r| r.try_get(0))
            .map_err(db)?)
    }
}

impl<C: GenericClient> Pairs for PgPairs<'_, C> {
    fn policy(&mut self, player: PlayerId) -> Result<Option<RequestPolicy>, SocialError> {
        let code: Option<i64> = self
            .0
            .query_opt(
                "SELECT friend_requests FROM players WHERE id = $1",
                &[&player.0],
            )
            .map_err(db)?
            .map(|r| r.try_get(0))
            .transpose()
            .map_err(db)?;
        Ok(code.map(RequestPolicy::from_code).transpose()?)
    }

    fn blocks(&mut self, blocker: PlayerId, blocked: PlayerId) -> Result<bool, SocialError> {
        self.exists(
            "SELECT EXISTS (SELECT 1 FROM blocks WHERE blocker_id = $1 AND blocked_id = $2)",
            blocker,
            blocked,
        )
    }

    fn link(&mut self, a: PlayerId, b: PlayerId) -> Result<Option<Link>, SocialError> {
        let code: Option<i64> = self
            .0
            .query_opt(
                "SELECT state FROM friendships WHERE player_id = $1 AND other_id = $2",
                &[&a.0, &b.0],
            )
            .map_err(db)?
            .map(|r| r.try_get(0))
            .transpose()
            .map_err(db)?;
        Ok(code.map(Link::from_code).transpose()?)
    }

    fn played_together(&mut self, a: PlayerId, b: PlayerId) -> Result<bool, SocialError> {
        // Two-seat matches and battles both keep one `match_seats` row per seat.
        self.exists(
            "SELECT EXISTS (SELECT 1 FROM match_seats mine \
             JOIN match_seats theirs ON theirs.match_id = mine.match_id \
             WHERE mine.player_id = $1 AND theirs.player_id = $2)",
            a,
            b,
        )
    }

    fn set_link(
        &mut self,
        a: PlayerId,
        b: PlayerId,
        link: Link,
        since_unix: u64,
    ) -> Result<(), SocialError> {
        for (me, other, link) in [(a, b, link), (b, a, link.mirror())] {
            self.0
                .execute(
                    "INSERT INTO friendships (player_id, other_id, state, since_unix) \
                     VALUES ($1, $2, $3, $4) ON CONFLICT (player_id, other_id) \
                     DO UPDATE SET state = excluded.state, since_unix = excluded.since_unix",
                    &[&me.0, &other.0, &link.code(), &unix(since_unix)],
                )
                .map_err(db)?;
        }
        Ok(())
    }

    fn unlink(&mut self, a: PlayerId, b: PlayerId) -> Result<(), SocialError> {
        self.0
            .execute(
                "DELETE FROM friendships WHERE (player_id = $1 AND other_id = $2) \
                 OR (player_id = $2 AND other_id = $1)",
                &[&a.0, &b.0],
            )
            .map_err(db)?;
        Ok(())
    }
}
