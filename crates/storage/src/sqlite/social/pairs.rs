//! [`Pairs`] on a SQLite connection: the reads and writes of one pair's rows that the
//! social rules (`social/rules.rs`) decide on.

use rusqlite::{Connection, OptionalExtension, params};

use super::super::db;
use crate::PlayerId;
use crate::moderation::unix;
use crate::social::{Link, Pairs, RequestPolicy, SocialError};

/// A connection (a write transaction, or the reader) seen as [`Pairs`].
pub(super) struct SqlitePairs<'a>(pub(super) &'a Connection);

impl SqlitePairs<'_> {
    /// Whether the query `sql` (a `SELECT EXISTS`) of `a` and `b` holds.
    fn exists(&self, sql: &str, a: PlayerId, b: PlayerId) -> Result<bool, SocialError> {
        Ok(self
            .0
            .prepare_cached(sql)
            .and_then(|mut s| s.query_row(params![a.0, b.0], |r| r.get::<_, bool>(0)))
            .map_err(db)?)
    }
}

impl Pairs for SqlitePairs<'_> {
    fn policy(&mut self, player: PlayerId) -> Result<Option<RequestPolicy>, SocialError> {
        let code: Option<i64> = self
            .0
            .prepare_cached("SELECT friend_requests FROM players WHERE id = ?1")
            .and_then(|mut s| s.query_row([player.0], |r| r.get(0)).optional())
            .map_err(db)?;
        Ok(code.map(RequestPolicy::from_code).transpose()?)
    }

    fn blocks(&mut self, blocker: PlayerId, blocked: PlayerId) -> Result<bool, SocialError> {
        self.exists(
            "SELECT EXISTS (SELECT 1 FROM blocks WHERE blocker_id = ?1 AND blocked_id = ?2)",
            blocker,
            blocked,
        )
    }

    fn link(&mut self, a: PlayerId, b: PlayerId) -> Result<Option<Link>, SocialError> {
        let code: Option<i64> = self
            .0
            .prepare_cached("SELECT state FROM friendships WHERE player_id = ?1 AND other_id = ?2")
            .and_then(|mut s| s.query_row(params![a.0, b.0], |r| r.get(0)).optional())
            .map_err(db)?;
        Ok(code.map(Link::from_code).transpose()?)
    }

    fn played_together(&mut self, a: PlayerId, b: PlayerId) -> Result<bool, SocialError> {
        // Two-seat matches and battles both keep one `match_seats` row per seat.
        self.exists(
            "SELECT EXISTS (SELECT 1 FROM match_seats mine \
             JOIN match_seats theirs ON theirs.match_id = mine.match_id \
             WHERE mine.player_id = ?1 AND theirs.player_id = ?2)",
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
        let mut stmt = self
            .0
            .prepare_cached(
                "INSERT INTO friendships (player_id, other_id, state, since_unix) \
                 VALUES (?1, ?2, ?3, ?4) ON CONFLICT (player_id, other_id) \
                 DO UPDATE SET state = excluded.state, since_unix = excluded.since_unix",
            )
            .map_err(db)?;
        for (me, other, link) in [(a, b, link), (b, a, link.mirror())] {
            stmt.execute(params![me.0, other.0, link.code(), unix(since_unix)])
                .map_err(db)?;
        }
        Ok(())
    }

    fn unlink(&mut self, a: PlayerId, b: PlayerId) -> Result<(), SocialError> {
        self.0
            .prepare_cached(
                "DELETE FROM friendships WHERE (player_id = ?1 AND other_id = ?2) \
                 OR (player_id = ?2 AND other_id = ?1)",
            )
            .and_then(|mut s| s.execute(params![a.0, b.0]))
            .map_err(db)?;
        Ok(())
    }
}
