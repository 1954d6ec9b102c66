//! The codec: every message round-trips, and hostile bytes give errors, never panics.

mod samples;

use proptest::prelude::*;
use samples::{client_messages, server_messages};
use sevenbag_protocol::*;

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

#[test]
fn encode_refuses_a_message_over_the_limit() {
    let huge = ServerMessage::Replay {
        id: "x".into(),
        bytes: vec![0; MAX_MESSAGE_BYTES + 1],
    };
    let err = encode(&huge).expect_err("over the limit");
    assert!(
        matches!(err, EncodeError::TooLarge { limit, .. } if limit == MAX_MESSAGE_BYTES),
        "{err}"
    );
}

#[test]
fn a_direct_message_is_as_long_as_a_chat_line() {
    assert_eq!(
        sevenbag_protocol::social::MAX_DIRECT_MESSAGE_CHARS,
        sevenbag_protocol::identity::MAX_CHAT_CHARS
    );
}
