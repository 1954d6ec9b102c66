//! Any bytes, as a replay file of either version (the one reader, `replay_file::open`): decoding
//! never panics or over-allocates, and a replay that decodes is verified (simulated) within
//! bounded time, with an error or a report. Each input is
//! also tried with its checksum recomputed (as a forger would), so the fuzzer reaches the body
//! and the simulation instead of stopping at the checksum.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sevenbag_protocol::replay::forge_checksum;
use sevenbag_protocol::replay_file::open;

fn check(bytes: &[u8]) {
    if let Ok(replay) = open(bytes) {
        let _ = replay.verify();
    }
}

fuzz_target!(|data: &[u8]| {
    check(data);
    if let Some(forged) = forge_checksum(data) {
        check(&forged);
    }
});
