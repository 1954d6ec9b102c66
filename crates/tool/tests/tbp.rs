//! TBP conversations over real pipes: `sevenbag-tool tbp` driven by our frontend, our frontend
//! driving bots that misbehave, and a whole game against a TBP bot.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::Duration;

use sevenbag_bot::{BOT_HANDLING, Bot, Driver, Level, play_game};
use sevenbag_core::MatchHeader;
use sevenbag_tbp::messages::{BotMessage, FrontendMessage, Randomizer, Start, TbpPiece};
use sevenbag_tbp::{TbpError, TbpLimits, TbpPlayer, TbpProcess};

#[path = "tbp/flow.rs"]
mod flow;

const TOOL: &str = env!("CARGO_BIN_EXE_sevenbag-tool");
const LIMIT: Duration = Duration::from_secs(20);

fn limits() -> TbpLimits {
    TbpLimits {
        think: Duration::ZERO,
        move_limit: LIMIT,
        pps_cap_x100: None,
    }
}

fn our_bot() -> TbpProcess {
    TbpProcess::spawn(&format!("'{TOOL}' tbp --level medium"), LIMIT).expect("tbp bot starts")
}

fn empty_start(queue: Vec<TbpPiece>) -> Start {
    Start {
        board: vec![vec![None; 10]; 40],
        queue,
        hold: None,
        combo: 0,
        back_to_back: false,
        randomizer: Some(Randomizer::seven_bag(vec![TbpPiece::S, TbpPiece::Z])),
    }
}

#[test]
fn our_bot_announces_itself_accepts_the_rules_and_suggests_placements() {
    let mut bot = our_bot();
    assert!(bot.name.starts_with("Sevenbag"), "{}", bot.name);
    let queue = vec![
        TbpPiece::T,
        TbpPiece::I,
        TbpPiece::O,
        TbpPiece::L,
        TbpPiece::J,
    ];
    bot.send(&FrontendMessage::Start(empty_start(queue)))
        .unwrap();
    let moves = bot.suggest(LIMIT).unwrap();
    assert!(!moves.is_empty());
    let first = moves[0];
    assert!(matches!(first.location.kind, TbpPiece::T | TbpPiece::I));
    bot.send(&FrontendMessage::Play { mv: first }).unwrap();
    bot.send(&FrontendMessage::NewPiece { piece: TbpPiece::S })
        .unwrap();
    let next = bot.suggest(LIMIT).unwrap();
    assert!(!next.is_empty(), "the bot follows play and new_piece");
}

#[test]
fn our_bot_ignores_unknown_messages_and_bad_lines_and_exits_on_quit() {
    let mut child = Command::new(TOOL)
        .arg("tbp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "{{\"type\":\"greeting\",\"x\":1}}").unwrap();
    writeln!(stdin, "not json").unwrap();
    writeln!(stdin, "{{\"type\":\"rules\",\"future_field\":true}}").unwrap();
    writeln!(stdin, "{{\"type\":\"quit\"}}").unwrap();
    let lines: Vec<String> = BufReader::new(child.stdout.take().unwrap())
        .lines()
        .map(Result::unwrap)
        .collect();
    assert!(child.wait().unwrap().success());
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].contains("\"info\""));
    assert!(lines[1].contains("\"ready\""));
}

#[test]
fn a_game_against_a_tbp_bot_is_played_through_the_core() {
    let mut them = TbpPlayer::new(our_bot(), limits());
    let mut us = Bot::new(Level::Easy);
    let header = MatchHeader {
        handling: [BOT_HANDLING; 2],
        ..MatchHeader::versus(5)
    };
    let report = play_game(&mut us, &mut them, header, 30);
    assert_eq!(them.failure(), None);
    assert!(report.pieces[1] >= 25, "{report:?}");
}

fn failing_bot(script: &str, limits: TbpLimits) -> String {
    let process = match TbpProcess::spawn(script, Duration::from_millis(1500)) {
        Ok(p) => p,
        Err(e) => return e.to_string(),
    };
    let mut them = TbpPlayer::new(process, limits);
    let mut us = Bot::new(Level::Easy);
    let header = MatchHeader {
        handling: [BOT_HANDLING; 2],
        ..MatchHeader::versus(1)
    };
    play_game(&mut us, &mut them, header, 30);
    them.failure().expect("the bot fails")
}

const INFO: &str = r#"{"type":"info","name":"t","version":"1","author":"a","features":[]}"#;

#[test]
fn a_bot_writing_bad_json_is_a_clear_error() {
    let e = failing_bot("echo '{not json'", limits());
    assert!(e.contains("bad message"), "{e}");
}

#[test]
fn a_silent_bot_times_out() {
    let e = failing_bot("sleep 10", limits());
    assert!(e.contains("sent nothing within"), "{e}");
}

#[test]
fn a_bot_that_exits_is_reported() {
    let e = failing_bot(&format!("echo '{INFO}'"), limits());
    assert!(e.contains("exited"), "{e}");
}

#[test]
fn a_bot_refusing_the_rules_is_reported() {
    let e = failing_bot(
        &format!(
            r#"echo '{INFO}'; echo '{{"type":"error","reason":"unsupported_rules"}}'; sleep 5"#
        ),
        limits(),
    );
    assert!(e.contains("refused the rules: unsupported_rules"), "{e}");
}

#[test]
fn an_illegal_move_is_refused() {
    // A T floating in mid-air is no placement.
    let suggestion = r#"{"type":"suggestion","moves":[{"location":{"type":"T","orientation":"north","x":4,"y":12},"spin":"none"}]}"#;
    let script = format!(
        "echo '{INFO}'; read l; echo '{{\"type\":\"ready\"}}'; while read l; do case \"$l\" in *suggest*) echo '{suggestion}';; esac; done"
    );
    let e = failing_bot(&script, limits());
    assert!(e.contains("illegal move"), "{e}");
}

#[test]
fn an_empty_suggestion_is_asked_again_until_the_limit() {
    let script = format!(
        "echo '{INFO}'; read l; echo '{{\"type\":\"ready\"}}'; while read l; do case \"$l\" in *suggest*) echo '{{\"type\":\"suggestion\",\"moves\":[]}}';; esac; done"
    );
    let short = TbpLimits {
        move_limit: Duration::from_millis(300),
        ..limits()
    };
    let e = failing_bot(&script, short);
    assert!(e.contains("non-empty suggestion"), "{e}");
}

#[test]
fn bot_messages_are_unknown_not_errors_when_new() {
    let m: BotMessage = sevenbag_tbp::messages::parse_line(r#"{"type":"thinking"}"#).unwrap();
    assert_eq!(m, BotMessage::Unknown);
    let _ = TbpError::Died("x");
}

#[test]
fn a_tbp_bots_thought_is_adopted_by_our_driver_as_the_game_does() {
    use sevenbag_bot::Drive;
    use sevenbag_core::{Input, Match, Seat};
    use sevenbag_tbp::TbpThinker;

    let header = MatchHeader {
        handling: [BOT_HANDLING; 2],
        ..MatchHeader::versus(3)
    };
    let mut m = Match::new(header);
    let mut thinker = TbpThinker::new(our_bot(), limits());
    let mut driver = Bot::new(Level::Max).with_perfect_clears(false);
    for _ in 0..3_000 {
        let keys = match driver.drive(&m, Seat::First) {
            Drive::Input(keys) => keys,
            Drive::Think => {
                let player = m.player(Seat::First);
                let thought = thinker.think(player, &header.rules).expect("a thought");
                assert!(!thought.ranked().is_empty());
                driver
                    .adopt(player, &header.rules, m.frame().0, &thought)
                    .expect("a fresh thought is adopted")
            }
        };
        m.step([keys, Input::NONE]);
    }
    assert!(
        m.player(Seat::First).stats().pieces >= 20,
        "{:?}",
        m.player(Seat::First).stats()
    );
}

#[test]
fn botmatch_puts_a_tbp_bot_in_the_bots_seat_with_player() {
    let out = Command::new(TOOL)
        .args([
            "botmatch",
            "--games",
            "2",
            "--pieces",
            "12",
            "--think-ms",
            "0",
        ])
        .arg("--player")
        .arg(format!("tbp:'{TOOL}' tbp --level easy"))
        .output()
        .expect("botmatch runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.lines()
            .any(|l| l.starts_with("2 games, TBP bot Sevenbag")),
        "the outside bot is named in the header: {text}"
    );
    assert!(text.contains("vs eltetris"), "{text}");
    assert!(
        !text.contains("bot plans"),
        "our planner did not play: {text}"
    );
}

#[test]
fn botmatch_refuses_a_player_that_is_not_a_tbp_command() {
    let out = Command::new(TOOL)
        .args(["botmatch", "--player", "max"])
        .output()
        .expect("botmatch runs");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("use tbp:COMMAND"));
}
