//! A player's own moderation requests, each answered with what the connection sends or the
//! refusal: declaring a bot, reporting a player, blocking and unblocking. The connection task
//! (`crate::client`) only dispatches; every field is checked here as hostile input.

use sevenbag_protocol::ErrorCode;
use sevenbag_protocol::identity::{name_key, validate_name};
use sevenbag_protocol::moderation::{
    MAX_BLOCKS, ReportCategory, clean_report_text, valid_replay_id,
};
use sevenbag_storage::{HistoryEntry, NewReport, PlayerId, ReportId, StorageError};

use super::Tags;
use crate::db::{Db, unix_now};
use crate::refusal::{Refusal, random_u64};
use crate::services::Services;

const HOUR: u64 = 3600;
const DAY: u64 = 24 * HOUR;

fn db(services: &Services) -> Result<&Db, Refusal> {
    services.db.as_ref().ok_or((
        ErrorCode::Unavailable,
        "this server keeps no database: identities, reports and block lists are off".to_string(),
    ))
}

fn identified(player: Option<PlayerId>) -> Result<PlayerId, Refusal> {
    player.ok_or((
        ErrorCode::NotIdentified,
        "identify first (Register or Identify)".to_string(),
    ))
}

fn failed(e: StorageError) -> Refusal {
    match e {
        StorageError::Full(text) => (ErrorCode::RateLimited, text),
        StorageError::NoSuchPlayer => (ErrorCode::NoSuchPlayer, "no such player".to_string()),
        e => {
            tracing::error!(error = %e, "database error");
            (
                ErrorCode::Unavailable,
                "the server's database failed; try again later".to_string(),
            )
        }
    }
}

/// The identity named `name` (look-alikes folded), or `NoSuchPlayer`.
async fn named(db: &Db, name: &str) -> Result<(PlayerId, String), Refusal> {
    let name = name.trim();
    if validate_name(name).is_err() {
        return Err((
            ErrorCode::NoSuchPlayer,
            "no player has that name (only players with an identity can be reported or blocked)"
                .to_string(),
        ));
    }
    let key = name_key(name);
    db.read(move |s| s.player_by_name_key(&key))
        .await
        .map_err(failed)?
        .map(|p| (p.id, p.name))
        .ok_or((
            ErrorCode::NoSuchPlayer,
            "no player has that name (only players with an identity can be reported or blocked)"
                .to_string(),
        ))
}

/// `DeclareBot`: the connection is marked a bot, and its identity with it (for good).
pub(crate) async fn declare_bot(services: &Services, tags: &Tags) -> Result<(), Refusal> {
    tags.set_bot(true);
    if let (Some(player), Some(db)) = (tags.player(), &services.db) {
        db.write(move |s| s.declare_bot(player))
            .await
            .map_err(failed)?;
        tracing::info!(player = player.0, "identity declared itself a bot");
    }
    Ok(())
}

/// After an identity request succeeded: the connection's bot mark and the identity's agree
/// (a bot connection marks the identity; a marked identity marks the connection), and its
/// block list is loaded for the chat filter.
pub(crate) async fn on_identified(services: &Services, tags: &Tags, player: PlayerId) {
    let Some(db) = &services.db else { return };
    let read = db
        .read(move |s| Ok((s.bots_among(&[player])?, s.blocks_of(player)?)))
        .await;
    let (marked, blocks) = match read {
        Ok((bots, blocks)) => (!bots.is_empty(), blocks),
        Err(e) => {
            tracing::warn!(error = %e, "cannot read a player's marks and blocks");
            (false, Vec::new())
        }
    };
    tags.identified(player, blocks.into_iter().map(|(id, _)| id));
    if marked {
        tags.set_bot(true);
    } else if tags.is_bot()
        && let Err(e) = db.write(move |s| s.declare_bot(player)).await
    {
        tracing::warn!(error = %e, "cannot mark a bot's identity");
    }
}

/// `Report`: files a report by the connection's identity against the player `name`.
pub(crate) async fn report(
    services: &Services,
    reporter: Option<PlayerId>,
    name: &str,
    replay: Option<String>,
    category: ReportCategory,
    text: &str,
) -> Result<(), Refusal> {
    let db = db(services)?;
    let reporter = identified(reporter)?;
    let text = clean_report_text(text).ok_or((
        ErrorCode::BadMessage,
        format!(
            "a report says what happened in 1 to {} characters",
            sevenbag_protocol::moderation::MAX_REPORT_CHARS
        ),
    ))?;
    if let Some(id) = &replay
        && !valid_replay_id(id)
    {
        return Err((ErrorCode::BadMessage, "not a replay id".to_string()));
    }
    let (reported, reported_name) = named(db, name).await?;
    if reported == reporter {
        return Err((
            ErrorCode::BadMessage,
            "you cannot report yourself".to_string(),
        ));
    }
    // The evidence: a stored match both played in (two seats or several), or (just finished,
    // not stored yet) a replay this instance holds.
    if let Some(id) = replay.clone() {
        let stored = db
            .read(move |s| s.match_by_replay(&id))
            .await
            .map_err(failed)?;
        match stored {
            Some(m) => {
                let seats: Vec<_> = m.record.seats.iter().filter_map(|s| s.player).collect();
                if !(seats.contains(&reporter) && seats.contains(&reported)) {
                    return Err((
                        ErrorCode::BadMessage,
                        format!("that match is not one between you and {reported_name}"),
                    ));
                }
            }
            None => {
                let id = replay.clone().unwrap_or_default();
                let battle = db
                    .read(move |s| s.battle_by_replay(&id))
                    .await
                    .map_err(failed)?;
                // A stored match of several seats: both must have played in it.
                if let Some(b) = battle {
                    let r = &b.record;
                    if r.seat_of(reporter).is_none() || r.seat_of(reported).is_none() {
                        return Err((
                            ErrorCode::BadMessage,
                            format!("that match is not one between you and {reported_name}"),
                        ));
                    }
                } else if services
                    .replays
                    .get(replay.as_deref().unwrap_or_default())
                    .await
                    .is_err()
                {
                    return Err((ErrorCode::NoSuchReplay, "no such match".to_string()));
                }
            }
        }
    }
    let limits = &services.config.moderation;
    let (per_hour, per_day) = (limits.reports_per_hour, limits.reports_per_day);
    let now = unix_now();
    let filed = NewReport {
        id: ReportId((random_u64() >> 1).max(1) as i64),
        reporter,
        reported,
        category: category.name().to_string(),
        text,
        replay,
        created_unix: now,
    };
    // Counted and filed by the one writer, so two reports at once cannot both slip under.
    let outcome = db
        .write(move |s| {
            if s.open_report_between(reporter, reported)? {
                return Ok(Err(format!(
                    "you already have an open report about {reported_name}; it will be looked at"
                )));
            }
            let hour = s.reports_filed_since(reporter, now.saturating_sub(HOUR))?;
            let day = s.reports_filed_since(reporter, now.saturating_sub(DAY))?;
            if hour >= per_hour || day >= per_day {
                return Ok(Err(format!(
                    "at most {per_hour} reports an hour and {per_day} a day; try again later"
                )));
            }
            s.file_report(&filed)?;
            Ok(Ok(()))
        })
        .await
        .map_err(failed)?;
    match outcome {
        Ok(()) => {
            services.metrics.moderation("report_filed");
            tracing::info!(
                reporter = reporter.0,
                reported = reported.0,
                category = category.name(),
                "report filed"
            );
            Ok(())
        }
        Err(text) => {
            services.metrics.moderation("report_refused");
            Err((ErrorCode::RateLimited, text))
        }
    }
}

/// `Block`: `blocker` blocks the player `name`; answers the whole list.
pub(crate) async fn block(
    services: &Services,
    tags: &Tags,
    name: &str,
) -> Result<Vec<String>, Refusal> {
    let db = db(services)?;
    let blocker = identified(tags.player())?;
    let (blocked, _) = named(db, name).await?;
    if blocked == blocker {
        return Err((
            ErrorCode::BadMessage,
            "you cannot block yourself".to_string(),
        ));
    }
    let now = unix_now();
    db.write(move |s| s.block(blocker, blocked, now, MAX_BLOCKS as u32))
        .await
        .map_err(failed)?;
    tags.set_blocked(blocked, true);
    blocks(services, tags).await
}

/// `Unblock`: answers the whole list.
pub(crate) async fn unblock(
    services: &Services,
    tags: &Tags,
    name: &str,
) -> Result<Vec<String>, Refusal> {
    let db = db(services)?;
    let blocker = identified(tags.player())?;
    let (blocked, _) = named(db, name).await?;
    db.write(move |s| s.unblock(blocker, blocked))
        .await
        .map_err(failed)?;
    tags.set_blocked(blocked, false);
    blocks(services, tags).await
}

/// `GetBlocks`: whom the connection's identity blocks, by current name.
pub(crate) async fn blocks(services: &Services, tags: &Tags) -> Result<Vec<String>, Refusal> {
    let db = db(services)?;
    let me = identified(tags.player())?;
    let list = db.read(move |s| s.blocks_of(me)).await.map_err(failed)?;
    Ok(list.into_iter().map(|(_, name)| name).collect())
}

/// The bot marks of a `PlayerProfile` just sent for `name`: whether the player is a bot, and
/// whether each recent match's opponent was (the profile's order: `crate::standings` lists the
/// same matches; a free-for-all row has no one opponent and is never marked, the API names
/// every seat's bot mark). `None` when there is nothing to mark.
pub(crate) async fn profile_marks(services: &Services, name: &str) -> Option<(bool, Vec<bool>)> {
    let db = services.db.as_ref()?;
    let key = name_key(name.trim());
    let limit = sevenbag_protocol::MAX_RECENT_MATCHES as u32;
    let read = db
        .read(move |s| {
            let Some(p) = s.player_by_name_key(&key)? else {
                return Ok(None);
            };
            let opponents: Vec<Option<PlayerId>> =
                crate::history::fit_only(s.recent_history(p.id, limit)?)
                    .iter()
                    .filter_map(|m| match m {
                        HistoryEntry::Versus(m) => {
                            let seats = &m.record.seats;
                            let mine = seats.iter().position(|seat| seat.player == Some(p.id))?;
                            Some(seats[1 - mine].player)
                        }
                        HistoryEntry::Battle(b) => b.record.seat_of(p.id).map(|_| None),
                    })
                    .collect();
            let mut ids: Vec<PlayerId> = opponents.iter().flatten().copied().collect();
            ids.push(p.id);
            let bots = s.bots_among(&ids)?;
            let marks = opponents
                .iter()
                .map(|o| o.is_some_and(|o| bots.contains(&o)))
                .collect();
            Ok(Some((bots.contains(&p.id), marks)))
        })
        .await;
    read.ok().flatten()
}
