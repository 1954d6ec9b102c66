//! Identities without passwords: a player proves who they are with a 32-byte secret key the
//! game keeps in its config dir; the server stores only a SHA-256 of it (and of the recovery
//! code), so a stolen database gives away neither. Names follow `protocol::identity`.
//!
//! Each function here answers one client request and returns what the connection should send,
//! or the refusal; the connection task (`crate::client`) only dispatches.

use sevenbag_protocol::identity::{name_key, normalise_recovery_code, validate_name};
use sevenbag_protocol::{ErrorCode, MAX_NAME_CHARS, Profile};
use sevenbag_storage::{NewPlayer, Player, StorageError};
use sha2::{Digest, Sha256};

use crate::db::{self, Db, LEADERBOARD_MIN_GAMES};
use crate::lobby::{Refusal, random_u64};
use crate::ranked::{self, Identity};
use crate::shared::Shared;

/// Recovery codes: 20 characters from the room-code alphabet (no look-alikes), shown in groups
/// of five. 25^20 ≈ 2^93 codes.
const RECOVERY_CHARS: usize = 20;

/// What starts a guest's shown name on a server that keeps identities (`docs/SERVER.md`,
/// "Guests"): registered names are `A–Z a–z 0–9 _ -` only, so a name with it is never a
/// registered player's, and a report or block of it names no one.
pub(crate) const GUEST_MARK: char = '~';

/// A guest's shown name: [`GUEST_MARK`] and the `Hello` name, cut to fit [`MAX_NAME_CHARS`]
/// (the bound room logs and replays hold names to).
pub(crate) fn guest_name(hello: &str) -> String {
    let kept: String = hello.chars().take(MAX_NAME_CHARS - 1).collect();
    format!("{GUEST_MARK}{}", kept.trim_end())
}

/// The registered name a guest's `Hello` name reads as (case and look-alikes folded:
/// `display_name_key`), if a registered player has it: a guest may not play under it.
pub(crate) async fn registered_look_alike(
    db: &Db,
    hello: &str,
) -> Result<Option<String>, StorageError> {
    let Some(key) = sevenbag_protocol::identity::display_name_key(hello) else {
        return Ok(None);
    };
    Ok(db
        .read(move |s| s.player_by_name_key(&key))
        .await?
        .map(|p| p.name))
}

/// What a successful request gives the connection.
pub(crate) struct Outcome {
    /// Who the connection now plays as.
    pub(crate) identity: Identity,
    /// Their profile.
    pub(crate) profile: Profile,
    /// A new recovery code, to show once (register and recover only).
    pub(crate) recovery_code: Option<String>,
}

fn hash(domain: &str, secret: &[u8]) -> Vec<u8> {
    let mut h = Sha256::new();
    h.update(domain.as_bytes());
    h.update(secret);
    h.finalize().to_vec()
}

fn key_hash(key: &[u8; 32]) -> Vec<u8> {
    hash("sevenbag key v1:", key)
}

fn recovery_hash(code: &str) -> Vec<u8> {
    hash(
        "sevenbag recovery v1:",
        normalise_recovery_code(code).as_bytes(),
    )
}

fn new_recovery_code() -> String {
    let alphabet = sevenbag_protocol::ROOM_CODE_ALPHABET;
    let n = alphabet.len() as u64;
    let mut chars = String::new();
    let mut v = 0u64;
    for i in 0..RECOVERY_CHARS {
        if i % 10 == 0 {
            v = random_u64();
        }
        if i > 0 && i % 5 == 0 {
            chars.push('-');
        }
        chars.push(alphabet[(v % n) as usize] as char);
        v /= n;
    }
    chars
}

fn db(shared: &Shared) -> Result<&Db, Refusal> {
    shared.db.as_ref().ok_or((
        ErrorCode::Unavailable,
        "this server keeps no database: identities and ranked play are off".to_string(),
    ))
}

fn storage_refusal(e: StorageError) -> Refusal {
    match e {
        StorageError::NameTaken(name) => (
            ErrorCode::NameTaken,
            format!("the name {name:?} (or one that looks like it) is taken"),
        ),
        StorageError::KeyTaken => (
            ErrorCode::BadMessage,
            "this key already has an identity: send Identify".to_string(),
        ),
        StorageError::NoSuchPlayer => (ErrorCode::UnknownKey, "no such player".to_string()),
        StorageError::Full(text) => (ErrorCode::RateLimited, text),
        e => {
            tracing::error!(error = %e, "database error");
            (
                ErrorCode::Unavailable,
                "the server's database failed; try again later".to_string(),
            )
        }
    }
}

/// A registered name as stored, and its key, or why it is refused: the one check for
/// `Register`, `Rename` and an operator's forced rename (`crate::admin`).
pub(crate) fn checked_name(name: &str) -> Result<(String, String), Refusal> {
    let name = name.trim();
    validate_name(name).map_err(|e| (ErrorCode::BadName, e.to_string()))?;
    Ok((name.to_string(), name_key(name)))
}

/// The outcome for `player` as stored now.
async fn outcome(db: &Db, player: Player, recovery_code: Option<String>) -> Outcome {
    let id = player.id;
    let place = db
        .read(move |s| s.place_of(id, LEADERBOARD_MIN_GAMES))
        .await
        .ok()
        .flatten();
    let now = db::unix_now();
    let rating = ranked::decayed(player.rating, player.last_played_unix, now);
    Outcome {
        identity: Identity {
            id,
            rating: rating.rating,
        },
        profile: ranked::profile(&player, place, now),
        recovery_code,
    }
}

/// Where a registration comes from, and how many one address may make (`docs/MODERATION.md`).
pub(crate) struct Origin {
    /// The address key (`crate::moderation`'s: IPv4 address or IPv6 /64).
    pub(crate) address: String,
    /// Registrations per hour from it; `None`: no limit.
    pub(crate) per_hour: Option<u32>,
    /// Registrations per 24 hours from it; `None`: no limit.
    pub(crate) per_day: Option<u32>,
}

/// `Register`: a new identity for `key` named `name`, unless `from` made too many lately.
pub(crate) async fn register(
    shared: &Shared,
    key: [u8; 32],
    name: &str,
    from: Origin,
) -> Result<Outcome, Refusal> {
    let db = db(shared)?;
    let (name, name_key) = checked_name(name)?;
    let code = new_recovery_code();
    let new = NewPlayer {
        key_hash: key_hash(&key),
        recovery_hash: recovery_hash(&code),
        name,
        name_key,
        created_unix: db::unix_now(),
        registered_from: Some(from.address.clone()),
    };
    // Counted and created by the one writer, so registrations at once cannot all slip under.
    let player = db
        .write(move |s| {
            let now = new.created_unix;
            for (limit, seconds, per) in
                [(from.per_hour, 3600, "hour"), (from.per_day, 86_400, "day")]
            {
                let Some(limit) = limit else { continue };
                if s.registrations_since(&from.address, now.saturating_sub(seconds))? >= limit {
                    return Err(StorageError::Full(format!(
                        "this address registered {limit} identities in the last {per}, the most \
                         it may; play as a guest, or try again later"
                    )));
                }
            }
            s.create_player(&new)
        })
        .await
        .map_err(storage_refusal)?;
    tracing::info!(player = player.id.0, name = %player.name, "identity registered");
    Ok(outcome(db, player, Some(code)).await)
}

/// `Identify`: the identity whose key this is.
pub(crate) async fn identify(shared: &Shared, key: [u8; 32]) -> Result<Outcome, Refusal> {
    let db = db(shared)?;
    let hash = key_hash(&key);
    let player = db
        .read(move |s| s.player_by_key(&hash))
        .await
        .map_err(storage_refusal)?
        .ok_or((
            ErrorCode::UnknownKey,
            "this key belongs to no player here: register, or recover with your code".to_string(),
        ))?;
    Ok(outcome(db, player, None).await)
}

/// `Recover`: the code's identity moves to `key`, with a new code.
pub(crate) async fn recover(
    shared: &Shared,
    code: &str,
    key: [u8; 32],
) -> Result<Outcome, Refusal> {
    let db = db(shared)?;
    let old = recovery_hash(code);
    let unknown = || {
        (
            ErrorCode::UnknownKey,
            "no player has this recovery code".to_string(),
        )
    };
    let player = db
        .read(move |s| s.player_by_recovery(&old))
        .await
        .map_err(storage_refusal)?
        .ok_or_else(unknown)?;
    let fresh = new_recovery_code();
    let (id, new_key, new_code) = (player.id, key_hash(&key), recovery_hash(&fresh));
    db.write(move |s| s.rekey(id, &new_key, &new_code))
        .await
        .map_err(storage_refusal)?;
    tracing::info!(player = id.0, "identity recovered onto a new key");
    Ok(outcome(db, player, Some(fresh)).await)
}

/// `Rename`: the identified player takes `name`.
pub(crate) async fn rename(
    shared: &Shared,
    who: Option<Identity>,
    name: &str,
) -> Result<Outcome, Refusal> {
    let db = db(shared)?;
    let who = who.ok_or((
        ErrorCode::NotIdentified,
        "identify first (Register or Identify)".to_string(),
    ))?;
    let (name, key) = checked_name(name)?;
    let id = who.id;
    let player = db
        .write(move |s| {
            s.rename(id, &name, &key)?;
            s.player(id)?.ok_or(StorageError::NoSuchPlayer)
        })
        .await
        .map_err(storage_refusal)?;
    Ok(outcome(db, player, None).await)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recovery_codes_are_grouped_and_normalise_back() {
        let code = new_recovery_code();
        assert_eq!(code.len(), RECOVERY_CHARS + 3);
        assert_eq!(
            recovery_hash(&code),
            recovery_hash(&code.to_lowercase().replace('-', " "))
        );
        assert_ne!(new_recovery_code(), code);
    }

    #[test]
    fn a_guest_name_is_marked_and_fits_the_name_bound() {
        assert_eq!(guest_name("alice"), "~alice");
        let long = guest_name(&"x".repeat(MAX_NAME_CHARS));
        assert_eq!(long.chars().count(), MAX_NAME_CHARS);
        assert!(long.starts_with(GUEST_MARK));
        assert!(validate_name(&guest_name("alice")).is_err());
    }

    #[test]
    fn key_and_recovery_hashes_are_domain_separated() {
        let key = [7u8; 32];
        assert_ne!(key_hash(&key), hash("sevenbag recovery v1:", &key));
    }
}
