//! Any text, as a fixed-sequence challenge record: parsing gives a record or an error with its
//! position, never a panic, and a record that parses is scored within the brick limit.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sevenbag_challenge::{Record, score};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(record) = Record::parse(&text) {
        let _ = score(&record);
    }
});
