//! The room as the lobby sees it: the server's messages outside the match (seats, ready flags,
//! chat, the replay list and downloads, errors, shutdown) and what the room card shows.

use sevenbag_netplay::time::Instant;

use sevenbag_core::Seat;
use sevenbag_netplay::{DriverEvent, RoomUpdate};
use sevenbag_protocol::moderation::ReportCategory;
use sevenbag_protocol::{ClientMessage, ErrorCode, ReplayListing, SeatStatus, ServerMessage};

use super::texts::error_text;
use super::{BOT_MARK, Driver, Online, Stage, who};
use crate::match_source::Peer;

impl Online {
    /// We sent `Ready` and wait for the next `MatchStart`.
    pub fn ready_sent(&self) -> bool {
        self.ready_sent
    }

    /// The server's replay list (after [`Request::ListReplays`] or [`Online::list_replays`]).
    pub fn replay_list(&self) -> &[ReplayListing] {
        &self.replay_list
    }

    /// Takes a replay the server sent (id and file bytes).
    pub fn take_replay(&mut self) -> Option<(String, Vec<u8>)> {
        self.replay.take()
    }

    /// Tells the player when someone else's connection drops and when they are back.
    pub(super) fn note_peer(
        &mut self,
        seat: Seat,
        name: &str,
        before: SeatStatus,
        after: SeatStatus,
    ) {
        if self.seat() == Some(seat) {
            return;
        }
        self.notices
            .extend(super::texts::peer_notice(name, before, after));
    }

    /// A `Reconnecting { seconds_left }` heard for `seat`, counted down to `now` (to zero).
    pub fn seconds_left(&self, seat: Seat, heard: u8, now: Instant) -> u32 {
        let passed = now.saturating_duration_since(self.status_heard[seat.index()]);
        u32::from(heard).saturating_sub(passed.as_secs() as u32)
    }

    /// Each seat's connection as the name plate shows it.
    pub fn peers(&self) -> [Peer; 2] {
        [Seat::First, Seat::Second].map(|seat| {
            if self.match_driver.seat() == Some(seat) {
                return Peer::Local;
            }
            match self.room.seats()[seat.index()].as_ref().map(|s| s.status) {
                Some(SeatStatus::Connected) => Peer::Connected,
                Some(SeatStatus::Reconnecting { seconds_left }) => Peer::Reconnecting {
                    seconds_left: self.seconds_left(seat, seconds_left, Instant::now()),
                },
                Some(SeatStatus::Forfeited) | None => Peer::Left,
            }
        })
    }

    /// Says we are ready for the next match (also the rematch). Once per match.
    pub fn ready(&mut self) {
        if self.match_driver.seat().is_some() && !self.ready_sent && !self.match_driver.is_live() {
            self.send(ClientMessage::Ready);
            self.ready_sent = true;
        }
    }

    /// The room's chat.
    pub fn chat(&self) -> &crate::net::online::chat::Chat {
        &self.chat
    }

    /// The room's chat, to type in.
    pub fn chat_mut(&mut self) -> &mut crate::net::online::chat::Chat {
        &mut self.chat
    }

    /// Says `text` to the room (already cleaned by [`crate::net::online::chat::Chat::submit`]).
    pub fn say(&mut self, text: String) {
        if self.code().is_some() {
            self.send(ClientMessage::Chat { text });
        }
    }

    /// Reports `name` for `text`, with the last match's replay as the evidence when there is
    /// one; the server answers `Reported` (a notice) or an error (a notice too).
    pub fn report(&mut self, name: &str, category: ReportCategory, text: &str) {
        if let Some(why) = self.who.refusal() {
            self.notices.push(why);
            return;
        }
        let replay = self.outcome().and_then(|o| o.replay.clone());
        self.send(ClientMessage::Report {
            name: name.to_owned(),
            replay,
            category,
            text: text.to_owned(),
        });
    }

    /// Blocks `name` (or unblocks them): the server keeps the list and answers with it.
    pub fn block(&mut self, name: &str, block: bool) {
        if let Some(why) = self.who.refusal() {
            self.notices.push(why);
            return;
        }
        let name = name.to_owned();
        self.send(if block {
            ClientMessage::Block { name }
        } else {
            ClientMessage::Unblock { name }
        });
    }

    /// Invites friend `name` into this room (the server sends them a notification with its
    /// code); the answer, `Invited` or a refusal, comes back as a notice.
    pub fn invite(&mut self, name: &str) {
        let Some(code) = self.code().map(str::to_owned) else {
            return;
        };
        if let Some(why) = self.who.invite_refusal() {
            self.notices.push(why);
            return;
        }
        let name = name.to_owned();
        self.send(ClientMessage::InviteFriend { name, code });
    }

    /// Asks `name` to be friends (the result card's A); the server's answer (sent, friends
    /// already...) or a refusal comes back as a notice.
    pub fn befriend(&mut self, name: &str) {
        match self.who.friend_request(name) {
            Ok(request) => self.send(request),
            Err(why) => self.notices.push(why),
        }
    }

    /// Whether this connection may invite friends into its room now (identified, in a room).
    pub fn may_invite(&self) -> bool {
        self.code().is_some() && self.who.invite_refusal().is_none()
    }

    /// Asks for replay `id`; it arrives through [`Online::take_replay`].
    pub fn fetch_replay(&mut self, id: &str) {
        self.send(ClientMessage::GetReplay { id: id.to_owned() });
    }

    pub(super) fn on_message(&mut self, message: ServerMessage, at: Instant) {
        // A ranked request identifies in its own exchange: our skin follows its answer,
        // before the queue request the exchange sends next.
        if matches!(
            message,
            ServerMessage::Identified { .. } | ServerMessage::Registered { .. }
        ) && let Some(publish) = self.skins.publish()
        {
            self.send(publish);
        }
        if self.who.hear(&message) {
            return;
        }
        let heard = self.skins.hear(&message);
        for request in heard.send {
            self.send(request);
        }
        self.notices.extend(heard.notice);
        if heard.consumed {
            return;
        }
        if let Some(flow) = &mut self.ranked {
            let step = flow.on_message(&message, &self.hello.name);
            self.notices.extend(step.notices);
            for m in step.send {
                self.send(m);
            }
            if step.consumed {
                return;
            }
        }
        // A match log after a reconnect ends it, whatever the log does.
        let resumed =
            matches!(message, ServerMessage::MatchLog { .. }) && self.reconnect.take().is_some();
        match self.match_driver.handle(&message, at) {
            DriverEvent::Other => {}
            DriverEvent::Started => {
                self.ready_sent = false;
                if let Driver::Keys(_, latch) = &mut self.driver {
                    latch.reset();
                }
                return;
            }
            // Our own match, after a reconnect or a desync (only a log sets `resumed`).
            DriverEvent::Rebuilt
            | DriverEvent::Refused {
                new_match: false, ..
            } => {
                if resumed {
                    self.notices.push("Reconnected.".to_owned());
                    self.flush();
                }
                return;
            }
            DriverEvent::Refused {
                error,
                new_match: true,
            } => {
                self.notices
                    .push(format!("The match log was refused: {error}"));
                return;
            }
            DriverEvent::Over => {
                self.ready_sent = false;
                self.flush();
                return;
            }
            DriverEvent::Applied => return,
        }
        if let Some(RoomUpdate::Seats { changes, .. }) = self.room.apply(&message) {
            for c in changes {
                self.note_peer(c.seat, &c.name, c.before, c.after);
            }
        }
        match message {
            ServerMessage::Error {
                code,
                message,
                fatal,
            } => {
                if code == ErrorCode::BadResume && self.reconnect.is_some() {
                    self.seat_gone();
                    return;
                }
                let text = error_text(code, &message);
                let in_lobby = self.code().is_none();
                if fatal || (in_lobby && code != ErrorCode::NoSuchReplay) {
                    self.match_driver.stop();
                    self.fail(text);
                } else {
                    self.notices.push(text);
                }
            }
            // The room tracker noted the room, the match driver our seat.
            ServerMessage::Joined { .. } => {
                self.redirects.reset();
                self.stage = Stage::InRoom;
            }
            ServerMessage::Redirect { url } => self.follow_redirect(&url),
            ServerMessage::BattleJoined {
                code,
                seat,
                options,
                resume,
            } => {
                self.redirects.reset();
                self.stage = Stage::InRoom;
                self.battle = Some((code, seat, options, resume));
            }
            ServerMessage::RoomState { seats, .. } => {
                // Ready flags clear after a match: we may ready again.
                let me_ready = self
                    .match_driver
                    .seat()
                    .and_then(|s| seats[s.index()].as_ref())
                    .is_some_and(|s| s.ready);
                if !me_ready
                    && !self.match_driver.is_live()
                    && self.match_driver.match_result().is_some()
                {
                    self.ready_sent = false;
                }
                if me_ready {
                    self.ready_sent = true;
                }
                self.status_heard = [Instant::now(); 2];
            }
            ServerMessage::SeatStatus { seat, .. } if self.room.seats()[seat.index()].is_some() => {
                self.status_heard[seat.index()] = Instant::now();
            }
            ServerMessage::Chat { from, seat, text } => {
                self.chat.hear(from, seat, text, Instant::now());
            }
            ServerMessage::BotChat { from, seat, text } => {
                self.chat
                    .hear(format!("{from} {BOT_MARK}"), seat, text, Instant::now());
            }
            ServerMessage::SeatMarks { bots } => {
                self.bots = [0, 1].map(|i| bots.get(i).copied().unwrap_or(false));
            }
            ServerMessage::Reported => self.notices.push(who::REPORT_SENT.to_owned()),
            ServerMessage::Blocked { names } => self.notices.push(who::blocked_text(&names)),
            ServerMessage::Invited { name, code } => self
                .notices
                .push(crate::net::online::who::invited_text(&name, &code)),
            ServerMessage::FriendRequestSent { name, result } => self
                .notices
                .push(crate::net::online::who::sent_text(&name, result).0),
            ServerMessage::ReplayList { list } => self.replay_list = list,
            ServerMessage::Replay { id, bytes } => self.replay = Some((id, bytes)),
            ServerMessage::Shutdown { reason } if self.can_resume() => {
                // A drained server keeps this match's room log and takes it up when it starts
                // again: the connection loss that follows starts the usual reconnect, which
                // gives up when the room's window has passed.
                self.notices.push(format!(
                    "The server is restarting ({reason}); reconnecting…"
                ));
            }
            ServerMessage::Shutdown { reason } => {
                self.match_driver.stop();
                self.fail(format!("The server is shutting down: {reason}."));
            }
            // The match messages are the match driver's; the net task answers `Ping` itself.
            _ => {}
        }
    }
}
