//! The session flow of `docs/PROTOCOL.md` against the real server over loopback WebSockets:
//! quick match, joins and their refusals, resume after a drop, forfeits, desync answers, pings,
//! and the connection limit. (Hostile clients and replays: `tests/tests/{hostile,replays}.rs`.)

use std::net::SocketAddr;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use sevenbag_core::{Handling, Seat};
use sevenbag_protocol::{
    ClientMessage, EndReason, ErrorCode, JoinRole, PROTOCOL_VERSION, RoomOptions, SeatStatus,
    ServerMessage,
};
use sevenbag_server::{Config, Limits, ServerHandle};
use tokio::net::TcpStream;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::Message;

const WAIT: Duration = Duration::from_secs(5);

struct Client {
    ws: WebSocketStream<TcpStream>,
}

impl Client {
    async fn connect(addr: SocketAddr) -> Client {
        let tcp = TcpStream::connect(addr).await.expect("connect");
        let (ws, _) = tokio_tungstenite::client_async(format!("ws://{addr}/"), tcp)
            .await
            .expect("handshake");
        Client { ws }
    }

    async fn hello(addr: SocketAddr, name: &str, resume: Option<u64>) -> Client {
        let mut c = Client::connect(addr).await;
        c.send(ClientMessage::Hello {
            version: PROTOCOL_VERSION,
            name: name.into(),
            handling: Handling::default(),
            resume,
        })
        .await;
        assert!(matches!(c.recv().await, ServerMessage::Welcome { .. }));
        c
    }

    async fn send(&mut self, m: ClientMessage) {
        let bytes = sevenbag_protocol::encode(&m).expect("encode");
        self.ws
            .send(Message::Binary(bytes.into()))
            .await
            .expect("send");
    }

    /// The next message, answering server pings; panics on close or after 5 s.
    async fn recv(&mut self) -> ServerMessage {
        for _ in 0..10_000 {
            let frame = tokio::time::timeout(WAIT, self.ws.next())
                .await
                .expect("a message within 5 s")
                .expect("connection open")
                .expect("no error");
            if let Message::Binary(b) = frame {
                let m = sevenbag_protocol::decode_server(&b).expect("decodes");
                if let ServerMessage::Ping { nonce } = m {
                    self.send(ClientMessage::Pong { nonce }).await;
                    continue;
                }
                return m;
            }
        }
        panic!("no message");
    }

    async fn until<T>(&mut self, mut pick: impl FnMut(&ServerMessage) -> Option<T>) -> T {
        for _ in 0..10_000 {
            let m = self.recv().await;
            if let Some(t) = pick(&m) {
                return t;
            }
        }
        panic!("message never came");
    }

    async fn error(&mut self) -> (ErrorCode, bool) {
        self.until(|m| match m {
            ServerMessage::Error { code, fatal, .. } => Some((*code, *fatal)),
            _ => None,
        })
        .await
    }

    /// Joined → (code, seat, resume).
    async fn joined(&mut self) -> (String, Option<Seat>, u64) {
        self.until(|m| match m {
            ServerMessage::Joined {
                code, seat, resume, ..
            } => Some((code.clone(), *seat, *resume)),
            _ => None,
        })
        .await
    }

    async fn match_start(&mut self) -> [String; 2] {
        self.until(|m| match m {
            ServerMessage::MatchStart { names, .. } => Some(names.clone()),
            _ => None,
        })
        .await
    }
}

fn config() -> Config {
    let dir = std::env::temp_dir().join(format!(
        "sevenbag-server-flow-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos())
    ));
    Config {
        replay_dir: dir,
        limits: Limits {
            close_grace: Duration::from_millis(300),
            ..Limits::default()
        },
        start_delay: Duration::from_millis(50),
        countdown_frames: Some(10),
        round_break_frames: Some(10),
        ..Config::default()
    }
}

async fn start(config: Config) -> (ServerHandle, std::path::PathBuf) {
    let dir = config.replay_dir.clone();
    (sevenbag_server::spawn(config).await.expect("server"), dir)
}

async fn stop(server: ServerHandle, dir: std::path::PathBuf) {
    tokio::time::timeout(Duration::from_secs(20), server.shutdown())
        .await
        .expect("shutdown in time")
        .expect("clean shutdown");
    let _ = std::fs::remove_dir_all(dir);
}

/// A room with two players, both ready, match started. Returns (a, b, code, tokens).
async fn started_match(
    addr: SocketAddr,
    options: RoomOptions,
) -> (Client, Client, String, [u64; 2]) {
    let mut a = Client::hello(addr, "ann", None).await;
    a.send(ClientMessage::CreateRoom { options }).await;
    let (code, seat, ra) = a.joined().await;
    assert_eq!(seat, Some(Seat::First));
    let mut b = Client::hello(addr, "ben", None).await;
    b.send(ClientMessage::JoinRoom {
        code: code.to_lowercase(),
        role: JoinRole::Player,
    })
    .await;
    let (_, seat, rb) = b.joined().await;
    assert_eq!(seat, Some(Seat::Second));
    a.send(ClientMessage::Ready).await;
    b.send(ClientMessage::Ready).await;
    assert_eq!(
        a.match_start().await,
        ["ann".to_string(), "ben".to_string()]
    );
    b.match_start().await;
    (a, b, code, [ra, rb])
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quick_match_pairs_two_waiting_players() {
    let (server, dir) = start(config()).await;
    let addr = server.addr();
    let mut a = Client::hello(addr, "first", None).await;
    a.send(ClientMessage::QuickMatch).await;
    // The server answers a connection's messages in order: once the ping is answered the first
    // player waits in the queue (else, on a loaded machine, the second could get there first).
    a.send(ClientMessage::Ping { nonce: 1 }).await;
    a.until(|m| match m {
        ServerMessage::Pong { nonce, .. } => Some(*nonce),
        _ => None,
    })
    .await;
    let mut b = Client::hello(addr, "second", None).await;
    b.send(ClientMessage::QuickMatch).await;
    // A quick match is a room of the general kind with two seats, the waiting player first.
    let seated = |m: &ServerMessage| match m {
        ServerMessage::BattleJoined { seat, options, .. } => Some((*seat, options.seats)),
        _ => None,
    };
    assert_eq!(a.until(seated).await, (Some(0), 2));
    assert_eq!(b.until(seated).await, (Some(1), 2));
    let battle_start = |m: &ServerMessage| match m {
        ServerMessage::BattleStart { names, .. } => Some(names.clone()),
        _ => None,
    };
    let names = a.until(battle_start).await;
    assert_eq!(names, ["first".to_string(), "second".to_string()]);
    b.until(battle_start).await;
    // The first player's connection knows its seat: its inputs are accepted and relayed.
    a.send(ClientMessage::BattleInputs {
        changes: vec![],
        targets: vec![],
        confirmed: 5,
    })
    .await;
    // Relayed on the WebSocket as the chained form: the first batch of seat 0, frames 0..5.
    let relayed = b
        .until(|m| match m {
            ServerMessage::BattleInputsChained { seats } => seats
                .0
                .first()
                .map(|e| (e.entry.seat, e.entry.base + e.entry.frames)),
            _ => None,
        })
        .await;
    assert_eq!(relayed, (0, 5));
    stop(server, dir).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refusals_are_polite_and_not_fatal() {
    let (server, dir) = start(config()).await;
    let addr = server.addr();
    let mut a = Client::hello(addr, "ann", Some(12345)).await;
    assert_eq!(a.error().await, (ErrorCode::BadResume, false));
    a.send(ClientMessage::JoinRoom {
        code: "QQQQQ".into(),
        role: JoinRole::Player,
    })
    .await;
    assert_eq!(a.error().await, (ErrorCode::NoSuchRoom, false));
    a.send(ClientMessage::CreateRoom {
        options: RoomOptions {
            first_to: 0,
            ..RoomOptions::default()
        },
    })
    .await;
    assert_eq!(a.error().await, (ErrorCode::BadMessage, false));
    a.send(ClientMessage::Ready).await;
    assert_eq!(a.error().await, (ErrorCode::BadMessage, false));

    let (_b, _c, code, _) = started_match(addr, RoomOptions::default()).await;
    a.send(ClientMessage::JoinRoom {
        code,
        role: JoinRole::Player,
    })
    .await;
    assert_eq!(a.error().await, (ErrorCode::RoomFull, false));
    a.send(ClientMessage::GetReplay { id: "nope".into() }).await;
    assert_eq!(a.error().await, (ErrorCode::NoSuchReplay, false));
    // Still connected and served.
    a.send(ClientMessage::Ping { nonce: 9 }).await;
    let nonce = a
        .until(|m| match m {
            ServerMessage::Pong { nonce, .. } => Some(*nonce),
            _ => None,
        })
        .await;
    assert_eq!(nonce, 9);
    stop(server, dir).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_player_resumes_then_forfeits_when_the_window_passes() {
    let (server, dir) = start(config()).await;
    let addr = server.addr();
    let options = RoomOptions {
        reconnect_seconds: 1,
        ..RoomOptions::default()
    };
    let (mut a, b, code, [_, token]) = started_match(addr, options).await;
    drop(b);
    let status = a
        .until(|m| match m {
            ServerMessage::SeatStatus { seat, status } => Some((*seat, *status)),
            _ => None,
        })
        .await;
    assert_eq!(
        status,
        (Seat::Second, SeatStatus::Reconnecting { seconds_left: 1 })
    );

    // Back with the token: Joined, then the match log.
    let mut b = Client::hello(addr, "ben again", Some(token)).await;
    let (again, seat, _) = b.joined().await;
    assert_eq!((again.as_str(), seat), (code.as_str(), Some(Seat::Second)));
    let names = b
        .until(|m| match m {
            ServerMessage::MatchLog { names, .. } => Some(names.clone()),
            _ => None,
        })
        .await;
    assert_eq!(names[1], "ben");
    let status = a
        .until(|m| match m {
            ServerMessage::SeatStatus { seat, status } => Some((*seat, *status)),
            _ => None,
        })
        .await;
    assert_eq!(status, (Seat::Second, SeatStatus::Connected));

    // Gone again, for good: after a second the seat is forfeited.
    drop(b);
    let over = a
        .until(|m| match m {
            ServerMessage::MatchOver {
                winner,
                reason,
                replay,
            } => Some((*winner, *reason, replay.clone())),
            _ => None,
        })
        .await;
    assert_eq!((over.0, over.1), (Seat::First, EndReason::Forfeit));
    let id = over.2.expect("a forfeit keeps its replay");
    let bytes = std::fs::read(dir.join(format!("{id}.sbrp"))).expect("replay file");
    let replay = sevenbag_protocol::replay_file::open_two_seats(&bytes).expect("decodes");
    sevenbag_protocol::verify(&replay).expect("a forfeit verifies");
    stop(server, dir).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn leaving_mid_match_forfeits_and_a_bad_hash_gets_desync() {
    let (server, dir) = start(config()).await;
    let addr = server.addr();
    let (mut a, mut b, _, _) = started_match(addr, RoomOptions::default()).await;
    // 60 idle frames each, then a wrong hash from Ann.
    for c in [&mut a, &mut b] {
        c.send(ClientMessage::Inputs {
            changes: vec![],
            confirmed: 60,
        })
        .await;
    }
    a.until(|m| {
        matches!(
            m,
            ServerMessage::Inputs {
                seat: Seat::Second,
                ..
            }
        )
        .then_some(())
    })
    .await;
    a.send(ClientMessage::StateHash { frame: 60, hash: 1 })
        .await;
    let (frame, yours) = a
        .until(|m| match m {
            ServerMessage::Desync {
                frame, your_hash, ..
            } => Some((*frame, *your_hash)),
            _ => None,
        })
        .await;
    assert_eq!((frame, yours), (60, 1));
    assert!(matches!(a.recv().await, ServerMessage::MatchLog { .. }));

    b.send(ClientMessage::LeaveRoom).await;
    let over = a
        .until(|m| match m {
            ServerMessage::MatchOver { winner, reason, .. } => Some((*winner, *reason)),
            _ => None,
        })
        .await;
    assert_eq!(over, (Seat::First, EndReason::Forfeit));
    stop(server, dir).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_over_the_limit_are_refused_with_server_full() {
    let (server, dir) = start(Config {
        limits: Limits {
            max_connections: 1,
            ..config().limits
        },
        ..config()
    })
    .await;
    let addr = server.addr();
    let _first = Client::hello(addr, "one", None).await;
    let mut second = Client::connect(addr).await;
    assert_eq!(second.error().await, (ErrorCode::ServerFull, true));
    stop(server, dir).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connected_player_who_stops_sending_inputs_forfeits() {
    let mut config = config();
    config.limits.max_frames_behind = 60;
    config.limits.max_silence = Duration::from_secs(1);
    let (server, dir) = start(config).await;
    let addr = server.addr();
    let (mut a, mut b, _, _) = started_match(addr, RoomOptions::default()).await;
    // Ann keeps confirming as the clock runs; Ben stays connected (answers pings) but sends no
    // inputs. About two seconds in, Ben is more than 60 frames behind the match clock.
    let started = tokio::time::Instant::now();
    let mut confirmed = 0u32;
    let over = loop {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "no forfeit within 10 s"
        );
        confirmed += 6;
        a.send(ClientMessage::Inputs {
            changes: vec![],
            confirmed,
        })
        .await;
        let next = tokio::time::timeout(Duration::from_millis(100), a.recv()).await;
        if let Ok(ServerMessage::MatchOver { winner, reason, .. }) = next {
            break (winner, reason);
        }
    };
    assert_eq!(over, (Seat::First, EndReason::Forfeit));
    let told = b
        .until(|m| match m {
            ServerMessage::Error { code, .. } => Some(*code),
            _ => None,
        })
        .await;
    assert_eq!(told, ErrorCode::Timeout);
    // The forfeited player sees the end too: who won, and why.
    let result = b
        .until(|m| match m {
            ServerMessage::MatchOver { winner, reason, .. } => Some((*winner, *reason)),
            _ => None,
        })
        .await;
    assert_eq!(result, (Seat::First, EndReason::Forfeit));
    stop(server, dir).await;
}

/// Ann keeps up with the clock; Ben keeps sending `Inputs` but confirms nothing new, like a
/// machine too busy to simulate. Plays Ann's side for `seconds` and returns what Ben was told
/// and how the match ended, if it did.
async fn behind_but_sending(
    limits: impl FnOnce(&mut Limits),
    seconds: u64,
) -> (Vec<(ErrorCode, String)>, Option<(Seat, EndReason)>) {
    let mut config = config();
    limits(&mut config.limits);
    let (server, dir) = start(config).await;
    let (mut a, mut b, _, _) = started_match(server.addr(), RoomOptions::default()).await;
    let started = tokio::time::Instant::now();
    let mut confirmed = 0u32;
    let mut told = Vec::new();
    let mut over = None;
    let mut ben_over = None;
    while started.elapsed() < Duration::from_secs(seconds) && over.is_none() {
        confirmed += 6;
        a.send(ClientMessage::Inputs {
            changes: vec![],
            confirmed,
        })
        .await;
        b.send(ClientMessage::Inputs {
            changes: vec![],
            confirmed: 0,
        })
        .await;
        // Ben hears the warnings; Ann hears the end (a forfeited seat is vacated at once).
        let deadline = tokio::time::Instant::now() + Duration::from_millis(50);
        while let Ok(m) = tokio::time::timeout_at(deadline, b.recv()).await {
            match m {
                ServerMessage::Error { code, message, .. } => told.push((code, message)),
                ServerMessage::MatchOver { winner, reason, .. } => {
                    ben_over = Some((winner, reason));
                }
                _ => {}
            }
        }
        let deadline = tokio::time::Instant::now() + Duration::from_millis(50);
        while let Ok(m) = tokio::time::timeout_at(deadline, a.recv()).await {
            if let ServerMessage::MatchOver { winner, reason, .. } = m {
                over = Some((winner, reason));
            }
        }
    }
    if over.is_some() && ben_over.is_none() {
        // The forfeited player hears the end too; what they were told comes before it.
        ben_over = Some(
            b.until(|m| match m {
                ServerMessage::Error { code, message, .. } => {
                    told.push((*code, message.clone()));
                    None
                }
                ServerMessage::MatchOver { winner, reason, .. } => Some((*winner, *reason)),
                _ => None,
            })
            .await,
        );
    }
    assert_eq!(ben_over, over, "Ben sees the same result as Ann");
    stop(server, dir).await;
    (told, over)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_behind_but_still_sending_is_warned_not_forfeited() {
    let (told, over) = behind_but_sending(
        |l| {
            l.max_frames_behind = 60;
            l.max_silence = Duration::from_secs(1);
            l.behind_warning_every = Duration::from_secs(1);
        },
        4,
    )
    .await;
    assert_eq!(over, None, "still sending: no forfeit ({told:?})");
    assert!(!told.is_empty(), "Ben is told he is behind");
    for (code, message) in &told {
        assert_eq!(*code, ErrorCode::Behind);
        assert!(message.contains("behind the match"), "{message}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_who_cannot_catch_up_forfeits_and_is_told_why() {
    let (told, over) = behind_but_sending(
        |l| {
            l.max_frames_behind = 30;
            l.max_silence = Duration::from_secs(30);
            l.max_frames_behind_sending = 120;
        },
        8,
    )
    .await;
    assert_eq!(over, Some((Seat::First, EndReason::Forfeit)));
    let (code, message) = told.last().expect("told why");
    assert_eq!(*code, ErrorCode::Behind);
    assert!(message.contains("could not catch up"), "{message}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_opponent_waiting_out_a_reconnect_window_is_not_taken_for_idle() {
    let mut config = config();
    config.limits.max_frames_behind = 30;
    let (server, dir) = start(config).await;
    let addr = server.addr();
    let options = RoomOptions {
        reconnect_seconds: 3,
        ..RoomOptions::default()
    };
    let (mut a, b, _, _) = started_match(addr, options).await;
    // Ann plays to frame 12 and stalls there (her window); Ben drops. The clock runs far past
    // 30 frames behind Ann, but Ben is away reconnecting, so only his window may decide.
    a.send(ClientMessage::Inputs {
        changes: vec![],
        confirmed: 12,
    })
    .await;
    drop(b);
    let over = a
        .until(|m| match m {
            ServerMessage::MatchOver { winner, reason, .. } => Some((*winner, *reason)),
            ServerMessage::Error { code, .. } => panic!("Ann was cut: {code:?}"),
            _ => None,
        })
        .await;
    assert_eq!(over, (Seat::First, EndReason::Forfeit));
    stop(server, dir).await;
}
