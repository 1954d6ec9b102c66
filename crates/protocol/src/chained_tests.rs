use sevenbag_core::Input;

use super::*;
use crate::compact::InputStep;
use crate::gathered::{Gathering, pack};
use crate::messages::InputChange;
use crate::{TightSeats, decode_server, encode};

fn keys(list: &[(u32, u8)]) -> Vec<InputChange> {
    list.iter()
        .map(|&(frame, m)| InputChange {
            frame,
            input: Input(m),
        })
        .collect()
}

/// Seven opponents' batches from their confirmations `from`, each to `from + 4`.
fn seven_opponents(from: u32) -> Vec<SeatSteps> {
    let mut gathering = Gathering::new();
    for seat in 1..8u8 {
        let at = from + u32::from(seat);
        gathering.add(seat, at, &keys(&[(at + 1, seat)]), &[], at + 4);
    }
    gathering.take()
}

/// Sends `entries` through a sender's chain, the wire and a receiver's widener.
fn through(
    sender: &mut Chain,
    receiver: &mut Widener,
    entries: &[SeatSteps],
) -> (usize, Vec<SeatSteps>) {
    let message = ServerMessage::BattleInputsChained {
        seats: sender.link(entries),
    };
    let bytes = encode(&message).unwrap();
    let ServerMessage::BattleInputsGathered { frame, seats } =
        receiver.widen(decode_server(&bytes).unwrap())
    else {
        panic!("not widened");
    };
    assert_eq!(frame, 0);
    (bytes.len(), seats)
}

#[test]
fn chained_entries_read_back_with_their_bases() {
    let (mut sender, mut receiver) = (Chain::new(), Widener::new());
    let first = seven_opponents(70_000);
    assert_eq!(through(&mut sender, &mut receiver, &first).1, first);
    let next = seven_opponents(70_000 + 4);
    assert_eq!(through(&mut sender, &mut receiver, &next).1, next);
}

#[test]
fn entries_that_follow_cost_no_base_and_the_message_no_frame() {
    let (mut sender, mut receiver) = (Chain::new(), Widener::new());
    through(&mut sender, &mut receiver, &seven_opponents(7_000));
    let next = seven_opponents(7_004);
    let (chained, _) = through(&mut sender, &mut receiver, &next);
    let (frame, seats) = pack(next);
    let tight = encode(&ServerMessage::BattleInputsTight {
        frame,
        seats: TightSeats(seats),
    })
    .unwrap()
    .len();
    // The frame (3 bytes from frame 251 to 65,535) and a byte an entry.
    assert_eq!(chained + 3 + 7, tight);
}

#[test]
fn an_entry_that_does_not_follow_carries_its_base() {
    let mut sender = Chain::new();
    let first = [SeatSteps {
        frames: 4,
        ..SeatSteps::new(2, 10)
    }];
    assert!(!sender.link(&first).0[0].follows);
    assert!(sender.link(&[SeatSteps::new(2, 14)]).0[0].follows);
    // A new match starts from frame 0 again.
    assert!(!sender.link(&[SeatSteps::new(2, 0)]).0[0].follows);
}

#[test]
fn an_entry_following_nothing_is_left_out() {
    let seats = ChainedSeats(vec![ChainedEntry {
        entry: SeatSteps::new(3, 0),
        follows: true,
    }]);
    let widened = Widener::new().widen(ServerMessage::BattleInputsChained { seats });
    assert_eq!(
        widened,
        ServerMessage::BattleInputsGathered {
            frame: 0,
            seats: Vec::new()
        }
    );
}

#[test]
fn long_runs_of_keys_and_targets_read_back() {
    let mut e = SeatSteps::new(7, 5);
    e.steps = (0..40)
        .map(|i| InputStep {
            after: i * 3,
            input: Input((i % 5) as u8),
        })
        .collect();
    e.targets = vec![crate::TargetStep {
        after: 2,
        target: Some(0),
    }];
    e.frames = 200;
    let seats = ChainedSeats(vec![ChainedEntry {
        entry: e,
        follows: false,
    }]);
    assert_eq!(
        ChainedSeats::from_bytes(&seats.to_bytes().unwrap()),
        Ok(seats)
    );
}

#[test]
fn hostile_bytes_are_refused() {
    // Seat 1 with two key changes, but only one follows.
    assert_eq!(
        ChainedSeats::from_bytes(&[0x41, 4, 1, 1]),
        Err(TightError::Truncated)
    );
    let nine: Vec<u8> = (0..9).flat_map(|s| [s % 8, 1]).collect();
    assert_eq!(
        ChainedSeats::from_bytes(&nine),
        Err(TightError::TooManySeats)
    );
    // Seat 2, targets flagged: one target, at distance 1, seat 9.
    assert_eq!(
        ChainedSeats::from_bytes(&[0x0a, 4, 1, 1, 9]),
        Err(TightError::BadTarget(9))
    );
    let ten = ChainedSeats(vec![ChainedEntry {
        entry: SeatSteps::new(10, 0),
        follows: false,
    }]);
    assert_eq!(ten.to_bytes(), Err(TightError::Unwritable(10)));
}
