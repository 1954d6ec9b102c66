//! Headless players for the end-to-end tests: the fast server settings they share, a two-player
//! room (with an optional spectator), and a player's whole match on its own task.

use std::time::Duration;

use sevenbag_netplay::{
    HeadlessClient, HeadlessConfig, HeadlessError, Idle, MatchResult, RandomInputs,
};
use sevenbag_protocol::{ErrorCode, JoinRole, RoomOptions};
use sevenbag_server::Config;
use tokio::task::JoinHandle;

/// [`crate::fast_config`] with half-second countdowns and round breaks, and frame 0
/// `start_delay` after the match starts (longer behind a slow link, so pings settle first).
pub fn match_config(start_delay: Duration) -> Config {
    Config {
        countdown_frames: Some(30),
        round_break_frames: Some(30),
        start_delay,
        ..crate::fast_config()
    }
}

/// A connected headless client called `name`.
pub async fn connect(url: &str, name: &str) -> HeadlessClient {
    HeadlessClient::connect(url, HeadlessConfig::new(name))
        .await
        .unwrap_or_else(|e| panic!("{name} connects: {e}"))
}

/// Alice creates a room with `options`, Bob joins it as a player, and Eve watches if
/// `spectator`. Nobody is ready yet. Returns (alice, bob, eve, room code).
pub async fn room(
    url: &str,
    options: RoomOptions,
    spectator: bool,
) -> (
    HeadlessClient,
    HeadlessClient,
    Option<HeadlessClient>,
    String,
) {
    let mut alice = connect(url, "alice").await;
    let code = alice.create_room(options).await.expect("room created");
    let mut bob = connect(url, "bob").await;
    bob.join_room(&code, JoinRole::Player)
        .await
        .expect("bob joins");
    let eve = if spectator {
        let mut eve = connect(url, "eve").await;
        let seat = eve
            .join_room(&code, JoinRole::Spectator)
            .await
            .expect("eve watches");
        assert_eq!(seat, None, "a spectator has no seat");
        Some(eve)
    } else {
        None
    };
    (alice, bob, eve, code)
}

/// What a player's task gives back: the client and how its match ended.
pub type Played = (HeadlessClient, Result<MatchResult, HeadlessError>);

/// Plays `client`'s whole match on its own task: random keys from `seed` with a hard drop every
/// `drop_every` frames (a range), or idle (a spectator) when `seed` is `None`.
pub fn play(
    mut client: HeadlessClient,
    seed: Option<u64>,
    drop_every: (u32, u32),
    timeout: Duration,
) -> JoinHandle<Played> {
    tokio::spawn(async move {
        let result = match seed {
            Some(seed) => {
                let mut keys = RandomInputs::new(seed).with_drop_every(drop_every.0, drop_every.1);
                client.play_match(&mut keys, timeout).await
            }
            None => client.play_match(&mut Idle, timeout).await,
        };
        (client, result)
    })
}

/// Waits for every task and insists each match finished; returns the clients in order.
pub async fn finished(tasks: Vec<JoinHandle<Played>>) -> Vec<HeadlessClient> {
    let mut clients = Vec::with_capacity(tasks.len());
    for task in tasks {
        let (client, result) = task.await.expect("player task");
        result.expect("match finished");
        clients.push(client);
    }
    clients
}

/// Whether `err` is the server's "no such room" (a code nobody holds).
pub fn is_no_such_room(err: &HeadlessError) -> bool {
    matches!(
        err,
        HeadlessError::Server {
            code: ErrorCode::NoSuchRoom,
            ..
        }
    )
}
