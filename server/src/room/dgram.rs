//! Seats on the datagram path: what each player's client holds of the other seats' inputs
//! (its acknowledgements), what we last acknowledged of its own, and the datagrams the room
//! sends it: each relay repeats the other seat's inputs from what the client acknowledged (at
//! most `WINDOW_FRAMES` frames), and a client whose acknowledgement lags further is caught up
//! over the WebSocket. Spectators stay on the WebSocket.

use sevenbag_protocol::datagram::{Downlink, WINDOW_FRAMES, match_tag, window_of};

use super::*;
use crate::datagram::{DatagramEvent, DatagramOut, Received};

/// Least time between two datagrams answering a player's own datagrams (relays are not held
/// to it), in both room kinds.
pub(super) const ANSWER_EVERY: Duration = Duration::from_millis(16);
/// Least time between two reliable catch-ups of one player over the WebSocket.
pub(super) const CATCH_UP_EVERY: Duration = Duration::from_millis(300);

/// A seated player's datagram session, as the room sees it.
#[derive(Debug)]
pub(super) struct Peer {
    /// The connection it belongs to (a resumed seat is another connection).
    client: ClientId,
    out: DatagramOut,
    /// Frames of each seat's inputs the client holds (its acknowledgements, this match).
    holds: [u32; 2],
    /// The latest state hash of the client's we took.
    hash_ack: u32,
    /// Our acknowledgement of its own inputs, as last sent.
    ack_sent: u32,
    last_sent: Option<Instant>,
    last_catch_up: Option<Instant>,
}

/// Both seats' datagram sessions.
#[derive(Debug, Default)]
pub(super) struct Peers([Option<Peer>; 2]);

impl Peers {
    /// A new match: nothing is held or acknowledged yet.
    pub(super) fn new_match(&mut self) {
        for peer in self.0.iter_mut().flatten() {
            peer.holds = [0; 2];
            peer.hash_ack = 0;
            peer.ack_sent = 0;
            peer.last_catch_up = None;
        }
    }
}

impl Room {
    /// The datagram session of `seat`, if its current connection has one.
    fn peer(&self, seat: Seat) -> Option<&Peer> {
        let client = self.seats[seat.index()].as_ref()?.client()?;
        self.peers.0[seat.index()]
            .as_ref()
            .filter(|p| p.client == client)
    }

    fn peer_mut(&mut self, seat: Seat) -> Option<&mut Peer> {
        let client = self.seats[seat.index()].as_ref()?.client()?;
        self.peers.0[seat.index()]
            .as_mut()
            .filter(|p| p.client == client)
    }

    /// Whether `seat` gets relays as datagrams.
    pub(super) fn on_datagrams(&self, seat: Seat) -> bool {
        self.peer(seat).is_some()
    }

    /// A connection's datagram session came, went, or sent something.
    pub(super) async fn datagram(&mut self, client: ClientId, event: DatagramEvent) {
        let Some(seat) = self.seat_of(client) else {
            if let DatagramEvent::Received(r) = &event
                && (r.window.is_some() || r.span.is_some())
                && let Some(spectator) = self.spectators.iter().find(|o| o.id() == client)
            {
                spectator.cut(Cut::error(
                    ErrorCode::BadInput,
                    "spectators may not send inputs",
                ));
            }
            return;
        };
        match event {
            DatagramEvent::Attached(out) => {
                // What went to it over the WebSocket arrives reliably: it counts as held.
                let holds = match &self.running {
                    Some(run) => Seat::BOTH.map(|s| run.sim.log(s).confirmed()),
                    None => [0; 2],
                };
                debug!(room = %self.code, ?seat, "player on datagrams");
                self.peers.0[seat.index()] = Some(Peer {
                    client,
                    out,
                    holds,
                    hash_ack: 0,
                    ack_sent: holds[seat.index()],
                    last_sent: None,
                    last_catch_up: None,
                });
            }
            DatagramEvent::Detached(session) => {
                let Some(peer) = self.peers.0[seat.index()].take() else {
                    return;
                };
                // A session replaced by a newer one of the same connection ends after the
                // newer one attached: only the attached session's end counts.
                if peer.client != client || peer.out.id() != session {
                    self.peers.0[seat.index()] = Some(peer);
                    return;
                }
                debug!(room = %self.code, ?seat, "player back on the WebSocket");
                // Relays go over the WebSocket again, from what it acknowledged.
                for other in Seat::BOTH.into_iter().filter(|&s| s != seat) {
                    self.catch_up(seat, other, peer.holds[other.index()]);
                }
            }
            DatagramEvent::Received(received) => self.received(seat, received).await,
        }
    }

    async fn received(&mut self, seat: Seat, received: Received) {
        if received.battle {
            self.services.metrics.datagram_dropped("wrong_room");
            return;
        }
        let Some(run) = &self.running else {
            self.services.metrics.datagram_dropped("no_match");
            return;
        };
        if received.tag != match_tag(run.sim.game().header().seed) {
            // A datagram of the last match, late: dropped.
            self.services.metrics.datagram_dropped("stale");
            return;
        }
        let confirmed = Seat::BOTH.map(|s| run.sim.log(s).confirmed());
        if let Some(peer) = self.peer_mut(seat) {
            let acks = received.acks.iter().filter_map(|&(s, held)| {
                Seat::new(usize::from(s))
                    .filter(|s| s.index() < 2)
                    .map(|s| (s, held))
            });
            for (s, held) in acks {
                let h = &mut peer.holds[s.index()];
                *h = (*h).max(held.min(confirmed[s.index()]));
            }
        }
        if let Some(window) = received.window {
            self.window(seat, window.from, window.changes, window.confirmed, true)
                .await;
        }
        if let Some((frame, hash)) = received.hash
            && self.state_hash_checked(seat, frame, hash)
            && let Some(peer) = self.peer_mut(seat)
        {
            peer.hash_ack = peer.hash_ack.max(frame);
        }
        self.answer(seat);
    }

    /// Answers a player's datagram when it lacks something (our acknowledgement of its inputs
    /// or hash, the other seat's inputs), at most every [`ANSWER_EVERY`].
    fn answer(&mut self, seat: Seat) {
        let Some(run) = &self.running else { return };
        let confirmed = Seat::BOTH.map(|s| run.sim.log(s).confirmed());
        let now = Instant::now();
        let Some(peer) = self.peer(seat) else { return };
        let lacks = Seat::BOTH
            .into_iter()
            .any(|s| s != seat && peer.holds[s.index()] < confirmed[s.index()]);
        let owed = peer.ack_sent < confirmed[seat.index()];
        let recent = peer
            .last_sent
            .is_some_and(|at| now.saturating_duration_since(at) < ANSWER_EVERY);
        if (lacks || owed) && !recent {
            self.send_downlink(seat, now);
        }
    }

    /// Sends `seat` a datagram: the other seats' inputs from what it holds, our
    /// acknowledgements; and catches it up over the WebSocket when it lags past the window.
    pub(super) fn send_downlink(&mut self, seat: Seat, now: Instant) {
        let Some(run) = &self.running else { return };
        let tag = match_tag(run.sim.game().header().seed);
        let Some(peer) = self.peer(seat) else { return };
        let mut inputs = Vec::new();
        let mut behind = Vec::new();
        for s in Seat::BOTH.into_iter().filter(|&s| s != seat) {
            let log = run.sim.log(s);
            let held = peer.holds[s.index()];
            if log.confirmed() > held {
                inputs.push((s, window_of(log, held)));
                if log.confirmed() - held > WINDOW_FRAMES {
                    behind.push((s, held));
                }
            }
        }
        let ack = run.sim.log(seat).confirmed();
        let down = Downlink {
            tag,
            ack,
            hash_ack: peer.hash_ack,
            inputs,
            pong: None,
        };
        peer.out.send(&down);
        let catch_up = !behind.is_empty()
            && peer
                .last_catch_up
                .is_none_or(|at| now.saturating_duration_since(at) >= CATCH_UP_EVERY);
        if let Some(peer) = self.peer_mut(seat) {
            peer.last_sent = Some(now);
            peer.ack_sent = ack;
            if catch_up {
                peer.last_catch_up = Some(now);
            }
        }
        if catch_up {
            for (s, held) in behind {
                self.catch_up(seat, s, held);
            }
        }
    }

    /// Before the verdict of the running match: every player on datagrams gets over the
    /// WebSocket whatever of the other seat's inputs it has not acknowledged, so the verdict,
    /// which follows on the same ordered channel, never overtakes inputs its boards need to
    /// reach the end the server decided (a datagram still on its way, or lost, is never
    /// repeated once the match is over).
    pub(super) fn catch_up_before_verdict(&self) {
        for to in Seat::BOTH {
            let Some(peer) = self.peer(to) else { continue };
            let held = peer.holds[to.other().index()];
            self.catch_up(to, to.other(), held);
        }
    }

    /// Sends `to` the inputs of `seat` from frame `from` over the WebSocket (`InputsFrom`).
    fn catch_up(&self, to: Seat, seat: Seat, from: u32) {
        let Some(run) = &self.running else { return };
        let Some(conn) = self.seats[to.index()]
            .as_ref()
            .and_then(|s| s.conn.as_ref())
        else {
            return;
        };
        let log = run.sim.log(seat);
        if log.confirmed() <= from {
            return;
        }
        conn.send(&ServerMessage::InputsFrom {
            seat,
            from,
            changes: log.changes_from(from).to_vec(),
            confirmed: log.confirmed(),
        });
    }

    /// A window of `seat`'s inputs (a datagram's, or a WebSocket catch-up): checked as `Inputs`
    /// are, the part past what the server holds taken; the overlap is a repeat. One that starts
    /// past what the server holds is dropped (the client catches up). `datagram` says where it
    /// came from.
    pub(super) async fn window(
        &mut self,
        seat: Seat,
        from: u32,
        changes: Vec<InputChange>,
        confirmed: u32,
        datagram: bool,
    ) {
        let Some(run) = &mut self.running else {
            return;
        };
        let Some(conn) = self.seats[seat.index()]
            .as_ref()
            .and_then(|s| s.conn.clone())
        else {
            return;
        };
        let limits = &self.services.config.limits;
        if changes.len() > limits.max_changes_per_message {
            conn.cut(Cut::error(
                ErrorCode::BadInput,
                format!(
                    "{} input changes in one message; the limit is {}",
                    changes.len(),
                    limits.max_changes_per_message
                ),
            ));
            return;
        }
        let clock = run.clock_frame(Instant::now());
        if confirmed > clock.saturating_add(limits.max_frames_ahead) {
            conn.cut(Cut::error(
                ErrorCode::BadInput,
                format!(
                    "inputs confirmed through frame {confirmed}, but the match clock is at frame {clock} (at most {} ahead)",
                    limits.max_frames_ahead
                ),
            ));
            return;
        }
        // The part past what we hold is taken (and checked as a batch by `take_inputs`); the
        // overlap is a repeat of what we have.
        let have = run.sim.log(seat).confirmed();
        if confirmed <= have {
            return;
        }
        if from > have {
            if datagram {
                self.services.metrics.datagram_dropped("gap");
            }
            return;
        }
        let start = changes.partition_point(|c| c.frame < have);
        let taken = changes[start..].to_vec();
        self.take_inputs(seat, taken, confirmed).await;
    }
}
