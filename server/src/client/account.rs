//! Account requests: the `Hello` handshake and the outcome of an identity request
//! (register, identify, recover, rename).

use super::*;

impl Client {
    pub(super) async fn hello(
        &mut self,
        version: u32,
        name: String,
        handling: Handling,
        resume: Option<u64>,
    ) {
        if version != PROTOCOL_VERSION {
            self.outbox.cut(connection::version_mismatch(version));
            return;
        }
        let now = crate::db::unix_now();
        if let Some(text) = self.shared.moderation.address_ban(self.tags.ip(), now) {
            self.shared.metrics.moderation("refused_address");
            self.outbox.cut(Cut::error(ErrorCode::Banned, text));
            return;
        }
        let name = match clean_display_name(&name) {
            Ok(name) => name,
            Err(e) => {
                self.outbox
                    .cut(Cut::error(ErrorCode::BadMessage, e.to_string()));
                return;
            }
        };
        if let Err(e) = handling.validate() {
            self.outbox
                .cut(Cut::error(ErrorCode::BadMessage, e.to_string()));
            return;
        }
        let shown = match &self.shared.db {
            Some(_) => identity::guest_name(&name),
            None => name.clone(),
        };
        self.hello = Some(Greeting {
            name: shown,
            typed: name.clone(),
            handling,
        });
        let server = format!(
            "{} (sevenbag-server {})",
            self.shared.config.server_name,
            env!("CARGO_PKG_VERSION")
        );
        self.outbox.send(&ServerMessage::Welcome {
            version: PROTOCOL_VERSION,
            server,
        });
        // The datagram path is offered at once (a client that does not know the message skips
        // it; one that does opens the session while it sets up its room).
        self.offer_datagrams();
        debug!(client = self.id, peer = %self.peer, %name, "hello");
        if let Some(token) = resume {
            self.resume(token).await;
        }
    }

    /// Sends the result of an identity request; on success the connection plays as it (and
    /// shows its name), unless it is banned: then it is refused, and the connection may not
    /// play at all.
    pub(super) async fn identified(&mut self, outcome: Result<identity::Outcome, Refusal>) {
        let outcome = outcome.and_then(|o| {
            let now = crate::db::unix_now();
            match self.shared.moderation.ban_of(o.identity.id, now) {
                Some(text) => {
                    self.shared.metrics.moderation("refused_banned");
                    self.banned = Some(text.clone());
                    Err((ErrorCode::Banned, text))
                }
                None => Ok(o),
            }
        });
        match outcome {
            Ok(o) => {
                let id = o.identity.id;
                let fresh = self.identity.is_none_or(|i| i.id != id);
                if let Some(old) = self.identity.filter(|i| i.id != id) {
                    self.shared.moderation.detach(old.id, self.id);
                }
                let control = self.control_tx.clone();
                self.shared.moderation.attach(
                    id,
                    self.id,
                    Box::new(move |n| {
                        !matches!(
                            control.try_send(Control::Moderation(n)),
                            Err(tokio::sync::mpsc::error::TrySendError::Closed(_))
                        )
                    }),
                );
                moderation::on_identified(&self.shared.services, &self.tags, id).await;
                if let Some(hello) = &mut self.hello {
                    // In rooms the identity's name is shown, not whatever `Hello` said.
                    hello.name = o.profile.name.clone();
                }
                self.identity = Some(o.identity);
                let message = match o.recovery_code {
                    Some(recovery_code) => ServerMessage::Registered {
                        profile: o.profile,
                        recovery_code,
                    },
                    None => ServerMessage::Identified { profile: o.profile },
                };
                self.outbox.send(&message);
                self.social_identified(fresh).await;
            }
            Err((code, message)) => self.error(code, message),
        }
    }
}
