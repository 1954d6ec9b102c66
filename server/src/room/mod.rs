//! One task per room: it owns the seats, the spectators and the running match, behind one async
//! lock that only the room's task and its members' connections take.
//!
//! Connection tasks talk to a room through its [`RoomHandle`]: match messages (inputs and
//! reports) run the room's handler under its lock in the sender's task, everything else goes
//! through the room's bounded inbox (see `handle.rs`). The room talks to connections only
//! through their [`Outbox`]es, which never block (see [`crate::relay`]). The room therefore
//! never waits on a client, and a client waits on the room only while the room is busy or its
//! inbox full — which pushes back on that client's socket, the right place for it.
//!
//! The match itself is a [`ConfirmedSim`]: the core `Match` stepped exactly as far as both seats'
//! inputs are confirmed. Its round and match results are the only ones that count.

use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use sevenbag_core::{Handling, MatchHeader, Rules, Seat};
use sevenbag_protocol::{
    ConfirmedSim, EndReason, ErrorCode, InputChange, JoinRole, Replay, RoomOptions, SeatInfo,
    SeatStatus, ServerMessage, SimEvent,
};
use sevenbag_storage::PlayerId;
use tokio::sync::{mpsc, oneshot};
use tracing::{debug, info, warn};

use self::spectators::Spectators;
use crate::durable::{Loaded, MatchLog, MatchOpen};
use crate::gate::Gated;
use crate::metrics::GaugeGuard;
use crate::moderation::Tags;
use crate::ranked::Identity;
use crate::record::Tally;
use crate::refusal::{Refusal, no_spectator_place, random_u64, unready_for_drain};
use crate::relay::{self, ClientId, Cut, Outbox};
use crate::services::Services;
use crate::shutdown::{Shutdown, TaskGuard};

pub(crate) mod battle;
mod chat;
mod dgram;
mod handle;
mod persist;
mod play;
mod seats;
mod spectators;
mod stall;

/// How many commands may wait in a room's inbox before senders wait. Joins, readiness, chat and
/// two players' datagram events (WebSocket inputs run on the room directly) never come close;
/// the bound exists so a room busy writing a replay pushes back instead of buffering.
const INBOX: usize = 256;

/// Most commands a room handles in one wake-up after the first (see [`run`]).
const DRAIN: usize = 32;

pub(crate) use handle::RoomHandle;

/// A connection as a room sees it.
#[derive(Clone, Debug)]
pub(crate) struct Member {
    /// The connection's id.
    pub(crate) client: ClientId,
    /// Display name from its `Hello`.
    pub(crate) name: String,
    /// Handling from its `Hello` (goes into the match header).
    pub(crate) handling: Handling,
    /// Its send queue.
    pub(crate) outbox: Outbox,
    /// The player's identity, for ranked play and history (`None` for a guest).
    pub(crate) identity: Option<Identity>,
    /// Its moderation facts: bot mark, address, block list (`crate::moderation`).
    pub(crate) tags: Arc<Tags>,
}

/// How a room starts.
#[derive(Debug)]
pub(crate) enum Start {
    /// `CreateRoom`: the creator takes seat First.
    Created(Member),
    /// A match read back from its room log after a restart: both seats wait for their players
    /// (with their old tokens) for the reconnect window.
    Restored(Box<Loaded>),
}

/// Requests from connection tasks.
#[derive(Debug)]
pub(crate) enum RoomCommand {
    /// Take a seat or watch.
    Join {
        /// Who.
        member: Member,
        /// Player or spectator.
        role: JoinRole,
        /// The seat (`None` for a spectator), or why not.
        reply: oneshot::Sender<Result<Option<Seat>, Refusal>>,
    },
    /// Take back a dropped seat with its token.
    Resume {
        /// The token from `Joined`.
        token: u64,
        /// The new connection.
        member: Member,
        /// `Some(Some(seat))`: the seat is back; `Some(None)`: the seat was lost and the
        /// connection watches the room instead; `None`: the token matches nothing here.
        reply: oneshot::Sender<Option<Option<Seat>>>,
    },
    /// `LeaveRoom`: a seated player in a match forfeits.
    Leave {
        /// Who.
        client: ClientId,
    },
    /// The connection ended: a seated player in a match gets the reconnect window.
    Disconnected {
        /// Who.
        client: ClientId,
    },
    /// `Ready`.
    Ready {
        /// Who.
        client: ClientId,
    },
    /// The connection put on (or took off) a published skin: the room tells its seats' skins
    /// again (`SeatSkins`), so a skin published while seated shows at once.
    SkinChanged,
    /// `Inputs`.
    Inputs {
        /// Who.
        client: ClientId,
        /// The changes as sent.
        changes: Vec<InputChange>,
        /// The new confirmation.
        confirmed: u32,
    },
    /// `Chat`: a line for everyone in the room.
    Chat {
        /// Who.
        client: ClientId,
        /// Their name.
        name: String,
        /// The cleaned line.
        text: String,
    },
    /// `StateHash`.
    StateHash {
        /// Who.
        client: ClientId,
        /// Frames simulated.
        frame: u32,
        /// The client's hash.
        hash: u64,
    },
    /// `BattleStateHash`: the whole match's hash and each battle seat's board hash.
    BattleStateHash {
        /// Who.
        client: ClientId,
        /// Frames simulated.
        frame: u32,
        /// The client's whole-match hash.
        hash: u64,
        /// The client's board hash of every battle seat (`None`: `BattleHash`, the whole
        /// match's hash alone).
        seats: Option<Vec<u64>>,
    },
    /// `LinkReport`: the client's round trip to the server.
    LinkReport {
        /// Who.
        client: ClientId,
        /// Milliseconds.
        rtt_ms: u16,
    },
    /// The connection's datagram session came, went or sent something (`crate::datagram`).
    Datagram {
        /// Who.
        client: ClientId,
        /// What.
        event: crate::datagram::DatagramEvent,
    },
    /// `InputsFrom`: a player's reliable catch-up, which may overlap what the room holds.
    InputsFrom {
        /// Who.
        client: ClientId,
        /// The first frame it speaks for.
        from: u32,
        /// The changes as sent.
        changes: Vec<InputChange>,
        /// The new confirmation.
        confirmed: u32,
    },
    /// `BattleInputs` (or `BattleInputsFrom`): keys and targets for a room of several seats.
    BattleInputs {
        /// Who.
        client: ClientId,
        /// `BattleInputsFrom`'s first frame: a catch-up that may overlap what the room holds.
        from: Option<u32>,
        /// Key changes as sent.
        changes: Vec<InputChange>,
        /// Target changes as sent.
        targets: Vec<sevenbag_protocol::TargetChange>,
        /// The new confirmation.
        confirmed: u32,
    },
}

/// A seat and whoever holds it.
#[derive(Debug)]
struct SeatSlot {
    name: String,
    handling: Handling,
    /// Token that resumes this seat.
    resume: u64,
    ready: bool,
    /// The connection, while connected.
    conn: Option<Outbox>,
    /// While disconnected in a match: when the seat is forfeited.
    deadline: Option<Instant>,
    /// The seated player's identity (kept across a resume).
    player: Option<PlayerId>,
}

impl SeatSlot {
    fn status(&self, now: Instant) -> SeatStatus {
        match (&self.conn, self.deadline) {
            (Some(_), _) => SeatStatus::Connected,
            (None, Some(d)) => SeatStatus::Reconnecting {
                seconds_left: seconds_until(now, d),
            },
            (None, None) => SeatStatus::Forfeited,
        }
    }

    fn client(&self) -> Option<ClientId> {
        self.conn.as_ref().map(Outbox::id)
    }
}

fn seconds_until(now: Instant, deadline: Instant) -> u8 {
    let left = deadline.saturating_duration_since(now);
    // Round up: "1 second left" until it is really over.
    let secs = left.as_millis().div_ceil(1000);
    secs.min(u128::from(u8::MAX)) as u8
}

/// A match in progress.
#[derive(Debug)]
struct Running {
    sim: ConfirmedSim,
    names: [String; 2],
    /// The instant of frame 0 on the server's clock.
    frame0: Instant,
    started_unix: u64,
    /// Per seat, the last frame answered with `Desync`: a client repeating a bad hash does not
    /// get a fresh `MatchLog` (the largest message a room sends) each time.
    desync_answered: [u32; 2],
    /// Identities, rankedness, desync and stats for the match history.
    tally: Tally,
    /// Per seat, when its last accepted `Inputs` arrived (the match start until then): tells a
    /// player who is behind but sending from one who has gone silent.
    last_inputs: [Instant; 2],
    /// Per seat, when it was last warned that it is behind.
    warned: [Option<Instant>; 2],
    /// Holds `sevenbag_matches_running` up while the match runs; a drain waits for it to
    /// reach zero. Dropped after the replay is written (`Room::report` consumes the match).
    _live: GaugeGuard,
    /// Inputs not yet written to the room log (`None`: room logs off, or no reconnect window).
    log: Option<MatchLog>,
    /// The seats' resume tokens: a player who comes back after the end is told the verdict.
    tokens: [u64; 2],
}

impl Running {
    /// The server's match clock: frames since frame 0 (0 before it).
    fn clock_frame(&self, now: Instant) -> u32 {
        let ms = now.saturating_duration_since(self.frame0).as_millis();
        (ms * 60 / 1000).min(u128::from(u32::MAX)) as u32
    }

    fn log_message(&self, now: Instant) -> ServerMessage {
        let seat_log = |s: Seat| self.sim.log(s);
        ServerMessage::MatchLog {
            header: *self.sim.game().header(),
            names: self.names.clone(),
            changes: Seat::BOTH.map(|s| seat_log(s).changes().to_vec()),
            confirmed: Seat::BOTH.map(|s| seat_log(s).confirmed()),
            now_frame: self.clock_frame(now),
        }
    }
}

/// A room's state: its task's, and (for match messages) its members' connections' under the
/// room's lock (`handle.rs`).
struct Room {
    services: Arc<Services>,
    /// The lobby's maps, told of tokens and of the room's end.
    directory: Arc<dyn Directory>,
    /// Identity in the lobby (a later room may reuse the code).
    id: u64,
    code: String,
    options: RoomOptions,
    /// `options.rules()` with the server's countdown/break overrides applied.
    rules: Rules,
    seats: [Option<SeatSlot>; 2],
    spectators: Spectators,
    running: Option<Running>,
    /// Matches finished in this room (numbers replay ids).
    matches: u32,
    /// Whether matches here are rated.
    ranked: bool,
    /// Each seat's last holder's moderation facts (bot marks, chat filters).
    seat_tags: [Option<Arc<Tags>>; 2],
    /// Players on the datagram path.
    peers: dgram::Peers,
    /// Set when the room's task has ended: a directly run command finds the room gone.
    closed: bool,
}

/// What a room tells the directory that opened it (the lobby's code and token maps). A handle
/// given at spawn, so the room does not import the lobby that imports it.
pub(crate) trait Directory: Send + Sync {
    /// `token` resumes a seat in room `code`.
    fn token_issued(&self, token: u64, code: &str);
    /// `token`'s seat was vacated.
    fn token_dropped(&self, token: u64);
    /// Room `code` (number `id`) has closed.
    fn room_closed(&self, code: &str, id: u64);
    /// A match ended with `verdict` (`MatchOver` or `MatchVoid`): a player who comes back later
    /// with one of its `tokens` is told it.
    fn match_ended(&self, tokens: [u64; 2], verdict: ServerMessage);
}

/// Starts a room task; `None` if the server is shutting down.
pub(crate) fn spawn(
    services: Arc<Services>,
    directory: Arc<dyn Directory>,
    id: u64,
    code: String,
    options: RoomOptions,
    start: Start,
) -> Option<RoomHandle> {
    let guard = services.tasks.guard()?;
    let shutdown = Shutdown::new(services.shutdown.clone());
    let (tx, rx) = mpsc::channel(INBOX);
    let mut rules = options.rules();
    if let Some(frames) = services.config.countdown_frames {
        rules.countdown_frames = frames;
    }
    if let Some(frames) = services.config.round_break_frames {
        rules.round_break_frames = frames;
    }
    let room = Room {
        services,
        directory,
        id,
        code,
        options,
        rules,
        seats: [None, None],
        spectators: Spectators::default(),
        running: None,
        matches: 0,
        // Quick and ranked matches are rooms of the general kind; a ranked match here is one
        // restored from a room log an older server wrote.
        ranked: match &start {
            Start::Restored(loaded) => loaded.open.ranked,
            Start::Created(_) => false,
        },
        seat_tags: [None, None],
        peers: dgram::Peers::default(),
        closed: false,
    };
    let direct = Arc::new(handle::Direct::new(room));
    tokio::spawn(run(direct.clone(), start, rx, shutdown, guard));
    Some(RoomHandle::with_direct(tx, direct))
}

/// The room's task: starts the room, then handles its inbox and timers until it is abandoned
/// or the server shuts down. Each command and timer runs under the room's lock.
async fn run(
    direct: Arc<handle::Direct>,
    start: Start,
    mut inbox: mpsc::Receiver<RoomCommand>,
    mut shutdown: Shutdown,
    _guard: TaskGuard,
) {
    let services = direct.lock().await.services.clone();
    let _open = GaugeGuard::new(&services.metrics.rooms);
    direct.lock().await.open(start).await;
    // Once a second while a match runs: has a connected player stopped sending inputs?
    let mut stall_check = tokio::time::interval(Duration::from_secs(1));
    stall_check.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    // One wait for shutdown for the life of the room, as in the connection's reader: made
    // afresh per command it re-registered with the watch channel every time (3% of the
    // server's instructions, callgrind, docs/history).
    // Gated: the server-wide shutdown channel is not locked on every command.
    let mut shutdown_wait = Gated::new(shutdown.recv());
    loop {
        let (deadline, running) = {
            let room = direct.lock().await;
            if room.is_abandoned() {
                break;
            }
            let deadline = room.seats.iter().flatten().filter_map(|s| s.deadline).min();
            (deadline, room.running.is_some())
        };
        tokio::select! {
            biased;
            _ = &mut shutdown_wait => {
                direct.lock().await.on_shutdown().await;
                break;
            }
            command = inbox.recv() => match command {
                Some(command) => {
                    let mut room = direct.lock().await;
                    room.handle(command).await;
                    // Commands already waiting are handled in the same wake-up, without
                    // polling every timer of the `select!` again for each (bounded, so the
                    // timers still get their turn under a flood).
                    for _ in 0..DRAIN {
                        if room.is_abandoned() {
                            break;
                        }
                        match inbox.try_recv() {
                            Ok(command) => room.handle(command).await,
                            Err(_) => break,
                        }
                    }
                }
                // Unreachable while the lobby holds a handle; harmless if it happens.
                None => break,
            },
            // A directly run command ended the match or emptied the room: look again.
            () = direct.woken() => {}
            _ = sleep_until_opt(deadline), if deadline.is_some() => {
                direct.lock().await.expire(Instant::now()).await;
            }
            _ = stall_check.tick(), if running => {
                direct.lock().await.check_stalled(Instant::now()).await;
            }
        }
    }
    let mut room = direct.lock().await;
    room.closed = true;
    room.directory.room_closed(&room.code, room.id);
    info!(room = %room.code, matches = room.matches, "room closed");
}

impl Room {
    /// Seats the room's first members, or takes a restored match up again.
    async fn open(&mut self, start: Start) {
        info!(room = %self.code, "room opened");
        match start {
            Start::Created(member) => {
                let seat = self.seat(Seat::First, member);
                self.send_joined(seat);
                self.broadcast_state();
            }
            Start::Restored(loaded) => self.restore(*loaded).await,
        }
    }

    async fn handle(&mut self, command: RoomCommand) {
        match command {
            RoomCommand::Join {
                member,
                role,
                reply,
            } => {
                let result = self.join(member, role);
                let _ = reply.send(result);
            }
            RoomCommand::Resume {
                token,
                member,
                reply,
            } => {
                let seat = self.resume(token, member);
                let _ = reply.send(seat.map(Some));
                self.settle_lapsed().await;
            }
            RoomCommand::Leave { client } => self.leave(client, true).await,
            RoomCommand::Disconnected { client } => self.leave(client, false).await,
            RoomCommand::SkinChanged => self.broadcast_skins(),
            RoomCommand::Ready { client } => {
                if let Some(seat) = self.seat_of(client)
                    && self.running.is_none()
                {
                    if let Some(slot) = &mut self.seats[seat.index()] {
                        slot.ready = true;
                    }
                    self.broadcast_state();
                    self.maybe_start();
                }
            }
            RoomCommand::Inputs {
                client,
                changes,
                confirmed,
            } => self.inputs(client, changes, confirmed).await,
            RoomCommand::StateHash {
                client,
                frame,
                hash,
            } => self.state_hash(client, frame, hash),
            RoomCommand::Chat { client, name, text } => self.chat(client, name, text),
            RoomCommand::Datagram { client, event } => self.datagram(client, event).await,
            // A two-seat room checks the whole-match hash and picks no delay for its players.
            RoomCommand::BattleStateHash {
                client,
                frame,
                hash,
                ..
            } => self.state_hash(client, frame, hash),
            RoomCommand::LinkReport { .. } => {}
            RoomCommand::BattleInputs { client, .. } => {
                let seated = self.seats.iter().flatten().filter_map(|s| s.conn.as_ref());
                if let Some(outbox) = seated.chain(&self.spectators).find(|o| o.id() == client) {
                    outbox.cut(Cut::error(
                        ErrorCode::BadInput,
                        "a two-seat room takes Inputs, not BattleInputs",
                    ));
                }
            }
            RoomCommand::InputsFrom {
                client,
                from,
                changes,
                confirmed,
            } => match self.seat_of(client) {
                Some(seat) => self.window(seat, from, changes, confirmed, false).await,
                None => self.inputs(client, changes, confirmed).await,
            },
        }
    }

    async fn on_shutdown(&mut self) {
        // Unfinished: the replay keeps the log so far, with no winner, and no MatchOver is
        // sent (every connection is being told `Shutdown` by its own task).
        self.finish(None, EndReason::Shutdown).await;
    }

    fn seat_of(&self, client: ClientId) -> Option<Seat> {
        Seat::BOTH.into_iter().find(|s| {
            self.seats[s.index()]
                .as_ref()
                .is_some_and(|slot| slot.client() == Some(client))
        })
    }

    fn state_message(&self) -> ServerMessage {
        let now = Instant::now();
        ServerMessage::RoomState {
            seats: [0, 1].map(|i| {
                self.seats[i].as_ref().map(|s| SeatInfo {
                    name: s.name.clone(),
                    ready: s.ready,
                    status: s.status(now),
                })
            }),
            spectators: self.spectators.len().min(usize::from(u16::MAX)) as u16,
        }
    }

    /// `RoomState`, then which seats hold declared bots (`SeatMarks`) and which skin each
    /// seat wears (`SeatSkins`).
    fn broadcast_state(&self) {
        self.broadcast(&self.state_message());
        let bots = [0, 1].map(|i| {
            self.seats[i].is_some() && self.seat_tags[i].as_ref().is_some_and(|t| t.is_bot())
        });
        self.broadcast(&ServerMessage::SeatMarks {
            bots: bots.to_vec(),
        });
        self.broadcast_skins();
    }

    /// Which skin each seat wears (`SeatSkins`), read from the seats' tags now.
    fn broadcast_skins(&self) {
        let skins = [0, 1].map(|i| {
            let tags = self.seat_tags[i]
                .as_ref()
                .filter(|_| self.seats[i].is_some());
            tags.and_then(|t| t.skin())
        });
        self.broadcast(&ServerMessage::SeatSkins {
            skins: skins.to_vec(),
        });
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

async fn sleep_until_opt(deadline: Option<Instant>) {
    match deadline {
        Some(d) => tokio::time::sleep_until(d.into()).await,
        None => std::future::pending().await,
    }
}

fn unix_now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis().min(u128::from(u64::MAX)) as u64)
}

fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}
