//! Any bytes, as a room log (`.sbrl`, the file a server restores a running match from after a
//! crash): reading never panics, over-allocates or hangs, and whatever it keeps was checked like
//! live input. Each input is also tried as one more record, correctly framed (length and
//! checksum), after a valid opening record, so the fuzzer reaches the record decoder and the
//! input checks, not only the framing.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sevenbag_protocol::replay::checksum;
use sevenbag_protocol::room_log;

/// The committed sample's head and opening record (magic, version, then the `Open` record).
const SAMPLE: &[u8] = include_bytes!("../corpus/room_log/sample_v1.sbrl");

/// The bytes of `SAMPLE` up to the end of its first record.
fn opening() -> &'static [u8] {
    let len = u32::from_le_bytes([SAMPLE[6], SAMPLE[7], SAMPLE[8], SAMPLE[9]]) as usize;
    &SAMPLE[..6 + 4 + len + 8]
}

fuzz_target!(|data: &[u8]| {
    let _ = room_log::read(data);
    if let Ok(len) = u32::try_from(data.len()) {
        let mut forged = opening().to_vec();
        let start = forged.len();
        forged.extend_from_slice(&len.to_le_bytes());
        forged.extend_from_slice(data);
        let sum = checksum(&forged[start..]);
        forged.extend_from_slice(&sum.to_le_bytes());
        let _ = room_log::read(&forged);
    }
});
