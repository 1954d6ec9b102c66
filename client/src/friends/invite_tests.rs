//! Invite a friend from a room's own connection, against a real server on 127.0.0.1:0 with a
//! database: the free-for-all room's connection, identified with the player key, sends the
//! invite with its code; the friend's connection hears it pushed live (what a toast says), and
//! joining its code as the Friends screen's Join does seats them in the room. A guest room
//! connection is not offered Invite. A challenge (the Friends screen's Challenge: a room of
//! one's own rules) invites the friend as soon as the room exists.

use std::time::Duration;

use sevenbag_core::Handling;
use sevenbag_netplay::time::Instant;
use sevenbag_protocol::social::{NotificationKind, RequestAnswer};
use sevenbag_protocol::{BattleRoomOptions, ClientMessage, ServerMessage};

use super::capture::{ask, key, registered};
use super::rows::{invite_code, notice_text};
use super::social::{Social, Status};
use crate::net::battle::BattleOnline;
use crate::net::online::Request;
use crate::net::test_server::LocalServer;

/// Runs `step` until `done` holds (at most twenty seconds).
fn until(what: &str, mut step: impl FnMut() -> bool) {
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while !step() {
        assert!(std::time::Instant::now() < deadline, "timed out: {what}");
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Ann's Create room form opened by Challenge on ben's row, as the lobby's Go makes it: a
/// room of two seats with her rules, identified with `key`, inviting ben once it exists.
fn challenge(
    addr: &str,
    rules: sevenbag_protocol::RoomOptions,
    key: Option<[u8; 32]>,
) -> BattleOnline {
    let options = BattleRoomOptions {
        room: rules,
        ..BattleRoomOptions::ffa(2)
    };
    BattleOnline::create(addr, "ann", Handling::default(), options)
        .with_key(key)
        .inviting(Some("ben".into()))
}

/// Registers ann (key 1) and ben (key 2), makes them friends, and returns ben's social
/// connection with nothing left to hear.
fn friends_ann_and_ben(addr: &str) -> Social {
    let mut ann_asks = registered(addr, "ann", key(1)).expect("ann registers");
    drop(registered(addr, "ben", key(2)).expect("ben registers"));
    // Ben's game: the connection behind his toasts and Friends screen.
    let mut ben = Social::connect(addr, "ben", key(2));
    until("ben identified", || {
        ben.poll();
        *ben.status() == Status::Ready
    });
    ask(
        &mut ann_asks,
        ClientMessage::SendFriendRequest { name: "ben".into() },
        |m| matches!(m, ServerMessage::FriendRequestSent { .. }),
    )
    .expect("ann asks");
    until("ann's request", || {
        ben.poll();
        ben.incoming().iter().any(|p| p.name == "ann")
    });
    ben.answer("ann", RequestAnswer::Accept);
    until("friends", || {
        ben.poll();
        !ben.friends().entries.is_empty()
    });
    ben.take_arrived();
    ben
}

#[test]
fn a_room_connection_invites_a_friend_who_joins_by_the_notifications_code() {
    let server = LocalServer::start_with(|c, dir| c.db = Some(dir.join("s.db")));
    let addr = server.addr().to_string();
    let mut ben = friends_ann_and_ben(&addr);

    // Ann's free-for-all room of three, on a connection identified with her key.
    let options = BattleRoomOptions::ffa(3);
    let mut room =
        BattleOnline::create(&addr, "ann", Handling::default(), options).with_key(Some(key(1)));
    until("the room, identified", || {
        room.poll(Instant::now());
        room.may_invite()
    });
    let code = room.code().expect("a code").to_owned();
    room.invite("ben");
    let mut said = Vec::new();
    until("ann's invite answered", || {
        room.poll(Instant::now());
        said.extend(room.take_notices());
        !said.is_empty()
    });
    assert_eq!(said, [format!("Invited ben to room {code}.")]);

    // Ben hears it pushed live, with the room's code.
    let mut arrived = Vec::new();
    until("the invite pushed", || {
        ben.poll();
        arrived.extend(ben.take_arrived());
        !arrived.is_empty()
    });
    assert_eq!(arrived[0].kind, NotificationKind::Invite);
    assert_eq!(
        notice_text(&arrived[0]),
        format!("ann invites you to room {code}")
    );
    let joined_code = invite_code(&arrived[0]).expect("the invite's code");

    // Join, as the Friends screen does: the room's code on a player's connection.
    let config = crate::config::Config::default();
    let mut join = crate::versus::lobby::connection_as(
        &config,
        &addr,
        Request::Join(joined_code),
        Some(key(2)),
    );
    until("ben handed to the room", || {
        join.poll(Instant::now());
        join.joined_battle()
    });
    let handed = join.take_battle().expect("a room of several seats");
    let mut seated = BattleOnline::joined(handed);
    assert_eq!(seated.seat(), Some(1));
    until("ann sees ben seated", || {
        room.poll(Instant::now());
        seated.poll(Instant::now());
        room.room()
            .get(1)
            .is_some_and(|s| s.as_ref().is_some_and(|s| s.name == "ben"))
    });
    room.leave();
    seated.leave();
}

#[test]
fn a_guest_room_connection_is_not_offered_invite() {
    let server = LocalServer::start_with(|c, dir| c.db = Some(dir.join("s.db")));
    let addr = server.addr().to_string();
    let options = BattleRoomOptions::ffa(3);
    let mut room = BattleOnline::create(&addr, "zed", Handling::default(), options);
    until("the room", || {
        room.poll(Instant::now());
        room.code().is_some()
    });
    assert!(!room.may_invite());
    room.leave();
}

#[test]
fn a_challenge_invites_the_friend_once_the_room_of_ones_rules_exists() {
    let server = LocalServer::start_with(|c, dir| c.db = Some(dir.join("s.db")));
    let addr = server.addr().to_string();
    let mut ben = friends_ann_and_ben(&addr);
    // Ann's Create room form, opened by Challenge on ben's row: her rules, ben invited.
    let options = sevenbag_protocol::RoomOptions {
        first_to: 3,
        ..Default::default()
    };
    let mut room = challenge(&addr, options, Some(key(1)));
    let mut said = Vec::new();
    until("ann's challenge sent and answered", || {
        room.poll(Instant::now());
        said.extend(room.take_notices());
        !said.is_empty()
    });
    let code = room.code().expect("the room's code").to_owned();
    assert_eq!(said, [format!("Invited ben to room {code}.")]);
    assert_eq!(
        room.options().map(|o| (o.seats, o.room.first_to)),
        Some((2, 3))
    );
    let mut arrived = Vec::new();
    until("the challenge pushed", || {
        ben.poll();
        arrived.extend(ben.take_arrived());
        !arrived.is_empty()
    });
    assert_eq!(arrived[0].kind, NotificationKind::Invite);
    assert_eq!(invite_code(&arrived[0]), Some(code));
}

#[test]
fn a_guest_challenge_says_invites_need_an_identity() {
    let server = LocalServer::start_with(|c, dir| c.db = Some(dir.join("s.db")));
    let addr = server.addr().to_string();
    let mut room = challenge(&addr, Default::default(), None);
    let mut said = Vec::new();
    until("the refusal", || {
        room.poll(Instant::now());
        said.extend(room.take_notices());
        !said.is_empty()
    });
    assert_eq!(said, [crate::net::online::who::INVITES_NEED_IDENTITY]);
}

#[test]
fn a_room_connection_asks_the_opponent_to_be_friends_from_the_result_card() {
    let server = LocalServer::start_with(|c, dir| c.db = Some(dir.join("s.db")));
    let addr = server.addr().to_string();
    drop(registered(&addr, "ann", key(1)).expect("ann registers"));
    drop(registered(&addr, "ben", key(2)).expect("ben registers"));
    let mut ben = Social::connect(&addr, "ben", key(2));
    until("ben identified", || {
        ben.poll();
        *ben.status() == Status::Ready
    });
    let config = crate::config::Config::default();
    let mut room = crate::versus::lobby::connection_as(
        &config,
        &addr,
        Request::Create(Default::default()),
        Some(key(1)),
    );
    until("ann's room, identified", || {
        room.poll(Instant::now());
        room.may_invite()
    });
    room.befriend("ben");
    let mut said = Vec::new();
    until("ann's request answered", || {
        room.poll(Instant::now());
        said.extend(room.take_notices());
        !said.is_empty()
    });
    assert_eq!(said, ["Friend request sent to ben."]);
    until("ben hears ann's request", || {
        ben.poll();
        ben.incoming().iter().any(|p| p.name == "ann")
    });
}
