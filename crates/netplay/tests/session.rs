//! Session tests against an in-memory relay: two players (and spectators) exchange messages
//! through queues with artificial, jittered delay, and a model server relays inputs, simulates
//! the confirmed match and checks state hashes, as the real one does (docs/PROTOCOL.md).
//! Time is counted in frames; nothing sleeps.
//!
//! Every behaviour is written once, generic over [`TwoSeats`] (the harness in `two_seats/`), and
//! checked on the two-seat [`Session`] (the test named for the behaviour) and on a two-seat
//! [`BattleSession`] of the same header (the same name with `_general`). Where the behaviour runs
//! through the relay, the general run must also have played the very match of the two-seat run:
//! the same confirmed hashes frame by frame, the same stats, the same server verdicts
//! ([`same_match`]).

mod two_seats;

use sevenbag_core::{Input, Seat};
use sevenbag_netplay::{BattleSession, DEFAULT_WINDOW, Session, SessionOptions, Step};
use sevenbag_protocol::InputChange;

use two_seats::{InFlight, Relay, TwoSeatGame, TwoSeats, Up, header, same_match};

/// `$versus` checks `$check` on the two-seat session, `$general` on a two-seat
/// `BattleSession`.
macro_rules! on_both_sessions {
    ($versus:ident, $general:ident, $check:ident) => {
        #[test]
        fn $versus() {
            $check::<Session>();
        }

        #[test]
        fn $general() {
            $check::<BattleSession>();
        }
    };
}

/// As `on_both_sessions`, for a check through the relay that returns it: the general run must
/// also have played the very match of the two-seat run.
macro_rules! on_both_relays {
    ($versus:ident, $general:ident, $check:ident) => {
        #[test]
        fn $versus() {
            $check::<Session>();
        }

        #[test]
        fn $general() {
            let general = $check::<BattleSession>();
            same_match(&$check::<Session>(), &general);
        }
    };
}

/// Both players through a jittery relay agree with the server on every hash, and once
/// everything landed every wrong guess has been corrected.
fn rollback_sessions_agree_with_the_server_on_every_hash_on<S: TwoSeats>() -> Relay<S> {
    let mut relay = Relay::<S>::new(7, SessionOptions::default(), 3, 8);
    relay.run(1500);
    relay.settle();
    relay.assert_agreed(20);
    assert_eq!(relay.hashes(0), relay.hashes(1));
    for (i, c) in relay.clients.iter().enumerate() {
        let stats = c.session.stats();
        assert!(stats.rollbacks > 0, "{stats:?}");
        assert!(stats.max_rollback_depth <= DEFAULT_WINDOW, "{stats:?}");
        // Once everything landed, every wrong guess has been corrected.
        assert_eq!(c.session.predicted(), &relay.reference(i));
    }
    // Both confirmed matches stand at the same round, past the first, having noted the same
    // rounds with the same hashes.
    let (round, wins) = relay.clients[0].session.confirmed().score();
    assert_eq!(relay.clients[1].session.confirmed().score(), (round, wins));
    assert!(round > 0);
    let rounds = |c: usize| relay.clients[c].session.rounds();
    assert_eq!(rounds(0), rounds(1));
    assert!(!rounds(0).is_empty());
    relay
}

#[test]
fn rollback_sessions_agree_with_the_server_on_every_hash() {
    rollback_sessions_agree_with_the_server_on_every_hash_on::<Session>();
}

#[test]
fn rollback_sessions_agree_with_the_server_on_every_hash_general() {
    let general = rollback_sessions_agree_with_the_server_on_every_hash_on::<BattleSession>();
    same_match(
        &rollback_sessions_agree_with_the_server_on_every_hash_on::<Session>(),
        &general,
    );
}

/// With a window of 0 a session never guesses: it stalls instead and keeps no snapshot.
fn lockstep_never_predicts_or_rolls_back_on<S: TwoSeats>() -> Relay<S> {
    // Lockstep pays the latency in input delay: with 4 frames of it, 1-3 frames each way keep
    // the pipeline full.
    let options = SessionOptions {
        window: 0,
        input_delay: 4,
    };
    let mut relay = Relay::<S>::new(11, options, 1, 3);
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
    relay
}

on_both_relays!(
    lockstep_never_predicts_or_rolls_back,
    lockstep_never_predicts_or_rolls_back_general,
    lockstep_never_predicts_or_rolls_back_on
);

/// Long delays stall a session at its window rather than grow its snapshots past it.
fn the_snapshot_ring_never_outgrows_the_window_on<S: TwoSeats>() -> Relay<S> {
    let mut relay = Relay::<S>::new(3, SessionOptions::default(), 5, 14);
    relay.run(1200);
    assert!(
        relay.max_snapshots <= DEFAULT_WINDOW as usize + 1,
        "{}",
        relay.max_snapshots
    );
    assert!(relay.clients[0].session.stats().stall_frames > 0);
    relay
}

on_both_relays!(
    the_snapshot_ring_never_outgrows_the_window,
    the_snapshot_ring_never_outgrows_the_window_general,
    the_snapshot_ring_never_outgrows_the_window_on
);

/// The same match with 0 and with 4 frames of input delay: fewer frames re-simulated with the
/// delay, every hash the server's either way. Returns both runs.
fn input_delay_means_fewer_rollbacks_and_the_same_hashes_on<S: TwoSeats>() -> [Relay<S>; 2] {
    let run = |input_delay| {
        let options = SessionOptions {
            window: DEFAULT_WINDOW,
            input_delay,
        };
        let mut relay = Relay::<S>::new(5, options, 3, 6);
        relay.run(1200);
        relay.settle();
        relay.assert_agreed(0);
        relay
    };
    let [plain, delayed] = [run(0), run(4)];
    let resimulated = |r: &Relay<S>| r.clients[0].session.stats().resimulated_frames;
    assert!(
        resimulated(&delayed) < resimulated(&plain),
        "delay 4: {} re-simulated, delay 0: {}",
        resimulated(&delayed),
        resimulated(&plain)
    );
    [plain, delayed]
}

#[test]
fn input_delay_means_fewer_rollbacks_and_the_same_hashes() {
    input_delay_means_fewer_rollbacks_and_the_same_hashes_on::<Session>();
}

#[test]
fn input_delay_means_fewer_rollbacks_and_the_same_hashes_general() {
    let general = input_delay_means_fewer_rollbacks_and_the_same_hashes_on::<BattleSession>();
    let versus = input_delay_means_fewer_rollbacks_and_the_same_hashes_on::<Session>();
    for (v, g) in versus.iter().zip(&general) {
        same_match(v, g);
    }
}

/// A silent opponent stops the session exactly `DEFAULT_WINDOW` frames in; each confirmed frame
/// heard allows one more.
fn a_session_stalls_exactly_at_the_window_when_the_opponent_is_silent_on<S: TwoSeats>() {
    let mut s = S::new(header(1), Some(Seat::First), SessionOptions::default());
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

on_both_sessions!(
    a_session_stalls_exactly_at_the_window_when_the_opponent_is_silent,
    a_session_stalls_exactly_at_the_window_when_the_opponent_is_silent_general,
    a_session_stalls_exactly_at_the_window_when_the_opponent_is_silent_on
);

/// The opponent's real keys differ from the guess from frame 4: one rollback, back to frame 4,
/// and the predicted match is the one the real keys give.
fn a_wrong_guess_rolls_back_to_the_first_wrong_frame_on<S: TwoSeats>() {
    let h = header(2);
    let mut s = S::new(h, Some(Seat::First), SessionOptions::default());
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
    let mut reference = S::Game::start(&h);
    for (f, &k) in mine.iter().enumerate() {
        let other = if f >= 4 { Input::LEFT } else { Input::NONE };
        reference.play([k, other]);
    }
    assert_eq!(s.predicted(), &reference);
    assert_eq!(s.confirmed().frames(), 7);
}

on_both_sessions!(
    a_wrong_guess_rolls_back_to_the_first_wrong_frame,
    a_wrong_guess_rolls_back_to_the_first_wrong_frame_general,
    a_wrong_guess_rolls_back_to_the_first_wrong_frame_on
);

/// An opponent who held nothing, as guessed: no rollback, and the confirmed frames' snapshots
/// are dropped.
fn a_right_guess_costs_no_rollback_on<S: TwoSeats>() {
    let mut s = S::new(header(3), Some(Seat::First), SessionOptions::default());
    for _ in 0..10 {
        s.advance(Input::RIGHT);
    }
    s.remote_inputs(Seat::Second, &[], 8).expect("valid");
    assert_eq!(s.stats().rollbacks, 0);
    assert_eq!(s.snapshots(), 2);
}

on_both_sessions!(
    a_right_guess_costs_no_rollback,
    a_right_guess_costs_no_rollback_general,
    a_right_guess_costs_no_rollback_on
);

/// A key change goes out at once; unchanged keys are confirmed every 4 frames.
fn inputs_go_out_as_changes_and_periodic_confirmations_on<S: TwoSeats>() {
    let mut s = S::new(header(4), Some(Seat::First), SessionOptions::default());
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
            sent.push(S::read(m));
        }
    }
    let change = |frame, input| InputChange { frame, input };
    assert_eq!(
        sent,
        vec![
            Up::Inputs {
                changes: vec![],
                confirmed: 4
            },
            Up::Inputs {
                changes: vec![change(5, Input::LEFT)],
                confirmed: 6
            },
            Up::Inputs {
                changes: vec![],
                confirmed: 10
            },
        ]
    );
}

on_both_sessions!(
    inputs_go_out_as_changes_and_periodic_confirmations,
    inputs_go_out_as_changes_and_periodic_confirmations_general,
    inputs_go_out_as_changes_and_periodic_confirmations_on
);

/// Every 60 confirmed frames the versus match's hash goes out, after the inputs it covers.
fn state_hashes_go_out_every_60_frames_once_both_seats_confirmed_on<S: TwoSeats>() {
    let h = header(5);
    let mut s = S::new(h, Some(Seat::Second), SessionOptions::default());
    // The two-seat match's hashes, whichever session reports them.
    let mut reference = sevenbag_core::Match::new(h);
    let mut hashes = Vec::new();
    for f in 0..130u32 {
        s.remote_inputs(Seat::First, &[], f + 1).expect("valid");
        s.advance(Input::NONE);
        reference.step([Input::NONE; 2]);
        if (f + 1).is_multiple_of(60) {
            hashes.push(Up::Hash {
                frame: f + 1,
                hash: reference.state_hash(),
            });
        }
    }
    let mut got = Vec::new();
    let mut sent = 0;
    while let Some(m) = s.poll_outgoing() {
        match S::read(m) {
            Up::Inputs { confirmed, .. } => sent = confirmed,
            hash @ Up::Hash { frame, .. } => {
                // The server can only check a hash once it has our inputs that far.
                assert!(sent >= frame, "hash for {frame} before inputs past {sent}");
                got.push(hash);
            }
        }
    }
    assert_eq!(got, hashes);
}

on_both_sessions!(
    state_hashes_go_out_every_60_frames_once_both_seats_confirmed,
    state_hashes_go_out_every_60_frames_once_both_seats_confirmed_general,
    state_hashes_go_out_every_60_frames_once_both_seats_confirmed_on
);

/// Keys given on frame 0 with 3 frames of delay are recorded for frame 3, nothing held before.
fn input_delay_applies_keys_that_many_frames_later_on<S: TwoSeats>() {
    let options = SessionOptions {
        window: DEFAULT_WINDOW,
        input_delay: 3,
    };
    let mut s = S::new(header(6), Some(Seat::First), options);
    s.advance(Input::LEFT);
    assert_eq!(s.confirmed_frames(Seat::First), 4);
    assert_eq!(s.keys_at(Seat::First, 0), Some(Input::NONE));
    assert_eq!(s.keys_at(Seat::First, 2), Some(Input::NONE));
    assert_eq!(s.keys_at(Seat::First, 3), Some(Input::LEFT));
}

on_both_sessions!(
    input_delay_applies_keys_that_many_frames_later,
    input_delay_applies_keys_that_many_frames_later_general,
    input_delay_applies_keys_that_many_frames_later_on
);

/// Inputs for our own seat from the network are refused.
fn our_own_seat_cannot_come_from_the_network_on<S: TwoSeats>() {
    let mut s = S::new(header(7), Some(Seat::First), SessionOptions::default());
    assert_eq!(
        s.remote_inputs(Seat::First, &[], 3),
        Err(S::own_seat(Seat::First))
    );
}

on_both_sessions!(
    our_own_seat_cannot_come_from_the_network,
    our_own_seat_cannot_come_from_the_network_general,
    our_own_seat_cannot_come_from_the_network_on
);

/// Spectators built from the server's log mid-match (one watching, one predicting) reach the
/// players' hashes, the early rounds included.
fn a_spectator_joining_mid_match_converges_to_the_same_hashes_on<S: TwoSeats>() -> Relay<S> {
    let mut relay = Relay::<S>::new(9, SessionOptions::default(), 2, 6);
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
    // The spectator's fast-forward saw the early rounds too, with their hashes.
    assert_eq!(
        relay.clients[watcher].session.confirmed().score(),
        relay.clients[0].session.confirmed().score()
    );
    assert_eq!(
        relay.clients[watcher].session.rounds(),
        relay.clients[0].session.rounds()
    );
    assert_eq!(relay.clients[watcher].session.stats().rollbacks, 0);
    relay
}

#[test]
fn a_spectator_joining_mid_match_converges_to_the_same_hashes() {
    a_spectator_joining_mid_match_converges_to_the_same_hashes_on::<Session>();
}

#[test]
fn a_spectator_joining_mid_match_converges_to_the_same_hashes_general() {
    let general = a_spectator_joining_mid_match_converges_to_the_same_hashes_on::<BattleSession>();
    same_match(
        &a_spectator_joining_mid_match_converges_to_the_same_hashes_on::<Session>(),
        &general,
    );
}

/// A corrupted relay makes one client diverge; the server catches it, sends the match log, and
/// the client agrees with the server again up to the end.
fn a_desync_is_repaired_from_the_match_log_on<S: TwoSeats>() -> Relay<S> {
    let mut relay = Relay::<S>::new(13, SessionOptions::default(), 2, 5);
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
    relay
}

on_both_relays!(
    a_desync_is_repaired_from_the_match_log,
    a_desync_is_repaired_from_the_match_log_general,
    a_desync_is_repaired_from_the_match_log_on
);

/// A player cut off for 2 seconds takes the server's log on its return and sends again
/// everything the server missed, without a gap.
fn a_reconnecting_player_resends_what_the_server_missed_on<S: TwoSeats>() -> Relay<S> {
    let mut relay = Relay::<S>::new(17, SessionOptions::default(), 2, 5);
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
    let log = relay.match_log();
    relay.clients[1].session.handle(&log).expect("valid log");
    // Everything past the server's log goes out again (a gap would be a desync below).
    let mut resent = Vec::new();
    while let Some(message) = relay.clients[1].session.poll_outgoing() {
        resent.push(S::read(message.clone()));
        let due = relay.tick + 1;
        relay.up.push_back(InFlight {
            due,
            client: 1,
            message,
        });
    }
    let first = resent.iter().find(|m| matches!(m, Up::Inputs { .. }));
    assert!(
        matches!(first, Some(Up::Inputs { changes, confirmed })
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
    relay
}

on_both_relays!(
    a_reconnecting_player_resends_what_the_server_missed,
    a_reconnecting_player_resends_what_the_server_missed_general,
    a_reconnecting_player_resends_what_the_server_missed_on
);

/// A session fast-forwarded through the server's log has the confirmed match and hashes of one
/// that played every frame.
fn a_log_built_session_equals_one_that_saw_every_frame_on<S: TwoSeats>() -> Relay<S> {
    let mut relay = Relay::<S>::new(19, SessionOptions::default(), 1, 3);
    relay.run(400);
    relay.settle();
    let s = &relay.clients[0].session;
    let log = relay.server.match_log();
    let rebuilt = S::from_log(
        relay.server.header,
        Some(Seat::First),
        SessionOptions::default(),
        &log.changes,
        log.confirmed,
    )
    .expect("valid");
    assert_eq!(rebuilt.confirmed(), s.confirmed());
    assert_eq!(rebuilt.hashes(), s.hashes());
    relay
}

on_both_relays!(
    a_log_built_session_equals_one_that_saw_every_frame,
    a_log_built_session_equals_one_that_saw_every_frame_general,
    a_log_built_session_equals_one_that_saw_every_frame_on
);

// The options below are one type both sessions take (`SessionOptions`): checked once.

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

/// A wider window is taken up to the match's garbage travel, never past it; a narrower one is
/// ignored.
fn the_window_never_widens_past_garbage_travel_on<S: TwoSeats>() {
    let h = header(2);
    let mut s = S::new(h, Some(Seat::First), SessionOptions::default());
    s.widen_window(40);
    assert_eq!(s.options().window, u32::from(h.rules.garbage_travel));
    s.widen_window(3);
    assert_eq!(s.options().window, u32::from(h.rules.garbage_travel));
}

on_both_sessions!(
    the_window_never_widens_past_garbage_travel,
    the_window_never_widens_past_garbage_travel_general,
    the_window_never_widens_past_garbage_travel_on
);

/// The input delay moved a frame at a time, up to 6 and back to 1, on both players at
/// different moments, keeps every hash and the match of the server.
fn changing_the_input_delay_mid_match_keeps_every_hash_on<S: TwoSeats>() -> Relay<S> {
    let mut relay = Relay::<S>::new(13, SessionOptions::default(), 3, 8);
    let plan = [1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1];
    for (i, delay) in plan.into_iter().enumerate() {
        relay.run(90);
        relay.clients[i % 2].session.set_input_delay(delay);
        relay.clients[(i + 1) % 2].session.set_input_delay(delay);
    }
    relay.run(300);
    relay.settle();
    relay.assert_agreed(15);
    for (i, c) in relay.clients.iter().enumerate() {
        assert_eq!(c.session.options().input_delay, 1);
        assert_eq!(c.session.predicted(), &relay.reference(i));
    }
    relay
}

on_both_relays!(
    changing_the_input_delay_mid_match_keeps_every_hash,
    changing_the_input_delay_mid_match_keeps_every_hash_general,
    changing_the_input_delay_mid_match_keeps_every_hash_on
);

/// Two players on the ends of that plan's delays (1 and 6 frames) for as long keep every hash.
fn players_on_different_input_delays_keep_every_hash_on<S: TwoSeats>() -> Relay<S> {
    let options = |input_delay| SessionOptions {
        window: DEFAULT_WINDOW,
        input_delay,
    };
    let mut relay = Relay::<S>::with_options(13, [options(1), options(6)], 3, 8);
    relay.run(11 * 90 + 300);
    relay.settle();
    relay.assert_agreed(15);
    for (i, c) in relay.clients.iter().enumerate() {
        assert_eq!(c.session.options().input_delay, [1, 6][i]);
        assert_eq!(c.session.predicted(), &relay.reference(i));
    }
    relay
}

on_both_relays!(
    players_on_different_input_delays_keep_every_hash,
    players_on_different_input_delays_keep_every_hash_general,
    players_on_different_input_delays_keep_every_hash_on
);

/// After a server restart whose log kept less of the opponent than we hold, the opponent's
/// re-sent inputs extend the server's log we took.
fn after_a_server_restart_the_opponents_resent_inputs_fit_our_log_on<S: TwoSeats>() {
    let mut s = S::new(header(23), Some(Seat::First), SessionOptions::default());
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
    assert_eq!(s.keys_at(Seat::Second, 25), Some(Input::NONE));
    assert_eq!(s.keys_at(Seat::Second, 7), Some(Input::LEFT));
}

on_both_sessions!(
    after_a_server_restart_the_opponents_resent_inputs_fit_our_log,
    after_a_server_restart_the_opponents_resent_inputs_fit_our_log_general,
    after_a_server_restart_the_opponents_resent_inputs_fit_our_log_on
);
