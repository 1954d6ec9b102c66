//! The friends tests' helpers (`friends.rs`, `cluster_friends.rs`): a player registered or
//! identified on a fresh connection, and the next notification pushed to one.

use std::net::SocketAddr;
use std::time::Duration;

use sevenbag_protocol::social::{Notification, NotificationKind};
use sevenbag_protocol::{ClientMessage, ServerMessage};

use crate::{RawClient, player_key};

/// Bound on each wait for a reply.
pub const LIMIT: Duration = Duration::from_secs(20);

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
