//! What a headless client knows, read-only: the room, the match as predicted and confirmed,
//! the results and hashes the server announced, errors and traffic.

use sevenbag_core::{Match, Seat};
use sevenbag_protocol::{SeatInfo, SeatStatus};

use super::reconnect::add_traffic;
use super::{ClientStats, DesyncNotice, HeadlessClient, ServerError};
use crate::clock::Pacer;
use crate::driver::{MatchResult, RoundResult};
use crate::room::RoomInfo;
use crate::session::{RoundEnd, Session, SessionError};

impl HeadlessClient {
    /// The room we are in.
    pub fn room(&self) -> Option<&RoomInfo> {
        self.room.room()
    }

    /// Our seat (`None` as a spectator or outside a room).
    pub fn seat(&self) -> Option<Seat> {
        self.room.room().and_then(|r| r.seat)
    }

    /// The current (or last) match's session.
    pub fn session(&self) -> Option<&Session> {
        self.driver.session()
    }

    /// The match to draw: predicted.
    pub fn predicted(&self) -> Option<&Match> {
        self.driver.predicted()
    }

    /// The confirmed match (never rolls back).
    pub fn confirmed(&self) -> Option<&Match> {
        self.driver.confirmed()
    }

    /// Our own name (as sent in `Hello`).
    pub fn name(&self) -> &str {
        &self.config.name
    }

    /// Players' names, seat 0 and 1.
    pub fn names(&self) -> &[String; 2] {
        self.driver.names()
    }

    /// Round wins: the server's latest count, else the confirmed match's.
    pub fn wins(&self) -> [u8; 2] {
        self.driver.wins()
    }

    /// Seats as the room last described them (with status updates applied).
    pub fn seats(&self) -> &[Option<SeatInfo>; 2] {
        self.room.seats()
    }

    /// Connection status of both seats.
    pub fn seat_statuses(&self) -> [Option<SeatStatus>; 2] {
        [0, 1].map(|i| self.room.seats()[i].as_ref().map(|s| s.status))
    }

    /// Spectators in the room.
    pub fn spectators(&self) -> u16 {
        self.room.spectators()
    }

    /// Ping, rollbacks, stalls, traffic.
    pub fn stats(&self) -> ClientStats {
        ClientStats {
            ping: self.driver.clock().rtt(),
            session: self
                .driver
                .session()
                .map(Session::stats)
                .unwrap_or_default(),
            net: add_traffic(self.past_traffic, self.net.stats()),
            advantage: self
                .driver
                .pacer()
                .map(Pacer::advantage)
                .unwrap_or_default(),
            path: self.net.path(),
        }
    }

    /// The path carrying inputs now: the WebSocket or datagrams (the network readout's).
    pub fn path(&self) -> crate::datagram::TransportPath {
        self.net.path()
    }

    /// Where the connection's datagram path stands.
    pub fn datagram_status(&self) -> crate::net::DatagramStatus {
        self.net.datagram_status()
    }

    /// Rounds the server announced in the current match.
    pub fn round_results(&self) -> &[RoundResult] {
        self.driver.round_results()
    }

    /// The match result, once the server announced it.
    pub fn match_result(&self) -> Option<&MatchResult> {
        self.driver.match_result()
    }

    /// The server's word that the match ended without a winner.
    pub fn void_result(&self) -> Option<&crate::driver::VoidResult> {
        self.driver.void_result()
    }

    /// Whether a match is being played or watched right now.
    pub fn is_live(&self) -> bool {
        self.driver.is_live()
    }

    /// Whether frames are still being stepped: the match is live, or over on the server with
    /// its last confirmed frames still being shown (a spectator running behind).
    pub fn is_showing(&self) -> bool {
        self.driver.is_showing()
    }

    /// Matches started since we connected.
    pub fn matches_started(&self) -> u32 {
        self.driver.matches_started()
    }

    /// Our state hashes of the current match: (frame, hash) every `HASH_INTERVAL` frames.
    pub fn hashes(&self) -> &[(u32, u64)] {
        self.driver
            .session()
            .map(Session::hashes)
            .unwrap_or_default()
    }

    /// Rounds ended in our confirmed match, with the hash at each end.
    pub fn round_ends(&self) -> &[RoundEnd] {
        self.driver
            .session()
            .map(Session::round_ends)
            .unwrap_or_default()
    }

    /// Desync notices received.
    pub fn desyncs(&self) -> &[DesyncNotice] {
        &self.desyncs
    }

    /// Server errors received.
    pub fn errors(&self) -> &[ServerError] {
        &self.errors
    }

    /// Relayed inputs or logs the session refused.
    pub fn session_errors(&self) -> &[SessionError] {
        &self.session_errors
    }

    /// Whether we are welcomed and not disconnected.
    pub fn is_connected(&self) -> bool {
        self.connected
    }

    /// Why the last connection ended, if it did.
    pub fn disconnect_reason(&self) -> Option<&str> {
        self.disconnect_reason.as_deref()
    }

    /// The server's name, from `Welcome`.
    pub fn server_name(&self) -> &str {
        &self.server
    }

    /// The replay list from the last `Replays`.
    pub fn replay_list(&self) -> &[(String, String)] {
        &self.replays
    }
}
