use sevenbag_core::Input;

use super::*;
use crate::gathered::{Gathering, pack};
use crate::messages::InputChange;
use crate::{TargetChange, decode_server, encode};

fn keys(list: &[(u32, u8)]) -> Vec<InputChange> {
    list.iter()
        .map(|&(frame, m)| InputChange {
            frame,
            input: Input(m),
        })
        .collect()
}

/// Seven opponents' batches as the server gathers them, one with a target change and one
/// with a long run of keys.
fn seven_opponents() -> (u32, Vec<SeatSteps>) {
    let mut gathering = Gathering::new();
    for seat in 1..8u8 {
        let targets = if seat == 3 {
            vec![TargetChange {
                frame: 70_002,
                target: Some(0),
            }]
        } else {
            Vec::new()
        };
        gathering.add(
            seat,
            70_000 + u32::from(seat),
            &keys(&[(70_009, seat)]),
            &targets,
            70_010,
        );
    }
    let long: Vec<_> = (0..40).map(|i| (70_100 + i * 3, (i % 5) as u8)).collect();
    gathering.add(7, 70_010, &keys(&long), &[], 70_300);
    pack(gathering.take())
}

#[test]
fn tight_entries_read_back_as_they_were_written() {
    let (frame, seats) = seven_opponents();
    let message = ServerMessage::BattleInputsTight {
        frame,
        seats: TightSeats(seats.clone()),
    };
    let bytes = encode(&message).unwrap();
    assert_eq!(
        widen(decode_server(&bytes).unwrap()),
        ServerMessage::BattleInputsGathered { frame, seats }
    );
}

#[test]
fn tight_entries_save_at_least_two_bytes_each() {
    let (frame, seats) = seven_opponents();
    let entries = seats.len();
    let gathered = encode(&ServerMessage::BattleInputsGathered {
        frame,
        seats: seats.clone(),
    })
    .unwrap()
    .len();
    let tight = encode(&ServerMessage::BattleInputsTight {
        frame,
        seats: TightSeats(seats),
    })
    .unwrap()
    .len();
    assert!(tight + 2 * entries <= gathered, "{tight} vs {gathered}");
}

#[test]
fn an_idle_seat_costs_three_bytes() {
    let idle = TightSeats(vec![SeatSteps {
        frames: 4,
        ..SeatSteps::new(5, 2)
    }]);
    assert_eq!(idle.to_bytes().unwrap(), [5, 2, 4]);
}

#[test]
fn widen_leaves_other_messages_alone() {
    let ping = ServerMessage::Ping { nonce: 3 };
    assert_eq!(widen(ping.clone()), ping);
}

#[test]
fn truncated_or_overlong_bytes_are_refused() {
    // Seat 1 with two key changes, but only one follows.
    assert_eq!(
        TightSeats::from_bytes(&[0x21, 0, 4, 1, 1]),
        Err(TightError::Truncated)
    );
    // A count of a million changes in a few bytes.
    assert_eq!(
        TightSeats::from_bytes(&[0xf1, 0, 4, 0xc0, 0x84, 0x3d, 1, 1]),
        Err(TightError::Truncated)
    );
    // A varint of six bytes, and one past u32.
    assert_eq!(
        TightSeats::from_bytes(&[1, 0xff, 0xff, 0xff, 0xff, 0xff, 0]),
        Err(TightError::Overflow)
    );
    assert_eq!(
        TightSeats::from_bytes(&[1, 0xff, 0xff, 0xff, 0xff, 0x1f, 0]),
        Err(TightError::Overflow)
    );
}

#[test]
fn distances_past_the_last_frame_are_refused() {
    let mut bytes = vec![0x21, 0, 4];
    for _ in 0..2 {
        bytes.extend([0xff, 0xff, 0xff, 0xff, 0x0f, 1]);
    }
    assert_eq!(TightSeats::from_bytes(&bytes), Err(TightError::Overflow));
}

#[test]
fn more_than_eight_entries_or_a_bad_target_are_refused() {
    let nine: Vec<u8> = (0..9).flat_map(|s| [s % 8, 0, 1]).collect();
    assert_eq!(TightSeats::from_bytes(&nine), Err(TightError::TooManySeats));
    // Seat 2, targets flagged: one target, at distance 1, seat 9.
    assert_eq!(
        TightSeats::from_bytes(&[0x0a, 0, 4, 1, 1, 9]),
        Err(TightError::BadTarget(9))
    );
    let message = encode(&ServerMessage::BattleInputsTight {
        frame: 0,
        seats: TightSeats(Vec::new()),
    })
    .unwrap();
    let mut hostile = message[..message.len() - 1].to_vec();
    hostile.extend([3, 0x0a, 0, 4]);
    assert!(decode_server(&hostile).is_err());
}

#[test]
fn seats_past_a_room_have_no_tight_form() {
    let ten = TightSeats(vec![SeatSteps::new(10, 0)]);
    assert_eq!(ten.to_bytes(), Err(TightError::Unwritable(10)));
    assert!(
        encode(&ServerMessage::BattleInputsTight {
            frame: 0,
            seats: ten
        })
        .is_err()
    );
}
