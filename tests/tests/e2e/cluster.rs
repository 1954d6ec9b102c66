//! Several server instances on one real Redis (and a real PostgreSQL): cross-instance quick
//! and ranked matches, room codes and spectating through another instance, a dead or forged
//! directory entry that never hangs a client, and ratings that survive restarting every
//! instance. The services are started by `sevenbag_tests::services`
//! (these tests skip when the binaries are missing: `sevenbag_tests::needs`).

use std::time::{Duration, Instant};

use anyhow::{Context, ensure};
use sevenbag_core::Seat;
use sevenbag_netplay::{BattleClient, HeadlessError};
use sevenbag_protocol::{ClientMessage, JoinRole, Profile, RoomOptions, ServerMessage};
use sevenbag_server::Config;
use sevenbag_tests::players::{connect, finished, is_no_such_room, match_config, play};
use sevenbag_tests::services::{Postgres, Redis};
use sevenbag_tests::{RawClient, scripted, sign_in, start_cluster_instance};
use tokio::net::TcpListener;

const LIMIT: Duration = Duration::from_secs(30);

/// Polls `check` every 50 ms until it holds (bounded): for state that lives in Redis.
async fn eventually(what: &str, mut check: impl FnMut() -> bool) -> anyhow::Result<()> {
    let start = Instant::now();
    while start.elapsed() < LIMIT {
        if check() {
            return Ok(());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    anyhow::bail!("{what}: not within {LIMIT:?}")
}

fn zcard(redis: &Redis, key: &str) -> i64 {
    redis
        .command(&["ZCARD", key])
        .ok()
        .and_then(|r| r.trim().strip_prefix(':')?.parse().ok())
        .unwrap_or(-1)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_instances_pair_a_quick_match_and_share_room_codes_and_spectating() -> anyhow::Result<()>
{
    let Some(redis) = Redis::start() else {
        return Ok(());
    };
    let ttl = Duration::from_secs(5);
    let mut a = start_cluster_instance(&redis, ttl, match_config(Duration::from_millis(300))).await;
    let mut b = start_cluster_instance(&redis, ttl, match_config(Duration::from_millis(300))).await;

    // Quick match: one player on each instance. Ann waits on A (A advertises her in Redis);
    // Ben asks B, which sends him to A, where they are paired.
    let mut ann = BattleClient::connect(&a.url(), "ann").await?;
    let waiting = tokio::spawn(async move {
        let seat = ann.quick_match(LIMIT).await;
        (ann, seat)
    });
    eventually("A advertises its waiting player", || {
        zcard(&redis, "sevenbag:quick") == 1
    })
    .await?;
    let mut ben = BattleClient::connect(&b.url(), "ben").await?;
    let ben_seat = ben.quick_match(LIMIT).await.context("ben is paired")?;
    let (ann, ann_seat) = waiting.await?;
    let ann_seat = ann_seat.context("ann is paired")?;
    assert_eq!(ben.url(), a.url().as_str(), "ben was redirected to A");
    assert!(ann_seat.is_some() && ben_seat.is_some() && ann_seat != ben_seat);
    assert_eq!(ann.room_code(), ben.room_code());
    let mut ann = ann;
    for c in [&mut ann, &mut ben] {
        c.wait_for_start(LIMIT).await.context("the match starts")?;
    }
    drop((ann, ben));
    eventually("the paired player's entry is withdrawn", || {
        zcard(&redis, "sevenbag:quick") == 0
    })
    .await?;

    // A room code made on A, joined and watched through B.
    let options = RoomOptions {
        first_to: 1,
        ..RoomOptions::default()
    };
    let mut cat = connect(&a.url(), "cat").await;
    let code = cat.create_room(options).await.context("room on A")?;
    let mut dan = connect(&b.url(), "dan").await;
    let mut eve = connect(&b.url(), "eve").await;
    // The code is in the directory before its creator hears it: joining at once works.
    let seat = dan.join_room(&code, JoinRole::Player).await?;
    assert_eq!(seat, Some(Seat::Second), "dan sits in A's room through B");
    assert_eq!(dan.url(), a.url().as_str());
    assert_eq!(
        eve.join_room(&code, JoinRole::Spectator).await?,
        None,
        "eve watches through B"
    );
    assert_eq!(eve.url(), a.url().as_str());
    cat.ready()?;
    dan.ready()?;
    let done = finished(vec![
        play(cat, Some(3), (2, 8), LIMIT),
        play(dan, Some(4), (2, 8), LIMIT),
        play(eve, None, (0, 0), LIMIT),
    ])
    .await;
    let winners: Vec<_> = done
        .iter()
        .map(|c| c.match_result().map(|r| r.winner))
        .collect();
    assert!(winners[0].is_some() && winners.iter().all(|w| *w == winners[0]));

    // A code nobody holds is still "no room", through either instance.
    let mut fay = connect(&b.url(), "fay").await;
    let err = fay.join_room("YYYYY", JoinRole::Player).await.unwrap_err();
    assert!(is_no_such_room(&err), "{err}");
    a.shutdown().await?;
    b.shutdown().await?;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dead_or_forged_directory_entry_never_hangs_a_client() -> anyhow::Result<()> {
    let Some(redis) = Redis::start() else {
        return Ok(());
    };
    let mut b = start_cluster_instance(
        &redis,
        Duration::from_secs(5),
        match_config(Duration::from_millis(300)),
    )
    .await;

    // What a killed instance leaves behind: its address (nothing listens there any more), a
    // room and a queue entry, with a TTL nobody refreshes.
    let dead = std::net::TcpListener::bind("127.0.0.1:0")?;
    let dead_url = format!("ws://{}/", dead.local_addr()?);
    drop(dead);
    redis.command(&["SET", "sevenbag:instance:dead", &dead_url, "PX", "2000"])?;
    redis.command(&["SET", "sevenbag:room:ACDEF", "dead", "PX", "2000"])?;
    redis.command(&["ZADD", "sevenbag:quick", "1", "dead"])?;

    // Before the TTL: B sends the client there, and the client fails at once, clearly.
    let mut gil = connect(&b.url(), "gil").await;
    let started = Instant::now();
    let err = gil.join_room("ACDEF", JoinRole::Player).await.unwrap_err();
    assert!(
        matches!(err, HeadlessError::Disconnected(_)),
        "a refused connection, not a hang: {err}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );

    // After the TTL the entry is gone: "no room", and quick match queues here.
    eventually("the dead instance's keys expire", || {
        redis
            .command(&["EXISTS", "sevenbag:instance:dead", "sevenbag:room:ACDEF"])
            .is_ok_and(|r| r.starts_with(":0"))
    })
    .await?;
    let mut hal = connect(&b.url(), "hal").await;
    let err = hal.join_room("ACDEF", JoinRole::Player).await.unwrap_err();
    assert!(is_no_such_room(&err), "{err}");
    let mut raw = RawClient::hello(b.addr(), "ivy").await?;
    raw.send(&ClientMessage::QuickMatch).await?;
    let quiet = raw.poll_event(Duration::from_millis(800)).await?;
    assert!(
        !matches!(
            quiet,
            Some(sevenbag_tests::Event::Message(
                ServerMessage::Redirect { .. }
            ))
        ),
        "not sent to a dead instance: {quiet:?}"
    );
    eventually("the dead entry is dropped from the queue", || {
        redis
            .command(&["ZSCORE", "sevenbag:quick", "dead"])
            .is_ok_and(|r| r.starts_with("$-1"))
    })
    .await?;

    // Forged entries: a URL that is not ws:// is ignored ("no room"); a live address that
    // never answers costs the client its connect timeout, then a clear error.
    redis.command(&[
        "SET",
        "sevenbag:instance:forged",
        "http://evil.example/",
        "PX",
        "60000",
    ])?;
    redis.command(&["SET", "sevenbag:room:CDEFG", "forged", "PX", "60000"])?;
    let err = hal.join_room("CDEFG", JoinRole::Player).await.unwrap_err();
    assert!(is_no_such_room(&err), "{err}");
    let tarpit = TcpListener::bind("127.0.0.1:0").await?;
    let tarpit_url = format!("ws://{}/", tarpit.local_addr()?);
    let _held = tokio::spawn(async move {
        // Accepts and never says a word.
        let mut held = Vec::new();
        while let Ok((s, _)) = tarpit.accept().await {
            held.push(s);
        }
    });
    redis.command(&[
        "SET",
        "sevenbag:instance:tarpit",
        &tarpit_url,
        "PX",
        "60000",
    ])?;
    redis.command(&["SET", "sevenbag:room:DEFGH", "tarpit", "PX", "60000"])?;
    let started = Instant::now();
    let mut jan = connect(&b.url(), "jan").await;
    let err = jan.join_room("DEFGH", JoinRole::Player).await.unwrap_err();
    assert!(
        started.elapsed() < LIMIT,
        "bounded: {:?} ({err})",
        started.elapsed()
    );
    // B itself still serves.
    let mut kim = connect(&b.url(), "kim").await;
    kim.create_room(RoomOptions::default()).await?;
    drop((gil, hal, jan, kim, raw));
    b.shutdown().await?;
    Ok(())
}

/// Connects to `addr` and registers (`register`) or identifies with key `n`.
async fn player(
    addr: std::net::SocketAddr,
    name: &str,
    n: u8,
    register: bool,
) -> anyhow::Result<(RawClient, Profile)> {
    let mut c = RawClient::hello(addr, name).await?;
    c.send(&sign_in(n, name, register)).await?;
    let p = c.profile_reply(LIMIT).await?;
    Ok((c, p))
}

/// Sends `RankedMatch`; returns the room seat, or the URL of a redirect.
async fn ranked(c: &mut RawClient) -> anyhow::Result<Result<u8, String>> {
    c.send(&ClientMessage::RankedMatch).await?;
    c.recv_until(LIMIT, |m| match m {
        ServerMessage::BattleJoined { seat: Some(s), .. } => Some(Ok(Ok(*s))),
        ServerMessage::Redirect { url } => Some(Ok(Err(url.clone()))),
        ServerMessage::Error { code, message, .. } => {
            Some(Err(anyhow::anyhow!("{code:?}: {message}")))
        }
        _ => None,
    })
    .await?
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ranked_players_on_two_instances_meet_and_postgres_keeps_ratings_across_restarts()
-> anyhow::Result<()> {
    let Some(redis) = Redis::start() else {
        return Ok(());
    };
    let Some(pg) = Postgres::start() else {
        return Ok(());
    };
    let config = || Config {
        postgres: Some(pg.url()),
        ranked_first_to: 1,
        ..sevenbag_tests::fast_config()
    };
    let ttl = Duration::from_secs(5);
    let mut a = start_cluster_instance(&redis, ttl, config()).await;
    let mut b = start_cluster_instance(&redis, ttl, config()).await;

    let (mut amy, _) = player(a.addr(), "amy", 1, true).await?;
    let (mut bob, _) = player(b.addr(), "bob", 2, true).await?;
    // Amy queues on A first; Bob's instance finds her older entry and sends him to A.
    amy.send(&ClientMessage::RankedMatch).await?;
    eventually("A advertises amy", || zcard(&redis, "sevenbag:ranked") == 1).await?;
    let url = ranked(&mut bob)
        .await?
        .err()
        .context("bob is redirected, not seated on B")?;
    assert_eq!(url, a.url());
    let (mut bob, _) = player(a.addr(), "bob", 2, false).await?;
    let bob_seat = ranked(&mut bob).await?.ok().context("bob seated on A")?;
    let amy_seat = amy
        .recv_until(LIMIT, |m| match m {
            ServerMessage::BattleJoined { seat, .. } => Some(*seat),
            _ => None,
        })
        .await?
        .context("amy seated")?;
    ensure!(amy_seat != bob_seat, "two seats");
    let x = scripted::play_battle(&mut amy, amy_seat, 6, LIMIT);
    let y = scripted::play_battle(&mut bob, bob_seat, 12, LIMIT);
    let (x, _) = tokio::try_join!(x, y)?;
    let winner_name = if x.winner == Some(x.seat) {
        "amy"
    } else {
        "bob"
    };
    drop((amy, bob));

    // Restart every instance (new ports, same Redis and database): the ratings are there.
    a.shutdown().await?;
    b.shutdown().await?;
    let mut a = start_cluster_instance(&redis, ttl, config()).await;
    let mut b = start_cluster_instance(&redis, ttl, config()).await;
    let (_, amy) = player(b.addr(), "amy", 1, false).await?;
    let (_, bob) = player(a.addr(), "bob", 2, false).await?;
    let (won, lost) = if winner_name == "amy" {
        (amy, bob)
    } else {
        (bob, amy)
    };
    assert_eq!(
        (won.rating, won.deviation, won.games, won.wins),
        (1662, 290, 1, 1)
    );
    assert_eq!(
        (lost.rating, lost.deviation, lost.games, lost.wins),
        (1338, 290, 1, 0)
    );
    a.shutdown().await?;
    b.shutdown().await?;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readyz_reports_redis_and_postgres_and_an_instance_serves_on_without_redis()
-> anyhow::Result<()> {
    let Some(redis) = Redis::start() else {
        return Ok(());
    };
    let Some(pg) = Postgres::start() else {
        return Ok(());
    };
    let config = Config {
        postgres: Some(pg.url()),
        ..match_config(Duration::from_millis(300))
    };
    let mut a = start_cluster_instance(&redis, Duration::from_secs(5), config).await;
    let (status, body) = sevenbag_tests::http::get(a.addr(), "/readyz").await?;
    assert_eq!((status, body.as_slice()), (200, b"ready\n".as_slice()));

    // Redis goes away: not ready (within the call timeout), yet rooms still work locally.
    drop(redis);
    let started = Instant::now();
    let (status, body) = sevenbag_tests::http::get(a.addr(), "/readyz").await?;
    assert_eq!(
        (status, String::from_utf8_lossy(&body).as_ref()),
        (503, "redis unavailable\n")
    );
    assert!(started.elapsed() < Duration::from_secs(10));
    let mut lee = connect(&a.url(), "lee").await;
    let code = lee.create_room(RoomOptions::default()).await?;
    let mut max = connect(&a.url(), "max").await;
    assert_eq!(
        max.join_room(&code, JoinRole::Player).await?,
        Some(Seat::Second)
    );
    // A code that is not here cannot be looked up: "no room", promptly.
    let mut ned = connect(&a.url(), "ned").await;
    let started = Instant::now();
    let err = ned.join_room("YYYYY", JoinRole::Player).await.unwrap_err();
    assert!(is_no_such_room(&err), "{err}");
    assert!(started.elapsed() < Duration::from_secs(10));

    // The database goes away: not ready.
    drop(pg);
    let (status, body) = sevenbag_tests::http::get(a.addr(), "/readyz").await?;
    assert_eq!(
        (status, String::from_utf8_lossy(&body).as_ref()),
        (503, "database unavailable\n")
    );
    drop((lee, max, ned));
    a.shutdown().await?;
    Ok(())
}
