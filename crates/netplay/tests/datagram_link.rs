//! The client's datagram link without a network: what it sends when, how it reads the server's
//! datagrams, its catch-up over the WebSocket, and when it gives the path up. Time is an
//! argument, so nothing sleeps.

use std::time::{Duration, Instant};

use sevenbag_core::{Input, MatchHeader, Seat};
use sevenbag_netplay::TransportPath;
use sevenbag_netplay::datagram::{ACK_DELAY, DEAD_AFTER, DatagramLink, REPEAT_EVERY};
use sevenbag_protocol::datagram::{Downlink, InputWindow, Pong, WINDOW_FRAMES, match_tag};
use sevenbag_protocol::{ClientMessage, InputChange, RoomOptions, ServerMessage};

const SEED: u64 = 0x5eed;

fn change(frame: u32, m: u8) -> InputChange {
    InputChange {
        frame,
        input: Input(m),
    }
}

fn inputs(changes: &[(u32, u8)], confirmed: u32) -> ClientMessage {
    ClientMessage::Inputs {
        changes: changes.iter().map(|&(f, m)| change(f, m)).collect(),
        confirmed,
    }
}

/// A link seated First in a match that has started, on datagrams from `now`.
fn playing(now: Instant) -> DatagramLink {
    let mut link = DatagramLink::new();
    link.from_websocket(ServerMessage::Joined {
        code: "ACDEF".into(),
        seat: Some(Seat::First),
        resume: 1,
        options: RoomOptions::default(),
    });
    link.from_websocket(ServerMessage::MatchStart {
        header: MatchHeader::versus(SEED),
        names: ["a".into(), "b".into()],
        start_in_ms: 1000,
    });
    link.activate(now);
    assert_eq!(link.path(), TransportPath::Datagrams);
    link
}

fn down(ack: u32, windows: Vec<(Seat, InputWindow)>) -> Vec<u8> {
    Downlink {
        tag: match_tag(SEED),
        ack,
        hash_ack: 0,
        inputs: windows,
        pong: None,
    }
    .encode()
    .unwrap()
}

#[test]
fn on_the_websocket_everything_passes_through() {
    let now = Instant::now();
    let mut link = DatagramLink::new();
    assert_eq!(link.path(), TransportPath::WebSocket);
    let batch = inputs(&[(0, 1)], 4);
    assert_eq!(link.outgoing(batch.clone()), Some(batch));
    assert!(link.poll_send(now).is_none());
    assert_eq!(link.next_wake(), None);
}

#[test]
fn a_new_batch_goes_at_once_and_is_repeated_until_acknowledged() {
    let t0 = Instant::now();
    let mut link = playing(t0);
    let _first = link.poll_send(t0);
    assert_eq!(link.outgoing(inputs(&[(2, 1)], 4)), None);
    let up = link.poll_send(t0).expect("sent at once");
    let window = up.inputs.expect("our inputs");
    assert_eq!((window.from, window.frames, window.steps.len()), (0, 4, 1));
    assert!(link.poll_send(t0 + REPEAT_EVERY / 2).is_none());
    let again = link.poll_send(t0 + REPEAT_EVERY).expect("repeated");
    assert!(again.seq > up.seq);
    assert_eq!(again.inputs.unwrap().from, 0);
    // The server holds frames 0..4: nothing is left to repeat.
    link.from_datagram(&down(4, vec![]), t0 + REPEAT_EVERY)
        .unwrap();
    assert!(link.poll_send(t0 + 3 * REPEAT_EVERY).is_none());
    // The next batch starts where the acknowledgement stopped.
    link.outgoing(inputs(&[], 8));
    let next = link
        .poll_send(t0 + 3 * REPEAT_EVERY)
        .unwrap()
        .inputs
        .unwrap();
    assert_eq!((next.from, next.frames), (4, 4));
}

#[test]
fn the_opponents_windows_pass_up_once_and_are_acknowledged() {
    let t0 = Instant::now();
    let mut link = playing(t0);
    let _ = link.poll_send(t0);
    let w = InputWindow::new(0, &[change(3, 2)], 10);
    let up = link
        .from_datagram(&down(0, vec![(Seat::Second, w.clone())]), t0)
        .unwrap();
    assert_eq!(
        up,
        vec![ServerMessage::InputsFrom {
            seat: Seat::Second,
            from: 0,
            changes: vec![change(3, 2)],
            confirmed: 10
        }]
    );
    // A repeat is not passed up again.
    assert!(
        link.from_datagram(&down(0, vec![(Seat::Second, w)]), t0)
            .unwrap()
            .is_empty()
    );
    // A window past what we hold is a gap: not passed up.
    let gap = InputWindow::new(12, &[], 20);
    assert!(
        link.from_datagram(&down(0, vec![(Seat::Second, gap)]), t0)
            .unwrap()
            .is_empty()
    );
    assert_eq!(link.stats().gaps, 1);
    let ack = link.poll_send(t0 + ACK_DELAY).expect("an acknowledgement");
    assert_eq!(ack.acks, vec![(Seat::Second, 10)]);
}

#[test]
fn another_matchs_datagram_only_answers_the_clock() {
    let t0 = Instant::now();
    let mut link = playing(t0);
    let stale = Downlink {
        tag: match_tag(SEED) ^ 1,
        ack: 0,
        hash_ack: 0,
        inputs: vec![(Seat::Second, InputWindow::new(0, &[], 10))],
        pong: Some(Pong {
            nonce: 7,
            server_ms: 99,
        }),
    };
    let up = link.from_datagram(&stale.encode().unwrap(), t0).unwrap();
    assert_eq!(
        up,
        vec![ServerMessage::Pong {
            nonce: 7,
            server_ms: 99
        }]
    );
}

#[test]
fn pings_and_hashes_ride_in_datagrams() {
    let t0 = Instant::now();
    let mut link = playing(t0);
    let _ = link.poll_send(t0);
    assert_eq!(link.outgoing(ClientMessage::Ping { nonce: 5 }), None);
    assert_eq!(
        link.outgoing(ClientMessage::StateHash {
            frame: 60,
            hash: 42
        }),
        None
    );
    let up = link.poll_send(t0).unwrap();
    assert_eq!((up.ping, up.hash), (Some(5), Some((60, 42))));
    // The hash is repeated until the server takes it; the ping is not.
    let again = link.poll_send(t0 + REPEAT_EVERY).unwrap();
    assert_eq!((again.ping, again.hash), (None, Some((60, 42))));
    let taken = Downlink {
        tag: match_tag(SEED),
        hash_ack: 60,
        ..Downlink::default()
    };
    link.from_datagram(&taken.encode().unwrap(), t0).unwrap();
    assert!(link.poll_send(t0 + 4 * REPEAT_EVERY).is_none());
}

#[test]
fn a_lag_past_the_window_is_caught_up_over_the_websocket() {
    let t0 = Instant::now();
    let mut link = playing(t0);
    link.outgoing(inputs(&[(1, 1)], 10));
    assert!(link.catch_up(t0, None).is_empty(), "within the window");
    link.outgoing(inputs(&[(20, 2)], 10 + WINDOW_FRAMES));
    let up = link.poll_send(t0).unwrap().inputs.unwrap();
    assert_eq!(up.from, 10, "the datagram repeats only the last window");
    let catch_up = link.catch_up(t0, None);
    assert_eq!(
        catch_up,
        vec![ClientMessage::InputsFrom {
            from: 0,
            changes: vec![change(1, 1), change(20, 2)],
            confirmed: 10 + WINDOW_FRAMES
        }]
    );
    assert!(link.catch_up(t0, None).is_empty(), "not again at once");
}

#[test]
fn an_unanswered_path_is_dead_and_falls_back_with_everything_owed() {
    let t0 = Instant::now();
    let mut link = playing(t0);
    link.outgoing(inputs(&[(1, 3)], 6));
    link.outgoing(ClientMessage::StateHash { frame: 6, hash: 1 });
    let _ = link.poll_send(t0);
    assert!(!link.is_dead(t0 + DEAD_AFTER / 2));
    assert!(link.is_dead(t0 + DEAD_AFTER));
    let owed = link.fall_back();
    assert_eq!(
        owed,
        vec![
            ClientMessage::Datagrams { on: false },
            ClientMessage::InputsFrom {
                from: 0,
                changes: vec![change(1, 3)],
                confirmed: 6
            },
            ClientMessage::StateHash { frame: 6, hash: 1 },
        ]
    );
    assert_eq!(link.path(), TransportPath::WebSocket);
    let batch = inputs(&[], 10);
    assert_eq!(link.outgoing(batch.clone()), Some(batch));
}

#[test]
fn websocket_relays_after_datagrams_become_windows_from_the_last_relay() {
    let t0 = Instant::now();
    let mut link = playing(t0);
    let relay = |changes: Vec<InputChange>, confirmed| ServerMessage::Inputs {
        seat: Seat::Second,
        changes,
        confirmed,
    };
    let first = link.from_websocket(relay(vec![change(2, 1)], 8));
    assert_eq!(
        first,
        ServerMessage::InputsFrom {
            seat: Seat::Second,
            from: 0,
            changes: vec![change(2, 1)],
            confirmed: 8
        }
    );
    let second = link.from_websocket(relay(vec![], 12));
    assert!(matches!(
        second,
        ServerMessage::InputsFrom {
            from: 8,
            confirmed: 12,
            ..
        }
    ));
}

#[test]
fn a_quiet_link_sends_nothing() {
    let t0 = Instant::now();
    let mut link = playing(t0);
    let _ = link.poll_send(t0);
    for ms in [10, 100, 1000, 5000] {
        assert!(link.poll_send(t0 + Duration::from_millis(ms)).is_none());
    }
    assert!(!link.is_dead(t0 + Duration::from_secs(60)));
}

#[test]
fn nothing_is_repeated_or_awaited_after_the_match_is_over() {
    let t0 = Instant::now();
    let mut link = playing(t0);
    link.outgoing(inputs(&[(1, 1)], 8));
    link.outgoing(ClientMessage::StateHash { frame: 60, hash: 9 });
    assert!(link.poll_send(t0).is_some());
    link.from_websocket(ServerMessage::MatchOver {
        winner: Seat::Second,
        reason: sevenbag_protocol::EndReason::TopOut,
        replay: None,
    });
    assert!(link.poll_send(t0 + 10 * REPEAT_EVERY).is_none());
    assert!(!link.is_dead(t0 + 2 * DEAD_AFTER));
}
