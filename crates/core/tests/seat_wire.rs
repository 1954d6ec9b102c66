//! `Seat` on the wire: the seat index type serializes to exactly the bytes the two-seat enum it
//! replaced gave, so every message, replay and room log written before reads the same.

use serde::{Deserialize, Serialize};
use sevenbag_core::Seat;

/// The enum `Seat` was before it became a seat index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
enum OldSeat {
    First,
    Second,
}

/// A record shaped like the protocol's: a seat, an optional seat and a pair.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Record<S> {
    seat: S,
    winner: Option<S>,
    both: [S; 2],
    after: u32,
}

fn encode<T: Serialize>(value: &T) -> Vec<u8> {
    bincode::serde::encode_to_vec(value, bincode::config::standard()).expect("encode")
}

fn decode<T: for<'de> Deserialize<'de>>(bytes: &[u8]) -> Result<T, bincode::error::DecodeError> {
    bincode::serde::decode_from_slice(bytes, bincode::config::standard()).map(|(v, _)| v)
}

#[test]
fn seats_0_and_1_encode_as_the_enum_did() {
    assert_eq!(encode(&Seat::First), encode(&OldSeat::First));
    assert_eq!(encode(&Seat::Second), encode(&OldSeat::Second));
    assert_eq!(encode(&Seat::First), [0]);
    assert_eq!(encode(&Seat::Second), [1]);
}

#[test]
fn records_holding_seats_encode_as_before() {
    let new = Record {
        seat: Seat::Second,
        winner: Some(Seat::First),
        both: Seat::BOTH,
        after: 300,
    };
    let old = Record {
        seat: OldSeat::Second,
        winner: Some(OldSeat::First),
        both: [OldSeat::First, OldSeat::Second],
        after: 300,
    };
    let bytes = encode(&old);
    assert_eq!(encode(&new), bytes);
    assert_eq!(decode::<Record<Seat>>(&bytes).expect("decode"), new);
    let none = Record {
        winner: None,
        ..new
    };
    let old_none = Record {
        winner: None,
        ..old
    };
    assert_eq!(encode(&none), encode(&old_none));
}

#[test]
fn a_seat_the_enum_refused_is_refused() {
    for byte in [2u8, 7, 8, 250] {
        assert!(decode::<OldSeat>(&[byte]).is_err(), "{byte}");
        assert!(decode::<Seat>(&[byte]).is_err(), "{byte}");
    }
}

#[test]
fn a_long_form_varint_is_refused() {
    // bincode never writes 0 or 1 in a long form (251 + u16 …); the enum happened to read one,
    // the seat refuses it, so no file bincode wrote reads differently.
    for bytes in [[251u8, 0, 0, 0, 0], [252, 1, 0, 0, 0], [255, 0, 0, 0, 0]] {
        assert!(decode::<Seat>(&bytes).is_err(), "{bytes:?}");
    }
}
