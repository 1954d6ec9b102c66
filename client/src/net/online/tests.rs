use super::*;
use crate::net::test_server::LocalServer;
use sevenbag_netplay::time::Instant;
use std::time::Duration;

use sevenbag_core::{Handling, Input, Seat};
use sevenbag_protocol::{EndReason, ErrorCode, RoomOptions};

use crate::input::KeyMap;
use crate::match_source::Peer;
use crate::net::online::reconnect::{SEAT_GONE, UNREACHABLE};

/// A scripted key pattern: shifts, rotations and a hard drop every 24 frames, varied by seat.
fn script(frame: u32, seat: Seat) -> Input {
    let phase = (frame + 7 * seat.index() as u32) % 24;
    match phase {
        0..=2 => Input::LEFT,
        6 if frame % 48 < 24 => Input::ROTATE_CW,
        9..=10 => Input::RIGHT,
        18 => Input::HARD_DROP,
        _ => Input::NONE,
    }
}

/// A server for these tests.
pub(super) fn server() -> LocalServer {
    LocalServer::start()
}

/// Stops `server` (its running matches keep their room logs), keeps `clients` ticking while it
/// is down for `down`, and starts it again on the same address over the same directory.
fn restart(server: &mut LocalServer, down: Duration, clients: &mut [&mut Online]) {
    server.stop().expect("stopped in time").expect("stopped");
    let back = Instant::now() + down;
    run(clients, down.as_secs() + 5, |_| Instant::now() >= back);
    server.start_again();
}

pub(super) fn connect(addr: &str, name: &str, request: Request) -> Online {
    Online::connect(
        addr,
        name,
        Handling::default(),
        KeyMap::guideline(),
        request,
    )
}

/// Polls `clients` (playing their frames with the script) until `done` or the timeout.
pub(super) fn run(
    clients: &mut [&mut Online],
    secs: u64,
    mut done: impl FnMut(&[&mut Online]) -> bool,
) {
    let deadline = Instant::now() + Duration::from_secs(secs);
    while !done(clients) {
        assert!(Instant::now() < deadline, "timed out: {clients:?}");
        for c in clients.iter_mut() {
            let now = Instant::now();
            c.tick(now, &mut |m, seat| script(m.frame().0, seat));
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

#[test]
fn the_round_trip_shown_leaves_out_the_time_a_slow_frame_kept_the_answer_waiting() {
    let server = server();
    let addr = server.addr().to_string();
    let mut alice = connect(&addr, "alice", Request::Create(RoomOptions::default()));
    run(&mut [&mut alice], 10, |c| c[0].code().is_some());
    // Frames of 150 ms: each pong waits up to that long in the channel before a poll reads
    // it. The measured round trip must be the network's (well under a millisecond on
    // loopback), not the frame's.
    let slow_frame = Duration::from_millis(150);
    let deadline = Instant::now() + Duration::from_secs(10);
    while alice.ping().is_none() {
        assert!(Instant::now() < deadline, "no pong came back: {alice:?}");
        std::thread::sleep(slow_frame);
        alice.poll(Instant::now());
    }
    // Two more pings (one a second), each answered while a frame sleeps.
    let more = Instant::now() + Duration::from_millis(2_200);
    while Instant::now() < more {
        std::thread::sleep(slow_frame);
        alice.poll(Instant::now());
    }
    let ping = alice.ping().expect("measured");
    assert!(
        ping < slow_frame / 3,
        "the round trip shown ({ping:?}) includes the frame's wait"
    );
}

#[test]
fn two_controllers_play_and_agree() {
    let server = server();
    let addr = server.addr().to_string();
    let mut alice = connect(&addr, "alice", Request::Create(RoomOptions::default()));
    run(&mut [&mut alice], 10, |c| c[0].code().is_some());
    assert_eq!(alice.seat(), Some(Seat::First));
    let code = alice.code().unwrap_or_default().to_owned();
    assert_eq!(code.len(), sevenbag_protocol::ROOM_CODE_LEN);
    let mut bob = connect(&addr, "bob", Request::Join(code.to_lowercase()));
    let mut watcher = connect(&addr, "eve", Request::Spectate(code.clone()));
    run(&mut [&mut alice, &mut bob, &mut watcher], 10, |c| {
        c.iter().all(|o| o.stage() == &Stage::InRoom) && c[0].seats()[1].is_some()
    });
    assert_eq!(bob.seat(), Some(Seat::Second));
    assert!(watcher.is_spectator());
    alice.ready();
    bob.ready();
    // A few hundred frames of scripted play, confirmed on both sides.
    run(&mut [&mut alice, &mut bob, &mut watcher], 30, |c| {
        c.iter()
            .all(|o| o.session().is_some_and(|s| s.confirmed().frame().0 >= 300))
    });
    assert!(alice.is_live() && bob.is_live());
    assert_eq!(alice.names(), ["alice".to_owned(), "bob".to_owned()]);
    let (a, b, w) = (
        alice
            .session()
            .map(|s| s.hashes().to_vec())
            .unwrap_or_default(),
        bob.session()
            .map(|s| s.hashes().to_vec())
            .unwrap_or_default(),
        watcher.session().map(|s| s.confirmed().state_hash()),
    );
    let n = a.len().min(b.len());
    assert!(n >= 4, "hashes every 60 frames: {a:?} {b:?}");
    assert_eq!(a[..n], b[..n], "both players' confirmed matches agree");
    assert!(w.is_some());
    assert!(
        alice.current().player(Seat::First).stats().pieces > 3,
        "the script placed pieces"
    );
    let status = alice.status();
    assert_eq!(status.peers[0], Peer::Local);
    assert_eq!(status.peers[1], Peer::Connected);
    assert!(status.online.is_some());
    // Bob leaves mid-match: alice is told, by the server, that she won by forfeit.
    bob.leave();
    run(&mut [&mut alice], 10, |c| c[0].outcome().is_some());
    let outcome = alice.outcome().cloned();
    let outcome = outcome.expect("an outcome");
    assert_eq!(
        (outcome.winner, outcome.reason),
        (Seat::First, EndReason::Forfeit)
    );
    // The server kept a replay: fetch it, save it, play it back and seek in it.
    let id = outcome.replay.expect("a replay id");
    alice.fetch_replay(&id);
    let mut fetched = None;
    run(&mut [&mut alice], 10, |c| {
        fetched = fetched.take().or_else(|| c[0].replay.clone());
        fetched.is_some()
    });
    let (got, bytes) = fetched.expect("replay bytes");
    assert_eq!(got, id);
    let tmp = tempfile::tempdir().expect("temp dir");
    let dir = tmp.path().to_path_buf();
    let path = crate::replay_files::save(&dir, &id, &bytes).expect("saved");
    let mut playback = crate::replay_files::load(&path)
        .and_then(crate::replay_files::ReplaySession::new)
        .expect("a playable replay");
    assert_eq!(
        playback.replay().names,
        ["alice".to_owned(), "bob".to_owned()]
    );
    playback.seek(240);
    let h240 = crate::match_source::MatchSource::current(&playback).state_hash();
    assert_eq!(
        Some(h240),
        a.iter().find(|(f, _)| *f == 240).map(|(_, h)| *h)
    );
    playback.seek(60);
    playback.seek(240);
    assert_eq!(
        crate::match_source::MatchSource::current(&playback).state_hash(),
        h240,
        "seeking back and forth"
    );
    drop(server);
}

/// A room of alice (seat 0) and bob (seat 1) with `options`, both ready and past confirmed
/// frame `frames`.
fn playing_pair(server: &LocalServer, options: RoomOptions, frames: u32) -> (Online, Online) {
    let addr = server.addr().to_string();
    let mut alice = connect(&addr, "alice", Request::Create(options));
    run(&mut [&mut alice], 10, |c| c[0].code().is_some());
    let code = alice.code().unwrap_or_default().to_owned();
    let mut bob = connect(&addr, "bob", Request::Join(code));
    run(&mut [&mut alice, &mut bob], 10, |c| {
        c.iter().all(|o| o.stage() == &Stage::InRoom) && c[0].seats()[1].is_some()
    });
    alice.ready();
    bob.ready();
    run(&mut [&mut alice, &mut bob], 30, |c| {
        c.iter().all(|o| {
            o.session()
                .is_some_and(|s| s.confirmed().frame().0 >= frames)
        })
    });
    (alice, bob)
}

/// Cuts `o`'s transport without a word, as a pulled cable would.
fn cut(o: &Online) {
    if let Some(net) = &o.net {
        net.abort();
    }
}

pub(super) fn confirmed(o: &Online) -> u32 {
    o.session().map_or(0, |s| s.confirmed().frame().0)
}

#[test]
fn a_dropped_player_reconnects_and_keeps_playing() {
    let server = server();
    let (mut alice, mut bob) = playing_pair(&server, RoomOptions::default(), 120);
    let matches = alice.matches_started();
    cut(&alice);
    // Alice notices, shows the banner, and bob sees her seat reconnecting.
    run(&mut [&mut alice, &mut bob], 10, |c| {
        c[0].reconnecting(Instant::now()).is_some()
    });
    assert!(alice.is_live(), "the match view stays up");
    assert_eq!(alice.stage(), &Stage::InRoom);
    run(&mut [&mut alice, &mut bob], 10, |c| {
        c[0].reconnect_attempts() >= 1
    });
    let secs = alice.reconnecting(Instant::now()).unwrap_or_default();
    assert!((1..=15).contains(&secs), "{secs} s left");
    // Back in, rebuilt from the match log, and playing on well past the cut.
    run(&mut [&mut alice, &mut bob], 20, |c| {
        c[0].reconnecting(Instant::now()).is_none()
    });
    assert_eq!(alice.stage(), &Stage::InRoom);
    assert!(alice.is_live() && bob.is_live());
    assert_eq!(
        alice.matches_started(),
        matches,
        "the same match, not a new one"
    );
    let target = confirmed(&bob).max(confirmed(&alice)) + 300;
    run(&mut [&mut alice, &mut bob], 30, |c| {
        c.iter().all(|o| confirmed(o) >= target)
    });
    // Bob was told both ways (a notice: the drop can be shorter than one of his frames).
    let told = bob.take_notices();
    assert!(
        told.iter().any(|n| n.starts_with("alice lost connection")),
        "{told:?}"
    );
    assert!(told.iter().any(|n| n == "alice is back."), "{told:?}");
    assert_eq!(bob.peers()[0], Peer::Connected);
    assert!(alice.take_notices().iter().any(|n| n == "Reconnected."));
    let (a, b) = (
        alice
            .session()
            .map(|s| s.hashes().to_vec())
            .unwrap_or_default(),
        bob.session()
            .map(|s| s.hashes().to_vec())
            .unwrap_or_default(),
    );
    let n = a.len().min(b.len());
    assert!(
        n * 60 >= target as usize - 60,
        "hashes up to the target: {a:?} {b:?}"
    );
    assert_eq!(a[..n], b[..n], "both players' confirmed matches agree");
    drop(server);
}

#[test]
fn a_dropped_spectator_rejoins_by_code_and_keeps_watching() {
    let server = server();
    let (mut alice, mut bob) = playing_pair(&server, RoomOptions::default(), 60);
    let code = alice.code().unwrap_or_default().to_owned();
    let addr = server.addr().to_string();
    let mut carol = connect(&addr, "carol", Request::Spectate(code));
    run(&mut [&mut alice, &mut bob, &mut carol], 20, |c| {
        confirmed(c[2]) >= 120
    });
    assert_eq!(carol.seat(), None);
    cut(&carol);
    run(&mut [&mut alice, &mut bob, &mut carol], 10, |c| {
        c[2].reconnect_attempts() >= 1
    });
    assert!(carol.is_live(), "the match view stays up");
    // Back, rebuilt from the match log it gets on joining, and watching well past the cut.
    let target = confirmed(&alice).max(confirmed(&carol)) + 180;
    run(&mut [&mut alice, &mut bob, &mut carol], 30, |c| {
        c[2].reconnecting(Instant::now()).is_none() && confirmed(c[2]) >= target
    });
    assert_eq!(carol.stage(), &Stage::InRoom);
    assert_eq!(carol.seat(), None, "still watching, not seated");
    let frames = confirmed(&carol).min(confirmed(&alice)) / 60 * 60;
    let hash = |o: &Online| {
        o.session()
            .and_then(|s| s.hashes().iter().find(|h| h.0 == frames).copied())
    };
    assert!(hash(&carol).is_some(), "carol confirmed frame {frames}");
    assert_eq!(
        hash(&carol),
        hash(&alice),
        "the watched match is the played one"
    );
    drop(server);
}

#[test]
fn a_player_who_cannot_reach_the_server_claims_no_result_of_its_own() {
    let server = server();
    let options = RoomOptions {
        reconnect_seconds: 2,
        ..RoomOptions::default()
    };
    let (mut alice, mut bob) = playing_pair(&server, options, 60);
    alice.reach_allowance = Duration::from_secs(4);
    // Every attempt goes to a port nobody listens on.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("free port");
    alice.url = server_url(&format!("127.0.0.1:{port}"));
    cut(&alice);
    let start = Instant::now();
    // Past the room's window alice still tries: the server, not the window, decides.
    run(&mut [&mut alice, &mut bob], 15, |c| {
        c[0].reconnect_window_passed(Instant::now()) && c[1].outcome().is_some()
    });
    assert!(alice.reconnecting(Instant::now()).is_some());
    assert_eq!(alice.stage(), &Stage::InRoom);
    run(&mut [&mut alice, &mut bob], 15, |c| {
        matches!(c[0].stage(), Stage::Failed(_))
    });
    assert_eq!(alice.stage(), &Stage::Failed(UNREACHABLE.to_owned()));
    assert!(!alice.is_live() && alice.reconnecting(Instant::now()).is_none());
    assert!(
        start.elapsed() >= Duration::from_millis(3900),
        "tried for the allowance"
    );
    let outcome = bob.outcome().cloned().expect("bob's outcome");
    assert_eq!(
        (outcome.winner, outcome.reason),
        (Seat::Second, EndReason::Forfeit)
    );
    drop(server);
}

#[test]
fn a_player_back_after_the_window_is_told_the_servers_verdict() {
    let server = server();
    let options = RoomOptions {
        reconnect_seconds: 2,
        ..RoomOptions::default()
    };
    let (mut alice, mut bob) = playing_pair(&server, options, 60);
    let real = alice.url.clone();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("free port");
    alice.url = server_url(&format!("127.0.0.1:{port}"));
    cut(&alice);
    // The window passes while alice cannot get through: the server forfeits her seat.
    run(&mut [&mut alice, &mut bob], 15, |c| {
        c[1].outcome().is_some()
    });
    assert!(alice.reconnecting(Instant::now()).is_some(), "still trying");
    // Her network is back: the server answers her token with its verdict.
    alice.url = real;
    run(&mut [&mut alice, &mut bob], 15, |c| {
        matches!(c[0].stage(), Stage::Failed(_))
    });
    assert_eq!(alice.outcome(), bob.outcome(), "one verdict, the server's");
    assert_eq!(
        alice.stage(),
        &Stage::Failed(
            "bob wins by forfeit: you were not back within the room's reconnect window.".to_owned()
        )
    );
    drop(server);
}

#[test]
fn a_restart_longer_than_the_reconnect_window_resumes_the_match_for_both_players() {
    let mut server = server();
    let options = RoomOptions {
        reconnect_seconds: 2,
        ..RoomOptions::default()
    };
    let (mut alice, mut bob) = playing_pair(&server, options, 120);
    let matches = alice.matches_started();
    // Down for twice the window: both players keep trying, and the restarted server, which
    // takes the match back with a fresh window, lets both in again.
    restart(
        &mut server,
        Duration::from_secs(4),
        &mut [&mut alice, &mut bob],
    );
    assert!(
        alice.reconnect_window_passed(Instant::now())
            && bob.reconnect_window_passed(Instant::now()),
        "the outage outlasted the room's window"
    );
    run(&mut [&mut alice, &mut bob], 30, |c| {
        c.iter()
            .all(|o| o.reconnecting(Instant::now()).is_none() && o.stage() == &Stage::InRoom)
    });
    assert!(alice.is_live() && bob.is_live(), "the same match goes on");
    assert_eq!(alice.matches_started(), matches);
    assert!(alice.outcome().is_none() && bob.outcome().is_none());
    let target = confirmed(&alice).max(confirmed(&bob)) + 180;
    run(&mut [&mut alice, &mut bob], 30, |c| {
        c.iter().all(|o| confirmed(o) >= target)
    });
    // It ends as the server says, the same for both.
    bob.leave();
    run(&mut [&mut alice], 10, |c| c[0].outcome().is_some());
    let outcome = alice.outcome().cloned().expect("alice's outcome");
    assert_eq!(
        (outcome.winner, outcome.reason),
        (Seat::First, EndReason::Forfeit)
    );
    drop(server);
}

#[test]
fn a_refused_resume_token_ends_the_reconnect_at_once() {
    let server = server();
    let (mut alice, mut bob) = playing_pair(&server, RoomOptions::default(), 60);
    if let Some(room) = alice.room.room_mut() {
        room.resume ^= 0x5A5A_5A5A;
    }
    cut(&alice);
    let start = Instant::now();
    run(&mut [&mut alice, &mut bob], 10, |c| {
        matches!(c[0].stage(), Stage::Failed(_))
    });
    assert_eq!(alice.stage(), &Stage::Failed(SEAT_GONE.to_owned()));
    assert!(!alice.is_live());
    assert!(
        start.elapsed() < Duration::from_secs(8),
        "well before the 15 s window"
    );
    drop(server);
}

#[test]
fn chat_reaches_the_room_and_a_muted_player_is_not_heard() {
    let server = server();
    let addr = server.addr().to_string();
    let mut alice = connect(&addr, "alice", Request::Create(RoomOptions::default()));
    run(&mut [&mut alice], 10, |c| c[0].code().is_some());
    let code = alice.code().unwrap_or_default().to_owned();
    let mut bob = connect(&addr, "bob", Request::Join(code));
    run(&mut [&mut alice, &mut bob], 10, |c| {
        c.iter().all(|o| o.stage() == &Stage::InRoom) && c[0].seats()[1].is_some()
    });
    alice.say("gl hf".into());
    run(&mut [&mut alice, &mut bob], 10, |c| {
        c.iter().all(|o| o.chat().last(1).count() == 1)
    });
    let heard = bob.chat().last(1).next().cloned().expect("a line");
    assert_eq!(
        (heard.from.as_str(), heard.seat, heard.text.as_str()),
        ("alice", Some(Seat::First), "gl hf")
    );
    bob.chat_mut().toggle_mute("alice");
    alice.say("ez".into());
    alice.say("still there?".into());
    run(&mut [&mut alice, &mut bob], 10, |c| {
        c[0].chat().last(3).count() == 3
    });
    bob.say("hi".into());
    run(&mut [&mut alice, &mut bob], 10, |c| {
        c[1].chat().last(9).count() == 1
    });
    let heard: Vec<String> = bob.chat().last(9).map(|l| l.text.clone()).collect();
    assert_eq!(heard, ["hi"], "alice is muted for bob");
    drop(server);
}

#[test]
fn a_clean_leave_does_not_reconnect() {
    let server = server();
    let (mut alice, mut bob) = playing_pair(&server, RoomOptions::default(), 30);
    alice.leave();
    run(&mut [&mut alice, &mut bob], 10, |c| {
        c[1].outcome().is_some()
    });
    assert!(alice.reconnecting(Instant::now()).is_none());
    assert!(!alice.is_live());
    drop(server);
}

#[test]
fn unreachable_server_is_a_readable_error() {
    // A port nobody listens on: bind one, then free it.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("free port");
    let mut o = connect(&format!("127.0.0.1:{port}"), "ana", Request::QuickMatch);
    run(&mut [&mut o], 15, |c| {
        matches!(c[0].stage(), Stage::Failed(_))
    });
    let Stage::Failed(msg) = o.stage() else {
        unreachable!()
    };
    assert!(
        msg.starts_with("Nothing answers at 127.0.0.1:") && !msg.contains("os error"),
        "{msg}"
    );
}

/// A loopback TCP relay to `to` whose connections the returned switch cuts all at once, as a
/// network that goes away would (its listener stays, so nothing reconnects through it here).
fn cuttable_relay(to: std::net::SocketAddr) -> (u16, impl Fn()) {
    use std::net::{Shutdown, TcpListener, TcpStream};
    use std::sync::{Arc, Mutex};
    let listener = TcpListener::bind("127.0.0.1:0").expect("relay port");
    let port = listener.local_addr().expect("relay address").port();
    let open: Arc<Mutex<Vec<TcpStream>>> = Arc::default();
    let kept = Arc::clone(&open);
    std::thread::spawn(move || {
        for near in listener.incoming().map_while(Result::ok) {
            let Ok(far) = TcpStream::connect(to) else {
                continue;
            };
            let pipe = |mut from: TcpStream, mut into: TcpStream| {
                std::thread::spawn(move || std::io::copy(&mut from, &mut into));
            };
            let (Ok(near2), Ok(far2)) = (near.try_clone(), far.try_clone()) else {
                continue;
            };
            kept.lock()
                .expect("relay list")
                .extend([near.try_clone(), far.try_clone()].into_iter().flatten());
            pipe(near, far2);
            pipe(far, near2);
        }
    });
    let cut = move || {
        for s in open.lock().expect("relay list").drain(..) {
            let _ = s.shutdown(Shutdown::Both);
        }
    };
    (port, cut)
}

#[test]
fn a_connection_dropped_in_a_room_says_the_connection_broke() {
    let server = server();
    let (port, cut_all) = cuttable_relay(server.addr());
    let mut o = connect(
        &format!("127.0.0.1:{port}"),
        "ana",
        Request::Create(RoomOptions::default()),
    );
    run(&mut [&mut o], 10, |c| c[0].stage() == &Stage::InRoom);
    cut_all();
    run(&mut [&mut o], 10, |c| {
        matches!(c[0].stage(), Stage::Failed(_))
    });
    assert_eq!(
        o.stage(),
        &Stage::Failed(
            "Disconnected from the server: the connection broke. Check your network and try again."
                .into()
        )
    );
    drop(server);
}

#[test]
fn wrong_room_code_is_a_readable_error() {
    let server = server();
    let mut o = connect(
        &server.addr().to_string(),
        "ana",
        Request::Join("QQQQQ".into()),
    );
    run(&mut [&mut o], 10, |c| {
        matches!(c[0].stage(), Stage::Failed(_))
    });
    assert_eq!(
        o.stage(),
        &Stage::Failed("No room has that code. Check it and try again.".into())
    );
}

#[test]
fn urls_and_errors_read_well() {
    assert_eq!(server_url("127.0.0.1:7878"), "ws://127.0.0.1:7878/");
    assert_eq!(server_url(" ws://h:1/ "), "ws://h:1/");
}

#[test]
fn connection_errors_say_what_happened_and_what_to_try() {
    let refused = reach_text(
        "ws://h:1/",
        "cannot connect: Connection refused (os error 111)",
    );
    assert_eq!(
        refused,
        "Nothing answers at h:1. Check the address and port, and that the server is running."
    );
    let bad = reach_text(
        "ws://a b:1/",
        "websocket: HTTP format error: invalid uri character",
    );
    assert!(bad.contains("is not a server address"), "{bad}");
    assert!(
        !bad.contains("os error") && !bad.contains("format error"),
        "{bad}"
    );
}

#[test]
fn an_address_without_a_port_uses_the_default_port_7878() {
    assert_eq!(
        server_url("play.example.org"),
        "ws://play.example.org:7878/"
    );
    assert_eq!(server_url("192.168.1.20"), "ws://192.168.1.20:7878/");
    assert_eq!(server_url("ws://h"), "ws://h:7878/");
    assert_eq!(server_url("wss://h/game"), "wss://h:7878/game");
    assert_eq!(server_url("[::1]"), "ws://[::1]:7878/");
    assert_eq!(server_url("::1"), "ws://[::1]:7878/");
    assert_eq!(server_url("[::1]:9000"), "ws://[::1]:9000/");
    assert_eq!(
        error_text(ErrorCode::Version, "server is version 2, you have 1"),
        "Version mismatch: server is version 2, you have 1."
    );
    assert_eq!(error_text(ErrorCode::RoomFull, ""), "That room is full.");
}

#[test]
fn a_reconnecting_count_runs_down_to_zero() {
    let online = Online::connect(
        "127.0.0.1:9",
        "me",
        Handling::default(),
        KeyMap::guideline(),
        Request::QuickMatch,
    );
    let heard = online.status_heard[1];
    let at = |s| heard + Duration::from_secs(s);
    assert_eq!(online.seconds_left(Seat::Second, 15, at(0)), 15);
    assert_eq!(online.seconds_left(Seat::Second, 15, at(4)), 11);
    assert_eq!(online.seconds_left(Seat::Second, 15, at(40)), 0);
}

/// A browser tab in the background runs no animation frames, so its controller is not ticked
/// at all (its socket's events wait in the page). On return it catches up with the match at
/// most [`sevenbag_netplay::MAX_CATCH_UP`] frames per rendered frame, its peer having stalled
/// at the prediction window meanwhile, and both confirm the same match: no reconnect, no desync.
#[test]
fn a_player_not_ticked_for_seconds_catches_up_in_bounded_steps_and_agrees() {
    let server = server();
    let (mut alice, mut bob) = playing_pair(&server, RoomOptions::default(), 60);
    let before = confirmed(&bob);
    // Alice's tab is hidden for two seconds: only bob runs (and stalls).
    let away = Instant::now();
    run(&mut [&mut bob], 10, |_| {
        away.elapsed() >= Duration::from_secs(2)
    });
    // Alice is back: every tick simulates at most MAX_CATCH_UP frames, and the match runs on
    // well past where it stood when she left.
    let target = before + 2 * 60 + 120;
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut most = 0;
    while confirmed(&alice) < target || confirmed(&bob) < target {
        assert!(Instant::now() < deadline, "no catch-up: {alice:?} {bob:?}");
        let now = Instant::now();
        let n = alice.tick(now, &mut |m, seat| script(m.frame().0, seat));
        most = most.max(n);
        bob.tick(now, &mut |m, seat| script(m.frame().0, seat));
        std::thread::sleep(Duration::from_millis(2));
    }
    assert!(
        most <= sevenbag_netplay::MAX_CATCH_UP,
        "{most} frames in one tick"
    );
    assert!(most > 1, "alice caught up several frames a tick ({most})");
    assert_eq!(alice.reconnect_attempts(), 0, "no reconnect was needed");
    assert_eq!(alice.stage(), &Stage::InRoom);
    let hashes = |o: &Online| o.session().map(|s| s.hashes().to_vec()).unwrap_or_default();
    let (a, b) = (hashes(&alice), hashes(&bob));
    let n = a.len().min(b.len());
    assert!(n > 0, "confirmed hashes on both sides");
    assert_eq!(a[..n], b[..n], "both players' confirmed matches agree");
    drop(server);
}

/// An automatic player that presses nothing.
struct Idle;

impl crate::match_source::AutoPlayer for Idle {
    fn next_for(&mut self, _view: crate::match_source::SeatView<'_>) -> Input {
        Input::NONE
    }
}

#[test]
fn an_automatic_player_declares_itself_and_shows_marked_as_a_bot() {
    let server = server();
    let addr = server.addr().to_string();
    let mut alice = connect(&addr, "alice", Request::Create(RoomOptions::default()));
    run(&mut [&mut alice], 10, |c| c[0].code().is_some());
    let code = alice.code().unwrap_or_default().to_owned();
    let mut bot = connect(&addr, "stacker", Request::Join(code)).with_auto(Box::new(Idle));
    run(&mut [&mut alice, &mut bot], 10, |c| {
        c.iter().all(|o| o.is_bot(1) && !o.is_bot(0))
    });
    assert_eq!(
        alice.names(),
        ["alice".to_owned(), "stacker [BOT]".to_owned()]
    );
    assert_eq!(alice.plain_names()[1], "stacker");
    bot.say("hello".into());
    run(&mut [&mut alice, &mut bot], 10, |c| {
        c[0].chat().last(1).count() == 1
    });
    let line = alice.chat().last(1).next().cloned().expect("a line");
    assert_eq!(
        (line.from.as_str(), line.text.as_str()),
        ("stacker [BOT]", "hello")
    );
}
