//! Who a [`BattleOnline`] plays as, and inviting a friend into its room. With the player key
//! the connection identifies on every welcome, before its request (the server answers in
//! order), as the two-seat controller does: the seat then shows the identity's name, and the
//! server takes `InviteFriend` from it, which it takes only from an identified connection
//! seated in the room the invite names. A friend request (the result card's A) goes on the
//! same connection.

use sevenbag_protocol::{ClientMessage, ServerMessage};

use super::BattleOnline;
use crate::net::online::who::{REPORT_SENT, Who, blocked_text, invited_text, sent_text};

impl BattleOnline {
    /// Publishes the skin file `png` after identifying, instead of the skin in force (a
    /// capture's bots, each in a skin of its own).
    pub fn wearing(mut self, png: Vec<u8>) -> BattleOnline {
        self.skins = crate::net::skins::SkinBook::wearing(png);
        self
    }

    /// Identifies with `key` (the player's) on every welcome; `None` stays a guest.
    pub fn with_key(mut self, key: Option<[u8; 32]>) -> BattleOnline {
        self.key = key;
        self
    }

    /// Invites friend `name` once the room exists and the identity is settled (a challenge
    /// from the Friends screen); a guest's refusal becomes a notice.
    pub fn inviting(mut self, name: Option<String>) -> BattleOnline {
        self.invite_on_arrival = name;
        self
    }

    /// Sends the invite [`BattleOnline::inviting`] asked for, when it is due.
    pub(super) fn send_invite_on_arrival(&mut self) {
        if self.invite_on_arrival.is_none() || self.code.is_none() || self.who == Who::Asking {
            return;
        }
        if let Some(name) = self.invite_on_arrival.take() {
            self.invite(&name);
        }
    }

    /// Sends `Identify` when there is a key (a new connection is a guest until then), then
    /// publishes our skin ([`crate::net::skins`]).
    pub(super) fn identify(&mut self) {
        self.who = Who::Guest;
        self.skins.reconnected();
        if let Some(key) = self.key {
            self.who = Who::Asking;
            self.send(ClientMessage::Identify { key });
            if let Some(publish) = self.skins.publish() {
                self.send(publish);
            }
        }
    }

    /// Takes the answer to our `Identify`, to an invite, and what is about skins; true when
    /// `m` was one of them.
    pub(super) fn hear_social(&mut self, m: &ServerMessage) -> bool {
        // The server tells an identity its new profile after a rated match.
        if let ServerMessage::Identified { profile } = m
            && let Some(old) = self.profile.replace(profile.clone())
            && old.games != profile.games
        {
            self.notices
                .push(crate::identity::rating_change(old.rating, profile));
        }
        if self.who.hear(m) {
            return true;
        }
        let heard = self.skins.hear(m);
        for request in heard.send {
            self.send(request);
        }
        self.notices.extend(heard.notice);
        if heard.consumed {
            return true;
        }
        match m {
            ServerMessage::Invited { name, code } => self.notices.push(invited_text(name, code)),
            ServerMessage::Reported => self.notices.push(REPORT_SENT.to_owned()),
            ServerMessage::Blocked { names } => self.notices.push(blocked_text(names)),
            ServerMessage::FriendRequestSent { name, result } => {
                self.notices.push(sent_text(name, *result).0)
            }
            _ => return false,
        }
        true
    }

    /// Whose blocks battle seat `seat`'s board is drawn with: ours, or the skin its
    /// player wears if it is known here.
    pub fn board_skin(&self, seat: sevenbag_core::Seat) -> crate::match_source::BoardSkin<'_> {
        if self.battle_seat() == Some(seat) {
            return crate::match_source::BoardSkin::Yours;
        }
        let room_seat = self.room_seats.get(seat.index()).copied();
        crate::match_source::BoardSkin::Theirs(
            room_seat.and_then(|r| self.skins.worn(usize::from(r))),
        )
    }

    /// Whether a friend may be invited now: identified, in the room.
    pub fn may_invite(&self) -> bool {
        self.code.is_some() && self.who.invite_refusal().is_none()
    }

    /// Invites friend `name` into this room; the answer (`Invited` or a refusal) comes back as
    /// a notice.
    pub fn invite(&mut self, name: &str) {
        let Some(code) = self.code.clone() else {
            return;
        };
        if let Some(why) = self.who.invite_refusal() {
            self.notices.push(why);
            return;
        }
        let name = name.to_owned();
        self.send(ClientMessage::InviteFriend { name, code });
    }

    /// Asks `name` to be friends; the server's answer (sent, friends already...) or a
    /// refusal comes back as a notice.
    pub fn befriend(&mut self, name: &str) {
        match self.who.friend_request(name) {
            Ok(request) => self.send(request),
            Err(why) => self.notices.push(why),
        }
    }
}
