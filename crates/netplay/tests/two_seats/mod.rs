//! The two-seat harness: one set of session tests for the two-seat [`Session`] and for a
//! two-seat [`BattleSession`] (of [`BattleHeader::versus`] of the same header), so each behaviour
//! is written once and checked on both.
//!
//! [`TwoSeats`] is what the tests ask of a session; each session implements it in thin terms of
//! its own API and its own wire messages (`Inputs`, `StateHash`, `MatchLog`, `Desync` for the
//! two-seat one; `BattleInputs`, `BattleHash`, `BattleLog`, `BattleDesyncBoards` for the general
//! one). The model [`Server`] relays inputs, simulates the confirmed versus [`Match`] and checks
//! hashes for either; [`Relay`] carries the messages both ways with artificial, jittered delay.
//! Time is counted in frames; nothing sleeps.

use std::collections::{HashMap, VecDeque};
use std::fmt::Debug;

use sevenbag_core::{
    Battle, BattleHeader, Input, MAX_SEATS, Match, MatchHeader, Rules, Seat, SeatInput,
};
use sevenbag_netplay::{
    BattleSession, BattleSessionError, InputSource, RandomInputs, Session, SessionError,
    SessionOptions, SessionStats, Step,
};
use sevenbag_protocol::{ClientMessage, InputChange, InputLog, ServerMessage};

/// The header every test plays: versus rules, 99 rounds to win (so no match ends), short
/// countdowns and breaks.
pub fn header(seed: u64) -> MatchHeader {
    MatchHeader {
        rules: Rules {
            first_to: 99,
            countdown_frames: 30,
            round_break_frames: 30,
            ..Rules::versus()
        },
        ..MatchHeader::versus(seed)
    }
}

/// A round end as a session noted it, in terms both sessions share.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoundSeen {
    /// Round number, from 0.
    pub round: u32,
    /// The winning seat (the team of that seat for the general session).
    pub winner: Option<usize>,
    /// Round wins after it.
    pub wins: [u8; 2],
    /// The frame it ended on.
    pub frame: u32,
    /// The match's hash right after it.
    pub hash: u64,
}

/// The match a session simulates, as the tests step and compare it.
pub trait TwoSeatGame: Clone + Debug + PartialEq {
    /// Frame 0 of the match of `header`.
    fn start(header: &MatchHeader) -> Self;
    /// Simulates one frame with both seats' keys.
    fn play(&mut self, keys: [Input; 2]);
    /// Frames simulated so far.
    fn frames(&self) -> u32;
    /// The state hash the server checks.
    fn hash(&self) -> u64;
    /// The current round and each seat's round wins.
    fn score(&self) -> (u32, [u8; 2]);
}

impl TwoSeatGame for Match {
    fn start(header: &MatchHeader) -> Match {
        Match::new(*header)
    }

    fn play(&mut self, keys: [Input; 2]) {
        self.step(keys);
    }

    fn frames(&self) -> u32 {
        self.frame().0
    }

    fn hash(&self) -> u64 {
        self.state_hash()
    }

    fn score(&self) -> (u32, [u8; 2]) {
        (self.round(), self.wins())
    }
}

impl TwoSeatGame for Battle {
    fn start(header: &MatchHeader) -> Battle {
        Battle::new(BattleHeader::versus(header)).expect("a versus header makes a match")
    }

    fn play(&mut self, keys: [Input; 2]) {
        let mut inputs = [SeatInput::NONE; MAX_SEATS];
        inputs[0] = keys[0].into();
        inputs[1] = keys[1].into();
        self.step(&inputs);
    }

    fn frames(&self) -> u32 {
        self.frame().0
    }

    fn hash(&self) -> u64 {
        self.state_hash()
    }

    fn score(&self) -> (u32, [u8; 2]) {
        (self.round(), [self.wins()[0], self.wins()[1]])
    }
}

/// What a client sends, read from either session's messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Up {
    /// A batch of our keys (`Inputs`, `BattleInputs`).
    Inputs {
        changes: Vec<InputChange>,
        confirmed: u32,
    },
    /// A hash of the confirmed match (`StateHash`, `BattleHash`).
    Hash { frame: u32, hash: u64 },
}

/// The server's whole log, as `MatchLog` and `BattleLog` carry it.
#[derive(Clone, Debug)]
pub struct Log {
    pub changes: [Vec<InputChange>; 2],
    pub confirmed: [u32; 2],
    pub now_frame: u32,
}

/// What the model server sends, before a session's own message carries it.
#[derive(Clone, Debug)]
pub enum Down {
    /// One seat's batch, relayed.
    Inputs {
        seat: Seat,
        changes: Vec<InputChange>,
        confirmed: u32,
    },
    /// The client's hash at `frame` is not the server's; `boards` are the server's board hashes
    /// there.
    Desync {
        frame: u32,
        server_hash: u64,
        your_hash: u64,
        boards: [u64; 2],
    },
    /// The whole log, to rebuild from.
    Log(Log),
}

/// A rollback session of a two-seat match, as these tests drive it.
pub trait TwoSeats: Sized {
    /// The match it simulates.
    type Game: TwoSeatGame;
    /// Why it refuses inputs or a log.
    type Error: Debug + PartialEq;

    /// A session at frame 0 of the match of `header`.
    fn new(header: MatchHeader, local: Option<Seat>, options: SessionOptions) -> Self;
    /// A session fast-forwarded through the server's log.
    fn from_log(
        header: MatchHeader,
        local: Option<Seat>,
        options: SessionOptions,
        changes: &[Vec<InputChange>; 2],
        confirmed: [u32; 2],
    ) -> Result<Self, Self::Error>;
    /// Our seat, or `None` to spectate.
    fn local_seat(&self) -> Option<Seat>;
    /// The next frame the predicted match simulates.
    fn frame(&self) -> u32;
    /// Whether `advance` would record its keys.
    fn needs_input(&self) -> bool;
    /// Records our keys and simulates a frame, or stalls.
    fn advance(&mut self, keys: Input) -> Step;
    /// Takes a batch of the other seat's keys.
    fn remote_inputs(
        &mut self,
        seat: Seat,
        changes: &[InputChange],
        confirmed: u32,
    ) -> Result<(), Self::Error>;
    /// Rebuilds from the server's log.
    fn apply_log(
        &mut self,
        changes: &[Vec<InputChange>; 2],
        confirmed: [u32; 2],
    ) -> Result<(), Self::Error>;
    /// Takes a server message in this session's own wire form.
    fn handle(&mut self, message: &ServerMessage) -> Result<bool, Self::Error>;
    /// The next message to send, in this session's own wire form.
    fn poll_outgoing(&mut self) -> Option<ClientMessage>;
    /// Sends everything chosen so far at the next poll.
    fn flush(&mut self);
    /// The options in force.
    fn options(&self) -> SessionOptions;
    /// Changes the input delay mid-match.
    fn set_input_delay(&mut self, delay: u32);
    /// Widens the prediction window mid-match, up to garbage travel.
    fn widen_window(&mut self, window: u32);
    /// What prediction cost.
    fn stats(&self) -> SessionStats;
    /// Hashes of the confirmed match: (frame, hash).
    fn hashes(&self) -> &[(u32, u64)];
    /// The rounds the confirmed match ended, each with the hash right after it.
    fn rounds(&self) -> Vec<RoundSeen>;
    /// Snapshots held for rollback.
    fn snapshots(&self) -> usize;
    /// The match to draw.
    fn predicted(&self) -> &Self::Game;
    /// The match stepped only on final inputs.
    fn confirmed(&self) -> &Self::Game;
    /// Frames of `seat` final here.
    fn confirmed_frames(&self, seat: Seat) -> u32;
    /// `seat`'s final keys at `frame`.
    fn keys_at(&self, seat: Seat, frame: u32) -> Option<Input>;

    /// The refusal of inputs for our own seat.
    fn own_seat(seat: Seat) -> Self::Error;
    /// Reads a message this session sent.
    fn read(message: ClientMessage) -> Up;
    /// The server's message in this session's wire form.
    fn wire(header: &MatchHeader, message: Down) -> ServerMessage;
}

impl TwoSeats for Session {
    type Game = Match;
    type Error = SessionError;

    fn new(header: MatchHeader, local: Option<Seat>, options: SessionOptions) -> Session {
        Session::new(header, local, options)
    }

    fn from_log(
        header: MatchHeader,
        local: Option<Seat>,
        options: SessionOptions,
        changes: &[Vec<InputChange>; 2],
        confirmed: [u32; 2],
    ) -> Result<Session, SessionError> {
        Session::from_log(header, local, options, changes, confirmed)
    }

    fn local_seat(&self) -> Option<Seat> {
        self.local_seat()
    }

    fn frame(&self) -> u32 {
        self.frame()
    }

    fn needs_input(&self) -> bool {
        self.needs_input()
    }

    fn advance(&mut self, keys: Input) -> Step {
        self.advance(keys)
    }

    fn remote_inputs(
        &mut self,
        seat: Seat,
        changes: &[InputChange],
        confirmed: u32,
    ) -> Result<(), SessionError> {
        self.remote_inputs(seat, changes, confirmed)
    }

    fn apply_log(
        &mut self,
        changes: &[Vec<InputChange>; 2],
        confirmed: [u32; 2],
    ) -> Result<(), SessionError> {
        self.apply_log(changes, confirmed)
    }

    fn handle(&mut self, message: &ServerMessage) -> Result<bool, SessionError> {
        self.handle(message)
    }

    fn poll_outgoing(&mut self) -> Option<ClientMessage> {
        self.poll_outgoing()
    }

    fn flush(&mut self) {
        self.flush();
    }

    fn options(&self) -> SessionOptions {
        self.options()
    }

    fn set_input_delay(&mut self, delay: u32) {
        self.set_input_delay(delay);
    }

    fn widen_window(&mut self, window: u32) {
        self.widen_window(window);
    }

    fn stats(&self) -> SessionStats {
        self.stats()
    }

    fn hashes(&self) -> &[(u32, u64)] {
        self.hashes()
    }

    fn rounds(&self) -> Vec<RoundSeen> {
        self.round_ends()
            .iter()
            .map(|r| RoundSeen {
                round: r.round,
                winner: r.winner.map(Seat::index),
                wins: r.wins,
                frame: r.frame,
                hash: r.hash,
            })
            .collect()
    }

    fn snapshots(&self) -> usize {
        self.snapshots()
    }

    fn predicted(&self) -> &Match {
        self.predicted()
    }

    fn confirmed(&self) -> &Match {
        self.confirmed()
    }

    fn confirmed_frames(&self, seat: Seat) -> u32 {
        self.confirmed_frames(seat)
    }

    fn keys_at(&self, seat: Seat, frame: u32) -> Option<Input> {
        self.input_log(seat).get(frame)
    }

    fn own_seat(seat: Seat) -> SessionError {
        SessionError::OwnSeat(seat)
    }

    fn read(message: ClientMessage) -> Up {
        match message {
            ClientMessage::Inputs { changes, confirmed } => Up::Inputs { changes, confirmed },
            ClientMessage::StateHash { frame, hash } => Up::Hash { frame, hash },
            other => panic!("unexpected message {other:?}"),
        }
    }

    fn wire(header: &MatchHeader, message: Down) -> ServerMessage {
        match message {
            Down::Inputs {
                seat,
                changes,
                confirmed,
            } => ServerMessage::Inputs {
                seat,
                changes,
                confirmed,
            },
            Down::Desync {
                frame,
                server_hash,
                your_hash,
                ..
            } => ServerMessage::Desync {
                frame,
                server_hash,
                your_hash,
            },
            Down::Log(log) => ServerMessage::MatchLog {
                header: *header,
                names: ["a".into(), "b".into()],
                changes: log.changes,
                confirmed: log.confirmed,
                now_frame: log.now_frame,
            },
        }
    }
}

/// Battle seat `seat` as a seat of the versus match.
fn seat_of(seat: usize) -> Seat {
    Seat::new(seat).expect("a two-seat match has seats 0 and 1")
}

/// The general session's lists of target changes for a two-seat log: none (nobody aims in a
/// two-seat match).
fn no_targets() -> Vec<Vec<sevenbag_protocol::TargetChange>> {
    vec![vec![]; 2]
}

impl TwoSeats for BattleSession {
    type Game = Battle;
    type Error = BattleSessionError;

    fn new(header: MatchHeader, local: Option<Seat>, options: SessionOptions) -> BattleSession {
        BattleSession::new(
            BattleHeader::versus(&header),
            local.map(Seat::index),
            options,
        )
        .expect("a versus header makes a match")
    }

    fn from_log(
        header: MatchHeader,
        local: Option<Seat>,
        options: SessionOptions,
        changes: &[Vec<InputChange>; 2],
        confirmed: [u32; 2],
    ) -> Result<BattleSession, BattleSessionError> {
        BattleSession::from_log(
            BattleHeader::versus(&header),
            local.map(Seat::index),
            options,
            changes,
            &no_targets(),
            &confirmed,
        )
    }

    fn local_seat(&self) -> Option<Seat> {
        self.local_seat().map(seat_of)
    }

    fn frame(&self) -> u32 {
        self.frame()
    }

    fn needs_input(&self) -> bool {
        self.needs_input()
    }

    fn advance(&mut self, keys: Input) -> Step {
        self.advance(keys.into())
    }

    fn remote_inputs(
        &mut self,
        seat: Seat,
        changes: &[InputChange],
        confirmed: u32,
    ) -> Result<(), BattleSessionError> {
        self.remote_inputs(seat.index(), changes, &[], confirmed)
    }

    fn apply_log(
        &mut self,
        changes: &[Vec<InputChange>; 2],
        confirmed: [u32; 2],
    ) -> Result<(), BattleSessionError> {
        self.apply_log(changes, &no_targets(), &confirmed)
    }

    fn handle(&mut self, message: &ServerMessage) -> Result<bool, BattleSessionError> {
        self.handle(message)
    }

    fn poll_outgoing(&mut self) -> Option<ClientMessage> {
        self.poll_outgoing()
    }

    fn flush(&mut self) {
        self.flush();
    }

    fn options(&self) -> SessionOptions {
        self.options()
    }

    fn set_input_delay(&mut self, delay: u32) {
        self.set_input_delay(delay);
    }

    fn widen_window(&mut self, window: u32) {
        self.widen_window(window);
    }

    fn stats(&self) -> SessionStats {
        self.stats()
    }

    fn hashes(&self) -> &[(u32, u64)] {
        self.hashes()
    }

    fn rounds(&self) -> Vec<RoundSeen> {
        self.round_ends()
            .iter()
            .map(|r| RoundSeen {
                round: r.round,
                winner: r.winner.map(usize::from),
                wins: [r.wins[0], r.wins[1]],
                frame: r.frame,
                hash: r.hash,
            })
            .collect()
    }

    fn snapshots(&self) -> usize {
        self.snapshots()
    }

    fn predicted(&self) -> &Battle {
        self.predicted()
    }

    fn confirmed(&self) -> &Battle {
        self.confirmed()
    }

    fn confirmed_frames(&self, seat: Seat) -> u32 {
        self.log(seat.index()).map_or(0, |log| log.confirmed())
    }

    fn keys_at(&self, seat: Seat, frame: u32) -> Option<Input> {
        let input = self.log(seat.index())?.get(frame)?;
        assert_eq!(input.target, None, "nobody aims in a two-seat match");
        Some(input.keys)
    }

    fn own_seat(seat: Seat) -> BattleSessionError {
        BattleSessionError::OwnSeat(seat.index() as u8)
    }

    fn read(message: ClientMessage) -> Up {
        match message {
            ClientMessage::BattleInputs {
                changes,
                targets,
                confirmed,
            } => {
                assert!(targets.is_empty(), "nobody aims in a two-seat match");
                Up::Inputs { changes, confirmed }
            }
            ClientMessage::BattleHash { frame, hash } => Up::Hash { frame, hash },
            other => panic!("unexpected message {other:?}"),
        }
    }

    fn wire(header: &MatchHeader, message: Down) -> ServerMessage {
        match message {
            Down::Inputs {
                seat,
                changes,
                confirmed,
            } => ServerMessage::BattleInputs {
                seat: seat.index() as u8,
                changes,
                targets: vec![],
                confirmed,
            },
            // What the server answers a `BattleHash` that is not its own.
            Down::Desync {
                frame,
                server_hash,
                your_hash,
                boards,
            } => ServerMessage::BattleDesyncBoards {
                frame,
                server_hash,
                your_hash,
                boards: boards.to_vec(),
            },
            Down::Log(log) => ServerMessage::BattleLog {
                header: Box::new(BattleHeader::versus(header)),
                names: vec!["a".into(), "b".into()],
                room_seats: vec![0, 1],
                changes: log.changes.to_vec(),
                targets: no_targets(),
                confirmed: log.confirmed.to_vec(),
                now_frame: log.now_frame,
            },
        }
    }
}

/// A tiny deterministic generator for delays (SplitMix64).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u32) -> u32 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % u64::from(n.max(1))) as u32
    }
}

/// The model server: input logs, its own confirmed simulation, hash checks.
pub struct Server {
    pub header: MatchHeader,
    pub logs: [InputLog; 2],
    sim: Match,
    pub hashes: HashMap<u32, u64>,
    /// Each seat's board hash beside every hash, to name diverged boards.
    boards: HashMap<u32, [u64; 2]>,
    /// Client hashes waiting for the server's simulation to reach their frame.
    waiting: Vec<(usize, u32, u64)>,
    pub desyncs: Vec<(usize, u32)>,
    pub refused: Vec<String>,
    pub now_frame: u32,
}

impl Server {
    fn new(header: MatchHeader) -> Server {
        Server {
            header,
            logs: [InputLog::new(), InputLog::new()],
            sim: Match::new(header),
            hashes: HashMap::new(),
            boards: HashMap::new(),
            waiting: Vec::new(),
            desyncs: Vec::new(),
            refused: Vec::new(),
            now_frame: 0,
        }
    }

    pub fn match_log(&self) -> Log {
        Log {
            changes: [
                self.logs[0].changes().to_vec(),
                self.logs[1].changes().to_vec(),
            ],
            confirmed: [self.logs[0].confirmed(), self.logs[1].confirmed()],
            now_frame: self.now_frame,
        }
    }

    fn simulate(&mut self) {
        let target = self.logs[0].confirmed().min(self.logs[1].confirmed());
        while self.sim.frame().0 < target {
            let f = self.sim.frame().0;
            let inputs = [0, 1].map(|s| self.logs[s].get(f).unwrap_or(Input::NONE));
            self.sim.step(inputs);
            if (f + 1).is_multiple_of(60) {
                self.hashes.insert(f + 1, self.sim.state_hash());
                let boards = Seat::BOTH.map(|s| self.sim.battle().seat_hash(s));
                self.boards.insert(f + 1, boards);
            }
        }
    }

    /// Handles a client message; returns (client index or None for "all but the sender's seat",
    /// message) pairs to deliver.
    fn receive(
        &mut self,
        from: usize,
        seat: Option<Seat>,
        message: Up,
    ) -> Vec<(Option<usize>, Down)> {
        let mut out = Vec::new();
        match message {
            Up::Inputs { changes, confirmed } => {
                let Some(seat) = seat else {
                    self.refused.push("spectator sent inputs".into());
                    return out;
                };
                if let Err(e) = self.logs[seat.index()].extend(&changes, confirmed) {
                    self.refused.push(format!("{seat:?}: {e}"));
                    return out;
                }
                self.simulate();
                out.push((
                    None,
                    Down::Inputs {
                        seat,
                        changes,
                        confirmed,
                    },
                ));
            }
            Up::Hash { frame, hash } => self.waiting.push((from, frame, hash)),
        }
        let mut still = Vec::new();
        for (client, frame, hash) in std::mem::take(&mut self.waiting) {
            match self.hashes.get(&frame) {
                Some(&ours) if ours == hash => {}
                Some(&ours) => {
                    self.desyncs.push((client, frame));
                    out.push((
                        Some(client),
                        Down::Desync {
                            frame,
                            server_hash: ours,
                            your_hash: hash,
                            boards: self.boards[&frame],
                        },
                    ));
                    out.push((Some(client), Down::Log(self.match_log())));
                }
                None => still.push((client, frame, hash)),
            }
        }
        self.waiting = still;
        out
    }
}

/// One simulated client.
pub struct Client<S> {
    pub session: S,
    inputs: RandomInputs,
    /// Messages to and from this client are dropped while false.
    pub connected: bool,
    /// Corrupts the next relayed input batch this client receives (to provoke a desync).
    pub corrupt_next: bool,
}

/// A message in flight, due at a tick.
pub struct InFlight<M> {
    pub due: u64,
    pub client: usize,
    pub message: M,
}

/// Two players and any spectators around a model server, with per-direction delays.
pub struct Relay<S> {
    pub server: Server,
    pub clients: Vec<Client<S>>,
    pub up: VecDeque<InFlight<ClientMessage>>,
    down: VecDeque<InFlight<Down>>,
    /// Last delivery tick per (client, direction), so each link keeps its order.
    last_due: HashMap<(usize, bool), u64>,
    rng: Rng,
    min_delay: u32,
    max_delay: u32,
    pub tick: u64,
    /// Largest ring seen, for the bound check.
    pub max_snapshots: usize,
    /// Clients stop simulating (messages still flow).
    frozen: bool,
    /// What the input sources are shown: `RandomInputs` never looks at the match, and a general
    /// session has no versus `Match` to show, so every client is shown the first frame.
    shown: Match,
}

impl<S: TwoSeats> Relay<S> {
    /// Both players with `options`, messages taking `min_delay..=max_delay` ticks.
    pub fn new(seed: u64, options: SessionOptions, min_delay: u32, max_delay: u32) -> Relay<S> {
        Relay::with_options(seed, [options; 2], min_delay, max_delay)
    }

    /// Each player with its own options.
    pub fn with_options(
        seed: u64,
        options: [SessionOptions; 2],
        min_delay: u32,
        max_delay: u32,
    ) -> Relay<S> {
        let header = header(seed);
        let clients = Seat::BOTH
            .into_iter()
            .map(|seat| Client {
                session: S::new(header, Some(seat), options[seat.index()]),
                inputs: RandomInputs::new(seed * 2 + seat.index() as u64).with_drop_every(3, 9),
                connected: true,
                corrupt_next: false,
            })
            .collect();
        Relay {
            server: Server::new(header),
            clients,
            up: VecDeque::new(),
            down: VecDeque::new(),
            last_due: HashMap::new(),
            rng: Rng(seed),
            min_delay,
            max_delay,
            tick: 0,
            max_snapshots: 0,
            frozen: false,
            shown: Match::new(header),
        }
    }

    fn delay(&mut self, client: usize, up: bool) -> u64 {
        let jitter = self.rng.below(self.max_delay - self.min_delay + 1);
        let due = self.tick + u64::from(self.min_delay + jitter);
        let last = self.last_due.entry((client, up)).or_insert(0);
        *last = (*last).max(due);
        *last
    }

    /// The server's whole log in the sessions' wire form.
    pub fn match_log(&self) -> ServerMessage {
        S::wire(&self.server.header, Down::Log(self.server.match_log()))
    }

    /// A spectator built from the server's log, predicting `window` frames.
    pub fn add_spectator(&mut self, window: u32) -> usize {
        let log = self.server.match_log();
        let options = SessionOptions {
            window,
            input_delay: 0,
        };
        let session = S::from_log(
            self.server.header,
            None,
            options,
            &log.changes,
            log.confirmed,
        )
        .expect("the server's own log is valid");
        self.clients.push(Client {
            session,
            inputs: RandomInputs::new(0),
            connected: true,
            corrupt_next: false,
        });
        self.clients.len() - 1
    }

    /// One frame of wall-clock time: deliveries, then each client catches up to the tick (at most
    /// two frames at a time, as the pacer allows), then its messages leave.
    pub fn step(&mut self) {
        self.tick += 1;
        while self.up.front().is_some_and(|m| m.due <= self.tick) {
            let Some(m) = self.up.pop_front() else { break };
            if !self.clients[m.client].connected {
                continue;
            }
            let seat = self.clients[m.client].session.local_seat();
            for (to, message) in self.server.receive(m.client, seat, S::read(m.message)) {
                let targets: Vec<usize> = match to {
                    Some(c) => vec![c],
                    None => (0..self.clients.len())
                        .filter(|&c| {
                            let s = self.clients[c].session.local_seat();
                            s.is_none() || s != seat
                        })
                        .collect(),
                };
                for c in targets {
                    let due = self.delay(c, false);
                    self.down.push_back(InFlight {
                        due,
                        client: c,
                        message: message.clone(),
                    });
                }
            }
        }
        self.down.make_contiguous().sort_by_key(|m| m.due);
        while self.down.front().is_some_and(|m| m.due <= self.tick) {
            let Some(m) = self.down.pop_front() else {
                break;
            };
            let client = &mut self.clients[m.client];
            if !client.connected {
                continue;
            }
            let mut message = m.message;
            if client.corrupt_next
                && let Down::Inputs { changes, .. } = &mut message
                && let Some(first) = changes.first_mut()
            {
                first.input = Input(first.input.0 ^ Input::LEFT.0);
                client.corrupt_next = false;
            }
            client
                .session
                .handle(&S::wire(&self.server.header, message))
                .expect("relayed messages are valid");
        }
        self.server.now_frame = self.tick as u32;
        for c in 0..self.clients.len() {
            let client = &mut self.clients[c];
            for _ in 0..2 {
                if self.frozen || u64::from(client.session.frame()) >= self.tick {
                    break;
                }
                let keys = match client.session.local_seat() {
                    Some(seat) if client.session.needs_input() => {
                        client.inputs.next_input(&self.shown, seat)
                    }
                    _ => Input::NONE,
                };
                if client.session.advance(keys) == Step::Stalled {
                    break;
                }
            }
            self.max_snapshots = self.max_snapshots.max(client.session.snapshots());
            let mut out = Vec::new();
            while let Some(message) = self.clients[c].session.poll_outgoing() {
                out.push(message);
            }
            for message in out {
                if !self.clients[c].connected {
                    continue;
                }
                let due = self.delay(c, true);
                self.up.push_back(InFlight {
                    due,
                    client: c,
                    message,
                });
            }
        }
        self.up.make_contiguous().sort_by_key(|m| m.due);
    }

    pub fn run(&mut self, ticks: u64) {
        for _ in 0..ticks {
            self.step();
        }
    }

    /// Stops every client, sends what they hold and lets every message land, so all logs line
    /// up with the server's.
    pub fn settle(&mut self) {
        self.frozen = true;
        for c in 0..self.clients.len() {
            self.clients[c].session.flush();
        }
        self.run(u64::from(self.max_delay) * 3 + 4);
    }

    /// The match client `c` should predict once everything landed: the server's logs, each
    /// seat's last mask repeated past its end.
    pub fn reference(&self, c: usize) -> S::Game {
        let mut m = S::Game::start(&self.server.header);
        let logs = &self.server.logs;
        while m.frames() < self.clients[c].session.frame() {
            let f = m.frames();
            m.play([0, 1].map(|s| logs[s].get(f).unwrap_or_else(|| logs[s].last())));
        }
        m
    }

    pub fn hashes(&self, client: usize) -> HashMap<u32, u64> {
        self.clients[client]
            .session
            .hashes()
            .iter()
            .copied()
            .collect()
    }

    /// Every hash `client` reported equals the server's for that frame; returns how many.
    pub fn check_hashes(&self, client: usize) -> usize {
        let ours = self.hashes(client);
        for (frame, hash) in &ours {
            if let Some(server) = self.server.hashes.get(frame) {
                assert_eq!(server, hash, "client {client} disagrees at frame {frame}");
            }
        }
        ours.len()
    }

    /// The server refused nothing and saw no desync, and both players reported at least
    /// `hashes` state hashes, each equal to the server's.
    pub fn assert_agreed(&self, hashes: usize) {
        assert!(self.server.refused.is_empty(), "{:?}", self.server.refused);
        assert!(self.server.desyncs.is_empty(), "{:?}", self.server.desyncs);
        for client in 0..2 {
            assert!(self.check_hashes(client) >= hashes, "client {client}");
        }
    }
}

/// The general session played the very match the two-seat one did, through the same relay:
/// every client's confirmed hashes are equal frame by frame, and so are its confirmed match,
/// what prediction cost it and what the server made of it.
pub fn same_match(versus: &Relay<Session>, general: &Relay<BattleSession>) {
    assert_eq!(general.clients.len(), versus.clients.len());
    for (c, (v, g)) in versus.clients.iter().zip(&general.clients).enumerate() {
        let (v, g) = (&v.session, &g.session);
        for (&(vf, vh), &(gf, gh)) in TwoSeats::hashes(v).iter().zip(TwoSeats::hashes(g)) {
            assert_eq!(gf, vf, "client {c}: hashes of different frames");
            assert_eq!(gh, vh, "client {c} at frame {vf}");
        }
        assert_eq!(
            TwoSeats::hashes(g).len(),
            TwoSeats::hashes(v).len(),
            "client {c}"
        );
        assert_eq!(g.confirmed().hash(), v.confirmed().hash(), "client {c}");
        assert_eq!(g.confirmed().frames(), v.confirmed().frames(), "client {c}");
        assert_eq!(g.confirmed().score(), v.confirmed().score(), "client {c}");
        assert_eq!(g.predicted().hash(), v.predicted().hash(), "client {c}");
        assert_eq!(TwoSeats::stats(g), TwoSeats::stats(v), "client {c}");
        assert_eq!(
            g.rounds(),
            v.rounds(),
            "client {c}: the same rounds, the same hashes"
        );
    }
    assert_eq!(general.server.desyncs, versus.server.desyncs);
    assert_eq!(general.server.refused, versus.server.refused);
    assert_eq!(general.server.hashes, versus.server.hashes);
    assert_eq!(general.max_snapshots, versus.max_snapshots);
}
