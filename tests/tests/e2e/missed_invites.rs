//! What a player missed while offline, told when they come back, through the real server with
//! a SQLite database: an invite sent while they were away is pushed once they identify, and
//! once their game says it showed it (`MarkNotificationsShown`) the next connection is not
//! told it again, though it stays in their unseen list until seen.

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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invite_sent_while_offline_is_told_on_connect_once() -> anyhow::Result<()> {
    let (server, _dir) = with_database("missed-invites").await;
    let mut ann = registered(server.addr(), "ann", 1).await?;
    let mut ben = registered(server.addr(), "ben", 2).await?;
    befriended(&mut ann, "ann", &mut ben, "ben").await?;
    ben.close().await;

    // Ann invites Ben into her room while he is away.
    let options = BattleRoomOptions::ffa(3);
    let code = ask(
        &mut ann,
        ClientMessage::CreateBattleRoom { options },
        |m| match m {
            ServerMessage::BattleJoined { code, .. } => Some(code.clone()),
            _ => None,
        },
    )
    .await?
    .map_err(|(code, text)| anyhow::anyhow!("{code:?}: {text}"))?;
    let invite = ClientMessage::InviteFriend {
        name: "ben".into(),
        code: code.clone(),
    };
    let invited = ask(&mut ann, invite, |m| match m {
        ServerMessage::Invited { .. } => Some(()),
        _ => None,
    })
    .await?;
    assert_eq!(invited, Ok(()));

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
