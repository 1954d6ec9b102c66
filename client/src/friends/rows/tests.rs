//! The rows, their actions and their words (`super`), without a window.

use macroquad::input::KeyCode;
use sevenbag_protocol::identity::validate_name;
use sevenbag_protocol::social::{FriendEntry, MatchKind, PresenceState, RequestPolicy};

use super::*;
use crate::friends::social::FriendList;

fn pending(name: &str) -> PendingEntry {
    PendingEntry {
        name: name.into(),
        sent_unix: 0,
    }
}

fn friend(name: &str, presence: PresenceState) -> FriendEntry {
    FriendEntry {
        name: name.into(),
        since_unix: 0,
        presence,
    }
}

fn invite(id: u64, code: &str) -> Notification {
    Notification {
        id,
        kind: NotificationKind::Invite,
        subject: "ann".into(),
        content: format!(r#"{{"from":"ann","code":"{code}"}}"#),
        created_unix: 0,
    }
}

#[test]
fn rows_list_the_field_notifications_requests_friends_and_back_in_that_order() {
    let notes = [invite(1, "K7Q2")];
    let incoming = [pending("eve")];
    let outgoing = [pending("fay"), pending("gus")];
    let friends = FriendList {
        entries: vec![
            friend("ann", PresenceState::Online),
            friend("ben", PresenceState::Offline),
        ],
        total: 250,
        asking: None,
    };
    let lists = Lists {
        notifications: &notes,
        incoming: &incoming,
        outgoing: &outgoing,
        friends: &friends,
        you: You::default(),
        writing: None,
    };
    assert_eq!(
        build(lists),
        [
            Row::Add,
            Row::Section(Section::You),
            Row::Policy,
            Row::Offline,
            Row::Section(Section::Notifications),
            Row::Notice(0),
            Row::Section(Section::Requests),
            Row::Incoming(0),
            Row::Outgoing(0),
            Row::Outgoing(1),
            Row::Section(Section::Friends(250)),
            Row::Friend(0),
            Row::Friend(1),
            Row::Loading,
            Row::Back,
        ]
    );
    assert_eq!(
        actions(Row::Incoming(0), lists),
        [Action::Accept("eve".into()), Action::Decline("eve".into())]
    );
    assert_eq!(
        actions(Row::Outgoing(1), lists),
        [Action::Cancel("gus".into())]
    );
    assert_eq!(
        primary(Row::Outgoing(1), lists),
        None,
        "Enter never cancels"
    );
    assert_eq!(
        primary(Row::Friend(0), lists),
        Some(Action::Reply("ann".into())),
        "Enter writes to a friend, never removes"
    );
    assert_eq!(
        actions(Row::Friend(1), lists),
        [
            Action::Reply("ben".into()),
            Action::Challenge("ben".into()),
            Action::Remove("ben".into())
        ]
    );
}

#[test]
fn a_friend_is_challenged_with_c_to_a_room_of_ones_own_rules() {
    let challenge = Action::Challenge("ben".into());
    assert_eq!(challenge.key(), KeyCode::C);
    assert_eq!(challenge.hint(), "C challenge");
}

#[test]
fn a_request_notification_gives_way_to_the_request_or_the_friend_it_announces() {
    let asked = |name: &str| Notification {
        id: 2,
        kind: NotificationKind::FriendRequest,
        subject: name.into(),
        content: format!(r#"{{"from":"{name}"}}"#),
        created_unix: 0,
    };
    let notes = [asked("eve"), asked("old"), asked("ann")];
    let incoming = [pending("eve")];
    let friends = FriendList {
        entries: vec![friend("ann", PresenceState::Online)],
        total: 1,
        asking: None,
    };
    let lists = Lists {
        notifications: &notes,
        incoming: &incoming,
        outgoing: &[],
        friends: &friends,
        you: You::default(),
        writing: None,
    };
    let rows = build(lists);
    assert!(!rows.contains(&Row::Notice(0)), "eve's request has its row");
    assert!(
        rows.contains(&Row::Notice(1)),
        "a request declined since still says so"
    );
    assert!(
        !rows.contains(&Row::Notice(2)),
        "ann's request, accepted, has her friend's row"
    );
    assert!(rows.contains(&Row::Incoming(0)));
}

#[test]
fn no_friends_and_no_requests_leave_the_field_an_empty_list_line_and_back() {
    let friends = FriendList::default();
    let lists = Lists {
        notifications: &[],
        incoming: &[],
        outgoing: &[],
        friends: &friends,
        you: You::default(),
        writing: None,
    };
    assert_eq!(
        build(lists),
        [
            Row::Add,
            Row::Section(Section::You),
            Row::Policy,
            Row::Offline,
            Row::Section(Section::Friends(0)),
            Row::NoFriends,
            Row::Back
        ]
    );
}

#[test]
fn a_friend_in_a_match_can_be_watched_by_its_room_code_and_a_presence_push_changes_the_row() {
    let mut friends = FriendList {
        entries: vec![friend("ann", PresenceState::Online)],
        total: 1,
        asking: None,
    };
    fn lists(f: &FriendList) -> Lists<'_> {
        Lists {
            notifications: &[],
            incoming: &[],
            outgoing: &[],
            friends: f,
            you: You::default(),
            writing: None,
        }
    }
    assert_eq!(
        primary(Row::Friend(0), lists(&friends)),
        Some(Action::Reply("ann".into()))
    );
    assert_eq!(presence_tag(&friends.entries[0].presence), "ONLINE");
    friends.set_presence(
        "ann",
        PresenceState::InMatch {
            kind: MatchKind::Ranked,
            code: "K7Q2".into(),
        },
    );
    assert_eq!(presence_tag(&friends.entries[0].presence), "RANKED · K7Q2");
    assert_eq!(
        primary(Row::Friend(0), lists(&friends)),
        Some(Action::Watch("K7Q2".into()))
    );
    friends.set_presence("ann", PresenceState::Spectating { code: "ZZ9".into() });
    assert_eq!(presence_tag(&friends.entries[0].presence), "WATCHING · ZZ9");
    assert_eq!(
        primary(Row::Friend(0), lists(&friends)),
        Some(Action::Watch("ZZ9".into()))
    );
    friends.set_presence("ann", PresenceState::Offline);
    assert_eq!(presence_tag(&friends.entries[0].presence), "OFFLINE");
}

#[test]
fn an_invite_joins_the_room_code_it_carries_in_one_action() {
    let notes = [invite(4, "AB12")];
    let friends = FriendList::default();
    let lists = Lists {
        notifications: &notes,
        incoming: &[],
        outgoing: &[],
        friends: &friends,
        you: You::default(),
        writing: None,
    };
    assert_eq!(
        primary(Row::Notice(0), lists),
        Some(Action::Join("AB12".into()))
    );
    assert_eq!(Action::Join("AB12".into()).key(), KeyCode::J);
    assert_eq!(notice_text(&notes[0]), "ann invites you to room AB12");
    // A code that cannot be one is no action.
    let odd = [invite(5, "a b\\\"")];
    let lists = Lists {
        notifications: &odd,
        ..lists
    };
    assert_eq!(primary(Row::Notice(0), lists), None);
}

fn empty(friends: &FriendList) -> Lists<'_> {
    Lists {
        notifications: &[],
        incoming: &[],
        outgoing: &[],
        friends,
        you: You::default(),
        writing: None,
    }
}

#[test]
fn the_policy_row_offers_every_policy_until_one_is_set_then_steps_to_the_next() {
    let friends = FriendList::default();
    let lists = empty(&friends);
    assert_eq!(policy_value(None), "…");
    assert_eq!(
        actions(Row::Policy, lists),
        [
            Action::Policy(RequestPolicy::Anyone),
            Action::Policy(RequestPolicy::PlayedWith),
            Action::Policy(RequestPolicy::Nobody)
        ]
    );
    let set = |policy| Lists {
        you: You {
            policy: Some(policy),
            hidden: false,
        },
        ..lists
    };
    assert_eq!(
        primary(Row::Policy, set(RequestPolicy::Anyone)),
        Some(Action::Policy(RequestPolicy::PlayedWith))
    );
    assert_eq!(
        primary(Row::Policy, set(RequestPolicy::Nobody)),
        Some(Action::Policy(RequestPolicy::Anyone))
    );
    assert!(
        !actions(Row::Policy, set(RequestPolicy::PlayedWith))
            .contains(&Action::Policy(RequestPolicy::PlayedWith)),
        "the policy in force is not offered"
    );
    assert_eq!(Action::Policy(RequestPolicy::Nobody).key(), KeyCode::Key3);
}

#[test]
fn the_offline_row_turns_appearing_offline_on_and_off_as_the_server_last_said() {
    let friends = FriendList::default();
    let lists = empty(&friends);
    assert_eq!(offline_value(lists.you), "Off");
    assert_eq!(
        primary(Row::Offline, lists),
        Some(Action::AppearOffline(true))
    );
    let hidden = Lists {
        you: You {
            policy: None,
            hidden: true,
        },
        ..lists
    };
    assert_eq!(offline_value(hidden.you), "On");
    assert_eq!(
        primary(Row::Offline, hidden),
        Some(Action::AppearOffline(false))
    );
}

#[test]
fn a_message_shows_its_sender_and_text_and_is_answered_by_reply() {
    let dm = Notification {
        id: 3,
        kind: NotificationKind::DirectMessage,
        subject: "dan".into(),
        content: r#"{"from":"dan","text":"gg!","message":7}"#.into(),
        created_unix: 0,
    };
    let notes = [dm];
    let friends = FriendList::default();
    let lists = Lists {
        notifications: &notes,
        ..empty(&friends)
    };
    assert_eq!(notice_text(&notes[0]), "dan: gg!");
    let rude = Notification {
        content: r#"{"from":"dan","text":"shit game","message":8}"#.into(),
        ..notes[0].clone()
    };
    assert_eq!(
        shown_text(&rude, true),
        "dan: **** game",
        "the chat filter masks it"
    );
    assert_eq!(shown_text(&rude, false), "dan: shit game");
    assert_eq!(notice_tag(&notes[0]), "MESSAGE");
    assert_eq!(
        primary(Row::Notice(0), lists),
        Some(Action::Reply("dan".into()))
    );
    assert_eq!(Action::Reply("dan".into()).key(), KeyCode::R);
    assert_eq!(
        actions(Row::Notice(0), lists),
        [Action::Reply("dan".into()), Action::ReportMessage(3)],
        "a message is answered or reported, never reported by Enter"
    );
    assert_eq!(Action::ReportMessage(3).hint(), "X report");
}

#[test]
fn writing_a_message_adds_its_field_under_your_settings_where_esc_discards_it() {
    let friends = FriendList::default();
    let lists = Lists {
        writing: Some("ann"),
        ..empty(&friends)
    };
    let rows = build(lists);
    assert_eq!(
        rows[..6],
        [
            Row::Add,
            Row::Section(Section::You),
            Row::Policy,
            Row::Offline,
            Row::Section(Section::Message),
            Row::Message
        ]
    );
    assert_eq!(
        actions(Row::Message, lists),
        [Action::SendMessage, Action::Discard]
    );
    assert_eq!(primary(Row::Message, lists), Some(Action::SendMessage));
    let footer = footer(&actions(Row::Message, lists));
    assert!(footer.ends_with("Esc discard"), "{footer}");
    assert!(!build(empty(&friends)).contains(&Row::Message));
}

#[test]
fn notification_content_is_read_from_the_servers_json() {
    let dm = r#"{"from":"ann","text":"gg \"wp\" \u00e9","message":3}"#;
    assert_eq!(json_string(dm, "text").as_deref(), Some("gg \"wp\" é"));
    assert_eq!(json_string(dm, "from").as_deref(), Some("ann"));
    assert_eq!(json_string(dm, "code"), None);
    assert_eq!(json_string(dm, "message"), None, "not a string");
    assert_eq!(json_string(r#"{"text":"cut"#, "text"), None);
}

#[test]
fn the_name_field_says_why_a_name_cannot_be_asked_as_the_welcome_screen_does() {
    let mut field = NameField::default();
    field.edit(&['a', 'b'], false);
    assert_eq!(request_name(&mut field, Some("me")), None);
    let short = field.error.clone().expect("a reason");
    assert!(short.starts_with("Not yet: "), "{short}");
    let rules = validate_name("ab").expect_err("too short");
    assert_eq!(
        short,
        format!("Not yet: {rules}."),
        "the welcome screen's words"
    );
    field.edit(&['c'], false);
    assert_eq!(field.error, None, "typing clears the reason");
    field.text = "a b c".into();
    assert!(request_name(&mut field, None).is_none());
    field.text = "Anna".into();
    assert_eq!(request_name(&mut field, Some("anna")), None);
    assert_eq!(field.error.as_deref(), Some("That is your own name."));
    field.text = " ann_1 ".into();
    assert_eq!(
        request_name(&mut field, Some("me")).as_deref(),
        Some("ann_1")
    );
    assert_eq!(field.text, "", "a sent name empties the field");
}
