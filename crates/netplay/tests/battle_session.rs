//! Rollback sessions of matches of several seats, relayed in memory: every client and the
//! server's `BattleSim` reach the same hashes whatever the delays, and a wrong guess of any seat
//! rolls back.

use std::collections::VecDeque;

use sevenbag_core::{BattleHeader, Input, Seat, SeatInput, Targeting};
use sevenbag_netplay::{BattleSession, SessionOptions, Step};
use sevenbag_protocol::{
    BattleSim, ClientMessage, InputChange, InputStep, SeatSteps, ServerMessage, TargetChange,
};

fn header(seats: u8, targeting: Targeting) -> BattleHeader {
    let mut h = BattleHeader::new(77, seats);
    h.rules.first_to = 1;
    h.rules.countdown_frames = 20;
    h.options.targeting = targeting;
    h
}

/// A small deterministic generator, so each run plays the same keys.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u32) -> u32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % u64::from(n)) as u32
    }
}

/// Clients and a server relaying through queues with a delay (in ticks) per message.
struct Relay {
    sim: BattleSim,
    clients: Vec<BattleSession>,
    /// (deliver at tick, to client or server (None), message).
    up: VecDeque<(u64, usize, ClientMessage)>,
    down: VecDeque<(u64, usize, ServerMessage)>,
    tick: u64,
    rng: Lcg,
    max_delay: u32,
    hash_mismatches: u32,
}

impl Relay {
    fn new(header: BattleHeader, options: SessionOptions, max_delay: u32) -> Relay {
        let n = usize::from(header.seats);
        Relay {
            sim: BattleSim::new(header).unwrap(),
            clients: (0..n)
                .map(|s| BattleSession::new(header, Some(s), options).unwrap())
                .collect(),
            up: VecDeque::new(),
            down: VecDeque::new(),
            tick: 0,
            rng: Lcg(9),
            max_delay,
            hash_mismatches: 0,
        }
    }

    fn delay(&mut self) -> u64 {
        u64::from(self.rng.below(self.max_delay + 1))
    }

    fn keys(&mut self, seat: usize, n: usize) -> SeatInput {
        let keys = match self.rng.below(12) {
            0 => Input::HARD_DROP,
            1 => Input::LEFT,
            2 => Input::RIGHT,
            3 => Input::ROTATE_CW,
            _ => Input::NONE,
        };
        let target = (self.rng.below(40) == 0)
            .then(|| (seat + 1 + self.rng.below(n as u32 - 1) as usize) % n)
            .and_then(Seat::new);
        SeatInput { keys, target }
    }

    fn step(&mut self) {
        self.tick += 1;
        let n = self.clients.len();
        for c in 0..n {
            let input = self.keys(c, n);
            let _ = self.clients[c].advance(input);
            while let Some(m) = self.clients[c].poll_outgoing() {
                let at = self.tick + self.delay();
                self.up.push_back((at, c, m));
            }
        }
        // Deliver in order per sender (a queue sorted by time would reorder: keep FIFO).
        while self.up.front().is_some_and(|(at, ..)| *at <= self.tick) {
            let Some((_, from, m)) = self.up.pop_front() else {
                break;
            };
            match m {
                ClientMessage::BattleInputs {
                    changes,
                    targets,
                    confirmed,
                } => {
                    self.sim
                        .extend(from, &changes, &targets, confirmed)
                        .unwrap();
                    self.sim.advance();
                    for to in (0..n).filter(|&to| to != from) {
                        let at = self.tick + self.delay();
                        self.down.push_back((
                            at,
                            to,
                            ServerMessage::BattleInputs {
                                seat: from as u8,
                                changes: changes.clone(),
                                targets: targets.clone(),
                                confirmed,
                            },
                        ));
                    }
                }
                ClientMessage::BattleHash { frame, hash } => {
                    let seats = self.clients[from].seat_hashes_at(frame).unwrap_or_default();
                    let diverged = self.sim.diverged_seats(frame, seats);
                    if self.sim.hash_at(frame).is_some_and(|h| h != hash)
                        || diverged.is_some_and(|d| !d.is_empty())
                    {
                        self.hash_mismatches += 1;
                    }
                }
                other => panic!("unexpected {other:?}"),
            }
        }
        while self.down.front().is_some_and(|(at, ..)| *at <= self.tick) {
            let Some((_, to, m)) = self.down.pop_front() else {
                break;
            };
            self.clients[to].handle(&m).unwrap();
        }
    }

    fn run_to_end(&mut self, ticks: u64) {
        for _ in 0..ticks {
            self.step();
            if self.sim.winner().is_some() && self.clients.iter().all(BattleSession::is_over) {
                return;
            }
        }
    }
}

#[test]
fn eight_rollback_sessions_agree_with_the_server_on_every_hash() {
    let mut relay = Relay::new(header(8, Targeting::Even), SessionOptions::default(), 6);
    relay.run_to_end(40_000);
    assert!(relay.sim.winner().is_some(), "the match was decided");
    assert_eq!(relay.hash_mismatches, 0);
    let server = relay.sim.game().state_hash();
    for c in &relay.clients {
        assert!(c.is_over());
        assert_eq!(c.confirmed().state_hash(), server);
        assert!(c.stats().rollbacks > 0, "predictions were wrong sometimes");
    }
}

#[test]
fn manual_targets_travel_with_the_inputs_and_agree() {
    let mut relay = Relay::new(header(3, Targeting::Manual), SessionOptions::default(), 4);
    relay.run_to_end(40_000);
    assert!(relay.sim.winner().is_some());
    assert_eq!(relay.hash_mismatches, 0);
    let chose = (0..3).any(|s| {
        relay
            .sim
            .log(s)
            .is_some_and(|l| !l.target_changes().is_empty())
    });
    assert!(chose, "some seat chose a target");
    for c in &relay.clients {
        assert_eq!(c.confirmed().state_hash(), relay.sim.game().state_hash());
    }
}

#[test]
fn a_session_stalls_at_the_window_while_any_seat_is_silent() {
    let h = header(4, Targeting::Even);
    let options = SessionOptions {
        window: 5,
        input_delay: 0,
    };
    let mut s = BattleSession::new(h, Some(0), options).unwrap();
    for seat in [1, 2] {
        s.remote_inputs(seat, &[], &[], 100).unwrap();
    }
    for _ in 0..5 {
        assert_eq!(s.advance(SeatInput::NONE), Step::Advanced);
    }
    assert_eq!(
        s.advance(SeatInput::NONE),
        Step::Stalled,
        "seat 3 is silent"
    );
    s.remote_inputs(3, &[], &[], 1).unwrap();
    assert_eq!(s.advance(SeatInput::NONE), Step::Advanced);
}

#[test]
fn a_wrong_guess_of_any_seat_rolls_back_to_its_first_wrong_frame() {
    let h = header(3, Targeting::Manual);
    let mut s = BattleSession::new(h, Some(0), SessionOptions::default()).unwrap();
    s.remote_inputs(1, &[], &[], 30).unwrap();
    for _ in 0..10 {
        s.advance(SeatInput::NONE);
    }
    let targets = [TargetChange {
        frame: 4,
        target: Some(1),
    }];
    let keys = [InputChange {
        frame: 6,
        input: Input::LEFT,
    }];
    s.remote_inputs(2, &keys, &targets, 8).unwrap();
    assert_eq!(s.stats().rollbacks, 1);
    assert_eq!(s.stats().max_rollback_depth, 6, "back to frame 4");
    assert_eq!(s.predicted().target(Seat::new(2).unwrap()), Seat::new(1));
}

#[test]
fn bad_seats_and_our_own_seat_are_refused_not_panicked() {
    let h = header(3, Targeting::Even);
    let mut s = BattleSession::new(h, Some(0), SessionOptions::default()).unwrap();
    assert!(s.remote_inputs(0, &[], &[], 1).is_err());
    assert!(s.remote_inputs(3, &[], &[], 1).is_err());
    assert!(s.remote_inputs(200, &[], &[], 1).is_err());
    let log = ServerMessage::BattleLog {
        header: Box::new(h),
        names: vec![],
        room_seats: vec![],
        changes: vec![vec![]; 2],
        targets: vec![vec![]; 3],
        confirmed: vec![0; 3],
        now_frame: 0,
    };
    assert!(s.handle(&log).is_err(), "two key lists for three seats");
    assert!(BattleSession::new(h, Some(3), SessionOptions::default()).is_err());
}

#[test]
fn gathered_inputs_of_several_seats_are_taken_as_windows_and_forged_ones_refused() {
    let h = header(3, Targeting::Even);
    let mut s = BattleSession::new(h, Some(0), SessionOptions::default()).unwrap();
    let entry = |seat: u8, base: u32, frames: u32| SeatSteps {
        seat,
        base,
        steps: vec![InputStep {
            after: 0,
            input: Input::LEFT,
        }],
        targets: vec![],
        frames,
    };
    let gathered =
        |frame: u32, seats: Vec<SeatSteps>| ServerMessage::BattleInputsGathered { frame, seats };
    assert_eq!(
        s.handle(&gathered(0, vec![entry(1, 0, 5), entry(2, 0, 4)])),
        Ok(true)
    );
    assert_eq!(s.handle(&gathered(4, vec![entry(2, 0, 3)])), Ok(true));
    // Entries are windows: a repeat (a datagram's, a catch-up's) changes nothing, even one that
    // would rewrite what we hold, and one past a gap is left for a later one to fill.
    let before = s.log(1).cloned();
    assert_eq!(
        s.handle(&gathered(0, vec![entry(1, 0, 5)])),
        Ok(true),
        "a repeat"
    );
    let rewrite = SeatSteps {
        steps: vec![InputStep {
            after: 1,
            input: Input::RIGHT,
        }],
        ..entry(1, 0, 6)
    };
    assert_eq!(s.handle(&gathered(0, vec![rewrite])), Ok(true));
    assert_eq!(s.log(1).map(|l| l.get(1)), before.map(|l| l.get(1)));
    assert_eq!(s.handle(&gathered(20, vec![entry(1, 0, 5)])), Ok(true));
    assert_eq!(
        s.log(1).map(|l| l.confirmed()),
        Some(6),
        "the gap is not taken"
    );
    assert!(
        s.handle(&gathered(u32::MAX, vec![entry(2, 9, 3)])).is_err(),
        "past the last frame"
    );
    assert!(
        s.handle(&gathered(9, vec![entry(0, 0, 3)])).is_err(),
        "our own seat"
    );
}

/// A session whose view of seat 2 differs from the server's (seat 2 hard-drops at frame 100
/// on the server only): its `BattleStateHash` matches before the drop and names seat 2, and
/// only seat 2, after it.
#[test]
fn a_diverged_seat_is_named_by_its_board_hash() {
    let h = header(3, Targeting::Even);
    let options = SessionOptions {
        window: 8,
        input_delay: 0,
    };
    let mut session = BattleSession::new(h, Some(0), options).unwrap();
    let mut sim = BattleSim::new(h).unwrap();
    let drop = [
        InputChange {
            frame: 100,
            input: Input::HARD_DROP,
        },
        InputChange {
            frame: 101,
            input: Input::NONE,
        },
    ];
    session.remote_inputs(1, &[], &[], 300).unwrap();
    session.remote_inputs(2, &[], &[], 300).unwrap();
    sim.extend(1, &[], &[], 300).unwrap();
    sim.extend(2, &drop, &[], 300).unwrap();
    let mut reports = Vec::new();
    for _ in 0..300 {
        let _ = session.advance(SeatInput::NONE);
        while let Some(m) = session.poll_outgoing() {
            match m {
                ClientMessage::BattleInputs {
                    changes,
                    targets,
                    confirmed,
                } => sim.extend(0, &changes, &targets, confirmed).unwrap(),
                ClientMessage::BattleHash { frame, hash } => reports.push((frame, hash)),
                other => panic!("unexpected {other:?}"),
            }
        }
        sim.advance();
    }
    assert!(reports.len() >= 3, "{} reports", reports.len());
    for (frame, hash) in &reports {
        let seats = session.seat_hashes_at(*frame).expect("kept");
        assert_eq!(seats.len(), 3, "one board hash per seat");
        let named = sim.diverged_seats(*frame, seats).unwrap();
        if *frame <= 100 {
            assert_eq!(sim.hash_at(*frame), Some(*hash), "frame {frame}");
            assert!(named.is_empty(), "frame {frame}: {named:?}");
        } else {
            assert_ne!(sim.hash_at(*frame), Some(*hash), "frame {frame}");
            assert_eq!(named, vec![2], "frame {frame}");
        }
    }
    // Told the server's board hashes after a compact hash, the session names seat 2 itself.
    let (frame, hash) = *reports.last().expect("a report");
    let notice = ServerMessage::BattleDesyncBoards {
        frame,
        server_hash: sim.hash_at(frame).unwrap(),
        your_hash: hash,
        boards: sim.seat_hashes_at(frame).unwrap().to_vec(),
    };
    assert!(session.handle(&notice).unwrap());
    assert_eq!(session.diverged_seats(), &[2]);
    assert_eq!(session.stats().desyncs, 1);
}

#[test]
fn a_battle_desync_notice_keeps_the_seats_it_names() {
    let mut s = BattleSession::new(
        header(4, Targeting::Even),
        Some(0),
        SessionOptions::default(),
    )
    .unwrap();
    assert!(s.diverged_seats().is_empty());
    let notice = ServerMessage::BattleDesync {
        frame: 120,
        server_hash: 1,
        your_hash: 2,
        seats: vec![3],
    };
    assert!(s.handle(&notice).unwrap());
    assert_eq!(s.diverged_seats(), &[3]);
    assert_eq!(s.stats().desyncs, 1);
}
