//! Playing (or watching) the match: polling the connection each rendered frame, stepping the
//! frames the pacer says are due, sending what the session produced, and the match view's
//! [`crate::match_source::MatchSource`] over all of it.

use sevenbag_netplay::time::Instant;
use std::time::Duration;

use sevenbag_core::{Input, Match, Phase, Seat};
use sevenbag_netplay::{Session, from_fn};
use sevenbag_protocol::EndReason;

use super::{Driver, Online, Request, Stage};
use crate::input::Keyboard;
use crate::match_source::AutoPlayer;
use crate::match_source::{BoardSkin, NetStatus, RoomRole, top_out_verdict};

impl Online {
    /// Handles every network event that arrived and sends a ping when due; then works out how
    /// many match frames are due now (see [`Online::frames_due`]). Never blocks.
    ///
    /// Each event is handled as of the moment the network task received it, not `now`: a
    /// `Pong` or the opponent's inputs that waited for this frame keep their real arrival time,
    /// so the round trip shown and the pacing do not include the frame's own delay.
    pub fn poll(&mut self, now: Instant) {
        // Once in a room of several seats, what follows is for the controller that takes the
        // connection over: it stays queued on the link.
        while self.battle.is_none()
            && let Some((event, at)) = self.net.as_mut().and_then(|n| n.try_recv_stamped())
        {
            self.on_event(event, at.min(now));
        }
        self.skins.pump();
        self.keep_reconnecting(now);
        if self.welcomed
            && self.reconnect.is_none()
            && now >= self.next_ping
            && !matches!(self.stage, Stage::Failed(_))
        {
            let ping = self.match_driver.ping(now);
            self.send(ping);
            self.next_ping = now + Duration::from_secs(1);
        }
        self.due = self.match_driver.frames_due(now);
    }

    /// Simulates one due frame with `keys` chosen for our seat (asked only when the session
    /// uses them), then sends what the session produced. False when nothing was simulated (no
    /// frame due, or a stall at the prediction window).
    pub fn advance(&mut self, now: Instant, keys: &mut dyn FnMut(&Match, Seat) -> Input) -> bool {
        if self.due == 0 {
            return false;
        }
        let stepped = self
            .match_driver
            .step(now, &mut from_fn(|m, seat| keys(m, seat)));
        if stepped {
            self.due -= 1;
        } else {
            self.due = 0;
        }
        self.flush();
        stepped
    }

    pub(super) fn flush(&mut self) {
        let mut out = Vec::new();
        while let Some(m) = self.match_driver.poll_outgoing() {
            out.push(m);
        }
        if self.reconnect.is_some() {
            // Lost with the connection: once the match log arrives, the session sends again
            // everything past what the server has.
            return;
        }
        if let Some(net) = &self.net {
            for m in out {
                if net.send(m).is_err() {
                    break;
                }
            }
        }
    }

    #[cfg_attr(not(test), allow(dead_code))] // the tests read it
    /// One rendered frame in one call: [`Online::poll`], then every due frame with keys from
    /// `keys`. Returns the frames simulated.
    pub fn tick(&mut self, now: Instant, keys: &mut dyn FnMut(&Match, Seat) -> Input) -> u32 {
        self.poll(now);
        let mut n = 0;
        while self.due > 0 {
            if !self.advance(now, keys) {
                break;
            }
            n += 1;
        }
        n
    }

    /// The readout under the boards.
    pub fn status(&self) -> NetStatus {
        let stats = self
            .match_driver
            .session()
            .map(Session::stats)
            .unwrap_or_default();
        NetStatus {
            online: Some(self.ping().map(|d| d.as_millis() as u32)),
            path: self.path(),
            rollback_frames: stats.max_rollback_depth,
            delay_frames: self
                .match_driver
                .session()
                .map_or(0, |s| s.options().input_delay),
            stalls: u32::try_from(stats.stall_frames).unwrap_or(u32::MAX),
            peers: self.peers(),
            replay: None,
        }
    }
}

impl crate::match_source::MatchSource for Online {
    fn sample(&mut self, keyboard: &Keyboard) {
        if let Driver::Keys(map, latch) = &mut self.driver {
            latch.sample(map, keyboard);
        }
    }

    fn pump(&mut self, _clock_steps: u32) -> u32 {
        self.poll(Instant::now());
        self.due
    }

    fn step(&mut self) -> bool {
        let mut driver = std::mem::replace(&mut self.driver, Driver::Auto(Box::new(NoKeys)));
        let stepped = self.advance(Instant::now(), &mut |m, seat| match &mut driver {
            Driver::Keys(_, latch) => latch.take(),
            Driver::Auto(p) => p.next_input(m, seat),
        });
        self.driver = driver;
        stepped
    }

    fn current(&self) -> &Match {
        Online::current(self)
    }

    fn net(&self) -> NetStatus {
        self.status()
    }

    fn can_pause(&self) -> bool {
        false
    }

    fn rematch(&mut self, _seed: u64) {
        self.ready();
    }

    fn local_seats(&self) -> [bool; 2] {
        [Seat::First, Seat::Second].map(|s| self.match_driver.seat() == Some(s))
    }

    fn board_skin(&self, seat: Seat) -> BoardSkin<'_> {
        if self.match_driver.seat() == Some(seat) {
            BoardSkin::Yours
        } else {
            BoardSkin::Theirs(self.seat_skin(seat))
        }
    }

    /// A room's match names its code, so a friend can be told it (quick match keeps the
    /// screen's title).
    fn title(&self) -> Option<String> {
        let code = self.code()?;
        match self.request {
            Request::Create(_) | Request::Join(_) => Some(format!("ONLINE  ·  ROOM {code}")),
            Request::Spectate(_) => Some(format!("WATCHING  ·  ROOM {code}")),
            _ => None,
        }
    }

    fn names(&self) -> Option<[String; 2]> {
        Some(Online::names(self))
    }

    fn verdict(&self) -> Option<String> {
        if let Some(void) = self.void_result() {
            return Some(crate::match_source::verdict_line(
                void.reason,
                None,
                &Online::names(self),
            ));
        }
        let out = self.outcome()?;
        if matches!(self.current().phase(), Phase::MatchOver { .. }) {
            return None;
        }
        if out.reason == EndReason::TopOut {
            // The boards show a top-out themselves once they reach the server's end; until
            // then nothing, and if they stop short of it (inputs that never came), the server's
            // word: who won, by its count of rounds.
            if self.match_driver.is_showing() {
                return None;
            }
            return Some(top_out_verdict(
                out.winner,
                self.match_driver.wins(),
                &Online::names(self),
            ));
        }
        Some(crate::match_source::verdict_line(
            out.reason,
            Some(out.winner),
            &Online::names(self),
        ))
    }

    fn room_role(&self) -> Option<RoomRole> {
        Some(RoomRole {
            spectator: self.is_spectator(),
            ready_sent: self.ready_sent(),
        })
    }
}

/// No keys: a placeholder driver while the real one is borrowed.
struct NoKeys;

impl AutoPlayer for NoKeys {
    fn next_for(&mut self, _view: crate::match_source::SeatView<'_>) -> Input {
        Input::NONE
    }
}
