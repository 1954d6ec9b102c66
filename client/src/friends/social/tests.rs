//! The friends connection's lists and answers, fed the server's messages by hand.

use super::*;
use sevenbag_protocol::social::PresenceState;

fn friend(name: &str) -> FriendEntry {
    FriendEntry {
        name: name.into(),
        since_unix: 0,
        presence: PresenceState::Offline,
    }
}

fn page(from: usize, n: usize) -> Vec<FriendEntry> {
    (from..from + n)
        .map(|i| friend(&format!("p{i:04}")))
        .collect()
}

#[test]
fn a_long_list_loads_page_after_page_as_the_cursor_nears_its_end() {
    let mut list = FriendList {
        asking: Some(0),
        ..FriendList::default()
    };
    list.take_page(0, 1234, page(0, 100));
    assert_eq!(list.next_page(10), None, "far from the end: nothing asked");
    assert_eq!(list.next_page(85), Some(100));
    list.asking = Some(100);
    assert_eq!(list.next_page(99), None, "one page at a time");
    list.take_page(100, 1234, page(100, 100));
    assert_eq!(list.entries.len(), 200);
    assert_eq!(list.entries[150].name, "p0150");
    // A page of a list that started again meanwhile is dropped.
    list.take_page(500, 1234, page(500, 100));
    assert_eq!(list.entries.len(), 200);
    list.take_page(0, 3, page(0, 3));
    assert_eq!((list.entries.len(), list.total), (3, 3));
    assert_eq!(list.next_page(2), None, "everything is loaded");
}

#[test]
fn a_presence_push_changes_that_friend_only() {
    let mut s = Social::refused(String::new());
    s.on_message(ServerMessage::Friends {
        offset: 0,
        total: 2,
        friends: vec![friend("ann"), friend("ben")],
    });
    let in_match = PresenceState::InMatch {
        kind: sevenbag_protocol::social::MatchKind::Ranked,
        code: "K7Q2".into(),
    };
    s.on_message(ServerMessage::Presence {
        name: "ben".into(),
        state: in_match.clone(),
    });
    let states: Vec<_> = s.friends().entries.iter().map(|f| &f.presence).collect();
    assert_eq!(states, [&PresenceState::Offline, &in_match]);
}

#[test]
fn a_notification_shows_once_and_a_removed_friend_leaves_the_list() {
    let mut s = Social::refused(String::new());
    let n = Notification {
        id: 9,
        kind: NotificationKind::DirectMessage,
        subject: "ann".into(),
        content: r#"{"from":"ann","text":"gg"}"#.into(),
        created_unix: 0,
    };
    s.on_message(ServerMessage::Notification {
        notification: n.clone(),
    });
    s.on_message(ServerMessage::Notifications { list: vec![n] });
    assert_eq!(s.notifications().len(), 1);
    s.on_message(ServerMessage::Friends {
        offset: 0,
        total: 2,
        friends: vec![friend("ann"), friend("ben")],
    });
    s.on_message(ServerMessage::FriendRemoved { name: "ann".into() });
    assert_eq!(s.friends().entries, vec![friend("ben")]);
    assert_eq!(s.friends().total, 1);
}

#[test]
fn the_servers_answers_set_what_the_screen_shows_of_you() {
    let mut s = Social::refused(String::new());
    assert_eq!(s.you(), You::default(), "not known, and seen, at first");
    // The answer to the screen's question on opening, then one to a change.
    s.on_message(ServerMessage::RequestPolicySet {
        policy: RequestPolicy::Anyone,
    });
    s.on_message(ServerMessage::RequestPolicySet {
        policy: RequestPolicy::PlayedWith,
    });
    s.on_message(ServerMessage::AppearingOffline { on: true });
    assert_eq!(
        s.you(),
        You {
            policy: Some(RequestPolicy::PlayedWith),
            hidden: true
        }
    );
    s.on_message(ServerMessage::AppearingOffline { on: false });
    assert!(!s.you().hidden);
    let said: Vec<String> = s.take_notices().into_iter().map(|(t, _)| t).collect();
    assert_eq!(
        said,
        [
            "Only players you have played may send you friend requests.",
            "Friends see you offline now.",
            "Friends see you again."
        ]
    );
}

#[test]
fn a_message_the_server_took_is_reported_once() {
    let mut s = Social::refused(String::new());
    s.on_message(ServerMessage::DirectMessageSent { to: "ann".into() });
    assert_eq!(s.take_delivered(), ["ann"]);
    assert!(s.take_delivered().is_empty());
}

#[test]
fn an_unknown_identity_fails_the_screen_with_the_way_to_get_one() {
    let mut s = Social::refused(String::new());
    s.exchange = Exchange::settled(Status::Connecting);
    s.on_message(ServerMessage::Error {
        code: ErrorCode::UnknownKey,
        message: "unknown key".into(),
        fatal: false,
    });
    match s.status() {
        Status::Failed(why) => assert!(why.contains("Ranked match"), "{why}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn an_invite_answered_from_its_toast_leaves_the_list_and_is_not_marked_again() {
    let mut s = Social::refused(String::new());
    let invite = Notification {
        id: 4,
        kind: NotificationKind::Invite,
        subject: "ann".into(),
        content: r#"{"from":"ann","code":"ABCDE"}"#.into(),
        created_unix: 0,
    };
    s.on_message(ServerMessage::Notification {
        notification: invite,
    });
    assert_eq!(s.take_arrived().len(), 1);
    s.settle(4);
    assert!(s.notifications().is_empty());
    assert!(s.unmarked.is_empty(), "marked seen already");
}
