//! The verdict of a match never overtakes the inputs a datagram player needs to reach it.
//! Relayed inputs go to a player on the datagram path as datagrams, the verdict over the
//! WebSocket; a player whose last datagrams are late or lost would hear `MatchOver` with its
//! boards short of the end the server decided. So the server sends such a player, over the
//! WebSocket and before the verdict, every frame of the opponent's inputs it has not
//! acknowledged. Here Alice's datagram session is open but she never reads it (nothing of
//! Bob's arrives by datagram), and Bob's own inputs decide the match.

use std::time::Duration;

use sevenbag_core::{Input, Seat};
use sevenbag_protocol::{ClientMessage, InputLog, JoinRole, RoomOptions, ServerMessage};
use sevenbag_tests::datagram_session::{routed, with_session};
use sevenbag_tests::players::match_config;
use sevenbag_tests::{Event, RawClient, scripted};
use tokio::time::Instant;

const LIMIT: Duration = Duration::from_secs(30);
/// Alice confirms this far past the match clock (below the server's 120-frame limit).
const ALICE_LEAD: u32 = 90;
/// Bob confirms only this far past it, so the frame that decides the match comes with his
/// last batch.
const BOB_LEAD: u32 = 2;

/// A player's inputs up to `target`: Alice holds nothing, Bob hard-drops every other frame.
fn batch(
    seat: Seat,
    from: u32,
    target: u32,
    last: &mut Input,
) -> Vec<sevenbag_protocol::InputChange> {
    let masks: Vec<Input> = (from..target)
        .map(|f| {
            if seat == Seat::First {
                Input::NONE
            } else {
                scripted::mask(2, f)
            }
        })
        .collect();
    let changes = InputLog::diff(&masks, from, *last);
    *last = masks.last().copied().unwrap_or(*last);
    changes
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_datagram_player_hears_every_input_the_verdict_needs_before_the_verdict() {
    let server = sevenbag_tests::start_server(match_config(Duration::from_millis(300))).await;
    let addr = server.addr();
    let (mut alice, _session) = with_session(addr, "alice").await.expect("alice's session");
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
        .recv_until(LIMIT, |m| match m {
            ServerMessage::Joined { code, .. } => Some(code.clone()),
            _ => None,
        })
        .await
        .expect("joined");
    routed(&mut alice).await.expect("routed");
    let mut bob = RawClient::hello(addr, "bob").await.expect("bob");
    bob.send(&ClientMessage::JoinRoom {
        code,
        role: JoinRole::Player,
    })
    .await
    .expect("join");
    alice.send(&ClientMessage::Ready).await.expect("ready");
    bob.send(&ClientMessage::Ready).await.expect("ready");
    let start_in = |c: &ServerMessage| match c {
        ServerMessage::MatchStart { start_in_ms, .. } => Some(*start_in_ms),
        _ => None,
    };
    let start_ms = alice.recv_until(LIMIT, start_in).await.expect("start");
    bob.recv_until(LIMIT, start_in).await.expect("start");
    let frame0 = Instant::now() + Duration::from_millis(u64::from(start_ms));

    let mut sent = [0u32; 2];
    let mut last = [Input::NONE; 2];
    // Frames of Bob's inputs Alice heard over the WebSocket, and the frame that decided.
    let mut heard = 0u32;
    let mut decided = None;
    let deadline = Instant::now() + LIMIT;
    let heard_at_verdict = loop {
        assert!(Instant::now() < deadline, "no verdict");
        let elapsed = Instant::now().saturating_duration_since(frame0);
        let now_frame = (elapsed.as_millis() * 60 / 1000) as u32;
        for (seat, lead) in [(Seat::First, ALICE_LEAD), (Seat::Second, BOB_LEAD)] {
            let target = now_frame + lead;
            let i = seat.index();
            if target > sent[i] {
                let changes = batch(seat, sent[i], target, &mut last[i]);
                let message = ClientMessage::Inputs {
                    changes,
                    confirmed: target,
                };
                let client = if seat == Seat::First {
                    &mut alice
                } else {
                    &mut bob
                };
                client.send(&message).await.expect("inputs");
                sent[i] = target;
            }
        }
        while let Some(event) = bob.poll_event(Duration::ZERO).await.expect("bob") {
            assert!(!matches!(event, Event::Closed(_)), "bob cut: {event:?}");
        }
        let mut verdict = false;
        while let Some(event) = alice
            .poll_event(Duration::from_millis(4))
            .await
            .expect("alice")
        {
            match event {
                Event::Message(ServerMessage::InputsFrom {
                    seat: Seat::Second,
                    confirmed,
                    ..
                })
                | Event::Message(ServerMessage::Inputs {
                    seat: Seat::Second,
                    confirmed,
                    ..
                }) => heard = heard.max(confirmed),
                Event::Message(ServerMessage::RoundOver { frame, .. }) => decided = Some(frame),
                Event::Message(ServerMessage::MatchOver { .. }) => {
                    verdict = true;
                    break;
                }
                Event::Closed(frame) => panic!("alice cut: {frame:?}"),
                Event::Message(_) => {}
            }
        }
        if verdict {
            break heard;
        }
    };
    let decided = decided.expect("a RoundOver before the MatchOver");
    assert!(
        heard_at_verdict > decided,
        "the verdict came with Bob's inputs heard to frame {heard_at_verdict}, \
         but frame {decided} decided the match"
    );
}
