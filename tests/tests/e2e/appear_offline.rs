//! Appearing offline is kept with the player (docs/SERVER.md, "Friends, presence and
//! notifications"): it outlasts the player's last connection and a restart of the server on
//! the same SQLite file, holds from the first word friends hear, and ends only when turned off.

use std::path::Path;
use std::time::Duration;

use sevenbag_protocol::social::PresenceState;
use sevenbag_protocol::{ClientMessage, ServerMessage};
use sevenbag_tests::social::{LIMIT, ask, befriended, config, identified, registered};
use sevenbag_tests::{RawClient, TestServer, start_server};

/// A server on the SQLite file in `dir`.
async fn on_file(dir: &Path) -> TestServer {
    start_server(config(dir.join("sevenbag.db"))).await
}

/// What `c` reads of friend `name`'s presence in its friend list.
async fn presence_of(c: &mut RawClient, name: &str) -> anyhow::Result<PresenceState> {
    let request = ClientMessage::GetFriends {
        offset: 0,
        limit: 10,
    };
    let reply = ask(c, request, |m| match m {
        ServerMessage::Friends { friends, .. } => Some(
            friends
                .iter()
                .find(|f| f.name == name)
                .map(|f| f.presence.clone()),
        ),
        _ => None,
    })
    .await?;
    match reply {
        Ok(Some(state)) => Ok(state),
        Ok(None) => anyhow::bail!("{name} is not in the list"),
        Err((code, text)) => anyhow::bail!("{code:?}: {text}"),
    }
}

/// Sends `AppearOffline { on }` on `c` and waits for its answer.
async fn appear_offline(c: &mut RawClient, on: bool) -> anyhow::Result<()> {
    let answer = ask(c, ClientMessage::AppearOffline { on }, |m| match m {
        ServerMessage::AppearingOffline { on } => Some(*on),
        _ => None,
    })
    .await?;
    anyhow::ensure!(answer == Ok(on), "{answer:?}");
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn appearing_offline_outlasts_the_last_connection_and_a_restart_until_turned_off()
-> anyhow::Result<()> {
    let dir = sevenbag_tests::temp_dir("appear-offline");
    let mut server = on_file(dir.path()).await;
    let mut ann = registered(server.addr(), "ann", 1).await?;
    let mut ben = registered(server.addr(), "ben", 2).await?;
    befriended(&mut ann, "ann", &mut ben, "ben").await?;
    appear_offline(&mut ann, true).await?;
    ann.close().await;
    ben.close().await;
    server.restart(Duration::ZERO).await?;

    // The same file, the server started again: Ann comes back and is told she still appears
    // offline.
    let mut ben = identified(server.addr(), "ben", 2).await?;
    let mut ann = identified(server.addr(), "ann", 1).await?;
    ann.recv_until(LIMIT, |m| match m {
        ServerMessage::AppearingOffline { on: true } => Some(()),
        _ => None,
    })
    .await?;
    assert_eq!(presence_of(&mut ben, "ann").await?, PresenceState::Offline);

    // Turned off, Ben sees her: the first word he heard of her since she came back.
    appear_offline(&mut ann, false).await?;
    let mut heard = Vec::new();
    let request = ClientMessage::GetFriends {
        offset: 0,
        limit: 10,
    };
    ben.send(&request).await?;
    let listed = ben
        .recv_until(LIMIT, |m| match m {
            ServerMessage::Presence { name, state } if name == "ann" => {
                heard.push(state.clone());
                None
            }
            ServerMessage::Friends { friends, .. } => Some(friends.clone()),
            _ => None,
        })
        .await?;
    assert_eq!(heard, [PresenceState::Online]);
    assert_eq!(listed[0].presence, PresenceState::Online);
    Ok(())
}
