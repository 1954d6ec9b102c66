//! Quick play of several seats: joining and leaving the free-for-all queue
//! ([`crate::battle_queue`]), and the task that starts its rooms when the countdown runs out.
//!
//! A started room is an ordinary room of several seats ([`crate::room::battle`]) opened with
//! the queue's players already seated: each hears `BattleJoined` and the room's state as a
//! joiner by code does, and its connection is told its room through its control channel (as
//! quick match does), so ready, play, results, rematch, leaving and reconnecting are the
//! room's. The room's options are [`room_options`]. With several instances (`--redis`) the
//! queues of all instances are one: the cluster gathers every waiting player on one instance
//! (`crate::cluster`, [`waiting_summary`] and [`send_all_away`]), whose queue then starts the
//! room by the same rule.

use std::sync::Arc;
use std::time::Instant;

use sevenbag_core::{Seat, Targeting};
use sevenbag_protocol::{BattleRoomOptions, ServerMessage};
use tokio::sync::mpsc;

use crate::battle_queue::{Entry, QuickBattleConfig};
use crate::lobby::{self, Lobby, Membership, Refusal, draining};
use crate::relay::ClientId;
use crate::room::Member;
use crate::waiting::{Avoid, Control};

/// The options of a quick-play room of `seats` players: versus rules with the configured
/// rounds, even targeting, badges on, no teams, the 15 s reconnect window.
pub(crate) fn room_options(seats: usize, config: &QuickBattleConfig) -> BattleRoomOptions {
    let mut options = BattleRoomOptions::ffa(seats as u8);
    options.room.first_to = config.first_to.clamp(1, 99);
    options.battle.targeting = Targeting::Even;
    options.battle.badges = true;
    options
}

/// Puts `me` in the free-for-all queue, tells it the queue's state, and starts whatever room
/// that completes. A client already waiting keeps its place and only hears the state again.
/// Refused while the server drains.
pub(crate) fn join(
    lobby: &Arc<Lobby>,
    me: Member,
    control: mpsc::Sender<Control>,
    avoid: Avoid,
) -> Result<(), Refusal> {
    let config = lobby.services.config.quick_battle;
    {
        let mut queue = lobby::battle_queue(lobby);
        // Checked under the queue's lock, which the drain takes after setting its flag.
        if lobby.services.draining.is_draining() {
            return Err(draining());
        }
        let now = Instant::now();
        let outbox = me.outbox.clone();
        let metrics = lobby.services.metrics.clone();
        let mut skipped = |skip: crate::waiting::Skip| metrics.moderation(skip.event());
        let entry = Entry {
            member: me,
            control,
            avoid,
            since: now,
        };
        queue.push(entry, now, &config, &mut skipped);
        outbox.send(&queue.state(now, &config));
    }
    step(lobby);
    Ok(())
}

/// Whether `client` waits in the free-for-all queue.
pub(crate) fn is_waiting(lobby: &Lobby, client: ClientId) -> bool {
    lobby::battle_queue(lobby).contains(client)
}

/// How many wait here and since when the longest has (for the cluster's shared queue).
pub(crate) fn waiting_summary(lobby: &Lobby) -> Option<(usize, Instant)> {
    lobby::battle_queue(lobby).summary()
}

/// Takes every waiting player out of the queue and sends each to `url`, another instance of
/// the cluster that gathers the shared queue (each client connects there and queues again).
pub(crate) fn send_all_away(lobby: &Lobby, url: &str) -> usize {
    let taken = lobby::battle_queue(lobby).take_all();
    let n = taken.len();
    for entry in taken {
        if entry
            .control
            .try_send(Control::Redirect(url.to_string()))
            .is_err()
        {
            tracing::warn!("a quick-play player vanished while being redirected");
        }
    }
    lobby.battle_wake.notify_one();
    n
}

/// Tells `client` (waiting) the queue's state again.
pub(crate) fn tell(lobby: &Lobby, member: &Member) {
    let config = lobby.services.config.quick_battle;
    let state = lobby::battle_queue(lobby).state(Instant::now(), &config);
    member.outbox.send(&state);
}

/// Starts every room the queue completes now, and tells the waiting of a change when due.
fn step(lobby: &Arc<Lobby>) {
    let config = lobby.services.config.quick_battle;
    let now = Instant::now();
    let (groups, telling, state) = {
        let mut queue = lobby::battle_queue(lobby);
        let groups = queue.take_groups(now, &config);
        let telling = queue.due_telling(now);
        (groups, telling, queue.state(now, &config))
    };
    for group in groups {
        seat(lobby, group, &config);
    }
    if let Some(outboxes) = telling
        && let Some(bytes) = crate::relay::encode(&state)
    {
        for outbox in outboxes {
            outbox.send_bytes(bytes.clone());
        }
    }
    lobby.battle_wake.notify_one();
}

/// Opens a room for `group` and tells each player's connection its seat; if no room can be
/// opened, each hears why (and is no longer queued).
fn seat(lobby: &Arc<Lobby>, group: Vec<Entry>, config: &QuickBattleConfig) {
    let options = room_options(group.len(), config);
    let controls: Vec<_> = group.iter().map(|e| e.control.clone()).collect();
    let outboxes: Vec<_> = group.iter().map(|e| e.member.outbox.clone()).collect();
    let players: Vec<Member> = group.into_iter().map(|e| e.member).collect();
    let opening = crate::room::battle::Opening {
        options,
        policy: sevenbag_protocol::RoomPolicy::FREE_FOR_ALL,
        players,
        ready: crate::room::battle::Ready::Each,
    };
    match lobby::open_seated(lobby, opening) {
        Ok(membership) => {
            tracing::info!(room = %membership.code, players = controls.len(), "quick play opened a room");
            for (i, control) in controls.into_iter().enumerate() {
                let seated = Membership {
                    seat: Seat::new(i),
                    ..membership.clone()
                };
                if control.try_send(Control::Seated(seated)).is_err() {
                    tracing::warn!(room = %membership.code, "quick-play player vanished while being seated");
                }
            }
        }
        Err((code, message)) => {
            for (outbox, control) in outboxes.into_iter().zip(controls) {
                outbox.send(&ServerMessage::Error {
                    code,
                    message: message.clone(),
                    fatal: false,
                });
                let _ = control.try_send(Control::Unqueued);
            }
        }
    }
}

/// The queue's task: looks again when the queue changed, when the countdown runs out and
/// when a held-back telling is due.
pub(crate) fn start(lobby: &Arc<Lobby>) {
    let services = lobby.services.clone();
    let lobby = lobby.clone();
    services.spawn_until_shutdown(|mut shutdown| async move {
        loop {
            let wake = lobby::battle_queue(&lobby).wake_at();
            let sleep = async {
                match wake {
                    Some(at) => tokio::time::sleep_until(at.into()).await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                _ = shutdown.recv() => break,
                _ = lobby.battle_wake.notified() => {}
                _ = sleep => step(&lobby),
            }
        }
    });
}
