//! Players of a room of several seats on the datagram path: what each player's client holds of
//! every other battle seat's inputs (its acknowledgements), what we last acknowledged of its
//! own, and the datagrams the room sends it. A player on datagrams gets no relay over the
//! WebSocket: at every flush of the gathered batches it gets one `BattleDownlink` holding every
//! opponent's inputs from what it acknowledged (at most `WINDOW_FRAMES` frames each), and a
//! client whose acknowledgement lags further is caught up over the WebSocket with a
//! `BattleInputsTight` counted from what it holds. Spectators stay on the WebSocket.
//!
//! A client that opened a session but sends only two-seat datagrams (a page whose transport
//! does not speak battle datagrams) keeps its relays on the WebSocket: the room switches a
//! player to datagrams at its first battle datagram, from what that datagram acknowledges.
//!
//! A player's own inputs arrive as windows that may repeat what the room holds: the part past
//! it is checked and taken like any `BattleInputs` ([`BattleRoom::inputs`]); a state hash in a
//! datagram is checked like a `BattleHash` (a mismatch is answered `BattleDesyncBoards` and the
//! match log, over the WebSocket).

use sevenbag_protocol::battle_datagram::{BattleDownlink, window_from, window_of};
use sevenbag_protocol::datagram::{WINDOW_FRAMES, match_tag};
use sevenbag_protocol::gathered;
use tracing::debug;

use super::super::dgram::{ANSWER_EVERY, CATCH_UP_EVERY};
use super::trail::Trail;
use super::*;
use crate::datagram::{DatagramEvent, DatagramOut, Received};

/// A seated player's datagram session, as the room sees it.
#[derive(Debug)]
pub(super) struct Peer {
    /// The connection it belongs to (a resumed seat is another connection).
    client: ClientId,
    out: DatagramOut,
    /// It sent a battle datagram: its relays go as datagrams.
    speaks: bool,
    /// Frames of each battle seat's inputs the client holds (this match).
    holds: Vec<u32>,
    /// Per battle seat: how often its inputs went to this player ([`Trail`]).
    trails: Vec<Trail>,
    /// Our acknowledgement of its own inputs, as last sent.
    ack_sent: u32,
    last_sent: Option<Instant>,
    last_catch_up: Option<Instant>,
}

impl BattleRoom {
    fn peer(&self, seat: usize) -> Option<&Peer> {
        let client = self.seats.get(seat)?.as_ref()?.conn.as_ref()?.id();
        self.peers
            .get(seat)?
            .as_ref()
            .filter(|p| p.client == client)
    }

    fn peer_mut(&mut self, seat: usize) -> Option<&mut Peer> {
        let client = self.seats.get(seat)?.as_ref()?.conn.as_ref()?.id();
        self.peers
            .get_mut(seat)?
            .as_mut()
            .filter(|p| p.client == client)
    }

    /// Whether room seat `seat` gets its relays as datagrams.
    pub(super) fn on_datagrams(&self, seat: usize) -> bool {
        self.peer(seat).is_some_and(|p| p.speaks)
    }

    /// A new match of `n` battle seats: nothing is held or acknowledged yet.
    pub(super) fn peers_new_match(&mut self, n: usize) {
        for peer in self.peers.iter_mut().flatten() {
            peer.holds = vec![0; n];
            peer.trails = vec![Trail::default(); n];
            peer.ack_sent = 0;
            peer.last_catch_up = None;
        }
    }

    /// Each battle seat's confirmation now (empty outside a match).
    fn confirmations(&self) -> Vec<u32> {
        let Some(run) = &self.running else {
            return Vec::new();
        };
        (0..run.names.len())
            .map(|b| run.sim.log(b).map_or(0, |l| l.confirmed()))
            .collect()
    }

    /// A connection's datagram session came, went, or sent something.
    pub(super) async fn datagram(&mut self, client: ClientId, event: DatagramEvent) {
        let Some(seat) = self.seat_of(client) else {
            if let DatagramEvent::Received(r) = &event
                && (r.window.is_some() || r.span.is_some())
                && self.spectators.iter().any(|o| o.id() == client)
            {
                self.cut(
                    client,
                    ErrorCode::BadInput,
                    "spectators may not send inputs",
                );
            }
            return;
        };
        match event {
            DatagramEvent::Attached(out) => {
                // What went to it over the WebSocket arrives reliably: it counts as held (the
                // room flushed its gathered batches before this command).
                let holds = self.confirmations();
                let ack_sent = self
                    .running
                    .as_ref()
                    .and_then(|r| r.battle_seat(seat))
                    .map_or(0, |b| holds[b]);
                debug!(room = %self.code, seat, "player on datagrams");
                self.peers[seat] = Some(Peer {
                    client,
                    out,
                    speaks: false,
                    trails: vec![Trail::default(); holds.len()],
                    holds,
                    ack_sent,
                    last_sent: None,
                    last_catch_up: None,
                });
            }
            DatagramEvent::Detached(session) => {
                let Some(peer) = self.peers[seat].take() else {
                    return;
                };
                // A session replaced by a newer one of the same connection ends after the
                // newer one attached: only the attached session's end counts.
                let current = peer.client == client && peer.out.id() == session;
                if !current || !peer.speaks {
                    if !current {
                        self.peers[seat] = Some(peer);
                    }
                    return;
                }
                debug!(room = %self.code, seat, "player back on the WebSocket");
                // Relays go over the WebSocket again, from what it acknowledged.
                self.catch_up(seat, &peer.holds, true);
            }
            DatagramEvent::Received(received) => self.received(client, seat, received).await,
        }
    }

    async fn received(&mut self, client: ClientId, seat: usize, received: Received) {
        if !received.battle {
            self.services.metrics.datagram_dropped("wrong_room");
            return;
        }
        let Some(run) = &self.running else {
            self.services.metrics.datagram_dropped("no_match");
            return;
        };
        if received.tag != match_tag(run.sim.game().header().seed) {
            self.services.metrics.datagram_dropped("stale");
            return;
        }
        let Some(b) = run.battle_seat(seat) else {
            self.services.metrics.datagram_dropped("no_seat");
            return;
        };
        let confirmed = self.confirmations();
        if let Some(peer) = self.peer_mut(seat)
            && !peer.speaks
        {
            // From now on its relays go as datagrams, from what it says it holds.
            peer.speaks = true;
            peer.holds = vec![0; confirmed.len()];
            peer.trails.iter_mut().for_each(Trail::clear);
            peer.trails.resize(confirmed.len(), Trail::default());
        }
        if let Some(peer) = self.peer_mut(seat)
            && peer.holds.len() == confirmed.len()
        {
            for &(s, held) in &received.acks {
                let s = usize::from(s);
                if s != b
                    && let Some(h) = peer.holds.get_mut(s)
                {
                    *h = (*h).max(held.min(confirmed[s]));
                }
            }
        }
        if let Some(span) = received.span {
            let (from, changes, targets) = (Some(span.from), span.changes, span.targets);
            self.inputs(client, from, changes, targets, span.confirmed)
                .await;
        }
        if let Some((frame, hash)) = received.hash {
            // Checked as a `BattleHash` is: a mismatch is answered on the WebSocket.
            self.state_hash(client, frame, hash, HashReport::Compact);
        }
        self.answer(seat);
    }

    /// Answers a player's datagram when it lacks something (our acknowledgement of its inputs,
    /// other seats' inputs), at most every [`ANSWER_EVERY`].
    fn answer(&mut self, seat: usize) {
        let Some(run) = &self.running else { return };
        let Some(b) = run.battle_seat(seat) else {
            return;
        };
        let confirmed = self.confirmations();
        let now = Instant::now();
        let Some(peer) = self.peer(seat) else { return };
        let lacks = (0..confirmed.len())
            .any(|s| s != b && peer.holds.get(s).is_some_and(|&h| h < confirmed[s]));
        let owed = peer.ack_sent < confirmed[b];
        let recent = peer
            .last_sent
            .is_some_and(|at| now.saturating_duration_since(at) < ANSWER_EVERY);
        if (lacks || owed) && !recent {
            self.send_downlink(seat, now);
        }
    }

    /// After a flush of the gathered batches: every player on datagrams that lacks something
    /// gets one datagram with all of it.
    pub(super) fn send_downlinks(&mut self) {
        let now = Instant::now();
        for seat in 0..self.peers.len() {
            if self.on_datagrams(seat) {
                self.send_downlink(seat, now);
            }
        }
    }

    /// Sends room seat `seat` a datagram: every other battle seat's inputs from what it holds,
    /// our acknowledgement; and catches it up over the WebSocket when it lags past the window.
    fn send_downlink(&mut self, seat: usize, now: Instant) {
        let Some(run) = &self.running else { return };
        let Some(b) = run.battle_seat(seat) else {
            return;
        };
        let tag = match_tag(run.sim.game().header().seed);
        let Some(slot) = self.seats.get(seat).and_then(Option::as_ref) else {
            return;
        };
        let resend_after = Trail::resend_after(slot.rtt_ms);
        let client = slot.conn.as_ref().map(Outbox::id);
        let Some(peer) = self.peers[seat]
            .as_mut()
            .filter(|p| Some(p.client) == client)
        else {
            return;
        };
        if peer.holds.len() != run.names.len() || peer.trails.len() != run.names.len() {
            return;
        }
        let mut inputs = Vec::new();
        let mut behind = false;
        for (s, &held) in peer.holds.iter().enumerate() {
            let Some(log) = run.sim.log(s).filter(|_| s != b) else {
                continue;
            };
            if log.confirmed() > held {
                // Each stretch goes in a few datagrams, not in every one until acknowledged.
                let from = peer.trails[s].next_from(held, log.confirmed(), now, resend_after);
                if from < log.confirmed() {
                    inputs.push(window_of(s as u8, log, from));
                }
                behind |= log.confirmed() - held > WINDOW_FRAMES;
            }
        }
        let peer = &*peer;
        let ack = run.sim.log(b).map_or(0, |l| l.confirmed());
        if inputs.is_empty() && ack <= peer.ack_sent {
            return;
        }
        peer.out.send_battle(&BattleDownlink {
            tag,
            ack,
            inputs,
            pong: None,
        });
        let catch_up = behind
            && peer
                .last_catch_up
                .is_none_or(|at| now.saturating_duration_since(at) >= CATCH_UP_EVERY);
        let holds = peer.holds.clone();
        if let Some(peer) = self.peer_mut(seat) {
            peer.last_sent = Some(now);
            peer.ack_sent = ack;
            if catch_up {
                peer.last_catch_up = Some(now);
            }
        }
        if catch_up {
            self.catch_up(seat, &holds, false);
        }
    }

    /// The match is decided: every player on datagrams gets over the WebSocket every input it
    /// has not acknowledged (a lost last datagram is never repeated once the match is over).
    pub(super) fn catch_up_everyone(&mut self) {
        for seat in 0..self.peers.len() {
            if let Some(holds) = self
                .peer(seat)
                .filter(|p| p.speaks)
                .map(|p| p.holds.clone())
            {
                self.catch_up(seat, &holds, true);
            }
        }
    }

    /// Sends room seat `seat` over the WebSocket every other battle seat's inputs from what it
    /// holds (`holds`): those lagging past the window, or with `all` every one it lacks.
    fn catch_up(&self, seat: usize, holds: &[u32], all: bool) {
        let Some(run) = &self.running else { return };
        let Some(conn) = self.seats[seat].as_ref().and_then(|s| s.conn.as_ref()) else {
            return;
        };
        let own = run.battle_seat(seat);
        let mut entries = Vec::new();
        for (s, &held) in holds.iter().enumerate() {
            let Some(log) = run.sim.log(s).filter(|_| Some(s) != own) else {
                continue;
            };
            let lag = log.confirmed().saturating_sub(held);
            if lag > WINDOW_FRAMES || (all && lag > 0) {
                let (keys, targets) = log.changes_from(held);
                entries.push(window_from(s as u8, held, keys, &targets, log.confirmed()));
            }
        }
        if entries.is_empty() {
            return;
        }
        let (frame, seats) = gathered::pack(entries);
        conn.send(&ServerMessage::BattleInputsTight {
            frame,
            seats: sevenbag_protocol::TightSeats(seats),
        });
    }
}
