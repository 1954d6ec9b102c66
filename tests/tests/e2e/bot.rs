//! End-to-end: the bot plays through the real server as a headless client's input source, in
//! a room of two seats, against a random player, while a spectator watches; everyone agrees on
//! the result and the hashes, and the bot wins.

use std::time::Duration;

use sevenbag_bot::{Bot, Level};
use sevenbag_core::{Battle, Input, Seat, SeatInput};
use sevenbag_netplay::RandomInputs;
use sevenbag_protocol::JoinRole;
use sevenbag_tests::ffa::{all_started, connect, idle, options, seated};
use sevenbag_tests::players::match_config;

const MATCH_TIMEOUT: Duration = Duration::from_secs(45);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_plays_a_match_through_the_server_and_beats_random_keys() {
    let server = sevenbag_tests::start_server(match_config(Duration::from_millis(300))).await;
    let url = server.url();
    let (mut players, code) = seated(&url, options(2), 2).await;
    let mut eve = connect(&url, "eve").await;
    assert_eq!(
        eve.join(&code, JoinRole::Spectator)
            .await
            .expect("eve watches"),
        None
    );
    all_started(&mut players).await;
    let (mut alice, mut bob) = {
        let mut p = players.into_iter();
        (p.next().expect("seat 0"), p.next().expect("seat 1"))
    };

    let bot_player = tokio::spawn(async move {
        let mut bot = Bot::new(Level::Medium);
        let mut keys = move |battle: &Battle, me: usize| SeatInput {
            keys: Seat::new(me).map_or(Input::NONE, |seat| bot.next_battle_input(battle, seat)),
            target: None,
        };
        let result = alice.play(&mut keys, MATCH_TIMEOUT).await;
        (alice, result)
    });
    let random_player = tokio::spawn(async move {
        let mut keys = RandomInputs::new(5).with_drop_every(2, 8).for_battle();
        let result = bob.play(&mut keys, MATCH_TIMEOUT).await;
        (bob, result)
    });
    let watched = eve.play(&mut idle(), MATCH_TIMEOUT).await;

    let (alice, ra) = bot_player.await.expect("bot task");
    let (bob, rb) = random_player.await.expect("random task");
    ra.expect("the bot's match finished");
    rb.expect("the random player's match finished");
    watched.expect("eve saw the end");
    let result = alice.outcome().expect("a verdict").clone();
    assert_eq!(bob.outcome(), Some(&result));
    assert_eq!(eve.outcome(), Some(&result));
    assert_eq!(result.winner, Some(0), "the bot (seat 0) wins: {result:?}");
    for (who, c) in [("alice", &alice), ("bob", &bob), ("eve", &eve)] {
        let desyncs = c.session().map_or(0, |s| s.stats().desyncs);
        assert_eq!(desyncs, 0, "{who} saw a desync");
    }
    // Every frame both players hashed, they hashed alike.
    let hashes = |c: &sevenbag_netplay::BattleClient| {
        c.session().map(|s| s.hashes().to_vec()).unwrap_or_default()
    };
    let theirs: std::collections::HashMap<u32, u64> = hashes(&bob).into_iter().collect();
    let common: Vec<_> = hashes(&alice)
        .into_iter()
        .filter_map(|(frame, hash)| theirs.get(&frame).map(|h| (frame, hash, *h)))
        .collect();
    assert!(!common.is_empty(), "no frame hashed by both players");
    for (frame, mine, other) in common {
        assert_eq!(mine, other, "frame {frame}");
    }
}
