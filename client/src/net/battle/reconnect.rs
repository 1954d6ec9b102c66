//! Taking a lost connection back during a match, on the two-seat controller's clock
//! ([`Reconnect`]: an attempt a second, for the room's reconnect window or
//! [`REACH_ALLOWANCE`], whichever is longer). The match stays on screen, frozen, meanwhile.
//!
//! A seated player says hello with its resume token: the server answers `BattleJoined` with
//! the seat and the match log, which rebuilds the session where the server has it (our own
//! keys it never heard are played again from there). A player whose seat was played out while
//! away is told `SeatLost`, joined as a spectator and sent the log: it watches the match go on
//! ([`BattleOnline::seat_lost`]), or, when that match is over, hears its `BattleOver`. A
//! spectator joins by code again. Only the server's answer (a match log, a result, a refused
//! token) or the end of the attempts ends a reconnect; the game never
//! decides a result of its own. A server that says it shuts down during a match is a restart
//! to wait out the same way: it keeps the room's log and takes the match up when it is back.

use std::time::Duration;

use sevenbag_netplay::Hello;
use sevenbag_netplay::time::Instant;
use sevenbag_protocol::{ClientMessage, JoinRole};

use super::{BattleOnline, BattleStage};
use crate::net::online::reconnect::{LOST_MATCH, REACH_ALLOWANCE, Reconnect, UNREACHABLE};
use crate::net::online::transport::open;

/// What the screen says once the seat was played out while we were away.
pub const SEAT_LOST: &str = "Your seat was played out while you were away: you are watching.";

impl BattleOnline {
    /// While the connection is lost mid-match: the whole seconds left of the room's reconnect
    /// window (0 once it has passed and the server is still out of reach).
    pub fn reconnecting(&self, now: Instant) -> Option<u32> {
        self.reconnect.as_ref().map(|r| r.seconds_left(now))
    }

    /// While reconnecting: whether the room's window has passed (the server decides the
    /// match; we keep trying to hear it).
    pub fn reconnect_window_passed(&self, now: Instant) -> bool {
        self.reconnect
            .as_ref()
            .is_some_and(|r| r.window_passed(now))
    }

    /// Connection attempts of the current reconnect (0 when not reconnecting).
    pub fn reconnect_attempts(&self) -> u32 {
        self.reconnect.as_ref().map_or(0, Reconnect::attempts)
    }

    /// We came back after the room's window: the seat was played out and we watch.
    pub fn seat_lost(&self) -> bool {
        self.seat_lost
    }

    /// Drops the connection without a word, as a lost network would (tests).
    #[cfg(test)]
    pub fn cut_connection(&self) {
        if let Some(net) = &self.net {
            net.abort();
        }
    }

    /// The connection ended: a failed attempt waits for the next; a match we play or watch
    /// starts a reconnect; anything else is the end.
    pub(super) fn connection_lost(&mut self, reason: &str, at: Instant) {
        let was_welcomed = self.welcomed;
        self.welcomed = false;
        self.net = None;
        if let Some(r) = &mut self.reconnect {
            tracing::info!(%reason, "reconnect attempt failed");
            r.failed();
            return;
        }
        if self.can_resume() {
            tracing::info!(%reason, "connection lost mid-match; reconnecting");
            let window = self
                .options
                .as_ref()
                .map_or(0, |o| u64::from(o.room.reconnect_seconds));
            self.reconnect = Some(Reconnect::new(
                at,
                Duration::from_secs(window),
                REACH_ALLOWANCE,
            ));
            return;
        }
        if !matches!(self.stage, BattleStage::Failed(_)) {
            // In the words the two-seat controller uses: one text for every room.
            self.stage = BattleStage::Failed(if was_welcomed {
                crate::net::online::texts::disconnected_text(reason)
            } else {
                crate::net::online::texts::reach_text(&self.url, reason)
            });
        }
    }

    /// Whether a dropped connection is taken back: a match running in our room, which we
    /// watch or play with a resume token, and no failure before.
    pub(super) fn can_resume(&self) -> bool {
        self.is_live()
            && self.code.is_some()
            && (self.seat.is_none() || self.resume.is_some())
            && !matches!(self.stage, BattleStage::Failed(_))
    }

    /// While reconnecting: gives up once the attempts are over, else starts one when due.
    pub(super) fn keep_reconnecting(&mut self, now: Instant) {
        let Some(r) = &mut self.reconnect else {
            return;
        };
        if r.expired(now) {
            let why = if self.seat.is_some() {
                UNREACHABLE
            } else {
                LOST_MATCH
            };
            self.give_up(why);
            return;
        }
        if !r.due(now) {
            return;
        }
        r.started(now);
        let hello = Hello {
            resume: self.seat.and(self.resume),
            ..self.hello.clone()
        };
        match open(&self.url, hello) {
            Ok(link) => self.net = Some(link),
            Err(e) => {
                self.reconnect = None;
                self.stage = BattleStage::Failed(e);
            }
        }
    }

    /// Welcomed again: a player's token already asked for the seat; a spectator asks to
    /// watch again.
    pub(super) fn rejoin(&mut self) {
        if self.seat.is_none()
            && let Some(code) = self.code.clone()
        {
            self.send(ClientMessage::JoinRoom {
                code,
                role: JoinRole::Spectator,
            });
        }
    }

    /// The server answered our return without our seat: the match goes on for us as a
    /// spectator, from the log that follows.
    pub(super) fn watch_instead(&mut self) {
        if self.reconnect.is_some() && self.seat.is_some() {
            self.seat_lost = true;
            self.session = None;
            self.pacer = None;
            self.target = None;
        }
    }

    /// The reconnect ends without the match (`why` says so, never a result of its own).
    pub(super) fn give_up(&mut self, why: &str) {
        self.reconnect = None;
        if let Some(net) = self.net.take() {
            net.close();
        }
        self.stage = BattleStage::Failed(why.to_owned());
    }
}
