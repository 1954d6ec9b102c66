//! The friends tests' helpers (`friends.rs`, `cluster_friends.rs`, `room_invites.rs`,
//! `appear_offline.rs`): their server on a database file, a
//! player registered or identified on a fresh connection, the next notification pushed to
//! one, a request answered or refused, two players made friends.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use sevenbag_protocol::social::{Notification, NotificationKind, RequestAnswer, RequestResult};
use sevenbag_protocol::{ClientMessage, ErrorCode, ServerMessage};

use sevenbag_server::{Config, Limits};

use crate::{RawClient, TempDir, TestServer, fast_config, player_key, start_server, temp_dir};

/// Bound on each wait for a reply.
pub const LIMIT: Duration = Duration::from_secs(20);

/// The friends tests' server settings on the database file `db` (clients may sit a while
/// unread).
pub fn config(db: PathBuf) -> Config {
    let base = fast_config();
    Config {
        db: Some(db),
        limits: Limits {
            idle_timeout: Duration::from_secs(30),
            ..base.limits.clone()
        },
        ..base
    }
}

/// A server keeping identities in a SQLite file, in a new directory named after `tag` (held
/// by the returned [`TempDir`]).
pub async fn with_database(tag: &str) -> (TestServer, TempDir) {
    let dir = temp_dir(tag);
    let server = start_server(config(dir.path().join("sevenbag.db"))).await;
    (server, dir)
}

/// Connects to `addr` and registers `name` with key `n`.
pub async fn registered(addr: SocketAddr, name: &str, n: u8) -> anyhow::Result<RawClient> {
    let mut c = RawClient::hello(addr, name).await?;
    c.send(&ClientMessage::Register {
        key: player_key(n),
        name: name.into(),
    })
    .await?;
    c.profile_reply(LIMIT).await?;
    Ok(c)
}

/// Connects to `addr` (saying `name`) and identifies with key `n` again.
pub async fn identified(addr: SocketAddr, name: &str, n: u8) -> anyhow::Result<RawClient> {
    let mut c = RawClient::hello(addr, name).await?;
    c.send(&ClientMessage::Identify { key: player_key(n) })
        .await?;
    c.profile_reply(LIMIT).await?;
    Ok(c)
}

/// The next notification pushed to `c`, whatever its kind.
pub async fn notification(c: &mut RawClient) -> anyhow::Result<Notification> {
    c.recv_until(LIMIT, |m| match m {
        ServerMessage::Notification { notification } => Some(notification.clone()),
        _ => None,
    })
    .await
}

/// The next notification of `kind` pushed to `c` (those of other kinds pass by).
pub async fn notification_of(
    c: &mut RawClient,
    kind: NotificationKind,
) -> anyhow::Result<Notification> {
    c.recv_until(LIMIT, |m| match m {
        ServerMessage::Notification { notification } if notification.kind == kind => {
            Some(notification.clone())
        }
        _ => None,
    })
    .await
}

/// Sends `request` on `c` and waits for the first reply `pick` takes, or an `Error` (its code
/// and text).
pub async fn ask<T>(
    c: &mut RawClient,
    request: ClientMessage,
    mut pick: impl FnMut(&ServerMessage) -> Option<T>,
) -> anyhow::Result<Result<T, (ErrorCode, String)>> {
    c.send(&request).await?;
    c.recv_until(LIMIT, |m| match m {
        ServerMessage::Error { code, message, .. } => Some(Err((*code, message.clone()))),
        m => pick(m).map(Ok),
    })
    .await
}

/// `a` (called `a_name`) asks `b` (`b_name`) to be friends and `b` accepts.
pub async fn befriended(
    a: &mut RawClient,
    a_name: &str,
    b: &mut RawClient,
    b_name: &str,
) -> anyhow::Result<()> {
    let request = ClientMessage::SendFriendRequest {
        name: b_name.into(),
    };
    let sent = ask(a, request, |m| match m {
        ServerMessage::FriendRequestSent { result, .. } => Some(*result),
        _ => None,
    })
    .await?;
    anyhow::ensure!(sent == Ok(RequestResult::Sent), "{a_name} asked: {sent:?}");
    notification_of(b, NotificationKind::FriendRequest).await?;
    let answer = ClientMessage::AnswerFriendRequest {
        name: a_name.into(),
        answer: RequestAnswer::Accept,
    };
    let answered = ask(b, answer, |m| match m {
        ServerMessage::FriendRequestAnswered { answer, .. } => Some(*answer),
        _ => None,
    })
    .await?;
    anyhow::ensure!(answered == Ok(RequestAnswer::Accept), "{answered:?}");
    notification_of(a, NotificationKind::FriendAccepted).await?;
    Ok(())
}
