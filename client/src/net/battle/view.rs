//! What the screen reads of a [`BattleOnline`]: the room, the match, the result, the target,
//! the chat.

use std::time::Duration;

use sevenbag_core::{Battle, Seat};
use sevenbag_netplay::BattleSession;
use sevenbag_protocol::moderation::ReportCategory;
use sevenbag_protocol::{BattleRoomOptions, ClientMessage, EndReason, SeatInfo};

use super::{BattleOnline, BattleResult, BattleStage};
use crate::net::online::chat::Chat;

impl BattleOnline {
    /// Where we stand.
    pub fn stage(&self) -> &BattleStage {
        &self.stage
    }

    /// The room code, once in the room.
    pub fn code(&self) -> Option<&str> {
        self.code.as_deref()
    }

    /// Our room seat (`None` as a spectator or before joining).
    pub fn seat(&self) -> Option<u8> {
        self.seat
    }

    /// Whether we watch rather than play.
    pub fn is_spectator(&self) -> bool {
        self.code.is_some() && self.seat.is_none()
    }

    /// The room's options.
    pub fn options(&self) -> Option<&BattleRoomOptions> {
        self.options.as_ref()
    }

    /// Who sits in each room seat.
    pub fn room(&self) -> &[Option<SeatInfo>] {
        &self.room
    }

    /// Who sits in the room seat that plays battle seat `seat` in the current match.
    pub fn room_seat_info(&self, seat: Seat) -> Option<&SeatInfo> {
        let room_seat = *self.room_seats.get(seat.index())?;
        self.room.get(usize::from(room_seat))?.as_ref()
    }

    /// Spectators in the room.
    pub fn spectators(&self) -> u16 {
        self.spectators
    }

    /// Each battle seat's name in the current (or last) match.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The session of the current (or last) match.
    pub fn session(&self) -> Option<&BattleSession> {
        self.session.as_ref()
    }

    /// The match to draw: predicted, or a blank one before the first match.
    pub fn battle(&self) -> &Battle {
        self.session.as_ref().map_or(&self.idle, |s| s.predicted())
    }

    /// Our battle seat in the current match.
    pub fn battle_seat(&self) -> Option<Seat> {
        let seat = self.seat?;
        let i = self.room_seats.iter().position(|&s| s == seat)?;
        Seat::new(i)
    }

    /// Matches started on this connection.
    pub fn matches_started(&self) -> u32 {
        self.matches_started
    }

    /// A match is running (started and not yet announced over).
    pub fn is_live(&self) -> bool {
        self.session.is_some() && self.result.is_none()
    }

    /// The server's result of the last match.
    pub fn result(&self) -> Option<&BattleResult> {
        self.result.as_ref()
    }

    /// Each team's round wins in the current (or last) match: the server's latest count
    /// (`BattleRoundOver`), else the confirmed match's last round end (a match log rebuilt
    /// after a restart of the game), else none.
    pub fn round_wins(&self) -> Vec<u8> {
        if !self.round_wins.is_empty() {
            return self.round_wins.clone();
        }
        let last = self.session.as_ref().and_then(|s| s.round_ends().last());
        last.map(|r| r.wins.to_vec()).unwrap_or_default()
    }

    /// Whether the boards stopped short of the server's end: the server ended the match on
    /// the boards (a top-out), our confirmed match is not decided, and the session can step no
    /// further (it waits for inputs that are not coming). Inputs arriving late move it on.
    pub fn stopped_short(&self) -> bool {
        let on_boards = self
            .result
            .as_ref()
            .is_some_and(|r| r.reason == EndReason::TopOut);
        on_boards
            && self
                .session
                .as_ref()
                .is_some_and(|s| !s.is_over() && !s.can_advance())
    }

    /// We sent `Ready` and wait for the next match.
    pub fn ready_sent(&self) -> bool {
        self.ready_sent
    }

    /// The round trip to the server, once measured.
    pub fn ping(&self) -> Option<Duration> {
        self.clock.rtt()
    }

    /// Which path carries our inputs now (the WebSocket while there is no connection).
    pub fn path(&self) -> sevenbag_netplay::TransportPath {
        self.net
            .as_ref()
            .map_or(sevenbag_netplay::TransportPath::WebSocket, |n| n.path())
    }

    /// The manual target we send with our keys.
    pub fn target(&self) -> Option<Seat> {
        self.target
    }

    /// Chooses the target sent with our keys from the next frame on (`None`: no choice).
    pub fn set_target(&mut self, target: Option<Seat>) {
        self.target = target;
    }

    /// Takes the notices to show once.
    pub fn take_notices(&mut self) -> Vec<String> {
        std::mem::take(&mut self.notices)
    }

    /// The room's chat.
    pub fn chat(&self) -> &Chat {
        &self.chat
    }

    /// The room's chat, to type in.
    pub fn chat_mut(&mut self) -> &mut Chat {
        &mut self.chat
    }

    /// Says `text` to the room (already cleaned by [`Chat::submit`]).
    pub fn say(&mut self, text: String) {
        if self.code.is_some() {
            self.send(ClientMessage::Chat { text });
        }
    }

    /// Blocks `name` (or unblocks them); the server keeps the list, and says so (or why not:
    /// blocks need an identity) in a notice.
    pub fn block(&mut self, name: &str, block: bool) {
        let name = name.to_owned();
        self.send(if block {
            ClientMessage::Block { name }
        } else {
            ClientMessage::Unblock { name }
        });
    }

    /// Asks the server for the replay it keeps under `id` (the last match's, to save it); it
    /// comes back through [`BattleOnline::take_replay`].
    pub fn fetch_replay(&mut self, id: &str) {
        self.send(ClientMessage::GetReplay { id: id.to_owned() });
    }

    /// The replay the server sent since the last call, if one came: its id and bytes.
    pub fn take_replay(&mut self) -> Option<(String, Vec<u8>)> {
        self.replay.take()
    }

    /// Reports `name` for `text`, with the last match's replay as the evidence when there is
    /// one; the server's answer (or refusal) is a notice.
    pub fn report(&mut self, name: &str, category: ReportCategory, text: &str) {
        let replay = self.result.as_ref().and_then(|r| r.replay.clone());
        self.send(ClientMessage::Report {
            name: name.to_owned(),
            replay,
            category,
            text: text.to_owned(),
        });
    }
}
