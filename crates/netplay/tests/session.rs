//! Session tests against an in-memory relay: two players (and spectators) exchange messages
//! through queues with artificial, jittered delay, and a model server relays inputs, simulates
//! the confirmed match and checks state hashes, as the real one does (docs/PROTOCOL.md).
//! Time is counted in frames; nothing sleeps.

use std::collections::{HashMap, VecDeque};

use sevenbag_core::{Input, Match, MatchHeader, Rules, Seat};
use sevenbag_netplay::{
    DEFAULT_WINDOW, InputSource, RandomInputs, Session, SessionError, SessionOptions, Step,
};
use sevenbag_protocol::{ClientMessage, InputChange, InputLog, ServerMessage};

fn header(seed: u64) -> MatchHeader {
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
struct Server {
    header: MatchHeader,
    logs: [InputLog; 2],
    sim: Match,
    hashes: HashMap<u32, u64>,
    /// Client hashes waiting for the server's simulation to reach their frame.
    waiting: Vec<(usize, u32, u64)>,
    desyncs: Vec<(usize, u32)>,
    refused: Vec<String>,
    now_frame: u32,
}

impl Server {
    fn new(header: MatchHeader) -> Server {
        Server {
            header,
            logs: [InputLog::new(), InputLog::new()],
            sim: Match::new(header),
            hashes: HashMap::new(),
            waiting: Vec::new(),
            desyncs: Vec::new(),
            refused: Vec::new(),
            now_frame: 0,
        }
    }

    fn match_log(&self) -> ServerMessage {
        ServerMessage::MatchLog {
            header: self.header,
            names: ["a".into(), "b".into()],
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
            }
        }
    }

    /// Handles a client message; returns (client index or None for "all but the sender's seat",
    /// message) pairs to deliver.
    fn receive(
        &mut self,
        from: usize,
        seat: Option<Seat>,
        message: ClientMessage,
    ) -> Vec<(Option<usize>, ServerMessage)> {
        let mut out = Vec::new();
        match message {
            ClientMessage::Inputs { changes, confirmed } => {
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
                    ServerMessage::Inputs {
                        seat,
                        changes,
                        confirmed,
                    },
                ));
            }
            ClientMessage::StateHash { frame, hash } => self.waiting.push((from, frame, hash)),
            other => panic!("unexpected message {other:?}"),
        }
        let mut still = Vec::new();
        for (client, frame, hash) in std::mem::take(&mut self.waiting) {
            match self.hashes.get(&frame) {
                Some(&ours) if ours == hash => {}
                Some(&ours) => {
                    self.desyncs.push((client, frame));
                    out.push((
                        Some(client),
                        ServerMessage::Desync {
                            frame,
                            server_hash: ours,
                            your_hash: hash,
                        },
                    ));
                    out.push((Some(client), self.match_log()));
                }
                None => still.push((client, frame, hash)),
            }
        }
        self.waiting = still;
        out
    }
}

/// One simulated client.
struct Client {
    session: Session,
    inputs: RandomInputs,
    /// Messages to and from this client are dropped while false.
    connected: bool,
    /// Corrupts the next relayed input batch this client receives (to provoke a desync).
    corrupt_next: bool,
}

/// A message in flight, due at a tick.
struct InFlight<M> {
    due: u64,
    client: usize,
    message: M,
}

/// Two players and any spectators around a model server, with per-direction delays.
struct Relay {
    server: Server,
    clients: Vec<Client>,
    up: VecDeque<InFlight<ClientMessage>>,
    down: VecDeque<InFlight<ServerMessage>>,
    /// Last delivery tick per (client, direction), so each link keeps its order.
    last_due: HashMap<(usize, bool), u64>,
    rng: Rng,
    min_delay: u32,
    max_delay: u32,
    tick: u64,
    /// Largest ring seen, for the bound check.
    max_snapshots: usize,
    /// Clients stop simulating (messages still flow).
    frozen: bool,
}

impl Relay {
    fn new(seed: u64, options: SessionOptions, min_delay: u32, max_delay: u32) -> Relay {
        let header = header(seed);
        let clients = Seat::BOTH
            .into_iter()
            .map(|seat| Client {
                session: Session::new(header, Some(seat), options),
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
        }
    }

    fn delay(&mut self, client: usize, up: bool) -> u64 {
        let jitter = self.rng.below(self.max_delay - self.min_delay + 1);
        let due = self.tick + u64::from(self.min_delay + jitter);
        let last = self.last_due.entry((client, up)).or_insert(0);
        *last = (*last).max(due);
        *last
    }

    fn add_spectator(&mut self, window: u32) -> usize {
        let ServerMessage::MatchLog {
            header,
            changes,
            confirmed,
            ..
        } = self.server.match_log()
        else {
            unreachable!()
        };
        let options = SessionOptions {
            window,
            input_delay: 0,
        };
        let session = Session::from_log(header, None, options, &changes, confirmed)
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
    fn step(&mut self) {
        self.tick += 1;
        while self.up.front().is_some_and(|m| m.due <= self.tick) {
            let Some(m) = self.up.pop_front() else { break };
            if !self.clients[m.client].connected {
                continue;
            }
            let seat = self.clients[m.client].session.local_seat();
            for (to, message) in self.server.receive(m.client, seat, m.message) {
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
                && let ServerMessage::Inputs { changes, .. } = &mut message
                && let Some(first) = changes.first_mut()
            {
                first.input = Input(first.input.0 ^ Input::LEFT.0);
                client.corrupt_next = false;
            }
            client
                .session
                .handle(&message)
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
                        client.inputs.next_input(client.session.predicted(), seat)
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

    fn run(&mut self, ticks: u64) {
        for _ in 0..ticks {
            self.step();
        }
    }

    /// Stops every client, sends what they hold and lets every message land, so all logs line
    /// up with the server's.
    fn settle(&mut self) {
        self.frozen = true;
        for c in 0..self.clients.len() {
            self.clients[c].session.flush();
        }
        self.run(u64::from(self.max_delay) * 3 + 4);
    }

    /// The match client `c` should predict once everything landed: the server's logs, each
    /// seat's last mask repeated past its end.
    fn reference(&self, c: usize) -> Match {
        let mut m = Match::new(self.server.header);
        let logs = &self.server.logs;
        while m.frame().0 < self.clients[c].session.frame() {
            let f = m.frame().0;
            m.step([0, 1].map(|s| logs[s].get(f).unwrap_or_else(|| logs[s].last())));
        }
        m
    }

    fn hashes(&self, client: usize) -> HashMap<u32, u64> {
        self.clients[client]
            .session
            .hashes()
            .iter()
            .copied()
            .collect()
    }

    /// Every hash `client` reported equals the server's for that frame; returns how many.
    fn check_hashes(&self, client: usize) -> usize {
        let ours = self.hashes(client);
        for (frame, hash) in &ours {
            if let Some(server) = self.server.hashes.get(frame) {
                assert_eq!(server, hash, "client {client} disagrees at frame {frame}");
            }
        }
        ours.len()
    }
}

#[test]
fn rollback_sessions_agree_with_the_server_on_every_hash() {
    let mut relay = Relay::new(7, SessionOptions::default(), 3, 8);
    relay.run(1500);
    relay.settle();
    assert!(
        relay.server.refused.is_empty(),
        "{:?}",
        relay.server.refused
    );
    assert!(
        relay.server.desyncs.is_empty(),
        "{:?}",
        relay.server.desyncs
    );
    assert!(relay.check_hashes(0) >= 20);
    assert!(relay.check_hashes(1) >= 20);
    assert_eq!(relay.hashes(0), relay.hashes(1));
    for (i, c) in relay.clients.iter().enumerate() {
        let stats = c.session.stats();
        assert!(stats.rollbacks > 0, "{stats:?}");
        assert!(stats.max_rollback_depth <= DEFAULT_WINDOW, "{stats:?}");
        // Once everything landed, every wrong guess has been corrected.
        assert_eq!(c.session.predicted(), &relay.reference(i));
    }
    assert_eq!(
        relay.clients[0].session.round_ends(),
        relay.clients[1].session.round_ends()
    );
    assert!(!relay.clients[0].session.round_ends().is_empty());
}

#[test]
fn lockstep_never_predicts_or_rolls_back() {
    // Lockstep pays the latency in input delay: with 4 frames of it, 1-3 frames each way keep
    // the pipeline full.
    let options = SessionOptions {
        window: 0,
        input_delay: 4,
    };
    let mut relay = Relay::new(11, options, 1, 3);
    relay.run(900);
    relay.settle();
    assert!(relay.server.desyncs.is_empty());
    for (i, c) in relay.clients.iter().enumerate() {
        let stats = c.session.stats();
        assert_eq!(stats.rollbacks, 0, "{stats:?}");
        assert!(stats.stall_frames > 0, "{stats:?}");
        assert!(
            relay.check_hashes(i) >= 5,
            "{} frames, {stats:?}",
            c.session.frame()
        );
    }
    assert_eq!(relay.max_snapshots, 0);
}

#[test]
fn the_snapshot_ring_never_outgrows_the_window() {
    let mut relay = Relay::new(3, SessionOptions::default(), 5, 14);
    relay.run(1200);
    assert!(
        relay.max_snapshots <= DEFAULT_WINDOW as usize + 1,
        "{}",
        relay.max_snapshots
    );
    assert!(relay.clients[0].session.stats().stall_frames > 0);
}

#[test]
fn input_delay_means_fewer_rollbacks_and_the_same_hashes() {
    let run = |input_delay| {
        let options = SessionOptions {
            window: DEFAULT_WINDOW,
            input_delay,
        };
        let mut relay = Relay::new(5, options, 3, 6);
        relay.run(1200);
        relay.settle();
        assert!(relay.server.desyncs.is_empty());
        assert!(
            relay.server.refused.is_empty(),
            "{:?}",
            relay.server.refused
        );
        relay.check_hashes(0);
        relay.check_hashes(1);
        relay.clients[0].session.stats().resimulated_frames
    };
    let plain = run(0);
    let delayed = run(4);
    assert!(
        delayed < plain,
        "delay 4: {delayed} re-simulated, delay 0: {plain}"
    );
}

#[test]
fn a_session_stalls_exactly_at_the_window_when_the_opponent_is_silent() {
    let mut s = Session::new(header(1), Some(Seat::First), SessionOptions::default());
    for _ in 0..DEFAULT_WINDOW {
        assert_eq!(s.advance(Input::LEFT), Step::Advanced);
    }
    assert_eq!(s.advance(Input::LEFT), Step::Stalled);
    assert_eq!(s.advance(Input::LEFT), Step::Stalled);
    assert_eq!(s.frame(), DEFAULT_WINDOW);
    assert_eq!(s.stats().stall_frames, 2);
    // One confirmed frame from the opponent allows one more.
    s.remote_inputs(Seat::Second, &[], 1).expect("valid");
    assert_eq!(s.advance(Input::LEFT), Step::Advanced);
    assert_eq!(s.advance(Input::LEFT), Step::Stalled);
}

#[test]
fn a_wrong_guess_rolls_back_to_the_first_wrong_frame() {
    let h = header(2);
    let mut s = Session::new(h, Some(Seat::First), SessionOptions::default());
    let mine: Vec<Input> = (0..10)
        .map(|f| {
            if f % 3 == 0 {
                Input::RIGHT
            } else {
                Input::NONE
            }
        })
        .collect();
    for &k in &mine {
        s.advance(k);
    }
    // The opponent actually held LEFT from frame 4; we guessed nothing held.
    let theirs = [InputChange {
        frame: 4,
        input: Input::LEFT,
    }];
    s.remote_inputs(Seat::Second, &theirs, 7).expect("valid");
    let stats = s.stats();
    assert_eq!(stats.rollbacks, 1);
    assert_eq!(stats.max_rollback_depth, 6);
    assert_eq!(stats.resimulated_frames, 6);
    // The predicted match is what the true inputs (LEFT held on after frame 6) give.
    let mut reference = Match::new(h);
    for (f, &k) in mine.iter().enumerate() {
        let other = if f >= 4 { Input::LEFT } else { Input::NONE };
        reference.step([k, other]);
    }
    assert_eq!(s.predicted(), &reference);
    assert_eq!(s.confirmed().frame().0, 7);
}

#[test]
fn a_right_guess_costs_no_rollback() {
    let mut s = Session::new(header(3), Some(Seat::First), SessionOptions::default());
    for _ in 0..10 {
        s.advance(Input::RIGHT);
    }
    s.remote_inputs(Seat::Second, &[], 8).expect("valid");
    assert_eq!(s.stats().rollbacks, 0);
    assert_eq!(s.snapshots(), 2);
}

#[test]
fn inputs_go_out_as_changes_and_periodic_confirmations() {
    let mut s = Session::new(header(4), Some(Seat::First), SessionOptions::default());
    let keys = [
        Input::NONE,
        Input::NONE,
        Input::NONE,
        Input::NONE, // frame 3: 4 frames pending -> heartbeat
        Input::NONE,
        Input::LEFT, // frame 5: change -> sent at once
        Input::LEFT,
        Input::LEFT,
        Input::LEFT,
        Input::LEFT, // frame 9: 4 frames since -> heartbeat
    ];
    let mut sent = Vec::new();
    for k in keys {
        s.advance(k);
        while let Some(m) = s.poll_outgoing() {
            sent.push(m);
        }
    }
    let change = |frame, input| InputChange { frame, input };
    assert_eq!(
        sent,
        vec![
            ClientMessage::Inputs {
                changes: vec![],
                confirmed: 4
            },
            ClientMessage::Inputs {
                changes: vec![change(5, Input::LEFT)],
                confirmed: 6
            },
            ClientMessage::Inputs {
                changes: vec![],
                confirmed: 10
            },
        ]
    );
}

#[test]
fn state_hashes_go_out_every_60_frames_once_both_seats_confirmed() {
    let h = header(5);
    let mut s = Session::new(h, Some(Seat::Second), SessionOptions::default());
    let mut reference = Match::new(h);
    let mut hashes = Vec::new();
    for f in 0..130u32 {
        s.remote_inputs(Seat::First, &[], f + 1).expect("valid");
        s.advance(Input::NONE);
        reference.step([Input::NONE; 2]);
        if (f + 1).is_multiple_of(60) {
            hashes.push(ClientMessage::StateHash {
                frame: f + 1,
                hash: reference.state_hash(),
            });
        }
    }
    let mut got = Vec::new();
    let mut sent = 0;
    while let Some(m) = s.poll_outgoing() {
        match m {
            ClientMessage::Inputs { confirmed, .. } => sent = confirmed,
            ClientMessage::StateHash { frame, .. } => {
                // The server can only check a hash once it has our inputs that far.
                assert!(sent >= frame, "hash for {frame} before inputs past {sent}");
                got.push(m);
            }
            other => panic!("unexpected {other:?}"),
        }
    }
    assert_eq!(got, hashes);
}

#[test]
fn input_delay_applies_keys_that_many_frames_later() {
    let options = SessionOptions {
        window: DEFAULT_WINDOW,
        input_delay: 3,
    };
    let mut s = Session::new(header(6), Some(Seat::First), options);
    s.advance(Input::LEFT);
    let log = s.input_log(Seat::First);
    assert_eq!(log.confirmed(), 4);
    assert_eq!(log.get(0), Some(Input::NONE));
    assert_eq!(log.get(2), Some(Input::NONE));
    assert_eq!(log.get(3), Some(Input::LEFT));
}

#[test]
fn our_own_seat_cannot_come_from_the_network() {
    let mut s = Session::new(header(7), Some(Seat::First), SessionOptions::default());
    assert_eq!(
        s.remote_inputs(Seat::First, &[], 3),
        Err(SessionError::OwnSeat(Seat::First))
    );
}

#[test]
fn a_spectator_joining_mid_match_converges_to_the_same_hashes() {
    let mut relay = Relay::new(9, SessionOptions::default(), 2, 6);
    relay.run(700);
    let watcher = relay.add_spectator(0);
    let predicting = relay.add_spectator(6);
    relay.run(800);
    relay.settle();
    assert!(relay.server.desyncs.is_empty());
    let players = relay.hashes(0);
    for s in [watcher, predicting] {
        let theirs = relay.hashes(s);
        assert!(theirs.len() >= 20);
        for (frame, hash) in &theirs {
            assert_eq!(players.get(frame), Some(hash), "spectator {s} at {frame}");
        }
        relay.check_hashes(s);
    }
    // The spectator's fast-forward saw the early rounds too.
    assert_eq!(
        relay.clients[watcher].session.round_ends(),
        relay.clients[0].session.round_ends()
    );
    assert_eq!(relay.clients[watcher].session.stats().rollbacks, 0);
}

#[test]
fn a_desync_is_repaired_from_the_match_log() {
    let mut relay = Relay::new(13, SessionOptions::default(), 2, 5);
    relay.run(200);
    relay.clients[0].corrupt_next = true;
    relay.run(1000);
    relay.settle();
    assert!(
        !relay.server.desyncs.is_empty(),
        "the corruption must be caught"
    );
    assert!(
        relay.server.refused.is_empty(),
        "{:?}",
        relay.server.refused
    );
    let stats = relay.clients[0].session.stats();
    assert_eq!(stats.desyncs as usize, relay.server.desyncs.len());
    assert!(stats.rebuilds >= 1);
    // After the rebuild the client agrees with the server again, up to the end.
    let last_desync = relay.server.desyncs.iter().map(|d| d.1).max().unwrap_or(0);
    let ours = relay.hashes(0);
    let later: Vec<_> = ours.iter().filter(|(f, _)| **f > last_desync).collect();
    assert!(later.len() >= 10);
    for (frame, hash) in later {
        assert_eq!(relay.server.hashes.get(frame), Some(hash));
    }
}

#[test]
fn a_reconnecting_player_resends_what_the_server_missed() {
    let mut relay = Relay::new(17, SessionOptions::default(), 2, 5);
    relay.run(300);
    relay.clients[1].connected = false;
    relay.run(120);
    // The opponent waited at its window for the missing seat.
    let waiting = relay.clients[0].session.frame();
    let missing = relay.server.logs[1].confirmed();
    assert!(
        waiting <= missing + DEFAULT_WINDOW,
        "{waiting} vs {missing}"
    );
    relay.clients[1].connected = true;
    let log = relay.server.match_log();
    relay.clients[1].session.handle(&log).expect("valid log");
    // Everything past the server's log goes out again (a gap would be a desync below).
    let mut resent = Vec::new();
    while let Some(message) = relay.clients[1].session.poll_outgoing() {
        resent.push(message.clone());
        let due = relay.tick + 1;
        relay.up.push_back(InFlight {
            due,
            client: 1,
            message,
        });
    }
    let first = resent
        .iter()
        .find(|m| matches!(m, ClientMessage::Inputs { .. }));
    assert!(
        matches!(first, Some(ClientMessage::Inputs { changes, confirmed })
            if changes.iter().all(|c| c.frame >= missing) && *confirmed > missing),
        "{resent:?}"
    );
    relay.run(600);
    relay.settle();
    assert!(
        relay.server.refused.is_empty(),
        "{:?}",
        relay.server.refused
    );
    assert!(relay.server.desyncs.is_empty());
    assert!(relay.server.logs[1].confirmed() > missing + 500);
    assert_eq!(relay.hashes(0), relay.hashes(1));
    relay.check_hashes(1);
}

#[test]
fn a_log_built_session_equals_one_that_saw_every_frame() {
    let mut relay = Relay::new(19, SessionOptions::default(), 1, 3);
    relay.run(400);
    relay.settle();
    let s = &relay.clients[0].session;
    let log = relay.server.match_log();
    let ServerMessage::MatchLog {
        header,
        changes,
        confirmed,
        ..
    } = log
    else {
        unreachable!()
    };
    let rebuilt = Session::from_log(
        header,
        Some(Seat::First),
        SessionOptions::default(),
        &changes,
        confirmed,
    )
    .expect("valid");
    assert_eq!(rebuilt.confirmed(), s.confirmed());
    assert_eq!(rebuilt.hashes(), s.hashes());
}

#[test]
fn input_delay_covers_a_round_trip_longer_than_the_window() {
    let ms = std::time::Duration::from_millis;
    let delay = |rtt| SessionOptions::for_round_trip(rtt, DEFAULT_WINDOW).input_delay;
    assert_eq!(delay(None), 0);
    assert_eq!(delay(Some(ms(20))), 0);
    assert_eq!(delay(Some(ms(150))), 0);
    // 200 ms is 12 frames: 12 + 2 + 1 - 12 = 3.
    assert_eq!(delay(Some(ms(200))), 3);
    assert_eq!(delay(Some(ms(5000))), sevenbag_netplay::MAX_INPUT_DELAY);
    // Lockstep pays the whole trip in delay: 3 frames + half a frame of confirmation + 1.
    assert_eq!(
        SessionOptions::for_round_trip(Some(ms(50)), 0).input_delay,
        5
    );
}

#[test]
fn jitter_adds_input_delay_and_a_long_trip_widens_the_window_up_to_garbage_travel() {
    let ms = std::time::Duration::from_millis;
    let link = |rtt, jitter| {
        SessionOptions::for_link_within(Some(ms(rtt)), Some(ms(jitter)), DEFAULT_WINDOW, 20)
    };
    // 200 ms and no jitter: 3 frames of delay, as for_round_trip; the window covers the trip
    // (12 + 2 + 1) plus the spike margin.
    assert_eq!(link(200, 0).input_delay, 3);
    assert_eq!(link(200, 0).window, 12 + 2 + 1 + 4 - 3);
    // 10 ms of jitter counts 20 ms more trip: 14 frames + 2 + 1 - 12 = 5.
    assert_eq!(link(200, 10).input_delay, 5);
    // A short trip keeps the default window.
    assert_eq!(link(20, 2).window, DEFAULT_WINDOW);
    // At 250 ms ± 20 ms the delay hits its cap (8) and the window takes the rest:
    // 290 ms is 17.4 frames, + 2 + 1 -> 21, + 4 margin - 8 delay = 17.
    let far = link(250, 20);
    assert_eq!(far.input_delay, sevenbag_netplay::MAX_INPUT_DELAY);
    assert_eq!(far.window, 17);
    // Longer still, the window stops at garbage travel.
    assert_eq!(link(400, 20).window, 20);
}

#[test]
fn the_window_never_widens_past_garbage_travel() {
    let h = header(2);
    let mut s = Session::new(h, Some(Seat::First), SessionOptions::default());
    s.widen_window(40);
    assert_eq!(s.options().window, u32::from(h.rules.garbage_travel));
    s.widen_window(3);
    assert_eq!(s.options().window, u32::from(h.rules.garbage_travel));
}

#[test]
fn changing_the_input_delay_mid_match_keeps_every_hash() {
    let mut relay = Relay::new(13, SessionOptions::default(), 3, 8);
    // Up one frame at a time to 6, then back down to 1, on both players at different moments.
    let plan = [1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1];
    for (i, delay) in plan.into_iter().enumerate() {
        relay.run(90);
        relay.clients[i % 2].session.set_input_delay(delay);
        relay.clients[(i + 1) % 2].session.set_input_delay(delay);
    }
    relay.run(300);
    relay.settle();
    assert!(
        relay.server.refused.is_empty(),
        "{:?}",
        relay.server.refused
    );
    assert!(
        relay.server.desyncs.is_empty(),
        "{:?}",
        relay.server.desyncs
    );
    assert!(relay.check_hashes(0) >= 15);
    assert!(relay.check_hashes(1) >= 15);
    for (i, c) in relay.clients.iter().enumerate() {
        assert_eq!(c.session.options().input_delay, 1);
        assert_eq!(c.session.predicted(), &relay.reference(i));
    }
}

#[test]
fn after_a_server_restart_the_opponents_resent_inputs_fit_our_log() {
    let mut s = Session::new(header(23), Some(Seat::First), SessionOptions::default());
    let change = |frame, input| InputChange { frame, input };
    // The opponent's inputs through frame 30 reached us before the server died...
    s.remote_inputs(
        Seat::Second,
        &[change(5, Input::LEFT), change(20, Input::NONE)],
        30,
    )
    .expect("relayed");
    // ...but the restarted server's room log kept only frames 0..10 of them.
    s.apply_log(&[vec![], vec![change(5, Input::LEFT)]], [0, 10])
        .expect("match log");
    assert_eq!(s.confirmed_frames(Seat::Second), 10);
    // The opponent re-sends from the server's confirmation; relayed, it extends our log.
    s.remote_inputs(Seat::Second, &[change(20, Input::NONE)], 30)
        .expect("re-sent inputs fit");
    assert_eq!(s.confirmed_frames(Seat::Second), 30);
    assert_eq!(s.input_log(Seat::Second).get(25), Some(Input::NONE));
    assert_eq!(s.input_log(Seat::Second).get(7), Some(Input::LEFT));
}
