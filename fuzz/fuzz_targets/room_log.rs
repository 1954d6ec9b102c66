//! Any bytes, as a room log (`.sbrl`, the file a server restores a running match from after a
//! crash), through the one reader of both format versions: reading never panics,
//! over-allocates or hangs, and whatever it keeps was checked like live input. Each input is
//! also tried as one more record, correctly framed (length and checksum), after a valid opening
//! record of each version, so the fuzzer reaches the record decoders, the input checks and the
//! versus conversion, not only the framing.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sevenbag_protocol::replay::checksum;
use sevenbag_protocol::room_log_file;

/// Committed samples: a version-1 log and a version-2 log of a versus match (magic, version,
/// then the opening records).
const SAMPLE_V1: &[u8] = include_bytes!("../corpus/room_log/sample_v1.sbrl");
const SAMPLE_V2: &[u8] = include_bytes!("../corpus/room_log/sample_v2_versus.sbrl");

/// The bytes of `sample` up to the end of its first record.
fn opening(sample: &[u8]) -> &[u8] {
    let len = u32::from_le_bytes([sample[6], sample[7], sample[8], sample[9]]) as usize;
    &sample[..6 + 4 + len + 8]
}

fuzz_target!(|data: &[u8]| {
    let _ = room_log_file::open(data);
    if let Ok(len) = u32::try_from(data.len()) {
        for sample in [SAMPLE_V1, SAMPLE_V2] {
            let mut forged = opening(sample).to_vec();
            let start = forged.len();
            forged.extend_from_slice(&len.to_le_bytes());
            forged.extend_from_slice(data);
            let sum = checksum(&forged[start..]);
            forged.extend_from_slice(&sum.to_le_bytes());
            let _ = room_log_file::open(&forged);
        }
    }
});
