//! [`Action`]: an operator's action (a ban or mute and its lift, a rename, a listing, a bot
//! mark, an address ban, a report or flag closed, a skin removed) applied inside the transaction that also
//! writes its audit entry.

use rusqlite::{OptionalExtension, Transaction, params};

use super::super::{db, unique};
use crate::moderation::unix;
use crate::{Action, PlayerId, SanctionKind, StorageError};

/// The rows an action changes, or the error for a missing target.
pub(super) fn apply(tx: &Transaction<'_>, action: &Action, now: u64) -> Result<(), StorageError> {
    let player_exists = |p: PlayerId| -> Result<(), StorageError> {
        let found: Option<i64> = tx
            .query_row("SELECT id FROM players WHERE id = ?1", [p.0], |r| r.get(0))
            .optional()
            .map_err(db)?;
        found.map(|_| ()).ok_or(StorageError::NoSuchPlayer)
    };
    let changed = |n: usize, what: &str| {
        if n == 0 {
            Err(StorageError::NotFound(what.to_string()))
        } else {
            Ok(())
        }
    };
    match action {
        Action::Ban {
            player,
            reason,
            until_unix,
        }
        | Action::Mute {
            player,
            reason,
            until_unix,
        } => {
            player_exists(*player)?;
            let kind = if matches!(action, Action::Ban { .. }) {
                SanctionKind::Ban
            } else {
                SanctionKind::Mute
            };
            tx.execute(
                "INSERT INTO sanctions (player_id, kind, reason, created_unix, until_unix) \
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                params![
                    player.0,
                    kind.name(),
                    reason,
                    unix(now),
                    until_unix.map(unix)
                ],
            )
            .map_err(db)?;
        }
        Action::Unban { player } | Action::Unmute { player } => {
            player_exists(*player)?;
            let kind = if matches!(action, Action::Unban { .. }) {
                SanctionKind::Ban
            } else {
                SanctionKind::Mute
            };
            tx.execute(
                "UPDATE sanctions SET lifted_unix = ?1 WHERE player_id = ?2 AND kind = ?3 \
                 AND lifted_unix IS NULL",
                params![unix(now), player.0, kind.name()],
            )
            .map_err(db)?;
        }
        Action::Rename {
            player,
            name,
            name_key,
        } => {
            let n = tx
                .execute(
                    "UPDATE players SET name = ?1, name_key = ?2 WHERE id = ?3",
                    params![name, name_key, player.0],
                )
                .map_err(|e| unique(e, name))?;
            if n == 0 {
                return Err(StorageError::NoSuchPlayer);
            }
        }
        Action::Listed { player, listed } => {
            let n = tx
                .execute(
                    "UPDATE players SET delisted = ?1 WHERE id = ?2",
                    params![i64::from(!*listed), player.0],
                )
                .map_err(db)?;
            if n == 0 {
                return Err(StorageError::NoSuchPlayer);
            }
        }
        Action::Bot { player, bot } => {
            let n = tx
                .execute(
                    "UPDATE players SET bot = ?1 WHERE id = ?2",
                    params![i64::from(*bot), player.0],
                )
                .map_err(db)?;
            if n == 0 {
                return Err(StorageError::NoSuchPlayer);
            }
        }
        Action::BanAddress {
            network,
            reason,
            until_unix,
        } => {
            tx.execute(
                "INSERT INTO address_bans (network, reason, created_unix, until_unix) \
                 VALUES (?1, ?2, ?3, ?4)",
                params![network, reason, unix(now), until_unix.map(unix)],
            )
            .map_err(db)?;
        }
        Action::LiftAddressBan { id } => {
            let n = tx
                .execute(
                    "UPDATE address_bans SET lifted_unix = ?1 WHERE id = ?2 \
                     AND lifted_unix IS NULL",
                    params![unix(now), id],
                )
                .map_err(db)?;
            changed(n, "address ban in force")?;
        }
        Action::CloseReport { report, resolution } => {
            // Who closed it is the audit entry's actor, written with it.
            let n = tx
                .execute(
                    "UPDATE reports SET closed_unix = ?1, resolution = ?2 WHERE id = ?3 \
                     AND closed_unix IS NULL",
                    params![unix(now), resolution, report.0],
                )
                .map_err(db)?;
            changed(n, "open report")?;
        }
        Action::ReviewFlag { match_id, verdict } => {
            let n = tx
                .execute(
                    "UPDATE flagged_matches SET reviewed_unix = ?1, verdict = ?2 \
                     WHERE match_id = ?3 AND reviewed_unix IS NULL",
                    params![unix(now), verdict, match_id.0],
                )
                .map_err(db)?;
            changed(n, "flagged match awaiting review")?;
        }
        Action::RemoveSkin { id } => {
            let n = tx
                .execute(
                    "UPDATE skins SET png = x'', removed_unix = ?1 \
                     WHERE id = ?2 AND removed_unix IS NULL",
                    params![unix(now), id],
                )
                .map_err(db)?;
            changed(n, "published skin")?;
        }
    }
    Ok(())
}
