//! The ranked queue: queueing identified players, pairing them and the matchmaker's tick.

use std::sync::Arc;

use sevenbag_core::Seat;
use sevenbag_protocol::RoomOptions;
use tokio::sync::mpsc;

use super::quick::two_seats;
use super::rooms::open_seated_in;
use super::{Control, Lobby, Membership, Refusal, draining, lock};
use crate::relay::ClientId;
use crate::room::Member;
use crate::room::battle::{Opening, Ready};
use crate::waiting::{self, Avoid};

/// Every ranked player waiting here: (client, rating, since).
pub(crate) fn ranked_waiters(lobby: &Lobby) -> Vec<(ClientId, f64, std::time::Instant)> {
    lock(lobby).ranked.snapshot()
}

/// Takes `client` out of the ranked queue to send it elsewhere; its control channel.
pub(crate) fn take_ranked_waiter(lobby: &Lobby, client: ClientId) -> Option<mpsc::Sender<Control>> {
    lock(lobby).ranked.take(client).map(|w| w.control)
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
        let opening = Opening {
            options: two_seats(options),
            policy: sevenbag_protocol::RoomPolicy::versus(true),
            players: vec![a.member, b.member],
            ready: Ready::Now,
        };
        match open_seated_in(lobby, &mut state, opening) {
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
