//! The datagram link in a room of several seats: the same repeat-until-acknowledged design as
//! a two-seat match, with battle datagrams ([`sevenbag_protocol::battle_datagram`]): our keys
//! and targets go as one window, every opponent's window arrives in one downlink and is passed
//! up as a `BattleInputsGathered` entry (whose base says where it starts, so the session skips
//! any overlap), and the reliable catch-up is `BattleInputsFrom`.
//!
//! A driver opts in with [`DatagramLink::speak_battles`] once it sends what
//! [`DatagramLink::poll_datagram`] gives; until then a room of several seats keeps its inputs on
//! the WebSocket (the server relays over datagrams only to a client that sent a battle datagram).
//! While it does, our `BattleHash` rides in the next battle datagram instead of the WebSocket.

use sevenbag_protocol::battle_datagram::{BattleDownlink, BattleUplink, window_from};
use sevenbag_protocol::datagram::{DatagramError, MAX_WINDOW_STEPS, WINDOW_FRAMES, match_tag};
use sevenbag_protocol::{
    ClientMessage, InputChange, MAX_CHANGES_PER_MESSAGE, MAX_ROOM_SEATS, ServerMessage,
    TargetChange, gathered,
};

use super::{DatagramLink, Own};
use crate::time::Instant;

/// What the link knows of the room of several seats it is in.
#[derive(Clone, Debug, Default)]
pub(super) struct BattleLink {
    /// The driver sends battle datagrams.
    pub(super) on: bool,
    /// The connection is in a room of several seats.
    in_battle: bool,
    /// Our room seat, as `BattleJoined` said.
    room_seat: Option<u8>,
    /// Our battle seat in the current match.
    seat: Option<u8>,
    /// Battle seats in the current match.
    seats: usize,
    /// Frames of each battle seat's inputs the session holds.
    held: [u32; MAX_ROOM_SEATS],
    /// Our latest `BattleHash`, for the next datagram (sent once: a lost one costs nothing).
    pub(super) hash: Option<(u32, u64)>,
}

impl BattleLink {
    /// Whether inputs go as battle datagrams (when the path is up).
    pub(super) fn speaking(&self) -> bool {
        self.on && self.in_battle
    }

    /// Whether datagrams carry the room's inputs: always in a two-seat room; in a room of
    /// several seats only when the driver sends battle datagrams.
    pub(super) fn carries_inputs(&self) -> bool {
        self.on || !self.in_battle
    }

    /// Left for a two-seat room.
    pub(super) fn leave(&mut self) {
        self.in_battle = false;
    }

    fn start(&mut self, room_seats: &[u8], held: &[u32]) {
        self.in_battle = true;
        self.seats = room_seats.len().min(MAX_ROOM_SEATS);
        self.seat = self
            .room_seat
            .and_then(|r| room_seats.iter().position(|&s| s == r))
            .map(|b| b as u8);
        self.held = [0; MAX_ROOM_SEATS];
        self.hash = None;
        for (h, &c) in self.held.iter_mut().zip(held) {
            *h = c;
        }
    }
}

impl DatagramLink {
    /// The driver sends battle datagrams ([`Self::poll_datagram`]): in a room of several seats,
    /// inputs go as datagrams too.
    pub fn speak_battles(&mut self) {
        self.battle.on = true;
    }

    /// Our `BattleInputs`: kept for the datagrams (`None`), or back for the WebSocket.
    pub(super) fn battle_outgoing(
        &mut self,
        changes: Vec<InputChange>,
        targets: Vec<TargetChange>,
        confirmed: u32,
    ) -> Option<ClientMessage> {
        let from = self.own.confirmed;
        self.own.confirmed = confirmed;
        if !self.active {
            self.own.settle();
            return Some(ClientMessage::BattleInputs {
                changes,
                targets,
                confirmed,
            });
        }
        // Batches follow each other, so every change is at or after `from`.
        self.own
            .changes
            .extend(changes.into_iter().filter(|c| c.frame >= from));
        self.own
            .targets
            .extend(targets.into_iter().filter(|t| t.frame >= from));
        self.urgent = true;
        None
    }

    /// Notes a message of a room of several seats that came over the WebSocket.
    pub(super) fn battle_from_websocket(&mut self, message: ServerMessage) -> ServerMessage {
        match &message {
            ServerMessage::BattleJoined { seat, .. } => {
                self.battle.in_battle = true;
                self.battle.room_seat = *seat;
            }
            ServerMessage::BattleStart {
                header, room_seats, ..
            } => {
                self.tag = match_tag(header.seed);
                self.own = Own::default();
                self.hash = None;
                self.battle.start(room_seats, &[]);
            }
            ServerMessage::BattleLog {
                header,
                room_seats,
                confirmed,
                ..
            } => {
                let tag = match_tag(header.seed);
                self.battle.start(room_seats, confirmed);
                if tag != self.tag || self.own.confirmed == 0 {
                    // A match we had no inputs of on this connection: the session sends ours
                    // again from the server's confirmation.
                    if let Some(&have) =
                        self.battle.seat.and_then(|b| confirmed.get(usize::from(b)))
                    {
                        self.own = Own {
                            acked: have,
                            confirmed: have,
                            ..Own::default()
                        };
                    }
                }
                self.tag = tag;
            }
            ServerMessage::BattleOver { .. } => {
                self.own.settle();
                self.hash = None;
                self.battle.hash = None;
                self.unanswered_since = None;
            }
            ServerMessage::BattleInputsGathered { frame, seats } => {
                for e in seats {
                    let from = frame.saturating_add(e.base);
                    self.battle_took(e.seat, from, from.saturating_add(e.frames));
                }
            }
            _ => {}
        }
        message
    }

    /// The session takes a window exactly when it starts within what it holds.
    fn battle_took(&mut self, seat: u8, from: u32, confirmed: u32) -> bool {
        let Some(held) = self.battle.held.get_mut(usize::from(seat)) else {
            return false;
        };
        if from <= *held && confirmed > *held {
            *held = confirmed;
            true
        } else {
            false
        }
    }

    /// Reads a battle datagram: the clock answer, our acknowledgement, and every opponent's
    /// new inputs as one `BattleInputsGathered`.
    pub(super) fn battle_from_datagram(
        &mut self,
        bytes: &[u8],
    ) -> Result<Vec<ServerMessage>, DatagramError> {
        let down = match BattleDownlink::decode(bytes) {
            Ok(down) => down,
            Err(e) => {
                self.stats.undecodable += 1;
                return Err(e);
            }
        };
        self.stats.received += 1;
        self.unanswered_since = None;
        let mut up = Vec::new();
        if let Some(pong) = down.pong {
            up.push(ServerMessage::Pong {
                nonce: pong.nonce,
                server_ms: pong.server_ms,
            });
        }
        if down.tag != self.tag || self.tag == 0 || !self.battle.in_battle {
            return Ok(up);
        }
        self.own.acknowledged(down.ack);
        let mut entries = Vec::new();
        for window in down.inputs {
            let seat = usize::from(window.seat);
            if Some(window.seat) == self.battle.seat || seat >= self.battle.seats {
                continue;
            }
            let held = self.battle.held[seat];
            let confirmed = window.confirmed();
            if confirmed <= held {
                // A repeat: the server has not heard our acknowledgement yet.
                self.ack_owed = true;
                continue;
            }
            if window.base > held {
                self.stats.gaps += 1;
                continue;
            }
            self.battle_took(window.seat, window.base, confirmed);
            self.ack_owed = true;
            entries.push(window);
        }
        if !entries.is_empty() {
            let (frame, seats) = gathered::pack(entries);
            up.push(ServerMessage::BattleInputsGathered { frame, seats });
        }
        Ok(up)
    }

    /// The next battle datagram to send at `now`, if one is due.
    pub(super) fn poll_battle(&mut self, now: Instant) -> Option<BattleUplink> {
        if !self.active || !self.due(now) {
            return None;
        }
        self.seq = self.seq.wrapping_add(1);
        // Our own seat's slot repeats the least of the others (it is not read).
        let mut held = self.battle.held[..self.battle.seats].to_vec();
        if let Some(own) = self
            .battle
            .seat
            .map(usize::from)
            .filter(|&b| b < held.len())
        {
            held[own] = (held.iter().enumerate())
                .filter(|&(s, _)| s != own)
                .map(|(_, &h)| h)
                .min()
                .unwrap_or(0);
        }
        let (acks_from, acks) = BattleUplink::acks_of(&held);
        let inputs = (self.own.confirmed > self.own.acked).then(|| self.own_battle_window());
        let up = BattleUplink {
            seq: self.seq,
            tag: self.tag,
            acks_from,
            acks,
            inputs,
            ping: self.ping.take(),
            hash: self.battle.hash.take(),
        };
        self.sent(now, up.inputs.is_some() || up.ping.is_some());
        Some(up)
    }

    /// Our unacknowledged keys and targets, at most the last [`WINDOW_FRAMES`] frames.
    fn own_battle_window(&self) -> sevenbag_protocol::SeatSteps {
        let own = &self.own;
        let from = own.acked.max(own.confirmed.saturating_sub(WINDOW_FRAMES));
        let keys = &own.changes[own.changes.partition_point(|c| c.frame < from)..];
        let targets = &own.targets[own.targets.partition_point(|t| t.frame < from)..];
        // More changes than a window carries (never in play): stop before the first that does
        // not fit; the rest goes in later datagrams or the catch-up.
        let end = [
            keys.get(MAX_WINDOW_STEPS).map(|c| c.frame),
            targets.get(MAX_WINDOW_STEPS).map(|t| t.frame),
        ]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(own.confirmed);
        window_from(self.battle.seat.unwrap_or(0), from, keys, targets, end)
    }

    /// Our unacknowledged keys and targets as `BattleInputsFrom` messages.
    pub(super) fn battle_catch_up(&self) -> Vec<ClientMessage> {
        let own = &self.own;
        let mut out = Vec::new();
        let mut from = own.acked;
        let (mut keys, mut targets) = (&own.changes[..], &own.targets[..]);
        loop {
            let cut = [
                keys.get(MAX_CHANGES_PER_MESSAGE).map(|c| c.frame),
                targets.get(MAX_CHANGES_PER_MESSAGE).map(|t| t.frame),
            ]
            .into_iter()
            .flatten()
            .min()
            .unwrap_or(own.confirmed);
            let k = keys.partition_point(|c| c.frame < cut);
            let t = targets.partition_point(|c| c.frame < cut);
            out.push(ClientMessage::BattleInputsFrom {
                from,
                changes: keys[..k].to_vec(),
                targets: targets[..t].to_vec(),
                confirmed: cut,
            });
            (keys, targets) = (&keys[k..], &targets[t..]);
            from = cut;
            if cut >= own.confirmed {
                return out;
            }
        }
    }
}
