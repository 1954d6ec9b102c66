//! Any bytes, as a message from a client or from a server: decoding never panics, and whatever
//! decodes re-encodes to bytes that decode to the same message. (Not to the same bytes: bincode
//! accepts non-minimal varints, e.g. `fb 00 00` for 0, which the first fuzz run found; nothing
//! hashes or compares raw message bytes, so only the meaning must round-trip.)
#![no_main]

use libfuzzer_sys::fuzz_target;
use sevenbag_protocol::{MAX_MESSAGE_BYTES, decode_client, decode_server, encode};

fuzz_target!(|data: &[u8]| {
    if let Ok(m) = decode_client(data, MAX_MESSAGE_BYTES) {
        let bytes = encode(&m).expect("a decoded message encodes");
        assert_eq!(decode_client(&bytes, MAX_MESSAGE_BYTES).ok(), Some(m));
    }
    if let Ok(m) = decode_server(data) {
        let bytes = encode(&m).expect("a decoded message encodes");
        assert_eq!(decode_server(&bytes).ok(), Some(m));
    }
});
