//! The codec: every message round-trips, and hostile bytes give errors, never panics.

use proptest::prelude::*;
use sevenbag_core::{Handling, Input, MatchHeader, Seat};
use sevenbag_protocol::*;

fn client_messages() -> Vec<ClientMessage> {
    vec![
        ClientMessage::Hello {
            version: PROTOCOL_VERSION,
            name: "ann".into(),
            handling: Handling::default(),
            resume: Some(7),
        },
        ClientMessage::CreateRoom {
            options: RoomOptions::default(),
        },
        ClientMessage::JoinRoom {
            code: "ACDEF".into(),
            role: JoinRole::Spectator,
        },
        ClientMessage::QuickMatch,
        ClientMessage::LeaveRoom,
        ClientMessage::Ready,
        ClientMessage::Inputs {
            changes: vec![InputChange {
                frame: 3,
                input: Input::LEFT,
            }],
            confirmed: 9,
        },
        ClientMessage::StateHash {
            frame: 60,
            hash: u64::MAX,
        },
        ClientMessage::Ping { nonce: 1 },
        ClientMessage::Pong { nonce: 2 },
        ClientMessage::ListReplays,
        ClientMessage::GetReplay { id: "x".into() },
    ]
}

fn server_messages() -> Vec<ServerMessage> {
    let header = MatchHeader::versus(42);
    let seat = SeatInfo {
        name: "bo".into(),
        ready: true,
        status: SeatStatus::Reconnecting { seconds_left: 9 },
    };
    vec![
        ServerMessage::Welcome {
            version: 1,
            server: "s".into(),
        },
        ServerMessage::Error {
            code: ErrorCode::Version,
            message: "m".into(),
            fatal: true,
        },
        ServerMessage::Joined {
            code: "ACDEF".into(),
            seat: Some(Seat::Second),
            resume: 5,
            options: RoomOptions::default(),
        },
        ServerMessage::RoomState {
            seats: [Some(seat), None],
            spectators: 3,
        },
        ServerMessage::MatchStart {
            header,
            names: ["a".into(), "b".into()],
            start_in_ms: 3000,
        },
        ServerMessage::MatchLog {
            header,
            names: ["a".into(), "b".into()],
            changes: [
                vec![InputChange {
                    frame: 0,
                    input: Input::HOLD,
                }],
                vec![],
            ],
            confirmed: [10, 4],
            now_frame: 11,
        },
        ServerMessage::Inputs {
            seat: Seat::First,
            changes: vec![],
            confirmed: 100,
        },
        ServerMessage::SeatStatus {
            seat: Seat::First,
            status: SeatStatus::Forfeited,
        },
        ServerMessage::RoundOver {
            round: 1,
            winner: None,
            wins: [1, 1],
            frame: 900,
        },
        ServerMessage::MatchOver {
            winner: Seat::Second,
            reason: EndReason::Forfeit,
            replay: Some("r".into()),
        },
        ServerMessage::Desync {
            frame: 60,
            server_hash: 1,
            your_hash: 2,
        },
        ServerMessage::Ping { nonce: 3 },
        ServerMessage::Pong {
            nonce: 3,
            server_ms: 4,
        },
        ServerMessage::Replays {
            list: vec![("a".into(), "b".into())],
        },
        ServerMessage::Replay {
            id: "a".into(),
            bytes: vec![1, 2, 3],
        },
        ServerMessage::Shutdown {
            reason: "bye".into(),
        },
    ]
}

#[test]
fn every_client_message_round_trips() {
    for m in client_messages() {
        let bytes = encode(&m).unwrap();
        assert_eq!(decode_client(&bytes, MAX_MESSAGE_BYTES).unwrap(), m);
    }
}

#[test]
fn every_server_message_round_trips() {
    for m in server_messages() {
        let bytes = encode(&m).unwrap();
        assert_eq!(decode_server(&bytes).unwrap(), m);
    }
}

#[test]
fn a_message_over_the_limit_is_refused_before_decoding() {
    let bytes = encode(&ClientMessage::Ping { nonce: 1 }).unwrap();
    assert!(matches!(
        decode_client(&bytes, 1),
        Err(DecodeError::TooLarge { .. })
    ));
}

#[test]
fn trailing_bytes_are_refused() {
    let mut bytes = encode(&ClientMessage::Ready).unwrap();
    bytes.push(0);
    assert!(matches!(
        decode_client(&bytes, 1024),
        Err(DecodeError::Trailing(1))
    ));
}

#[test]
fn a_huge_length_prefix_does_not_allocate() {
    // Variant 0 (Hello), version 1, then a string length claiming u64::MAX bytes.
    let mut bytes = vec![0u8, 1];
    bytes.push(253);
    bytes.extend_from_slice(&u64::MAX.to_le_bytes());
    assert!(decode_client(&bytes, 1024).is_err());
}

#[test]
fn every_truncation_of_a_valid_message_is_an_error() {
    for m in client_messages() {
        let bytes = encode(&m).unwrap();
        for cut in 0..bytes.len() {
            assert!(
                decode_client(&bytes[..cut], MAX_MESSAGE_BYTES).is_err(),
                "{m:?} cut at {cut}"
            );
        }
    }
}

proptest! {
    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        let _ = decode_client(&bytes, 1024);
        let _ = decode_server(&bytes);
    }
}
