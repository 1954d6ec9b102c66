//! Rooms by code: opening (a fresh or reserved code), restoring from a room log, finding.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use sevenbag_core::Seat;
use sevenbag_protocol::{ErrorCode, ROOM_CODE_ALPHABET, ROOM_CODE_LEN, RoomOptions};

use super::directory::LobbyDirectory;
use super::{Lobby, LobbyState, Membership, Refusal, RoomEntry, draining, lock, random_u64};
use crate::room::{self, Member, RoomHandle, Start};
use crate::services::Services;

fn random_code() -> String {
    let mut v = random_u64();
    let n = ROOM_CODE_ALPHABET.len() as u64;
    (0..ROOM_CODE_LEN)
        .map(|_| {
            let c = ROOM_CODE_ALPHABET[(v % n) as usize];
            v /= n;
            c as char
        })
        .collect()
}

/// Normalises a typed code (trim, upper case); `None` if it cannot be a room code.
pub(crate) fn normalise_code(code: &str) -> Option<String> {
    let code = code.trim().to_ascii_uppercase();
    (code.len() == ROOM_CODE_LEN && code.bytes().all(|b| ROOM_CODE_ALPHABET.contains(&b)))
        .then_some(code)
}

static NEXT_ROOM_ID: AtomicU64 = AtomicU64::new(1);

/// Registers a new room under a fresh code and starts its task.
pub(super) fn open_room(
    lobby: &Arc<Lobby>,
    state: &mut LobbyState,
    options: RoomOptions,
    start: Start,
    reserved: Option<String>,
) -> Result<Membership, Refusal> {
    open_with(lobby, state, reserved, |services, directory, id, code| {
        room::spawn(services, directory, id, code, options, start)
    })
}

/// Registers a new room under a fresh code and starts its task with `spawn` (a two-seat room
/// or a room of several seats: both take the same commands).
fn open_with(
    lobby: &Arc<Lobby>,
    state: &mut LobbyState,
    reserved: Option<String>,
    spawn: impl FnOnce(Arc<Services>, Arc<dyn room::Directory>, u64, String) -> Option<RoomHandle>,
) -> Result<Membership, Refusal> {
    // Checked under the lobby lock, which `begin_drain` takes too: no room slips in after.
    if lobby.services.draining.is_draining() {
        return Err(draining());
    }
    if state.rooms.len() >= lobby.services.config.limits.max_rooms {
        return Err((
            ErrorCode::ServerFull,
            "the server has no room for more rooms; try again later".into(),
        ));
    }
    // 25^5 ≈ 9.8 million codes against at most a few thousand rooms: a free one is found in a
    // try or two. The bound only keeps the loop finite.
    // A code reserved in the cluster's directory beforehand, if it is still free here.
    let code = reserved
        .filter(|c| !state.rooms.contains_key(c))
        .or_else(|| {
            (0..64)
                .map(|_| random_code())
                .find(|c| !state.rooms.contains_key(c))
        })
        .ok_or((ErrorCode::ServerFull, "no free room code".to_string()))?;
    let id = NEXT_ROOM_ID.fetch_add(1, Ordering::Relaxed);
    let directory = Arc::new(LobbyDirectory(lobby.clone()));
    let handle = spawn(lobby.services.clone(), directory, id, code.clone()).ok_or((
        ErrorCode::Shutdown,
        "the server is shutting down".to_string(),
    ))?;
    state.rooms.insert(
        code.clone(),
        RoomEntry {
            id,
            handle: handle.clone(),
        },
    );
    if let Some(cluster) = &lobby.codes {
        cluster.room_opened(&code);
    }
    Ok(Membership {
        code,
        handle,
        seat: Some(Seat::First),
    })
}

/// Creates a room with `creator` in seat First.
pub(crate) fn create_room(
    lobby: &Arc<Lobby>,
    options: RoomOptions,
    creator: Member,
    reserved: Option<String>,
) -> Result<Membership, Refusal> {
    let mut state = lock(lobby);
    open_room(
        lobby,
        &mut state,
        options,
        Start::Created(creator),
        reserved,
    )
}

/// Creates a room of several seats with `creator` in room seat 0.
pub(crate) fn create_battle_room(
    lobby: &Arc<Lobby>,
    options: sevenbag_protocol::BattleRoomOptions,
    creator: Member,
    reserved: Option<String>,
) -> Result<Membership, Refusal> {
    let mut state = lock(lobby);
    open_with(
        lobby,
        &mut state,
        reserved,
        |services, directory, id, code| {
            room::battle::spawn(services, directory, id, code, options, creator)
        },
    )
}

/// Opens a room with a queue's players in room seats 0, 1, ...; its code and handle (every
/// player's seat is its place in the opening's players).
pub(crate) fn open_seated(
    lobby: &Arc<Lobby>,
    opening: room::battle::Opening,
) -> Result<Membership, Refusal> {
    let mut state = lock(lobby);
    open_seated_in(lobby, &mut state, opening)
}

/// [`open_seated`] with the lobby's lock already held.
pub(super) fn open_seated_in(
    lobby: &Arc<Lobby>,
    state: &mut LobbyState,
    opening: room::battle::Opening,
) -> Result<Membership, Refusal> {
    open_with(lobby, state, None, |services, directory, id, code| {
        room::battle::spawn_seated(services, directory, id, code, opening)
    })
}

/// A random room code no room here uses (to reserve in the cluster's directory first).
pub(crate) fn unused_code(lobby: &Lobby) -> String {
    let state = lock(lobby);
    (0..64)
        .map(|_| random_code())
        .find(|c| !state.rooms.contains_key(c))
        .unwrap_or_else(random_code)
}

/// Registers a room restored from its room log under its old code and starts its task;
/// `false` if the code is taken, the server is full, or it is shutting down.
pub(crate) fn restore_room(
    lobby: &Arc<Lobby>,
    code: String,
    options: RoomOptions,
    start: Start,
) -> bool {
    restore_with(lobby, code.clone(), |services, directory, id| {
        room::spawn(services, directory, id, code, options, start)
    })
}

/// Registers a room of several seats restored from its room log under its old code.
pub(crate) fn restore_battle_room(
    lobby: &Arc<Lobby>,
    loaded: crate::durable::BattleLoaded,
) -> bool {
    let code = loaded.open.code.clone();
    restore_with(lobby, code.clone(), |services, directory, id| {
        room::battle::spawn_restored(services, directory, id, code, loaded)
    })
}

fn restore_with(
    lobby: &Arc<Lobby>,
    code: String,
    spawn: impl FnOnce(Arc<Services>, Arc<dyn room::Directory>, u64) -> Option<RoomHandle>,
) -> bool {
    let mut state = lock(lobby);
    if state.rooms.contains_key(&code)
        || state.rooms.len() >= lobby.services.config.limits.max_rooms
    {
        return false;
    }
    let id = NEXT_ROOM_ID.fetch_add(1, Ordering::Relaxed);
    let directory = Arc::new(LobbyDirectory(lobby.clone()));
    let Some(handle) = spawn(lobby.services.clone(), directory, id) else {
        return false;
    };
    state.rooms.insert(code, RoomEntry { id, handle });
    true
}

/// The room with this (normalised) code.
pub(crate) fn find_room(lobby: &Lobby, code: &str) -> Option<RoomHandle> {
    lock(lobby).rooms.get(code).map(|r| r.handle.clone())
}

/// The codes of every room this instance runs.
pub(crate) fn room_codes(lobby: &Lobby) -> Vec<String> {
    lock(lobby).rooms.keys().cloned().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_use_the_alphabet_and_normalise() {
        for _ in 0..100 {
            let code = random_code();
            assert_eq!(normalise_code(&code.to_lowercase()), Some(code));
        }
        assert_eq!(normalise_code("ABCDE"), None, "B is not in the alphabet");
        assert_eq!(normalise_code("ACDE"), None);
        assert_eq!(normalise_code(" acdef "), Some("ACDEF".into()));
    }
}
