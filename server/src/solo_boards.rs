//! The solo leaderboards over the WebSocket (`GetSoloLeaderboard`, `GetSoloReplay`), for the
//! game's Sprint and Blitz boards: the rows of `/api/leaderboard/sprint|blitz` (`crate::api`)
//! in the protocol's types, the identified player's own row, and any record's replay, read off
//! the async threads through [`crate::db::Db::read`].

use sevenbag_core::SoloMode;
use sevenbag_protocol::identity::{name_key, validate_name};
use sevenbag_protocol::{ErrorCode, MAX_SOLO_ROWS, SoloRow};
use sevenbag_storage::{SoloBoard, SoloStanding, StorageError};

use crate::db::Db;
use crate::lobby::Refusal;
use crate::ranked::Identity;
use crate::shared::Shared;

fn db(shared: &Shared) -> Result<&Db, Refusal> {
    shared.db.as_ref().ok_or((
        ErrorCode::Unavailable,
        "this server keeps no database: there are no solo records".to_string(),
    ))
}

fn failed(e: StorageError) -> Refusal {
    tracing::error!(error = %e, "solo leaderboard read failed");
    (
        ErrorCode::Unavailable,
        "the server's database failed; try again later".to_string(),
    )
}

fn board(mode: SoloMode) -> Result<SoloBoard, Refusal> {
    crate::solo_records::board(mode).ok_or((
        ErrorCode::BadMessage,
        "only Sprint and Blitz have leaderboards".to_string(),
    ))
}

fn row(s: &SoloStanding) -> SoloRow {
    SoloRow {
        place: u32::try_from(s.place).unwrap_or(u32::MAX),
        name: s.name.clone(),
        frames: s.run.frames,
        score: s.run.score,
        lines: s.run.lines,
        pieces: s.run.pieces,
        recorded_unix: s.run.recorded_unix,
    }
}

/// The best `limit` runs of `mode`'s board (1 to [`MAX_SOLO_ROWS`]), best first, and the
/// identified player's own row (`None` for a guest or without a record there).
pub(crate) async fn leaderboard(
    shared: &Shared,
    identity: Option<Identity>,
    mode: SoloMode,
    limit: u32,
) -> Result<(Vec<SoloRow>, Option<SoloRow>), Refusal> {
    let board = board(mode)?;
    if !(1..=MAX_SOLO_ROWS).contains(&limit) {
        return Err((
            ErrorCode::BadMessage,
            format!("a solo leaderboard is 1 to {MAX_SOLO_ROWS} rows"),
        ));
    }
    let player = identity.map(|i| i.id);
    let (rows, you) = db(shared)?
        .read(move |s| {
            let rows = s.solo_leaderboard(board, limit)?;
            let you = match player {
                Some(id) => s.solo_best(id, board)?,
                None => None,
            };
            Ok((rows, you))
        })
        .await
        .map_err(failed)?;
    Ok((rows.iter().map(row).collect(), you.as_ref().map(row)))
}

/// The replay file of player `name`'s record on `mode`'s board.
pub(crate) async fn replay(
    shared: &Shared,
    mode: SoloMode,
    name: &str,
) -> Result<Vec<u8>, Refusal> {
    let board = board(mode)?;
    let name = name.trim().to_owned();
    if validate_name(&name).is_err() {
        return Err((ErrorCode::BadName, "not a valid player name".to_string()));
    }
    let key = name_key(&name);
    let best = db(shared)?
        .read(move |s| match s.player_by_name_key(&key)? {
            Some(p) => s.solo_best(p.id, board),
            None => Ok(None),
        })
        .await
        .map_err(failed)?;
    best.map(|b| b.run.replay).ok_or((
        ErrorCode::NoSuchReplay,
        format!("{name} has no {} record", board.name()),
    ))
}
