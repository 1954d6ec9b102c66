//! Solo records that cannot be faked: a finished Sprint or Blitz is submitted
//! as its solo replay file, the real server re-simulates it, keeps only the result it computed,
//! and lists each player's best on `/api/leaderboard/{sprint,blitz}`. Forged, edited, unfinished
//! and guest submissions are refused with `BadReplay` / `NotIdentified`, and the connection
//! carries on.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, ensure};
use sevenbag_core::player::TopOut;
use sevenbag_core::{Input, SoloEnd, SoloMode, SoloResult};
use sevenbag_protocol::{
    ClientMessage, ErrorCode, InputChange, ServerMessage, SoloReplay, SoloRow, key_script,
};
use sevenbag_server::Config;
use sevenbag_tests::http::get_json;
use sevenbag_tests::{RawClient, TempDir, TestServer, fast_config, start_server, temp_dir};

const LIMIT: Duration = Duration::from_secs(20);

/// The committed Sprint sample of the protocol crate (the core's scripted run, seed 7).
fn sample_sprint() -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../crates/protocol/tests/golden/solo_sprint_v1.sbso");
    std::fs::read(&path).expect("the committed solo Sprint sample")
}

fn config(db: &TempDir) -> Config {
    Config {
        db: Some(db.path().join("sevenbag.db")),
        ..fast_config()
    }
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

/// The server's answer to a submission: the result and place, or the error.
async fn submit(
    c: &mut RawClient,
    bytes: Vec<u8>,
) -> anyhow::Result<Result<(SoloResult, bool, u32), (ErrorCode, String, bool)>> {
    c.send(&ClientMessage::SubmitSolo { replay: bytes }).await?;
    c.recv_until(LIMIT, |m| match m {
        ServerMessage::SoloRecorded {
            result,
            personal_best,
            place,
        } => Some(Ok((*result, *personal_best, *place))),
        ServerMessage::Error {
            code,
            message,
            fatal,
        } => Some(Err((*code, message.clone(), *fatal))),
        _ => None,
    })
    .await
}

/// Submits `bytes` and expects a non-fatal refusal with `code`; returns its message.
async fn refused(c: &mut RawClient, bytes: Vec<u8>, code: ErrorCode) -> anyhow::Result<String> {
    match submit(c, bytes).await? {
        Ok(r) => anyhow::bail!("accepted: {r:?}"),
        Err((got, message, fatal)) => {
            println!("refused ({got:?}): {message}");
            ensure!(got == code, "{got:?} ({message}), expected {code:?}");
            ensure!(!fatal, "the refusal closed the connection: {message}");
            Ok(message)
        }
    }
}

/// The sample with `edit` applied, re-encoded (so its checksum is valid again).
fn edited(edit: impl FnOnce(&mut SoloReplay)) -> Vec<u8> {
    let mut replay = SoloReplay::decode(&sample_sprint()).expect("sample decodes");
    edit(&mut replay);
    replay.encode().expect("encode")
}

/// Plays a key script (the core's test data) on a fresh `mode` run, as the game records it.
fn recorded(mode: SoloMode, script: &str) -> SoloReplay {
    key_script::record(mode, script, "script")
        .expect("script")
        .expect("the run finished")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_real_sprint_is_re_simulated_recorded_and_listed_with_the_servers_result()
-> anyhow::Result<()> {
    let db = temp_dir("records-sprint");
    let mut server = start_server(config(&db)).await;
    let sample = SoloReplay::decode(&sample_sprint())?;
    let mut ann = registered(&server, "ann", 1).await?;
    let (result, best, place) = submit(&mut ann, sample_sprint())
        .await?
        .map_err(|e| anyhow::anyhow!("refused: {e:?}"))?;
    ensure!(result == sample.result, "the server's result is the run's");
    ensure!(result.end == SoloEnd::Cleared && result.lines >= 40);
    ensure!(best && place == 1, "first run: best {best}, place {place}");

    // The same run again is not a new best; the player keeps first place.
    let (_, best, place) = submit(&mut ann, sample_sprint())
        .await?
        .map_err(|e| anyhow::anyhow!("refused: {e:?}"))?;
    ensure!(!best && place == 1, "again: best {best}, place {place}");

    let (status, board) = get_json(server.addr(), "/api/leaderboard/sprint").await?;
    ensure!(status == 200, "status {status}: {board}");
    let rows = board.as_array().context("an array")?;
    ensure!(rows.len() == 1, "one row per player: {board}");
    let row = &rows[0];
    let seconds = (u64::from(result.frames) * 100 / 60) as f64 / 100.0;
    ensure!(row["place"] == 1 && row["name"] == "ann", "{row}");
    ensure!(
        row["result"].as_f64() == Some(seconds),
        "{row} vs {seconds}"
    );
    ensure!(row["frames"] == result.frames, "{row}");
    ensure!(
        row["lines"] == result.lines && row["pieces"] == result.pieces,
        "{row}"
    );
    ensure!(
        row["date"].as_str().is_some_and(|d| d.ends_with('Z')),
        "{row}"
    );

    let (status, blitz) = get_json(server.addr(), "/api/leaderboard/blitz").await?;
    ensure!(
        status == 200 && blitz == serde_json::json!([]),
        "{status} {blitz}"
    );
    for bad in ["?limit=0", "?limit=501", "?limit=x", "?other=1"] {
        let (status, body) =
            get_json(server.addr(), &format!("/api/leaderboard/sprint{bad}")).await?;
        ensure!(status == 400, "{bad}: {status} {body}");
    }
    server.shutdown().await?;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_blitz_is_recorded_by_score_best_first() -> anyhow::Result<()> {
    let db = temp_dir("records-blitz");
    let mut server = start_server(config(&db)).await;
    let run = recorded(
        SoloMode::Blitz,
        include_str!("../../../crates/core/tests/data/blitz.keys"),
    );
    let bytes = run.encode()?;
    ensure!(run.result.end == SoloEnd::TimeUp && run.result.score > 0);
    let mut bo = registered(&server, "bob", 2).await?;
    let (result, best, place) = submit(&mut bo, bytes)
        .await?
        .map_err(|e| anyhow::anyhow!("refused: {e:?}"))?;
    ensure!(result == run.result && best && place == 1);
    let (status, board) = get_json(server.addr(), "/api/leaderboard/blitz?limit=5").await?;
    ensure!(status == 200, "{status} {board}");
    ensure!(
        board[0]["name"] == "bob" && board[0]["result"] == run.result.score,
        "{board}"
    );
    server.shutdown().await?;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forged_edited_unfinished_guest_and_garbage_runs_are_refused() -> anyhow::Result<()> {
    let db = temp_dir("records-forged");
    let mut server = start_server(config(&db)).await;

    // A guest (no identity) cannot hold a record.
    let mut guest = RawClient::hello(server.addr(), "guest").await?;
    let m = refused(&mut guest, sample_sprint(), ErrorCode::NotIdentified).await?;
    ensure!(m.contains("identity"), "{m}");

    let mut cy = registered(&server, "cyd", 3).await?;
    // Inputs edited (and re-checksummed): only re-simulation can tell.
    let inputs_edited = edited(|r| {
        let c: &mut InputChange = r
            .inputs
            .changes
            .iter_mut()
            .find(|c| c.input.0 != 0)
            .expect("a key press");
        c.input = Input(c.input.0 ^ Input::LEFT.0 ^ Input::RIGHT.0);
    });
    SoloReplay::decode(&inputs_edited).context("the edited file is well-formed")?;
    let m = refused(&mut cy, inputs_edited, ErrorCode::BadReplay).await?;
    ensure!(m.contains("re-simulate"), "{m}");

    // A forged (faster) time.
    let forged = edited(|r| {
        r.result.frames -= 600;
        r.final_hash ^= 1;
    });
    let m = refused(&mut cy, forged, ErrorCode::BadReplay).await?;
    ensure!(m.contains("re-simulate") && m.contains("claims"), "{m}");

    // A forged score on the same time.
    let forged = edited(|r| r.result.score += 1_000);
    let m = refused(&mut cy, forged, ErrorCode::BadReplay).await?;
    ensure!(m.contains("claims"), "{m}");

    // The inputs stop before 40 lines (claiming the finished result).
    let unfinished = edited(|r| {
        let cut = r.inputs.confirmed / 2;
        r.inputs.changes.retain(|c| c.frame < cut);
        r.inputs.confirmed = cut;
        r.result.frames = r.result.frames.min(cut);
    });
    let m = refused(&mut cy, unfinished, ErrorCode::BadReplay).await?;
    ensure!(m.contains("end before the run does"), "{m}");

    // Honestly unfinished: a Sprint that topped out is not ranked.
    let topped = edited(|r| {
        r.result.end = SoloEnd::ToppedOut(TopOut::BlockOut);
        r.result.lines = 12;
    });
    let m = refused(&mut cy, topped, ErrorCode::BadReplay).await?;
    ensure!(m.contains("not ranked"), "{m}");

    // Changed rules and Zen are not ranked.
    let rules = edited(|r| r.header.rules.allow_180 = !r.header.rules.allow_180);
    let m = refused(&mut cy, rules, ErrorCode::BadReplay).await?;
    ensure!(m.contains("standard rules"), "{m}");

    // Garbage bytes, and a damaged checksum.
    let m = refused(
        &mut cy,
        b"not a replay at all".to_vec(),
        ErrorCode::BadReplay,
    )
    .await?;
    ensure!(m.contains("not a valid solo replay"), "{m}");
    let mut damaged = sample_sprint();
    let mid = damaged.len() / 2;
    damaged[mid] ^= 0x40;
    let m = refused(&mut cy, damaged, ErrorCode::BadReplay).await?;
    ensure!(m.contains("checksum"), "{m}");

    // The connection carried on: the real run is accepted on it, and only it is listed.
    let (_, best, place) = submit(&mut cy, sample_sprint())
        .await?
        .map_err(|e| anyhow::anyhow!("refused: {e:?}"))?;
    ensure!(best && place == 1);
    let (_, board) = get_json(server.addr(), "/api/leaderboard/sprint").await?;
    ensure!(
        board.as_array().map(Vec::len) == Some(1) && board[0]["name"] == "cyd",
        "{board}"
    );
    server.shutdown().await?;
    Ok(())
}

#[test]
fn a_two_minute_blitz_replay_fits_the_servers_message_limit_even_when_mashed() {
    let limit = sevenbag_server::Limits::default().max_message_bytes;
    let scripted = recorded(
        SoloMode::Blitz,
        include_str!("../../../crates/core/tests/data/blitz.keys"),
    );
    let bytes = scripted.encode().expect("encode");
    // Worst case: a key change on every frame of the run.
    let mut mashed = scripted.clone();
    mashed.inputs.changes = (0..mashed.inputs.confirmed)
        .map(|frame| InputChange {
            frame,
            input: Input(if frame % 2 == 0 { Input::LEFT.0 } else { 0 }),
        })
        .collect();
    let mashed = mashed.encode().expect("encode");
    let message = |replay: Vec<u8>| {
        sevenbag_protocol::encode(&ClientMessage::SubmitSolo { replay })
            .expect("encode")
            .len()
    };
    let (scripted_len, mashed_len) = (message(bytes), message(mashed));
    println!(
        "SubmitSolo of a 2-minute Blitz: scripted {scripted_len} bytes, a change every frame \
         {mashed_len} bytes, limit {limit}"
    );
    assert!(mashed_len < limit, "{mashed_len} >= {limit}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_without_a_database_keeps_no_records() -> anyhow::Result<()> {
    let mut server = start_server(fast_config()).await;
    let mut c = RawClient::hello(server.addr(), "ann").await?;
    let m = refused(&mut c, sample_sprint(), ErrorCode::Unavailable).await?;
    ensure!(m.contains("no database"), "{m}");
    let (status, body) = get_json(server.addr(), "/api/leaderboard/sprint").await?;
    ensure!(status == 503, "{status} {body}");
    server.shutdown().await?;
    Ok(())
}

/// The game's view of a solo board over its connection: `(rows, you)`, or the error.
async fn board(
    c: &mut RawClient,
    mode: SoloMode,
    limit: u32,
) -> anyhow::Result<Result<(Vec<SoloRow>, Option<SoloRow>), (ErrorCode, bool)>> {
    c.send(&ClientMessage::GetSoloLeaderboard { mode, limit })
        .await?;
    c.recv_until(LIMIT, |m| match m {
        ServerMessage::SoloLeaderboard { rows, you, .. } => Some(Ok((rows.clone(), you.clone()))),
        ServerMessage::Error { code, fatal, .. } => Some(Err((*code, *fatal))),
        _ => None,
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_game_reads_solo_boards_with_your_place_and_any_records_replay() -> anyhow::Result<()> {
    let db = temp_dir("records-game");
    let mut server = start_server(config(&db)).await;
    let sprint = |script: &str| recorded(SoloMode::Sprint, script).encode();
    let fast = sample_sprint();
    let slow = sprint(include_str!("../../../crates/core/tests/data/sprint.keys"))?;
    let mut ann = registered(&server, "ann", 1).await?;
    let mut bob = registered(&server, "bob", 2).await?;
    let (a, b) = (
        SoloReplay::decode(&fast)?.result,
        SoloReplay::decode(&slow)?.result,
    );
    let (ann_run, bob_run) = if a.frames <= b.frames {
        (fast, slow)
    } else {
        (slow, fast)
    };
    submit(&mut ann, ann_run.clone())
        .await?
        .map_err(|e| anyhow::anyhow!("refused: {e:?}"))?;
    submit(&mut bob, bob_run)
        .await?
        .map_err(|e| anyhow::anyhow!("refused: {e:?}"))?;

    // A guest sees the board, best first, and has no place of its own.
    let mut guest = RawClient::hello(server.addr(), "eve").await?;
    let (rows, you) = board(&mut guest, SoloMode::Sprint, 100)
        .await?
        .map_err(|e| anyhow::anyhow!("{e:?}"))?;
    let names: Vec<&str> = rows.iter().map(|r| r.name.as_str()).collect();
    ensure!(names == ["ann", "bob"], "{rows:?}");
    ensure!(rows[0].place == 1 && rows[0].frames <= rows[1].frames);
    ensure!(rows.iter().all(|r| r.recorded_unix > 0 && r.lines >= 40));
    ensure!(you.is_none(), "a guest has no place: {you:?}");
    // Bob, shown only the top row, still hears his own place.
    let (rows, you) = board(&mut bob, SoloMode::Sprint, 1)
        .await?
        .map_err(|e| anyhow::anyhow!("{e:?}"))?;
    ensure!(rows.len() == 1 && rows[0].name == "ann", "{rows:?}");
    let you = you.context("bob's own row")?;
    ensure!(you.name == "bob" && you.place == 2, "{you:?}");
    // Nobody has a Blitz yet.
    let (rows, you) = board(&mut ann, SoloMode::Blitz, 100)
        .await?
        .map_err(|e| anyhow::anyhow!("{e:?}"))?;
    ensure!(rows.is_empty() && you.is_none());
    // Out-of-range sizes and modes without a board are refused, and the connection carries on.
    for (mode, limit) in [
        (SoloMode::Sprint, 0),
        (SoloMode::Sprint, 101),
        (SoloMode::Zen, 10),
    ] {
        let refused = board(&mut guest, mode, limit).await?;
        ensure!(
            refused == Err((ErrorCode::BadMessage, false)),
            "{mode:?} {limit}: {refused:?}"
        );
    }

    // Any record's replay, one request: the file the server verified.
    guest
        .send(&ClientMessage::GetSoloReplay {
            mode: SoloMode::Sprint,
            name: "ann".into(),
        })
        .await?;
    let bytes = guest
        .recv_until(LIMIT, |m| match m {
            ServerMessage::SoloRecordReplay { bytes, .. } => Some(bytes.clone()),
            _ => None,
        })
        .await?;
    ensure!(bytes == ann_run, "ann's record file");
    for name in ["nobody", "ann\u{202e}"] {
        guest
            .send(&ClientMessage::GetSoloReplay {
                mode: SoloMode::Blitz,
                name: name.into(),
            })
            .await?;
        let code = guest.error_reply(LIMIT).await?;
        ensure!(
            matches!(code, ErrorCode::NoSuchReplay | ErrorCode::BadName),
            "{name}: {code:?}"
        );
    }
    server.shutdown().await?;
    Ok(())
}
