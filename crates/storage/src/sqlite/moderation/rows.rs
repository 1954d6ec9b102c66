//! The column lists of the moderation tables and the readers of their rows.

use rusqlite::Row;

use crate::moderation::{from_unix, sanction_kind};
use crate::{
    AddressBan, Audit, AuditEntry, AuditId, Closure, FlaggedMatch, MatchFlag, MatchId, NewReport,
    PlayerId, Report, ReportId, Sanction,
};

pub(super) const SANCTION_COLUMNS: &str =
    "id, player_id, kind, reason, created_unix, until_unix, lifted_unix";

pub(super) const ADDRESS_BAN_COLUMNS: &str =
    "id, network, reason, created_unix, until_unix, lifted_unix";

pub(super) const AUDIT_COLUMNS: &str = "id, at_unix, actor, action, target, reason, detail";

pub(super) const REPORT_COLUMNS: &str = "r.id, r.reporter_id, r.reported_id, r.category, r.text, r.replay, \
     r.created_unix, r.closed_unix, r.closed_by, r.resolution, a.name, b.name, m.id";

pub(super) const REPORT_FROM: &str = "reports r JOIN players a ON a.id = r.reporter_id \
     JOIN players b ON b.id = r.reported_id \
     LEFT JOIN matches m ON m.id = (SELECT MIN(id) FROM matches WHERE replay = r.replay)";

pub(super) const FLAG_COLUMNS: &str = "f.match_id, f.seat, f.player_id, f.rule, f.detail, f.created_unix, \
     f.reviewed_unix, f.reviewed_by, f.verdict, s.name";

pub(super) const FLAG_FROM: &str = "flagged_matches f \
     JOIN match_seats s ON s.match_id = f.match_id AND s.seat = f.seat";

pub(super) fn opt_unix(v: Option<i64>) -> Option<u64> {
    v.map(from_unix)
}

pub(super) fn sanction_row(r: &Row<'_>) -> rusqlite::Result<Sanction> {
    Ok(Sanction {
        id: r.get(0)?,
        player: PlayerId(r.get(1)?),
        kind: sanction_kind(&r.get::<_, String>(2)?),
        reason: r.get(3)?,
        created_unix: from_unix(r.get(4)?),
        until_unix: opt_unix(r.get(5)?),
        lifted_unix: opt_unix(r.get(6)?),
    })
}

pub(super) fn address_ban_row(r: &Row<'_>) -> rusqlite::Result<AddressBan> {
    Ok(AddressBan {
        id: r.get(0)?,
        network: r.get(1)?,
        reason: r.get(2)?,
        created_unix: from_unix(r.get(3)?),
        until_unix: opt_unix(r.get(4)?),
        lifted_unix: opt_unix(r.get(5)?),
    })
}

pub(super) fn audit_row(r: &Row<'_>) -> rusqlite::Result<AuditEntry> {
    Ok(AuditEntry {
        id: AuditId(r.get(0)?),
        audit: Audit {
            at_unix: from_unix(r.get(1)?),
            actor: r.get(2)?,
            action: r.get(3)?,
            target: r.get(4)?,
            reason: r.get(5)?,
            detail: r.get(6)?,
        },
    })
}

pub(super) fn closure(
    at: Option<i64>,
    by: Option<String>,
    what: Option<String>,
) -> Option<Closure> {
    Some(Closure {
        at_unix: from_unix(at?),
        by: by.unwrap_or_default(),
        resolution: what.unwrap_or_default(),
    })
}

pub(super) fn report_row(r: &Row<'_>) -> rusqlite::Result<Report> {
    Ok(Report {
        filed: NewReport {
            id: ReportId(r.get(0)?),
            reporter: PlayerId(r.get(1)?),
            reported: PlayerId(r.get(2)?),
            category: r.get(3)?,
            text: r.get(4)?,
            replay: r.get(5)?,
            created_unix: from_unix(r.get(6)?),
        },
        closed: closure(r.get(7)?, r.get(8)?, r.get(9)?),
        reporter_name: r.get(10)?,
        reported_name: r.get(11)?,
        match_id: r.get::<_, Option<i64>>(12)?.map(MatchId),
    })
}

pub(super) fn flag_row(r: &Row<'_>) -> rusqlite::Result<FlaggedMatch> {
    Ok(FlaggedMatch {
        flag: MatchFlag {
            match_id: MatchId(r.get(0)?),
            seat: r.get(1)?,
            player: r.get::<_, Option<i64>>(2)?.map(PlayerId),
            rule: r.get(3)?,
            detail: r.get(4)?,
            created_unix: from_unix(r.get(5)?),
        },
        review: closure(r.get(6)?, r.get(7)?, r.get(8)?),
        name: r.get(9)?,
    })
}
