//! The client's side of the datagram path, without any I/O: what to send as datagrams and
//! when, what the server's datagrams mean, when to catch up over the WebSocket, and when the
//! path is dead. The native network task (`net.rs`) drives it with a WebTransport session; a
//! browser transport can drive it with the page's `WebTransport` the same way.
//!
//! The link sees every message of the connection, both ways, whichever path carries it:
//! - **Ours.** Each `Inputs` batch the session hands out extends our log of frames the server has
//!   not acknowledged; every uplink datagram repeats all of it (at most
//!   [`WINDOW_FRAMES`] frames) until the server's acknowledgement comes back. A new batch goes
//!   out at once; while anything is unacknowledged, the window is repeated every
//!   [`REPEAT_EVERY`], so a lost datagram costs that long, not a retransmission. The latest
//!   state hash rides along until acknowledged; a `Ping` goes in the next datagram.
//! - **Theirs.** Each downlink carries the other seats' inputs from what we acknowledged; the
//!   link passes them up as `ServerMessage::InputsFrom` (the session skips the overlap) and
//!   acknowledges within [`ACK_DELAY`].
//! - **Catch-up.** When the server's acknowledgement lags our log by more than the window (a
//!   burst of loss longer than the window, or a path gone quiet), the unacknowledged inputs go
//!   once more over the WebSocket, reliably, as `ClientMessage::InputsFrom`.
//! - **Dead path.** No datagram from the server for [`DEAD_AFTER`] while it owes us an
//!   answer: the caller falls back to the WebSocket ([`DatagramLink::fall_back`]).
//!
//! Relayed `Inputs` that arrive over the WebSocket once datagrams were used are rewritten as
//! `InputsFrom` counted from the previous WebSocket relay of that seat, so the session never
//! mistakes an overlap for a rewrite.

mod battle;

use std::time::Duration;

use sevenbag_core::Seat;
use sevenbag_protocol::battle_datagram::BATTLE_MARK;
use sevenbag_protocol::datagram::{
    DatagramError, Downlink, InputWindow, MAX_WINDOW_STEPS, Uplink, WINDOW_FRAMES, match_tag,
};
use sevenbag_protocol::{
    ClientMessage, InputChange, MAX_CHANGES_PER_MESSAGE, ServerMessage, TargetChange,
};

use crate::time::Instant;

/// While inputs or a hash are unacknowledged, the window is sent again this often.
pub const REPEAT_EVERY: Duration = Duration::from_millis(32);
/// New inputs from the server are acknowledged within this.
pub const ACK_DELAY: Duration = Duration::from_millis(32);
/// The path is dead when nothing came back this long after a datagram that needed an answer.
pub const DEAD_AFTER: Duration = Duration::from_secs(2);
/// Least time between two reliable catch-ups over the WebSocket.
pub const CATCH_UP_EVERY: Duration = Duration::from_millis(200);

/// Which path carries inputs, hashes and clock probes right now.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TransportPath {
    /// Everything over the WebSocket (TCP): no datagram session, or not yet.
    #[default]
    WebSocket,
    /// Inputs, hashes and pings as unreliable datagrams (WebTransport over QUIC); everything
    /// else over the WebSocket.
    Datagrams,
}

impl TransportPath {
    /// A short name for a readout ("WebSocket", "datagrams").
    pub fn name(self) -> &'static str {
        match self {
            TransportPath::WebSocket => "WebSocket",
            TransportPath::Datagrams => "datagrams",
        }
    }
}

/// Our inputs the server has not acknowledged.
#[derive(Clone, Debug, Default)]
struct Own {
    /// The server holds our frames `0..acked`.
    acked: u32,
    /// Frames handed out by the session so far.
    confirmed: u32,
    /// The changes in `acked..confirmed`.
    changes: Vec<InputChange>,
    /// The target changes in `acked..confirmed` (rooms of several seats).
    targets: Vec<TargetChange>,
}

impl Own {
    /// Everything handed out so far counts as held by the server.
    fn settle(&mut self) {
        self.acked = self.confirmed;
        self.changes.clear();
        self.targets.clear();
    }

    /// The server acknowledged `ack` frames.
    fn acknowledged(&mut self, ack: u32) {
        if ack > self.acked && ack <= self.confirmed {
            self.acked = ack;
            let keep = self.changes.partition_point(|c| c.frame < ack);
            self.changes.drain(..keep);
            let keep = self.targets.partition_point(|t| t.frame < ack);
            self.targets.drain(..keep);
        }
    }
}

/// The datagram link of one connection (see the module docs).
#[derive(Debug)]
pub struct DatagramLink {
    /// Datagrams carry our inputs now (else everything goes over the WebSocket).
    active: bool,
    /// Datagrams were used on this connection at some point.
    ever_active: bool,
    seat: Option<Seat>,
    /// The current match's tag (0: none).
    tag: u16,
    own: Own,
    /// Frames of each seat's inputs the session holds (as the session applies windows).
    held: [u32; 2],
    /// Per seat, where the next WebSocket relay of its inputs starts.
    ws_base: [u32; 2],
    hash: Option<(u32, u64)>,
    ping: Option<u64>,
    seq: u32,
    /// Send at the next poll (a new batch, a ping).
    urgent: bool,
    /// New inputs arrived since our last datagram.
    ack_owed: bool,
    last_sent: Option<Instant>,
    /// The first datagram sent since the last one heard that the server must answer.
    unanswered_since: Option<Instant>,
    last_catch_up: Option<Instant>,
    stats: LinkStats,
    /// Rooms of several seats ([`battle`]).
    battle: battle::BattleLink,
}

/// What the link counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LinkStats {
    /// Datagrams built for sending.
    pub sent: u64,
    /// Datagrams received and read.
    pub received: u64,
    /// Datagrams from the server that did not decode.
    pub undecodable: u64,
    /// Windows that started past what we hold (the server catches up reliably).
    pub gaps: u64,
    /// Reliable catch-ups sent over the WebSocket.
    pub catch_ups: u64,
}

impl Default for DatagramLink {
    fn default() -> Self {
        DatagramLink::new()
    }
}

impl DatagramLink {
    /// A link for a new connection: everything over the WebSocket until [`Self::activate`].
    pub fn new() -> DatagramLink {
        DatagramLink {
            active: false,
            ever_active: false,
            seat: None,
            tag: 0,
            own: Own::default(),
            held: [0; 2],
            ws_base: [0; 2],
            hash: None,
            ping: None,
            seq: 0,
            urgent: false,
            ack_owed: false,
            last_sent: None,
            unanswered_since: None,
            last_catch_up: None,
            stats: LinkStats::default(),
            battle: battle::BattleLink::default(),
        }
    }

    /// The path our inputs take (in a room of several seats, datagrams only once
    /// [`Self::speak_battles`] was called).
    pub fn path(&self) -> TransportPath {
        if self.active && self.battle.carries_inputs() {
            TransportPath::Datagrams
        } else {
            TransportPath::WebSocket
        }
    }

    /// What was counted so far.
    pub fn stats(&self) -> LinkStats {
        self.stats
    }

    /// The datagram session is up: inputs, hashes and pings go as datagrams from now on. What
    /// went over the WebSocket so far reaches the server reliably, so it counts as acknowledged.
    pub fn activate(&mut self, now: Instant) {
        self.active = true;
        self.ever_active = true;
        self.unanswered_since = None;
        self.last_sent = None;
        self.urgent = true;
        let _ = now;
    }

    /// Leaves the datagram path: returns what must go over the WebSocket instead, in order
    /// (the server is told to close the session, our unacknowledged inputs go reliably, the
    /// pending hash too).
    pub fn fall_back(&mut self) -> Vec<ClientMessage> {
        if !self.active {
            return Vec::new();
        }
        self.active = false;
        let mut out = vec![ClientMessage::Datagrams { on: false }];
        out.extend(self.catch_up_messages());
        self.own.settle();
        if let Some((frame, hash)) = self.hash.take() {
            out.push(ClientMessage::StateHash { frame, hash });
        }
        if let Some((frame, hash)) = self.battle.hash.take() {
            out.push(ClientMessage::BattleHash { frame, hash });
        }
        self.ping = None;
        out
    }

    /// Takes a message the session (or the caller) wants sent. Returns it back when it must go
    /// over the WebSocket; `None` when the link carries it as a datagram.
    pub fn outgoing(&mut self, message: ClientMessage) -> Option<ClientMessage> {
        match message {
            ClientMessage::Inputs { changes, confirmed } => {
                let from = self.own.confirmed;
                self.own.confirmed = confirmed;
                if !self.active {
                    self.own.settle();
                    return Some(ClientMessage::Inputs { changes, confirmed });
                }
                // Batches follow each other, so every change is at or after `from`.
                self.own
                    .changes
                    .extend(changes.into_iter().filter(|c| c.frame >= from));
                self.urgent = true;
                None
            }
            ClientMessage::StateHash { frame, hash } if self.active => {
                self.hash = Some((frame, hash));
                None
            }
            ClientMessage::Ping { nonce } if self.active => {
                self.ping = Some(nonce);
                self.urgent = true;
                None
            }
            ClientMessage::BattleInputs {
                changes,
                targets,
                confirmed,
            } if self.battle.on => self.battle_outgoing(changes, targets, confirmed),
            ClientMessage::BattleHash { frame, hash } if self.active && self.battle.speaking() => {
                self.battle.hash = Some((frame, hash));
                None
            }
            other => Some(other),
        }
    }

    /// Notes a server message that came over the WebSocket, and returns what to pass up: the
    /// same message, or (once datagrams were used) a relayed `Inputs` as `InputsFrom`.
    pub fn from_websocket(&mut self, message: ServerMessage) -> ServerMessage {
        match message {
            ServerMessage::Joined { seat, .. } => {
                self.seat = seat;
                self.battle.leave();
                message
            }
            ServerMessage::MatchStart { header, .. } => {
                self.tag = match_tag(header.seed);
                self.own = Own::default();
                self.held = [0; 2];
                self.ws_base = [0; 2];
                self.hash = None;
                message
            }
            ServerMessage::MatchOver { .. } => {
                // The match is decided: nothing of it is owed any more (the server no longer
                // takes its inputs), so nothing is repeated or waited for until the next one.
                self.own.settle();
                self.hash = None;
                self.unanswered_since = None;
                message
            }
            ServerMessage::MatchLog {
                header, confirmed, ..
            } => {
                let tag = match_tag(header.seed);
                if tag != self.tag || self.own.confirmed == 0 {
                    // A match we had no inputs of on this connection (a reconnect, watching):
                    // the session sends ours again from the server's confirmation.
                    if let Some(seat) = self.seat {
                        let have = confirmed[seat.index()];
                        self.own = Own {
                            acked: have,
                            confirmed: have,
                            ..Own::default()
                        };
                    }
                    self.hash = None;
                }
                self.tag = tag;
                self.held = confirmed;
                self.ws_base = confirmed;
                message
            }
            ServerMessage::Inputs {
                seat,
                changes,
                confirmed,
            } => {
                let from = self.ws_base[seat.index()];
                self.ws_base[seat.index()] = confirmed;
                self.took(seat, from, confirmed);
                if self.ever_active {
                    ServerMessage::InputsFrom {
                        seat,
                        from,
                        changes,
                        confirmed,
                    }
                } else {
                    ServerMessage::Inputs {
                        seat,
                        changes,
                        confirmed,
                    }
                }
            }
            ServerMessage::InputsFrom {
                seat,
                from,
                confirmed,
                ..
            } => {
                self.ws_base[seat.index()] = confirmed;
                self.took(seat, from, confirmed);
                message
            }
            other => self.battle_from_websocket(other),
        }
    }

    /// The session takes a window exactly when it starts within what it holds.
    fn took(&mut self, seat: Seat, from: u32, confirmed: u32) -> bool {
        let held = &mut self.held[seat.index()];
        if from <= *held && confirmed > *held {
            *held = confirmed;
            true
        } else {
            false
        }
    }

    /// Reads a datagram from the server; returns what to pass up (relayed inputs as
    /// `InputsFrom`, a clock answer as `Pong`).
    pub fn from_datagram(
        &mut self,
        bytes: &[u8],
        now: Instant,
    ) -> Result<Vec<ServerMessage>, DatagramError> {
        if bytes.first() == Some(&BATTLE_MARK) {
            return self.battle_from_datagram(bytes);
        }
        let down = match Downlink::decode(bytes) {
            Ok(down) => down,
            Err(e) => {
                self.stats.undecodable += 1;
                return Err(e);
            }
        };
        self.stats.received += 1;
        self.unanswered_since = None;
        let _ = now;
        let mut up = Vec::new();
        if let Some(pong) = down.pong {
            up.push(ServerMessage::Pong {
                nonce: pong.nonce,
                server_ms: pong.server_ms,
            });
        }
        if down.tag != self.tag || self.tag == 0 {
            // Another match's (a late datagram of the last one): only the clock counts.
            return Ok(up);
        }
        self.own.acknowledged(down.ack);
        if self.hash.is_some_and(|(frame, _)| down.hash_ack >= frame) {
            self.hash = None;
        }
        for (seat, window) in down.inputs {
            if Some(seat) == self.seat {
                continue;
            }
            let window = window.resolve()?;
            let held = self.held[seat.index()];
            if window.confirmed <= held {
                // A repeat: the server has not heard our acknowledgement yet.
                self.ack_owed = true;
                continue;
            }
            if window.from > held {
                self.stats.gaps += 1;
                continue;
            }
            self.took(seat, window.from, window.confirmed);
            self.ack_owed = true;
            up.push(ServerMessage::InputsFrom {
                seat,
                from: window.from,
                changes: window.changes,
                confirmed: window.confirmed,
            });
        }
        Ok(up)
    }

    /// Whether our inputs or hash wait for the server's acknowledgement.
    fn unacknowledged(&self) -> bool {
        self.own.confirmed > self.own.acked || self.hash.is_some()
    }

    /// The next datagram to send at `now`, if one is due.
    pub fn poll_send(&mut self, now: Instant) -> Option<Uplink> {
        if !self.active || self.battle.speaking() || !self.due(now) {
            return None;
        }
        self.seq = self.seq.wrapping_add(1);
        let acks = Seat::BOTH
            .into_iter()
            .filter(|&s| Some(s) != self.seat)
            .map(|s| (s, self.held[s.index()]))
            .collect();
        let inputs = (self.own.confirmed > self.own.acked).then(|| self.own_window());
        let up = Uplink {
            seq: self.seq,
            tag: self.tag,
            acks,
            inputs,
            hash: self.hash,
            ping: self.ping.take(),
        };
        self.sent(
            now,
            up.inputs.is_some() || up.hash.is_some() || up.ping.is_some(),
        );
        Some(up)
    }

    /// The next datagram to send at `now`, encoded, of the kind the connection's room takes:
    /// a two-seat [`Uplink`] or, once [`Self::speak_battles`] was called and in a room of
    /// several seats, a battle one.
    pub fn poll_datagram(&mut self, now: Instant) -> Option<Result<Vec<u8>, DatagramError>> {
        if self.battle.speaking() {
            self.poll_battle(now).map(|up| up.encode())
        } else {
            self.poll_send(now).map(|up| up.encode())
        }
    }

    /// Whether a datagram is due at `now`.
    fn due(&self, now: Instant) -> bool {
        let since = |every: Duration| self.last_sent.is_none_or(|at| now >= at + every);
        self.urgent
            || (self.unacknowledged() && since(REPEAT_EVERY))
            || (self.ack_owed && since(ACK_DELAY))
    }

    /// A datagram went out at `now`; `needs_answer` when the server owes us one for it.
    fn sent(&mut self, now: Instant, needs_answer: bool) {
        if needs_answer && self.unanswered_since.is_none() {
            self.unanswered_since = Some(now);
        }
        self.urgent = false;
        self.ack_owed = false;
        self.last_sent = Some(now);
        self.stats.sent += 1;
    }

    /// Our unacknowledged inputs, at most the last [`WINDOW_FRAMES`] frames of them.
    fn own_window(&self) -> InputWindow {
        let from = self
            .own
            .acked
            .max(self.own.confirmed.saturating_sub(WINDOW_FRAMES));
        let start = self.own.changes.partition_point(|c| c.frame < from);
        let mut window = InputWindow::new(from, &self.own.changes[start..], self.own.confirmed);
        // More changes than a window carries (never in play): stop before the first that
        // does not fit; the rest goes in later datagrams or the catch-up.
        if window.steps.len() > MAX_WINDOW_STEPS {
            let cut = window.steps[MAX_WINDOW_STEPS].after;
            window.steps.truncate(MAX_WINDOW_STEPS);
            window.frames = cut;
        }
        window
    }

    /// When [`Self::poll_send`] may next have something to send (`None`: only on a new
    /// message).
    pub fn next_wake(&self) -> Option<Instant> {
        if !self.active {
            return None;
        }
        let base = self.last_sent?;
        if self.urgent {
            return Some(base);
        }
        let mut wake: Option<Instant> = None;
        if self.unacknowledged() {
            wake = Some(base + REPEAT_EVERY);
        }
        if self.ack_owed {
            let at = base + ACK_DELAY;
            wake = Some(wake.map_or(at, |w| w.min(at)));
        }
        wake
    }

    /// The reliable catch-up to send over the WebSocket now, if the server's acknowledgement
    /// lags our log by more than a window (at most once per [`CATCH_UP_EVERY`] or round trip).
    pub fn catch_up(&mut self, now: Instant, rtt: Option<Duration>) -> Vec<ClientMessage> {
        if !self.active || self.own.confirmed - self.own.acked <= WINDOW_FRAMES {
            return Vec::new();
        }
        let every = rtt.map_or(CATCH_UP_EVERY, |r| CATCH_UP_EVERY.max(r + r / 2));
        if self.last_catch_up.is_some_and(|at| now < at + every) {
            return Vec::new();
        }
        self.last_catch_up = Some(now);
        self.stats.catch_ups += 1;
        self.catch_up_messages()
    }

    /// Our unacknowledged inputs as `InputsFrom` messages (several only past
    /// `MAX_CHANGES_PER_MESSAGE` changes).
    fn catch_up_messages(&self) -> Vec<ClientMessage> {
        if self.own.confirmed <= self.own.acked {
            return Vec::new();
        }
        if self.battle.speaking() {
            return self.battle_catch_up();
        }
        let mut out = Vec::new();
        let mut from = self.own.acked;
        let mut rest = &self.own.changes[..];
        loop {
            let (chunk, confirmed) = match rest.get(MAX_CHANGES_PER_MESSAGE) {
                Some(next) => (&rest[..MAX_CHANGES_PER_MESSAGE], next.frame),
                None => (rest, self.own.confirmed),
            };
            out.push(ClientMessage::InputsFrom {
                from,
                changes: chunk.to_vec(),
                confirmed,
            });
            rest = &rest[chunk.len()..];
            from = confirmed;
            if rest.is_empty() {
                return out;
            }
        }
    }

    /// Whether the path is dead: a datagram that needed an answer went unanswered for
    /// [`DEAD_AFTER`].
    pub fn is_dead(&self, now: Instant) -> bool {
        self.active
            && self
                .unanswered_since
                .is_some_and(|at| now.saturating_duration_since(at) >= DEAD_AFTER)
    }
}
