//! Friends across the instances of one cluster (real Redis and PostgreSQL started by
//! `sevenbag_tests::services`; these tests skip when the binaries are missing): two players on
//! different instances become friends, each sees the other online, in a match, online again
//! and offline, promptly; a notification reaches its receiver live on the other instance, and
//! one sent while they were away is shown when they identify on another instance; an invite
//! into a free-for-all room on one instance reaches a friend on the other, who joins by its
//! code (sent on to the room's instance) and plays it out with a guest.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use sevenbag_protocol::social::{
    MatchKind, NotificationKind, PresenceState, RequestAnswer, RequestResult,
};
use sevenbag_protocol::{ClientMessage, JoinRole, RoomOptions, ServerMessage};
use sevenbag_server::{Config, Limits};
use sevenbag_tests::players::match_config;
use sevenbag_tests::services::{Postgres, Redis};
use sevenbag_tests::social::{LIMIT, identified, notification_of, registered};
use sevenbag_tests::{RawClient, ffa, start_cluster_instance};

/// How soon a friend on another instance must hear a change.
const PROMPT: Duration = Duration::from_secs(1);

/// The next presence `c` hears of `name`, and when it came.
async fn presence_of(c: &mut RawClient, name: &str) -> anyhow::Result<(PresenceState, Instant)> {
    c.recv_until(LIMIT, |m| match m {
        ServerMessage::Presence { name: n, state } if n == name => {
            Some((state.clone(), Instant::now()))
        }
        _ => None,
    })
    .await
}

/// The largest delay between a change and a friend hearing it.
#[derive(Default)]
struct Delays(Duration);

impl Delays {
    /// `friend` hears `expected` of `name`; the delay since `since` counts.
    async fn hears(
        &mut self,
        friend: &mut RawClient,
        name: &str,
        expected: &PresenceState,
        since: Instant,
    ) -> anyhow::Result<()> {
        let (state, at) = presence_of(friend, name).await?;
        if &state != expected {
            bail!("heard {name} {state:?}, expected {expected:?}");
        }
        self.0 = self.0.max(at.saturating_duration_since(since));
        Ok(())
    }
}

/// `player` (`name`) plays a guest on `addr`: its friend `friend` hears it in the match, then
/// online again once it leaves.
async fn plays_a_guest(
    delays: &mut Delays,
    addr: SocketAddr,
    player: &mut RawClient,
    name: &str,
    friend: &mut RawClient,
) -> anyhow::Result<()> {
    player
        .send(&ClientMessage::CreateRoom {
            options: RoomOptions::default(),
        })
        .await?;
    let code = player
        .recv_until(LIMIT, |m| match m {
            ServerMessage::Joined { code, .. } => Some(code.clone()),
            _ => None,
        })
        .await?;
    let mut guest = RawClient::hello(addr, "guest").await?;
    guest
        .send(&ClientMessage::JoinRoom {
            code: code.clone(),
            role: JoinRole::Player,
        })
        .await?;
    guest
        .recv_until(LIMIT, |m| {
            matches!(m, ServerMessage::Joined { .. }).then_some(())
        })
        .await?;
    for c in [&mut *player, &mut guest] {
        c.send(&ClientMessage::Ready).await?;
    }
    let started = player
        .recv_until(LIMIT, |m| {
            matches!(m, ServerMessage::MatchStart { .. }).then(Instant::now)
        })
        .await?;
    let playing = PresenceState::InMatch {
        kind: MatchKind::Versus,
        code,
    };
    delays.hears(friend, name, &playing, started).await?;
    let left = Instant::now();
    player.send(&ClientMessage::LeaveRoom).await?;
    delays
        .hears(friend, name, &PresenceState::Online, left)
        .await?;
    guest.close().await;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn friends_on_two_instances_see_each_other_and_get_their_notifications() -> anyhow::Result<()>
{
    let Some(redis) = Redis::start() else {
        return Ok(());
    };
    let Some(pg) = Postgres::start() else {
        return Ok(());
    };
    let base = match_config(Duration::from_millis(100));
    let config = || Config {
        postgres: Some(pg.url()),
        limits: Limits {
            idle_timeout: Duration::from_secs(30),
            ..base.limits.clone()
        },
        ..base.clone()
    };
    let ttl = Duration::from_secs(5);
    let mut a = start_cluster_instance(&redis, ttl, config()).await;
    let mut b = start_cluster_instance(&redis, ttl, config()).await;
    let mut ann = registered(a.addr(), "ann", 1).await?;
    let mut ben = registered(b.addr(), "ben", 2).await?;
    let mut delays = Delays::default();

    // Ann asks on A; the request reaches Ben live on B.
    ann.send(&ClientMessage::SendFriendRequest { name: "ben".into() })
        .await?;
    let sent = ann
        .recv_until(LIMIT, |m| match m {
            ServerMessage::FriendRequestSent { result, .. } => Some(*result),
            _ => None,
        })
        .await?;
    assert_eq!(sent, RequestResult::Sent);
    let asked = notification_of(&mut ben, NotificationKind::FriendRequest).await?;
    assert_eq!(asked.subject, "ann");

    // Ben accepts on B: Ann hears it live on A, and each hears the other online.
    let accepted = Instant::now();
    ben.send(&ClientMessage::AnswerFriendRequest {
        name: "ann".into(),
        answer: RequestAnswer::Accept,
    })
    .await?;
    let told = notification_of(&mut ann, NotificationKind::FriendAccepted).await?;
    assert_eq!(told.subject, "ben");
    delays
        .hears(&mut ann, "ben", &PresenceState::Online, accepted)
        .await?;
    delays
        .hears(&mut ben, "ann", &PresenceState::Online, accepted)
        .await?;

    // Each plays a match on their own instance; the other sees it from theirs.
    plays_a_guest(&mut delays, a.addr(), &mut ann, "ann", &mut ben).await?;
    plays_a_guest(&mut delays, b.addr(), &mut ben, "ben", &mut ann).await?;

    // A direct message from A is delivered live on B.
    ann.send(&ClientMessage::DirectMessage {
        to: "ben".into(),
        text: "good game".into(),
    })
    .await?;
    let message = notification_of(&mut ben, NotificationKind::DirectMessage).await?;
    assert!(message.content.contains("good game"), "{message:?}");

    // Ben goes: Ann sees him offline. What she sends meanwhile waits for him, and he sees it
    // when he identifies on the other instance.
    let gone = Instant::now();
    ben.close().await;
    delays
        .hears(&mut ann, "ben", &PresenceState::Offline, gone)
        .await?;
    ann.send(&ClientMessage::DirectMessage {
        to: "ben".into(),
        text: "are you there?".into(),
    })
    .await?;
    ann.recv_until(LIMIT, |m| {
        matches!(m, ServerMessage::DirectMessageSent { .. }).then_some(())
    })
    .await?;
    let back = Instant::now();
    let mut ben = identified(a.addr(), "ben", 2).await?;
    let waiting = ben
        .recv_until(LIMIT, |m| match m {
            ServerMessage::Notification { notification }
                if notification.content.contains("are you there?") =>
            {
                Some(notification.clone())
            }
            _ => None,
        })
        .await
        .context("the message kept while ben was away")?;
    assert_eq!(waiting.kind, NotificationKind::DirectMessage);
    assert_eq!(waiting.subject, "ann");
    delays
        .hears(&mut ann, "ben", &PresenceState::Online, back)
        .await?;

    // Ben moves back to B and Ann goes: Ben hears her offline across the cluster.
    ben.close().await;
    let mut ben = identified(b.addr(), "ben", 2).await?;
    let (state, _) = presence_of(&mut ben, "ann").await?;
    assert_eq!(state, PresenceState::Online, "ben hears where ann is");
    let gone = Instant::now();
    ann.close().await;
    delays
        .hears(&mut ben, "ann", &PresenceState::Offline, gone)
        .await?;

    eprintln!("largest presence delay across instances: {:?}", delays.0);
    assert!(delays.0 < PROMPT, "a change took {:?} to cross", delays.0);
    ben.close().await;
    a.shutdown().await?;
    b.shutdown().await?;
    Ok(())
}

/// `ann` asks `ben`, who accepts; returns once each has heard the other's answer.
async fn befriend(ann: &mut RawClient, ben: &mut RawClient) -> anyhow::Result<()> {
    ann.send(&ClientMessage::SendFriendRequest { name: "ben".into() })
        .await?;
    notification_of(ben, NotificationKind::FriendRequest).await?;
    ben.send(&ClientMessage::AnswerFriendRequest {
        name: "ann".into(),
        answer: RequestAnswer::Accept,
    })
    .await?;
    notification_of(ann, NotificationKind::FriendAccepted).await?;
    Ok(())
}

/// The next `InMatch` presence `c` hears of `name`.
async fn in_match(c: &mut RawClient, name: &str) -> anyhow::Result<PresenceState> {
    c.recv_until(LIMIT, |m| match m {
        ServerMessage::Presence { name: n, state } if n == name => {
            matches!(state, PresenceState::InMatch { .. }).then(|| state.clone())
        }
        _ => None,
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invite_into_a_free_for_all_on_another_instance_is_taken_up_and_played_out()
-> anyhow::Result<()> {
    let Some(redis) = Redis::start() else {
        return Ok(());
    };
    let Some(pg) = Postgres::start() else {
        return Ok(());
    };
    let base = match_config(Duration::from_millis(100));
    let config = || Config {
        postgres: Some(pg.url()),
        limits: Limits {
            idle_timeout: Duration::from_secs(30),
            ..base.limits.clone()
        },
        ..base.clone()
    };
    let ttl = Duration::from_secs(5);
    let mut a = start_cluster_instance(&redis, ttl, config()).await;
    let mut b = start_cluster_instance(&redis, ttl, config()).await;
    let mut ann = registered(a.addr(), "ann", 11).await?;
    let mut ben = registered(b.addr(), "ben", 12).await?;
    befriend(&mut ann, &mut ben).await?;

    // Ann's game on A makes a free-for-all room of three seats and invites Ben into it.
    let mut host = ffa::signed_in(&a.url(), "ann", 11, false).await;
    let code = host.create(ffa::options(3)).await?;
    host.send(ClientMessage::InviteFriend {
        name: "ben".into(),
        code: code.clone(),
    })?;
    let invite = notification_of(&mut ben, NotificationKind::Invite).await?;
    assert_eq!(invite.subject, "ann");
    let content: serde_json::Value = serde_json::from_str(&invite.content)?;
    assert_eq!(content["code"].as_str(), Some(code.as_str()), "{invite:?}");

    // Ben's game on B joins by that code and is sent on to A; a guest takes the third seat.
    let mut guest = ffa::connect(&a.url(), "cid").await;
    let mut joiner = ffa::signed_in(&b.url(), "ben", 12, false).await;
    let seat = joiner.join(&code, JoinRole::Player).await?;
    assert_eq!((seat, joiner.url()), (Some(1), a.url().as_str()));
    assert_eq!(guest.join(&code, JoinRole::Player).await?, Some(2));
    let mut players = vec![host, joiner, guest];
    ffa::all_ready(&mut players);

    // They play it out while Ben, on B, sees Ann in that match.
    let (players, seen) = tokio::join!(ffa::play_all(players, false), in_match(&mut ben, "ann"));
    let playing = PresenceState::InMatch {
        kind: MatchKind::FreeForAll,
        code: code.clone(),
    };
    assert_eq!(seen?, playing);
    let outcome = players[0]
        .outcome()
        .cloned()
        .context("the server's verdict")?;
    assert_eq!(outcome.placements.len(), 3);
    assert!(outcome.winner.is_some(), "{outcome:?}");
    assert!(outcome.replay.is_some(), "the host kept a replay");
    for p in &players {
        assert_eq!(p.outcome(), Some(&outcome), "one verdict for all");
        assert!(p.errors().is_empty(), "{:?}", p.errors());
    }
    drop(players);
    ann.close().await;
    ben.close().await;
    a.shutdown().await?;
    b.shutdown().await?;
    Ok(())
}
