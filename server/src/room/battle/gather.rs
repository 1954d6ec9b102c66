//! The coalesced relay of a room of several seats: batches are gathered for a few milliseconds
//! and sent to each member as one `BattleInputsChained` (without the member's own seat), so a
//! player's downlink grows with the opponents' key changes, not with a message per batch of
//! every opponent (see [`sevenbag_protocol::gathered`] and [`sevenbag_protocol::chained`]:
//! each connection's [`Chain`] leaves off the bases it already told).
//!
//! Anything else the room sends goes out after the gathered inputs (the room flushes before it
//! handles any command but inputs), so no member sees a log, a result or a round's end before
//! the inputs that led to it. A room of two on the WebSocket sends each batch at once ([`gather_window`]).

use std::time::{Duration, Instant};

use sevenbag_protocol::{
    Chain, InputChange, MAX_CHANGES_PER_MESSAGE, SeatSteps, ServerMessage, TargetChange,
};

use super::BattleRoom;
use crate::relay::{self, ClientId, Outbox};

/// How long a batch waits for others before it is sent: at most a frame (16.7 ms), so a relay
/// is late by 8 ms on average. A shorter window sends more, smaller messages (at eight seats,
/// 6 ms: 61 messages and 1.6 kB a second per player; 16 ms: 44 and 1.4 kB; BENCHMARKS.md).
pub(super) const GATHER_FOR: Duration = Duration::from_millis(16);

/// How long a batch may wait in a room of `seats` seats: in a room of two whose players send
/// on the WebSocket, not at all (each batch has one player to go to, so waiting would only
/// delay it, by 8 ms on average, which a two-seat room never does); otherwise up to
/// [`GATHER_FOR`], merging the seats' batches into one message per member, and a datagram
/// player's every-frame confirmations into one downlink per window.
fn gather_window(seats: usize, datagrams: bool) -> Option<Duration> {
    (seats > 2 || datagrams).then_some(GATHER_FOR)
}

/// A seat's entry holding this many changes is sent at once (its message stays well within
/// a message's change limit).
const GATHER_MOST: usize = MAX_CHANGES_PER_MESSAGE / 2;

impl BattleRoom {
    /// Queues battle seat `b`'s batch (its confirmation was `base` before it) for the next
    /// send; sends at once when the batch is large.
    pub(super) fn gather(
        &mut self,
        b: usize,
        base: u32,
        changes: &[InputChange],
        targets: &[TargetChange],
        confirmed: u32,
    ) {
        self.gathering
            .add(b as u8, base, changes, targets, confirmed);
        let datagrams = (0..self.seats.len()).any(|s| self.on_datagrams(s));
        let Some(window) = gather_window(self.seats.len(), datagrams) else {
            self.flush_inputs();
            return;
        };
        if self.gathering.largest() >= GATHER_MOST {
            self.flush_inputs();
        } else if self.gather_until.is_none() {
            self.gather_until = Some(Instant::now() + window);
        }
    }

    /// Sends every gathered batch: to each player those of the other seats, to spectators all,
    /// each as a `BattleInputsChained` linked to what its connection was sent before.
    pub(super) fn flush_inputs(&mut self) {
        self.gather_until = None;
        if self.gathering.is_empty() {
            return;
        }
        let all = self.gathering.take();
        let running = self.running.as_ref();
        let mut sends: Vec<(&Outbox, Option<usize>)> = Vec::new();
        for (room_seat, slot) in self.seats.iter().enumerate() {
            let Some(outbox) = slot.as_ref().and_then(|s| s.conn.as_ref()) else {
                continue;
            };
            let own = running.and_then(|r| r.battle_seat(room_seat));
            if own.is_some() && self.on_datagrams(room_seat) {
                continue;
            }
            sends.push((outbox, own));
        }
        sends.extend(self.spectators.iter().map(|o| (o, None)));
        // Chains of connections gone from the room are dropped: one that comes back starts
        // a new chain (its first entries carry their bases).
        self.chains
            .retain(|(id, _)| sends.iter().any(|(o, _)| o.id() == *id));
        for (outbox, own) in sends {
            let entries: Vec<SeatSteps> = match own {
                Some(b) => all
                    .iter()
                    .filter(|e| usize::from(e.seat) != b)
                    .cloned()
                    .collect(),
                None => all.clone(),
            };
            if entries.is_empty() {
                continue;
            }
            let chain = chain_of(&mut self.chains, outbox.id());
            // The chain moves on only with a message that goes out, as the receiver's does.
            let mut next = chain.clone();
            let message = ServerMessage::BattleInputsChained {
                seats: next.link(&entries),
            };
            if let Some(bytes) = relay::encode(&message) {
                *chain = next;
                outbox.send_bytes(bytes);
            }
        }
        self.send_downlinks();
    }
}

/// The chain of connection `id`, a new one if it has none.
fn chain_of(chains: &mut Vec<(ClientId, Chain)>, id: ClientId) -> &mut Chain {
    let at = match chains.iter().position(|(c, _)| *c == id) {
        Some(at) => at,
        None => {
            chains.push((id, Chain::new()));
            chains.len() - 1
        }
    };
    &mut chains[at].1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_room_of_two_on_the_websocket_sends_each_batch_at_once() {
        assert_eq!(gather_window(2, false), None);
    }

    #[test]
    fn larger_rooms_and_rooms_with_datagram_players_gather_for_a_frame() {
        assert_eq!(gather_window(3, false), Some(GATHER_FOR));
        assert_eq!(gather_window(8, false), Some(GATHER_FOR));
        assert_eq!(gather_window(2, true), Some(GATHER_FOR));
    }
}
