//! The connection's own life: the welcome (and the request it triggers), a lost connection and
//! the reconnect that follows it, a cluster's redirects, and leaving.

use sevenbag_netplay::time::Instant;
use std::time::Duration;

use sevenbag_netplay::{Hello, NetEvent};
use sevenbag_protocol::{ClientMessage, JoinRole};

use super::texts::{disconnected_text, reach_text};
use super::transport::{RedirectError, open, redirect};
use super::who::Who;
use super::{Driver, Online, Request, Stage};
use crate::net::online::reconnect::{LOST_MATCH, Reconnect, SEAT_GONE, UNREACHABLE};

impl Online {
    /// While the connection is lost mid-match: the whole seconds left of the room's reconnect
    /// window (0 once it has passed and the server is still out of reach).
    pub fn reconnecting(&self, now: Instant) -> Option<u32> {
        self.reconnect.as_ref().map(|r| r.seconds_left(now))
    }

    /// While reconnecting: whether the room's window has passed (the server decides the match;
    /// we keep trying to hear it).
    pub fn reconnect_window_passed(&self, now: Instant) -> bool {
        self.reconnect
            .as_ref()
            .is_some_and(|r| r.window_passed(now))
    }

    /// Connection attempts of the current reconnect (0 when not reconnecting).
    pub fn reconnect_attempts(&self) -> u32 {
        self.reconnect.as_ref().map_or(0, Reconnect::attempts)
    }

    /// Leaves the room (forfeiting a running match) and closes the connection politely. While
    /// reconnecting there is no connection to tell: the attempt stops and the seat lapses.
    pub fn leave(&mut self) {
        let reconnecting = self.reconnect.take().is_some();
        if !reconnecting && (self.code().is_some() || matches!(self.stage, Stage::Waiting)) {
            self.send(ClientMessage::LeaveRoom);
        }
        self.match_driver.stop();
        if let Some(net) = &self.net {
            net.close();
        }
    }

    pub(super) fn send(&mut self, message: ClientMessage) {
        let sent = self.net.as_ref().is_some_and(|n| n.send(message).is_ok());
        if !sent && !matches!(self.stage, Stage::Failed(_)) {
            self.fail("The connection to the server is closed.".to_owned());
        }
    }

    pub(super) fn fail(&mut self, message: String) {
        tracing::info!(%message, "online");
        self.stage = Stage::Failed(message);
    }

    pub(super) fn on_event(&mut self, event: NetEvent, at: Instant) {
        match event {
            NetEvent::Connected => {}
            NetEvent::Welcome { server, .. } => {
                self.welcomed = true;
                self.server_name = server;
                self.next_ping = at;
                // A ranked request identifies in its own exchange; every other connection does
                // it here, before its request (the server answers in order). A new connection
                // after a loss is a guest again until it does.
                let ranked_first = self.reconnect.is_none() && self.ranked.is_some();
                self.who = Who::Guest;
                self.skins.reconnected();
                if let Some(key) = self.key.filter(|_| !ranked_first) {
                    self.who = Who::Asking;
                    self.send(ClientMessage::Identify { key });
                    // Our skin, worn before the request below (the server answers in order).
                    if let Some(publish) = self.skins.publish() {
                        self.send(publish);
                    }
                }
                if self.reconnect.is_some() {
                    // A player's resume token in our hello does the asking: `Joined` and the
                    // match log follow by themselves. A spectator asks to watch again; the
                    // match log it gets on joining rebuilds the boards.
                    if let Some(code) = self.code().filter(|_| self.spectating()) {
                        let code = code.to_owned();
                        self.send(ClientMessage::JoinRoom {
                            code,
                            role: JoinRole::Spectator,
                        });
                    }
                    return;
                }
                // An automatic player (the online demo's) is a program: it says so, and the
                // server marks its name as a bot wherever it shows.
                if matches!(self.driver, Driver::Auto(_)) {
                    self.send(ClientMessage::DeclareBot);
                }
                let request = match &self.request {
                    Request::QuickMatch => ClientMessage::QuickMatch,
                    Request::Create(options) => ClientMessage::CreateRoom { options: *options },
                    Request::Join(code) => ClientMessage::JoinRoom {
                        code: code.trim().to_owned(),
                        role: JoinRole::Player,
                    },
                    Request::Spectate(code) => ClientMessage::JoinRoom {
                        code: code.trim().to_owned(),
                        role: JoinRole::Spectator,
                    },
                    Request::ListReplays => ClientMessage::ListReplayInfo,
                    Request::Ranked(key) => match &mut self.ranked {
                        Some(flow) => flow.on_welcome(),
                        None => ClientMessage::Identify { key: *key },
                    },
                };
                self.stage = if self.request == Request::ListReplays {
                    Stage::Browsing
                } else {
                    Stage::Waiting
                };
                self.send(request);
            }
            NetEvent::Message(m) => self.on_message(m, at),
            // Not the end of the connection (a frame that did not decode); `Disconnected`
            // follows if it was.
            NetEvent::Error(e) => tracing::warn!("network: {e}"),
            NetEvent::Disconnected(reason) => {
                let was_welcomed = std::mem::replace(&mut self.welcomed, false);
                if let Some(r) = &mut self.reconnect {
                    tracing::info!(%reason, "reconnect attempt failed");
                    r.failed();
                    return;
                }
                if self.can_resume() {
                    tracing::info!(%reason, "connection lost mid-match; reconnecting");
                    let window = self.options().map_or(0, |o| u64::from(o.reconnect_seconds));
                    // Past the window too, while the server is out of reach: a restarting
                    // server takes the match back, and only it says how the match ended.
                    self.reconnect = Some(Reconnect::new(
                        at,
                        Duration::from_secs(window),
                        self.reach_allowance,
                    ));
                    return;
                }
                self.match_driver.stop();
                if matches!(self.stage, Stage::Failed(_)) {
                    return;
                }
                let text = if was_welcomed {
                    disconnected_text(&reason)
                } else {
                    reach_text(&self.url, &reason)
                };
                self.fail(text);
            }
        }
    }

    /// Another instance of the server's cluster serves our request: connect there (no resume
    /// token) and make the request again once welcomed. A bad URL or a loop of redirects ends
    /// in a failure that says so.
    pub(super) fn follow_redirect(&mut self, url: &str) {
        let old = self.net.as_deref();
        match redirect(&mut self.redirects, old, url, self.hello.clone()) {
            Ok((link, url)) => {
                self.net = Some(link);
                self.url = url;
                self.welcomed = false;
                self.stage = Stage::Connecting;
            }
            Err(RedirectError::Refused(e)) => self.fail(format!("Cannot reach the match: {e}.")),
            Err(RedirectError::Open(e)) => self.fail(e),
        }
    }

    /// Whether a dropped connection should be resumed: a match running in a room we are in (a
    /// seated player comes back with its token, a spectator joins by code again), and no fatal
    /// error or clean leave before.
    pub(super) fn can_resume(&self) -> bool {
        self.match_driver.is_live()
            && self.room.room().is_some()
            && !matches!(self.stage, Stage::Failed(_))
    }

    /// Whether we watch rather than play (a spectator's reconnect rejoins by code).
    pub(super) fn spectating(&self) -> bool {
        self.room.room().is_some_and(|r| r.seat.is_none())
    }

    /// While reconnecting: gives up once the window passed, else starts an attempt when due.
    pub(super) fn keep_reconnecting(&mut self, now: Instant) {
        let Some(r) = &mut self.reconnect else {
            return;
        };
        if r.expired(now) {
            self.give_up(UNREACHABLE);
            return;
        }
        if !r.due(now) {
            return;
        }
        r.started(now);
        let hello = Hello {
            resume: self
                .room
                .room()
                .filter(|r| r.seat.is_some())
                .map(|r| r.resume),
            ..self.hello.clone()
        };
        match open(&self.url, hello) {
            Ok(link) => {
                // Dropping the old link ends it; its late events are not wanted.
                self.net = Some(link);
            }
            Err(e) => {
                self.reconnect = None;
                self.match_driver.stop();
                self.fail(e);
            }
        }
    }

    /// The reconnect is over without the match: a spectator lost it; a player shows the
    /// server's verdict if it sent one (a `MatchOver` or `MatchVoid` for our token), else
    /// `why` (never a result of its own).
    pub(super) fn give_up(&mut self, why: &str) {
        let text = if self.spectating() {
            LOST_MATCH.to_owned()
        } else {
            super::texts::verdict_text(
                self.outcome(),
                self.void_result(),
                &self.names(),
                self.seat(),
            )
            .unwrap_or_else(|| why.to_owned())
        };
        self.reconnect = None;
        self.match_driver.stop();
        if let Some(net) = self.net.take() {
            net.close();
        }
        self.fail(text);
    }

    /// The server refused our resume token: the seat is gone.
    pub(super) fn seat_gone(&mut self) {
        self.give_up(SEAT_GONE);
    }
}
