//! The quick-match waiter: pairs a newcomer with the longest-waiting player it may play.

use std::sync::Arc;

use sevenbag_core::Seat;
use tokio::sync::mpsc;

use super::rooms::open_seated_in;
use super::{Control, Lobby, Membership, Refusal, Waiting, draining, lock};
use crate::relay::ClientId;
use crate::room::Member;
use crate::room::battle::{Opening, Ready};
use crate::waiting::{self, Avoid};

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
    let opening = Opening {
        options: two_seats(sevenbag_protocol::RoomOptions::default()),
        policy: sevenbag_protocol::RoomPolicy::versus(false),
        players: vec![first.member, me],
        ready: Ready::Now,
    };
    let membership = match open_seated_in(lobby, &mut state, opening) {
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

/// A room of two seats with `room`'s rules: a versus match.
pub(super) fn two_seats(
    room: sevenbag_protocol::RoomOptions,
) -> sevenbag_protocol::BattleRoomOptions {
    sevenbag_protocol::BattleRoomOptions {
        room,
        ..sevenbag_protocol::BattleRoomOptions::ffa(2)
    }
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
