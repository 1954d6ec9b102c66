//! One task per connection: the handshake, then every message the client sends, in order.
//!
//! The task owns the WebSocket's reading half; a writer task (`relay::write_loop`) owns the
//! sending half and drains the client's [`Outbox`]. The reader never writes to the socket
//! itself: replies go through the outbox like everything else, so ordering is simple (one
//! queue) and a slow reader is detected in one place.
//!
//! # How a connection ends
//! Whatever ends it — the client closing, a hostile frame, a timeout, a slow reader detected
//! by a room, a server shutdown — ends up as one [`Cut`] on the outbox. Then, in order:
//! 1. the task leaves its room (a seated player in a match gets the reconnect window) and the
//!    quick-match queue,
//! 2. the writer delivers the cut's `Error`/`Shutdown` message and a Close frame (bounded),
//! 3. the socket is closed lingering (`connection::linger`), and
//! 4. one log line says who, why and with which error code.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::stream::SplitStream;
use futures_util::{SinkExt, StreamExt};
use sevenbag_core::Handling;
use sevenbag_protocol::identity::{MAX_CHAT_CHARS, clean_chat, clean_display_name};
use sevenbag_protocol::{
    ClientMessage, ErrorCode, InputsUnpacker, JoinRole, PROTOCOL_VERSION, RoomOptions,
    ServerMessage,
};
use tokio::sync::{mpsc, oneshot, watch};
use tokio_tungstenite::tungstenite::Message;
use tracing::{debug, info};

use crate::connection::{self, Incoming, Ws};
use crate::datagram::{self, DatagramEvent, Deliver, Route};
use crate::identity;
use crate::limits::TokenBucket;
use crate::lobby::{self, Control, Membership, Refusal};
use crate::metrics::GaugeGuard;
use crate::moderation::{self, Notice, Tags};
use crate::quick_battle;
use crate::ranked::Identity;
use crate::relay::{self, ClientId, Cut, Outbox};
use crate::room::{Member, RoomCommand, RoomHandle};
use crate::shared::Shared;
use crate::shutdown::Shutdown;
use crate::solo_boards;
use crate::solo_records;
use crate::standings;
use crate::waiting::Avoid;

/// How long a connection waits for a room to answer a join or resume. A room answers at once
/// unless it is busy writing a replay; this only bounds the wait if it has just closed.
const ROOM_REPLY_TIMEOUT: Duration = Duration::from_secs(5);
/// Most bytes read and thrown away while closing a connection.
const LINGER_BYTES: usize = 1024 * 1024;

/// What the client told us in its `Hello`.
#[derive(Clone, Debug)]
struct Greeting {
    name: String,
    handling: Handling,
}

/// A connection's state, owned by its task.
struct Client {
    shared: Arc<Shared>,
    id: ClientId,
    peer: SocketAddr,
    outbox: Outbox,
    hello: Option<Greeting>,
    room: Option<Membership>,
    queued: bool,
    /// Quick match tells a queued client its room through here.
    control_tx: mpsc::Sender<Control>,
    control_rx: mpsc::Receiver<Control>,
    /// Every frame the client sends takes a token.
    messages: TokenBucket,
    /// Client `Ping`s beyond this rate go unanswered.
    pings: TokenBucket,
    /// Chat lines beyond this rate are refused.
    chat: TokenBucket,
    /// Who the client plays as, once identified.
    identity: Option<Identity>,
    next_nonce: u64,
    /// Reads `InputsSince` back as the `Inputs` it stands for (`sevenbag_protocol::compact`).
    inputs: InputsUnpacker,
    /// Moderation's facts about this connection (address, bot mark, block list), shared with
    /// its rooms.
    tags: Arc<Tags>,
    /// Set when this connection tried to identify as a banned identity: it may then not
    /// play at all (as a guest either), and hears this.
    banned: Option<String>,
    /// Where this connection's datagram session delivers: its room, as it changes. Dropped
    /// (closing the session) when the connection ends or gives datagrams up.
    route: watch::Sender<Route>,
    /// The room handle `route` was last published for.
    route_key: Option<RoomHandle>,
}

/// A room as a datagram session's destination: its events go to the room's inbox without
/// waiting (a datagram that finds the inbox full is dropped, as the network might have).
#[derive(Debug)]
struct RoomRoute {
    client: ClientId,
    handle: RoomHandle,
}

impl Deliver for RoomRoute {
    fn deliver(&self, event: DatagramEvent) -> bool {
        self.handle
            .try_send(RoomCommand::Datagram {
                client: self.client,
                event,
            })
            .is_ok()
    }
}

/// Serves one upgraded WebSocket connection from its first message to close. The HTTP layer
/// (`crate::http`) did the handshake and holds the connection's permit while this runs.
pub(crate) async fn serve(shared: Arc<Shared>, ws: Ws, peer: SocketAddr) {
    let limits = shared.config.limits.clone();
    let id = shared.next_client_id();
    let mut shutdown = Shutdown::new(shared.shutdown.clone());
    debug!(client = id, %peer, "connected");
    let (sink, mut stream) = ws.split();
    let _open = GaugeGuard::new(&shared.metrics.connections);
    let (outbox, queue) = relay::queue(id, &limits, shared.metrics.clone());
    let writer = tokio::spawn(relay::write_loop(sink, queue, limits.close_grace));

    let now = Instant::now();
    let (control_tx, control_rx) = mpsc::channel(4);
    let mut client = Client {
        shared: shared.clone(),
        id,
        peer,
        outbox: outbox.clone(),
        hello: None,
        room: None,
        queued: false,
        control_tx,
        control_rx,
        messages: TokenBucket::new(limits.messages_per_second, limits.message_burst, now),
        pings: TokenBucket::new(
            limits.client_pings_per_second,
            limits.client_pings_per_second,
            now,
        ),
        chat: TokenBucket::new(limits.chat_per_second, limits.chat_burst, now),
        inputs: InputsUnpacker::new(),
        identity: None,
        next_nonce: 1,
        tags: Arc::new(Tags::new(peer.ip())),
        banned: None,
        route: watch::channel(None).0,
        route_key: None,
    };
    client.run(&mut stream, &mut shutdown).await;
    if let Some(datagrams) = &shared.datagrams {
        datagrams.forget(id);
    }
    let shutting_down = shutdown.is_shutdown();
    client.leave_everything(shutting_down).await;

    // If nothing cut the connection, the client closed it: stop the writer quietly.
    outbox.cut(Cut::gone());
    let cut = outbox.current_cut().unwrap_or_else(Cut::gone);

    // The writer gives up on its farewell after `close_grace`; this bound is a backstop.
    let mut writer = writer;
    let sink = tokio::select! {
        joined = &mut writer => joined.ok(),
        _ = tokio::time::sleep(limits.close_grace * 2 + Duration::from_secs(1)) => {
            writer.abort();
            None
        }
    };
    if let Some(Ok(mut ws)) = sink.map(|sink| stream.reunite(sink)) {
        // Sends a pending reply to the client's own Close frame, if there is one.
        let _ = tokio::time::timeout(limits.close_grace, ws.flush()).await;
        connection::linger(ws, limits.close_grace, LINGER_BYTES).await;
    }

    if let Some(code) = cut.code().filter(|c| *c != ErrorCode::Shutdown) {
        shared.metrics.cut(&format!("{code:?}"));
    }
    match cut.code() {
        Some(code) => info!(client = id, %peer, ?code, reason = cut.reason(), "connection closed"),
        None => debug!(client = id, %peer, "connection closed by the client"),
    }
}

impl Client {
    /// Reads and handles messages until the connection is cut or closed.
    async fn run(&mut self, stream: &mut SplitStream<Ws>, shutdown: &mut Shutdown) {
        let limits = self.shared.config.limits.clone();
        let mut cut = self.outbox.watch_cut();
        let started = Instant::now();
        let mut last_heard = started;
        let mut ping = tokio::time::interval_at(
            (started + limits.ping_interval).into(),
            limits.ping_interval,
        );
        ping.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        // The waits for shutdown, a cut and silence are made once and polled by every turn of
        // the loop: making them afresh per message (two watch registrations and a timer) was a
        // large share of the server's instructions (callgrind, docs/history). The
        // silence timer is moved only when it fires early or the deadline comes nearer.
        let deadline = |hello: bool, last_heard: Instant| {
            if hello {
                (last_heard + limits.idle_timeout, "nothing heard")
            } else {
                (started + limits.hello_timeout, "no Hello")
            }
        };
        let shutdown_wait = shutdown.recv();
        tokio::pin!(shutdown_wait);
        let cut_wait = relay::cut_happened(&mut cut);
        tokio::pin!(cut_wait);
        let silence = tokio::time::sleep_until(deadline(false, started).0.into());
        tokio::pin!(silence);
        loop {
            let (due, why) = deadline(self.hello.is_some(), last_heard);
            if due < silence.deadline().into_std() {
                silence.as_mut().reset(due.into());
            }
            tokio::select! {
                // Order matters: shutdown and cuts first, then control (so a quick-match seat
                // is known before the client's next message is handled), then the socket.
                biased;
                _ = &mut shutdown_wait => {
                    self.outbox.cut(Cut::shutdown("the server is shutting down"));
                    return;
                }
                _ = &mut cut_wait => return,
                Some(control) = self.control_rx.recv() => {
                    self.on_control(control);
                    self.publish_route();
                }
                item = stream.next() => {
                    if let Some(Ok(Message::Binary(bytes))) = &item {
                        self.shared.metrics.messages_in.inc();
                        self.shared.metrics.bytes_in.inc_by(bytes.len() as u64);
                    }
                    let now = Instant::now();
                    last_heard = now;
                    match connection::classify(item, &limits, self.hello.is_some()) {
                        Ok(Incoming::Closed) => return,
                        Ok(incoming) => {
                            if !self.messages.take(now) {
                                self.outbox.cut(Cut::error(
                                    ErrorCode::RateLimited,
                                    format!(
                                        "more than {} messages per second (burst {})",
                                        limits.messages_per_second, limits.message_burst
                                    ),
                                ));
                                return;
                            }
                            if let Incoming::Message(message) = incoming {
                                // Compact inputs become plain `Inputs` before anything looks
                                // at them, so every check below sees what it always saw.
                                match self.inputs.unpack(message) {
                                    Ok(message) => {
                                        self.handle(message).await;
                                        self.publish_route();
                                    }
                                    Err(e) => {
                                        self.outbox.cut(Cut::error(
                                            ErrorCode::BadInput,
                                            format!("bad inputs: {e}"),
                                        ));
                                        return;
                                    }
                                }
                            }
                        }
                        Err(cut) => {
                            self.outbox.cut(*cut);
                            return;
                        }
                    }
                }
                _ = ping.tick() => {
                    // Not before `Hello`: the answer would be a message before `Hello`.
                    if self.hello.is_some() {
                        self.next_nonce += 1;
                        self.outbox.send(&ServerMessage::Ping { nonce: self.next_nonce });
                    }
                }
                _ = &mut silence => {
                    if Instant::now() < due {
                        // Heard from since the timer was set: wait on to the new deadline.
                        silence.as_mut().reset(due.into());
                        continue;
                    }
                    let secs = if self.hello.is_none() { limits.hello_timeout } else { limits.idle_timeout };
                    self.outbox.cut(Cut::error(
                        ErrorCode::Timeout,
                        format!("{why} for {:.1} s", secs.as_secs_f64()),
                    ));
                    return;
                }
            }
        }
    }

    fn on_control(&mut self, control: Control) {
        match control {
            Control::Seated(membership) => {
                self.queued = false;
                self.room = Some(membership);
            }
            Control::Redirect(url) => {
                self.queued = false;
                self.outbox.send(&ServerMessage::Redirect { url });
            }
            Control::Moderation(notice) => self.on_notice(notice),
            Control::Unqueued => self.queued = false,
        }
    }

    /// An operator acted on this connection's identity.
    fn on_notice(&mut self, notice: Notice) {
        match notice {
            Notice::Banned(text) => {
                // The connection closes; on the way out it leaves its queue and its room as
                // with `LeaveRoom` (a match in play is forfeited and the seat vacated, so its
                // resume token stops working): see `leave_everything`.
                self.banned = Some(text.clone());
                self.outbox.cut(Cut::error(ErrorCode::Banned, text));
            }
            Notice::Muted(text) => self.error(ErrorCode::Muted, text),
            Notice::Renamed { name } => {
                if let Some(hello) = &mut self.hello {
                    hello.name = name.clone();
                }
                self.error(
                    ErrorCode::BadName,
                    format!("a moderator changed this identity's name to {name}"),
                );
            }
            Notice::Bot(bot) => self.tags.set_bot(bot),
        }
    }

    /// Why this connection may not create, join or queue now, if it may not.
    fn ban_refusal(&self) -> Option<String> {
        let now = crate::db::unix_now();
        self.banned
            .clone()
            .or_else(|| {
                let player = self.identity?.id;
                self.shared.moderation.ban_of(player, now)
            })
            .or_else(|| self.shared.moderation.address_ban(self.tags.ip(), now))
    }

    /// Refuses the request (and says why) when [`Client::ban_refusal`] has a reason.
    fn refused_by_ban(&self) -> bool {
        match self.ban_refusal() {
            Some(text) => {
                self.shared.metrics.moderation("refused_banned");
                self.error(ErrorCode::Banned, text);
                true
            }
            None => false,
        }
    }

    /// Whom this connection's player must not be paired with (`ranked`: with the daily pair
    /// limit and the same-address rule).
    async fn avoid(&self, ranked: bool) -> Avoid {
        let config = &self.shared.config.moderation;
        let mut avoid = Avoid {
            same_address_ok: !ranked || config.ranked_same_address,
            ..Avoid::default()
        };
        let (Some(player), Some(db)) = (self.tags.player(), &self.shared.db) else {
            return avoid;
        };
        let limit =
            config
                .ranked_pair_daily
                .filter(|_| ranked)
                .map(|max| sevenbag_storage::PairLimit {
                    max,
                    since_unix: crate::db::unix_now().saturating_sub(24 * 3600),
                });
        let read = db
            .read(move |s| {
                let blocked = s.avoided_by(player, None)?;
                let all = match limit {
                    Some(l) => s.avoided_by(player, Some(l))?,
                    None => blocked.clone(),
                };
                Ok((blocked, all))
            })
            .await;
        match read {
            Ok((blocked, all)) => {
                avoid.met_enough = all.into_iter().filter(|p| !blocked.contains(p)).collect();
                avoid.blocked = blocked;
            }
            Err(e) => {
                tracing::warn!(error = %e, "cannot read whom a player avoids; pairing without")
            }
        }
        avoid
    }

    /// A non-fatal error: the client stays connected.
    fn error(&self, code: ErrorCode, message: impl Into<String>) {
        self.outbox.send(&ServerMessage::Error {
            code,
            message: message.into(),
            fatal: false,
        });
    }

    fn member(&self) -> Option<Member> {
        let hello = self.hello.as_ref()?;
        Some(Member {
            client: self.id,
            name: hello.name.clone(),
            handling: hello.handling,
            outbox: self.outbox.clone(),
            identity: self.identity,
            tags: self.tags.clone(),
        })
    }

    async fn handle(&mut self, message: ClientMessage) {
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
                if self.room.as_ref().is_some_and(|m| m.seat.is_some()) {
                    self.send_room(RoomCommand::StateHash {
                        client: self.id,
                        frame,
                        hash,
                    })
                    .await;
                }
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
                self.battle_hash(frame, hash, Some(seats)).await
            }
            ClientMessage::BattleHash { frame, hash } => self.battle_hash(frame, hash, None).await,
            ClientMessage::LinkReport { rtt_ms } => {
                if self.room.as_ref().is_some_and(|m| m.seat.is_some()) {
                    self.send_room(RoomCommand::LinkReport {
                        client: self.id,
                        rtt_ms,
                    })
                    .await;
                }
            }
        }
    }

    fn send_blocks(&self, list: Result<Vec<String>, Refusal>) {
        match list {
            Ok(names) => {
                self.outbox.send(&ServerMessage::Blocked { names });
            }
            Err((code, message)) => self.error(code, message),
        }
    }

    async fn hello(&mut self, version: u32, name: String, handling: Handling, resume: Option<u64>) {
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
        self.hello = Some(Greeting {
            name: name.clone(),
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

    async fn resume(&mut self, token: u64) {
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

    /// Sends a datagram ticket for this connection, if the server has a datagram path.
    fn offer_datagrams(&mut self) {
        let Some(datagrams) = &self.shared.datagrams else {
            return;
        };
        let binding = datagram::Binding {
            client: self.id,
            outbox: self.outbox.clone(),
            route: self.route.subscribe(),
        };
        let ticket = datagrams.ticket(binding);
        self.outbox.send(&ticket);
    }

    /// `Datagrams { on }`: a new ticket, or the datagram session given up (closed; the room
    /// carries on over the WebSocket).
    fn datagrams(&mut self, on: bool) {
        if on {
            if self.shared.datagrams.is_none() {
                self.error(ErrorCode::Unavailable, "this server has no datagram path");
                return;
            }
            self.offer_datagrams();
            return;
        }
        if let Some(datagrams) = &self.shared.datagrams {
            datagrams.forget(self.id);
        }
        // Dropping the sender ends the session; a later ticket gets a fresh one.
        let current = self.route.borrow().clone();
        self.route = watch::channel(current).0;
    }

    /// Tells this connection's datagram session (if any) which room it is in now.
    fn publish_route(&mut self) {
        let handle = self.room.as_ref().map(|m| &m.handle);
        let same = match (handle, &self.route_key) {
            (None, None) => true,
            (Some(h), Some(k)) => h.same_channel(k),
            _ => false,
        };
        if same {
            return;
        }
        let route: Route = handle.map(|h| {
            let route: std::sync::Arc<dyn Deliver> = std::sync::Arc::new(RoomRoute {
                client: self.id,
                handle: h.clone(),
            });
            route
        });
        self.route_key = handle.cloned();
        self.route.send_replace(route);
    }

    fn in_room_error(&self) -> bool {
        if let Some(m) = &self.room {
            self.error(
                ErrorCode::BadMessage,
                format!("you are in room {}; send LeaveRoom first", m.code),
            );
            return true;
        }
        false
    }

    async fn create_room(&mut self, options: RoomOptions) {
        if self.in_room_error() || self.refused_by_ban() {
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

    async fn create_battle_room(&mut self, options: sevenbag_protocol::BattleRoomOptions) {
        if self.in_room_error() || self.refused_by_ban() {
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

    async fn join_room(&mut self, code: &str, role: JoinRole) {
        if self.in_room_error() || self.refused_by_ban() {
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

    async fn quick_match(&mut self) {
        if self.in_room_error() || self.queued || self.refused_by_ban() {
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
    async fn quick_battle(&mut self, on: bool) {
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
        if self.in_room_error() || self.refused_by_ban() {
            return;
        }
        if self.queued {
            self.error(
                ErrorCode::BadMessage,
                "you wait in the versus queue; send LeaveRoom first",
            );
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

    /// Sends the result of an identity request; on success the connection plays as it (and
    /// shows its name), unless it is banned: then it is refused, and the connection may not
    /// play at all.
    async fn identified(&mut self, outcome: Result<identity::Outcome, Refusal>) {
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
            }
            Err((code, message)) => self.error(code, message),
        }
    }

    async fn ranked_match(&mut self) {
        if self.in_room_error() || self.queued || self.refused_by_ban() {
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
            Ok(()) => self.queued = true,
            Err((code, message)) => self.error(code, message),
        }
    }

    async fn chat(&mut self, text: &str) {
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

    fn unqueue(&mut self) {
        if self.queued {
            lobby::unqueue(&self.shared.lobby, self.id);
            self.queued = false;
        }
    }

    async fn leave(&mut self) {
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

    /// Sends a command to the client's room; if the room has closed, says so.
    /// Hands inputs to the room; a client in no room that sends inputs is cut.
    async fn send_inputs(&mut self, command: RoomCommand) {
        if self.room.is_none() {
            self.outbox.cut(Cut::error(
                ErrorCode::BadInput,
                "inputs from a client that is not in a match",
            ));
            return;
        }
        self.send_room(command).await;
    }

    /// A seated player's `BattleStateHash` (`seats`) or `BattleHash` (no board hashes).
    async fn battle_hash(&mut self, frame: u32, hash: u64, seats: Option<Vec<u64>>) {
        if self.room.as_ref().is_some_and(|m| m.seat.is_some()) {
            let client = self.id;
            self.send_room(RoomCommand::BattleStateHash {
                client,
                frame,
                hash,
                seats,
            })
            .await;
        }
    }

    async fn send_room(&mut self, command: RoomCommand) {
        let Some(m) = &self.room else { return };
        // Waiting here when the room's inbox is full is deliberate: it stops reading this
        // client's socket, which is where the pressure belongs.
        if m.handle.send(command).await.is_err() {
            let code = m.code.clone();
            self.room = None;
            self.error(ErrorCode::NoSuchRoom, format!("room {code} has closed"));
        }
    }

    /// The connection is ending: out of the queue, and out of the room.
    async fn leave_everything(&mut self, shutting_down: bool) {
        if let Some(identity) = self.identity {
            self.shared.moderation.detach(identity.id, self.id);
        }
        self.unqueue();
        // Also take a seat that quick match assigned just now.
        while let Ok(control) = self.control_rx.try_recv() {
            self.on_control(control);
        }
        if let Some(m) = self.room.take() {
            if shutting_down {
                return;
            }
            // A banned player leaves for good (forfeits); anyone else gets the reconnect window.
            let command = if self.banned.is_some() {
                RoomCommand::Leave { client: self.id }
            } else {
                RoomCommand::Disconnected { client: self.id }
            };
            // Bounded: a room that has closed drops the command at once; a busy one takes it
            // within milliseconds. The bound only guards against a stuck room.
            let _ = tokio::time::timeout(ROOM_REPLY_TIMEOUT, m.handle.send(command)).await;
        }
    }
}
