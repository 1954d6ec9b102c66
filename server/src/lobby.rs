//! The lobby: which rooms exist (by code), which resume token belongs to which room, and the
//! quick-match queues (versus and ranked here; the free-for-all queue beside them, under a lock
//! of its own that is never held together with the lobby's: `crate::quick_battle`).
//!
//! Like mini-redis's `Db`, this is plain data behind a `std::sync::Mutex`, not a task: every
//! critical section is a few map operations and never awaits, so a blocking mutex is cheaper
//! than a message round trip and cannot deadlock against the room tasks (rooms lock it briefly
//! to register tokens and to remove themselves; nothing holds it while waiting on a room).

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use sevenbag_core::Seat;
use sevenbag_protocol::{ErrorCode, ROOM_CODE_ALPHABET, ROOM_CODE_LEN, RoomOptions};
use tokio::sync::mpsc;

use crate::battle_queue::BattleQueue;
use crate::relay::ClientId;
use crate::room::{self, Member, RoomHandle, Start};
use crate::services::Services;
use crate::verdicts::Verdicts;
use crate::waiting::{self, Avoid, Queue};
pub(crate) use crate::waiting::{Control, Membership};

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
fn open_room(
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

/// Opens a room of several seats with `players` (the free-for-all queue's) in room seats 0,
/// 1, ...; its code and handle (every player's seat is its place in `players`).
pub(crate) fn open_quick_battle(
    lobby: &Arc<Lobby>,
    options: sevenbag_protocol::BattleRoomOptions,
    players: Vec<Member>,
) -> Result<Membership, Refusal> {
    let mut state = lock(lobby);
    open_with(lobby, &mut state, None, |services, directory, id, code| {
        room::battle::spawn_quick(services, directory, id, code, options, players)
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

/// Records that `token` resumes a seat in room `code`.
/// The lobby as the rooms see it ([`room::Directory`]).
struct LobbyDirectory(Arc<Lobby>);

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

/// Queues `me` for quick match, or pairs it with the longest-waiting player it may play (block
/// lists keep some apart). `Ok(Some)` when paired now (the waiting player hears through its
/// control channel), `Ok(None)` when queued.
pub(crate) fn quick_match(
    lobby: &Arc<Lobby>,
    me: Member,
    control: mpsc::Sender<Control>,
    avoid: Avoid,
) -> Result<Option<Membership>, Refusal> {
    let mut state = lock(lobby);
    if lobby.services.draining.is_draining() {
        return Err(draining());
    }
    // A waiting player whose connection has since closed is discarded, not paired.
    state
        .waiting
        .retain(|w| !w.member.outbox.is_cut() && w.member.client != me.client);
    let partner = state.waiting.iter().position(|w| {
        let skip = waiting::refused(&w.member, &w.avoid, &me, &avoid);
        if let Some(skip) = skip {
            lobby.services.metrics.moderation(skip.event());
        }
        skip.is_none()
    });
    let Some(first) = partner.map(|i| state.waiting.remove(i)) else {
        state.waiting.push(Waiting {
            member: me,
            control,
            since: std::time::Instant::now(),
            avoid,
        });
        return Ok(None);
    };
    let first_control = first.control.clone();
    let first_outbox = first.member.outbox.clone();
    let membership = match open_room(
        lobby,
        &mut state,
        RoomOptions::default(),
        Start::Quick([first.member, me]),
        None,
    ) {
        Ok(m) => m,
        Err((code, message)) => {
            // Both players hear it; the waiting one is no longer queued.
            first_outbox.send(&sevenbag_protocol::ServerMessage::Error {
                code,
                message: message.clone(),
                fatal: false,
            });
            return Err((code, message));
        }
    };
    // The first player's connection learns its room before the room's first message can
    // reach its client (the room task has not run yet), so its next request finds it seated.
    if first_control
        .try_send(Control::Seated(membership.clone()))
        .is_err()
    {
        tracing::warn!(room = %membership.code, "quick-match player vanished while being seated");
    }
    Ok(Some(Membership {
        seat: Some(Seat::Second),
        ..membership
    }))
}

/// Whether a quick-match player waits here (then a newcomer is paired locally).
pub(crate) fn has_quick_waiter(lobby: &Lobby) -> bool {
    lock(lobby)
        .waiting
        .iter()
        .any(|w| !w.member.outbox.is_cut())
}

/// The quick-match player waiting here longest, and since when (for the cluster's queue).
pub(crate) fn quick_waiter(lobby: &Lobby) -> Option<(ClientId, std::time::Instant)> {
    lock(lobby)
        .waiting
        .iter()
        .find(|w| !w.member.outbox.is_cut())
        .map(|w| (w.member.client, w.since))
}

/// Takes `client` out of the quick-match queue to send it elsewhere; its control channel.
pub(crate) fn take_quick_waiter(lobby: &Lobby, client: ClientId) -> Option<mpsc::Sender<Control>> {
    let mut state = lock(lobby);
    let at = state
        .waiting
        .iter()
        .position(|w| w.member.client == client)?;
    Some(state.waiting.remove(at).control)
}

/// Every ranked player waiting here: (client, rating, since).
pub(crate) fn ranked_waiters(lobby: &Lobby) -> Vec<(ClientId, f64, std::time::Instant)> {
    lock(lobby).ranked.snapshot()
}

/// Takes `client` out of the ranked queue to send it elsewhere; its control channel.
pub(crate) fn take_ranked_waiter(lobby: &Lobby, client: ClientId) -> Option<mpsc::Sender<Control>> {
    lock(lobby).ranked.take(client).map(|w| w.control)
}

/// The codes of every room this instance runs.
pub(crate) fn room_codes(lobby: &Lobby) -> Vec<String> {
    lock(lobby).rooms.keys().cloned().collect()
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

/// Puts an identified player in the ranked queue and pairs whoever fits now. The player hears
/// of its room through `control`, like everyone paired by the matchmaker. Refused while the
/// server drains.
pub(crate) fn ranked_match(
    lobby: &Arc<Lobby>,
    me: Member,
    rating: f64,
    control: mpsc::Sender<Control>,
    avoid: Avoid,
) -> Result<(), Refusal> {
    {
        let mut state = lock(lobby);
        if lobby.services.draining.is_draining() {
            return Err(draining());
        }
        state.ranked.push(waiting::Waiting {
            member: me,
            control,
            rating,
            since: std::time::Instant::now(),
            avoid,
            skipped: Vec::new(),
        });
    }
    pair_ranked(lobby);
    Ok(())
}

/// Opens a ranked room for every pair the queue accepts now.
fn pair_ranked(lobby: &Arc<Lobby>) {
    let mut state = lock(lobby);
    let metrics = lobby.services.metrics.clone();
    let mut skipped = |skip: waiting::Skip| metrics.moderation(skip.event());
    while let Some((a, b)) = state.ranked.pair(std::time::Instant::now(), &mut skipped) {
        let options = RoomOptions {
            first_to: lobby.services.config.ranked_first_to.max(1),
            ..RoomOptions::default()
        };
        let controls = [a.control.clone(), b.control.clone()];
        let outboxes = [a.member.outbox.clone(), b.member.outbox.clone()];
        match open_room(
            lobby,
            &mut state,
            options,
            Start::Ranked([a.member, b.member]),
            None,
        ) {
            Ok(membership) => {
                for (seat, control) in Seat::BOTH.into_iter().zip(controls) {
                    let seated = Membership {
                        seat: Some(seat),
                        ..membership.clone()
                    };
                    if control.try_send(Control::Seated(seated)).is_err() {
                        tracing::warn!(room = %membership.code, "ranked player vanished while being seated");
                    }
                }
            }
            Err((code, message)) => {
                for outbox in outboxes {
                    outbox.send(&sevenbag_protocol::ServerMessage::Error {
                        code,
                        message: message.clone(),
                        fatal: false,
                    });
                }
                return;
            }
        }
    }
}

/// Re-tries ranked pairing once a second, as waiting widens everyone's window.
pub(crate) fn start_matchmaker(lobby: &Arc<Lobby>) {
    let services = lobby.services.clone();
    let lobby = lobby.clone();
    services.spawn_until_shutdown(|mut shutdown| async move {
        let mut tick = tokio::time::interval(std::time::Duration::from_secs(1));
        loop {
            tokio::select! {
                _ = shutdown.recv() => break,
                _ = tick.tick() => pair_ranked(&lobby),
            }
        }
    });
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
