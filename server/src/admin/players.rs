//! `/admin/players`: list and search identities, and act on one: ban, mute (and lift them),
//! rename, take off the leaderboards (and back), mark as a bot (or not).

use std::sync::Arc;

use axum::Json;
use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{Extension, Path, Query, State};
use axum::response::IntoResponse;
use serde::Deserialize;
use serde_json::{Value, json};
use sevenbag_protocol::identity::name_key;
use sevenbag_storage::{Action, PlayerFilter, PlayerId, PlayerRecord, PlayerSearch, Sanction};

use super::{
    Answer, Operator, Refused, Why, act, bad, body, database, failed, limit, positive_id, query,
    reason, until,
};
use crate::db::unix_now;
use crate::shared::Shared;

/// Longest search text.
const MAX_QUERY_CHARS: usize = 32;
/// Furthest a listing may skip.
const MAX_OFFSET: u32 = 1_000_000;

/// `?q=&filter=&limit=&offset=`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ListQuery {
    /// A piece of a name (look-alikes folded).
    q: Option<String>,
    /// `all`, `banned`, `muted`, `bots`, `delisted`.
    filter: Option<String>,
    limit: Option<u32>,
    offset: Option<u32>,
}

pub(super) fn sanction_json(s: &Sanction) -> Value {
    json!({
        "id": s.id,
        "kind": s.kind.name(),
        "reason": s.reason,
        "since_unix": s.created_unix,
        "until_unix": s.until_unix,
        "lifted_unix": s.lifted_unix,
    })
}

fn player_json(r: &PlayerRecord) -> Value {
    let p = &r.player;
    json!({
        "id": p.id.0,
        "name": p.name,
        "bot": r.bot,
        "delisted": r.delisted,
        "registered_from": r.registered_from,
        "created_unix": p.created_unix,
        "last_played_unix": p.last_played_unix,
        "rating": (p.rating.rating * 10.0).round() / 10.0,
        "games": p.games,
        "wins": p.wins,
        "ban": r.ban.as_ref().map(sanction_json),
        "mute": r.mute.as_ref().map(sanction_json),
    })
}

fn player_id(id: &str) -> Result<PlayerId, Refused> {
    positive_id(id, "a player id").map(PlayerId)
}

/// `GET /admin/players`: identities, oldest first, matching a name piece and a filter.
pub(super) async fn list(
    State(shared): State<Arc<Shared>>,
    q: Result<Query<ListQuery>, QueryRejection>,
) -> Answer {
    let q = query(q)?;
    let text = match q.q.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(t)
            if t.chars().count() <= MAX_QUERY_CHARS
                && t.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') =>
        {
            Some(name_key(t))
        }
        Some(_) => {
            return Err(bad(format!(
                "q is up to {MAX_QUERY_CHARS} letters, digits, '_' or '-' (a piece of a name)"
            )));
        }
    };
    let filter = match q.filter.as_deref() {
        None | Some("all") => PlayerFilter::All,
        Some("banned") => PlayerFilter::Banned,
        Some("muted") => PlayerFilter::Muted,
        Some("bots") => PlayerFilter::Bots,
        Some("delisted") => PlayerFilter::Delisted,
        Some(_) => return Err(bad("filter is all, banned, muted, bots or delisted")),
    };
    let offset = q.offset.unwrap_or(0);
    if offset > MAX_OFFSET {
        return Err(bad(format!("offset is at most {MAX_OFFSET}")));
    }
    let search = PlayerSearch {
        name_key: text,
        filter,
        limit: limit(q.limit, 50)?,
        offset,
    };
    let now = unix_now();
    let rows = database(&shared)?
        .read(move |s| s.search_players(&search, now))
        .await
        .map_err(failed)?;
    let players: Vec<Value> = rows.iter().map(player_json).collect();
    Ok(Json(json!({ "players": players })).into_response())
}

/// `GET /admin/players/{id}`: one identity with every sanction it was given.
pub(super) async fn one(State(shared): State<Arc<Shared>>, Path(id): Path<String>) -> Answer {
    let id = player_id(&id)?;
    let now = unix_now();
    let found = database(&shared)?
        .read(move |s| {
            let Some(record) = s.player_record(id, now)? else {
                return Ok(None);
            };
            Ok(Some((record, s.sanctions_of(id)?)))
        })
        .await
        .map_err(failed)?;
    let Some((record, history)) = found else {
        return Err(Refused(
            axum::http::StatusCode::NOT_FOUND,
            "no such player".into(),
        ));
    };
    let mut out = player_json(&record);
    out["sanctions"] = history.iter().map(sanction_json).collect();
    Ok(Json(out).into_response())
}

/// `{"reason": "...", "until_unix": N}` (`until_unix` optional: no end date).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Sanctioning {
    reason: String,
    until_unix: Option<u64>,
}

/// Bans or mutes `id` (see `sanction`).
async fn sanction(
    shared: &Shared,
    operator: &Operator,
    id: &str,
    b: Result<Json<Sanctioning>, JsonRejection>,
    ban: bool,
) -> Answer {
    let player = player_id(id)?;
    let b = body(b)?;
    let why = reason(&b.reason)?;
    let until_unix = until(b.until_unix)?;
    let action = if ban {
        Action::Ban {
            player,
            reason: why.clone(),
            until_unix,
        }
    } else {
        Action::Mute {
            player,
            reason: why.clone(),
            until_unix,
        }
    };
    act(
        shared,
        operator,
        action,
        why,
        json!({ "until_unix": until_unix }),
    )
    .await
}

/// `POST /admin/players/{id}/ban`.
pub(super) async fn ban(
    State(shared): State<Arc<Shared>>,
    Extension(operator): Extension<Operator>,
    Path(id): Path<String>,
    b: Result<Json<Sanctioning>, JsonRejection>,
) -> Answer {
    sanction(&shared, &operator, &id, b, true).await
}

/// `POST /admin/players/{id}/mute`.
pub(super) async fn mute(
    State(shared): State<Arc<Shared>>,
    Extension(operator): Extension<Operator>,
    Path(id): Path<String>,
    b: Result<Json<Sanctioning>, JsonRejection>,
) -> Answer {
    sanction(&shared, &operator, &id, b, false).await
}

/// An action on a player that takes a reason only.
async fn simple(
    shared: &Shared,
    operator: &Operator,
    id: &str,
    b: Result<Json<Why>, JsonRejection>,
    action: impl FnOnce(PlayerId) -> Action,
) -> Answer {
    let player = player_id(id)?;
    let why = reason(&body(b)?.reason)?;
    act(shared, operator, action(player), why, json!({})).await
}

/// `POST /admin/players/{id}/unban`: lifts every ban in force.
pub(super) async fn unban(
    State(shared): State<Arc<Shared>>,
    Extension(operator): Extension<Operator>,
    Path(id): Path<String>,
    b: Result<Json<Why>, JsonRejection>,
) -> Answer {
    simple(&shared, &operator, &id, b, |player| Action::Unban {
        player,
    })
    .await
}

/// `POST /admin/players/{id}/unmute`: lifts every mute in force.
pub(super) async fn unmute(
    State(shared): State<Arc<Shared>>,
    Extension(operator): Extension<Operator>,
    Path(id): Path<String>,
    b: Result<Json<Why>, JsonRejection>,
) -> Answer {
    simple(&shared, &operator, &id, b, |player| Action::Unmute {
        player,
    })
    .await
}

/// `POST /admin/players/{id}/delist`: off every leaderboard (ratings, Sprint, Blitz).
pub(super) async fn delist(
    State(shared): State<Arc<Shared>>,
    Extension(operator): Extension<Operator>,
    Path(id): Path<String>,
    b: Result<Json<Why>, JsonRejection>,
) -> Answer {
    simple(&shared, &operator, &id, b, |player| Action::Listed {
        player,
        listed: false,
    })
    .await
}

/// `POST /admin/players/{id}/relist`: back on the leaderboards.
pub(super) async fn relist(
    State(shared): State<Arc<Shared>>,
    Extension(operator): Extension<Operator>,
    Path(id): Path<String>,
    b: Result<Json<Why>, JsonRejection>,
) -> Answer {
    simple(&shared, &operator, &id, b, |player| Action::Listed {
        player,
        listed: true,
    })
    .await
}

/// `{"name": "...", "reason": "..."}`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Renaming {
    name: String,
    reason: String,
}

/// `POST /admin/players/{id}/rename`: a new name (by the name rules, not taken).
pub(super) async fn rename(
    State(shared): State<Arc<Shared>>,
    Extension(operator): Extension<Operator>,
    Path(id): Path<String>,
    b: Result<Json<Renaming>, JsonRejection>,
) -> Answer {
    let player = player_id(&id)?;
    let b = body(b)?;
    let why = reason(&b.reason)?;
    let (name, name_key) =
        crate::identity::checked_name(&b.name).map_err(|(_, e)| bad(format!("name: {e}")))?;
    let action = Action::Rename {
        player,
        name_key,
        name: name.clone(),
    };
    act(&shared, &operator, action, why, json!({ "name": name })).await
}

/// `{"bot": true, "reason": "..."}`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Marking {
    bot: bool,
    reason: String,
}

/// `POST /admin/players/{id}/bot`: marks (or unmarks) an identity as a bot.
pub(super) async fn bot(
    State(shared): State<Arc<Shared>>,
    Extension(operator): Extension<Operator>,
    Path(id): Path<String>,
    b: Result<Json<Marking>, JsonRejection>,
) -> Answer {
    let player = player_id(&id)?;
    let b = body(b)?;
    let why = reason(&b.reason)?;
    let action = Action::Bot { player, bot: b.bot };
    act(&shared, &operator, action, why, json!({ "bot": b.bot })).await
}
