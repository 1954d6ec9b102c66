//! The end of a match on a player that runs behind the server: whatever order the last
//! inputs and the server's `MatchOver` arrive in, the player's own boards reach the end the
//! server decided (so the game shows the verdict on them). A model server (the protocol's
//! [`ConfirmedSim`]) decides the match from both seats' inputs as the real one does; messages
//! are handed over in the order a slow client sees them. Time is counted in steps; nothing
//! sleeps.

use std::collections::VecDeque;
use std::time::Duration;

use sevenbag_core::{Input, MatchHeader, Phase, Rules, Seat};
use sevenbag_netplay::time::Instant;
use sevenbag_netplay::{DriverConfig, MatchDriver, SessionOptions, from_fn};
use sevenbag_protocol::{ClientMessage, ConfirmedSim, EndReason, ServerMessage, SimEvent};

/// Our seat hard-drops every other frame and tops out within seconds; the opponent waits.
fn keys(frame: u32) -> Input {
    if frame.is_multiple_of(2) {
        Input::HARD_DROP
    } else {
        Input::NONE
    }
}

/// First to one round, short countdown: the match ends on our first top-out.
fn header() -> MatchHeader {
    MatchHeader {
        rules: Rules {
            first_to: 1,
            countdown_frames: 10,
            ..Rules::versus()
        },
        ..MatchHeader::versus(11)
    }
}

/// A player's driver with a fixed input delay of `delay` frames (a loaded machine's link gets
/// one), in a match that just started.
fn player(delay: u32) -> MatchDriver {
    let config = DriverConfig {
        session: SessionOptions {
            window: 12,
            input_delay: delay,
        },
        auto_input_delay: false,
        spectate_window: 0,
        balance_input_delay: true,
    };
    let now = Instant::now();
    let mut driver = MatchDriver::new(config, now);
    driver.set_seat(Some(Seat::First));
    driver.handle(
        &ServerMessage::MatchStart {
            header: header(),
            names: ["desk".to_owned(), "phone".to_owned()],
            start_in_ms: 0,
        },
        now,
    );
    driver
}

/// Plays until the model server decides the match. The opponent's relayed inputs reach the
/// player `lag` steps after the server has them (0: at once, on the same ordered channel as
/// the verdict; more: a datagram behind the WebSocket's `MatchOver`). Returns the server's
/// verdict and the opponent's inputs still on their way.
fn play_to_the_servers_end(
    driver: &mut MatchDriver,
    lag: usize,
) -> (Vec<ServerMessage>, VecDeque<ServerMessage>) {
    let mut server = ConfirmedSim::new(header());
    let mut in_flight = VecDeque::new();
    let now = Instant::now();
    for _ in 0..10_000 {
        driver.step(now, &mut from_fn(|m, _| keys(m.frame().0)));
        while let Some(message) = driver.poll_outgoing() {
            if let ClientMessage::Inputs { changes, confirmed } = message {
                server
                    .extend(Seat::First, &changes, confirmed)
                    .expect("our inputs extend the server's log");
            }
        }
        // The opponent is always ahead of us: its next 20 frames are confirmed, no keys.
        let theirs = server.log(Seat::First).confirmed() + 20;
        server
            .extend(Seat::Second, &[], theirs)
            .expect("opponent's inputs");
        in_flight.push_back(ServerMessage::Inputs {
            seat: Seat::Second,
            changes: Vec::new(),
            confirmed: theirs,
        });
        while in_flight.len() > lag {
            let relayed = in_flight.pop_front().expect("a relayed batch");
            driver.handle(&relayed, now);
        }
        let mut verdict = Vec::new();
        for event in server.advance() {
            match event {
                SimEvent::RoundOver(r) => verdict.push(ServerMessage::RoundOver {
                    round: r.round,
                    winner: r.winner,
                    wins: r.wins,
                    frame: r.frame,
                }),
                SimEvent::MatchOver { winner, .. } => verdict.push(ServerMessage::MatchOver {
                    winner,
                    reason: EndReason::TopOut,
                    replay: None,
                }),
            }
        }
        if verdict
            .iter()
            .any(|m| matches!(m, ServerMessage::MatchOver { .. }))
        {
            return (verdict, in_flight);
        }
    }
    panic!("the scripted match never ended");
}

/// Runs the player's frame loop after the verdict: every frame its pacer says is due, a
/// minute on (so every frame of the match is due), a bounded number of times.
fn keep_stepping(driver: &mut MatchDriver) {
    let later = Instant::now() + Duration::from_secs(60);
    for _ in 0..120 {
        driver.tick(later, &mut from_fn(|m, _| keys(m.frame().0)));
    }
}

fn shown_winner(driver: &MatchDriver) -> Option<Seat> {
    match driver.predicted().map(|m| m.phase()) {
        Some(Phase::MatchOver { winner }) => Some(winner),
        _ => None,
    }
}

#[test]
fn a_player_whose_input_delay_keeps_it_behind_the_decisive_frame_still_shows_the_end() {
    let mut driver = player(4);
    let (verdict, in_flight) = play_to_the_servers_end(&mut driver, 0);
    assert!(in_flight.is_empty());
    // The server decided on frames our keys were chosen for but our boards had not run yet.
    assert_eq!(
        shown_winner(&driver),
        None,
        "the test needs a player behind"
    );
    for m in &verdict {
        driver.handle(m, Instant::now());
    }
    keep_stepping(&mut driver);
    assert_eq!(shown_winner(&driver), Some(Seat::Second));
    assert_eq!(driver.match_result().map(|r| r.winner), Some(Seat::Second));
}

#[test]
fn the_opponents_last_inputs_arriving_after_the_verdict_still_bring_the_boards_to_the_end() {
    let mut driver = player(4);
    let (verdict, in_flight) = play_to_the_servers_end(&mut driver, 6);
    assert!(!in_flight.is_empty());
    assert_eq!(
        shown_winner(&driver),
        None,
        "the test needs a player behind"
    );
    // The WebSocket's verdict first, then the datagrams that were still on their way.
    for m in verdict.iter().chain(&in_flight) {
        driver.handle(m, Instant::now());
    }
    keep_stepping(&mut driver);
    assert_eq!(shown_winner(&driver), Some(Seat::Second));
}

#[test]
fn no_keys_are_recorded_or_sent_after_the_verdict() {
    let mut driver = player(4);
    let (verdict, _) = play_to_the_servers_end(&mut driver, 0);
    let ours = |d: &MatchDriver| {
        d.session()
            .map(|s| s.confirmed_frames(Seat::First))
            .unwrap_or_default()
    };
    let before = ours(&driver);
    for m in &verdict {
        driver.handle(m, Instant::now());
    }
    keep_stepping(&mut driver);
    assert_eq!(ours(&driver), before);
    assert!(
        std::iter::from_fn(|| driver.poll_outgoing())
            .all(|m| !matches!(m, ClientMessage::Inputs { .. })),
        "inputs sent after the end"
    );
}
