//! End-to-end: the bot plays through the real server as a headless client's input source,
//! against a random player, while a spectator watches; everyone agrees on the result and the
//! hashes, and the bot wins.

use std::time::Duration;

use sevenbag_bot::{Bot, Level};
use sevenbag_core::Seat;
use sevenbag_netplay::{HeadlessClient, Idle, RandomInputs, from_fn};
use sevenbag_protocol::RoomOptions;
use sevenbag_tests::players::{match_config, room};

const MATCH_TIMEOUT: Duration = Duration::from_secs(45);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_plays_a_match_through_the_server_and_beats_random_keys() {
    let server = sevenbag_tests::start_server(match_config(Duration::from_millis(300))).await;
    let options = RoomOptions {
        first_to: 1,
        ..RoomOptions::default()
    };
    let (mut alice, mut bob, eve, _) = room(&server.url(), options, true).await;
    alice.ready().expect("ready");
    bob.ready().expect("ready");

    let bot_player = tokio::spawn(async move {
        let mut bot = Bot::new(Level::Medium);
        let mut keys = from_fn(move |m, seat| bot.next_input(m, seat));
        let result = alice.play_match(&mut keys, MATCH_TIMEOUT).await;
        (alice, result)
    });
    let random_player = tokio::spawn(async move {
        let mut keys = RandomInputs::new(5).with_drop_every(2, 8);
        let result = bob.play_match(&mut keys, MATCH_TIMEOUT).await;
        (bob, result)
    });
    let mut eve: HeadlessClient = eve.expect("spectator");
    let watched = eve.play_match(&mut Idle, MATCH_TIMEOUT).await;

    let (alice, ra) = bot_player.await.expect("bot task");
    let (bob, rb) = random_player.await.expect("random task");
    let result = ra.expect("the bot's match finished");
    assert_eq!(rb.expect("the random player's match finished"), result);
    assert_eq!(watched.expect("eve saw the end"), result);
    assert_eq!(
        result.winner,
        Seat::First,
        "the bot (seat 0) wins: {result:?}"
    );
    for c in [&alice, &bob, &eve] {
        assert!(c.desyncs().is_empty(), "desync: {:?}", c.desyncs());
    }
    // Every frame both players hashed, they hashed alike.
    let theirs: std::collections::HashMap<u32, u64> = bob.hashes().iter().copied().collect();
    let common: Vec<_> = alice
        .hashes()
        .iter()
        .filter_map(|(frame, hash)| theirs.get(frame).map(|h| (*frame, *hash, *h)))
        .collect();
    assert!(!common.is_empty(), "no frame hashed by both players");
    for (frame, mine, other) in common {
        assert_eq!(mine, other, "frame {frame}");
    }
}
