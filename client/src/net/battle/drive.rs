//! Driving a [`BattleOnline`] each rendered frame: events in, pings and inputs out, due frames.

use std::time::Duration;

use sevenbag_core::{Battle, Input, Seat, SeatInput};
use sevenbag_netplay::time::Instant;
use sevenbag_netplay::{NetEvent, Step, balance_battle, retune_battle};

use super::{BattleOnline, BattleStage};

impl BattleOnline {
    /// Handles every event that arrived, sends a ping when due, and works out how many match
    /// frames are due now. Never blocks.
    pub fn poll(&mut self, now: Instant) {
        while let Some((event, at)) = self.net.as_mut().and_then(|n| n.try_recv_stamped()) {
            self.on_event(event, at.min(now));
        }
        self.skins.pump();
        self.send_invite_on_arrival();
        self.keep_reconnecting(now);
        if self.welcomed && now >= self.next_ping && !matches!(self.stage, BattleStage::Failed(_)) {
            let ping = self.clock.ping(now);
            self.send(ping);
            self.next_ping = now + Duration::from_secs(1);
        }
        // While reconnecting the match waits for its log: what we would play now is lost.
        self.due = match (&self.session, &self.pacer) {
            _ if self.reconnect.is_some() => 0,
            (Some(s), Some(p)) if !s.is_over() || self.result.is_none() => {
                p.frames_due(now, s.frame())
            }
            _ => 0,
        };
    }

    /// Frames due this rendered frame (set by [`BattleOnline::poll`]).
    pub fn frames_due(&self) -> u32 {
        self.due
    }

    /// Simulates one due frame with `keys` for our seat (and our target), then sends what the
    /// session produced. False when nothing was simulated (no frame due, or a stall).
    pub fn advance(&mut self, now: Instant, keys: &mut dyn FnMut(&Battle, Seat) -> Input) -> bool {
        if self.due == 0 {
            return false;
        }
        let me = self.battle_seat();
        let target = self.target;
        let (Some(session), Some(pacer)) = (&mut self.session, &mut self.pacer) else {
            self.due = 0;
            return false;
        };
        let input = me.map_or(SeatInput::NONE, |s| SeatInput {
            keys: keys(session.predicted(), s),
            target,
        });
        let stepped = session.advance(input) == Step::Advanced;
        if stepped {
            self.due -= 1;
            if let Some(me) = me {
                // The delay follows the link during the match, as in a two-seat room.
                let own = (self.clock.rtt(), self.clock.jitter());
                retune_battle(&mut self.tuner, session, own, &self.links.0, me.index());
            }
            // Ahead of the furthest-behind seat we slow slightly instead of only stalling.
            balance_battle(pacer, session, self.clock.rtt(), &self.links.0);
        } else {
            pacer.stalled(now, session.frame());
            self.due = 0;
        }
        self.flush();
        stepped
    }

    #[cfg_attr(not(test), allow(dead_code))] // the tests drive it so
    /// One rendered frame in one call: [`BattleOnline::poll`], then every due frame. Returns
    /// the frames simulated.
    pub fn tick(&mut self, now: Instant, keys: &mut dyn FnMut(&Battle, Seat) -> Input) -> u32 {
        self.poll(now);
        let mut n = 0;
        while self.due > 0 && self.advance(now, keys) {
            n += 1;
        }
        self.flush();
        n
    }

    /// Sends what the session produced. Not while reconnecting: the match log rebuilds the
    /// session and it sends again from what the server has.
    pub(super) fn flush(&mut self) {
        if self.reconnect.is_some() {
            return;
        }
        let mut out = Vec::new();
        if let Some(session) = &mut self.session {
            while let Some(m) = session.poll_outgoing() {
                out.push(m);
            }
        }
        for m in out {
            self.send(m);
        }
    }

    pub(super) fn on_event(&mut self, event: NetEvent, at: Instant) {
        match event {
            NetEvent::Connected | NetEvent::Error(_) => {}
            NetEvent::Welcome { .. } => {
                self.welcomed = true;
                self.next_ping = at;
                self.identify();
                if self.reconnect.is_some() {
                    self.rejoin();
                } else if let Some(request) = self.request.take() {
                    self.ask(request);
                }
            }
            NetEvent::Disconnected(reason) => self.connection_lost(&reason, at),
            NetEvent::Message(m) => self.on_message(m, at),
        }
    }
}
