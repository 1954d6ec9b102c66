//! After a match the connection stays up however long the players sit on the result card:
//! the server's idle rule (`idle_timeout`, 3 s here) never cuts a client that is only
//! waiting, on the WebSocket or with its datagram session open, nor one whose game loop has
//! stopped (a page in a background tab or on a phone whose screen went dark: its WebSocket
//! still answers the server's WebSocket pings, but nothing of the game's own runs).

use std::time::Duration;

use sevenbag_core::Seat;
use sevenbag_netplay::{DatagramStatus, HeadlessClient};
use sevenbag_protocol::{ClientMessage, JoinRole, RoomOptions, ServerMessage};
use sevenbag_tests::players::{finished, match_config, play, room};
use sevenbag_tests::{Event, RawClient, scripted};

const MATCH_TIMEOUT: Duration = Duration::from_secs(60);

/// Waits on `client`'s connection for `span`, handling what it hears as the game does: Err
/// naming what happened if the connection was cut or told of an error meanwhile.
async fn stays_quiet(client: &mut HeadlessClient, span: Duration) -> Result<(), String> {
    let errors = client.errors().len();
    let cut = client
        .wait_for(span, |c| !c.is_connected() || c.errors().len() > errors)
        .await;
    match cut {
        Err(_) => Ok(()),
        Ok(()) => Err(format!(
            "{} was cut while idle: {:?} {:?}",
            client.name(),
            client.errors(),
            client.disconnect_reason()
        )),
    }
}

/// Both players wait at once for `span`; neither may be cut.
async fn both_stay_connected(clients: &mut [HeadlessClient], span: Duration) {
    let [a, b] = clients else {
        panic!("two players");
    };
    let (a, b) = tokio::join!(stays_quiet(a, span), stays_quiet(b, span));
    a.and(b).expect("connected");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_idle_on_the_result_card_stay_connected() {
    let config = match_config(Duration::from_millis(300));
    let idle = config.limits.idle_timeout;
    let server = sevenbag_tests::start_server(config).await;
    let options = RoomOptions {
        first_to: 1,
        ..RoomOptions::default()
    };
    let (mut alice, mut bob, _, _) = room(&server.url(), options, false).await;
    for c in [&mut alice, &mut bob] {
        let _ = c
            .wait_for(Duration::from_secs(3), |c| {
                matches!(
                    c.datagram_status(),
                    DatagramStatus::Open | DatagramStatus::Failed
                )
            })
            .await;
    }
    alice.ready().expect("ready");
    bob.ready().expect("ready");
    let mut clients = finished(vec![
        play(alice, Some(5), (4, 12), MATCH_TIMEOUT),
        play(bob, Some(6), (4, 12), MATCH_TIMEOUT),
    ])
    .await;
    both_stay_connected(&mut clients, idle * 4).await;
}

/// Reads `client`'s connection for `span` without answering the game's `Ping`s (its
/// WebSocket layer still answers WebSocket pings, as a browser's does by itself): Err naming
/// the cut if one came.
async fn frozen_page_stays_connected(client: &mut RawClient, span: Duration) -> Result<(), String> {
    client.auto_pong = false;
    let until = tokio::time::Instant::now() + span;
    loop {
        let left = until.saturating_duration_since(tokio::time::Instant::now());
        if left.is_zero() {
            return Ok(());
        }
        match client.poll_event(left).await {
            Ok(None) | Ok(Some(Event::Message(ServerMessage::Ping { .. }))) => {}
            Ok(Some(Event::Message(ServerMessage::Error { code, message, .. }))) => {
                return Err(format!("cut: {code:?}: {message}"));
            }
            Ok(Some(Event::Message(_))) => {}
            Ok(Some(Event::Closed(frame))) => return Err(format!("closed: {frame:?}")),
            Err(e) => return Err(e.to_string()),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_whose_game_loop_stopped_on_the_result_card_stays_connected() {
    let config = match_config(Duration::from_millis(300));
    let idle = config.limits.idle_timeout;
    let server = sevenbag_tests::start_server(config).await;
    let mut alice = RawClient::hello(server.addr(), "alice")
        .await
        .expect("alice");
    alice
        .send(&ClientMessage::CreateRoom {
            options: RoomOptions {
                first_to: 1,
                ..RoomOptions::default()
            },
        })
        .await
        .expect("create");
    let code = alice
        .recv_until(MATCH_TIMEOUT, |m| match m {
            ServerMessage::Joined { code, .. } => Some(code.clone()),
            _ => None,
        })
        .await
        .expect("joined");
    let mut bob = RawClient::hello(server.addr(), "bob").await.expect("bob");
    bob.send(&ClientMessage::JoinRoom {
        code,
        role: JoinRole::Player,
    })
    .await
    .expect("join");
    alice.send(&ClientMessage::Ready).await.expect("ready");
    bob.send(&ClientMessage::Ready).await.expect("ready");
    let a = scripted::play(&mut alice, Seat::First, 6, MATCH_TIMEOUT);
    let b = scripted::play(&mut bob, Seat::Second, 12, MATCH_TIMEOUT);
    tokio::try_join!(a, b).expect("the match ends");
    let (a, b) = tokio::join!(
        frozen_page_stays_connected(&mut alice, idle * 4),
        frozen_page_stays_connected(&mut bob, idle * 4)
    );
    a.and(b).expect("connected");
}
