//! End-to-end: a player of a room of several seats who comes back after its seat was played
//! out (the reconnect window passed) is told `SeatLost`, not fatal, and watches the match go
//! on; the others are not disturbed.

use std::time::Duration;

use sevenbag_core::{Battle, SeatInput};
use sevenbag_netplay::BattleClient;
use sevenbag_protocol::{BattleRoomOptions, ErrorCode, JoinRole};
use sevenbag_tests::players::match_config;

async fn connect(url: &str, name: &str) -> BattleClient {
    BattleClient::connect(url, name)
        .await
        .unwrap_or_else(|e| panic!("{name} connects: {e}"))
}

fn idle() -> impl FnMut(&Battle, usize) -> SeatInput + Send {
    |_: &Battle, _| SeatInput::NONE
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_late_return_is_told_its_seat_was_lost_and_watches_the_match() {
    let server = sevenbag_tests::start_server(match_config(Duration::from_millis(300))).await;
    let url = server.url();
    let mut options = BattleRoomOptions::ffa(4);
    options.room.first_to = 1;
    options.room.reconnect_seconds = 1;
    let mut host = connect(&url, "p0").await;
    let code = host.create(options).await.expect("create");
    let mut players = vec![host];
    for i in 1..4 {
        let mut p = connect(&url, &format!("p{i}")).await;
        p.join(&code, JoinRole::Player).await.expect("join");
        players.push(p);
    }
    for p in players.iter_mut() {
        p.ready().expect("ready");
    }
    for p in players.iter_mut() {
        p.wait_for_start(Duration::from_secs(5))
            .await
            .expect("starts");
    }
    let mut late = players.pop().expect("seat 3");
    // The others idle on (pieces fall by gravity: the match lasts well past the test).
    let others: Vec<_> = players
        .into_iter()
        .map(|mut p| {
            tokio::spawn(async move {
                p.play_for(&mut idle(), Duration::from_secs(9)).await;
                p
            })
        })
        .collect();
    late.play_for(&mut idle(), Duration::from_millis(800)).await;
    late.drop_connection();
    // Past the one-second window: the room plays the seat out.
    tokio::time::sleep(Duration::from_millis(2500)).await;
    late.reconnect()
        .await
        .expect("the connection is taken back");
    late.play_for(&mut idle(), Duration::from_secs(2)).await;
    let lost: Vec<_> = late
        .errors()
        .iter()
        .filter(|e| e.code == ErrorCode::SeatLost)
        .collect();
    assert_eq!(lost.len(), 1, "{:?}", late.errors());
    assert!(!lost[0].fatal);
    assert!(
        lost[0].message.contains("played out"),
        "{}",
        lost[0].message
    );
    assert!(
        late.errors().iter().all(|e| e.code != ErrorCode::BadResume),
        "{:?}",
        late.errors()
    );
    assert!(late.disconnect_reason().is_none(), "still connected");
    assert_eq!(late.seat(), None, "a spectator now");
    let session = late.session().expect("watching the running match");
    assert_eq!(session.local_seat(), None);
    assert!(session.frame() > 60, "the match is shown from its log");
    assert!(late.outcome().is_none(), "the match goes on");
    for t in others {
        let p = t.await.expect("task");
        assert!(
            p.disconnect_reason().is_none(),
            "{:?}",
            p.disconnect_reason()
        );
        assert!(p.errors().is_empty(), "{:?}", p.errors());
        assert!(p.session().is_some_and(|s| s.stats().desyncs == 0));
    }
}
