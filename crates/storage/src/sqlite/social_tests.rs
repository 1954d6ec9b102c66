//! The social rules on SQLite: friend requests and friendships, blocks, request policies,
//! paging, notifications and direct messages, one behaviour a test.

use std::path::PathBuf;

use super::SqliteStorage;
use crate::fixtures::{battle, new_player, nth_player, ranked};
use crate::social::{MAX_CONTENT_BYTES, MAX_NOTIFICATIONS, MAX_SUBJECT_CHARS};
use crate::{
    FriendState, MessageId, ModerationStorage, NotificationKind, Page, Player, PlayerId,
    RequestOutcome, RequestPolicy, SocialError, SocialStorage, Storage,
};

/// A temporary directory (removed on drop) holding one database.
struct Temp(tempfile::TempDir);

impl Temp {
    fn new(tag: &str) -> Temp {
        let dir = tempfile::Builder::new()
            .prefix(&format!("sevenbag-social-{tag}-"))
            .tempdir()
            .expect("temp dir");
        Temp(dir)
    }

    fn db(&self) -> PathBuf {
        self.0.path().join("test.db")
    }

    fn open(&self) -> SqliteStorage {
        SqliteStorage::open(&self.db()).expect("open")
    }
}

/// A fresh store with three players.
fn three(tag: &str) -> (Temp, SqliteStorage, [Player; 3]) {
    let t = Temp::new(tag);
    let s = t.open();
    let players = ["Ann", "Ben", "Cat"]
        .iter()
        .zip(1u8..)
        .map(|(name, key)| s.create_player(&new_player(name, key)).expect("create"))
        .collect::<Vec<_>>();
    let players: [Player; 3] = players.try_into().expect("three");
    (t, s, players)
}

const NOBODY: PlayerId = PlayerId(9_999);

#[test]
fn a_request_then_its_acceptance_makes_both_friends() {
    let (_t, s, [ann, ben, _]) = three("accept");
    let sent = s.send_friend_request(ann.id, ben.id, 100).unwrap();
    assert_eq!(sent, RequestOutcome::Sent);
    assert_eq!(
        s.friendship(ann.id, ben.id).unwrap(),
        FriendState::RequestSent
    );
    assert_eq!(
        s.friendship(ben.id, ann.id).unwrap(),
        FriendState::RequestReceived
    );
    let waiting = s.pending_requests(ben.id).unwrap();
    assert_eq!(waiting.incoming.len(), 1);
    assert_eq!(
        (
            waiting.incoming[0].name.as_str(),
            waiting.incoming[0].sent_unix
        ),
        ("Ann", 100)
    );
    assert_eq!(
        s.pending_requests(ann.id).unwrap().outgoing[0].player,
        ben.id
    );
    assert_eq!(
        s.send_friend_request(ann.id, ben.id, 101).unwrap(),
        RequestOutcome::AlreadySent
    );

    s.accept_friend_request(ben.id, ann.id, 200).unwrap();
    assert_eq!(s.friendship(ann.id, ben.id).unwrap(), FriendState::Friends);
    assert_eq!(s.friendship(ben.id, ann.id).unwrap(), FriendState::Friends);
    let anns = s.friends(ann.id, Page::first(10)).unwrap();
    assert_eq!(anns.total, 1);
    assert_eq!(
        (anns.items[0].name.as_str(), anns.items[0].since_unix),
        ("Ben", 200)
    );
    assert_eq!(
        s.friends(ben.id, Page::first(10)).unwrap().items[0].player,
        ann.id
    );
    assert!(s.pending_requests(ben.id).unwrap().incoming.is_empty());
    assert_eq!(
        s.send_friend_request(ben.id, ann.id, 300).unwrap(),
        RequestOutcome::AlreadyFriends
    );
}

#[test]
fn only_the_receiver_can_accept_a_request() {
    let (_t, s, [ann, ben, _]) = three("accept-own");
    s.send_friend_request(ann.id, ben.id, 100).unwrap();
    let err = s.accept_friend_request(ann.id, ben.id, 200).unwrap_err();
    assert!(matches!(err, SocialError::NoSuchRequest), "{err}");
    assert_eq!(
        s.friendship(ann.id, ben.id).unwrap(),
        FriendState::RequestSent
    );
}

#[test]
fn crossing_requests_make_friends() {
    let (_t, s, [ann, ben, _]) = three("crossing");
    s.send_friend_request(ann.id, ben.id, 100).unwrap();
    let answer = s.send_friend_request(ben.id, ann.id, 150).unwrap();
    assert_eq!(answer, RequestOutcome::BecameFriends);
    assert_eq!(s.friendship(ann.id, ben.id).unwrap(), FriendState::Friends);
    assert_eq!(
        s.friends(ann.id, Page::first(10)).unwrap().items[0].since_unix,
        150
    );
}

#[test]
fn a_declined_request_is_gone_for_both() {
    let (_t, s, [ann, ben, _]) = three("decline");
    s.send_friend_request(ann.id, ben.id, 100).unwrap();
    s.decline_friend_request(ben.id, ann.id).unwrap();
    assert_eq!(s.friendship(ann.id, ben.id).unwrap(), FriendState::None);
    assert!(s.pending_requests(ann.id).unwrap().outgoing.is_empty());
    let err = s.decline_friend_request(ben.id, ann.id).unwrap_err();
    assert!(matches!(err, SocialError::NoSuchRequest), "{err}");
    assert_eq!(
        s.send_friend_request(ann.id, ben.id, 200).unwrap(),
        RequestOutcome::Sent,
        "a declined sender may ask again"
    );
}

#[test]
fn a_cancelled_request_is_gone_for_both() {
    let (_t, s, [ann, ben, _]) = three("cancel");
    s.send_friend_request(ann.id, ben.id, 100).unwrap();
    let err = s.cancel_friend_request(ben.id, ann.id).unwrap_err();
    assert!(
        matches!(err, SocialError::NoSuchRequest),
        "the receiver cannot cancel"
    );
    s.cancel_friend_request(ann.id, ben.id).unwrap();
    assert_eq!(s.friendship(ben.id, ann.id).unwrap(), FriendState::None);
    assert!(s.pending_requests(ben.id).unwrap().incoming.is_empty());
}

#[test]
fn a_removed_friend_is_gone_for_both() {
    let (_t, s, [ann, ben, cat]) = three("remove");
    s.send_friend_request(ann.id, ben.id, 100).unwrap();
    s.accept_friend_request(ben.id, ann.id, 101).unwrap();
    s.remove_friend(ben.id, ann.id).unwrap();
    assert_eq!(s.friendship(ann.id, ben.id).unwrap(), FriendState::None);
    assert_eq!(s.friends(ann.id, Page::first(10)).unwrap().total, 0);
    let err = s.remove_friend(ann.id, cat.id).unwrap_err();
    assert!(matches!(err, SocialError::NotFriends), "{err}");
}

#[test]
fn a_request_to_oneself_is_refused() {
    let (_t, s, [ann, ..]) = three("self");
    let err = s.send_friend_request(ann.id, ann.id, 100).unwrap_err();
    assert!(matches!(err, SocialError::ToSelf), "{err}");
    assert_eq!(s.friendship(ann.id, ann.id).unwrap(), FriendState::None);
}

#[test]
fn a_block_hides_the_pair_as_if_the_other_did_not_exist() {
    let (_t, s, [ann, ben, cat]) = three("block");
    let missing = s.send_friend_request(ann.id, NOBODY, 100).unwrap_err();
    assert!(matches!(missing, SocialError::NoSuchPlayer), "{missing}");

    // Ben blocks Ann: Ann's request is refused in the very words a missing player gets.
    s.block(ben.id, ann.id, 100, 10).unwrap();
    let blocked = s.send_friend_request(ann.id, ben.id, 100).unwrap_err();
    assert_eq!(blocked.to_string(), missing.to_string());
    assert!(matches!(blocked, SocialError::NoSuchPlayer));
    let back = s.send_friend_request(ben.id, ann.id, 100).unwrap_err();
    assert!(
        matches!(back, SocialError::NoSuchPlayer),
        "nor the blocker's"
    );
    assert_eq!(s.friendship(ann.id, ben.id).unwrap(), FriendState::None);
    assert_eq!(s.friendship(ann.id, NOBODY).unwrap(), FriendState::None);
    assert_eq!(s.friendship(ben.id, ann.id).unwrap(), FriendState::Blocked);
    assert_eq!(s.friendship(ben.id, cat.id).unwrap(), FriendState::None);
}

#[test]
fn a_block_hides_a_friendship_until_it_is_lifted() {
    let (_t, s, [ann, ben, _]) = three("block-friends");
    s.send_friend_request(ann.id, ben.id, 100).unwrap();
    s.accept_friend_request(ben.id, ann.id, 101).unwrap();
    s.block(ann.id, ben.id, 102, 10).unwrap();
    assert_eq!(s.friends(ben.id, Page::first(10)).unwrap().total, 0);
    assert_eq!(s.friendship(ann.id, ben.id).unwrap(), FriendState::Blocked);
    let err = s.remove_friend(ben.id, ann.id).unwrap_err();
    assert!(matches!(err, SocialError::NotFriends), "{err}");
    let err = s
        .store_direct_message(ben.id, ann.id, "hi", 103)
        .unwrap_err();
    assert!(matches!(err, SocialError::NoSuchPlayer), "{err}");
    s.unblock(ann.id, ben.id).unwrap();
    assert_eq!(s.friends(ben.id, Page::first(10)).unwrap().total, 1);
}

#[test]
fn a_block_hides_a_waiting_request() {
    let (_t, s, [ann, ben, _]) = three("block-request");
    s.send_friend_request(ann.id, ben.id, 100).unwrap();
    s.block(ben.id, ann.id, 101, 10).unwrap();
    assert!(s.pending_requests(ben.id).unwrap().incoming.is_empty());
    assert!(s.pending_requests(ann.id).unwrap().outgoing.is_empty());
    let err = s.accept_friend_request(ben.id, ann.id, 102).unwrap_err();
    assert!(matches!(err, SocialError::NoSuchRequest), "{err}");
    let err = s.cancel_friend_request(ann.id, ben.id).unwrap_err();
    assert!(matches!(err, SocialError::NoSuchRequest), "{err}");
}

#[test]
fn the_played_with_policy_takes_requests_only_from_players_met_in_a_stored_match() {
    let (_t, s, [ann, ben, cat]) = three("played-with");
    assert_eq!(s.request_policy(ann.id).unwrap(), RequestPolicy::Anyone);
    s.set_request_policy(ann.id, RequestPolicy::PlayedWith)
        .unwrap();
    assert_eq!(s.request_policy(ann.id).unwrap(), RequestPolicy::PlayedWith);
    let err = s.send_friend_request(ben.id, ann.id, 100).unwrap_err();
    assert!(matches!(err, SocialError::NotPlayedWith), "{err}");

    s.record_match(&ranked(&ann, &ben, [ann.rating, ben.rating]))
        .unwrap();
    assert_eq!(
        s.send_friend_request(ben.id, ann.id, 101).unwrap(),
        RequestOutcome::Sent,
        "a two-seat match"
    );
    s.record_battle(&battle(&[&cat, &ben, &ann], 2)).unwrap();
    assert_eq!(
        s.send_friend_request(cat.id, ann.id, 102).unwrap(),
        RequestOutcome::Sent,
        "a battle"
    );
}

#[test]
fn the_nobody_policy_refuses_requests_but_not_an_answer_to_ones_own() {
    let (_t, s, [ann, ben, cat]) = three("nobody");
    s.send_friend_request(ann.id, ben.id, 100).unwrap();
    s.set_request_policy(ann.id, RequestPolicy::Nobody).unwrap();
    let err = s.send_friend_request(cat.id, ann.id, 101).unwrap_err();
    assert!(matches!(err, SocialError::RequestsClosed), "{err}");
    assert_eq!(
        s.send_friend_request(ben.id, ann.id, 102).unwrap(),
        RequestOutcome::BecameFriends
    );
    let err = s
        .set_request_policy(NOBODY, RequestPolicy::Anyone)
        .unwrap_err();
    assert!(matches!(err, SocialError::NoSuchPlayer), "{err}");
}

#[test]
fn paging_through_1200_friends_returns_each_once_in_name_order() {
    let t = Temp::new("paging");
    let s = t.open();
    // Setup speed only: 3,600 commits need not each reach the disk.
    s.write().pragma_update(None, "synchronous", "OFF").unwrap();
    let me = s.create_player(&new_player("Me", 1)).unwrap();
    // Created in an order unlike their names' (a stride of 7 through 1,200 numbers).
    for i in 0..1200u32 {
        let n = (i * 7) % 1200;
        let friend = s.create_player(&nth_player("F", n, 9)).unwrap();
        s.send_friend_request(friend.id, me.id, 10).unwrap();
        s.accept_friend_request(me.id, friend.id, 20).unwrap();
    }
    let mut names = Vec::new();
    let mut page = Some(Page::first(5000));
    let mut pages = 0;
    while let Some(at) = page {
        let read = s.friends(me.id, at).unwrap();
        assert_eq!(read.total, 1200);
        assert!(read.items.len() <= 1000, "a page is at most 1,000");
        names.extend(read.items.into_iter().map(|f| f.name));
        page = read.next;
        pages += 1;
    }
    let expected: Vec<String> = (0..1200).map(|n| format!("F{n:04}")).collect();
    assert_eq!(pages, 2);
    assert_eq!(names, expected);
}

#[test]
fn notifications_survive_reopening_and_mark_seen_touches_only_the_owners() {
    let t = Temp::new("notify");
    let (ann, ben, anns, bens) = {
        let s = t.open();
        let ann = s.create_player(&new_player("Ann", 1)).unwrap();
        let ben = s.create_player(&new_player("Ben", 2)).unwrap();
        let push = |to: &Player, kind, at| {
            s.push_notification(to.id, kind, "hello", r#"{"from":1}"#, at)
                .unwrap()
        };
        let anns = [
            push(&ann, NotificationKind::FriendRequest, 10),
            push(&ann, NotificationKind::Invite, 11),
        ];
        let bens = push(&ben, NotificationKind::TournamentMatchReady, 12);
        (ann.id, ben.id, anns, bens)
    };
    let s = t.open();
    let unseen = s.unseen_notifications(ann, 10).unwrap();
    let kinds: Vec<_> = unseen.iter().map(|n| n.kind).collect();
    assert_eq!(
        kinds,
        [
            Ok(NotificationKind::FriendRequest),
            Ok(NotificationKind::Invite)
        ],
        "oldest first"
    );
    assert_eq!(
        (unseen[0].content.as_str(), unseen[0].created_unix),
        (r#"{"from":1}"#, 10)
    );

    // Ann marks her first and Ben's: only hers changes.
    assert_eq!(s.mark_seen(ann, &[anns[0], bens]).unwrap(), 1);
    assert_eq!(s.unseen_notifications(ann, 10).unwrap().len(), 1);
    assert_eq!(s.unseen_notifications(ben, 10).unwrap()[0].id, bens);
    assert_eq!(s.mark_seen(ann, &[anns[0]]).unwrap(), 0, "seen already");
    let all = s.notifications(ann, Page::first(10)).unwrap();
    assert_eq!(all.total, 2);
    let listed: Vec<_> = all.items.iter().map(|n| (n.id, n.seen)).collect();
    assert_eq!(listed, [(anns[1], false), (anns[0], true)], "newest first");
}

#[test]
fn an_oversized_subject_or_content_is_refused_before_writing() {
    let (_t, s, [ann, ..]) = three("oversized");
    let kind = NotificationKind::DirectMessage;
    let long = "s".repeat(MAX_SUBJECT_CHARS + 1);
    let err = s
        .push_notification(ann.id, kind, &long, "{}", 1)
        .unwrap_err();
    assert_eq!(err.to_string(), "the subject is longer than 200 characters");
    let big = format!("\"{}\"", "c".repeat(MAX_CONTENT_BYTES));
    let err = s
        .push_notification(ann.id, kind, "hi", &big, 1)
        .unwrap_err();
    assert!(
        matches!(
            err,
            SocialError::TooLong {
                what: "content",
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(s.notifications(ann.id, Page::first(10)).unwrap().total, 0);
    let err = s
        .push_notification(NOBODY, kind, "hi", "{}", 1)
        .unwrap_err();
    assert!(matches!(err, SocialError::NoSuchPlayer), "{err}");
}

#[test]
fn past_the_cap_the_oldest_seen_notifications_go_first() {
    let (_t, s, [ann, ..]) = three("cap");
    s.write().pragma_update(None, "synchronous", "OFF").unwrap();
    let kind = NotificationKind::FriendAccepted;
    let ids: Vec<_> = (0..MAX_NOTIFICATIONS)
        .map(|i| {
            s.push_notification(ann.id, kind, "x", "{}", u64::from(i))
                .unwrap()
        })
        .collect();
    // The newest is seen, the rest are not: it goes first, then the oldest unseen.
    let newest = ids[ids.len() - 1];
    s.mark_seen(ann.id, &[newest]).unwrap();
    let over = [
        s.push_notification(ann.id, kind, "y", "{}", 1000).unwrap(),
        s.push_notification(ann.id, kind, "z", "{}", 1001).unwrap(),
    ];
    let kept = s.notifications(ann.id, Page::first(1000)).unwrap();
    assert_eq!(kept.total, u64::from(MAX_NOTIFICATIONS));
    let kept: Vec<_> = kept.items.iter().map(|n| n.id).collect();
    assert!(!kept.contains(&newest), "the seen one went first");
    assert!(!kept.contains(&ids[0]), "then the oldest unseen");
    assert!(kept.contains(&ids[1]) && kept.contains(&over[0]) && kept.contains(&over[1]));
}

#[test]
fn an_unknown_notification_kind_reads_as_an_error_value() {
    let (_t, s, [ann, ..]) = three("unknown-kind");
    s.push_notification(ann.id, NotificationKind::Invite, "a", "{}", 1)
        .unwrap();
    s.write()
        .execute(
            "INSERT INTO notifications (player_id, kind, subject, content, created_unix) \
             VALUES (?1, 99, 'from a newer server', '{}', 2)",
            [ann.id.0],
        )
        .unwrap();
    let unseen = s.unseen_notifications(ann.id, 10).unwrap();
    assert_eq!(unseen[0].kind, Ok(NotificationKind::Invite));
    let unknown = unseen[1].kind.unwrap_err();
    assert_eq!(unknown.code, 99);
}

#[test]
fn direct_messages_go_only_between_friends() {
    let (_t, s, [ann, ben, cat]) = three("messages");
    let err = s.store_direct_message(ann.id, ben.id, "hi", 1).unwrap_err();
    assert!(matches!(err, SocialError::NotFriends), "{err}");
    let err = s.store_direct_message(ann.id, NOBODY, "hi", 1).unwrap_err();
    assert!(matches!(err, SocialError::NoSuchPlayer), "{err}");
    s.send_friend_request(ann.id, ben.id, 1).unwrap();
    let err = s.store_direct_message(ann.id, ben.id, "hi", 1).unwrap_err();
    assert!(
        matches!(err, SocialError::NotFriends),
        "a request is not enough"
    );
    s.accept_friend_request(ben.id, ann.id, 2).unwrap();

    let first = s.store_direct_message(ann.id, ben.id, "hi", 3).unwrap();
    let second = s.store_direct_message(ben.id, ann.id, "hello", 4).unwrap();
    let third = s.store_direct_message(ann.id, ben.id, "gg", 5).unwrap();
    let err = s
        .store_direct_message(ann.id, ben.id, &"x".repeat(201), 6)
        .unwrap_err();
    assert!(matches!(err, SocialError::TooLong { .. }), "{err}");
    let err = s.store_direct_message(ann.id, ben.id, "", 6).unwrap_err();
    assert!(matches!(err, SocialError::Empty(_)), "{err}");

    let read = s.direct_messages(ben.id, ann.id, None, 10).unwrap();
    let ids: Vec<MessageId> = read.iter().map(|m| m.id).collect();
    assert_eq!(ids, [third, second, first], "newest first");
    assert_eq!(
        (read[1].from, read[1].to, read[1].text.as_str()),
        (ben.id, ann.id, "hello")
    );
    let older = s.direct_messages(ann.id, ben.id, Some(second), 10).unwrap();
    assert_eq!(older.len(), 1);
    assert_eq!(older[0].id, first);
    assert!(
        s.direct_messages(ann.id, cat.id, None, 10)
            .unwrap()
            .is_empty()
    );
}

#[test]
fn a_version_4_database_gains_the_social_tables_and_its_players_take_requests_from_anyone() {
    use crate::migrations::MIGRATIONS;
    let t = Temp::new("migrate");
    {
        let c = rusqlite::Connection::open(t.db()).unwrap();
        for (i, sql) in MIGRATIONS[..4].iter().enumerate() {
            c.execute_batch(&format!(
                "BEGIN; {sql}; PRAGMA user_version = {}; COMMIT;",
                i + 1
            ))
            .unwrap();
        }
        c.execute_batch(
            "INSERT INTO players (key_hash, recovery_hash, name, name_key, rating, deviation, \
             volatility, created_unix) VALUES \
             (x'01', x'02', 'Ann', 'ann', 1500, 350, 0.06, 1), \
             (x'03', x'04', 'Ben', 'ben', 1500, 350, 0.06, 1);",
        )
        .unwrap();
    }
    let s = t.open();
    let ann = s.player_by_name_key("ann").unwrap().unwrap();
    let ben = s.player_by_name_key("ben").unwrap().unwrap();
    assert_eq!(s.request_policy(ann.id).unwrap(), RequestPolicy::Anyone);
    assert_eq!(
        s.send_friend_request(ann.id, ben.id, 10).unwrap(),
        RequestOutcome::Sent
    );
}

#[test]
fn appearing_offline_is_kept_until_turned_off_and_survives_reopening() {
    let (t, s, [ann, ben, _]) = three("appear-offline");
    assert!(!s.appear_offline(ann.id).unwrap(), "seen unless set");
    s.set_appear_offline(ann.id, true).unwrap();
    assert!(s.appear_offline(ann.id).unwrap());
    assert!(!s.appear_offline(ben.id).unwrap(), "only hers");
    drop(s);
    let s = t.open();
    assert!(s.appear_offline(ann.id).unwrap(), "kept in the file");
    s.set_appear_offline(ann.id, false).unwrap();
    assert!(!s.appear_offline(ann.id).unwrap());
    let err = s.set_appear_offline(NOBODY, true).unwrap_err();
    assert!(matches!(err, SocialError::NoSuchPlayer), "{err}");
    let err = s.appear_offline(NOBODY).unwrap_err();
    assert!(matches!(err, SocialError::NoSuchPlayer), "{err}");
}

#[test]
fn a_shown_notification_stays_unseen_but_is_no_longer_unshown() {
    let (_t, s, [ann, ben, _]) = three("shown");
    let push = |to: PlayerId, at| {
        s.push_notification(to, NotificationKind::Invite, "Ben", "{}", at)
            .unwrap()
    };
    let (first, second, bens) = (push(ann.id, 10), push(ann.id, 11), push(ben.id, 12));
    assert_eq!(
        s.mark_shown(ann.id, &[first, bens]).unwrap(),
        1,
        "only hers"
    );
    assert_eq!(s.mark_shown(ann.id, &[first]).unwrap(), 0, "shown already");
    let ids = |list: Vec<crate::Notification>| list.iter().map(|n| n.id).collect::<Vec<_>>();
    assert_eq!(ids(s.unshown_notifications(ann.id, 10).unwrap()), [second]);
    assert_eq!(
        ids(s.unseen_notifications(ann.id, 10).unwrap()),
        [first, second]
    );
    // Seen is seen, shown or not.
    s.mark_seen(ann.id, &[second]).unwrap();
    assert!(s.unshown_notifications(ann.id, 10).unwrap().is_empty());
}
