//! Identities, ranked play, history and chat against the real server with a real SQLite file
//! in a temporary directory.

use std::time::Duration;

use anyhow::{Context, ensure};
use sevenbag_core::Seat;
use sevenbag_protocol::{
    BattleRoomOptions, ClientMessage, ErrorCode, JoinRole, Profile, RoomOptions, SeatStatus,
    ServerMessage,
};
use sevenbag_server::Config;
use sevenbag_tests::http::{get, get_json};
use sevenbag_tests::{
    RawClient, TempDir, TestServer, fast_config, player_key, scripted, start_server, temp_dir,
};

const LIMIT: Duration = Duration::from_secs(20);
/// Hard drop every 6 frames against every 12: seat 1 (the faster one) wins on the boards.
const PERIODS: [u32; 2] = [6, 12];

fn config(db: &TempDir) -> Config {
    Config {
        db: Some(db.path().join("sevenbag.db")),
        ranked_first_to: 1,
        ..fast_config()
    }
}

/// Connects and registers `name` with key `n`; returns the client and the recovery code.
async fn registered(server: &TestServer, name: &str, n: u8) -> anyhow::Result<(RawClient, String)> {
    let mut c = RawClient::hello(server.addr(), name).await?;
    c.send(&ClientMessage::Register {
        key: player_key(n),
        name: name.into(),
    })
    .await?;
    let code = c
        .recv_until(LIMIT, |m| match m {
            ServerMessage::Registered { recovery_code, .. } => Some(Ok(recovery_code.clone())),
            ServerMessage::Error { code, message, .. } => {
                Some(Err(anyhow::anyhow!("{code:?}: {message}")))
            }
            _ => None,
        })
        .await??;
    Ok((c, code))
}

/// Connects and identifies with key `n`.
async fn identified(server: &TestServer, n: u8) -> anyhow::Result<(RawClient, Profile)> {
    let mut c = RawClient::hello(server.addr(), "someone").await?;
    c.send(&ClientMessage::Identify { key: player_key(n) })
        .await?;
    let p = c.profile_reply(LIMIT).await?;
    Ok((c, p))
}

/// The room seat a ranked match gave (`BattleJoined`).
async fn joined_seat(c: &mut RawClient) -> anyhow::Result<Option<u8>> {
    c.recv_until(LIMIT, |m| match m {
        ServerMessage::BattleJoined { seat, options, .. } => {
            Some(Some(*seat).filter(|_| options.seats == 2).flatten())
        }
        _ => None,
    })
    .await
}

/// Both queue for ranked and are seated in one room of two seats; returns them ordered by
/// seat.
async fn ranked_pair(mut a: RawClient, mut b: RawClient) -> anyhow::Result<[RawClient; 2]> {
    a.send(&ClientMessage::RankedMatch).await?;
    b.send(&ClientMessage::RankedMatch).await?;
    let sa = joined_seat(&mut a).await?;
    let sb = joined_seat(&mut b).await?;
    ensure!(
        sa.is_some() && sb.is_some() && sa != sb,
        "two seats: {sa:?} {sb:?}"
    );
    Ok(if sa == Some(0) { [a, b] } else { [b, a] })
}

async fn play_out(first: &mut RawClient, second: &mut RawClient) -> anyhow::Result<Seat> {
    let a = scripted::play_battle(first, 0, PERIODS[0], LIMIT);
    let b = scripted::play_battle(second, 1, PERIODS[1], LIMIT);
    let (a, b) = tokio::try_join!(a, b)?;
    ensure!(a.winner == b.winner, "both saw one winner");
    a.winner.context("a ranked match has a winner")
}

/// alice and bob (keys 1 and 2) register and play a ranked match out: the winning seat, and
/// their connections, the winner's first.
async fn ranked_match_played(server: &TestServer) -> anyhow::Result<(Seat, [RawClient; 2])> {
    let (alice, _) = registered(server, "alice", 1).await?;
    let (bob, _) = registered(server, "bob", 2).await?;
    let [mut first, mut second] = ranked_pair(alice, bob).await?;
    let winner = play_out(&mut first, &mut second).await?;
    Ok(match winner {
        Seat::First => (winner, [first, second]),
        _ => (winner, [second, first]),
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ranked_match_moves_ratings_by_glicko2_and_a_restart_keeps_them() -> anyhow::Result<()> {
    let dir = temp_dir("ranked-restart");
    let mut server = start_server(config(&dir)).await;
    let (winner, [mut w, mut l]) = ranked_match_played(&server).await?;
    let won = w.profile_reply(LIMIT).await?;
    let lost = l.profile_reply(LIMIT).await?;
    // Glicko-2 for two new players (1500/350/0.06): the winner goes to 1662.3, the loser to
    // 1337.7, both deviations to 290.3.
    assert_eq!(
        (won.rating, won.deviation, won.games, won.wins),
        (1662, 290, 1, 1)
    );
    assert_eq!(
        (lost.rating, lost.deviation, lost.games, lost.wins),
        (1338, 290, 1, 0)
    );
    assert_eq!(won.place, Some(1));

    let (status, board) = get_json(server.addr(), "/api/leaderboard?limit=10").await?;
    assert_eq!(status, 200);
    assert_eq!(board[0]["name"], won.name.as_str());
    assert_eq!(board[0]["games"], 1);
    assert_eq!(board[0]["wins"], 1);
    assert!((board[0]["rating"].as_f64().context("rating")? - 1662.3).abs() < 0.1);
    assert!((board[1]["rd"].as_f64().context("rd")? - 290.3).abs() < 0.1);

    let (status, player) = get_json(server.addr(), &format!("/api/players/{}", won.name)).await?;
    assert_eq!(status, 200);
    let id = player["recent_matches"][0]["id"]
        .as_i64()
        .context("a match id")?;
    let (status, m) = get_json(server.addr(), &format!("/api/matches/{id}")).await?;
    assert_eq!(status, 200);
    assert_eq!(m["ranked"], true);
    assert_eq!(m["winner"], winner.index());
    assert!(
        m["players"][0]["stats"]["pieces"]
            .as_u64()
            .context("pieces")?
            > 0
    );
    assert!(m["players"][1]["stats"]["pps"].as_f64().context("pps")? > 0.0);
    let (status, replay) = get(server.addr(), &format!("/api/matches/{id}/replay")).await?;
    assert_eq!(status, 200);
    assert!(
        sevenbag_protocol::replay_file::open_two_seats(&replay).is_ok(),
        "a valid replay"
    );

    // The game's replay list marks the match ranked.
    w.send(&ClientMessage::ListReplayInfo).await?;
    let list = w
        .recv_until(LIMIT, |m| match m {
            ServerMessage::ReplayList { list } => Some(list.clone()),
            _ => None,
        })
        .await?;
    let listed = list.first().context("the ranked match is listed")?;
    assert!(listed.ranked, "{listed:?}");
    assert_eq!(listed.winner, Some(winner));

    drop((w, l));
    server.shutdown().await?;
    let server = start_server(config(&dir)).await;
    let (_c, again) = identified(&server, 1).await?;
    let before = if again.name == won.name { &won } else { &lost };
    assert_eq!(&again, before, "ratings, games and names survive a restart");
    let (status, _) = get_json(server.addr(), &format!("/api/matches/{id}")).await?;
    assert_eq!(status, 200, "history survives a restart");
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_game_reads_the_leaderboard_and_profiles_over_its_connection() -> anyhow::Result<()> {
    let dir = temp_dir("ranked-standings");
    let server = start_server(config(&dir)).await;
    let (_, [mut w, _l]) = ranked_match_played(&server).await?;
    let won = w.profile_reply(LIMIT).await?;

    let mut guest = RawClient::hello(server.addr(), "guest").await?;
    guest
        .send(&ClientMessage::GetLeaderboard { limit: 10 })
        .await?;
    let players = guest
        .recv_until(LIMIT, |m| match m {
            ServerMessage::Leaderboard { players } => Some(players.clone()),
            _ => None,
        })
        .await?;
    assert_eq!(players.len(), 2);
    assert_eq!(players[0], won, "the winner leads, with their place");

    let loser = &players[1].name;
    guest
        .send(&ClientMessage::GetProfile {
            name: loser.to_uppercase(),
        })
        .await?;
    let (profile, recent) = guest
        .recv_until(LIMIT, |m| match m {
            ServerMessage::PlayerProfile { profile, recent } => {
                Some((profile.clone(), recent.clone()))
            }
            _ => None,
        })
        .await?;
    assert_eq!(&profile.name, loser);
    assert_eq!(recent.len(), 1);
    let m = &recent[0];
    assert_eq!(
        (m.opponent.as_str(), m.won, m.score, m.ranked),
        (won.name.as_str(), Some(false), [0, 1], true)
    );
    assert_eq!(m.rating_change, Some(-162), "1500 to 1337.7");
    assert!(m.replay.is_some(), "the replay can be fetched");

    guest
        .send(&ClientMessage::GetProfile {
            name: "nobody".into(),
        })
        .await?;
    assert_eq!(guest.error_reply(LIMIT).await?, ErrorCode::NoSuchPlayer);
    guest
        .send(&ClientMessage::GetLeaderboard { limit: 0 })
        .await?;
    assert_eq!(guest.error_reply(LIMIT).await?, ErrorCode::BadMessage);
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn taken_names_and_unknown_keys_get_clear_errors() -> anyhow::Result<()> {
    let dir = temp_dir("ranked-names");
    let server = start_server(config(&dir)).await;
    let (_alice, code) = registered(&server, "Alice", 1).await?;
    let mut c = RawClient::hello(server.addr(), "mallory").await?;
    for (name, expected) in [
        ("Alice", ErrorCode::NameTaken),
        ("A1ICE", ErrorCode::NameTaken),
        ("al", ErrorCode::BadName),
        ("Zoë", ErrorCode::BadName),
    ] {
        c.send(&ClientMessage::Register {
            key: player_key(9),
            name: name.into(),
        })
        .await?;
        assert_eq!(c.error_reply(LIMIT).await?, expected, "{name}");
    }
    c.send(&ClientMessage::Identify {
        key: player_key(77),
    })
    .await?;
    assert_eq!(
        c.error_reply(LIMIT).await?,
        ErrorCode::UnknownKey,
        "a forged key"
    );
    c.send(&ClientMessage::RankedMatch).await?;
    assert_eq!(
        c.error_reply(LIMIT).await?,
        ErrorCode::NotIdentified,
        "guests are unranked"
    );
    c.send(&ClientMessage::Recover {
        code: "AAAAA-AAAAA-AAAAA-AAAAA".into(),
        key: player_key(9),
    })
    .await?;
    assert_eq!(
        c.error_reply(LIMIT).await?,
        ErrorCode::UnknownKey,
        "a wrong recovery code"
    );

    // The right code moves Alice to a new key; the old key stops working.
    c.send(&ClientMessage::Recover {
        code: code.to_lowercase(),
        key: player_key(9),
    })
    .await?;
    assert_eq!(c.profile_reply(LIMIT).await?.name, "Alice");
    c.send(&ClientMessage::Identify { key: player_key(1) })
        .await?;
    assert_eq!(
        c.error_reply(LIMIT).await?,
        ErrorCode::UnknownKey,
        "the old key"
    );
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unranked_rooms_and_spectators_change_no_rating() -> anyhow::Result<()> {
    let dir = temp_dir("ranked-unranked");
    let server = start_server(config(&dir)).await;
    let (mut alice, _) = registered(&server, "alice", 1).await?;
    let (mut bob, _) = registered(&server, "bob", 2).await?;
    let (mut eve, _) = registered(&server, "eve", 3).await?;
    let mut options = BattleRoomOptions::ffa(2);
    options.room.first_to = 1;
    alice
        .send(&ClientMessage::CreateBattleRoom { options })
        .await?;
    let code = alice
        .recv_until(LIMIT, |m| match m {
            ServerMessage::BattleJoined { code, .. } => Some(code.clone()),
            _ => None,
        })
        .await?;
    for (c, role) in [
        (&mut bob, JoinRole::Player),
        (&mut eve, JoinRole::Spectator),
    ] {
        c.send(&ClientMessage::JoinRoom {
            code: code.clone(),
            role,
        })
        .await?;
        joined_seat(c).await?;
    }
    alice.send(&ClientMessage::Ready).await?;
    bob.send(&ClientMessage::Ready).await?;
    play_out(&mut alice, &mut bob).await?;
    for n in 1..=3 {
        let (_c, p) = identified(&server, n).await?;
        assert_eq!(
            (p.rating, p.deviation, p.games),
            (1500, 350, 0),
            "{}",
            p.name
        );
    }
    let (_, board) = get_json(server.addr(), "/api/leaderboard").await?;
    assert_eq!(board, serde_json::json!([]), "nobody has a ranked game");
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn leaving_while_the_opponent_is_inside_the_reconnect_window_rates_nobody()
-> anyhow::Result<()> {
    let dir = temp_dir("ranked-window");
    let server = start_server(config(&dir)).await;
    let (alice, _) = registered(&server, "alice", 1).await?;
    let (bob, _) = registered(&server, "bob", 2).await?;
    let [first, mut second] = ranked_pair(alice, bob).await?;
    second
        .recv_until(LIMIT, |m| {
            matches!(m, ServerMessage::BattleStart { .. }).then_some(())
        })
        .await?;
    // The first player drops (their reconnect window starts); the second leaves at once.
    first.close().await;
    second
        .recv_until(LIMIT, |m| match m {
            ServerMessage::BattleRoomState { seats, .. } => seats[0]
                .as_ref()
                .is_some_and(|s| matches!(s.status, SeatStatus::Reconnecting { .. }))
                .then_some(()),
            _ => None,
        })
        .await?;
    second.send(&ClientMessage::LeaveRoom).await?;
    // Wait for the match's record (written with any rating change, in one transaction).
    let deadline = tokio::time::Instant::now() + LIMIT;
    let m = loop {
        let (status, m) = get_json(server.addr(), "/api/matches/1").await?;
        if status == 200 {
            break m;
        }
        ensure!(
            tokio::time::Instant::now() < deadline,
            "no match record: {status}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert_eq!(m["void"], true, "{m}");
    for n in 1..=2 {
        let (_c, p) = identified(&server, n).await?;
        assert_eq!((p.rating, p.games), (1500, 0), "{} is not rated", p.name);
    }
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_reaches_the_room_clean_and_floods_are_cut() -> anyhow::Result<()> {
    let server = start_server(fast_config()).await;
    let mut alice = RawClient::hello(server.addr(), "alice").await?;
    alice
        .send(&ClientMessage::CreateRoom {
            options: RoomOptions::default(),
        })
        .await?;
    let code = alice
        .recv_until(LIMIT, |m| match m {
            ServerMessage::Joined { code, .. } => Some(code.clone()),
            _ => None,
        })
        .await?;
    let mut eve = RawClient::hello(server.addr(), "eve").await?;
    eve.send(&ClientMessage::JoinRoom {
        code,
        role: JoinRole::Spectator,
    })
    .await?;
    eve.recv_until(LIMIT, |m| {
        matches!(m, ServerMessage::Joined { .. }).then_some(())
    })
    .await?;
    eve.send(&ClientMessage::Chat {
        text: "gl\u{7} hf\u{1b}".into(),
    })
    .await?;
    let line = alice
        .recv_until(LIMIT, |m| match m {
            ServerMessage::Chat { from, seat, text } => Some((from.clone(), *seat, text.clone())),
            _ => None,
        })
        .await?;
    assert_eq!(line, ("eve".to_string(), None, "gl hf".to_string()));
    // Bidi overrides and zero-width characters go; a line of nothing else is refused as empty.
    eve.send(&ClientMessage::Chat {
        text: "\u{202E}gg\u{200B} wp\u{FEFF}".into(),
    })
    .await?;
    let line = alice
        .recv_until(LIMIT, |m| match m {
            ServerMessage::Chat { text, .. } => Some(text.clone()),
            _ => None,
        })
        .await?;
    assert_eq!(line, "gg wp");
    eve.send(&ClientMessage::Chat {
        text: "\u{200B}\u{3164}\u{202E}\u{FEFF} \u{2800}".into(),
    })
    .await?;
    assert_eq!(
        eve.error_reply(LIMIT).await?,
        ErrorCode::BadMessage,
        "only invisible characters"
    );
    eve.send(&ClientMessage::Chat {
        text: "x".repeat(201),
    })
    .await?;
    assert_eq!(
        eve.error_reply(LIMIT).await?,
        ErrorCode::BadMessage,
        "too long"
    );

    // A flood: 20 lines at once. The burst (5, one already used) gets through, the rest is
    // refused, and the connection stays.
    for i in 0..20 {
        alice
            .send(&ClientMessage::Chat {
                text: format!("spam {i}"),
            })
            .await?;
    }
    let mut relayed = 0;
    let mut refused = 0;
    while let Ok(m) = eve.recv_within(Duration::from_millis(500)).await {
        if let ServerMessage::Chat { .. } = m {
            relayed += 1;
        }
    }
    while let Ok(m) = alice.recv_within(Duration::from_millis(200)).await {
        if let ServerMessage::Error {
            code: ErrorCode::RateLimited,
            fatal: false,
            ..
        } = m
        {
            refused += 1;
        }
    }
    assert!((4..=6).contains(&relayed), "{relayed} lines relayed");
    assert_eq!(relayed + refused, 20);
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_with_invisible_format_or_mixed_script_characters_are_refused_at_hello()
-> anyhow::Result<()> {
    let server = start_server(fast_config()).await;
    for (name, says) in [
        ("\u{430}dmin", "look-alike scripts"),
        ("Al\u{202E}ice", "U+202E"),
        ("Al\u{200B}ice", "U+200B"),
        ("\u{FEFF}Alice", "U+FEFF"),
        ("\u{3164}", "may not hold"),
        ("\u{200B}", "may not hold"),
    ] {
        let mut c = RawClient::connect(server.addr()).await?;
        c.send(&ClientMessage::Hello {
            version: sevenbag_protocol::PROTOCOL_VERSION,
            name: name.into(),
            handling: Default::default(),
            resume: None,
        })
        .await?;
        let (code, message, _) = c.expect_cut(LIMIT).await?;
        assert_eq!(code, ErrorCode::BadMessage, "{name:?}");
        assert!(message.contains(says), "{name:?}: {message}");
    }
    // Full-width letters are the same name in its normal form.
    let mut alice = RawClient::hello(server.addr(), "Ａｌｉｃｅ").await?;
    alice
        .send(&ClientMessage::CreateRoom {
            options: RoomOptions::default(),
        })
        .await?;
    let name = alice
        .recv_until(LIMIT, |m| match m {
            ServerMessage::RoomState { seats, .. } => {
                seats[0].as_ref().map(|seat| seat.name.clone())
            }
            _ => None,
        })
        .await?;
    assert_eq!(name, "Alice");
    Ok(())
}

#[tokio::test]
async fn a_corrupt_database_stops_the_server_with_a_clear_error() {
    let dir = temp_dir("ranked-corrupt");
    std::fs::write(dir.path().join("sevenbag.db"), vec![0x42; 4096]).expect("write");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let config = Config {
        replay_dir: dir.path().join("replays"),
        ..config(&dir)
    };
    std::fs::create_dir_all(&config.replay_dir).expect("replay dir");
    let err = sevenbag_server::run(listener, config, std::future::pending())
        .await
        .expect_err("a corrupt file is refused");
    let text = err.to_string();
    assert!(
        text.contains("corrupt") && text.contains("sevenbag.db"),
        "{text}"
    );
}

#[tokio::test]
async fn a_read_only_database_stops_the_server_with_a_clear_error() {
    let dir = temp_dir("ranked-readonly");
    // Made and migrated by a first start, then closed before it is locked down.
    let mut first = start_server(config(&dir)).await;
    first.shutdown().await.expect("clean shutdown");
    for file in std::fs::read_dir(dir.path()).expect("dir").flatten() {
        let mut perms = file.metadata().expect("meta").permissions();
        perms.set_readonly(true);
        std::fs::set_permissions(file.path(), perms).expect("chmod");
    }
    let db = dir.path().join("sevenbag.db");
    let config = Config {
        replay_dir: dir.path().join("replays"),
        ..config(&dir)
    };
    // The server runs on a thread of its own, and so do the threads it starts, without the
    // capabilities that let root write a read-only file: the permission bits hold for root
    // (as CI runs) as for any other user.
    let err = std::thread::spawn(move || {
        without_capabilities();
        assert!(
            std::fs::OpenOptions::new().write(true).open(&db).is_err(),
            "{} is still writable",
            db.display()
        );
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime");
        runtime.block_on(async {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
                .await
                .expect("bind");
            sevenbag_server::run(listener, config, std::future::pending()).await
        })
    })
    .join()
    .expect("the server's thread")
    .expect_err("a read-only file is refused");
    assert!(err.to_string().contains("read-only"), "{err}");
}

/// Clears the calling thread's effective capabilities (Linux keeps them per thread; threads it
/// starts inherit them): root loses CAP_DAC_OVERRIDE and so obeys permission bits. A user
/// without capabilities is unchanged.
#[cfg(target_os = "linux")]
fn without_capabilities() {
    caps::clear(None, caps::CapSet::Effective).expect("clear this thread's capabilities");
}

/// Elsewhere the tests run as an ordinary user, whom permission bits bind already.
#[cfg(not(target_os = "linux"))]
fn without_capabilities() {}
