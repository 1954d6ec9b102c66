//! [`ModerationStorage`] on PostgreSQL: the SQLite statements (`sqlite/moderation/`) in
//! PostgreSQL's dialect, on the same schema (migration 3).

mod actions;
mod rows;

use postgres::{GenericClient, Row};

use super::connection::MIGRATION_LOCK;
use super::matches::load_match;
use super::{PLAYER_COLUMNS, PostgresStorage, db, player_row};
use crate::moderation::{filter_sql, openness_order, openness_sql, unix};
use crate::{
    Action, AddressBan, Audit, AuditEntry, AuditId, FlaggedMatch, InForce, MatchFlag, MatchId,
    ModerationStorage, NewReport, Openness, PairLimit, PlayerId, PlayerRecord, PlayerSearch,
    Report, ReportId, Sanction, SanctionKind, StorageError, StoredMatch,
};

use self::actions::apply;
use self::rows::{
    ADDRESS_BAN_COLUMNS, AUDIT_COLUMNS, FLAG_COLUMNS, FLAG_FROM, PgResult, REPORT_COLUMNS,
    REPORT_FROM, SANCTION_COLUMNS, address_ban_row, audit_row, count, flag_row, report_row,
    sanction_row,
};

fn in_force_of(
    conn: &mut impl GenericClient,
    player: PlayerId,
    kind: SanctionKind,
    now: u64,
) -> PgResult<Option<Sanction>> {
    conn.query_opt(
        &format!(
            "SELECT {SANCTION_COLUMNS} FROM sanctions WHERE player_id = $1 AND kind = $2 \
             AND lifted_unix IS NULL AND (until_unix IS NULL OR until_unix > $3) \
             ORDER BY id DESC LIMIT 1"
        ),
        &[&player.0, &kind.name(), &unix(now)],
    )?
    .as_ref()
    .map(sanction_row)
    .transpose()
}

fn record_of(conn: &mut impl GenericClient, r: &Row, now: u64) -> PgResult<PlayerRecord> {
    let player = player_row(r)?;
    let id = player.id;
    Ok(PlayerRecord {
        bot: r.try_get::<_, i64>(9)? != 0,
        delisted: r.try_get::<_, i64>(10)? != 0,
        registered_from: r.try_get(11)?,
        ban: in_force_of(conn, id, SanctionKind::Ban, now)?,
        mute: in_force_of(conn, id, SanctionKind::Mute, now)?,
        player,
    })
}

fn records(
    conn: &mut postgres::Client,
    sql: &str,
    params: &[&(dyn postgres::types::ToSql + Sync)],
    now: u64,
) -> PgResult<Vec<PlayerRecord>> {
    let rows = conn.query(sql, params)?;
    rows.iter().map(|r| record_of(conn, r, now)).collect()
}

impl ModerationStorage for PostgresStorage {
    fn search_players(
        &self,
        search: &PlayerSearch,
        now: u64,
    ) -> Result<Vec<PlayerRecord>, StorageError> {
        let sql = format!(
            "SELECT {PLAYER_COLUMNS}, bot, delisted, registered_from FROM players \
             WHERE ($1::text IS NULL OR strpos(name_key, $1) > 0) AND {} \
             ORDER BY id LIMIT $3 OFFSET $4",
            filter_sql(search.filter, "$2::bigint")
        );
        records(
            &mut **self.read()?,
            &sql,
            &[
                &search.name_key,
                &unix(now),
                &i64::from(search.limit),
                &i64::from(search.offset),
            ],
            now,
        )
        .map_err(db)
    }

    fn player_record(&self, id: PlayerId, now: u64) -> Result<Option<PlayerRecord>, StorageError> {
        let sql = format!(
            "SELECT {PLAYER_COLUMNS}, bot, delisted, registered_from FROM players WHERE id = $1"
        );
        let found = records(&mut **self.read()?, &sql, &[&id.0], now).map_err(db)?;
        Ok(found.into_iter().next())
    }

    fn sanctions_of(&self, player: PlayerId) -> Result<Vec<Sanction>, StorageError> {
        let rows = self
            .read()?
            .query(
                &format!(
                    "SELECT {SANCTION_COLUMNS} FROM sanctions WHERE player_id = $1 \
                     ORDER BY id DESC"
                ),
                &[&player.0],
            )
            .map_err(db)?;
        rows.iter()
            .map(sanction_row)
            .collect::<PgResult<_>>()
            .map_err(db)
    }

    fn in_force(&self, now: u64) -> Result<InForce, StorageError> {
        let mut conn = self.read()?;
        let sanctions = conn
            .query(
                &format!(
                    "SELECT {SANCTION_COLUMNS} FROM sanctions WHERE lifted_unix IS NULL \
                     AND (until_unix IS NULL OR until_unix > $1) ORDER BY id"
                ),
                &[&unix(now)],
            )
            .map_err(db)?
            .iter()
            .map(sanction_row)
            .collect::<PgResult<Vec<_>>>()
            .map_err(db)?;
        let address_bans = conn
            .query(
                &format!(
                    "SELECT {ADDRESS_BAN_COLUMNS} FROM address_bans WHERE lifted_unix IS NULL \
                     AND (until_unix IS NULL OR until_unix > $1) ORDER BY id"
                ),
                &[&unix(now)],
            )
            .map_err(db)?
            .iter()
            .map(address_ban_row)
            .collect::<PgResult<Vec<_>>>()
            .map_err(db)?;
        let (bans, mutes) = sanctions
            .into_iter()
            .partition(|s| s.kind == SanctionKind::Ban);
        Ok(InForce {
            bans,
            mutes,
            address_bans,
        })
    }

    fn address_bans(&self, limit: u32) -> Result<Vec<AddressBan>, StorageError> {
        let rows = self
            .read()?
            .query(
                &format!(
                    "SELECT {ADDRESS_BAN_COLUMNS} FROM address_bans ORDER BY id DESC LIMIT $1"
                ),
                &[&i64::from(limit)],
            )
            .map_err(db)?;
        rows.iter()
            .map(address_ban_row)
            .collect::<PgResult<_>>()
            .map_err(db)
    }

    fn moderate(&self, action: &Action, audit: &Audit) -> Result<AuditId, StorageError> {
        let mut conn = self.write()?;
        let mut tx = conn.transaction().map_err(db)?;
        apply(&mut tx, action, audit.at_unix)?;
        let id: i64 = tx
            .query_one(
                "INSERT INTO audit_log (at_unix, actor, action, target, reason, detail) \
                 VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
                &[
                    &unix(audit.at_unix),
                    &audit.actor,
                    &audit.action,
                    &audit.target,
                    &audit.reason,
                    &audit.detail,
                ],
            )
            .and_then(|r| r.try_get(0))
            .map_err(db)?;
        if let Action::CloseReport { report, .. } = action {
            tx.execute(
                "UPDATE reports SET closed_by = $1 WHERE id = $2",
                &[&audit.actor, &report.0],
            )
            .map_err(db)?;
        }
        if let Action::ReviewFlag { match_id, .. } = action {
            tx.execute(
                "UPDATE flagged_matches SET reviewed_by = $1 WHERE match_id = $2",
                &[&audit.actor, &match_id.0],
            )
            .map_err(db)?;
        }
        tx.commit().map_err(db)?;
        Ok(AuditId(id))
    }

    fn audit_log(
        &self,
        before: Option<AuditId>,
        limit: u32,
    ) -> Result<Vec<AuditEntry>, StorageError> {
        let rows = self
            .read()?
            .query(
                &format!(
                    "SELECT {AUDIT_COLUMNS} FROM audit_log WHERE id < $1 \
                     ORDER BY id DESC LIMIT $2"
                ),
                &[&before.map_or(i64::MAX, |b| b.0), &i64::from(limit)],
            )
            .map_err(db)?;
        rows.iter()
            .map(audit_row)
            .collect::<PgResult<_>>()
            .map_err(db)
    }

    fn audit_since(&self, after: AuditId, limit: u32) -> Result<Vec<AuditEntry>, StorageError> {
        let rows = self
            .read()?
            .query(
                &format!(
                    "SELECT {AUDIT_COLUMNS} FROM audit_log WHERE id > $1 ORDER BY id LIMIT $2"
                ),
                &[&after.0, &i64::from(limit)],
            )
            .map_err(db)?;
        rows.iter()
            .map(audit_row)
            .collect::<PgResult<_>>()
            .map_err(db)
    }

    fn audit_head(&self) -> Result<AuditId, StorageError> {
        let id: Option<i64> = self
            .read()?
            .query_one("SELECT MAX(id) FROM audit_log", &[])
            .and_then(|r| r.try_get(0))
            .map_err(db)?;
        Ok(AuditId(id.unwrap_or(0)))
    }

    fn registrations_since(&self, from: &str, since_unix: u64) -> Result<u32, StorageError> {
        let n: i64 = self
            .read()?
            .query_one(
                "SELECT COUNT(*) FROM players WHERE registered_from = $1 AND created_unix >= $2",
                &[&from, &unix(since_unix)],
            )
            .and_then(|r| r.try_get(0))
            .map_err(db)?;
        Ok(count(n))
    }

    fn declare_bot(&self, player: PlayerId) -> Result<(), StorageError> {
        let n = self
            .write()?
            .execute("UPDATE players SET bot = 1 WHERE id = $1", &[&player.0])
            .map_err(db)?;
        if n == 0 {
            return Err(StorageError::NoSuchPlayer);
        }
        Ok(())
    }

    fn bots_among(&self, players: &[PlayerId]) -> Result<Vec<PlayerId>, StorageError> {
        let ids: Vec<i64> = players.iter().map(|p| p.0).collect();
        let rows = self
            .read()?
            .query(
                "SELECT id FROM players WHERE id = ANY($1) AND bot <> 0",
                &[&ids],
            )
            .map_err(db)?;
        let bots: Vec<i64> = rows
            .iter()
            .map(|r| r.try_get(0))
            .collect::<PgResult<_>>()
            .map_err(db)?;
        Ok(players
            .iter()
            .copied()
            .filter(|p| bots.contains(&p.0))
            .collect())
    }

    fn file_report(&self, report: &NewReport) -> Result<(), StorageError> {
        self.write()?
            .execute(
                "INSERT INTO reports (id, reporter_id, reported_id, category, text, replay, \
                 created_unix) VALUES ($1, $2, $3, $4, $5, $6, $7)",
                &[
                    &report.id.0,
                    &report.reporter.0,
                    &report.reported.0,
                    &report.category,
                    &report.text,
                    &report.replay,
                    &unix(report.created_unix),
                ],
            )
            .map_err(db)?;
        Ok(())
    }

    fn reports_filed_since(
        &self,
        reporter: PlayerId,
        since_unix: u64,
    ) -> Result<u32, StorageError> {
        let n: i64 = self
            .read()?
            .query_one(
                "SELECT COUNT(*) FROM reports WHERE reporter_id = $1 AND created_unix >= $2",
                &[&reporter.0, &unix(since_unix)],
            )
            .and_then(|r| r.try_get(0))
            .map_err(db)?;
        Ok(count(n))
    }

    fn open_report_between(
        &self,
        reporter: PlayerId,
        reported: PlayerId,
    ) -> Result<bool, StorageError> {
        let n: i64 = self
            .read()?
            .query_one(
                "SELECT COUNT(*) FROM reports WHERE reporter_id = $1 AND reported_id = $2 \
                 AND closed_unix IS NULL",
                &[&reporter.0, &reported.0],
            )
            .and_then(|r| r.try_get(0))
            .map_err(db)?;
        Ok(n > 0)
    }

    fn reports(&self, which: Openness, limit: u32) -> Result<Vec<Report>, StorageError> {
        let rows = self
            .read()?
            .query(
                &format!(
                    "SELECT {REPORT_COLUMNS} FROM {REPORT_FROM} WHERE {} \
                     ORDER BY r.created_unix {order}, r.id {order} LIMIT $1",
                    openness_sql(which, "r.closed_unix"),
                    order = openness_order(which)
                ),
                &[&i64::from(limit)],
            )
            .map_err(db)?;
        rows.iter()
            .map(report_row)
            .collect::<PgResult<_>>()
            .map_err(db)
    }

    fn report(&self, id: ReportId) -> Result<Option<Report>, StorageError> {
        self.read()?
            .query_opt(
                &format!("SELECT {REPORT_COLUMNS} FROM {REPORT_FROM} WHERE r.id = $1"),
                &[&id.0],
            )
            .map_err(db)?
            .as_ref()
            .map(report_row)
            .transpose()
            .map_err(db)
    }

    fn block(
        &self,
        blocker: PlayerId,
        blocked: PlayerId,
        now: u64,
        max: u32,
    ) -> Result<(), StorageError> {
        let mut conn = self.write()?;
        let mut tx = conn.transaction().map_err(db)?;
        // One blocker's list changes one call at a time, whichever instance takes it.
        tx.execute(
            "SELECT pg_advisory_xact_lock($1)",
            &[&(blocker.0 ^ MIGRATION_LOCK.rotate_left(1))],
        )
        .map_err(db)?;
        let already = tx
            .query_opt(
                "SELECT 1 FROM blocks WHERE blocker_id = $1 AND blocked_id = $2",
                &[&blocker.0, &blocked.0],
            )
            .map_err(db)?;
        if already.is_some() {
            return Ok(());
        }
        let n: i64 = tx
            .query_one(
                "SELECT COUNT(*) FROM blocks WHERE blocker_id = $1",
                &[&blocker.0],
            )
            .and_then(|r| r.try_get(0))
            .map_err(db)?;
        if count(n) >= max {
            return Err(StorageError::Full(format!(
                "you block {n} players already, the most one may"
            )));
        }
        tx.execute(
            "INSERT INTO blocks (blocker_id, blocked_id, created_unix) VALUES ($1, $2, $3)",
            &[&blocker.0, &blocked.0, &unix(now)],
        )
        .map_err(db)?;
        tx.commit().map_err(db)
    }

    fn unblock(&self, blocker: PlayerId, blocked: PlayerId) -> Result<(), StorageError> {
        self.write()?
            .execute(
                "DELETE FROM blocks WHERE blocker_id = $1 AND blocked_id = $2",
                &[&blocker.0, &blocked.0],
            )
            .map_err(db)?;
        Ok(())
    }

    fn blocks_of(&self, blocker: PlayerId) -> Result<Vec<(PlayerId, String)>, StorageError> {
        let rows = self
            .read()?
            .query(
                "SELECT p.id, p.name FROM blocks b JOIN players p ON p.id = b.blocked_id \
                 WHERE b.blocker_id = $1 ORDER BY b.created_unix, p.id",
                &[&blocker.0],
            )
            .map_err(db)?;
        rows.iter()
            .map(|r| Ok((PlayerId(r.try_get(0)?), r.try_get(1)?)))
            .collect::<PgResult<_>>()
            .map_err(db)
    }

    fn avoided_by(
        &self,
        player: PlayerId,
        ranked: Option<PairLimit>,
    ) -> Result<Vec<PlayerId>, StorageError> {
        let mut conn = self.read()?;
        let mut ids: Vec<i64> = conn
            .query(
                "SELECT blocked_id FROM blocks WHERE blocker_id = $1 \
                 UNION SELECT blocker_id FROM blocks WHERE blocked_id = $1",
                &[&player.0],
            )
            .map_err(db)?
            .iter()
            .map(|r| r.try_get(0))
            .collect::<PgResult<_>>()
            .map_err(db)?;
        if let Some(limit) = ranked {
            let met = conn
                .query(
                    "SELECT o.player_id FROM match_seats me \
                     JOIN match_seats o ON o.match_id = me.match_id AND o.seat <> me.seat \
                     JOIN matches m ON m.id = me.match_id \
                     WHERE me.player_id = $1 AND m.ranked AND m.ended_unix >= $2 \
                     AND o.player_id IS NOT NULL \
                     GROUP BY o.player_id HAVING COUNT(*) >= $3",
                    &[&player.0, &unix(limit.since_unix), &i64::from(limit.max)],
                )
                .map_err(db)?;
            for r in &met {
                ids.push(r.try_get(0).map_err(db)?);
            }
        }
        ids.sort_unstable();
        ids.dedup();
        Ok(ids.into_iter().map(PlayerId).collect())
    }

    fn match_by_replay(&self, replay: &str) -> Result<Option<StoredMatch>, StorageError> {
        let mut conn = self.read()?;
        let id: Option<i64> = conn
            .query_one("SELECT MIN(id) FROM matches WHERE replay = $1", &[&replay])
            .and_then(|r| r.try_get(0))
            .map_err(db)?;
        match id {
            Some(id) => load_match(&mut conn, MatchId(id)).map_err(db),
            None => Ok(None),
        }
    }

    fn flag_match(&self, flag: &MatchFlag) -> Result<(), StorageError> {
        self.write()?
            .execute(
                "INSERT INTO flagged_matches (match_id, seat, player_id, rule, detail, \
                 created_unix) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING",
                &[
                    &flag.match_id.0,
                    &i64::from(flag.seat),
                    &flag.player.map(|p| p.0),
                    &flag.rule,
                    &flag.detail,
                    &unix(flag.created_unix),
                ],
            )
            .map_err(db)?;
        Ok(())
    }

    fn flagged(&self, which: Openness, limit: u32) -> Result<Vec<FlaggedMatch>, StorageError> {
        let rows = self
            .read()?
            .query(
                &format!(
                    "SELECT {FLAG_COLUMNS} FROM {FLAG_FROM} WHERE {} \
                     ORDER BY f.match_id {order}, f.seat LIMIT $1",
                    openness_sql(which, "f.reviewed_unix"),
                    order = openness_order(which)
                ),
                &[&i64::from(limit)],
            )
            .map_err(db)?;
        rows.iter()
            .map(flag_row)
            .collect::<PgResult<_>>()
            .map_err(db)
    }
}
