//! The Friends screen's connection against a real server on 127.0.0.1:0 with a database: a
//! request pushed to the screen, accepted from it, the friend's presence changing live as they
//! open a room and leave, and their invite turned into the action that joins its room.

use std::time::Duration;

use sevenbag_netplay::time::Instant;
use sevenbag_protocol::social::{PresenceState, RequestAnswer};
use sevenbag_protocol::{ClientMessage, RoomOptions, ServerMessage};

use super::capture::{ask, ask_for, key, registered};
use super::rows::{self, Action, Lists, Row};
use super::social::{Social, Status};
use crate::net::test_server::LocalServer;

/// Polls `s` until `done` holds (at most ten seconds).
fn poll_until(s: &mut Social, what: &str, done: impl Fn(&Social) -> bool) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while !done(s) {
        assert!(
            Instant::now() < deadline,
            "timed out waiting for {what}: {:?}",
            s.status()
        );
        s.poll();
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn lists(s: &Social) -> Lists<'_> {
    Lists {
        notifications: s.notifications(),
        incoming: s.incoming(),
        outgoing: s.outgoing(),
        friends: s.friends(),
        you: s.you(),
        writing: None,
    }
}

fn presence(s: &Social, name: &str) -> Option<PresenceState> {
    let f = s.friends().entries.iter().find(|f| f.name == name)?;
    Some(f.presence.clone())
}

#[test]
fn a_request_an_accept_live_presence_and_an_invite_through_a_real_server() {
    let server = LocalServer::start_with(|c, dir| c.db = Some(dir.join("s.db")));
    let addr = server.addr().to_string();
    // ann is the screen's player: registered once, then the screen identifies.
    drop(registered(&addr, "ann", key(1)).expect("ann registers"));
    let mut screen = Social::connect(&addr, "ann", key(1));
    poll_until(&mut screen, "identified", |s| *s.status() == Status::Ready);
    assert_eq!(screen.me(), Some("ann"));

    let mut ben = registered(&addr, "ben", key(2)).expect("ben registers");
    ask(
        &mut ben,
        ClientMessage::SendFriendRequest { name: "ann".into() },
        |m| matches!(m, ServerMessage::FriendRequestSent { .. }),
    )
    .expect("ben asks");
    poll_until(&mut screen, "ben's request", |s| {
        s.incoming().iter().any(|p| p.name == "ben")
    });
    let rows_now = rows::build(lists(&screen));
    let at = rows_now
        .iter()
        .position(|r| matches!(r, Row::Incoming(_)))
        .expect("an incoming row");
    assert_eq!(
        rows::primary(rows_now[at], lists(&screen)),
        Some(Action::Accept("ben".into()))
    );
    screen.answer("ben", RequestAnswer::Accept);
    poll_until(&mut screen, "ben as a friend, online", |s| {
        presence(s, "ben") == Some(PresenceState::Online)
    });
    assert!(screen.incoming().is_empty());

    // What was shown is marked seen on the server; the screen keeps showing it.
    screen.mark_shown();
    let code = ask_for(
        &mut ben,
        ClientMessage::CreateRoom {
            options: RoomOptions::default(),
        },
        |m| match m {
            ServerMessage::Joined { code, .. } => Some(code.clone()),
            _ => None,
        },
    )
    .expect("ben's room");
    ask(
        &mut ben,
        ClientMessage::InviteFriend {
            name: "ann".into(),
            code: code.clone(),
        },
        |m| matches!(m, ServerMessage::Invited { .. }),
    )
    .expect("ben invites");
    poll_until(&mut screen, "the invite", |s| {
        s.notifications()
            .iter()
            .any(|n| rows::invite_code(n).is_some())
    });
    let rows_now = rows::build(lists(&screen));
    let joins: Vec<Action> = rows_now
        .iter()
        .filter_map(|r| rows::primary(*r, lists(&screen)))
        .filter(|a| matches!(a, Action::Join(_)))
        .collect();
    assert_eq!(joins, [Action::Join(code)]);

    drop(ben);
    poll_until(&mut screen, "ben offline", |s| {
        presence(s, "ben") == Some(PresenceState::Offline)
    });
}
