//! The leaderboard, player profiles, their statistics and their matches over the WebSocket
//! (`GetLeaderboard`, `GetProfile`, `GetPlayerStats`, `GetMatchDetail`), for the game's
//! Leaderboard and Profile screens. The same rows as the HTTP API (`crate::api`),
//! in the protocol's types, read off the async threads through [`crate::db::Db::read`].

use sevenbag_protocol::identity::{name_key, validate_name};
use sevenbag_protocol::player_stats::{MAX_PROGRESSION_RUNS, MAX_STATS_LAST};
use sevenbag_protocol::{
    ErrorCode, MAX_LEADERBOARD_ROWS, MAX_RECENT_MATCHES, MatchAverages, MatchDetail, PlayerStats,
    Profile, ProgressRun, RecentMatch,
};
use sevenbag_storage::{
    HistoryEntry, MatchId, Outcome, SeatTotals, SoloBoard, SoloEntry, StorageError, StoredMatch,
};

use crate::db::{self, Db, LEADERBOARD_MIN_GAMES};
use crate::history::{battle_row, detail, fit_only, unfit};
use crate::lobby::Refusal;
use crate::ranked;
use crate::shared::Shared;

fn db(shared: &Shared) -> Result<&Db, Refusal> {
    shared.db.as_ref().ok_or((
        ErrorCode::Unavailable,
        "this server keeps no database: there is no leaderboard".to_string(),
    ))
}

fn failed(e: StorageError) -> Refusal {
    tracing::error!(error = %e, "leaderboard read failed");
    (
        ErrorCode::Unavailable,
        "the server's database failed; try again later".to_string(),
    )
}

/// `name` trimmed and its lookup key (case and look-alikes folded), or why it is no name.
fn looked_up(name: &str) -> Result<(&str, String), Refusal> {
    let name = name.trim();
    if validate_name(name).is_err() {
        return Err((ErrorCode::BadName, "not a valid player name".to_string()));
    }
    Ok((name, name_key(name)))
}

fn no_such_player(name: &str) -> Refusal {
    (
        ErrorCode::NoSuchPlayer,
        format!("no player is called {name:?}"),
    )
}

/// The best `limit` players (1 to [`MAX_LEADERBOARD_ROWS`]), best first, each with their place.
pub(crate) async fn leaderboard(shared: &Shared, limit: u16) -> Result<Vec<Profile>, Refusal> {
    if !(1..=MAX_LEADERBOARD_ROWS).contains(&limit) {
        return Err((
            ErrorCode::BadMessage,
            format!("a leaderboard is 1 to {MAX_LEADERBOARD_ROWS} rows"),
        ));
    }
    let rows = db(shared)?
        .read(move |s| s.leaderboard(u32::from(limit), LEADERBOARD_MIN_GAMES))
        .await
        .map_err(failed)?;
    let now = db::unix_now();
    Ok(rows
        .iter()
        .map(|row| ranked::profile(&row.player, Some(row.place), now))
        .collect())
}

/// The player called `name` (case and look-alikes folded) and their latest matches.
pub(crate) async fn profile(
    shared: &Shared,
    name: &str,
) -> Result<(Profile, Vec<RecentMatch>), Refusal> {
    let (name, key) = looked_up(name)?;
    let found = db(shared)?
        .read(move |s| {
            let Some(p) = s.player_by_name_key(&key)? else {
                return Ok(None);
            };
            let place = s.place_of(p.id, LEADERBOARD_MIN_GAMES)?;
            let recent = s.recent_history(p.id, MAX_RECENT_MATCHES as u32)?;
            Ok(Some((p, place, recent)))
        })
        .await
        .map_err(failed)?;
    let Some((player, place, recent)) = found else {
        return Err(no_such_player(name));
    };
    let recent = fit_only(recent)
        .iter()
        .filter_map(|m| match m {
            HistoryEntry::Versus(m) => recent_match(m, player.id),
            HistoryEntry::Battle(b) => battle_row(b, player.id),
        })
        .collect();
    Ok((ranked::profile(&player, place, db::unix_now()), recent))
}

/// Player `name`'s averages over their latest `last` matches and their solo best
/// progressions: what `GET /api/players/NAME/stats` reads, in the protocol's whole numbers.
pub(crate) async fn player_stats(
    shared: &Shared,
    name: &str,
    last: u32,
) -> Result<PlayerStats, Refusal> {
    if !(1..=MAX_STATS_LAST).contains(&last) {
        return Err((
            ErrorCode::BadMessage,
            format!("statistics average over 1 to {MAX_STATS_LAST} matches"),
        ));
    }
    let (name, key) = looked_up(name)?;
    let found = db(shared)?
        .read(move |s| {
            let Some(p) = s.player_by_name_key(&key)? else {
                return Ok(None);
            };
            let totals = s.seat_totals(p.id, last)?;
            let runs = MAX_PROGRESSION_RUNS as u32;
            let sprint = s.solo_progression(p.id, SoloBoard::Sprint, runs)?;
            let blitz = s.solo_progression(p.id, SoloBoard::Blitz, runs)?;
            Ok(Some((p.name, totals, sprint, blitz)))
        })
        .await
        .map_err(failed)?;
    let Some((name, totals, sprint, blitz)) = found else {
        return Err(no_such_player(name));
    };
    Ok(PlayerStats {
        name,
        last,
        averages: averages(&totals),
        sprint: sprint.iter().map(progress_run).collect(),
        blitz: blitz.iter().map(progress_run).collect(),
    })
}

/// The means of what the database summed.
fn averages(t: &SeatTotals) -> MatchAverages {
    let rates = [t.pps_x100, t.apm_x100, t.vs_x100];
    MatchAverages::from_sums(t.matches, t.wins, rates, t.attack, t.pieces)
}

fn progress_run(r: &SoloEntry) -> ProgressRun {
    ProgressRun {
        frames: r.frames,
        score: r.score,
        lines: r.lines,
        pieces: r.pieces,
        recorded_unix: r.recorded_unix,
    }
}

/// Match `id` of either kind, seat by seat, with its declared bots marked.
pub(crate) async fn match_detail(shared: &Shared, id: u64) -> Result<MatchDetail, Refusal> {
    let unknown = || {
        (
            ErrorCode::NoSuchMatch,
            format!("no finished match has id {id}"),
        )
    };
    let key = i64::try_from(id).map_err(|_| unknown())?;
    let found = db(shared)?
        .read(move |s| {
            let entry = match s.get_match(MatchId(key))? {
                Some(m) => HistoryEntry::Versus(Box::new(m)),
                None => match s.get_battle(MatchId(key))? {
                    Some(b) => HistoryEntry::Battle(b),
                    None => return Ok(None),
                },
            };
            let players: Vec<_> = match &entry {
                HistoryEntry::Versus(m) => m.record.seats.iter().filter_map(|s| s.player).collect(),
                HistoryEntry::Battle(b) => b.record.seats.iter().filter_map(|s| s.player).collect(),
            };
            if let Some(why) = unfit(&entry) {
                tracing::warn!(match_id = key, why, "a damaged stored match is not shown");
                return Ok(None);
            }
            let bots = s.bots_among(&players)?;
            Ok(Some(detail(&entry, &bots)))
        })
        .await
        .map_err(failed)?;
    found.ok_or_else(unknown)
}

/// `m` from the side of `me` (`None` if they did not play in it).
fn recent_match(m: &StoredMatch, me: sevenbag_storage::PlayerId) -> Option<RecentMatch> {
    let r = &m.record;
    let mine = r.seats.iter().position(|s| s.player == Some(me))?;
    let (me_seat, them) = (&r.seats[mine], &r.seats[1 - mine]);
    let rating_change = match (me_seat.before, me_seat.after) {
        (Some(b), Some(a)) => Some((a.rating - b.rating).round() as i32),
        _ => None,
    };
    Some(RecentMatch {
        id: u64::try_from(m.id.0).unwrap_or_default(),
        opponent: them.name.clone(),
        won: match r.outcome {
            Outcome::Won(seat) => Some(usize::from(seat) == mine),
            Outcome::Void => None,
        },
        score: [r.score[mine], r.score[1 - mine]],
        ranked: r.ranked,
        rating_change,
        ended_unix: r.ended_unix,
        replay: r.replay.clone(),
    })
}
