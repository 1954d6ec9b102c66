//! [`Action`]: an operator's action (a ban or mute and its lift, a rename, a listing, a bot
//! mark, an address ban, a report or flag closed, a skin removed) applied inside the transaction that also
//! writes its audit entry.

use postgres::Transaction;

use super::super::{db, unique};
use crate::moderation::unix;
use crate::{Action, PlayerId, SanctionKind, StorageError};

/// The rows an action changes, or the error for a missing target.
pub(super) fn apply(
    tx: &mut Transaction<'_>,
    action: &Action,
    now: u64,
) -> Result<(), StorageError> {
    fn player_exists(tx: &mut Transaction<'_>, p: PlayerId) -> Result<(), StorageError> {
        tx.query_opt("SELECT id FROM players WHERE id = $1", &[&p.0])
            .map_err(db)?
            .map(|_| ())
            .ok_or(StorageError::NoSuchPlayer)
    }
    let changed = |n: u64, what: &str| {
        if n == 0 {
            Err(StorageError::NotFound(what.to_string()))
        } else {
            Ok(())
        }
    };
    let no_player = |n: u64| {
        if n == 0 {
            Err(StorageError::NoSuchPlayer)
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
            player_exists(tx, *player)?;
            let kind = if matches!(action, Action::Ban { .. }) {
                SanctionKind::Ban
            } else {
                SanctionKind::Mute
            };
            tx.execute(
                "INSERT INTO sanctions (player_id, kind, reason, created_unix, until_unix) \
                 VALUES ($1, $2, $3, $4, $5)",
                &[
                    &player.0,
                    &kind.name(),
                    reason,
                    &unix(now),
                    &until_unix.map(unix),
                ],
            )
            .map_err(db)?;
        }
        Action::Unban { player } | Action::Unmute { player } => {
            player_exists(tx, *player)?;
            let kind = if matches!(action, Action::Unban { .. }) {
                SanctionKind::Ban
            } else {
                SanctionKind::Mute
            };
            tx.execute(
                "UPDATE sanctions SET lifted_unix = $1 WHERE player_id = $2 AND kind = $3 \
                 AND lifted_unix IS NULL",
                &[&unix(now), &player.0, &kind.name()],
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
                    "UPDATE players SET name = $1, name_key = $2 WHERE id = $3",
                    &[name, name_key, &player.0],
                )
                .map_err(|e| unique(e, name))?;
            no_player(n)?;
        }
        Action::Listed { player, listed } => {
            let n = tx
                .execute(
                    "UPDATE players SET delisted = $1 WHERE id = $2",
                    &[&i64::from(!*listed), &player.0],
                )
                .map_err(db)?;
            no_player(n)?;
        }
        Action::Bot { player, bot } => {
            let n = tx
                .execute(
                    "UPDATE players SET bot = $1 WHERE id = $2",
                    &[&i64::from(*bot), &player.0],
                )
                .map_err(db)?;
            no_player(n)?;
        }
        Action::BanAddress {
            network,
            reason,
            until_unix,
        } => {
            tx.execute(
                "INSERT INTO address_bans (network, reason, created_unix, until_unix) \
                 VALUES ($1, $2, $3, $4)",
                &[network, reason, &unix(now), &until_unix.map(unix)],
            )
            .map_err(db)?;
        }
        Action::LiftAddressBan { id } => {
            let n = tx
                .execute(
                    "UPDATE address_bans SET lifted_unix = $1 WHERE id = $2 \
                     AND lifted_unix IS NULL",
                    &[&unix(now), id],
                )
                .map_err(db)?;
            changed(n, "address ban in force")?;
        }
        Action::CloseReport { report, resolution } => {
            let n = tx
                .execute(
                    "UPDATE reports SET closed_unix = $1, resolution = $2 WHERE id = $3 \
                     AND closed_unix IS NULL",
                    &[&unix(now), resolution, &report.0],
                )
                .map_err(db)?;
            changed(n, "open report")?;
        }
        Action::ReviewFlag { match_id, verdict } => {
            let n = tx
                .execute(
                    "UPDATE flagged_matches SET reviewed_unix = $1, verdict = $2 \
                     WHERE match_id = $3 AND reviewed_unix IS NULL",
                    &[&unix(now), verdict, &match_id.0],
                )
                .map_err(db)?;
            changed(n, "flagged match awaiting review")?;
        }
        Action::RemoveSkin { id } => {
            let n = tx
                .execute(
                    "UPDATE skins SET png = ''::bytea, removed_unix = $1 \
                     WHERE id = $2 AND removed_unix IS NULL",
                    &[&unix(now), id],
                )
                .map_err(db)?;
            changed(n, "published skin")?;
        }
    }
    Ok(())
}
