//! Quick play of several seats across a cluster: two server instances on one real Redis and
//! one real PostgreSQL. Players queue on either instance; the cluster gathers them on one,
//! where a single room starts with all of them, plays to the end and is stored once, with
//! every player's account; its code, asked at the other instance, leads there. Skips (one line) when redis-server or PostgreSQL is missing.

use std::time::{Duration, Instant};

use sevenbag_protocol::JoinRole;
use sevenbag_server::{Config, QuickBattleConfig};
use sevenbag_tests::ffa::{all_ready, connect, play_all, registered, writes_done};
use sevenbag_tests::http::recent_matches;
use sevenbag_tests::services::{Postgres, Redis};
use sevenbag_tests::{TestServer, start_cluster_instance};

const LIMIT: Duration = Duration::from_secs(20);

/// A cluster instance on a fresh loopback port whose quick play needs four players.
async fn instance(redis: &Redis, pg: &Postgres) -> TestServer {
    let config = Config {
        postgres: Some(pg.url()),
        quick_battle: QuickBattleConfig {
            needed: 4,
            countdown: Duration::from_millis(400),
            first_to: 1,
        },
        ..sevenbag_tests::players::match_config(Duration::from_millis(300))
    };
    start_cluster_instance(redis, Duration::from_secs(5), config).await
}

fn hlen(redis: &Redis, key: &str) -> i64 {
    redis
        .command(&["HLEN", key])
        .ok()
        .and_then(|r| r.trim().strip_prefix(':')?.parse().ok())
        .unwrap_or(-1)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_queued_on_two_instances_meet_in_one_room_stored_once() {
    let Some(redis) = Redis::start() else {
        return;
    };
    let Some(pg) = Postgres::start() else {
        return;
    };
    let a = instance(&redis, &pg).await;
    let b = instance(&redis, &pg).await;
    let names = ["ann", "ben", "cid", "dot"];
    let mut players = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let server = if i % 2 == 0 { &a } else { &b };
        players.push(registered(&server.url(), name, i as u8 + 1).await);
    }
    // Ann (A) and Ben (B) queue at once, before either instance has advertised anyone: both
    // may wait locally until the cluster moves one side over. Cid and Dot queue after.
    {
        let (first, rest) = players.split_at_mut(1);
        let (x, y) = tokio::join!(first[0].quick_play(), rest[0].quick_play());
        x.expect("ann queued");
        y.expect("ben queued");
    }
    for p in players.iter_mut().skip(2) {
        p.quick_play().await.expect("queued");
    }
    // Every client runs at once (a redirect is followed while its client runs).
    let tasks: Vec<_> = players
        .into_iter()
        .map(|mut p| {
            tokio::spawn(async move {
                let code = p.wait_for_room(LIMIT).await;
                (p, code)
            })
        })
        .collect();
    let mut players = Vec::new();
    let mut codes = Vec::new();
    for t in tasks {
        let (p, code) = t.await.expect("task");
        codes.push(code.expect("seated"));
        players.push(p);
    }
    assert!(codes.iter().all(|c| *c == codes[0]), "one room: {codes:?}");
    let host = players[0].url().to_owned();
    assert!(host == a.url() || host == b.url(), "{host}");
    assert!(players.iter().all(|p| p.url() == host), "all on one host");
    let mut seats: Vec<_> = players.iter().map(|p| p.seat().expect("a seat")).collect();
    seats.sort();
    assert_eq!(seats, [0, 1, 2, 3], "one room of four");
    let (other, host_server) = if host == a.url() { (&b, &a) } else { (&a, &b) };
    let start = Instant::now();
    while hlen(&redis, "sevenbag:ffa") != 0 {
        assert!(start.elapsed() < LIMIT, "the host withdraws its entry");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    all_ready(&mut players);
    let players = play_all(players, false).await;
    let outcome = players[0].outcome().cloned().expect("a result");
    assert_eq!(outcome.placements.len(), 4);
    assert!(outcome.replay.is_some(), "the host kept a replay");

    // The room's code works through the other instance too: a spectator asking there is sent
    // to the host.
    let mut eve = connect(&other.url(), "eve").await;
    let seat = eve
        .join(&codes[0], JoinRole::Spectator)
        .await
        .expect("watches");
    assert_eq!((seat, eve.url()), (None, host.as_str()));

    // Stored once, with every account, as either instance reads the shared database: a second
    // copy from either instance's writer would be written by now.
    for name in names {
        recent_matches(host_server.addr(), name, 1).await;
    }
    writes_done(a.addr(), "sentinel1", 8).await;
    writes_done(b.addr(), "sentinel2", 9).await;
    for (i, name) in names.iter().enumerate() {
        let rows = recent_matches(host_server.addr(), name, 1).await;
        let again = recent_matches(other.addr(), name, 1).await;
        assert_eq!((rows.len(), again.len()), (1, 1), "{name}: {again:?}");
        let row = &again[0];
        assert_eq!(row["seats"].as_u64(), Some(4), "{row}");
        let seat = usize::from(players[i].seat().expect("seated"));
        assert_eq!(
            row["place"],
            format!(
                "{} of 4",
                sevenbag_storage::ordinal(outcome.placements[seat])
            )
        );
        let listed = sevenbag_tests::http::players_of(row);
        for n in names {
            assert!(listed.contains(&(n.into(), true.into())), "{n}: {listed:?}");
        }
    }
}
