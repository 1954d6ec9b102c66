//! Any bytes, as a solo replay file (`.sbso`, shared between players like versus replays):
//! decoding never panics or over-allocates, and a file that decodes is verified (re-simulated)
//! within bounded time. Each input is also tried with its checksum recomputed, as a forger would.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sevenbag_protocol::replay::forge_checksum;
use sevenbag_protocol::solo_replay::{SoloReplay, verify_solo};

fn check(bytes: &[u8]) {
    if let Ok(replay) = SoloReplay::decode(bytes) {
        let _ = verify_solo(&replay);
    }
}

fuzz_target!(|data: &[u8]| {
    check(data);
    if let Some(forged) = forge_checksum(data) {
        check(&forged);
    }
});
