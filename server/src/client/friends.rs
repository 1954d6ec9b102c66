//! Friends, presence and notifications: the social requests checked for an identity, a
//! rate and a mute, then handed to `crate::social`; and where this connection is, told to
//! the presence book whenever it changes.

use super::*;

impl Client {
    /// Answers one of the social requests (`SendFriendRequest` to `InviteFriend`).
    pub(super) async fn social(&mut self, request: ClientMessage) {
        let (Some(identity), Some(hello)) = (self.identity, &self.hello) else {
            self.error(
                ErrorCode::NotIdentified,
                "friends need an identity: Register or Identify first",
            );
            return;
        };
        let me = social::Me {
            id: identity.id,
            name: hello.name.clone(),
        };
        let kind = match &request {
            ClientMessage::SendFriendRequest { .. }
            | ClientMessage::AnswerFriendRequest { .. }
            | ClientMessage::CancelFriendRequest { .. }
            | ClientMessage::RemoveFriend { .. } => Some(social::Kind::Request),
            ClientMessage::InviteFriend { .. } => Some(social::Kind::Invite),
            ClientMessage::DirectMessage { .. } => Some(social::Kind::Message),
            _ => None,
        };
        if let Some(kind) = kind
            && let Err(flood) = self.social.take(kind, Instant::now())
        {
            match flood {
                social::Flood::Refused(text) => self.error(social::FLOOD_CODE, text),
                social::Flood::Cut(text) => {
                    self.outbox.cut(Cut::error(social::FLOOD_CODE, text));
                }
            }
            return;
        }
        if matches!(
            request,
            ClientMessage::DirectMessage { .. } | ClientMessage::InviteFriend { .. }
        ) && let Some(why) = self.shared.moderation.mute_of(me.id, crate::db::unix_now())
        {
            self.shared.metrics.moderation("refused_muted");
            self.error(ErrorCode::Muted, why);
            return;
        }
        let room = self.room.as_ref().map(|m| m.code.clone());
        let presence = self.shared.presence.clone();
        let outbox = &self.outbox;
        let answered =
            social::handle(&self.shared.services, &presence, me, room, outbox, request).await;
        if let Err((code, message)) = answered {
            self.error(code, message);
        }
    }

    /// Joins the presence book as the identity just taken (or renamed), with its friends,
    /// and sends its unseen notifications not yet shown when the identity is `fresh` on this
    /// connection (invites only to rooms still open).
    pub(super) async fn social_identified(&mut self, fresh: bool) {
        let (Some(identity), Some(hello)) = (self.identity, &self.hello) else {
            return;
        };
        let me = social::Me {
            id: identity.id,
            name: hello.name.clone(),
        };
        self.shown_place = None;
        let presence = self.shared.presence.clone();
        let (services, outbox) = (&self.shared.services, &self.outbox);
        // A room on another instance of a cluster is not known here: its invites are told.
        let (lobby, cluster) = (&self.shared.lobby, self.shared.cluster.is_some());
        let open = |code: &str| cluster || crate::lobby::find_room(lobby, code).is_some();
        social::on_identified(services, &presence, self.id, outbox, me, fresh, &open).await;
        self.publish_presence();
    }

    /// Tells the presence book where this connection is, if that changed.
    pub(super) fn publish_presence(&mut self) {
        if self.identity.is_none() {
            return;
        }
        // Called after every message (inputs included): compared in place, built only when
        // it changed.
        let ranked = |code: &str| self.ranked_room.as_deref() == Some(code);
        let same = match (&self.room, &self.shown_place) {
            (None, None) => true,
            (Some(m), Some(p)) => {
                p.code == m.code && p.spectator == m.seat.is_none() && p.ranked == ranked(&m.code)
            }
            _ => false,
        };
        if same {
            return;
        }
        let place = self.room.as_ref().map(|m| social::Place {
            code: m.code.clone(),
            spectator: m.seat.is_none(),
            ranked: self.ranked_room.as_deref() == Some(m.code.as_str()),
            versus: m.handle.seats() == 2,
        });
        self.shown_place = place.clone();
        self.shared.presence.place(self.id, place);
    }
}
