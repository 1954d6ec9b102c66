//! Inviting a friend from inside a room of several seats, through the real server with a
//! SQLite database (docs/SERVER.md, "Friends, presence and notifications"): the invite sent
//! on the connection seated in the room carries its code, the friend joins by that code and
//! is seated; invites into a room one is not in, to a player who is no friend, and a flood
//! of them are refused with a reason while the connection stays.

use sevenbag_protocol::social::NotificationKind;
use sevenbag_protocol::{BattleRoomOptions, ClientMessage, ErrorCode, JoinRole, ServerMessage};
use sevenbag_tests::RawClient;
use sevenbag_tests::social::{LIMIT, ask, befriended, notification_of, registered, with_database};

/// Creates a general room of `seats` on `c`; its code.
async fn general_room(c: &mut RawClient, seats: u8) -> anyhow::Result<String> {
    let options = BattleRoomOptions::ffa(seats);
    let code = ask(
        c,
        ClientMessage::CreateBattleRoom { options },
        |m| match m {
            ServerMessage::BattleJoined { code, .. } => Some(code.clone()),
            _ => None,
        },
    )
    .await?;
    code.map_err(|(code, text)| anyhow::anyhow!("{code:?}: {text}"))
}

/// An invite of `name` into room `code`.
fn invite(name: &str, code: &str) -> ClientMessage {
    ClientMessage::InviteFriend {
        name: name.into(),
        code: code.into(),
    }
}

/// The refusal `request` gets on `c` (an answer instead is an error).
async fn refused(c: &mut RawClient, request: ClientMessage) -> anyhow::Result<(ErrorCode, String)> {
    match ask(c, request, |m| match m {
        ServerMessage::Invited { name, code } => Some(format!("{name} {code}")),
        _ => None,
    })
    .await?
    {
        Err(refusal) => Ok(refusal),
        Ok(answer) => anyhow::bail!("expected a refusal, got Invited {answer}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_friend_invited_into_a_general_room_joins_it_from_the_notification_and_is_seated()
-> anyhow::Result<()> {
    let (server, _dir) = with_database("room-invites").await;
    let mut ann = registered(server.addr(), "ann", 1).await?;
    let mut ben = registered(server.addr(), "ben", 2).await?;
    befriended(&mut ann, "ann", &mut ben, "ben").await?;

    // Ann's room connection: identified, seated in a general room of three.
    let code = general_room(&mut ann, 3).await?;
    let answer = ask(&mut ann, invite("ben", &code), |m| match m {
        ServerMessage::Invited { name, code } => Some((name.clone(), code.clone())),
        _ => None,
    })
    .await?;
    assert_eq!(answer, Ok(("ben".to_owned(), code.clone())));

    // Ben's notification carries the room's code; joining by it seats him.
    let n = notification_of(&mut ben, NotificationKind::Invite).await?;
    assert_eq!(n.subject, "ann");
    let content: serde_json::Value = serde_json::from_str(&n.content)?;
    let joined_code = content["code"].as_str().unwrap_or_default().to_owned();
    assert_eq!(joined_code, code);
    let join = ClientMessage::JoinRoom {
        code: joined_code,
        role: JoinRole::Player,
    };
    let seat = ask(&mut ben, join, |m| match m {
        ServerMessage::BattleJoined { code, seat, .. } => Some((code.clone(), *seat)),
        _ => None,
    })
    .await?;
    assert_eq!(seat, Ok((code, Some(1))));

    // Ann's room shows him in the second seat.
    ann.recv_until(LIMIT, |m| match m {
        ServerMessage::BattleRoomState { seats, .. } => seats
            .get(1)
            .cloned()
            .flatten()
            .filter(|s| s.name == "ben")
            .map(|_| ()),
        _ => None,
    })
    .await?;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invite_into_a_general_room_one_is_not_in_or_to_a_stranger_is_refused()
-> anyhow::Result<()> {
    let (server, _dir) = with_database("room-invites").await;
    let mut ann = registered(server.addr(), "ann", 1).await?;
    let mut ben = registered(server.addr(), "ben", 2).await?;
    let cyd = registered(server.addr(), "cyd", 3).await?;
    befriended(&mut ann, "ann", &mut ben, "ben").await?;
    let bens = general_room(&mut ben, 3).await?;

    // Outside any room, and from her own room into Ben's.
    let (code, text) = refused(&mut ann, invite("ben", &bens)).await?;
    assert_eq!(code, ErrorCode::NotInRoom, "{text}");
    assert!(text.contains("room you are in"), "{text}");
    let anns = general_room(&mut ann, 3).await?;
    assert_eq!(
        refused(&mut ann, invite("ben", &bens)).await?.0,
        ErrorCode::NotInRoom
    );
    // Into her own room, only a friend.
    let (code, text) = refused(&mut ann, invite("cyd", &anns)).await?;
    assert_eq!(code, ErrorCode::NotFriends, "{text}");
    cyd.close().await;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invites_past_their_burst_are_refused_and_the_room_connection_stays() -> anyhow::Result<()>
{
    let (server, _dir) = with_database("room-invites").await;
    let mut ann = registered(server.addr(), "ann", 1).await?;
    let mut ben = registered(server.addr(), "ben", 2).await?;
    befriended(&mut ann, "ann", &mut ben, "ben").await?;
    let code = general_room(&mut ann, 3).await?;
    // Sent at once: the burst passes, the next one is refused.
    for _ in 0..6 {
        ann.feed(&invite("ben", &code)).await?;
    }
    ann.flush().await?;
    let (code_seen, text) = ann
        .recv_until(LIMIT, |m| match m {
            ServerMessage::Error { code, message, .. } => Some((*code, message.clone())),
            _ => None,
        })
        .await?;
    assert_eq!(code_seen, ErrorCode::RateLimited, "{text}");
    assert!(text.contains("invites"), "{text}");
    // Still in the room: chat goes round it.
    ann.send(&ClientMessage::Chat { text: "hi".into() }).await?;
    ann.recv_until(LIMIT, |m| match m {
        ServerMessage::Chat { text, .. } if text == "hi" => Some(()),
        _ => None,
    })
    .await?;
    Ok(())
}
