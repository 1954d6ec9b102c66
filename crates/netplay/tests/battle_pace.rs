//! Frame-advantage balance in a match of several seats ([`balance_battle`], which the game's
//! room controller and the headless `BattleClient` call after every simulated frame): a player
//! ahead of the furthest-behind remote seat slows within half the window, as a two-seat
//! player ahead of its opponent does, and players level with every seat are left alone.
//! Remote confirmations are handed over frame by frame; time is counted in frames. The input
//! delay and window follow the worst link at each re-estimate ([`retune_battle`]).

use std::time::Duration;

use sevenbag_core::{BattleHeader, SeatInput};
use sevenbag_netplay::time::Instant;
use sevenbag_netplay::{
    BattleSession, DEFAULT_WINDOW, DelayTuner, FRAME, Pacer, SessionOptions, Step, balance_battle,
    retune_battle,
};

const WINDOW: u32 = 12;

/// Plays seat 0 of a room of `lags.len() + 1` seats for `frames` frames, each remote seat
/// confirming up to its lag behind our frame (over a 0 ms round trip, level is 2 frames
/// behind: the confirmation lag the balance allows for). Returns how far the pacer moved
/// frame 0 (the slow-down) and its smoothed advantage.
fn play_against(lags: &[u32], frames: u32) -> (Duration, f64) {
    let seats = u8::try_from(lags.len() + 1).expect("a room's seats");
    let options = SessionOptions {
        window: WINDOW,
        input_delay: 0,
    };
    let mut session =
        BattleSession::new(BattleHeader::new(5, seats), Some(0), options).expect("a session");
    let t0 = Instant::now();
    let mut pacer = Pacer::new(t0, WINDOW);
    let mut confirmed = vec![0u32; lags.len()];
    for f in 0..frames {
        for (i, &lag) in lags.iter().enumerate() {
            let now = (f + 1).saturating_sub(lag);
            if now > confirmed[i] {
                session
                    .remote_inputs(i + 1, &[], &[], now)
                    .expect("a remote seat's confirmation");
                confirmed[i] = now;
            }
        }
        assert_eq!(
            session.advance(SeatInput::NONE),
            Step::Advanced,
            "frame {f}"
        );
        balance_battle(&mut pacer, &session, Some(Duration::ZERO), &[]);
    }
    (pacer.frame0() - t0, pacer.advantage())
}

#[test]
fn a_player_ahead_of_the_furthest_behind_seat_slows_within_half_the_window() {
    // Two seats level with us, the third 8 frames behind that.
    let (shift, advantage) = play_against(&[2, 2, 10], 400);
    assert!(advantage > 7.0, "{advantage}");
    assert!(
        shift <= FRAME * (WINDOW / 2) && shift > FRAME * (WINDOW / 2) - FRAME / 8,
        "{shift:?}"
    );
}

#[test]
fn a_player_level_with_every_seat_keeps_its_pace() {
    let (shift, advantage) = play_against(&[2, 2, 2], 400);
    assert_eq!(shift, Duration::ZERO);
    assert!(advantage.abs() < 0.5, "{advantage}");
}

const MS: Duration = Duration::from_millis(1);

fn fresh(seats: u8) -> BattleSession {
    let options = SessionOptions {
        window: DEFAULT_WINDOW,
        input_delay: 0,
    };
    BattleSession::new(BattleHeader::new(1, seats), Some(0), options).expect("a session")
}

#[test]
fn a_battle_seats_window_and_delay_follow_the_worst_link_at_a_re_estimate() {
    let mut far = fresh(3);
    // Our 40 ms and the slowest other seat's 440 ms: the delay is picked for 240 ms.
    let links = [40, 440, 100];
    retune_battle(
        &mut DelayTuner::default(),
        &mut far,
        (Some(40 * MS), None),
        &links,
        0,
    );
    let o = far.options();
    assert!(o.window > DEFAULT_WINDOW, "widened: {o:?}");
    assert_eq!(o.input_delay, 1, "one frame at a time");
    // A near room keeps what it has.
    let mut near = fresh(3);
    let links = [20, 30, 20];
    retune_battle(
        &mut DelayTuner::default(),
        &mut near,
        (Some(20 * MS), None),
        &links,
        0,
    );
    assert_eq!(near.options().window, DEFAULT_WINDOW);
    assert_eq!(near.options().input_delay, 0);
}
