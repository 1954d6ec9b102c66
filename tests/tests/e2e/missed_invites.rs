//! What a player missed while offline, told when they come back, through the real server with
//! a SQLite database: an invite sent while they were away is pushed once they identify, and
//! once their game says it showed it (`MarkNotificationsShown`) the next connection is not
//! told it again, though it stays in their unseen list until seen. An invite to a room that
//! closed meanwhile is not told at all.

use sevenbag_protocol::social::{Notification, NotificationKind};
use sevenbag_protocol::{BattleRoomOptions, ClientMessage, ServerMessage};
use sevenbag_tests::RawClient;
use sevenbag_tests::social::{
    LIMIT, ask, befriended, identified, notification_of, registered, with_database,
};

/// Asks `c`, just identified, for its unseen list: the notifications pushed before the
/// answer (the server pushes what it tells on identifying before it reads the next request),
/// and the list.
async fn pushed_then_listed(
    c: &mut RawClient,
) -> anyhow::Result<(Vec<Notification>, Vec<Notification>)> {
    c.send(&ClientMessage::GetNotifications).await?;
    let mut pushed = Vec::new();
    let listed = c
        .recv_until(LIMIT, |m| match m {
            ServerMessage::Notification { notification } => {
                pushed.push(notification.clone());
                None
            }
            ServerMessage::Notifications { list } => Some(list.clone()),
            _ => None,
        })
        .await?;
    Ok((pushed, listed))
}

/// Ann's new room of three, and her invite of `friend` into it: the room's code.
async fn invite_into_new_room(ann: &mut RawClient, friend: &str) -> anyhow::Result<String> {
    let options = BattleRoomOptions::ffa(3);
    let code = ask(
        ann,
        ClientMessage::CreateBattleRoom { options },
        |m| match m {
            ServerMessage::BattleJoined { code, .. } => Some(code.clone()),
            _ => None,
        },
    )
    .await?
    .map_err(|(code, text)| anyhow::anyhow!("{code:?}: {text}"))?;
    let invite = ClientMessage::InviteFriend {
        name: friend.into(),
        code: code.clone(),
    };
    let invited = ask(ann, invite, |m| match m {
        ServerMessage::Invited { .. } => Some(()),
        _ => None,
    })
    .await?;
    assert_eq!(invited, Ok(()));
    Ok(code)
}

/// The server's open rooms, from its metrics (`sevenbag_rooms`).
async fn open_rooms(server: std::net::SocketAddr) -> anyhow::Result<f64> {
    let (status, body) = sevenbag_tests::http::get(server, "/metrics").await?;
    anyhow::ensure!(status == 200, "metrics answered {status}");
    String::from_utf8_lossy(&body)
        .lines()
        .find_map(|l| l.strip_prefix("sevenbag_rooms ")?.trim().parse().ok())
        .ok_or_else(|| anyhow::anyhow!("no sevenbag_rooms sample"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invite_sent_while_offline_is_told_on_connect_once() -> anyhow::Result<()> {
    let (server, _dir) = with_database("missed-invites").await;
    let mut ann = registered(server.addr(), "ann", 1).await?;
    let mut ben = registered(server.addr(), "ben", 2).await?;
    befriended(&mut ann, "ann", &mut ben, "ben").await?;
    ben.close().await;

    // Ann invites Ben into her room while he is away.
    let code = invite_into_new_room(&mut ann, "ben").await?;

    // Back, Ben is told of it; his game shows it and says so.
    let mut ben = identified(server.addr(), "ben", 2).await?;
    let told = notification_of(&mut ben, NotificationKind::Invite).await?;
    assert_eq!(told.subject, "ann");
    assert!(told.content.contains(&code), "{}", told.content);
    let shown = ClientMessage::MarkNotificationsShown { ids: vec![told.id] };
    let marked = ask(&mut ben, shown, |m| match m {
        ServerMessage::NotificationsSeen { marked } => Some(*marked),
        _ => None,
    })
    .await?;
    assert_eq!(marked, Ok(1));
    ben.close().await;

    // The next time he is not told again, and it is still in his unseen list.
    let mut ben = identified(server.addr(), "ben", 2).await?;
    let (pushed, listed) = pushed_then_listed(&mut ben).await?;
    assert!(
        pushed.iter().all(|n| n.kind != NotificationKind::Invite),
        "told again: {pushed:?}"
    );
    assert!(listed.iter().any(|n| n.id == told.id), "{listed:?}");
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invite_to_a_room_that_closed_while_offline_is_not_told() -> anyhow::Result<()> {
    let (server, _dir) = with_database("closed-invites").await;
    let mut ann = registered(server.addr(), "ann", 1).await?;
    let mut ben = registered(server.addr(), "ben", 2).await?;
    befriended(&mut ann, "ann", &mut ben, "ben").await?;
    ben.close().await;
    invite_into_new_room(&mut ann, "ben").await?;

    // Ann leaves her room; with nobody in it, it closes.
    ann.send(&ClientMessage::LeaveRoom).await?;
    let deadline = std::time::Instant::now() + LIMIT;
    while open_rooms(server.addr()).await? > 0.0 {
        anyhow::ensure!(std::time::Instant::now() < deadline, "the room stayed open");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }

    // Back, Ben is not told of an invite he can no longer take.
    let mut ben = identified(server.addr(), "ben", 2).await?;
    let (pushed, _) = pushed_then_listed(&mut ben).await?;
    assert!(
        pushed.iter().all(|n| n.kind != NotificationKind::Invite),
        "told of a closed room: {pushed:?}"
    );
    Ok(())
}
