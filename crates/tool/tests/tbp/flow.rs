//! What a TBP bot is told, recorded on its side of the pipe: `tee` writes every line the
//! frontend sends to a file before our own TBP bot (standing in for any outside bot) reads it.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use sevenbag_bot::{BOT_HANDLING, Bot, Driver, Level};
use sevenbag_core::{Match, MatchHeader, Seat};
use sevenbag_tbp::messages::{FrontendMessage, parse_line};
use sevenbag_tbp::{Restart, TbpLimits, TbpPlayer, TbpProcess};

use super::{LIMIT, TOOL};

/// A TBP bot that records the messages it receives in `log`.
fn recording_bot(log: &Path) -> TbpProcess {
    let command = format!("tee '{}' | '{TOOL}' tbp --level easy", log.display());
    TbpProcess::spawn(&command, LIMIT).expect("the recording bot starts")
}

/// The messages in `log`, in order.
fn received(log: &Path) -> Vec<FrontendMessage> {
    std::fs::read_to_string(log)
        .expect("the log is there")
        .lines()
        .map(|l| parse_line(l).expect("the frontend writes TBP"))
        .collect()
}

/// How the bot was told about one piece: the messages before its `play`, without `suggest`.
fn per_piece(messages: &[FrontendMessage]) -> Vec<Vec<&'static str>> {
    let mut pieces = Vec::new();
    let mut current = Vec::new();
    for m in messages {
        match m {
            FrontendMessage::Rules { .. } | FrontendMessage::Suggest => {}
            FrontendMessage::Start(_) => current.push("start"),
            FrontendMessage::Stop => current.push("stop"),
            FrontendMessage::NewPiece { .. } => current.push("new_piece"),
            FrontendMessage::Play { .. } => pieces.push(std::mem::take(&mut current)),
            FrontendMessage::Quit | FrontendMessage::Unknown => {}
        }
    }
    pieces
}

/// What happened at each piece the bot was asked about.
struct Piece {
    /// Garbage rose on its board since the bot was last asked.
    garbage_rose: bool,
    /// The bot was restarted (`stop` + `start`) for it.
    restarted: bool,
}

/// Plays the recording bot (seat 0, at 2.5 pieces a second) against our Hard bot, which sends
/// it garbage, until the recording bot has placed `pieces` pieces.
fn play(log: &Path, restart: Restart, seed: u64, pieces: u64) -> Vec<Piece> {
    let limits = TbpLimits {
        think: Duration::ZERO,
        move_limit: LIMIT,
        pps_cap_x100: Some(250),
    };
    let mut them = TbpPlayer::new(recording_bot(log), limits).with_restart(restart);
    let mut us = Bot::new(Level::Hard);
    let mut m = Match::new(MatchHeader {
        handling: [BOT_HANDLING; 2],
        ..MatchHeader::versus(seed)
    });
    let mut out = Vec::new();
    let mut garbage = 0;
    while m.winner().is_none() && them.counts().plays < pieces && m.frame().0 < 100_000 {
        let before = *them.counts();
        let risen = m.player(Seat::First).stats().garbage_received;
        let keys = [
            them.next_input(&m, Seat::First),
            us.next_input(&m, Seat::Second),
        ];
        let after = them.counts();
        if after.plays > before.plays {
            out.push(Piece {
                garbage_rose: risen != garbage,
                restarted: after.total_restarts() > before.total_restarts(),
            });
            garbage = risen;
        }
        m.step(keys);
        assert_eq!(them.failure(), None);
    }
    drop(them);
    out
}

#[test]
fn the_standard_flow_starts_once_and_restarts_exactly_when_garbage_rises() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("received.jsonl");
    let pieces = play(&log, Restart::OnMismatch, 3, 60);
    assert_eq!(pieces.len(), 60, "the game lasted 60 pieces");
    let rose = pieces.iter().filter(|p| p.garbage_rose).count();
    assert!(rose >= 2, "the opponent's garbage rose at {rose} pieces");
    for (i, p) in pieces.iter().enumerate() {
        assert_eq!(p.restarted, p.garbage_rose, "piece {i}");
    }
    let told = per_piece(&received(&log));
    assert_eq!(told.len(), 60);
    assert_eq!(told[0], ["start"], "the first piece starts the bot");
    for (i, (messages, p)) in told.iter().zip(&pieces).enumerate().skip(1) {
        if p.garbage_rose {
            assert_eq!(messages[..], ["stop", "start"], "piece {i}");
        } else {
            assert!(
                !messages.is_empty() && messages.iter().all(|&m| m == "new_piece"),
                "piece {i}: {messages:?}"
            );
        }
    }
}

#[test]
fn restarting_every_piece_stops_and_starts_the_bot_before_each_piece() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("received.jsonl");
    let pieces = play(&log, Restart::EveryPiece, 3, 20);
    assert!(pieces.iter().skip(1).all(|p| p.restarted));
    let told = per_piece(&received(&log));
    assert_eq!(told.len(), 20);
    assert_eq!(told[0], ["start"]);
    assert!(
        told[1..].iter().all(|m| m[..] == ["stop", "start"]),
        "{told:?}"
    );
}

/// Pinning and `/proc` are Linux's.
#[cfg(target_os = "linux")]
#[test]
fn botmatch_names_the_flow_and_reports_each_sides_cpu() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("received.jsonl");
    let bot = format!("tbp:tee '{}' | '{TOOL}' tbp --level easy", log.display());
    // Both sides on the first core this process may use (a container may not offer core 0).
    let core = sevenbag_tbp::cpu::affinity(0).map_or(0, |c| c[0]);
    let pin = format!("{core},{core}");
    for (restart, named) in [
        ("on-mismatch", "TBP flow: standard"),
        ("every-piece", "TBP flow: restart every piece"),
    ] {
        let out = Command::new(TOOL)
            .args([
                "botmatch", "--games", "1", "--pieces", "12", "--level", "hard",
            ])
            .args([
                "--think-ms",
                "0",
                "--pin",
                &pin,
                "--verbose",
                "--restart",
                restart,
            ])
            .arg("--opponent")
            .arg(&bot)
            .output()
            .expect("botmatch runs");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(text.starts_with(named), "{text}");
        assert!(text.contains("game 0 seed 0: "), "{text}");
        assert!(text.contains("cpu ms/piece"), "{text}");
        assert!(text.contains("bot       cpu "), "{text}");
        assert!(text.contains("opponent  cpu "), "{text}");
        assert!(
            text.contains(&format!("opponent  TBP flow {restart}: starts 1, restarts")),
            "{text}"
        );
    }
}
