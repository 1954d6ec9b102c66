//! The Friends screen's connection against a real server on 127.0.0.1:0 with a database: a
//! request pushed to the screen, accepted from it, the friend's presence changing live as they
//! open a room and leave, and their invite turned into the action that joins its room; the
//! settings rows (nobody may ask, appear offline) taking effect, and a message replied to.

use std::time::Duration;

use sevenbag_netplay::time::Instant;
use sevenbag_protocol::social::{PresenceState, RequestAnswer, RequestPolicy};
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

#[test]
fn the_settings_rows_and_a_reply_take_effect_on_a_real_server() {
    let server = LocalServer::start_with(|c, dir| c.db = Some(dir.join("s.db")));
    let addr = server.addr().to_string();
    drop(registered(&addr, "ann", key(1)).expect("ann registers"));
    let mut screen = Social::connect(&addr, "ann", key(1));
    poll_until(&mut screen, "identified", |s| *s.status() == Status::Ready);
    let mut ben = registered(&addr, "ben", key(2)).expect("ben registers");
    let mut cyd = registered(&addr, "cyd", key(3)).expect("cyd registers");
    ask(
        &mut ben,
        ClientMessage::SendFriendRequest { name: "ann".into() },
        |m| matches!(m, ServerMessage::FriendRequestSent { .. }),
    )
    .expect("ben asks");
    poll_until(&mut screen, "ben's request", |s| !s.incoming().is_empty());
    screen.answer("ben", RequestAnswer::Accept);
    poll_until(&mut screen, "ben as a friend", |s| {
        presence(s, "ben") == Some(PresenceState::Online)
    });

    // Nobody may ask now: the row shows it once the server said so, and cyd is refused.
    let action = rows::actions(Row::Policy, lists(&screen))
        .into_iter()
        .find(|a| *a == Action::Policy(RequestPolicy::Nobody))
        .expect("nobody is offered");
    assert_eq!(action, Action::Policy(RequestPolicy::Nobody));
    screen.set_policy(RequestPolicy::Nobody);
    poll_until(&mut screen, "the policy set", |s| {
        s.you().policy == Some(RequestPolicy::Nobody)
    });
    assert_eq!(rows::policy_value(screen.you().policy), "Nobody");
    let refused = ask(
        &mut cyd,
        ClientMessage::SendFriendRequest { name: "ann".into() },
        |m| matches!(m, ServerMessage::FriendRequestSent { .. }),
    )
    .expect_err("ann takes no requests");
    assert!(!refused.is_empty());

    // Appearing offline: the row turns on and ben hears ann offline.
    assert_eq!(
        rows::primary(Row::Offline, lists(&screen)),
        Some(Action::AppearOffline(true))
    );
    screen.appear_offline(true);
    poll_until(&mut screen, "appearing offline", |s| s.you().hidden);
    assert_eq!(
        rows::primary(Row::Offline, lists(&screen)),
        Some(Action::AppearOffline(false))
    );
    ask(
        &mut ben,
        ClientMessage::GetFriends {
            offset: 0,
            limit: 10,
        },
        |m| {
            matches!(m, ServerMessage::Friends { friends, .. }
            if friends.iter().any(|f| f.name == "ann" && f.presence == PresenceState::Offline))
        },
    )
    .expect("ben reads ann offline");

    // Ben's message shows with his name and text, and Reply answers him.
    ask(
        &mut ben,
        ClientMessage::DirectMessage {
            to: "ann".into(),
            text: "gg".into(),
        },
        |m| matches!(m, ServerMessage::DirectMessageSent { .. }),
    )
    .expect("ben writes");
    poll_until(&mut screen, "ben's message", |s| {
        s.notifications()
            .iter()
            .any(|n| rows::notice_text(n) == "ben: gg")
    });
    let replies: Vec<Action> = rows::build(lists(&screen))
        .into_iter()
        .filter_map(|r| rows::primary(r, lists(&screen)))
        .filter(|a| matches!(a, Action::Reply(_)))
        .collect();
    assert!(
        replies.contains(&Action::Reply("ben".into())),
        "{replies:?}"
    );
    screen.send_message("ben", "see you".into());
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut taken = Vec::new();
    while taken.is_empty() {
        assert!(Instant::now() < deadline, "the message was never taken");
        screen.poll();
        taken = screen.take_delivered();
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(taken, ["ben"]);

    // Ann may report Ben's message to the operators instead: the server takes it.
    screen.take_notices();
    screen.report_message("ben", "gg");
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut said = Vec::new();
    while !said
        .iter()
        .any(|(t, _): &(String, bool)| t.starts_with("Report sent"))
    {
        assert!(
            Instant::now() < deadline,
            "the report was never taken: {said:?}"
        );
        screen.poll();
        said.extend(screen.take_notices());
        std::thread::sleep(Duration::from_millis(5));
    }
}
