//! The lobby: which rooms exist (by code), which resume token belongs to which room, and the
//! quick-match queues (versus and ranked here; the free-for-all queue beside them, under a lock
//! of its own that is never held together with the lobby's: `crate::quick_battle`).
//!
//! Like mini-redis's `Db`, this is plain data behind a `std::sync::Mutex`, not a task: every
//! critical section is a few map operations and never awaits, so a blocking mutex is cheaper
//! than a message round trip and cannot deadlock against the room tasks (rooms lock it briefly
//! to register tokens and to remove themselves; nothing holds it while waiting on a room).
//!
//! This file holds the lobby's data, its lock and what spans every queue (the drain,
//! `unqueue`); `rooms.rs` opens, restores and finds rooms by code; `directory.rs` is the lobby
//! as the rooms see it (resume tokens, closing rooms, verdicts); `quick.rs` is the quick-match
//! waiter; `ranked.rs` the ranked queue and its matchmaker.

mod directory;
mod quick;
mod ranked;
mod rooms;

use std::collections::HashMap;
use std::sync::Arc;

use tokio::sync::mpsc;

use crate::battle_queue::BattleQueue;
use crate::relay::ClientId;
use crate::room::{Member, RoomHandle};
use crate::services::Services;
use crate::verdicts::Verdicts;
use crate::waiting::{Avoid, Queue};
pub(crate) use crate::waiting::{Control, Membership};
pub(crate) use directory::{room_for_token, verdict_for};
pub(crate) use quick::{has_quick_waiter, quick_match, quick_waiter, take_quick_waiter};
pub(crate) use ranked::{ranked_match, ranked_waiters, start_matchmaker, take_ranked_waiter};
pub(crate) use rooms::{
    create_battle_room, create_room, find_room, normalise_code, open_seated, restore_battle_room,
    restore_room, room_codes, unused_code,
};

/// A quick-match player waiting for an opponent.
#[derive(Debug)]
struct Waiting {
    member: Member,
    control: mpsc::Sender<Control>,
    /// When the player queued (the cluster's queue orders by it).
    since: std::time::Instant,
    /// Whom they must not be paired with (block lists).
    avoid: Avoid,
}

/// A registered room.
#[derive(Debug)]
struct RoomEntry {
    /// Distinguishes this room from a later one that reuses its code.
    id: u64,
    handle: RoomHandle,
}

/// Rooms, tokens and the quick-match and ranked queues: the data behind the lobby's lock.
#[derive(Debug, Default)]
pub(crate) struct LobbyState {
    rooms: HashMap<String, RoomEntry>,
    tokens: HashMap<u64, String>,
    /// Quick-match players waiting, oldest first (more than one only while block lists keep
    /// the first ones apart from newcomers).
    waiting: Vec<Waiting>,
    ranked: Queue,
    /// How recent matches ended, for players who come back after the end.
    verdicts: Verdicts,
}

/// Whoever keeps a directory of room codes beyond this instance (the cluster, `--redis`): told
/// when a room opens and closes here. A trait object so that the lobby does not import the
/// cluster, which uses the lobby's queues.
pub(crate) trait CodeBook: Send + Sync + std::fmt::Debug {
    /// Room `code` opened here.
    fn room_opened(&self, code: &str);
    /// Room `code` closed here.
    fn room_closed(&self, code: &str);
}

/// The lobby handle every connection and the cluster share: the server's services (for the
/// rooms it opens), the lobby's data behind a blocking mutex, and the code directory, if any.
#[derive(Debug)]
pub(crate) struct Lobby {
    /// What the rooms it opens share.
    pub(crate) services: Arc<Services>,
    state: std::sync::Mutex<LobbyState>,
    codes: Option<Arc<dyn CodeBook>>,
    /// The free-for-all queue (`crate::quick_battle`).
    pub(crate) battle_queue: std::sync::Mutex<BattleQueue>,
    /// Wakes the free-for-all queue's task when the queue changed.
    pub(crate) battle_wake: tokio::sync::Notify,
}

impl Lobby {
    /// An empty lobby whose rooms use `services` and whose room codes go to `codes`.
    pub(crate) fn new(services: Arc<Services>, codes: Option<Arc<dyn CodeBook>>) -> Lobby {
        Lobby {
            services,
            state: std::sync::Mutex::new(LobbyState::default()),
            codes,
            battle_queue: std::sync::Mutex::new(BattleQueue::default()),
            battle_wake: tokio::sync::Notify::new(),
        }
    }
}

pub(crate) use crate::refusal::{Refusal, draining, random_u64};

/// Begins a graceful drain: from now on no room opens and nobody is queued, and whoever is
/// waiting in the quick-match or ranked queue is taken out and told.
pub(crate) fn begin_drain(lobby: &Lobby, timeout: std::time::Duration) {
    let waiting = {
        let mut state = lock(lobby);
        if !lobby.services.draining.start() {
            return;
        }
        let mut outboxes: Vec<_> = std::mem::take(&mut state.waiting)
            .into_iter()
            .map(|w| w.member.outbox)
            .collect();
        outboxes.extend(state.ranked.take_all().into_iter().map(|w| w.member.outbox));
        outboxes
    };
    // After the lobby's lock (never both at once): a player queueing from now on sees the drain.
    let mut waiting = waiting;
    waiting.extend(
        battle_queue(lobby)
            .take_all()
            .into_iter()
            .map(|e| e.member.outbox),
    );
    tracing::info!(
        timeout_s = timeout.as_secs_f64(),
        unqueued = waiting.len(),
        "draining: no new rooms or matches; waiting for running matches"
    );
    let (code, message) = draining();
    for outbox in waiting {
        outbox.send(&sevenbag_protocol::ServerMessage::Error {
            code,
            message: message.clone(),
            fatal: false,
        });
    }
}

fn lock(lobby: &Lobby) -> std::sync::MutexGuard<'_, LobbyState> {
    // A panic while holding the lock cannot leave the maps half-updated in a way that matters
    // more than refusing service, so a poisoned lock is simply taken over.
    lobby.state.lock().unwrap_or_else(|p| p.into_inner())
}

/// The free-for-all queue, locked (never while the lobby's own lock is held).
pub(crate) fn battle_queue(lobby: &Lobby) -> std::sync::MutexGuard<'_, BattleQueue> {
    lobby.battle_queue.lock().unwrap_or_else(|p| p.into_inner())
}

/// Takes `client` out of every queue.
pub(crate) fn unqueue(lobby: &Lobby, client: ClientId) {
    {
        let mut state = lock(lobby);
        state.waiting.retain(|w| w.member.client != client);
        state.ranked.remove(client);
    }
    let config = &lobby.services.config.quick_battle;
    if battle_queue(lobby).remove(client, std::time::Instant::now(), config) {
        lobby.battle_wake.notify_one();
    }
}
