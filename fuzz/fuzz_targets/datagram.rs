//! Any bytes, as a datagram from a client (to the server) or from the server (to a client):
//! decoding never panics, whatever decodes re-encodes to a datagram that decodes the same, and
//! its windows applied to an input log (as the server and the session do) never panic and
//! leave a log that only grew. The client's link reads the same bytes without panicking.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sevenbag_netplay::DatagramLink;
use sevenbag_netplay::time::Instant;
use sevenbag_protocol::InputLog;
use sevenbag_protocol::datagram::{Downlink, Uplink, apply_window, window_of};

fn windows_apply(window: &sevenbag_protocol::datagram::InputWindow) {
    let Ok(w) = window.resolve() else { return };
    for have in [0, w.from, w.from.saturating_add(w.confirmed.saturating_sub(w.from) / 2)] {
        let Ok(mut log) = InputLog::from_changes(&[], have.min(100_000)) else {
            continue;
        };
        let before = log.confirmed();
        let _ = apply_window(&mut log, w.from, &w.changes, w.confirmed);
        assert!(log.confirmed() >= before);
        // What a log would repeat from any point decodes back to a valid window.
        let again = window_of(&log, w.from);
        assert!(again.resolve().is_ok());
    }
}

fuzz_target!(|data: &[u8]| {
    if let Ok(up) = Uplink::decode(data) {
        let bytes = up.encode().expect("a decoded uplink encodes");
        assert_eq!(Uplink::decode(&bytes).ok(), Some(up.clone()));
        if let Some(w) = &up.inputs {
            windows_apply(w);
        }
    }
    if let Ok(down) = Downlink::decode(data) {
        let bytes = down.encode().expect("a decoded downlink encodes");
        assert_eq!(Downlink::decode(&bytes).ok(), Some(down.clone()));
        for (_, w) in &down.inputs {
            windows_apply(w);
        }
    }
    let mut link = DatagramLink::new();
    link.activate(Instant::now());
    let _ = link.from_datagram(data, Instant::now());
});
