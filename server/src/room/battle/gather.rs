//! The coalesced relay of a room of several seats: batches are gathered for a few milliseconds
//! and sent to each member as one `BattleInputsTight` (without the member's own seat), so a
//! player's downlink grows with the opponents' key changes, not with a message per batch of
//! every opponent (see [`sevenbag_protocol::gathered`] and [`sevenbag_protocol::tight`]).
//!
//! Anything else the room sends goes out after the gathered inputs (the room flushes before it
//! handles any command but inputs), so no member sees a log, a result or a round's end before
//! the inputs that led to it.

use std::time::{Duration, Instant};

use sevenbag_protocol::{
    InputChange, MAX_CHANGES_PER_MESSAGE, ServerMessage, TargetChange, TightSeats, gathered,
};

use super::BattleRoom;
use crate::relay;

/// How long a batch waits for others before it is sent: at most a frame (16.7 ms), so a relay
/// is late by 8 ms on average. A shorter window sends more, smaller messages (at eight seats,
/// 6 ms: 61 messages and 1.6 kB a second per player; 16 ms: 44 and 1.4 kB; BENCHMARKS.md).
pub(super) const GATHER_FOR: Duration = Duration::from_millis(16);

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
        if self.gathering.largest() >= GATHER_MOST {
            self.flush_inputs();
        } else if self.gather_until.is_none() {
            self.gather_until = Some(Instant::now() + GATHER_FOR);
        }
    }

    /// Sends every gathered batch: to each player those of the other seats, to spectators all.
    pub(super) fn flush_inputs(&mut self) {
        self.gather_until = None;
        if self.gathering.is_empty() {
            return;
        }
        let entries = self.gathering.take();
        let (frame, all) = gathered::pack(entries);
        let everything = relay::encode(&ServerMessage::BattleInputsTight {
            frame,
            seats: TightSeats(all.clone()),
        });
        let running = self.running.as_ref();
        for (room_seat, slot) in self.seats.iter().enumerate() {
            let Some(outbox) = slot.as_ref().and_then(|s| s.conn.as_ref()) else {
                continue;
            };
            let own = running.and_then(|r| r.battle_seat(room_seat));
            if own.is_some() && self.on_datagrams(room_seat) {
                continue;
            }
            match own {
                Some(b) if all.iter().any(|e| usize::from(e.seat) == b) => {
                    let others: Vec<_> = all
                        .iter()
                        .filter(|e| usize::from(e.seat) != b)
                        .cloned()
                        .collect();
                    if others.is_empty() {
                        continue;
                    }
                    let message = ServerMessage::BattleInputsTight {
                        frame,
                        seats: TightSeats(others),
                    };
                    if let Some(bytes) = relay::encode(&message) {
                        outbox.send_bytes(bytes);
                    }
                }
                _ => {
                    if let Some(bytes) = &everything {
                        outbox.send_bytes(bytes.clone());
                    }
                }
            }
        }
        if let Some(bytes) = everything {
            for outbox in &self.spectators {
                outbox.send_bytes(bytes.clone());
            }
        }
        self.send_downlinks();
    }
}
