//! End-to-end: a player of a room of several seats who comes back after its seat was played
//! out (the reconnect window passed) is told `SeatLost`, not fatal, and watches the match go
//! on (or, once the match is over, hears its result); the others are not disturbed.

use std::time::Duration;

use sevenbag_netplay::{BattleClient, ServerError};
use sevenbag_protocol::ErrorCode;
use sevenbag_tests::ffa::{all_started, idle, options, play_all, seated};
use sevenbag_tests::players::match_config;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_late_return_is_told_its_seat_was_lost_and_watches_the_match() {
    let server = sevenbag_tests::start_server(match_config(Duration::from_millis(300))).await;
    let url = server.url();
    let mut options = options(4);
    options.room.reconnect_seconds = 1;
    let (mut players, _) = seated(&url, options, 4).await;
    all_started(&mut players).await;
    let mut late = players.pop().expect("seat 3");
    let mut watcher = players.remove(0);
    // The others idle on (pieces fall by gravity: the match lasts well past the test).
    let idle_on = |mut p: BattleClient, time: Duration| {
        tokio::spawn(async move {
            p.play_for(&mut idle(), time).await;
            p
        })
    };
    let mut others: Vec<_> = players
        .into_iter()
        .map(|p| idle_on(p, Duration::from_secs(9)))
        .collect();
    late.play_for(&mut idle(), Duration::from_millis(800)).await;
    late.drop_connection();
    // Past the one-second window the room plays the seat out: the room's state shows it empty.
    watcher
        .wait_for(Duration::from_secs(10), |c| {
            c.room().get(3).is_some_and(Option::is_none)
        })
        .await
        .expect("seat 3 played out");
    others.insert(0, idle_on(watcher, Duration::from_secs(6)));
    let lost = return_and_listen(&mut late, Duration::from_secs(2)).await;
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_return_after_the_match_ended_is_told_the_seat_was_lost_and_hears_the_result() {
    let server = sevenbag_tests::start_server(match_config(Duration::from_millis(300))).await;
    let url = server.url();
    let mut options = options(3);
    options.room.reconnect_seconds = 1;
    let (mut players, _) = seated(&url, options, 3).await;
    all_started(&mut players).await;
    let mut late = players.pop().expect("seat 2");
    late.play_for(&mut idle(), Duration::from_millis(500)).await;
    late.drop_connection();
    // The other two play to the end while it is away (its seat played out after the window).
    let players = play_all(players, false).await;
    let over = players[0].outcome().cloned().expect("the match ended");
    let lost = return_and_listen(&mut late, Duration::from_secs(1)).await;
    assert_eq!(lost.len(), 1, "{:?}", late.errors());
    assert!(
        lost[0].message.contains("match is over"),
        "{}",
        lost[0].message
    );
    assert_eq!(late.outcome(), Some(&over), "it hears how the match ended");
    assert_eq!(late.seat(), None, "a spectator of the room now");
    assert!(late.disconnect_reason().is_none(), "still connected");
}

/// Takes `late`'s connection back, listens for `listen`, and returns the `SeatLost` errors it
/// heard.
async fn return_and_listen(late: &mut BattleClient, listen: Duration) -> Vec<ServerError> {
    late.reconnect()
        .await
        .expect("the connection is taken back");
    late.play_for(&mut idle(), listen).await;
    late.errors()
        .iter()
        .filter(|e| e.code == ErrorCode::SeatLost)
        .cloned()
        .collect()
}
