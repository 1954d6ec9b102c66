//! The end of a match on a client whose boards run behind the server: the server's messages
//! are handed to the controller in the order such a client hears them (the verdict before its
//! boards reached the decisive frame, with the opponent's last inputs never arriving), and the
//! verdict must show anyway: who won, the server's score, and the rematch keys.

use sevenbag_core::{Handling, MatchHeader, Phase, Seat};
use sevenbag_netplay::NetEvent;
use sevenbag_netplay::time::Instant;
use sevenbag_protocol::{EndReason, RoomOptions, ServerMessage};

use super::{Online, Request};
use crate::input::KeyMap;
use crate::match_source::MatchSource as _;

/// A controller seated first in a match that just started, fed by hand (nothing listens on
/// the address; the controller is never polled, so no network event reaches it).
fn seated_in_a_match() -> Online {
    let mut online = Online::connect(
        "127.0.0.1:9",
        "desk",
        Handling::default(),
        KeyMap::guideline(),
        Request::Create(RoomOptions::default()),
    );
    let now = Instant::now();
    for message in [
        ServerMessage::Joined {
            code: "ACD34".to_owned(),
            seat: Some(Seat::First),
            resume: 1,
            options: RoomOptions::default(),
        },
        ServerMessage::MatchStart {
            header: MatchHeader::versus(5),
            names: ["desk".to_owned(), "phone".to_owned()],
            start_in_ms: 0,
        },
    ] {
        online.on_event(NetEvent::Message(message), now);
    }
    online
}

#[test]
fn a_top_out_the_boards_never_reach_shows_the_servers_verdict_and_score() {
    let mut online = seated_in_a_match();
    let now = Instant::now();
    for (round, wins) in [[0, 1], [0, 2], [0, 3]].into_iter().enumerate() {
        let message = ServerMessage::RoundOver {
            round: round as u32,
            winner: Some(Seat::Second),
            wins,
            frame: 100 * round as u32,
        };
        online.on_event(NetEvent::Message(message), now);
    }
    let over = ServerMessage::MatchOver {
        winner: Seat::Second,
        reason: EndReason::TopOut,
        replay: Some("r1".to_owned()),
    };
    online.on_event(NetEvent::Message(over), now);
    assert!(!matches!(online.current().phase(), Phase::MatchOver { .. }));
    assert_eq!(online.verdict().as_deref(), Some("PHONE WINS  3 – 0"));
}
