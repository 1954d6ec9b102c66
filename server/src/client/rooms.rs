//! Room and queue requests: resuming a seat, creating and joining rooms, quick, free-for-all
//! and ranked matchmaking, chat and leaving.

use super::*;

impl Client {
    pub(super) async fn resume(&mut self, token: u64) {
        let Some(member) = self.member() else { return };
        let refused = || {
            (
                ErrorCode::BadResume,
                "unknown or expired resume token; you are connected with no room",
            )
        };
        // A match that is over: the server's verdict first, so the client shows it.
        let late = |this: &Self| {
            if let Some(verdict) = lobby::verdict_for(&this.shared.lobby, token) {
                this.outbox.send(&verdict);
            }
            let (c, m) = refused();
            this.error(c, m);
        };
        let Some((code, handle)) = lobby::room_for_token(&self.shared.lobby, token) else {
            late(self);
            return;
        };
        let (reply, answer) = oneshot::channel();
        let command = RoomCommand::Resume {
            token,
            member,
            reply,
        };
        let seat = match handle.send(command).await {
            Ok(()) => tokio::time::timeout(ROOM_REPLY_TIMEOUT, answer)
                .await
                .ok()
                .and_then(Result::ok)
                .flatten(),
            Err(_) => None,
        };
        match seat {
            // `None` inside: the seat was played out while we were away; we watch instead.
            Some(seat) => self.room = Some(Membership { code, handle, seat }),
            None => late(self),
        }
    }

    pub(super) async fn create_room(&mut self, options: RoomOptions) {
        if !self.may_enter(false).await {
            return;
        }
        if let Err(e) = options.rules().validate() {
            self.error(ErrorCode::BadMessage, format!("bad room options: {e}"));
            return;
        }
        let Some(member) = self.member() else { return };
        self.unqueue();
        // In a cluster the code is in the directory before the creator hears it, so a friend
        // joining through another instance at once finds it (and no instance holds it yet).
        let reserved = match &self.shared.cluster {
            Some(cluster) => cluster.reserve_code(&self.shared.lobby).await,
            None => None,
        };
        match lobby::create_room(&self.shared.lobby, options, member, reserved) {
            Ok(membership) => self.room = Some(membership),
            Err((code, message)) => self.error(code, message),
        }
    }

    pub(super) async fn create_battle_room(
        &mut self,
        options: sevenbag_protocol::BattleRoomOptions,
    ) {
        if !self.may_enter(false).await {
            return;
        }
        if let Err(e) = options.validate() {
            self.error(ErrorCode::BadMessage, format!("bad room options: {e}"));
            return;
        }
        let Some(member) = self.member() else { return };
        self.unqueue();
        let reserved = match &self.shared.cluster {
            Some(cluster) => cluster.reserve_code(&self.shared.lobby).await,
            None => None,
        };
        match lobby::create_battle_room(&self.shared.lobby, options, member, reserved) {
            Ok(membership) => self.room = Some(membership),
            Err((code, message)) => self.error(code, message),
        }
    }

    pub(super) async fn join_room(&mut self, code: &str, role: JoinRole) {
        if !self.may_enter(false).await {
            return;
        }
        let Some(member) = self.member() else { return };
        let no_room = |code: &str| {
            (
                ErrorCode::NoSuchRoom,
                format!("no room {:?}", code.chars().take(16).collect::<String>()),
            )
        };
        let Some(normalised) = lobby::normalise_code(code) else {
            let (c, m) = no_room(code);
            self.error(c, m);
            return;
        };
        let Some(handle) = lobby::find_room(&self.shared.lobby, &normalised) else {
            // Another instance of the cluster may run it: send the client there.
            if let Some(cluster) = &self.shared.cluster
                && let Some(url) = cluster.locate_room(&normalised).await
            {
                self.unqueue();
                self.outbox.send(&ServerMessage::Redirect { url });
                return;
            }
            let (c, m) = no_room(code);
            self.error(c, m);
            return;
        };
        let code = normalised;
        self.unqueue();
        let (reply, answer) = oneshot::channel();
        let sent = handle
            .send(RoomCommand::Join {
                member,
                role,
                reply,
            })
            .await;
        let result = match sent {
            Ok(()) => tokio::time::timeout(ROOM_REPLY_TIMEOUT, answer)
                .await
                .ok()
                .and_then(Result::ok),
            Err(_) => None,
        };
        match result {
            Some(Ok(seat)) => self.room = Some(Membership { code, handle, seat }),
            Some(Err((c, m))) => self.error(c, m),
            None => {
                let (c, m) = no_room(&code);
                self.error(c, m);
            }
        }
    }

    pub(super) async fn quick_match(&mut self) {
        if !self.may_enter(true).await {
            return;
        }
        let Some(member) = self.member() else { return };
        let avoid = self.avoid(false).await;
        // Nobody waits here: an opponent waiting on another instance of the cluster comes
        // first, and this client is sent there (the local queue is for when nobody waits).
        if let Some(cluster) = &self.shared.cluster
            && !self.shared.draining.is_draining()
            && !lobby::has_quick_waiter(&self.shared.lobby)
            && let Some(url) = cluster.claim_quick().await
        {
            self.outbox.send(&ServerMessage::Redirect { url });
            return;
        }
        match lobby::quick_match(&self.shared.lobby, member, self.control_tx.clone(), avoid) {
            Ok(Some(membership)) => self.room = Some(membership),
            Ok(None) => self.queued = true,
            Err((code, message)) => self.error(code, message),
        }
    }

    /// Joins (`on`) or leaves the free-for-all queue (`crate::quick_battle`). Joining again
    /// while waiting only repeats the queue's state; leaving when not in it does nothing.
    pub(super) async fn quick_battle(&mut self, on: bool) {
        let waiting = self.queued && quick_battle::is_waiting(&self.shared.lobby, self.id);
        if !on {
            if waiting {
                self.unqueue();
            }
            return;
        }
        if waiting && let Some(member) = self.member() {
            quick_battle::tell(&self.shared.lobby, &member);
            return;
        }
        if !self.may_enter(false).await {
            return;
        }
        if self.queued {
            self.error(
                ErrorCode::BadMessage,
                "you wait in the versus queue; send LeaveRoom first",
            );
            return;
        }
        // Nobody waits here: the instance that gathers the cluster's free-for-all queue, if
        // another, takes this player at once.
        if let Some(cluster) = &self.shared.cluster
            && !self.shared.draining.is_draining()
            && quick_battle::waiting_summary(&self.shared.lobby).is_none()
            && let Some(url) = cluster.ffa_host().await
        {
            self.outbox.send(&ServerMessage::Redirect { url });
            return;
        }
        let Some(member) = self.member() else { return };
        let avoid = self.avoid(false).await;
        let control = self.control_tx.clone();
        match quick_battle::join(&self.shared.lobby, member, control, avoid) {
            Ok(()) => self.queued = true,
            Err((code, message)) => self.error(code, message),
        }
    }

    pub(super) async fn ranked_match(&mut self) {
        if !self.may_enter(true).await {
            return;
        }
        if self.tags.is_bot() && !self.shared.config.moderation.ranked_bots {
            self.shared.metrics.moderation("bot_refused");
            self.error(
                ErrorCode::BotRefused,
                "ranked play is for people: bots are welcome in rooms and quick match",
            );
            return;
        }
        if self.shared.db.is_none() {
            self.error(ErrorCode::Unavailable, "this server has no ranked play");
            return;
        }
        let Some(identity) = self.identity else {
            self.error(
                ErrorCode::NotIdentified,
                "ranked play needs an identity: Register or Identify first",
            );
            return;
        };
        let Some(member) = self.member() else { return };
        let avoid = self.avoid(true).await;
        match lobby::ranked_match(
            &self.shared.lobby,
            member,
            identity.rating,
            self.control_tx.clone(),
            avoid,
        ) {
            Ok(()) => {
                self.queued = true;
                self.ranked_queued = true;
            }
            Err((code, message)) => self.error(code, message),
        }
    }

    pub(super) async fn chat(&mut self, text: &str) {
        if self.room.is_none() {
            self.error(ErrorCode::BadMessage, "chat outside a room");
            return;
        }
        if !self.chat.take(Instant::now()) {
            let limits = &self.shared.config.limits;
            self.error(
                ErrorCode::RateLimited,
                format!(
                    "chat is limited to {} lines per second (burst {}); line dropped",
                    limits.chat_per_second, limits.chat_burst
                ),
            );
            return;
        }
        if let Some(player) = self.identity.map(|i| i.id)
            && let Some(why) = self
                .shared
                .moderation
                .mute_of(player, crate::db::unix_now())
        {
            self.shared.metrics.moderation("refused_muted");
            self.error(ErrorCode::Muted, why);
            return;
        }
        let Some(text) = clean_chat(text) else {
            self.error(
                ErrorCode::BadMessage,
                format!("a chat line is 1 to {MAX_CHAT_CHARS} visible characters"),
            );
            return;
        };
        let Some(name) = self.hello.as_ref().map(|h| h.name.clone()) else {
            return;
        };
        self.send_room(RoomCommand::Chat {
            client: self.id,
            name,
            text,
        })
        .await;
    }

    pub(super) async fn leave(&mut self) {
        if self.queued {
            self.unqueue();
            return;
        }
        match self.room.take() {
            Some(m) => {
                let _ = m.handle.send(RoomCommand::Leave { client: self.id }).await;
            }
            None => self.error(ErrorCode::BadMessage, "LeaveRoom outside a room"),
        }
    }
}
