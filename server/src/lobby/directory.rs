//! The lobby as the rooms see it: resume tokens, rooms that close, verdicts of ended matches.

use std::sync::Arc;

use super::{Lobby, lock};
use crate::room::{self, RoomHandle};

/// The room a resume token belongs to.
pub(crate) fn room_for_token(lobby: &Lobby, token: u64) -> Option<(String, RoomHandle)> {
    let state = lock(lobby);
    let code = state.tokens.get(&token)?;
    let room = state.rooms.get(code)?;
    Some((code.clone(), room.handle.clone()))
}

/// The verdict of the finished match `token` resumed a seat in (see `crate::verdicts`).
pub(crate) fn verdict_for(lobby: &Lobby, token: u64) -> Option<sevenbag_protocol::ServerMessage> {
    lock(lobby).verdicts.find(token, std::time::Instant::now())
}

/// The lobby as the rooms see it ([`room::Directory`]).
pub(super) struct LobbyDirectory(pub(super) Arc<Lobby>);

impl room::Directory for LobbyDirectory {
    fn token_issued(&self, token: u64, code: &str) {
        register_token(&self.0, token, code);
    }

    fn token_dropped(&self, token: u64) {
        unregister_token(&self.0, token);
    }

    fn room_closed(&self, code: &str, id: u64) {
        remove_room(&self.0, code, id);
    }

    fn match_ended(&self, tokens: [u64; 2], verdict: sevenbag_protocol::ServerMessage) {
        lock(&self.0)
            .verdicts
            .record(tokens, &verdict, std::time::Instant::now());
    }
}

/// Records that `token` resumes a seat in room `code`.
fn register_token(lobby: &Lobby, token: u64, code: &str) {
    lock(lobby).tokens.insert(token, code.to_string());
}

/// Forgets a token (its seat was vacated).
fn unregister_token(lobby: &Lobby, token: u64) {
    lock(lobby).tokens.remove(&token);
}

/// Removes room `code` if it is still the room with `id` (called by the room as it ends).
fn remove_room(lobby: &Lobby, code: &str, id: u64) {
    let mut state = lock(lobby);
    if state.rooms.get(code).is_some_and(|r| r.id == id) {
        state.rooms.remove(code);
        state.tokens.retain(|_, c| c != code);
        if let Some(cluster) = &lobby.codes {
            cluster.room_closed(code);
        }
    }
}
