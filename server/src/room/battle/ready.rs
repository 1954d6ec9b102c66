//! The ready timeout of a quick-play room: once a seated player is ready, the others have
//! `Config::quick_battle_ready_timeout` to be ready too. Then each seat still not ready is
//! given up (its player hears `SeatLost` and watches the room) and the match starts with the
//! ready ones, so one idle player cannot hold a room of strangers (docs/SERVER.md, "Quick play
//! of several seats"). Rooms made by code have no timeout: their players know each other.

use tracing::info;

use super::*;

impl BattleRoom {
    /// Starts the wait for the players not ready yet, if this room has a ready timeout, no
    /// match runs, someone is ready and the wait is not running already.
    pub(super) fn arm_ready_deadline(&mut self, now: Instant) {
        let Some(timeout) = self.ready_timeout else {
            return;
        };
        let anyone_ready = self.seats.iter().flatten().any(|s| s.ready);
        if self.running.is_none() && anyone_ready && self.ready_deadline.is_none() {
            self.ready_deadline = Some(now + timeout);
        }
    }

    /// The wait ran out: the seats not ready are given up (their players watch, told why) and
    /// the ready players start, if at least two are left. With nobody ready, nothing happens.
    pub(super) fn ready_timed_out(&mut self) {
        self.ready_deadline = None;
        if self.running.is_some() || !self.seats.iter().flatten().any(|s| s.ready) {
            return;
        }
        let Some(timeout) = self.ready_timeout else {
            return;
        };
        let idle: Vec<usize> = (0..self.seats.len())
            .filter(|&s| self.seats[s].as_ref().is_some_and(|slot| !slot.ready))
            .collect();
        let message = format!(
            "you were not ready within {} s of the other players, so the room goes on without \
             you: you are watching it; queue again to play",
            timeout.as_secs()
        );
        for seat in idle {
            let conn = self.seats[seat].as_ref().and_then(|s| s.conn.clone());
            let tags = self.seats[seat].as_ref().and_then(|s| s.tags.clone());
            info!(room = %self.code, seat, "seat not ready in time: given up");
            self.vacate(seat);
            self.peers[seat] = None;
            let Some(conn) = conn else {
                continue;
            };
            conn.send(&ServerMessage::Error {
                code: ErrorCode::SeatLost,
                message: message.clone(),
                fatal: false,
            });
            if self.spectators.len() < self.services.config.limits.max_spectators {
                conn.send(&ServerMessage::BattleJoined {
                    code: self.code.clone(),
                    seat: None,
                    resume: 0,
                    options: self.options,
                });
                self.spectators.push(conn, tags);
            }
        }
        self.broadcast_state();
        self.maybe_start();
    }
}
