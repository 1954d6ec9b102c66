//! The database side of the social requests: finding a player by name, running a
//! [`SocialStorage`](sevenbag_storage::SocialStorage) call, and turning its refusals into the
//! errors a client hears. A blocked pair and a name nobody has get the same words.

use sevenbag_protocol::ErrorCode;
use sevenbag_protocol::identity::{name_key, validate_name};
use sevenbag_storage::{PlayerId, SocialError, Storage, StorageError};

use crate::db::Db;
use crate::refusal::Refusal;
use crate::services::Services;

/// What a missing player and a blocking one both read as.
const NO_SUCH_PLAYER: &str = "no player has that name";

/// The server's database, or `Unavailable`.
pub(super) fn db(services: &Services) -> Result<&Db, Refusal> {
    services.db.as_ref().ok_or((
        ErrorCode::Unavailable,
        "this server keeps no database: friends and notifications are off".to_string(),
    ))
}

/// The refusal a client hears for `e`.
pub(super) fn refused(e: SocialError) -> Refusal {
    let text = e.to_string();
    match e {
        SocialError::NoSuchPlayer => no_such_player(),
        SocialError::ToSelf => (ErrorCode::BadMessage, text),
        SocialError::RequestsClosed | SocialError::NotPlayedWith => {
            (ErrorCode::RequestsClosed, text)
        }
        SocialError::NoSuchRequest => (ErrorCode::NoSuchRequest, text),
        SocialError::NotFriends => (ErrorCode::NotFriends, text),
        SocialError::Empty(_) | SocialError::TooLong { .. } => (ErrorCode::BadMessage, text),
        SocialError::UnknownCode(_) | SocialError::Storage(_) => {
            tracing::error!(error = %e, "social storage error");
            failed()
        }
    }
}

fn failed() -> Refusal {
    (
        ErrorCode::Unavailable,
        "the server's database failed; try again later".to_string(),
    )
}

fn no_such_player() -> Refusal {
    (ErrorCode::NoSuchPlayer, NO_SUCH_PLAYER.to_string())
}

/// Runs `f` on the writer (`write`) or a reader, mapping both layers of errors.
pub(super) async fn run<T: Send + 'static>(
    db: &Db,
    write: bool,
    f: impl FnOnce(&dyn Storage) -> Result<T, SocialError> + Send + 'static,
) -> Result<T, Refusal> {
    let wrapped = move |s: &dyn Storage| Ok(f(s));
    let outcome = if write {
        db.write(wrapped).await
    } else {
        db.read(wrapped).await
    };
    match outcome {
        Ok(Ok(t)) => Ok(t),
        Ok(Err(e)) => Err(refused(e)),
        Err(e) => Err(storage_failed(e)),
    }
}

fn storage_failed(e: StorageError) -> Refusal {
    match e {
        StorageError::NoSuchPlayer => no_such_player(),
        e => {
            tracing::error!(error = %e, "database error");
            failed()
        }
    }
}

/// The identity named `name` (look-alikes folded) and its current name, or `NoSuchPlayer`.
pub(super) async fn named(db: &Db, name: &str) -> Result<(PlayerId, String), Refusal> {
    let name = name.trim();
    if validate_name(name).is_err() {
        return Err(no_such_player());
    }
    let key = name_key(name);
    db.read(move |s| s.player_by_name_key(&key))
        .await
        .map_err(storage_failed)?
        .map(|p| (p.id, p.name))
        .ok_or_else(no_such_player)
}
