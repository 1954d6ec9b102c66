//! Every message a client may send after `Hello`, handed to the code that answers it.

use super::*;

impl Client {
    pub(super) async fn handle(&mut self, message: ClientMessage) {
        if self.hello.is_none() {
            match message {
                ClientMessage::Hello {
                    version,
                    name,
                    handling,
                    resume,
                } => self.hello(version, name, handling, resume).await,
                _ => self.outbox.cut(Cut::error(
                    ErrorCode::BadMessage,
                    "the first message must be Hello",
                )),
            }
            return;
        }
        match message {
            ClientMessage::Hello { .. } => {
                self.error(ErrorCode::BadMessage, "Hello was already received")
            }
            ClientMessage::CreateRoom { options } => self.create_room(options).await,
            ClientMessage::JoinRoom { code, role } => self.join_room(&code, role).await,
            ClientMessage::QuickMatch => self.quick_match().await,
            ClientMessage::LeaveRoom => self.leave().await,
            ClientMessage::Ready => {
                if self.room.is_some() {
                    self.send_room(RoomCommand::Ready { client: self.id }).await;
                } else {
                    self.error(ErrorCode::BadMessage, "Ready outside a room");
                }
            }
            ClientMessage::Inputs { changes, confirmed } => {
                // The seat is the connection's: a client cannot name another. A spectator is
                // refused by the room (it knows who is watching).
                self.send_inputs(RoomCommand::Inputs {
                    client: self.id,
                    changes,
                    confirmed,
                })
                .await;
            }
            ClientMessage::StateHash { frame, hash } => {
                self.send_seated(RoomCommand::StateHash {
                    client: self.id,
                    frame,
                    hash,
                })
                .await;
            }
            ClientMessage::Ping { nonce } => {
                if self.pings.take(Instant::now()) {
                    let server_ms = self.shared.epoch.elapsed().as_millis() as u64;
                    self.outbox.send(&ServerMessage::Pong { nonce, server_ms });
                } else {
                    debug!(client = self.id, "client ping over its rate; not answered");
                }
            }
            ClientMessage::Pong { .. } => {}
            ClientMessage::ListReplays => {
                let list = self
                    .shared
                    .replays
                    .list(self.shared.config.limits.max_replay_list);
                self.outbox.send(&ServerMessage::Replays { list });
            }
            ClientMessage::ListReplayInfo => {
                let list = self
                    .shared
                    .replays
                    .list_info(self.shared.config.limits.max_replay_list);
                self.outbox.send(&ServerMessage::ReplayList { list });
            }
            ClientMessage::GetSoloLeaderboard { mode, limit } => {
                match solo_boards::leaderboard(&self.shared, self.identity, mode, limit).await {
                    Ok((rows, you)) => {
                        let board = ServerMessage::SoloLeaderboard { mode, rows, you };
                        self.outbox.send(&board);
                    }
                    Err((code, message)) => self.error(code, message),
                }
            }
            ClientMessage::GetSoloReplay { mode, name } => {
                match solo_boards::replay(&self.shared, mode, &name).await {
                    Ok(bytes) => {
                        let file = ServerMessage::SoloRecordReplay { mode, name, bytes };
                        self.outbox.send(&file);
                    }
                    Err((code, message)) => self.error(code, message),
                }
            }
            ClientMessage::GetReplay { id } => match self.shared.replays.get(&id).await {
                Ok(bytes) => {
                    self.outbox.send(&ServerMessage::Replay { id, bytes });
                }
                Err(e) => self.error(ErrorCode::NoSuchReplay, e.to_string()),
            },
            ClientMessage::Register { key, name } => {
                if self.refused_by_ban() {
                    return;
                }
                let limits = &self.shared.config.moderation;
                let from = identity::Origin {
                    address: self.tags.address_key().to_string(),
                    per_hour: limits.registrations_per_hour,
                    per_day: limits.registrations_per_day,
                };
                let outcome = identity::register(&self.shared, key, &name, from).await;
                if let Err((ErrorCode::RateLimited, _)) = &outcome {
                    self.shared.metrics.moderation("registration_limited");
                }
                self.identified(outcome).await;
            }
            ClientMessage::Identify { key } => {
                let outcome = identity::identify(&self.shared, key).await;
                self.identified(outcome).await;
            }
            ClientMessage::Recover { code, key } => {
                let outcome = identity::recover(&self.shared, &code, key).await;
                self.identified(outcome).await;
            }
            ClientMessage::Rename { name } => {
                let outcome = identity::rename(&self.shared, self.identity, &name).await;
                self.identified(outcome).await;
            }
            ClientMessage::RankedMatch => self.ranked_match().await,
            ClientMessage::Chat { text } => self.chat(&text).await,
            ClientMessage::GetLeaderboard { limit } => {
                match standings::leaderboard(&self.shared, limit).await {
                    Ok(players) => {
                        self.outbox.send(&ServerMessage::Leaderboard { players });
                    }
                    Err((code, message)) => self.error(code, message),
                }
            }
            ClientMessage::GetProfile { name } => {
                match standings::profile(&self.shared, &name).await {
                    Ok((profile, recent)) => {
                        self.outbox
                            .send(&ServerMessage::PlayerProfile { profile, recent });
                        if let Some((bot, opponents)) =
                            moderation::profile_marks(&self.shared.services, &name).await
                        {
                            self.outbox
                                .send(&ServerMessage::ProfileMarks { bot, opponents });
                        }
                    }
                    Err((code, message)) => self.error(code, message),
                }
            }
            ClientMessage::GetPlayerStats { name, last } => {
                match standings::player_stats(&self.shared, &name, last).await {
                    Ok(stats) => {
                        self.outbox.send(&ServerMessage::PlayerStats { stats });
                    }
                    Err((code, message)) => self.error(code, message),
                }
            }
            ClientMessage::GetMatchDetail { id } => {
                match standings::match_detail(&self.shared, id).await {
                    Ok(detail) => {
                        self.outbox.send(&ServerMessage::MatchDetail {
                            detail: Box::new(detail),
                        });
                    }
                    Err((code, message)) => self.error(code, message),
                }
            }
            ClientMessage::Datagrams { on } => self.datagrams(on),
            ClientMessage::InputsFrom {
                from,
                changes,
                confirmed,
            } => {
                self.send_inputs(RoomCommand::InputsFrom {
                    client: self.id,
                    from,
                    changes,
                    confirmed,
                })
                .await;
            }
            // Rewritten as `Inputs` by the reader before `handle`; never seen here.
            ClientMessage::InputsSince { .. }
            | ClientMessage::BattleInputsSince { .. }
            | ClientMessage::BattleKeysSince { .. } => {
                self.error(ErrorCode::BadMessage, "compact inputs out of place")
            }
            ClientMessage::SubmitSolo { replay } => {
                if self.tags.is_bot() {
                    self.shared.metrics.moderation("bot_refused");
                    self.error(
                        ErrorCode::BotRefused,
                        "records are for people: a declared bot's runs are not recorded",
                    );
                    return;
                }
                match solo_records::submit(&self.shared, self.identity, replay).await {
                    Ok((result, outcome)) => {
                        self.outbox.send(&ServerMessage::SoloRecorded {
                            result,
                            personal_best: outcome.personal_best,
                            place: u32::try_from(outcome.place).unwrap_or(u32::MAX),
                        });
                    }
                    Err((code, message)) => self.error(code, message),
                }
            }
            ClientMessage::DeclareBot => {
                if self.room.is_some() || self.queued {
                    self.error(
                        ErrorCode::BadMessage,
                        "declare a bot before joining a room or a queue",
                    );
                    return;
                }
                if let Err((code, message)) =
                    moderation::declare_bot(&self.shared.services, &self.tags).await
                {
                    self.error(code, message);
                }
            }
            ClientMessage::Report {
                name,
                replay,
                category,
                text,
            } => {
                let filed = moderation::report(
                    &self.shared.services,
                    self.tags.player(),
                    &name,
                    replay,
                    category,
                    &text,
                )
                .await;
                match filed {
                    Ok(()) => {
                        self.outbox.send(&ServerMessage::Reported);
                    }
                    Err((code, message)) => self.error(code, message),
                }
            }
            ClientMessage::Block { name } => {
                let list = moderation::block(&self.shared.services, &self.tags, &name).await;
                if let (Ok(_), Some(me)) = (&list, self.tags.player()) {
                    let presence = self.shared.presence.clone();
                    social::blocked(&self.shared.services, &presence, me, &name).await;
                }
                self.send_blocks(list);
            }
            ClientMessage::Unblock { name } => {
                let list = moderation::unblock(&self.shared.services, &self.tags, &name).await;
                self.send_blocks(list);
            }
            ClientMessage::GetBlocks => {
                let list = moderation::blocks(&self.shared.services, &self.tags).await;
                self.send_blocks(list);
            }
            ClientMessage::CreateBattleRoom { options } => self.create_battle_room(options).await,
            ClientMessage::QuickBattle { on } => self.quick_battle(on).await,
            ClientMessage::BattleInputs {
                changes,
                targets,
                confirmed,
            } => {
                self.send_inputs(RoomCommand::BattleInputs {
                    client: self.id,
                    from: None,
                    changes,
                    targets,
                    confirmed,
                })
                .await;
            }
            ClientMessage::BattleInputsFrom {
                from,
                changes,
                targets,
                confirmed,
            } => {
                let (client, from) = (self.id, Some(from));
                self.send_inputs(RoomCommand::BattleInputs {
                    client,
                    from,
                    changes,
                    targets,
                    confirmed,
                })
                .await;
            }
            ClientMessage::BattleStateHash { frame, hash, seats } => {
                self.send_seated(RoomCommand::BattleStateHash {
                    client: self.id,
                    frame,
                    hash,
                    seats: Some(seats),
                })
                .await;
            }
            ClientMessage::BattleHash { frame, hash } => {
                self.send_seated(RoomCommand::BattleStateHash {
                    client: self.id,
                    frame,
                    hash,
                    seats: None,
                })
                .await;
            }
            request @ (ClientMessage::SendFriendRequest { .. }
            | ClientMessage::AnswerFriendRequest { .. }
            | ClientMessage::CancelFriendRequest { .. }
            | ClientMessage::RemoveFriend { .. }
            | ClientMessage::GetFriends { .. }
            | ClientMessage::GetFriendRequests
            | ClientMessage::SetRequestPolicy { .. }
            | ClientMessage::GetRequestPolicy
            | ClientMessage::AppearOffline { .. }
            | ClientMessage::GetNotifications
            | ClientMessage::MarkNotificationsSeen { .. }
            | ClientMessage::MarkNotificationsShown { .. }
            | ClientMessage::DirectMessage { .. }
            | ClientMessage::InviteFriend { .. }) => self.social(request).await,
            request @ (ClientMessage::PublishSkin { .. }
            | ClientMessage::ClearSkin
            | ClientMessage::GetSkin { .. }) => self.skin_request(request).await,
            ClientMessage::LinkReport { rtt_ms } => {
                self.send_seated(RoomCommand::LinkReport {
                    client: self.id,
                    rtt_ms,
                })
                .await;
            }
        }
    }

    pub(super) fn send_blocks(&self, list: Result<Vec<String>, Refusal>) {
        match list {
            Ok(names) => {
                self.outbox.send(&ServerMessage::Blocked { names });
            }
            Err((code, message)) => self.error(code, message),
        }
    }
}
