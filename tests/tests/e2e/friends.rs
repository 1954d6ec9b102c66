//! Friends, presence and notifications through the real server on one instance, with a
//! SQLite database (docs/SERVER.md, "Friends, presence and notifications"): becoming
//! friends, each friend's presence as they play and leave, a request kept for a player who
//! was away, a friend gone quiet reading away, blocks reading as missing players, a thousand
//! friends paged through; and hostile requests (oneself, floods, oversized messages, invites
//! into someone else's room), each refused with a reason while the connection stays usable.

use std::net::SocketAddr;
use std::time::Duration;

use sevenbag_protocol::social::{
    MAX_FRIENDS_PER_PAGE, MatchKind, NotificationKind, PresenceState, RequestAnswer, RequestPolicy,
    RequestResult,
};
use sevenbag_protocol::{ClientMessage, ErrorCode, RoomOptions, ServerMessage};
use sevenbag_server::Config;
use sevenbag_storage::fixtures::nth_player;
use sevenbag_storage::{SocialStorage, SqliteStorage, Storage};
use sevenbag_tests::social::{
    LIMIT, ask, config, identified, notification, registered, with_database,
};
use sevenbag_tests::{RawClient, player_key, start_server};

/// The refusal `request` gets (a reply instead is an error).
async fn refused(c: &mut RawClient, request: ClientMessage) -> anyhow::Result<(ErrorCode, String)> {
    match ask(c, request, |_| None::<()>).await? {
        Err(refusal) => Ok(refusal),
        Ok(()) => unreachable!("pick takes nothing"),
    }
}

fn friend_request(name: &str) -> ClientMessage {
    ClientMessage::SendFriendRequest { name: name.into() }
}

/// Asks `name` to be friends; what the server did.
async fn send_request(c: &mut RawClient, name: &str) -> anyhow::Result<RequestResult> {
    let reply = ask(c, friend_request(name), |m| match m {
        ServerMessage::FriendRequestSent { result, .. } => Some(*result),
        _ => None,
    })
    .await?;
    reply.map_err(|(code, text)| anyhow::anyhow!("{code:?}: {text}"))
}

/// The next presence `c` hears of `name`.
async fn presence_of(c: &mut RawClient, name: &str) -> anyhow::Result<PresenceState> {
    c.recv_until(LIMIT, |m| match m {
        ServerMessage::Presence { name: n, state } if n == name => Some(state.clone()),
        _ => None,
    })
    .await
}

/// One page of `c`'s friends: (names with presence, total).
async fn friends_page(
    c: &mut RawClient,
    offset: u32,
    limit: u16,
) -> anyhow::Result<(Vec<(String, PresenceState)>, u32)> {
    let reply = ask(
        c,
        ClientMessage::GetFriends { offset, limit },
        |m| match m {
            ServerMessage::Friends { friends, total, .. } => Some((
                friends
                    .iter()
                    .map(|f| (f.name.clone(), f.presence.clone()))
                    .collect(),
                *total,
            )),
            _ => None,
        },
    )
    .await?;
    reply.map_err(|(code, text)| anyhow::anyhow!("{code:?}: {text}"))
}

/// Creates a room; its code.
async fn created_room(c: &mut RawClient) -> anyhow::Result<String> {
    c.send(&ClientMessage::CreateRoom {
        options: RoomOptions::default(),
    })
    .await?;
    c.recv_until(LIMIT, |m| match m {
        ServerMessage::Joined { code, .. } => Some(code.clone()),
        _ => None,
    })
    .await
}

/// `a` (called `a_name`) asks `b` (`b_name`), `b` accepts: friends.
async fn befriend(
    a: &mut RawClient,
    a_name: &str,
    b: &mut RawClient,
    b_name: &str,
) -> anyhow::Result<()> {
    assert_eq!(send_request(a, b_name).await?, RequestResult::Sent);
    let asked = notification(b).await?;
    assert_eq!(asked.kind, NotificationKind::FriendRequest);
    assert_eq!(asked.subject, a_name);
    let answer = ClientMessage::AnswerFriendRequest {
        name: a_name.into(),
        answer: RequestAnswer::Accept,
    };
    let answered = ask(b, answer, |m| match m {
        ServerMessage::FriendRequestAnswered { answer, .. } => Some(*answer),
        _ => None,
    })
    .await?;
    assert_eq!(answered, Ok(RequestAnswer::Accept));
    let accepted = notification(a).await?;
    assert_eq!(accepted.kind, NotificationKind::FriendAccepted);
    assert_eq!(accepted.subject, b_name);
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_friends_see_each_other_online_in_a_match_online_and_offline() -> anyhow::Result<()> {
    let (server, _dir) = with_database("friends").await;
    let mut ann = registered(server.addr(), "ann", 1).await?;
    let mut ben = registered(server.addr(), "ben", 2).await?;
    befriend(&mut ann, "ann", &mut ben, "ben").await?;
    // Becoming friends, each hears where the other is.
    assert_eq!(presence_of(&mut ann, "ben").await?, PresenceState::Online);
    assert_eq!(presence_of(&mut ben, "ann").await?, PresenceState::Online);
    for (c, friend) in [(&mut ann, "ben"), (&mut ben, "ann")] {
        let (list, total) = friends_page(c, 0, 10).await?;
        assert_eq!(total, 1);
        assert_eq!(list, vec![(friend.to_string(), PresenceState::Online)]);
    }

    let code = created_room(&mut ann).await?;
    ben.send(&ClientMessage::JoinRoom {
        code: code.clone(),
        role: sevenbag_protocol::JoinRole::Player,
    })
    .await?;
    for c in [&mut ann, &mut ben] {
        c.send(&ClientMessage::Ready).await?;
    }
    let playing = PresenceState::InMatch {
        kind: MatchKind::Versus,
        code: code.clone(),
    };
    assert_eq!(presence_of(&mut ben, "ann").await?, playing);
    assert_eq!(presence_of(&mut ann, "ben").await?, playing);

    // Ann leaves (and forfeits): both are back to online.
    ann.send(&ClientMessage::LeaveRoom).await?;
    assert_eq!(presence_of(&mut ben, "ann").await?, PresenceState::Online);
    assert_eq!(presence_of(&mut ann, "ben").await?, PresenceState::Online);

    // Ben closes his connection: ann sees him go offline; back, online again.
    ben.close().await;
    assert_eq!(presence_of(&mut ann, "ben").await?, PresenceState::Offline);
    let mut ben = identified(server.addr(), "ben", 2).await?;
    assert_eq!(presence_of(&mut ann, "ben").await?, PresenceState::Online);
    assert_eq!(presence_of(&mut ben, "ann").await?, PresenceState::Online);
    ann.close().await;
    assert_eq!(presence_of(&mut ben, "ann").await?, PresenceState::Offline);
    Ok(())
}

/// The next presence `c` hears of `name` that is `state` (other states pass by).
async fn hears(c: &mut RawClient, name: &str, state: PresenceState) -> anyhow::Result<()> {
    c.recv_until(LIMIT, |m| match m {
        ServerMessage::Presence { name: n, state: s } if n == name && *s == state => Some(()),
        _ => None,
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_friend_who_sends_nothing_for_the_idle_setting_reads_away_until_their_next_message()
-> anyhow::Result<()> {
    let dir = sevenbag_tests::temp_dir("friends-away");
    let server = start_server(Config {
        away_after: Duration::from_millis(300),
        ..config(dir.path().join("sevenbag.db"))
    })
    .await;
    let mut ann = registered(server.addr(), "ann", 1).await?;
    let mut ben = registered(server.addr(), "ben", 2).await?;
    befriend(&mut ann, "ann", &mut ben, "ben").await?;
    // Ben says nothing more: ann hears him away.
    hears(&mut ann, "ben", PresenceState::Away).await?;
    // His next message brings him back, and the next silence takes him away again.
    still_usable(&mut ben).await?;
    assert_eq!(presence_of(&mut ann, "ben").await?, PresenceState::Online);
    assert_eq!(presence_of(&mut ann, "ben").await?, PresenceState::Away);
    // Away is still a friend's presence in the list.
    let (list, _) = friends_page(&mut ann, 0, 10).await?;
    assert_eq!(list, vec![("ben".to_string(), PresenceState::Away)]);
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn appearing_offline_hides_a_player_from_friends_and_strangers_never_hear_presence()
-> anyhow::Result<()> {
    let (server, _dir) = with_database("friends").await;
    let mut ann = registered(server.addr(), "ann", 1).await?;
    let mut ben = registered(server.addr(), "ben", 2).await?;
    befriend(&mut ann, "ann", &mut ben, "ben").await?;
    assert_eq!(presence_of(&mut ann, "ben").await?, PresenceState::Online);
    let hidden = ask(&mut ben, ClientMessage::AppearOffline { on: true }, |m| {
        matches!(m, ServerMessage::AppearingOffline { on: true }).then_some(())
    })
    .await?;
    assert_eq!(hidden, Ok(()));
    assert_eq!(presence_of(&mut ann, "ben").await?, PresenceState::Offline);
    let (list, _) = friends_page(&mut ann, 0, 10).await?;
    assert_eq!(list, vec![("ben".to_string(), PresenceState::Offline)]);

    // A stranger who comes and goes is never heard of: the only presence ann hears next is
    // ben's, seen again.
    let cy = registered(server.addr(), "cyd", 3).await?;
    cy.close().await;
    ben.send(&ClientMessage::AppearOffline { on: false })
        .await?;
    let next = ann
        .recv_until(LIMIT, |m| match m {
            ServerMessage::Presence { name, state } => Some((name.clone(), state.clone())),
            _ => None,
        })
        .await?;
    assert_eq!(next, ("ben".to_string(), PresenceState::Online));
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_to_an_absent_player_waits_for_them_until_marked_seen() -> anyhow::Result<()> {
    let (server, _dir) = with_database("friends").await;
    let dee = registered(server.addr(), "dee", 4).await?;
    dee.close().await;
    let mut cal = registered(server.addr(), "cal", 3).await?;
    assert_eq!(send_request(&mut cal, "dee").await?, RequestResult::Sent);

    // Dee comes back: the request is delivered as she identifies.
    let mut dee = identified(server.addr(), "dee", 4).await?;
    let waiting = notification(&mut dee).await?;
    assert_eq!(waiting.kind, NotificationKind::FriendRequest);
    assert_eq!(waiting.subject, "cal");
    let marked = ask(
        &mut dee,
        ClientMessage::MarkNotificationsSeen {
            ids: vec![waiting.id],
        },
        |m| match m {
            ServerMessage::NotificationsSeen { marked } => Some(*marked),
            _ => None,
        },
    )
    .await?;
    assert_eq!(marked, Ok(1));
    dee.close().await;

    // Seen, it does not come back: nothing is pushed before the (empty) list she asks for.
    let mut dee = identified(server.addr(), "dee", 4).await?;
    dee.send(&ClientMessage::GetNotifications).await?;
    let unseen = dee
        .recv_until(LIMIT, |m| match m {
            ServerMessage::Notification { notification } => Some(Err(notification.clone())),
            ServerMessage::Notifications { list } => Some(Ok(list.clone())),
            _ => None,
        })
        .await?;
    assert_eq!(unseen, Ok(vec![]));
    // The request itself still waits for her answer.
    let pending = ask(&mut dee, ClientMessage::GetFriendRequests, |m| match m {
        ServerMessage::FriendRequests { incoming, .. } => {
            Some(incoming.iter().map(|r| r.name.clone()).collect::<Vec<_>>())
        }
        _ => None,
    })
    .await?;
    assert_eq!(pending, Ok(vec!["cal".to_string()]));
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_block_answers_requests_exactly_as_a_name_nobody_has() -> anyhow::Result<()> {
    let (server, _dir) = with_database("friends").await;
    let mut eve = registered(server.addr(), "eve", 5).await?;
    let mut fay = registered(server.addr(), "fay", 6).await?;
    befriend(&mut fay, "fay", &mut eve, "eve").await?;
    eve.send(&ClientMessage::Block { name: "fay".into() })
        .await?;
    eve.recv_until(LIMIT, |m| {
        matches!(m, ServerMessage::Blocked { .. }).then_some(())
    })
    .await?;
    let to_blocker = refused(&mut fay, friend_request("eve")).await?;
    let to_nobody = refused(&mut fay, friend_request("nobody")).await?;
    assert_eq!(to_blocker.0, ErrorCode::NoSuchPlayer);
    assert_eq!(to_blocker, to_nobody);
    // The blocker's own request reads the same.
    assert_eq!(refused(&mut eve, friend_request("fay")).await?, to_nobody);
    // So do a direct message and an invite, though they were friends.
    let message = |to: &str| ClientMessage::DirectMessage {
        to: to.into(),
        text: "hi".into(),
    };
    assert_eq!(refused(&mut fay, message("eve")).await?, to_nobody);
    assert_eq!(refused(&mut fay, message("nobody")).await?, to_nobody);
    let code = created_room(&mut fay).await?;
    let invite = ClientMessage::InviteFriend {
        name: "eve".into(),
        code,
    };
    assert_eq!(refused(&mut fay, invite).await?, to_nobody);
    // Neither lists the other.
    assert_eq!(friends_page(&mut eve, 0, 10).await?, (vec![], 0));
    assert_eq!(friends_page(&mut fay, 0, 10).await?, (vec![], 0));
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invite_and_a_direct_message_reach_a_friend_as_notifications() -> anyhow::Result<()> {
    let (server, _dir) = with_database("friends").await;
    let mut ann = registered(server.addr(), "ann", 1).await?;
    let mut ben = registered(server.addr(), "ben", 2).await?;
    befriend(&mut ann, "ann", &mut ben, "ben").await?;
    let code = created_room(&mut ann).await?;
    let invite = ClientMessage::InviteFriend {
        name: "ben".into(),
        code: code.to_lowercase(),
    };
    let invited = ask(&mut ann, invite, |m| match m {
        ServerMessage::Invited { code, .. } => Some(code.clone()),
        _ => None,
    })
    .await?;
    assert_eq!(invited, Ok(code.clone()));
    let n = notification(&mut ben).await?;
    assert_eq!(
        (n.kind, n.subject.as_str()),
        (NotificationKind::Invite, "ann")
    );
    let content: serde_json::Value = serde_json::from_str(&n.content)?;
    assert_eq!(content["code"], code.as_str());

    let message = ClientMessage::DirectMessage {
        to: "ann".into(),
        text: " see you\u{200B} there ".into(),
    };
    let sent = ask(&mut ben, message, |m| {
        matches!(m, ServerMessage::DirectMessageSent { .. }).then_some(())
    })
    .await?;
    assert_eq!(sent, Ok(()));
    let n = notification(&mut ann).await?;
    assert_eq!(n.kind, NotificationKind::DirectMessage);
    let content: serde_json::Value = serde_json::from_str(&n.content)?;
    assert_eq!(content["text"], "see you there");
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thousand_and_fifty_friends_page_through_a_hundred_at_a_time() -> anyhow::Result<()> {
    const FRIENDS: u32 = 1_050;
    let dir = sevenbag_tests::temp_dir("friends-many");
    let path = dir.path().join("sevenbag.db");
    let mut server = start_server(config(path.clone())).await;
    let hub = registered(server.addr(), "hub", 9).await?;
    hub.close().await;
    server.shutdown().await?;
    {
        let s = SqliteStorage::open(&path)?;
        let me = s.player_by_name_key("hub")?.expect("hub is stored").id;
        for n in 0..FRIENDS {
            let friend = s.create_player(&nth_player("pal", n, 7))?.id;
            s.send_friend_request(friend, me, 10)?;
            s.accept_friend_request(me, friend, 11)?;
        }
    }
    let server = start_server(config(path)).await;
    let mut hub = identified(server.addr(), "hub", 9).await?;
    let mut names = Vec::new();
    let mut offset = 0;
    loop {
        let (page, total) = friends_page(&mut hub, offset, MAX_FRIENDS_PER_PAGE as u16).await?;
        assert_eq!(total, FRIENDS);
        assert!(page.len() <= MAX_FRIENDS_PER_PAGE);
        assert!(page.iter().all(|(_, p)| *p == PresenceState::Offline));
        if page.is_empty() {
            break;
        }
        offset += page.len() as u32;
        names.extend(page.into_iter().map(|(name, _)| name));
    }
    assert_eq!(names.len(), FRIENDS as usize);
    let expected: Vec<String> = (0..FRIENDS).map(|n| format!("pal{n:04}")).collect();
    assert_eq!(names, expected, "every friend once, in name order");
    // More than a page is refused, not cut short.
    let (code, _) = refused(
        &mut hub,
        ClientMessage::GetFriends {
            offset: 0,
            limit: MAX_FRIENDS_PER_PAGE as u16 + 1,
        },
    )
    .await?;
    assert_eq!(code, ErrorCode::BadMessage);
    Ok(())
}

// Hostile requests: each refused with its reason, the connection usable after it.

/// `c` still answers: its friend list comes back.
async fn still_usable(c: &mut RawClient) -> anyhow::Result<()> {
    friends_page(c, 0, 1).await.map(|_| ())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guest_and_a_request_to_oneself_are_refused_with_a_reason() -> anyhow::Result<()> {
    let (server, _dir) = with_database("friends").await;
    let mut guest = RawClient::hello(server.addr(), "zed").await?;
    let (code, _) = refused(&mut guest, friend_request("ann")).await?;
    assert_eq!(code, ErrorCode::NotIdentified);
    let mut ann = registered(server.addr(), "ann", 1).await?;
    for to_self in ["ann", "ANN"] {
        let (code, text) = refused(&mut ann, friend_request(to_self)).await?;
        assert_eq!(code, ErrorCode::BadMessage, "{text}");
        assert!(text.contains("yourself"), "{text}");
    }
    still_usable(&mut ann).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_friend_requests_is_rate_limited_and_the_connection_stays() -> anyhow::Result<()>
{
    let (server, _dir) = with_database("friends").await;
    let mut ann = registered(server.addr(), "ann", 1).await?;
    for n in 0..12u8 {
        let other = format!("pal{n}");
        let c = registered(server.addr(), &other, 20 + n).await?;
        c.close().await;
    }
    let mut limited = 0;
    for n in 0..12u8 {
        let reply = ask(&mut ann, friend_request(&format!("pal{n}")), |m| match m {
            ServerMessage::FriendRequestSent { result, .. } => Some(*result),
            _ => None,
        })
        .await?;
        match reply {
            Ok(result) => assert_eq!(result, RequestResult::Sent),
            Err((code, text)) => {
                assert_eq!(code, ErrorCode::RateLimited, "{text}");
                limited += 1;
            }
        }
    }
    assert!(
        limited >= 1,
        "a burst of 12 requests went through unlimited"
    );
    still_usable(&mut ann).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_oversized_direct_message_and_an_invite_to_another_room_are_refused()
-> anyhow::Result<()> {
    let (server, _dir) = with_database("friends").await;
    let mut ann = registered(server.addr(), "ann", 1).await?;
    let mut ben = registered(server.addr(), "ben", 2).await?;
    befriend(&mut ann, "ann", &mut ben, "ben").await?;
    let long = ClientMessage::DirectMessage {
        to: "ben".into(),
        text: "x".repeat(sevenbag_protocol::social::MAX_DIRECT_MESSAGE_CHARS + 1),
    };
    let (code, text) = refused(&mut ann, long).await?;
    assert_eq!(code, ErrorCode::BadMessage);
    assert!(text.contains("direct message"), "{text}");
    let empty = ClientMessage::DirectMessage {
        to: "ben".into(),
        text: "\u{200B}\u{202E}".into(),
    };
    assert_eq!(refused(&mut ann, empty).await?.0, ErrorCode::BadMessage);

    // Ben's room is not ann's: she may not invite into it, nor into none.
    let bens = created_room(&mut ben).await?;
    let invite = |code: &str| ClientMessage::InviteFriend {
        name: "ben".into(),
        code: code.into(),
    };
    let (code, text) = refused(&mut ann, invite(&bens)).await?;
    assert_eq!(code, ErrorCode::NotInRoom, "{text}");
    let anns = created_room(&mut ann).await?;
    assert_eq!(
        refused(&mut ann, invite(&bens)).await?.0,
        ErrorCode::NotInRoom
    );
    // Into her own room, only a friend.
    let cy = registered(server.addr(), "cyd", 3).await?;
    let stranger = ClientMessage::InviteFriend {
        name: "cyd".into(),
        code: anns,
    };
    assert_eq!(refused(&mut ann, stranger).await?.0, ErrorCode::NotFriends);
    cy.close().await;
    still_usable(&mut ann).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_that_goes_on_after_its_refusals_is_cut() -> anyhow::Result<()> {
    let (server, _dir) = with_database("friends").await;
    let mut ann = registered(server.addr(), "ann", 1).await?;
    // Sent at once, far past the burst and the refusals a connection may collect.
    for n in 0..60 {
        ann.feed(&friend_request(&format!("nobody{n}"))).await?;
    }
    ann.flush().await?;
    let (code, text, _) = ann.expect_cut(LIMIT).await?;
    assert_eq!(code, ErrorCode::RateLimited, "{text}");
    assert!(text.contains("friend requests"), "{text}");
    // Another player is not disturbed.
    let mut ben = registered(server.addr(), "ben", 2).await?;
    still_usable(&mut ben).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_friend_watching_a_room_reads_as_spectating_it() -> anyhow::Result<()> {
    let (server, _dir) = with_database("friends").await;
    let mut ann = registered(server.addr(), "ann", 1).await?;
    let mut cyd = registered(server.addr(), "cyd", 3).await?;
    befriend(&mut ann, "ann", &mut cyd, "cyd").await?;
    assert_eq!(presence_of(&mut ann, "cyd").await?, PresenceState::Online);
    let code = created_room(&mut ann).await?;
    cyd.send(&ClientMessage::JoinRoom {
        code: code.clone(),
        role: sevenbag_protocol::JoinRole::Spectator,
    })
    .await?;
    let watching = PresenceState::Spectating { code };
    assert_eq!(presence_of(&mut ann, "cyd").await?, watching);
    cyd.send(&ClientMessage::LeaveRoom).await?;
    assert_eq!(presence_of(&mut ann, "cyd").await?, PresenceState::Online);
    Ok(())
}

/// Player `n`'s key as the game keeps it (64 hex digits), for `Authorization: Bearer`.
fn bearer(n: u8) -> String {
    player_key(n).iter().map(|b| format!("{b:02x}")).collect()
}

/// `GET path` as the holder of `token` (none: no `Authorization`): the status and the JSON.
async fn api(
    addr: SocketAddr,
    path: &str,
    token: Option<&str>,
) -> anyhow::Result<(u16, serde_json::Value)> {
    sevenbag_tests::http::request_json(addr, "GET", path, token, None).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_api_lists_a_players_friends_requests_and_notifications_for_their_key_only()
-> anyhow::Result<()> {
    let (server, _dir) = with_database("friends").await;
    let addr = server.addr();
    let mut ann = registered(addr, "ann", 1).await?;
    let mut ben = registered(addr, "ben", 2).await?;
    let mut cyd = registered(addr, "cyd", 3).await?;
    registered(addr, "dee", 4).await?.close().await;
    befriend(&mut ann, "ann", &mut ben, "ben").await?;
    assert_eq!(presence_of(&mut ann, "ben").await?, PresenceState::Online);
    // Cyd asks ann (incoming), ann asks dee (outgoing).
    assert_eq!(send_request(&mut cyd, "ann").await?, RequestResult::Sent);
    notification(&mut ann).await?;
    assert_eq!(send_request(&mut ann, "dee").await?, RequestResult::Sent);
    let code = created_room(&mut ben).await?;
    let ann_key = bearer(1);
    let me = Some(ann_key.as_str());

    // Friends, with each one's presence, a page at a time.
    let (status, body) = api(addr, "/api/me/friends", me).await?;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        (body["page"].clone(), body["per_page"].clone()),
        (0.into(), 100.into())
    );
    assert_eq!(body["total"], 1);
    let friends = body["friends"].as_array().expect("a list");
    assert_eq!(friends.len(), 1);
    assert_eq!(friends[0]["name"], "ben");
    assert!(friends[0]["since_unix"].as_u64().is_some_and(|t| t > 0));
    assert_eq!(
        friends[0]["presence"],
        serde_json::json!({"state": "online"})
    );
    let (status, body) = api(addr, "/api/me/friends?page=1", me).await?;
    assert_eq!((status, body["total"].clone()), (200, 1.into()));
    assert_eq!(body["friends"], serde_json::json!([]));
    let (status, body) = api(addr, "/api/me/friends?page=minus", me).await?;
    assert_eq!(status, 400, "{body}");
    assert!(body["error"].is_string());
    drop(code);

    // Requests both ways.
    let (status, body) = api(addr, "/api/me/requests", me).await?;
    assert_eq!(status, 200, "{body}");
    let names = |list: &serde_json::Value| -> Vec<String> {
        list.as_array()
            .map(|l| {
                l.iter()
                    .filter_map(|r| r["name"].as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    };
    assert_eq!(names(&body["incoming"]), vec!["cyd".to_string()]);
    assert_eq!(names(&body["outgoing"]), vec!["dee".to_string()]);
    assert!(body["incoming"][0]["sent_unix"].as_u64().is_some());

    // Unseen notifications, newest first: cyd's request, then ben's acceptance.
    let (status, body) = api(addr, "/api/me/notifications", me).await?;
    assert_eq!(status, 200, "{body}");
    let list = body["notifications"].as_array().expect("a list");
    let kinds: Vec<(&str, &str)> = list
        .iter()
        .map(|n| {
            (
                n["kind"].as_str().unwrap_or(""),
                n["subject"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(
        kinds,
        vec![("friend_request", "cyd"), ("friend_accepted", "ben")]
    );
    assert_eq!(list[0]["content"], serde_json::json!({"from": "cyd"}));
    assert!(list[0]["id"].as_u64().is_some() && list[0]["created_unix"].as_u64().is_some());

    // No key, a key nobody has, and a malformed one read exactly alike: 401.
    let unknown = bearer(99);
    for path in [
        "/api/me/friends",
        "/api/me/requests",
        "/api/me/notifications",
    ] {
        let mut answers = Vec::new();
        for token in [None, Some(unknown.as_str()), Some("not-a-key")] {
            let (status, body) = api(addr, path, token).await?;
            assert_eq!(status, 401, "{path} with {token:?}: {body}");
            answers.push(body);
        }
        assert!(answers.iter().all(|a| *a == answers[0]), "{answers:?}");
        assert!(answers[0]["error"].is_string());
    }
    // Ben's key gives ben's list, not ann's.
    let ben_key = bearer(2);
    let (status, body) = api(addr, "/api/me/requests", Some(&ben_key)).await?;
    assert_eq!(status, 200);
    assert_eq!(body, serde_json::json!({"incoming": [], "outgoing": []}));
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_friend_in_a_general_room_of_two_seats_reads_in_a_versus_match() -> anyhow::Result<()> {
    let (server, _dir) = with_database("friends").await;
    let mut ann = registered(server.addr(), "ann", 1).await?;
    let mut ben = registered(server.addr(), "ben", 2).await?;
    befriend(&mut ann, "ann", &mut ben, "ben").await?;
    ann.send(&ClientMessage::CreateBattleRoom {
        options: sevenbag_tests::ffa::options(2),
    })
    .await?;
    let code = ann
        .recv_until(LIMIT, |m| match m {
            ServerMessage::BattleJoined { code, .. } => Some(code.clone()),
            _ => None,
        })
        .await?;
    ben.send(&ClientMessage::JoinRoom {
        code: code.clone(),
        role: sevenbag_protocol::JoinRole::Player,
    })
    .await?;
    for c in [&mut ann, &mut ben] {
        c.send(&ClientMessage::Ready).await?;
    }
    let playing = PresenceState::InMatch {
        kind: MatchKind::Versus,
        code,
    };
    hears(&mut ben, "ann", playing).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ones_request_policy_reads_back_on_any_later_connection() -> anyhow::Result<()> {
    let (server, _dir) = with_database("friends").await;
    let policy_of = |m: &ServerMessage| match m {
        ServerMessage::RequestPolicySet { policy } => Some(*policy),
        _ => None,
    };
    let mut ann = registered(server.addr(), "ann", 1).await?;
    let first = ask(&mut ann, ClientMessage::GetRequestPolicy, policy_of).await?;
    assert_eq!(first, Ok(RequestPolicy::Anyone), "anyone until set");
    let nobody = ClientMessage::SetRequestPolicy {
        policy: RequestPolicy::Nobody,
    };
    assert_eq!(
        ask(&mut ann, nobody, policy_of).await?,
        Ok(RequestPolicy::Nobody)
    );
    ann.close().await;
    let mut ann = identified(server.addr(), "ann", 1).await?;
    let later = ask(&mut ann, ClientMessage::GetRequestPolicy, policy_of).await?;
    assert_eq!(later, Ok(RequestPolicy::Nobody));
    Ok(())
}
