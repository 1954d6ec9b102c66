//! Any bytes, as a datagram from a client (to the server) or from the server (to a client):
//! decoding never panics, whatever decodes re-encodes to a datagram that decodes the same, and
//! its windows applied to an input log (as the server and the session do) never panic and
//! leave a log that only grew. The same for the battle datagrams of rooms of several seats
//! (their windows applied to a seat log of keys and targets; an uplink with a state hash too). The client's link reads the same
//! bytes without panicking, in a two-seat match and in a room of several seats.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sevenbag_netplay::DatagramLink;
use sevenbag_netplay::time::Instant;
use sevenbag_protocol::battle_datagram::{self, BattleDownlink, BattleUplink, apply_span};
use sevenbag_protocol::datagram::{Downlink, Uplink, apply_window, window_of};
use sevenbag_protocol::{InputLog, SeatLog, SeatSteps, ServerMessage};

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

fn battle_window_applies(window: &SeatSteps) {
    let Ok(span) = battle_datagram::resolve(window) else {
        return;
    };
    for have in [0, span.from, span.from.saturating_add(span.confirmed.saturating_sub(span.from) / 2)] {
        let Ok(mut log) = SeatLog::from_lists(&[], &[], have.min(100_000)) else {
            continue;
        };
        let before = log.confirmed();
        let _ = apply_span(&mut log, &span);
        assert!(log.confirmed() >= before);
        let again = battle_datagram::window_of(span.seat, &log, span.from);
        assert!(battle_datagram::resolve(&again).is_ok());
    }
}

/// A link in a room of several seats, in a match of eight started from `header`'s seed.
fn battle_link() -> DatagramLink {
    let mut link = DatagramLink::new();
    link.speak_battles();
    link.from_websocket(ServerMessage::BattleJoined {
        code: "ACDEF".into(),
        seat: Some(2),
        resume: 1,
        options: sevenbag_protocol::BattleRoomOptions::ffa(8),
    });
    let options = sevenbag_protocol::BattleRoomOptions::ffa(8);
    let header = options.header(7, &[Default::default(); 8], Default::default());
    link.from_websocket(ServerMessage::BattleStart {
        header: Box::new(header),
        names: vec![String::new(); 8],
        room_seats: (0..8).collect(),
        start_in_ms: 0,
    });
    link.activate(Instant::now());
    link
}

fuzz_target!(|data: &[u8]| {
    if let Ok(up) = BattleUplink::decode(data) {
        let bytes = up.encode().expect("a decoded battle uplink encodes");
        assert_eq!(BattleUplink::decode(&bytes).ok(), Some(up.clone()));
        if let Some(w) = &up.inputs {
            battle_window_applies(w);
        }
    }
    if let Ok(down) = BattleDownlink::decode(data) {
        let bytes = down.encode().expect("a decoded battle downlink encodes");
        assert_eq!(BattleDownlink::decode(&bytes).ok(), Some(down.clone()));
        for w in &down.inputs {
            battle_window_applies(w);
        }
    }
    let _ = battle_link().from_datagram(data, Instant::now());
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
