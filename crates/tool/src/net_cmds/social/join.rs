//! Connections of the social load, and the invited friend taking up an invite: a second
//! connection of theirs identifies with their key and joins the room by its code, following a
//! cluster's `Redirect` to the room's instance, then leaves. Their first connection stays, so
//! they read online throughout and their friends hear no change.

use std::time::{Duration, Instant};

use sevenbag_netplay::{Hello, NetEvent, NetHandle, net::NetOptions};
use sevenbag_protocol::{ClientMessage, JoinRole, ServerMessage};

/// Most redirects followed for one join.
const MAX_REDIRECTS: usize = 3;
/// Most events read while waiting for one answer (bounds each wait by count too).
const MAX_EVENTS: usize = 10_000;

/// Opens a connection to `url` (loopback only), everything on the WebSocket.
pub(super) fn open(url: &str, name: &str) -> Result<NetHandle, String> {
    if !(url.starts_with("ws://127.") || url.starts_with("ws://localhost")) {
        return Err(format!("{url} is not a loopback server"));
    }
    let options = NetOptions {
        datagrams: false,
        ..NetOptions::default()
    };
    Ok(sevenbag_netplay::net::connect_with(
        &tokio::runtime::Handle::current(),
        url,
        Hello::new(name),
        options,
    ))
}

/// Reads `handle` until `pick` takes an event, before `deadline`; an `Error` from the server
/// or the connection's end first is an error naming `what` was awaited.
pub(super) async fn until<T>(
    handle: &mut NetHandle,
    deadline: Instant,
    what: &str,
    mut pick: impl FnMut(&NetEvent) -> Option<T>,
) -> Result<T, String> {
    for _ in 0..MAX_EVENTS {
        let event = tokio::time::timeout_at(deadline.into(), handle.recv())
            .await
            .map_err(|_| format!("no {what} in time"))?;
        let Some(event) = event else {
            return Err(format!("waiting for {what}: the connection ended"));
        };
        if let Some(t) = pick(&event) {
            return Ok(t);
        }
        match event {
            NetEvent::Message(ServerMessage::Error { code, message, .. }) => {
                return Err(format!("waiting for {what}: {code:?}: {message}"));
            }
            NetEvent::Disconnected(why) => {
                return Err(format!("waiting for {what}: disconnected ({why})"));
            }
            _ => {}
        }
    }
    Err(format!("more than {MAX_EVENTS} events without {what}"))
}

/// Connects to `url` as `name` and waits for `Welcome`.
pub(super) async fn welcomed(
    url: &str,
    name: &str,
    deadline: Instant,
) -> Result<NetHandle, String> {
    let mut handle = open(url, name)?;
    until(&mut handle, deadline, "Welcome", |e| {
        matches!(e, NetEvent::Welcome { .. }).then_some(())
    })
    .await?;
    Ok(handle)
}

/// What a join request was answered.
enum Answer {
    Joined,
    Redirect(String),
}

/// Joins room `code` as `name` (key `key`) from `url`, then leaves; within `limit`.
pub(super) async fn join(
    url: String,
    name: String,
    key: [u8; 32],
    code: String,
    limit: Duration,
) -> Result<(), String> {
    let deadline = Instant::now() + limit;
    let mut url = url;
    for _ in 0..=MAX_REDIRECTS {
        let mut side = welcomed(&url, &name, deadline).await?;
        let send = |side: &NetHandle, m| side.send(m).map_err(|e| e.to_string());
        send(&side, ClientMessage::Identify { key })?;
        until(&mut side, deadline, "Identified", |e| {
            matches!(e, NetEvent::Message(ServerMessage::Identified { .. })).then_some(())
        })
        .await?;
        send(
            &side,
            ClientMessage::JoinRoom {
                code: code.clone(),
                role: JoinRole::Player,
            },
        )?;
        let answer = until(&mut side, deadline, "Joined", |e| match e {
            NetEvent::Message(ServerMessage::Joined { .. }) => Some(Answer::Joined),
            NetEvent::Message(ServerMessage::Redirect { url }) => {
                Some(Answer::Redirect(url.clone()))
            }
            _ => None,
        })
        .await?;
        let redirect = match answer {
            Answer::Joined => {
                send(&side, ClientMessage::LeaveRoom)?;
                None
            }
            Answer::Redirect(to) => Some(to),
        };
        close(side, deadline).await;
        match redirect {
            None => return Ok(()),
            Some(to) => url = to,
        }
    }
    Err(format!(
        "more than {MAX_REDIRECTS} redirects joining {code}"
    ))
}

/// Closes politely and waits (until `deadline`) for the end, so what was sent goes first.
pub(super) async fn close(mut handle: NetHandle, deadline: Instant) {
    handle.close();
    let _ = until(&mut handle, deadline, "the close", |e| {
        matches!(e, NetEvent::Disconnected(_)).then_some(())
    })
    .await;
}
