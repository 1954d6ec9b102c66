//! One task per room: it owns the seats, the spectators and the running match, so none of that
//! state is services or locked.
//!
//! Connection tasks talk to a room through its bounded inbox ([`RoomHandle`]); the room talks to
//! connections only through their [`Outbox`]es, which never block (see [`crate::relay`]). The
//! room therefore never waits on a client, and a client waits on the room only while the room's
//! inbox is full — which pushes back on that client's socket, the right place for it.
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

use crate::durable::{Loaded, MatchLog, MatchOpen};
use crate::metrics::GaugeGuard;
use crate::ranked::Identity;
use crate::record::Tally;
use crate::refusal::{Refusal, draining, random_u64};
use crate::relay::{self, ClientId, Cut, Outbox};
use crate::services::Services;
use crate::shutdown::{Shutdown, TaskGuard};

/// How many commands may wait in a room's inbox before senders wait. Inputs from two players
/// at a few dozen messages a second each never come close; the bound exists so a room that is
/// busy writing a replay pushes back instead of buffering without limit.
const INBOX: usize = 256;

/// Most commands a room handles in one wake-up after the first (see `Room::run`).
const DRAIN: usize = 32;

/// Where connection tasks send room commands.
pub(crate) type RoomHandle = mpsc::Sender<RoomCommand>;

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
}

/// How a room starts.
#[derive(Debug)]
pub(crate) enum Start {
    /// `CreateRoom`: the creator takes seat First.
    Created(Member),
    /// Quick match: both seats taken and ready, so the match starts at once.
    Quick([Member; 2]),
    /// Ranked match: as quick match, and the result is rated.
    Ranked([Member; 2]),
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
        /// The seat, or `None` if the token matches no seat any more.
        reply: oneshot::Sender<Option<Seat>>,
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

/// The room task's state.
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
    spectators: Vec<Outbox>,
    running: Option<Running>,
    /// Matches finished in this room (numbers replay ids).
    matches: u32,
    /// Whether matches here are rated.
    ranked: bool,
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
        spectators: Vec::new(),
        running: None,
        matches: 0,
        ranked: match &start {
            Start::Ranked(_) => true,
            Start::Restored(loaded) => loaded.open.ranked,
            Start::Created(_) | Start::Quick(_) => false,
        },
    };
    tokio::spawn(room.run(start, rx, shutdown, guard));
    Some(tx)
}

impl Room {
    async fn run(
        mut self,
        start: Start,
        mut inbox: mpsc::Receiver<RoomCommand>,
        mut shutdown: Shutdown,
        _guard: TaskGuard,
    ) {
        let _open = GaugeGuard::new(&self.services.metrics.rooms);
        info!(room = %self.code, "room opened");
        match start {
            Start::Created(member) => {
                let seat = self.seat(Seat::First, member);
                self.send_joined(seat);
                self.broadcast_state();
            }
            Start::Quick([a, b]) | Start::Ranked([a, b]) => {
                self.seat(Seat::First, a);
                self.seat(Seat::Second, b);
                self.send_joined(Seat::First);
                self.send_joined(Seat::Second);
                for slot in self.seats.iter_mut().flatten() {
                    slot.ready = true;
                }
                self.broadcast_state();
                self.maybe_start();
            }
            Start::Restored(loaded) => self.restore(*loaded).await,
        }
        // Once a second while a match runs: has a connected player stopped sending inputs?
        let mut stall_check = tokio::time::interval(Duration::from_secs(1));
        stall_check.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
        // The room log's batching: new inputs go to the writer at most this often.
        let flush_every = self
            .services
            .room_logs
            .as_ref()
            .map_or(Duration::from_secs(3600), |l| l.flush_every());
        let mut flush = tokio::time::interval(flush_every);
        flush.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        // One wait for shutdown for the life of the room, as in the connection's reader: made
        // afresh per command it re-registered with the watch channel every time (3% of the
        // server's instructions, callgrind, BENCHMARKS.md issue #8).
        let shutdown_wait = shutdown.recv();
        tokio::pin!(shutdown_wait);
        loop {
            let deadline = self.seats.iter().flatten().filter_map(|s| s.deadline).min();
            tokio::select! {
                biased;
                _ = &mut shutdown_wait => {
                    self.on_shutdown().await;
                    break;
                }
                command = inbox.recv() => match command {
                    Some(command) => {
                        self.handle(command).await;
                        // Commands already waiting are handled in the same wake-up, without
                        // polling every timer of the `select!` again for each (bounded, so the
                        // timers still get their turn under a flood).
                        for _ in 0..DRAIN {
                            if self.is_abandoned() {
                                break;
                            }
                            match inbox.try_recv() {
                                Ok(command) => self.handle(command).await,
                                Err(_) => break,
                            }
                        }
                    }
                    // Unreachable while the lobby holds a handle; harmless if it happens.
                    None => break,
                },
                _ = sleep_until_opt(deadline), if deadline.is_some() => {
                    self.expire(Instant::now()).await;
                }
                _ = stall_check.tick(), if self.running.is_some() => {
                    self.check_stalled(Instant::now()).await;
                }
                _ = flush.tick(), if self.log_dirty() => self.flush_log(),
            }
            if self.is_abandoned() {
                break;
            }
        }
        self.directory.room_closed(&self.code, self.id);
        info!(room = %self.code, matches = self.matches, "room closed");
    }

    /// Whether the running match has inputs not yet handed to the room log writer.
    fn log_dirty(&self) -> bool {
        self.running
            .as_ref()
            .and_then(|r| r.log.as_ref())
            .is_some_and(MatchLog::is_dirty)
    }

    fn flush_log(&mut self) {
        if let (Some(logs), Some(log)) = (
            &self.services.room_logs,
            self.running.as_mut().and_then(|r| r.log.as_mut()),
        ) {
            logs.flush(log);
        }
    }

    /// Takes up a match read back from its room log: the seats keep their names, handlings,
    /// identities and tokens and wait for their players for the reconnect window; the match
    /// clock keeps the wall-clock time of frame 0, so it agrees with the clients' clocks.
    async fn restore(&mut self, loaded: Loaded) {
        let Loaded { open, sim, .. } = loaded;
        let MatchOpen {
            header,
            names,
            tokens,
            players,
            started_unix,
            frame0_unix_ms,
            matches,
            ranked,
            ..
        } = open;
        let now = Instant::now();
        let window = Duration::from_secs(u64::from(self.options.reconnect_seconds.max(1)));
        let players = players.map(|p| p.map(PlayerId));
        for seat in Seat::BOTH {
            let i = seat.index();
            self.directory.token_issued(tokens[i], &self.code);
            self.seats[i] = Some(SeatSlot {
                name: names[i].clone(),
                handling: header.handling[i],
                resume: tokens[i],
                ready: false,
                conn: None,
                deadline: Some(now + window),
                player: players[i],
            });
        }
        self.matches = matches;
        let since_frame0 = Duration::from_millis(unix_now_ms().saturating_sub(frame0_unix_ms));
        let frame0 = now.checked_sub(since_frame0).unwrap_or(now);
        let confirmed = Seat::BOTH.map(|s| sim.log(s).confirmed());
        info!(
            room = %self.code,
            ?confirmed,
            frame = sim.frame(),
            window_s = window.as_secs(),
            "match restored from its room log; waiting for the players"
        );
        let decided = sim.winner();
        self.running = Some(Running {
            sim,
            names,
            frame0,
            started_unix,
            desync_answered: [0; 2],
            tally: Tally::new(ranked, players),
            last_inputs: [now; 2],
            warned: [None; 2],
            _live: GaugeGuard::new(&self.services.metrics.matches_running),
            log: self
                .services
                .room_logs
                .as_ref()
                .map(|l| l.resume(&self.code)),
        });
        if let Some(winner) = decided {
            // The server died between the deciding inputs and writing the replay.
            self.finish(Some(winner), EndReason::TopOut).await;
        }
    }

    /// Nobody seated, watching, or due back.
    fn is_abandoned(&self) -> bool {
        self.seats.iter().all(Option::is_none) && self.spectators.is_empty()
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
                let _ = reply.send(seat);
            }
            RoomCommand::Leave { client } => self.leave(client, true).await,
            RoomCommand::Disconnected { client } => self.leave(client, false).await,
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
        }
    }

    /// Puts `member` in `seat` with a fresh resume token.
    fn seat(&mut self, seat: Seat, member: Member) -> Seat {
        let resume = random_u64();
        self.directory.token_issued(resume, &self.code);
        self.seats[seat.index()] = Some(SeatSlot {
            name: member.name,
            handling: member.handling,
            resume,
            ready: false,
            conn: Some(member.outbox),
            deadline: None,
            player: member.identity.map(|i| i.id),
        });
        seat
    }

    fn vacate(&mut self, seat: Seat) {
        if let Some(slot) = self.seats[seat.index()].take() {
            self.directory.token_dropped(slot.resume);
        }
    }

    fn send_joined(&self, seat: Seat) {
        if let Some(slot) = &self.seats[seat.index()]
            && let Some(conn) = &slot.conn
        {
            conn.send(&ServerMessage::Joined {
                code: self.code.clone(),
                seat: Some(seat),
                resume: slot.resume,
                options: self.options,
            });
        }
    }

    fn join(&mut self, member: Member, role: JoinRole) -> Result<Option<Seat>, Refusal> {
        match role {
            JoinRole::Player => {
                let free = Seat::BOTH
                    .into_iter()
                    .find(|s| self.seats[s.index()].is_none());
                let Some(seat) = free.filter(|_| self.running.is_none()) else {
                    return Err((
                        ErrorCode::RoomFull,
                        format!(
                            "both seats of room {} are taken; join as a spectator",
                            self.code
                        ),
                    ));
                };
                info!(room = %self.code, client = member.client, ?seat, "player joined");
                self.seat(seat, member);
                self.send_joined(seat);
                self.broadcast_state();
                Ok(Some(seat))
            }
            JoinRole::Spectator => {
                if self.spectators.len() >= self.services.config.limits.max_spectators {
                    return Err((
                        ErrorCode::RoomFull,
                        format!("room {} has no spectator places left", self.code),
                    ));
                }
                debug!(room = %self.code, client = member.client, "spectator joined");
                member.outbox.send(&ServerMessage::Joined {
                    code: self.code.clone(),
                    seat: None,
                    resume: 0,
                    options: self.options,
                });
                if let Some(run) = &self.running {
                    // The state first, then the log, then live inputs: the room handles one
                    // command at a time, so nothing can be relayed between these.
                    self.spectators.push(member.outbox.clone());
                    self.broadcast_state();
                    member.outbox.send(&run.log_message(Instant::now()));
                } else {
                    self.spectators.push(member.outbox);
                    self.broadcast_state();
                }
                Ok(None)
            }
        }
    }

    fn resume(&mut self, token: u64, member: Member) -> Option<Seat> {
        let seat = Seat::BOTH.into_iter().find(|s| {
            self.seats[s.index()]
                .as_ref()
                .is_some_and(|slot| slot.resume == token)
        })?;
        let slot = self.seats[seat.index()].as_mut()?;
        if let Some(old) = slot.conn.take() {
            // The old connection is still open (its drop not noticed yet): the token holder
            // is the player, so the new connection wins.
            old.cut(Cut::error(
                ErrorCode::BadResume,
                "this seat was resumed from another connection",
            ));
        }
        slot.conn = Some(member.outbox.clone());
        slot.deadline = None;
        info!(room = %self.code, client = member.client, ?seat, "player resumed");
        self.send_joined(seat);
        self.broadcast_state();
        if let Some(run) = &self.running {
            member.outbox.send(&run.log_message(Instant::now()));
            self.broadcast_except(
                &ServerMessage::SeatStatus {
                    seat,
                    status: SeatStatus::Connected,
                },
                Some(member.client),
            );
        }
        Some(seat)
    }

    /// A member goes: `forfeit` for `LeaveRoom` (a player in a match loses at once), otherwise
    /// the connection dropped (a player in a match gets the reconnect window).
    async fn leave(&mut self, client: ClientId, forfeit: bool) {
        if let Some(i) = self.spectators.iter().position(|o| o.id() == client) {
            self.spectators.swap_remove(i);
            self.broadcast_state();
            return;
        }
        let Some(seat) = self.seat_of(client) else {
            return;
        };
        if self.running.is_none() {
            info!(room = %self.code, client, ?seat, "player left");
            self.vacate(seat);
            self.broadcast_state();
            return;
        }
        let window = u64::from(self.options.reconnect_seconds);
        if forfeit || window == 0 {
            info!(room = %self.code, client, ?seat, "player left the match: forfeit");
            self.forfeit(seat).await;
            return;
        }
        let now = Instant::now();
        if let Some(slot) = &mut self.seats[seat.index()] {
            slot.conn = None;
            slot.deadline = Some(now + Duration::from_secs(window));
            info!(room = %self.code, client, ?seat, window, "player dropped; waiting for a reconnect");
            let status = slot.status(now);
            self.broadcast(&ServerMessage::SeatStatus { seat, status });
        }
    }

    /// Reconnect windows that have run out forfeit their seat.
    async fn expire(&mut self, now: Instant) {
        for seat in Seat::BOTH {
            let due = self.seats[seat.index()]
                .as_ref()
                .and_then(|s| s.deadline)
                .is_some_and(|d| d <= now);
            if due {
                info!(room = %self.code, ?seat, "reconnect window passed: forfeit");
                self.forfeit(seat).await;
            }
        }
    }

    /// The slow-or-silent rule (docs/SERVER.md): a connected player whose inputs fall more than
    /// `max_frames_behind` frames behind the match clock, *and* behind the opponent, is either
    /// - silent: no `Inputs` for `max_silence`: gone, so they forfeit, told exactly that; or
    /// - slow but sending (a busy machine catching up): warned with `Behind` every
    ///   `behind_warning_every`, and forfeited only past `max_frames_behind_sending`.
    ///
    /// The opponent of a lagging player also falls behind the clock (their client stalls at its
    /// prediction window) but stays ahead of the lagging one; and while the opponent is away
    /// reconnecting, nobody is judged: the reconnect window decides.
    async fn check_stalled(&mut self, now: Instant) {
        let Some(running) = &mut self.running else {
            return;
        };
        if self
            .seats
            .iter()
            .any(|s| s.as_ref().is_none_or(|s| s.conn.is_none()))
        {
            return;
        }
        let clock = running.clock_frame(now);
        let limits = &self.services.config.limits;
        let confirmed = Seat::BOTH.map(|s| running.sim.log(s).confirmed());
        for seat in Seat::BOTH {
            let mine = confirmed[seat.index()];
            let behind = clock.saturating_sub(mine);
            if behind <= limits.max_frames_behind || mine >= confirmed[seat.other().index()] {
                continue;
            }
            let silent = now.saturating_duration_since(running.last_inputs[seat.index()]);
            let conn = self.seats[seat.index()]
                .as_ref()
                .and_then(|s| s.conn.clone());
            let (code, message) = if silent >= limits.max_silence {
                warn!(room = %self.code, ?seat, clock, confirmed = mine, silent_s = silent.as_secs(), "player went silent: forfeit");
                (
                    ErrorCode::Timeout,
                    format!(
                        "no inputs from you for {} s while the match went on: you forfeit the match",
                        silent.as_secs()
                    ),
                )
            } else if behind > limits.max_frames_behind_sending {
                warn!(room = %self.code, ?seat, clock, confirmed = mine, "player still sending but could not catch up: forfeit");
                (
                    ErrorCode::Behind,
                    format!(
                        "your game fell {} s behind the match and could not catch up (is this machine overloaded?): you forfeit the match",
                        behind / 60
                    ),
                )
            } else {
                let due = running.warned[seat.index()].is_none_or(|at| {
                    now.saturating_duration_since(at) >= limits.behind_warning_every
                });
                if due {
                    running.warned[seat.index()] = Some(now);
                    info!(room = %self.code, ?seat, clock, confirmed = mine, "player behind but sending: warned");
                    if let Some(conn) = &conn {
                        conn.send(&ServerMessage::Error {
                            code: ErrorCode::Behind,
                            message: format!(
                                "your game is running {} s behind the match; it has {} s to catch up. Close other programs or lower the frame rate.",
                                behind / 60,
                                (limits.max_frames_behind_sending - behind) / 60
                            ),
                            fatal: false,
                        });
                    }
                }
                continue;
            };
            if let Some(conn) = &conn {
                conn.send(&ServerMessage::Error {
                    code,
                    message,
                    fatal: false,
                });
            }
            self.forfeit(seat).await;
            return;
        }
    }

    /// `seat` loses the running match without playing it out, and leaves its seat.
    async fn forfeit(&mut self, seat: Seat) {
        // A player the server forfeits while still connected (the idle rule) is told the
        // result too, so every player sees the end: who won and why.
        let conn = self.seats[seat.index()]
            .as_ref()
            .and_then(|s| s.conn.clone());
        self.broadcast(&ServerMessage::SeatStatus {
            seat,
            status: SeatStatus::Forfeited,
        });
        self.vacate(seat);
        let over = self.finish(Some(seat.other()), EndReason::Forfeit).await;
        if let (Some(conn), Some(over)) = (conn, over) {
            conn.send(&over);
        }
    }

    fn maybe_start(&mut self) {
        if self.running.is_some() {
            return;
        }
        let [Some(a), Some(b)] = &self.seats else {
            return;
        };
        if !(a.ready && b.ready && a.conn.is_some() && b.conn.is_some()) {
            return;
        }
        if self.services.draining.is_draining() {
            let (code, message) = draining();
            for slot in self.seats.iter_mut().flatten() {
                slot.ready = false;
                if let Some(conn) = &slot.conn {
                    conn.send(&ServerMessage::Error {
                        code,
                        message: message.clone(),
                        fatal: false,
                    });
                }
            }
            self.broadcast_state();
            return;
        }
        let header = MatchHeader {
            rules: self.rules,
            seed: random_u64(),
            handling: [a.handling, b.handling],
        };
        let names = [a.name.clone(), b.name.clone()];
        let players = [a.player, b.player];
        let tokens = [a.resume, b.resume];
        let delay = self.services.config.start_delay;
        let start_in_ms = delay.as_millis().min(u128::from(u32::MAX)) as u32;
        for slot in self.seats.iter_mut().flatten() {
            slot.ready = false;
        }
        info!(room = %self.code, seed = header.seed, "match started");
        self.services.metrics.matches_started.inc();
        self.broadcast(&ServerMessage::MatchStart {
            header,
            names: names.clone(),
            start_in_ms,
        });
        let log = self
            .services
            .room_logs
            .as_ref()
            .filter(|_| self.options.reconnect_seconds > 0)
            .map(|logs| {
                logs.begin(MatchOpen {
                    code: self.code.clone(),
                    options: self.options,
                    ranked: self.ranked,
                    header,
                    names: names.clone(),
                    tokens,
                    players: players.map(|p| p.map(|p| p.0)),
                    started_unix: unix_now(),
                    frame0_unix_ms: unix_now_ms()
                        .saturating_add(delay.as_millis().min(u128::from(u32::MAX)) as u64),
                    matches: self.matches,
                })
            });
        self.running = Some(Running {
            sim: ConfirmedSim::new(header),
            names,
            frame0: Instant::now() + delay,
            started_unix: unix_now(),
            desync_answered: [0; 2],
            tally: Tally::new(self.ranked, players),
            last_inputs: [Instant::now() + delay; 2],
            warned: [None; 2],
            _live: GaugeGuard::new(&self.services.metrics.matches_running),
            log,
        });
    }

    async fn inputs(&mut self, client: ClientId, changes: Vec<InputChange>, confirmed: u32) {
        let Some(seat) = self.seat_of(client) else {
            if let Some(spectator) = self.spectators.iter().find(|o| o.id() == client) {
                spectator.cut(Cut::error(
                    ErrorCode::BadInput,
                    "spectators may not send inputs",
                ));
            }
            return;
        };
        let Some(run) = &mut self.running else {
            // Inputs of a match that just ended, still in flight: harmless, dropped.
            return;
        };
        let Some(conn) = self.seats[seat.index()]
            .as_ref()
            .and_then(|s| s.conn.clone())
        else {
            return;
        };
        let limits = &self.services.config.limits;
        if changes.len() > limits.max_changes_per_message {
            conn.cut(Cut::error(
                ErrorCode::BadInput,
                format!(
                    "{} input changes in one message; the limit is {}",
                    changes.len(),
                    limits.max_changes_per_message
                ),
            ));
            return;
        }
        let clock = run.clock_frame(Instant::now());
        let allowed = clock.saturating_add(limits.max_frames_ahead);
        if confirmed > allowed {
            conn.cut(Cut::error(
                ErrorCode::BadInput,
                format!(
                    "inputs confirmed through frame {confirmed}, but the match clock is at frame {clock} (at most {} ahead)",
                    limits.max_frames_ahead
                ),
            ));
            return;
        }
        if let Err(e) = run.sim.extend(seat, &changes, confirmed) {
            conn.cut(Cut::error(ErrorCode::BadInput, format!("bad inputs: {e}")));
            return;
        }
        run.last_inputs[seat.index()] = Instant::now();
        if let Some(log) = &mut run.log {
            log.inputs(seat, &changes, confirmed);
        }
        // Relay at once, unchanged, encoded once for every recipient.
        if let Some(bytes) = relay::encode(&ServerMessage::Inputs {
            seat,
            changes,
            confirmed,
        }) {
            if let Some(opponent) = self.seats[seat.other().index()]
                .as_ref()
                .and_then(|s| s.conn.as_ref())
            {
                opponent.send_bytes(bytes.clone());
            }
            for spectator in &self.spectators {
                spectator.send_bytes(bytes.clone());
            }
        }
        let events = run.sim.advance();
        if events.iter().any(|e| matches!(e, SimEvent::RoundOver(_))) {
            run.tally.round_over(&run.sim);
        }
        for event in events {
            match event {
                SimEvent::RoundOver(r) => {
                    debug!(room = %self.code, round = r.round, winner = ?r.winner, "round over");
                    self.broadcast(&ServerMessage::RoundOver {
                        round: r.round,
                        winner: r.winner,
                        wins: r.wins,
                        frame: r.frame,
                    });
                }
                SimEvent::MatchOver { winner, .. } => {
                    self.finish(Some(winner), EndReason::TopOut).await;
                }
            }
        }
    }

    fn state_hash(&mut self, client: ClientId, frame: u32, hash: u64) {
        let Some(seat) = self.seat_of(client) else {
            return;
        };
        let Some(run) = &mut self.running else {
            return;
        };
        let Some(server_hash) = run.sim.hash_at(frame) else {
            debug!(room = %self.code, ?seat, frame, "hash for a frame not simulated (or off the interval); ignored");
            return;
        };
        // A repeat of an answered (or earlier) frame is ignored: no log flood, no log resend.
        if server_hash == hash || frame <= run.desync_answered[seat.index()] {
            return;
        }
        warn!(
            room = %self.code,
            ?seat,
            frame,
            server_hash = format_args!("{server_hash:#018x}"),
            client_hash = format_args!("{hash:#018x}"),
            "desync"
        );
        run.desync_answered[seat.index()] = frame;
        run.tally.desync();
        self.services.metrics.desyncs.inc();
        if let Some(conn) = self.seats[seat.index()]
            .as_ref()
            .and_then(|s| s.conn.as_ref())
        {
            conn.send(&ServerMessage::Desync {
                frame,
                server_hash,
                your_hash: hash,
            });
            conn.send(&run.log_message(Instant::now()));
        }
    }

    /// Ends the running match: writes its replay, tells everyone (unless unfinished), and goes
    /// back to waiting for `Ready`.
    /// Ends the running match, saves its replay and tells the room; returns the `MatchOver`
    /// sent (if there is a winner), for a forfeited player who is no longer seated.
    async fn finish(&mut self, winner: Option<Seat>, reason: EndReason) -> Option<ServerMessage> {
        let mut run = self.running.take()?;
        self.matches += 1;
        self.services.metrics.matches_finished.inc();
        let replay = Replay::record(&run.sim, run.names.clone(), winner, reason, unix_now());
        let base = format!("{}-{}-{}", run.started_unix, self.code, self.matches);
        // The room waits for the write (a few milliseconds) so that `MatchOver` names a file
        // that already exists: a client may ask for it the moment it hears.
        let id = self.services.replays.save(&base, &replay).await;
        info!(room = %self.code, ?winner, ?reason, frames = run.sim.frame(), replay = ?id, "match over");
        if let (Some(logs), Some(mut log)) = (&self.services.room_logs, run.log.take()) {
            if reason == EndReason::Shutdown {
                // Kept for a restart with the same flags, which takes the match up again.
                logs.flush(&mut log);
                info!(room = %self.code, dir = %logs.dir().display(), "room log kept: the match resumes when the server starts again");
            } else {
                logs.remove(log);
            }
        }
        self.report(run, winner, reason, id.clone());
        let over = winner.map(|winner| ServerMessage::MatchOver {
            winner,
            reason,
            replay: id,
        });
        if let Some(over) = &over {
            self.broadcast(over);
        }
        // Players who dropped and never came back have nothing to come back to.
        for seat in Seat::BOTH {
            if self.seats[seat.index()]
                .as_ref()
                .is_some_and(|s| s.conn.is_none())
            {
                self.vacate(seat);
            }
        }
        for slot in self.seats.iter_mut().flatten() {
            slot.ready = false;
        }
        self.broadcast_state();
        over
    }

    /// Hands the match to the database writer (never waits on it).
    fn report(
        &self,
        run: Running,
        winner: Option<Seat>,
        reason: EndReason,
        replay: Option<String>,
    ) {
        let Some(db) = &self.services.db else {
            return;
        };
        let outboxes = [0, 1].map(|i| self.seats[i].as_ref().and_then(|s| s.conn.clone()));
        let away = self.seats.iter().flatten().any(|s| s.deadline.is_some());
        let Running {
            sim,
            names,
            started_unix,
            tally,
            ..
        } = run;
        db.record(tally.result(
            &sim,
            &names,
            winner,
            reason,
            replay,
            started_unix,
            outboxes,
            away,
        ));
    }

    /// Relays a chat line from a member to everyone in the room.
    fn chat(&self, client: ClientId, name: String, text: String) {
        let seat = self.seat_of(client);
        if seat.is_none() && !self.spectators.iter().any(|o| o.id() == client) {
            return;
        }
        self.broadcast(&ServerMessage::Chat {
            from: name,
            seat,
            text,
        });
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

    fn broadcast_state(&self) {
        self.broadcast(&self.state_message());
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
