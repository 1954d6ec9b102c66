//! Any text, as a puzzle file: parsing gives a puzzle or an error with its line, never a panic,
//! and a puzzle that parses has its solution checked through the core within bounded time.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(puzzle) = sevenbag_puzzle::parse(&text) {
        let _ = sevenbag_puzzle::check(&puzzle);
    }
});
