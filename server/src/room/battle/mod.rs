//! A room of 3 to 8 seats (free-for-all and teams): one task, like a two-seat room, and spoken
//! to with the same [`RoomCommand`]s, so the lobby, joining by code, resuming by token and
//! leaving work unchanged. Its match is a [`BattleSim`], the core `Battle` stepped as far as
//! every seat is confirmed: the only source of knock-outs, placements and results.
//!
//! A player who leaves during a match (or whose reconnect window runs out, or who is cut) is
//! played by the room: it confirms a hard drop every few frames for that seat, a little ahead of
//! the others, and relays them like anyone's inputs, so the seat tops out on its board within
//! seconds, every client simulates the same boards and the match is decided on them (see
//! docs/SERVER.md, "Rooms of several seats").

mod dgram;
mod gather;
mod play;
mod ready;
mod record;
mod seats;
mod tally;
mod trail;

use std::sync::Arc;
use std::time::{Duration, Instant};

use sevenbag_core::{Handling, Rules, Seat};
use sevenbag_protocol::{
    BattleRoomOptions, BattleSim, EndReason, ErrorCode, Gathering, JoinRole, RoomPolicy, SeatInfo,
    SeatStatus, ServerMessage,
};
use tokio::sync::mpsc;
use tracing::info;

use super::spectators::Spectators;
use super::{Directory, Member, RoomCommand, RoomHandle, seconds_until, sleep_until_opt};
use crate::durable::{BattleLoaded, MatchLog};
use crate::metrics::GaugeGuard;
use crate::moderation::Tags;
use crate::refusal::Refusal;
use crate::relay::{self, ClientId, Cut, Outbox};
use crate::services::Services;
use crate::shutdown::{Shutdown, TaskGuard};

/// The most round trip a client's `LinkReport` counts for: past it the input delay is at its
/// cap anyway, and a client cannot push the room's delay further by lying.
const MAX_REPORTED_RTT_MS: u16 = 1_000;

/// Tokens of lost seats a room remembers for late returns.
const MAX_LOST_TOKENS: usize = 32;

/// Commands waiting in the inbox before senders wait (eight players' inputs at a few dozen a
/// second each).
const INBOX: usize = 1024;

/// A room seat and whoever holds it.
#[derive(Debug)]
struct Slot {
    name: String,
    handling: Handling,
    resume: u64,
    ready: bool,
    conn: Option<Outbox>,
    /// While disconnected in a match: when the seat is given up.
    deadline: Option<Instant>,
    /// The round trip its client last reported (`LinkReport`), in milliseconds; 0: unknown.
    rtt_ms: u16,
    /// The seated player's identity, for the history (`None` for a guest).
    player: Option<sevenbag_storage::PlayerId>,
    /// Its connection's moderation facts (`None` for a seat restored from a room log until
    /// its player is back): who it blocks, whether it is a declared bot.
    tags: Option<Arc<Tags>>,
}

impl Slot {
    fn status(&self, now: Instant) -> SeatStatus {
        match (&self.conn, self.deadline) {
            (Some(_), _) => SeatStatus::Connected,
            (None, Some(d)) => SeatStatus::Reconnecting {
                seconds_left: seconds_until(now, d),
            },
            (None, None) => SeatStatus::Forfeited,
        }
    }
}

/// A match in progress.
#[derive(Debug)]
struct Running {
    sim: BattleSim,
    names: Vec<String>,
    /// Battle seat `i` is room seat `room_seats[i]`.
    room_seats: Vec<u8>,
    frame0: Instant,
    started_unix: u64,
    /// Per battle seat: the last frame answered with `Desync`.
    desync_answered: Vec<u32>,
    /// Per battle seat: when its last batch arrived.
    last_inputs: Vec<Instant>,
    /// Per battle seat: when it was last warned that it is behind.
    warned: Vec<Option<Instant>>,
    /// Per battle seat: the player left; the room plays hard drops for it.
    gone: Vec<bool>,
    /// A client's state hash differed from the server's: a rated match is void.
    desynced: bool,
    /// Inputs not yet written to the room log (`None`: room logs off, or no reconnect window).
    log: Option<MatchLog>,
    /// Who plays each battle seat, for the history (`None`: a guest).
    players: Vec<Option<sevenbag_storage::PlayerId>>,
    _live: GaugeGuard,
}

impl Running {
    fn clock_frame(&self, now: Instant) -> u32 {
        let ms = now.saturating_duration_since(self.frame0).as_millis();
        (ms * 60 / 1000).min(u128::from(u32::MAX)) as u32
    }

    fn battle_seat(&self, room_seat: usize) -> Option<usize> {
        self.room_seats
            .iter()
            .position(|&s| usize::from(s) == room_seat)
    }

    fn log_message(&self, now: Instant) -> ServerMessage {
        let logs = (0..self.names.len()).filter_map(|s| self.sim.log(s));
        let (mut changes, mut targets, mut confirmed) = (Vec::new(), Vec::new(), Vec::new());
        for log in logs {
            changes.push(log.key_changes().to_vec());
            targets.push(log.target_changes());
            confirmed.push(log.confirmed());
        }
        ServerMessage::BattleLog {
            header: Box::new(*self.sim.game().header()),
            names: self.names.clone(),
            room_seats: self.room_seats.clone(),
            changes,
            targets,
            confirmed,
            now_frame: self.clock_frame(now),
        }
    }
}

/// The room task's state.
struct BattleRoom {
    services: Arc<Services>,
    directory: Arc<dyn Directory>,
    id: u64,
    code: String,
    options: BattleRoomOptions,
    /// What a leaver gets and whether matches are rated ([`RoomPolicy::for_room`]).
    policy: RoomPolicy,
    rules: Rules,
    seats: Vec<Option<Slot>>,
    spectators: Spectators,
    running: Option<Running>,
    matches: u32,
    /// Batches not yet relayed ([`gather`]).
    gathering: Gathering,
    /// When the gathered batches go out.
    gather_until: Option<Instant>,
    /// Per connection sent gathered inputs: what its chained messages left off ([`gather`]).
    chains: Vec<(ClientId, sevenbag_protocol::Chain)>,
    /// Per room seat: its player's datagram session ([`dgram`]).
    peers: Vec<Option<dgram::Peer>>,
    /// Tokens of seats given up while their player was away, newest last: a late return
    /// watches the room instead of being refused (at most [`MAX_LOST_TOKENS`]).
    lost: std::collections::VecDeque<u64>,
    /// The last match's `BattleOver`, told again to a player who comes back after it ended.
    last_over: Option<ServerMessage>,
    /// How long ready players wait for the others (quick play only, [`ready`]).
    ready_timeout: Option<Duration>,
    /// When the seats not ready are given up, while ready players wait ([`ready`]).
    ready_deadline: Option<Instant>,
}

/// How a room of several seats starts.
enum Begin {
    /// `CreateBattleRoom`: the creator takes room seat 0.
    Created(Member),
    /// A match read back from its room log after a restart: every seat waits for its player
    /// (with the old token) for the reconnect window.
    Restored(Box<BattleLoaded>),
    /// A queue's players take room seats 0, 1, ... in their order: quick play's (each
    /// readies, within the ready timeout), or a paired quick or ranked match's (`Start::Now`:
    /// ready at once, the match starts as they are seated).
    Seated(Vec<Member>, Ready),
}

/// Whether a room opened with its players seated waits for them to ready.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ready {
    /// Each readies, within `Config::quick_battle_ready_timeout` of the first.
    Each,
    /// Everyone is ready from the start: the match starts at once.
    Now,
}

/// How a member reported its state hash, which decides how a mismatch is answered.
enum HashReport {
    /// `StateHash`: the whole match's hash; answered `Desync`.
    Whole,
    /// `BattleStateHash`: with each battle seat's board hash; answered `BattleDesync` naming
    /// the seats that diverged.
    Boards(Vec<u64>),
    /// `BattleHash`: the whole match's hash alone; answered `BattleDesyncBoards` with the
    /// server's board hashes.
    Compact,
}

/// Starts a room of several seats with `creator` in room seat 0; `None` if the server is
/// shutting down.
pub(crate) fn spawn(
    services: Arc<Services>,
    directory: Arc<dyn Directory>,
    id: u64,
    code: String,
    options: BattleRoomOptions,
    creator: Member,
) -> Option<RoomHandle> {
    let policy = RoomPolicy::for_room(options.seats);
    let begin = Begin::Created(creator);
    start(services, directory, id, code, options, policy, begin)
}

/// Starts a room with `players` (from a queue) in room seats 0, 1, ..., under `policy`; each
/// hears `BattleJoined` as a joiner does. `None` if the server is shutting down.
pub(crate) fn spawn_seated(
    services: Arc<Services>,
    directory: Arc<dyn Directory>,
    id: u64,
    code: String,
    opening: Opening,
) -> Option<RoomHandle> {
    let Opening {
        options,
        policy,
        players,
        ready,
    } = opening;
    let begin = Begin::Seated(players, ready);
    start(services, directory, id, code, options, policy, begin)
}

/// A room a queue opens with its players seated.
pub(crate) struct Opening {
    /// Seats, rules and battle options.
    pub(crate) options: BattleRoomOptions,
    /// What a leaver gets, and whether the matches are rated.
    pub(crate) policy: RoomPolicy,
    /// The players, in room-seat order.
    pub(crate) players: Vec<Member>,
    /// Whether they ready themselves or are ready at once.
    pub(crate) ready: Ready,
}

/// Starts a room of several seats from its room log.
pub(crate) fn spawn_restored(
    services: Arc<Services>,
    directory: Arc<dyn Directory>,
    id: u64,
    code: String,
    loaded: BattleLoaded,
) -> Option<RoomHandle> {
    let options = loaded.open.options;
    let policy = loaded.open.policy;
    let begin = Begin::Restored(Box::new(loaded));
    start(services, directory, id, code, options, policy, begin)
}

fn start(
    services: Arc<Services>,
    directory: Arc<dyn Directory>,
    id: u64,
    code: String,
    options: BattleRoomOptions,
    policy: RoomPolicy,
    begin: Begin,
) -> Option<RoomHandle> {
    let guard = services.tasks.guard()?;
    let shutdown = Shutdown::new(services.shutdown.clone());
    let (tx, rx) = mpsc::channel(INBOX);
    let mut rules = options.room.rules();
    if let Some(frames) = services.config.countdown_frames {
        rules.countdown_frames = frames;
    }
    if let Some(frames) = services.config.round_break_frames {
        rules.round_break_frames = frames;
    }
    let room = BattleRoom {
        services,
        directory,
        id,
        code,
        seats: (0..options.seats).map(|_| None).collect(),
        options,
        policy,
        rules,
        spectators: Spectators::default(),
        running: None,
        matches: 0,
        gathering: Gathering::new(),
        chains: Vec::new(),
        gather_until: None,
        peers: (0..options.seats).map(|_| None).collect(),
        lost: std::collections::VecDeque::new(),
        last_over: None,
        ready_timeout: None,
        ready_deadline: None,
    };
    let seats = room.options.seats;
    tokio::spawn(room.run(begin, rx, shutdown, guard));
    Some(RoomHandle::inbox(tx, seats))
}

impl BattleRoom {
    async fn run(
        mut self,
        begin: Begin,
        mut inbox: mpsc::Receiver<RoomCommand>,
        mut shutdown: Shutdown,
        _guard: TaskGuard,
    ) {
        let _open = GaugeGuard::new(&self.services.metrics.rooms);
        info!(room = %self.code, seats = self.options.seats, "room of several seats opened");
        match begin {
            Begin::Created(creator) => {
                self.seat(0, creator);
                self.send_joined(0);
                self.broadcast_state();
            }
            Begin::Restored(loaded) => self.restore(*loaded),
            Begin::Seated(players, ready) => {
                if ready == Ready::Each {
                    let timeout = self.services.config.quick_battle_ready_timeout;
                    self.ready_timeout = Some(timeout).filter(|t| !t.is_zero());
                }
                let seated = players.len().min(self.seats.len());
                for (seat, member) in players.into_iter().take(seated).enumerate() {
                    self.seat(seat, member);
                }
                for seat in 0..seated {
                    self.send_joined(seat);
                }
                if ready == Ready::Now {
                    for slot in self.seats.iter_mut().flatten() {
                        slot.ready = true;
                    }
                }
                self.broadcast_state();
                self.maybe_start();
            }
        }
        let mut tick = tokio::time::interval(Duration::from_millis(250));
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
        let shutdown_wait = shutdown.recv();
        tokio::pin!(shutdown_wait);
        loop {
            let deadline = self.seats.iter().flatten().filter_map(|s| s.deadline).min();
            let gather_until = self.gather_until;
            let ready_deadline = self.ready_deadline;
            tokio::select! {
                biased;
                _ = &mut shutdown_wait => {
                    self.flush_inputs();
                    self.finish(None, EndReason::Shutdown).await;
                    break;
                }
                command = inbox.recv() => match command {
                    Some(command) => {
                        // Inputs (by either path) wait to be gathered; anything else goes out
                        // after what was gathered before it.
                        let inputs = matches!(
                            command,
                            RoomCommand::BattleInputs { .. }
                                | RoomCommand::Datagram {
                                    event: crate::datagram::DatagramEvent::Received(_),
                                    ..
                                }
                        );
                        if !inputs {
                            self.flush_inputs();
                        }
                        self.handle(command).await
                    }
                    None => break,
                },
                _ = sleep_until_opt(gather_until), if gather_until.is_some() => {
                    self.flush_inputs();
                }
                _ = sleep_until_opt(deadline), if deadline.is_some() => {
                    self.flush_inputs();
                    self.expire(Instant::now()).await;
                }
                _ = sleep_until_opt(ready_deadline), if ready_deadline.is_some() => {
                    self.ready_timed_out();
                }
                _ = tick.tick(), if self.running.is_some() => {
                    self.flush_inputs();
                    self.check_silent(Instant::now()).await;
                    self.play_for_the_gone().await;
                }
            }
            if self.is_abandoned() {
                break;
            }
        }
        self.directory.room_closed(&self.code, self.id);
        info!(room = %self.code, matches = self.matches, "room closed");
    }

    async fn handle(&mut self, command: RoomCommand) {
        match command {
            RoomCommand::Join {
                member,
                role,
                reply,
            } => {
                let _ = reply.send(self.join(member, role));
            }
            RoomCommand::Resume {
                token,
                member,
                reply,
            } => {
                let _ = reply.send(self.resume(token, member));
            }
            RoomCommand::Leave { client } => self.leave(client, true).await,
            RoomCommand::Disconnected { client } => self.leave(client, false).await,
            RoomCommand::SkinChanged => self.broadcast_skins(),
            RoomCommand::Ready { client } => {
                if let Some(seat) = self.seat_of(client)
                    && self.running.is_none()
                {
                    if let Some(slot) = &mut self.seats[seat] {
                        slot.ready = true;
                    }
                    self.broadcast_state();
                    self.maybe_start();
                    self.arm_ready_deadline(Instant::now());
                }
            }
            RoomCommand::BattleInputs {
                client,
                from,
                changes,
                targets,
                confirmed,
            } => self.inputs(client, from, changes, targets, confirmed).await,
            RoomCommand::Inputs { client, .. } | RoomCommand::InputsFrom { client, .. } => {
                self.cut(
                    client,
                    ErrorCode::BadInput,
                    "a room of several seats takes BattleInputs, not Inputs",
                );
            }
            RoomCommand::StateHash {
                client,
                frame,
                hash,
            } => self.state_hash(client, frame, hash, HashReport::Whole),
            RoomCommand::BattleStateHash {
                client,
                frame,
                hash,
                seats,
            } => {
                let report = seats.map_or(HashReport::Compact, HashReport::Boards);
                self.state_hash(client, frame, hash, report)
            }
            RoomCommand::LinkReport { client, rtt_ms } => {
                if let Some(seat) = self.seat_of(client)
                    && let Some(slot) = &mut self.seats[seat]
                {
                    slot.rtt_ms = rtt_ms.min(MAX_REPORTED_RTT_MS);
                }
            }
            RoomCommand::Chat { client, name, text } => self.chat(client, name, text),
            RoomCommand::Datagram { client, event } => self.datagram(client, event).await,
        }
    }

    /// Cuts a member's connection with a reason; everyone else carries on.
    fn cut(&self, client: ClientId, code: ErrorCode, message: impl Into<String>) {
        let seated = self.seats.iter().flatten().filter_map(|s| s.conn.as_ref());
        if let Some(outbox) = seated.chain(&self.spectators).find(|o| o.id() == client) {
            outbox.cut(Cut::error(code, message));
        }
    }

    /// Relays a chat line to every member who does not block its sender
    /// ([`super::chat::relay`]).
    fn chat(&self, client: ClientId, name: String, text: String) {
        let seat = self.seat_of(client);
        let sender = match seat {
            Some(s) => self.seats[s].as_ref().and_then(|s| s.tags.clone()),
            None => self.spectators.tags_of(client),
        };
        let Some(sender) = sender else {
            return;
        };
        let seated = self
            .seats
            .iter()
            .flatten()
            .filter_map(|s| Some((s.conn.as_ref()?, s.tags.as_deref())));
        let watching = self.spectators.listeners();
        let line = super::chat::Line {
            from: name,
            // `Chat`'s seat is the two-seat wire's (0 or 1; a reader refuses more): here it
            // only tells a seated player from a spectator, so every seat says `First`.
            seat: seat.map(|_| Seat::First),
            text,
        };
        super::chat::relay(
            &self.services.metrics,
            &sender,
            line,
            seated.chain(watching),
        );
    }

    fn seat_of(&self, client: ClientId) -> Option<usize> {
        self.seats.iter().position(|s| {
            s.as_ref()
                .is_some_and(|s| s.conn.as_ref().is_some_and(|c| c.id() == client))
        })
    }

    fn state_message(&self) -> ServerMessage {
        let now = Instant::now();
        ServerMessage::BattleRoomState {
            seats: self
                .seats
                .iter()
                .map(|s| {
                    s.as_ref().map(|s| SeatInfo {
                        name: s.name.clone(),
                        ready: s.ready,
                        status: s.status(now),
                    })
                })
                .collect(),
            spectators: self.spectators.len().min(usize::from(u16::MAX)) as u16,
        }
    }

    /// `BattleRoomState`, then which room seats hold declared bots (`SeatMarks`) and which
    /// skin each wears (`SeatSkins`), as a two-seat room says them.
    fn broadcast_state(&self) {
        self.broadcast(&self.state_message());
        let bots = self
            .seats
            .iter()
            .map(|s| {
                s.as_ref()
                    .and_then(|s| s.tags.as_ref())
                    .is_some_and(|t| t.is_bot())
            })
            .collect();
        self.broadcast(&ServerMessage::SeatMarks { bots });
        self.broadcast_skins();
    }

    /// Which skin each room seat wears (`SeatSkins`), read from the seats' tags now.
    fn broadcast_skins(&self) {
        let skins = self
            .seats
            .iter()
            .map(|s| {
                s.as_ref()
                    .and_then(|s| s.tags.as_ref())
                    .and_then(|t| t.skin())
            })
            .collect();
        self.broadcast(&ServerMessage::SeatSkins { skins });
    }

    fn broadcast(&self, message: &ServerMessage) {
        self.broadcast_except(message, None);
    }

    /// Sends to every connected member but `except`, encoding once.
    fn broadcast_except(&self, message: &ServerMessage, except: Option<ClientId>) {
        let Some(bytes) = relay::encode(message) else {
            return;
        };
        let seated = self.seats.iter().flatten().filter_map(|s| s.conn.as_ref());
        for outbox in seated.chain(&self.spectators) {
            if Some(outbox.id()) != except {
                outbox.send_bytes(bytes.clone());
            }
        }
    }
}

/// Why a join was refused.
fn full(code: &str) -> Refusal {
    (
        ErrorCode::RoomFull,
        format!(
            "every seat of room {code} is taken (or its match is running); join as a spectator"
        ),
    )
}
