//! Helpers of the free-for-all tests (`ffa.rs`, `ffa_desync.rs`, `ffa_return.rs`,
//! `ffa_queue.rs`, `ffa_hostile.rs`, `ffa_links.rs`, `ffa_history.rs`, `ffa_restart_accounts.rs`,
//! `cluster_ffa.rs`): headless [`BattleClient`]s connected (as guests or accounts), seated,
//! readied and played to the end on their own tasks (across a server restart too), a
//! client that lies once about a hash and plays until told, and the server's replay fetched and
//! verified.

use std::net::SocketAddr;
use std::time::Duration;

use sevenbag_core::{Battle, Input, Seat, SeatInput};
use sevenbag_netplay::{BattleClient, BattleSession};
use sevenbag_protocol::{
    AnyReplay, BattleReplay, BattleRoomOptions, ClientMessage, EndReason, JoinRole, read_any,
    verify_battle,
};

use crate::players::match_config;
use crate::{RawClient, TestServer, sign_in};

/// Longest a match of these tests may take.
pub const MATCH_TIMEOUT: Duration = Duration::from_secs(90);

/// Random keys: a hard drop every 8 to 23 frames, moves and turns between, and (with
/// `retarget`) a new target now and then, always another seat.
pub fn random_keys(seed: u64, retarget: bool) -> impl FnMut(&Battle, usize) -> SeatInput + Send {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move |n: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % n
    };
    let mut wait = 0u64;
    let mut target = None;
    move |battle: &Battle, me: usize| {
        let n = battle.seats();
        if retarget && (target.is_none() || next(90) == 0) {
            let pick = (me + 1 + next(n as u64 - 1) as usize) % n;
            target = Seat::new(pick);
        }
        let keys = if wait == 0 {
            wait = 8 + next(16);
            Input::HARD_DROP
        } else {
            wait -= 1;
            match next(10) {
                0 => Input::LEFT,
                1 => Input::RIGHT,
                2 => Input::ROTATE_CW,
                _ => Input::NONE,
            }
        };
        SeatInput { keys, target }
    }
}

/// No keys: pieces fall by gravity, so the match outlasts a test.
pub fn idle() -> impl FnMut(&Battle, usize) -> SeatInput + Send {
    |_: &Battle, _| SeatInput::NONE
}

/// A free-for-all room of `seats` seats, first to one round.
pub fn options(seats: u8) -> BattleRoomOptions {
    let mut o = BattleRoomOptions::ffa(seats);
    o.room.first_to = 1;
    o
}

/// A connected client called `name` (inputs as datagrams, the default).
pub async fn connect(url: &str, name: &str) -> BattleClient {
    connect_on(url, name, true).await
}

/// A connected client called `name`; `datagrams: false` keeps its inputs on the WebSocket.
pub async fn connect_on(url: &str, name: &str, datagrams: bool) -> BattleClient {
    BattleClient::connect_with(url, name, datagrams)
        .await
        .unwrap_or_else(|e| panic!("{name} connects: {e}"))
}

/// `name` connected with identity `n` (see [`crate::player_key`]), newly registered.
pub async fn registered(url: &str, name: &str, n: u8) -> BattleClient {
    signed_in(url, name, n, true).await
}

/// `name` connected with identity `n`: registered when `register`, else identified.
pub async fn signed_in(url: &str, name: &str, n: u8, register: bool) -> BattleClient {
    let mut c = connect(url, name).await;
    c.send(sign_in(n, name, register)).expect("send");
    c.wait_for(Duration::from_secs(10), |c| {
        c.profile().is_some() || !c.errors().is_empty()
    })
    .await
    .unwrap_or_else(|e| panic!("{name} signs in: {e}"));
    assert!(c.errors().is_empty(), "{name}: {:?}", c.errors());
    c
}

/// Returns once `addr`'s database writer has done every write queued before the call: it
/// queues one more behind them (registering `name` with identity `n`) and waits for its answer.
/// The writer works in order, so a match handed to it twice at its end is stored twice by then.
pub async fn writes_done(addr: SocketAddr, name: &str, n: u8) {
    let mut c = RawClient::hello(addr, name)
        .await
        .unwrap_or_else(|e| panic!("{name} connects: {e}"));
    c.send(&sign_in(n, name, true))
        .await
        .unwrap_or_else(|e| panic!("{name} registers: {e}"));
    c.profile_reply(Duration::from_secs(20))
        .await
        .unwrap_or_else(|e| panic!("{name} registered: {e}"));
}

/// `name` connected and waiting in the free-for-all queue.
pub async fn queued(url: &str, name: &str) -> BattleClient {
    let mut c = connect(url, name).await;
    c.quick_play().await.expect("queued");
    c
}

/// `n` players `p0`.. in a new room with `options` (player 0 creates it, the others join by
/// code, seated in order). Returns them and the room code.
pub async fn seated(
    url: &str,
    options: BattleRoomOptions,
    n: usize,
) -> (Vec<BattleClient>, String) {
    seated_on(url, options, n, |_| true).await
}

/// As [`seated`], with player `i` sending its inputs as datagrams when `datagrams(i)`, else on
/// the WebSocket.
pub async fn seated_on(
    url: &str,
    options: BattleRoomOptions,
    n: usize,
    datagrams: impl Fn(usize) -> bool,
) -> (Vec<BattleClient>, String) {
    let mut host = connect_on(url, "p0", datagrams(0)).await;
    let code = host.create(options).await.expect("create");
    let mut players = vec![host];
    for i in 1..n {
        let mut p = connect_on(url, &format!("p{i}"), datagrams(i)).await;
        let seat = p.join(&code, JoinRole::Player).await.expect("join");
        assert_eq!(seat, Some(i as u8));
        players.push(p);
    }
    (players, code)
}

/// Every player says it is ready.
pub fn all_ready(players: &mut [BattleClient]) {
    for p in players.iter_mut() {
        p.ready().expect("ready");
    }
}

/// Every player says it is ready and waits (up to 5 s each) for the match to begin.
pub async fn all_started(players: &mut [BattleClient]) {
    all_ready(players);
    for p in players.iter_mut() {
        p.wait_for_start(Duration::from_secs(5))
            .await
            .expect("starts");
    }
}

/// Plays each client to the end on its own task with [`random_keys`] (seeded `first_seed`,
/// `first_seed + 1`...); returns them in order.
pub async fn play_all_seeded(
    players: Vec<BattleClient>,
    first_seed: u64,
    retarget: bool,
) -> Vec<BattleClient> {
    let tasks = spawn_each(players, move |i, mut p| async move {
        let mut keys = random_keys(first_seed + i as u64, retarget);
        p.play(&mut keys, MATCH_TIMEOUT)
            .await
            .expect("plays to the end");
        p
    });
    joined(tasks).await
}

/// Plays each client to the end on its own task; returns them in order.
pub async fn play_all(players: Vec<BattleClient>, retarget: bool) -> Vec<BattleClient> {
    play_all_seeded(players, 1, retarget).await
}

/// Plays each client (in a started match) on its own task with [`random_keys`] (seeded
/// `first_seed`, `first_seed + 1`...) while `server` restarts 1.5 s in: each plays until the
/// server goes down, comes back with its resume token once it is up again (bounded), and plays
/// to the end. Returns them in order.
pub async fn play_across_restart(
    server: &mut TestServer,
    players: Vec<BattleClient>,
    first_seed: u64,
) -> Vec<BattleClient> {
    let tasks = spawn_each(players, move |i, mut p| async move {
        let mut keys = random_keys(first_seed + i as u64, false);
        p.play_for(&mut keys, Duration::from_secs(10)).await;
        let mut back = false;
        for _ in 0..100 {
            if p.reconnect().await.is_ok() {
                back = true;
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert!(back, "came back after the restart");
        p.play(&mut keys, MATCH_TIMEOUT)
            .await
            .expect("plays to the end");
        p
    });
    tokio::time::sleep(Duration::from_millis(1500)).await;
    server
        .restart(Duration::from_millis(300))
        .await
        .expect("the server restarts");
    joined(tasks).await
}

/// A room of `seats` seats starts a match, the server restarts under it and takes it up again
/// from its room log: every player hears the same top-out result and ends on the server's
/// hash, each having rebuilt its session at least once.
pub async fn plays_on_across_a_restart(seats: u8, first_seed: u64) {
    let mut server = crate::start_server(match_config(Duration::from_millis(300))).await;
    let url = server.url();
    let (mut players, _) = seated(&url, options(seats), usize::from(seats)).await;
    all_started(&mut players).await;
    let mut players = play_across_restart(&mut server, players, first_seed).await;
    let outcome = players[0].outcome().cloned().expect("a result");
    assert_eq!(outcome.reason, EndReason::TopOut);
    let (server_hash, _) = verified_replay(&mut players[0]).await;
    for p in &players {
        assert_eq!(p.outcome(), Some(&outcome));
        assert_eq!(final_hash(p), server_hash);
        assert!(p.session().is_some_and(|s| s.stats().rebuilds >= 1));
    }
}

/// Each client idles (no keys) for `time` on its own task; returns them in order.
pub async fn idle_all(players: Vec<BattleClient>, time: Duration) -> Vec<BattleClient> {
    let tasks = spawn_each(players, move |_, mut p| async move {
        p.play_for(&mut idle(), time).await;
        p
    });
    joined(tasks).await
}

/// A client that lies once on its own task, idle throughout: it plays until three hashes are
/// confirmed (so the server has simulated the first), sends the message `lie` makes of the
/// first confirmed `(frame, hash)` and its session, plays until told of a desync, then plays
/// on for `after` (rebuilt from the match log). Each wait is bounded; returns the client.
pub async fn lie_then_play_until_told(
    mut liar: BattleClient,
    lie: impl FnOnce(&BattleSession, u32, u64) -> ClientMessage + Send + 'static,
    after: Duration,
) -> BattleClient {
    let mut keys = idle();
    for _ in 0..100 {
        liar.play_for(&mut keys, Duration::from_millis(100)).await;
        if liar.session().is_some_and(|s| s.hashes().len() >= 3) {
            break;
        }
    }
    let session = liar.session().expect("a session");
    let (frame, hash) = session.hashes()[0];
    let message = lie(session, frame, hash);
    liar.send(message).expect("send");
    for _ in 0..50 {
        liar.play_for(&mut keys, Duration::from_millis(100)).await;
        if liar.session().is_some_and(|s| s.stats().desyncs > 0) {
            break;
        }
    }
    liar.play_for(&mut keys, after).await;
    liar
}

/// The clients the tasks return, in order.
/// Runs `run` for each client (with its index) on a task of its own.
fn spawn_each<F, Fut>(
    players: Vec<BattleClient>,
    run: F,
) -> Vec<tokio::task::JoinHandle<BattleClient>>
where
    F: Fn(usize, BattleClient) -> Fut,
    Fut: std::future::Future<Output = BattleClient> + Send + 'static,
{
    players
        .into_iter()
        .enumerate()
        .map(|(i, p)| tokio::spawn(run(i, p)))
        .collect()
}

async fn joined(tasks: Vec<tokio::task::JoinHandle<BattleClient>>) -> Vec<BattleClient> {
    let mut out = Vec::new();
    for t in tasks {
        out.push(t.await.expect("task"));
    }
    out
}

/// The final confirmed hash of a client whose match is decided.
pub fn final_hash(c: &BattleClient) -> u64 {
    let session = c.session().expect("a match was played");
    assert!(session.is_over(), "the confirmed match is decided");
    session.confirmed().state_hash()
}

/// Fetches the replay the server announced and re-simulates it: every recorded hash, round and
/// the result check out. Returns its final hash and the replay.
pub async fn verified_replay(client: &mut BattleClient) -> (u64, BattleReplay) {
    let id = client
        .outcome()
        .and_then(|o| o.replay.clone())
        .expect("the server kept a replay");
    let bytes = client.fetch_replay(&id).await.expect("replay bytes");
    let Ok(AnyReplay::Battle(replay)) = read_any(&bytes) else {
        panic!("a replay of format version 2");
    };
    let report = verify_battle(&replay).expect("the replay verifies");
    (report.final_hash, *replay)
}
