//! The client's datagram link in a room of several seats, without a network: our keys and
//! targets go as one battle window until acknowledged, every opponent's window comes up as one
//! gathered message, the catch-up is `BattleInputsFrom`, and a driver that does not speak
//! battle datagrams keeps its inputs on the WebSocket.

use std::time::{Duration, Instant};

use sevenbag_core::Input;
use sevenbag_netplay::datagram::{ACK_DELAY, DatagramLink, REPEAT_EVERY, TransportPath};
use sevenbag_protocol::battle_datagram::{BattleDownlink, BattleUplink, window_from};
use sevenbag_protocol::datagram::{WINDOW_FRAMES, match_tag};
use sevenbag_protocol::{
    BattleRoomOptions, ClientMessage, InputChange, ServerMessage, TargetChange,
};

const SEED: u64 = 0xfa11;

fn key(frame: u32, m: u8) -> InputChange {
    InputChange {
        frame,
        input: Input(m),
    }
}

fn batch(keys: &[(u32, u8)], targets: &[(u32, Option<u8>)], confirmed: u32) -> ClientMessage {
    ClientMessage::BattleInputs {
        changes: keys.iter().map(|&(f, m)| key(f, m)).collect(),
        targets: targets
            .iter()
            .map(|&(frame, target)| TargetChange { frame, target })
            .collect(),
        confirmed,
    }
}

/// A link in room seat 1 of a started match of three seats; on datagrams from `now` when
/// `speaks`.
fn seated(now: Instant, speaks: bool) -> DatagramLink {
    let mut link = DatagramLink::new();
    if speaks {
        link.speak_battles();
    }
    let options = BattleRoomOptions::ffa(3);
    link.from_websocket(ServerMessage::BattleJoined {
        code: "ACDEF".into(),
        seat: Some(1),
        resume: 1,
        options,
    });
    let header = options.header(SEED, &[Default::default(); 3], Default::default());
    link.from_websocket(ServerMessage::BattleStart {
        header: Box::new(header),
        names: vec!["a".into(), "b".into(), "c".into()],
        room_seats: vec![0, 1, 2],
        start_in_ms: 1000,
    });
    link.activate(now);
    link
}

fn sent(link: &mut DatagramLink, at: Instant) -> Option<BattleUplink> {
    let bytes = link.poll_datagram(at)?.expect("encodes");
    Some(BattleUplink::decode(&bytes).expect("a battle uplink"))
}

#[test]
fn keys_and_targets_go_as_one_window_until_acknowledged() {
    let t0 = Instant::now();
    let mut link = seated(t0, true);
    let _ = sent(&mut link, t0);
    assert_eq!(link.outgoing(batch(&[(2, 1)], &[(3, Some(2))], 5)), None);
    let up = sent(&mut link, t0).expect("at once");
    let window = up.inputs.expect("our inputs");
    assert_eq!((window.base, window.frames), (0, 5));
    assert_eq!((window.steps.len(), window.targets.len()), (1, 1));
    assert_eq!(up.acks.len(), 3, "one acknowledgement per battle seat");
    let again = sent(&mut link, t0 + REPEAT_EVERY).expect("repeated");
    assert_eq!(again.inputs.map(|w| w.frames), Some(5));
    let acked = BattleDownlink {
        tag: match_tag(SEED),
        ack: 5,
        ..BattleDownlink::default()
    };
    link.from_datagram(&acked.encode().unwrap(), t0 + REPEAT_EVERY)
        .expect("reads");
    assert!(
        sent(&mut link, t0 + 4 * REPEAT_EVERY).is_none(),
        "nothing owed"
    );
}

#[test]
fn every_opponents_window_comes_up_as_one_gathered_message_and_is_acknowledged() {
    let t0 = Instant::now();
    let mut link = seated(t0, true);
    let _ = sent(&mut link, t0);
    let down = BattleDownlink {
        tag: match_tag(SEED),
        ack: 0,
        inputs: vec![
            window_from(0, 0, &[key(1, 4)], &[], 4),
            window_from(
                2,
                0,
                &[],
                &[TargetChange {
                    frame: 2,
                    target: Some(0),
                }],
                3,
            ),
        ],
        pong: None,
    };
    let up = link
        .from_datagram(&down.encode().unwrap(), t0)
        .expect("reads");
    let [ServerMessage::BattleInputsGathered { frame, seats }] = &up[..] else {
        panic!("one gathered message: {up:?}");
    };
    let ends: Vec<_> = seats
        .iter()
        .map(|e| (e.seat, frame + e.base + e.frames))
        .collect();
    assert_eq!(ends, [(0, 4), (2, 3)]);
    // A repeat of the same windows is not passed up again.
    assert!(
        link.from_datagram(&down.encode().unwrap(), t0)
            .unwrap()
            .is_empty()
    );
    let ack = sent(&mut link, t0 + ACK_DELAY).expect("an acknowledgement");
    let held: Vec<_> = ack.held().collect();
    assert_eq!((held[0], held[2]), ((0, 4), (2, 3)));
}

#[test]
fn a_lag_past_the_window_is_caught_up_with_battle_inputs_from() {
    let t0 = Instant::now();
    let mut link = seated(t0, true);
    let far = WINDOW_FRAMES + 10;
    assert_eq!(link.outgoing(batch(&[(3, 1)], &[(5, Some(0))], far)), None);
    let catch_up = link.catch_up(t0, Some(Duration::from_millis(50)));
    let [
        ClientMessage::BattleInputsFrom {
            from,
            changes,
            targets,
            confirmed,
        },
    ] = &catch_up[..]
    else {
        panic!("one catch-up: {catch_up:?}");
    };
    assert_eq!(
        (*from, changes.len(), targets.len(), *confirmed),
        (0, 1, 1, far)
    );
}

#[test]
fn a_driver_that_does_not_speak_battle_datagrams_keeps_inputs_on_the_websocket() {
    let t0 = Instant::now();
    let mut link = seated(t0, false);
    let inputs = batch(&[(2, 1)], &[], 5);
    assert_eq!(link.outgoing(inputs.clone()), Some(inputs));
}

#[test]
fn the_path_is_datagrams_in_a_room_of_several_seats_only_when_battle_datagrams_are_spoken() {
    let t0 = Instant::now();
    assert_eq!(seated(t0, true).path(), TransportPath::Datagrams);
    assert_eq!(seated(t0, false).path(), TransportPath::WebSocket);
}

#[test]
fn a_state_hash_rides_in_the_next_battle_datagram_once() {
    let t0 = Instant::now();
    let mut link = seated(t0, true);
    let _ = sent(&mut link, t0);
    let hash = ClientMessage::BattleHash {
        frame: 60,
        hash: 0xfeed,
    };
    assert_eq!(link.outgoing(hash), None, "kept for a datagram");
    assert_eq!(link.outgoing(batch(&[(2, 1)], &[], 61)), None);
    let up = sent(&mut link, t0).expect("at once");
    assert_eq!(up.hash, Some((60, 0xfeed)));
    let again = sent(&mut link, t0 + REPEAT_EVERY).expect("repeated inputs");
    assert_eq!(again.hash, None, "a hash goes once");
}

#[test]
fn a_pending_hash_goes_over_the_websocket_on_a_fall_back() {
    let t0 = Instant::now();
    let mut link = seated(t0, true);
    let hash = ClientMessage::BattleHash { frame: 60, hash: 7 };
    assert_eq!(link.outgoing(hash.clone()), None);
    assert!(link.fall_back().contains(&hash));
    // Off the datagram path it is the WebSocket's at once.
    assert_eq!(link.outgoing(hash.clone()), Some(hash));
}

#[test]
fn without_battle_datagrams_a_hash_stays_on_the_websocket() {
    let t0 = Instant::now();
    let mut link = seated(t0, false);
    let hash = ClientMessage::BattleHash { frame: 60, hash: 7 };
    assert_eq!(link.outgoing(hash.clone()), Some(hash));
}
