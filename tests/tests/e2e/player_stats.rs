//! End-to-end: `GET /api/players/NAME/stats` on the real server. On a database filled through
//! the storage (ranked, unranked and void matches, a free-for-all, solo runs) every key and
//! value of the answer, `?last=` and its refusals, an unknown player; then a ranked match
//! played and a real Sprint submitted through the server, read back as statistics; and the
//! same figures over the WebSocket (`GetPlayerStats`), as the game's profile reads them.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, ensure};
use serde_json::{Value, json};
use sevenbag_protocol::{ClientMessage, ErrorCode, MatchAverages, ServerMessage};
use sevenbag_server::Config;
use sevenbag_storage::fixtures::{battle, new_player, ranked, solo};
use sevenbag_storage::{Outcome, PlayerStats, Rating, SoloBoard, SqliteStorage, Storage};
use sevenbag_tests::http::get_json;
use sevenbag_tests::{RawClient, TestServer, fast_config, scripted, start_server, temp_dir};

const LIMIT: Duration = Duration::from_secs(20);

fn rated(r: f64) -> Rating {
    Rating {
        rating: r,
        deviation: 290.0,
        volatility: 0.06,
    }
}

fn seat_stats(pieces: u32, attack: u32, pps_x100: u32, apm_x100: u32) -> PlayerStats {
    PlayerStats {
        pieces,
        attack,
        frames: 600,
        pps_x100,
        apm_x100,
        vs_x100: apm_x100 + 500,
        ..PlayerStats::default()
    }
}

/// ann: two ranked wins over ben, an unranked loss, a free-for-all won; Sprint runs of 3000,
/// 3100 and 2700 frames, one Blitz of 50,000.
fn filled(path: &std::path::Path) {
    let s = SqliteStorage::open(path).expect("open");
    let ann = s.create_player(&new_player("ann", 1)).expect("ann");
    let ben = s.create_player(&new_player("ben", 2)).expect("ben");
    for (after, stats) in [
        ([1600.0, 1400.0], seat_stats(100, 40, 200, 4000)),
        ([1650.5, 1350.0], seat_stats(120, 50, 250, 5000)),
    ] {
        let mut m = ranked(&ann, &ben, [rated(after[0]), rated(after[1])]);
        m.seats[0].stats = stats;
        s.record_match(&m).expect("ranked");
    }
    let mut unranked = ranked(&ann, &ben, [rated(0.0), rated(0.0)]);
    unranked.ranked = false;
    unranked.outcome = Outcome::Won(1);
    for seat in &mut unranked.seats {
        (seat.before, seat.after) = (None, None);
    }
    unranked.seats[0].stats = seat_stats(80, 30, 150, 3000);
    s.record_match(&unranked).expect("unranked");
    s.record_battle(&battle(&[&ann, &ben], 2)).expect("battle");
    for (frames, at) in [
        (3000, 1_795_000_000),
        (3100, 1_795_000_100),
        (2700, 1_795_000_200),
    ] {
        s.record_solo(&solo(&ann, SoloBoard::Sprint, frames, 0, at))
            .expect("sprint");
    }
    s.record_solo(&solo(&ann, SoloBoard::Blitz, 7200, 50_000, 1_795_000_300))
        .expect("blitz");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_players_stats_answer_every_key_and_refuse_bad_parameters() -> anyhow::Result<()> {
    let dir = temp_dir("player-stats");
    let path = dir.path().join("sevenbag.db");
    filled(&path);
    let server = start_server(Config {
        db: Some(path),
        ..fast_config()
    })
    .await;
    let addr = server.addr();

    let (status, body) = get_json(addr, "/api/players/ann/stats").await?;
    assert_eq!(status, 200, "{body}");
    let keys: Vec<&str> = body
        .as_object()
        .context("an object")?
        .keys()
        .map(String::as_str)
        .collect();
    let mut expected = [
        "name",
        "bot",
        "last",
        "rating",
        "rating_history",
        "averages",
        "personal_bests",
        "pb_progression",
    ];
    expected.sort_unstable();
    let mut keys = keys;
    keys.sort_unstable();
    assert_eq!(keys, expected);
    assert_eq!(
        (&body["name"], &body["bot"], &body["last"]),
        (&json!("ann"), &json!(false), &json!(20))
    );
    // The rating the latest ranked match left, its deviation grown since 1970 by the decay.
    let rating = &body["rating"];
    assert_eq!(
        (&rating["rating"], &rating["games"], &rating["wins"]),
        (&json!(1650.5), &json!(2), &json!(2))
    );
    let rd = rating["rd"].as_f64().context("rd")?;
    assert!((290.0..=350.5).contains(&rd), "{rd}");
    let history = body["rating_history"].as_array().context("history")?;
    let ratings: Vec<f64> = history
        .iter()
        .filter_map(|p| p["rating"].as_f64())
        .collect();
    assert_eq!(ratings, [1600.0, 1650.5], "the ranked ones, oldest first");
    assert_eq!(history[0]["rd"], 290.0);
    assert_eq!(history[0]["ended_unix"], 110);
    assert_eq!(history[0]["date"], "1970-01-01T00:01:50Z");
    assert!(history[0]["match_id"].as_i64() < history[1]["match_id"].as_i64());
    // Four matches: the battle's seat has 50 pieces, 10 attack, no rates.
    assert_eq!(
        body["averages"],
        json!({
            "matches": 4, "wins": 3,
            "pps": 1.5, "apm": 30.0, "vs": 33.75,
            "attack": 32.5, "pieces": 87.5,
        })
    );
    assert_eq!(
        body["personal_bests"]["sprint"],
        json!({
            "result": 45.0, "place": 1, "frames": 2700, "score": 0, "lines": 40,
            "pieces": 100, "date": "2026-11-18T11:10:00Z", "recorded_unix": 1_795_000_200u64,
        })
    );
    assert_eq!(body["personal_bests"]["blitz"]["result"], 50_000);
    let sprints: Vec<(f64, u64)> = body["pb_progression"]["sprint"]
        .as_array()
        .context("sprint progression")?
        .iter()
        .filter_map(|r| Some((r["result"].as_f64()?, r["recorded_unix"].as_u64()?)))
        .collect();
    assert_eq!(sprints, [(50.0, 1_795_000_000), (45.0, 1_795_000_200)]);
    assert_eq!(
        body["pb_progression"]["blitz"][0]["date"],
        "2026-11-18T11:11:40Z"
    );

    // `?last=1`: the battle alone, and the latest ranked match.
    let (status, one) = get_json(addr, "/api/players/ANN/stats?last=1").await?;
    assert_eq!(status, 200);
    assert_eq!(
        (&one["averages"]["matches"], &one["averages"]["wins"]),
        (&json!(1), &json!(1))
    );
    assert_eq!(one["averages"]["pieces"], 50.0);
    assert_eq!(one["rating_history"].as_array().map(Vec::len), Some(1));
    assert_eq!(one["rating_history"][0]["rating"], 1650.5);

    // ben: no solo runs, so no bests and empty progressions.
    let (_, ben) = get_json(addr, "/api/players/ben/stats").await?;
    assert_eq!(
        ben["personal_bests"],
        json!({"sprint": null, "blitz": null})
    );
    assert_eq!(ben["pb_progression"], json!({"sprint": [], "blitz": []}));
    assert_eq!(ben["averages"]["wins"], 1);

    for bad in ["last=0", "last=201", "last=x", "last=-1", "limit=5"] {
        let (status, e) = get_json(addr, &format!("/api/players/ann/stats?{bad}")).await?;
        assert_eq!(status, 400, "{bad}");
        assert_eq!(
            e["error"], "last must be a whole number from 1 to 200",
            "{bad}"
        );
    }
    let (status, e) = get_json(addr, "/api/players/nobody/stats").await?;
    assert_eq!((status, &e["error"]), (404, &json!("no such player")));
    let (status, e) = get_json(addr, "/api/players/%ff%fe/stats").await?;
    assert_eq!(
        (status, &e["error"]),
        (400, &json!("not a valid player name"))
    );
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_game_reads_the_same_stats_over_the_websocket() -> anyhow::Result<()> {
    let dir = temp_dir("player-stats-ws");
    let path = dir.path().join("sevenbag.db");
    filled(&path);
    let server = start_server(Config {
        db: Some(path),
        ..fast_config()
    })
    .await;
    // A guest reads them, as the game's Profile screen does before any identity.
    let mut c = RawClient::hello(server.addr(), "guest").await?;
    let ask = |name: &str, last: u32| ClientMessage::GetPlayerStats {
        name: name.into(),
        last,
    };
    c.send(&ask("ANN", 20)).await?;
    let stats = c
        .recv_until(LIMIT, |m| match m {
            ServerMessage::PlayerStats { stats } => Some(stats.clone()),
            _ => None,
        })
        .await?;
    assert_eq!(stats.name, "ann");
    // The API's {"pps":1.5,"apm":30.0,"vs":33.75,"attack":32.5,"pieces":87.5}, in hundredths.
    assert_eq!(
        stats.averages,
        MatchAverages {
            matches: 4,
            wins: 3,
            pps_x100: 150,
            apm_x100: 3000,
            vs_x100: 3375,
            attack_x100: 3250,
            pieces_x100: 8750,
        }
    );
    let sprint: Vec<(u32, u64)> = stats
        .sprint
        .iter()
        .map(|r| (r.frames, r.recorded_unix))
        .collect();
    assert_eq!(sprint, [(3000, 1_795_000_000), (2700, 1_795_000_200)]);
    assert_eq!(
        stats.blitz.iter().map(|r| r.score).collect::<Vec<_>>(),
        [50_000]
    );

    for (request, expected) in [
        (ask("ann", 0), ErrorCode::BadMessage),
        (ask("ann", 201), ErrorCode::BadMessage),
        (ask("nobody", 20), ErrorCode::NoSuchPlayer),
    ] {
        c.send(&request).await?;
        let (code, fatal) = c
            .recv_until(LIMIT, |m| match m {
                ServerMessage::Error { code, fatal, .. } => Some((*code, *fatal)),
                _ => None,
            })
            .await?;
        assert_eq!((code, fatal), (expected, false), "{request:?}");
    }
    Ok(())
}

/// Connects and registers `name` with a key made of `n`.
async fn registered(server: &TestServer, name: &str, n: u8) -> anyhow::Result<RawClient> {
    let mut c = RawClient::hello(server.addr(), name).await?;
    c.send(&ClientMessage::Register {
        key: [n; 32],
        name: name.into(),
    })
    .await?;
    c.recv_until(LIMIT, |m| match m {
        ServerMessage::Registered { .. } => Some(Ok(())),
        ServerMessage::Error { code, message, .. } => {
            Some(Err(anyhow::anyhow!("{code:?}: {message}")))
        }
        _ => None,
    })
    .await??;
    Ok(c)
}

/// The room seat a ranked match gave (`BattleJoined`).
async fn seat_of(c: &mut RawClient) -> anyhow::Result<Option<u8>> {
    c.recv_until(LIMIT, |m| match m {
        ServerMessage::BattleJoined { seat, .. } => Some(*seat),
        _ => None,
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_played_ranked_match_and_a_submitted_sprint_show_in_the_stats() -> anyhow::Result<()> {
    let dir = temp_dir("player-stats-played");
    let server = start_server(Config {
        db: Some(dir.path().join("sevenbag.db")),
        ranked_first_to: 1,
        ..fast_config()
    })
    .await;
    let mut alice = registered(&server, "alice", 1).await?;
    let mut bob = registered(&server, "bob", 2).await?;
    alice.send(&ClientMessage::RankedMatch).await?;
    bob.send(&ClientMessage::RankedMatch).await?;
    let (sa, sb) = (seat_of(&mut alice).await?, seat_of(&mut bob).await?);
    let (Some(sa), Some(sb)) = (sa, sb) else {
        anyhow::bail!("two seats: {sa:?} {sb:?}");
    };
    ensure!(sa != sb, "two seats: {sa} {sb}");
    // Hard drop every 6 frames against every 12: the boards decide a winner.
    let (a, b) = tokio::try_join!(
        scripted::play_battle(&mut alice, sa, 6, LIMIT),
        scripted::play_battle(&mut bob, sb, 12, LIMIT),
    )?;
    ensure!(a.winner == b.winner, "both saw one winner");
    let (mut winner, mut loser) = if a.winner == Some(a.seat) {
        (alice, bob)
    } else {
        (bob, alice)
    };
    let won = winner.profile_reply(LIMIT).await?;
    loser.profile_reply(LIMIT).await?;

    let sprint = std::fs::read(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../crates/protocol/tests/golden/solo_sprint_v1.sbso"),
    )?;
    winner
        .send(&ClientMessage::SubmitSolo { replay: sprint })
        .await?;
    let frames = winner
        .recv_until(LIMIT, |m| match m {
            ServerMessage::SoloRecorded { result, .. } => Some(Ok(result.frames)),
            ServerMessage::Error { message, .. } => Some(Err(anyhow::anyhow!("{message}"))),
            _ => None,
        })
        .await??;

    let (status, body) =
        get_json(server.addr(), &format!("/api/players/{}/stats", won.name)).await?;
    assert_eq!(status, 200, "{body}");
    let (_, player) = get_json(server.addr(), &format!("/api/players/{}", won.name)).await?;
    let m = &player["recent_matches"][0];
    let me = m["players"]
        .as_array()
        .context("players")?
        .iter()
        .find(|p| p["name"] == won.name.as_str())
        .context("the winner's seat")?;
    // One match: the averages are that match's own figures, the history its rating after.
    let avg = &body["averages"];
    assert_eq!((&avg["matches"], &avg["wins"]), (&json!(1), &json!(1)));
    for (key, stat) in [
        ("pps", "pps"),
        ("apm", "apm"),
        ("vs", "vs"),
        ("attack", "attack"),
    ] {
        let got = avg[key].as_f64().context("an average")?;
        let want = me["stats"][stat].as_f64().context("a stat")?;
        assert!((got - want).abs() < 0.005, "{key}: {got} against {want}");
    }
    assert!(avg["pps"].as_f64() > Some(0.0));
    assert_eq!(body["rating_history"].as_array().map(Vec::len), Some(1));
    assert_eq!(body["rating_history"][0]["match_id"], m["id"]);
    assert_eq!(body["rating_history"][0]["rating"], me["after"]["rating"]);
    assert_eq!(body["rating"]["rating"], player["rating"]);
    assert_eq!(
        (&body["rating"]["games"], &body["rating"]["wins"]),
        (&json!(1), &json!(1))
    );
    let best = &body["personal_bests"]["sprint"];
    assert_eq!(
        (&best["frames"], &best["place"]),
        (&json!(frames), &json!(1))
    );
    let runs: &Vec<Value> = body["pb_progression"]["sprint"]
        .as_array()
        .context("runs")?;
    assert_eq!(runs.len(), 1);
    assert_eq!(runs[0]["frames"], frames);
    assert!(body["personal_bests"]["blitz"].is_null());
    Ok(())
}
