//! [`ModerationStorage`] on SQLite (the schema is migration 3, `migrations.rs`).

mod actions;
mod rows;

use rusqlite::{Connection, OptionalExtension, Row, params};

use super::matches::load_match;
use super::{PLAYER_COLUMNS, SqliteStorage, db, player_row};
use crate::moderation::{filter_sql, openness_order, openness_sql, unix};
use crate::{
    Action, AddressBan, Audit, AuditEntry, AuditId, FlaggedMatch, InForce, MatchFlag, MatchId,
    ModerationStorage, NewReport, Openness, PairLimit, PlayerId, PlayerRecord, PlayerSearch,
    Report, ReportId, Sanction, SanctionKind, StorageError, StoredMatch,
};

use self::actions::apply;
use self::rows::{
    ADDRESS_BAN_COLUMNS, AUDIT_COLUMNS, FLAG_COLUMNS, FLAG_FROM, REPORT_COLUMNS, REPORT_FROM,
    SANCTION_COLUMNS, address_ban_row, audit_row, flag_row, report_row, sanction_row,
};

/// The player's sanction of `kind` in force at `now` (the latest given).
fn in_force_of(
    conn: &Connection,
    player: PlayerId,
    kind: SanctionKind,
    now: u64,
) -> rusqlite::Result<Option<Sanction>> {
    conn.query_row(
        &format!(
            "SELECT {SANCTION_COLUMNS} FROM sanctions WHERE player_id = ?1 AND kind = ?2 \
             AND lifted_unix IS NULL AND (until_unix IS NULL OR until_unix > ?3) \
             ORDER BY id DESC LIMIT 1"
        ),
        params![player.0, kind.name(), unix(now)],
        sanction_row,
    )
    .optional()
}

fn record_of(conn: &Connection, r: &Row<'_>, now: u64) -> rusqlite::Result<PlayerRecord> {
    let player = player_row(r)?;
    let id = player.id;
    Ok(PlayerRecord {
        bot: r.get::<_, i64>(9)? != 0,
        delisted: r.get::<_, i64>(10)? != 0,
        registered_from: r.get(11)?,
        ban: in_force_of(conn, id, SanctionKind::Ban, now)?,
        mute: in_force_of(conn, id, SanctionKind::Mute, now)?,
        player,
    })
}

impl ModerationStorage for SqliteStorage {
    fn search_players(
        &self,
        search: &PlayerSearch,
        now: u64,
    ) -> Result<Vec<PlayerRecord>, StorageError> {
        let conn = self.read();
        let sql = format!(
            "SELECT {PLAYER_COLUMNS}, bot, delisted, registered_from FROM players \
             WHERE (?1 IS NULL OR instr(name_key, ?1) > 0) AND {} \
             ORDER BY id LIMIT ?3 OFFSET ?4",
            filter_sql(search.filter, "?2")
        );
        let mut stmt = conn.prepare(&sql).map_err(db)?;
        let mut rows = stmt
            .query(params![
                search.name_key,
                unix(now),
                search.limit,
                search.offset
            ])
            .map_err(db)?;
        let mut out = Vec::new();
        while let Some(r) = rows.next().map_err(db)? {
            out.push(record_of(&conn, r, now).map_err(db)?);
        }
        Ok(out)
    }

    fn player_record(&self, id: PlayerId, now: u64) -> Result<Option<PlayerRecord>, StorageError> {
        let conn = self.read();
        let sql = format!(
            "SELECT {PLAYER_COLUMNS}, bot, delisted, registered_from FROM players WHERE id = ?1"
        );
        let mut stmt = conn.prepare(&sql).map_err(db)?;
        let mut rows = stmt.query([id.0]).map_err(db)?;
        match rows.next().map_err(db)? {
            Some(r) => Ok(Some(record_of(&conn, r, now).map_err(db)?)),
            None => Ok(None),
        }
    }

    fn sanctions_of(&self, player: PlayerId) -> Result<Vec<Sanction>, StorageError> {
        let conn = self.read();
        let mut stmt = conn
            .prepare(&format!(
                "SELECT {SANCTION_COLUMNS} FROM sanctions WHERE player_id = ?1 ORDER BY id DESC"
            ))
            .map_err(db)?;
        stmt.query_map([player.0], sanction_row)
            .map_err(db)?
            .collect::<rusqlite::Result<_>>()
            .map_err(db)
    }

    fn in_force(&self, now: u64) -> Result<InForce, StorageError> {
        let conn = self.read();
        let sanctions: Vec<Sanction> = conn
            .prepare(&format!(
                "SELECT {SANCTION_COLUMNS} FROM sanctions WHERE lifted_unix IS NULL \
                 AND (until_unix IS NULL OR until_unix > ?1) ORDER BY id"
            ))
            .and_then(|mut s| {
                s.query_map([unix(now)], sanction_row)?
                    .collect::<rusqlite::Result<_>>()
            })
            .map_err(db)?;
        let address_bans = conn
            .prepare(&format!(
                "SELECT {ADDRESS_BAN_COLUMNS} FROM address_bans WHERE lifted_unix IS NULL \
                 AND (until_unix IS NULL OR until_unix > ?1) ORDER BY id"
            ))
            .and_then(|mut s| {
                s.query_map([unix(now)], address_ban_row)?
                    .collect::<rusqlite::Result<_>>()
            })
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
        let conn = self.read();
        let mut stmt = conn
            .prepare(&format!(
                "SELECT {ADDRESS_BAN_COLUMNS} FROM address_bans ORDER BY id DESC LIMIT ?1"
            ))
            .map_err(db)?;
        stmt.query_map([limit], address_ban_row)
            .map_err(db)?
            .collect::<rusqlite::Result<_>>()
            .map_err(db)
    }

    fn moderate(&self, action: &Action, audit: &Audit) -> Result<AuditId, StorageError> {
        let mut conn = self.write();
        let tx = conn.transaction().map_err(db)?;
        apply(&tx, action, audit.at_unix)?;
        tx.execute(
            "INSERT INTO audit_log (at_unix, actor, action, target, reason, detail) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![
                unix(audit.at_unix),
                audit.actor,
                audit.action,
                audit.target,
                audit.reason,
                audit.detail
            ],
        )
        .map_err(db)?;
        let id = tx.last_insert_rowid();
        if let Action::CloseReport { report, .. } = action {
            tx.execute(
                "UPDATE reports SET closed_by = ?1 WHERE id = ?2",
                params![audit.actor, report.0],
            )
            .map_err(db)?;
        }
        if let Action::ReviewFlag { match_id, .. } = action {
            tx.execute(
                "UPDATE flagged_matches SET reviewed_by = ?1 WHERE match_id = ?2",
                params![audit.actor, match_id.0],
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
        let conn = self.read();
        let mut stmt = conn
            .prepare(&format!(
                "SELECT {AUDIT_COLUMNS} FROM audit_log WHERE id < ?1 ORDER BY id DESC LIMIT ?2"
            ))
            .map_err(db)?;
        stmt.query_map(params![before.map_or(i64::MAX, |b| b.0), limit], audit_row)
            .map_err(db)?
            .collect::<rusqlite::Result<_>>()
            .map_err(db)
    }

    fn audit_since(&self, after: AuditId, limit: u32) -> Result<Vec<AuditEntry>, StorageError> {
        let conn = self.read();
        let mut stmt = conn
            .prepare(&format!(
                "SELECT {AUDIT_COLUMNS} FROM audit_log WHERE id > ?1 ORDER BY id LIMIT ?2"
            ))
            .map_err(db)?;
        stmt.query_map(params![after.0, limit], audit_row)
            .map_err(db)?
            .collect::<rusqlite::Result<_>>()
            .map_err(db)
    }

    fn audit_head(&self) -> Result<AuditId, StorageError> {
        let id: Option<i64> = self
            .read()
            .query_row("SELECT MAX(id) FROM audit_log", [], |r| r.get(0))
            .map_err(db)?;
        Ok(AuditId(id.unwrap_or(0)))
    }

    fn registrations_since(&self, from: &str, since_unix: u64) -> Result<u32, StorageError> {
        self.read()
            .query_row(
                "SELECT COUNT(*) FROM players WHERE registered_from = ?1 AND created_unix >= ?2",
                params![from, unix(since_unix)],
                |r| r.get(0),
            )
            .map_err(db)
    }

    fn declare_bot(&self, player: PlayerId) -> Result<(), StorageError> {
        let n = self
            .write()
            .execute("UPDATE players SET bot = 1 WHERE id = ?1", [player.0])
            .map_err(db)?;
        if n == 0 {
            return Err(StorageError::NoSuchPlayer);
        }
        Ok(())
    }

    fn bots_among(&self, players: &[PlayerId]) -> Result<Vec<PlayerId>, StorageError> {
        let conn = self.read();
        let mut stmt = conn
            .prepare_cached("SELECT bot FROM players WHERE id = ?1")
            .map_err(db)?;
        let mut bots = Vec::new();
        for p in players {
            let bot: Option<i64> = stmt.query_row([p.0], |r| r.get(0)).optional().map_err(db)?;
            if bot.is_some_and(|b| b != 0) {
                bots.push(*p);
            }
        }
        Ok(bots)
    }

    fn file_report(&self, report: &NewReport) -> Result<(), StorageError> {
        self.write()
            .execute(
                "INSERT INTO reports (id, reporter_id, reported_id, category, text, replay, \
                 created_unix) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![
                    report.id.0,
                    report.reporter.0,
                    report.reported.0,
                    report.category,
                    report.text,
                    report.replay,
                    unix(report.created_unix)
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
        self.read()
            .query_row(
                "SELECT COUNT(*) FROM reports WHERE reporter_id = ?1 AND created_unix >= ?2",
                params![reporter.0, unix(since_unix)],
                |r| r.get(0),
            )
            .map_err(db)
    }

    fn open_report_between(
        &self,
        reporter: PlayerId,
        reported: PlayerId,
    ) -> Result<bool, StorageError> {
        let n: i64 = self
            .read()
            .query_row(
                "SELECT COUNT(*) FROM reports WHERE reporter_id = ?1 AND reported_id = ?2 \
                 AND closed_unix IS NULL",
                params![reporter.0, reported.0],
                |r| r.get(0),
            )
            .map_err(db)?;
        Ok(n > 0)
    }

    fn reports(&self, which: Openness, limit: u32) -> Result<Vec<Report>, StorageError> {
        let conn = self.read();
        let mut stmt = conn
            .prepare(&format!(
                "SELECT {REPORT_COLUMNS} FROM {REPORT_FROM} WHERE {} \
                 ORDER BY r.created_unix {order}, r.id {order} LIMIT ?1",
                openness_sql(which, "r.closed_unix"),
                order = openness_order(which)
            ))
            .map_err(db)?;
        stmt.query_map([limit], report_row)
            .map_err(db)?
            .collect::<rusqlite::Result<_>>()
            .map_err(db)
    }

    fn report(&self, id: ReportId) -> Result<Option<Report>, StorageError> {
        self.read()
            .query_row(
                &format!("SELECT {REPORT_COLUMNS} FROM {REPORT_FROM} WHERE r.id = ?1"),
                [id.0],
                report_row,
            )
            .optional()
            .map_err(db)
    }

    fn block(
        &self,
        blocker: PlayerId,
        blocked: PlayerId,
        now: u64,
        max: u32,
    ) -> Result<(), StorageError> {
        let mut conn = self.write();
        let tx = conn.transaction().map_err(db)?;
        let count: u32 = tx
            .query_row(
                "SELECT COUNT(*) FROM blocks WHERE blocker_id = ?1",
                [blocker.0],
                |r| r.get(0),
            )
            .map_err(db)?;
        let already: Option<i64> = tx
            .query_row(
                "SELECT 1 FROM blocks WHERE blocker_id = ?1 AND blocked_id = ?2",
                params![blocker.0, blocked.0],
                |r| r.get(0),
            )
            .optional()
            .map_err(db)?;
        if already.is_some() {
            return Ok(());
        }
        if count >= max {
            return Err(StorageError::Full(format!(
                "you block {count} players already, the most one may"
            )));
        }
        tx.execute(
            "INSERT INTO blocks (blocker_id, blocked_id, created_unix) VALUES (?1, ?2, ?3)",
            params![blocker.0, blocked.0, unix(now)],
        )
        .map_err(db)?;
        tx.commit().map_err(db)
    }

    fn unblock(&self, blocker: PlayerId, blocked: PlayerId) -> Result<(), StorageError> {
        self.write()
            .execute(
                "DELETE FROM blocks WHERE blocker_id = ?1 AND blocked_id = ?2",
                params![blocker.0, blocked.0],
            )
            .map_err(db)?;
        Ok(())
    }

    fn blocks_of(&self, blocker: PlayerId) -> Result<Vec<(PlayerId, String)>, StorageError> {
        let conn = self.read();
        let mut stmt = conn
            .prepare(
                "SELECT p.id, p.name FROM blocks b JOIN players p ON p.id = b.blocked_id \
                 WHERE b.blocker_id = ?1 ORDER BY b.created_unix, p.id",
            )
            .map_err(db)?;
        stmt.query_map([blocker.0], |r| Ok((PlayerId(r.get(0)?), r.get(1)?)))
            .map_err(db)?
            .collect::<rusqlite::Result<_>>()
            .map_err(db)
    }

    fn avoided_by(
        &self,
        player: PlayerId,
        ranked: Option<PairLimit>,
    ) -> Result<Vec<PlayerId>, StorageError> {
        let conn = self.read();
        let mut ids: Vec<i64> = conn
            .prepare_cached(
                "SELECT blocked_id FROM blocks WHERE blocker_id = ?1 \
                 UNION SELECT blocker_id FROM blocks WHERE blocked_id = ?1",
            )
            .and_then(|mut s| {
                s.query_map([player.0], |r| r.get(0))?
                    .collect::<rusqlite::Result<_>>()
            })
            .map_err(db)?;
        if let Some(limit) = ranked {
            let met: Vec<i64> = conn
                .prepare_cached(
                    "SELECT o.player_id FROM match_seats me \
                     JOIN match_seats o ON o.match_id = me.match_id AND o.seat <> me.seat \
                     JOIN matches m ON m.id = me.match_id \
                     WHERE me.player_id = ?1 AND m.ranked = 1 AND m.ended_unix >= ?2 \
                     AND o.player_id IS NOT NULL \
                     GROUP BY o.player_id HAVING COUNT(*) >= ?3",
                )
                .and_then(|mut s| {
                    s.query_map(params![player.0, unix(limit.since_unix), limit.max], |r| {
                        r.get(0)
                    })?
                    .collect::<rusqlite::Result<_>>()
                })
                .map_err(db)?;
            ids.extend(met);
        }
        ids.sort_unstable();
        ids.dedup();
        Ok(ids.into_iter().map(PlayerId).collect())
    }

    fn match_by_replay(&self, replay: &str) -> Result<Option<StoredMatch>, StorageError> {
        let conn = self.read();
        let id: Option<i64> = conn
            .query_row(
                "SELECT MIN(id) FROM matches WHERE replay = ?1",
                [replay],
                |r| r.get(0),
            )
            .map_err(db)?;
        match id {
            Some(id) => load_match(&conn, MatchId(id)).map_err(db),
            None => Ok(None),
        }
    }

    fn flag_match(&self, flag: &MatchFlag) -> Result<(), StorageError> {
        self.write()
            .execute(
                "INSERT OR IGNORE INTO flagged_matches (match_id, seat, player_id, rule, detail, \
                 created_unix) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![
                    flag.match_id.0,
                    flag.seat,
                    flag.player.map(|p| p.0),
                    flag.rule,
                    flag.detail,
                    unix(flag.created_unix)
                ],
            )
            .map_err(db)?;
        Ok(())
    }

    fn flagged(&self, which: Openness, limit: u32) -> Result<Vec<FlaggedMatch>, StorageError> {
        let conn = self.read();
        let mut stmt = conn
            .prepare(&format!(
                "SELECT {FLAG_COLUMNS} FROM {FLAG_FROM} WHERE {} \
                 ORDER BY f.match_id {order}, f.seat LIMIT ?1",
                openness_sql(which, "f.reviewed_unix"),
                order = openness_order(which)
            ))
            .map_err(db)?;
        stmt.query_map([limit], flag_row)
            .map_err(db)?
            .collect::<rusqlite::Result<_>>()
            .map_err(db)
    }
}
