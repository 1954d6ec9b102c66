//! End-to-end test 6: the server's replays re-simulate to the recorded result and hashes; a
//! corrupted copy is reported as corrupted, never a panic; a shutdown mid-match still writes the
//! replay, unfinished and with no winner.

use std::time::Duration;

use anyhow::{Context, ensure};
use sevenbag_core::Seat;
use sevenbag_protocol::replay_file::open_two_seats;
use sevenbag_protocol::{
    ClientMessage, EndReason, JoinRole, ReplayError, RoomOptions, ServerMessage, verify,
};
use sevenbag_tests::{RawClient, fast_config, scripted, start_server};

const TIMEOUT: Duration = Duration::from_secs(20);
const PERIODS: [u32; 2] = [12, 6];

/// Two players in a room created with `options`, both ready.
async fn pair(
    addr: std::net::SocketAddr,
    options: RoomOptions,
) -> anyhow::Result<(RawClient, RawClient, String)> {
    let mut a = RawClient::hello(addr, "ann").await?;
    a.send(&ClientMessage::CreateRoom { options }).await?;
    let code = a
        .recv_until(TIMEOUT, |m| match m {
            ServerMessage::Joined { code, .. } => Some(code.clone()),
            _ => None,
        })
        .await?;
    let mut b = RawClient::hello(addr, "ben").await?;
    b.send(&ClientMessage::JoinRoom {
        code: code.clone(),
        role: JoinRole::Player,
    })
    .await?;
    a.send(&ClientMessage::Ready).await?;
    b.send(&ClientMessage::Ready).await?;
    Ok((a, b, code))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_match_replays_to_its_result() -> anyhow::Result<()> {
    let mut server = start_server(fast_config()).await;
    let addr = server.addr();
    let options = RoomOptions {
        first_to: 2,
        ..RoomOptions::default()
    };
    let (mut a, mut b, _) = pair(addr, options).await?;
    let (oa, ob) = tokio::try_join!(
        scripted::play(&mut a, Seat::First, PERIODS[0], TIMEOUT),
        scripted::play(&mut b, Seat::Second, PERIODS[1], TIMEOUT),
    )?;
    assert_eq!(
        oa.winner,
        Seat::First,
        "seat Second drops faster and tops out first"
    );
    assert_eq!(oa.reason, EndReason::TopOut);
    assert_eq!(oa.rounds, ob.rounds);
    let id = oa.replay.clone().context("MatchOver names a replay")?;

    // The file is in the replay directory under its id...
    let path = server.replay_dir().join(format!("{id}.sbrp"));
    let bytes = std::fs::read(&path).with_context(|| format!("{}", path.display()))?;
    // ...and GetReplay serves the same bytes.
    a.send(&ClientMessage::GetReplay { id: id.clone() }).await?;
    let served = a
        .recv_until(TIMEOUT, |m| match m {
            ServerMessage::Replay { bytes, .. } => Some(bytes.clone()),
            _ => None,
        })
        .await?;
    assert_eq!(served, bytes);

    // It is written in the one format of every match (version 2, seats: 2), and reads as the
    // two-seat match it was, re-simulating to what everyone was told.
    assert_eq!(
        bytes.get(4..6),
        Some(&2u16.to_le_bytes()[..]),
        "format version 2"
    );
    let replay = open_two_seats(&bytes)?;
    assert_eq!(replay.names, ["ann".to_string(), "ben".to_string()]);
    assert_eq!(replay.header, oa.header);
    let report = verify(&replay)?;
    assert_eq!(report.result.winner, Some(oa.winner));
    assert_eq!(report.result.reason, EndReason::TopOut);
    assert_eq!(report.rounds, oa.rounds);
    assert_eq!(
        report.rounds.len(),
        2,
        "first to 2, and the same loser each round"
    );
    assert!(report.hashes_checked > 0);
    assert_eq!(report.hashes_checked, replay.hashes.len());
    assert!(
        replay.summary().contains("ann won 2-0"),
        "{}",
        replay.summary()
    );

    // A flipped byte anywhere after the header is a checksum mismatch, never a panic.
    for at in [6, bytes.len() / 2, bytes.len() - 9, bytes.len() - 1] {
        let mut bad = bytes.clone();
        bad[at] ^= 0x01;
        let err = open_two_seats(&bad).expect_err("corrupted replay must not decode");
        ensure!(
            matches!(err, ReplayError::Checksum { .. }),
            "byte {at}: {err}"
        );
        ensure!(
            err.to_string().starts_with("corrupted: checksum mismatch"),
            "{err}"
        );
    }
    // A truncated file too.
    let err = open_two_seats(&bytes[..bytes.len() / 2]).expect_err("truncated");
    ensure!(err.to_string().starts_with("corrupted"), "{err}");

    // The list names it.
    a.send(&ClientMessage::ListReplays).await?;
    let list = a
        .recv_until(TIMEOUT, |m| match m {
            ServerMessage::Replays { list } => Some(list.clone()),
            _ => None,
        })
        .await?;
    assert_eq!(list.first().map(|(i, _)| i), Some(&id), "{list:?}");
    // The game's list says when, how long, the score and whether it was ranked.
    a.send(&ClientMessage::ListReplayInfo).await?;
    let info = a
        .recv_until(TIMEOUT, |m| match m {
            ServerMessage::ReplayList { list } => Some(list.clone()),
            _ => None,
        })
        .await?;
    let first = info.first().context("the match is listed")?;
    assert_eq!(first.id, id);
    assert_eq!(first.names, replay.names);
    assert_eq!(first.winner, Some(Seat::First));
    assert_eq!(first.score, [2, 0]);
    assert_eq!(first.frames, replay.result.frames);
    assert_eq!(first.created_unix, replay.created_unix);
    assert!(first.created_unix > 0);
    assert!(!first.ranked, "a room match is not ranked");

    // A missing one is a polite error.
    a.send(&ClientMessage::GetReplay {
        id: "../../../etc/passwd".into(),
    })
    .await?;
    let code = a
        .recv_until(TIMEOUT, |m| match m {
            ServerMessage::Error { code, fatal, .. } => Some((*code, *fatal)),
            _ => None,
        })
        .await?;
    assert_eq!(code, (sevenbag_protocol::ErrorCode::NoSuchReplay, false));

    // Rematch: Ready again starts a new match with a fresh seed.
    a.send(&ClientMessage::Ready).await?;
    b.send(&ClientMessage::Ready).await?;
    let seed = |m: &ServerMessage| match m {
        ServerMessage::MatchStart { header, .. } => Some(header.seed),
        _ => None,
    };
    let rematch = a.recv_until(TIMEOUT, seed).await?;
    assert_ne!(rematch, oa.header.seed);
    server.shutdown().await?;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_mid_match_tells_clients_and_keeps_an_unfinished_replay() -> anyhow::Result<()> {
    let mut server = start_server(fast_config()).await;
    let addr = server.addr();
    let (mut a, mut b, _) = pair(addr, RoomOptions::default()).await?;
    for c in [&mut a, &mut b] {
        c.recv_until(TIMEOUT, |m| {
            matches!(m, ServerMessage::MatchStart { .. }).then_some(())
        })
        .await?;
        // 40 idle frames each: the server simulates them.
        c.send(&ClientMessage::Inputs {
            changes: vec![],
            confirmed: 40,
        })
        .await?;
    }
    // Both batches are relayed (so the room has both) before shutdown is asked for.
    for (c, other) in [(&mut a, Seat::Second), (&mut b, Seat::First)] {
        c.recv_until(TIMEOUT, |m| {
            matches!(m, ServerMessage::Inputs { seat, .. } if *seat == other).then_some(())
        })
        .await?;
    }
    server.shutdown().await?;
    for c in [&mut a, &mut b] {
        let reason = c
            .recv_until(TIMEOUT, |m| match m {
                ServerMessage::Shutdown { reason } => Some(reason.clone()),
                _ => None,
            })
            .await?;
        assert!(!reason.is_empty());
    }
    let files = server.replay_files();
    assert_eq!(files.len(), 1, "{files:?}");
    let replay = open_two_seats(&std::fs::read(&files[0])?)?;
    assert_eq!(replay.result.winner, None);
    assert_eq!(replay.result.reason, EndReason::Shutdown);
    assert_eq!(replay.inputs[0].confirmed, 40);
    let report = verify(&replay)?;
    assert_eq!(report.frames, 40);
    Ok(())
}
