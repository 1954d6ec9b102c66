//! Any text, as one line of the Tetris Bot Protocol from either side: a message or an error,
//! never a panic, and lines over the limit are refused before parsing.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sevenbag_tbp::messages::{BotMessage, FrontendMessage, parse_line};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = parse_line::<FrontendMessage>(&text);
    let _ = parse_line::<BotMessage>(&text);
});
