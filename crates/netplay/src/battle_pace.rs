//! Frame-advantage balance for a match of several seats: [`Pacer::balance`] as the two-seat
//! driver calls it, measured against the furthest-behind remote seat.
//!
//! A player running ahead of the others only stalls at the prediction window without it; with
//! it the player slows slightly (an eighth of a frame per frame, within half the window) until
//! level, and takes back time that stalls cost once level. With several seats the seat
//! furthest behind is the one our next stall waits for, so the advantage is measured against
//! it: [`BattleSession::remote_confirmed`] (the lowest confirmed frame among the seats we do
//! not play, one pass over the seats). Its inputs travel its uplink and our downlink, so the
//! relay time is taken as [`battle_round_trip`] (ours and the worst other seat's round trip,
//! averaged), the round trip the input delay is picked for.
//!
//! The input delay and window follow the link during the match as in a two-seat room
//! ([`retune_battle`], the [`DelayTuner`]'s rule on that same round trip), for the game and the
//! headless clients alike.

use std::time::Duration;

use crate::battle_links::battle_round_trip;
use crate::battle_session::BattleSession;
use crate::clock::Pacer;
use crate::retune::{DelayTuner, LinkReading};
use crate::session::{DEFAULT_WINDOW, SessionOptions};

/// Balances `pacer` after `session` simulated a frame. `own_rtt` is our clock's round trip to
/// the server, `links_ms` the room's `BattleLinks` (each battle seat's round trip).
///
/// A player measures against the furthest-behind remote seat's confirmed frame less our input
/// delay (every seat's keys are confirmed that many frames ahead of its clock, as in a
/// two-seat room where both seats pick their delay from the same link). A spectator measures
/// against the slowest seat as it is, so one whose clock a stall held back catches up with the
/// players and one predicting ahead of them does not run off.
pub fn balance_battle(
    pacer: &mut Pacer,
    session: &BattleSession,
    own_rtt: Option<Duration>,
    links_ms: &[u16],
) {
    let slowest = session.remote_confirmed();
    let (remote, rtt) = match session.local_seat() {
        Some(me) => (
            slowest.saturating_sub(session.options().input_delay),
            battle_round_trip(own_rtt, links_ms, me),
        ),
        None => (slowest, own_rtt),
    };
    pacer.balance(session.frame(), remote, rtt);
}

/// After `session` simulated a frame as battle seat `me`: at each re-estimate, widens its
/// window and moves its input delay as `tuner` says for the round trip the delay is picked for
/// (ours, `own_rtt` with `jitter`, and the worst other seat's in `links_ms`).
pub fn retune_battle(
    tuner: &mut DelayTuner,
    session: &mut BattleSession,
    (own_rtt, jitter): (Option<Duration>, Option<Duration>),
    links_ms: &[u16],
    me: usize,
) {
    let link = LinkReading {
        rtt: battle_round_trip(own_rtt, links_ms, me),
        jitter,
        max_window: u32::from(session.header().rules.garbage_travel),
    };
    let current = session.options();
    let base = SessionOptions {
        window: DEFAULT_WINDOW,
        input_delay: 0,
    };
    let stalls = session.stats().stall_frames;
    if let Some(r) = tuner.retune(session.frame(), link, base, current, stalls) {
        session.widen_window(r.window);
        if r.input_delay != current.input_delay {
            session.set_input_delay(r.input_delay);
        }
    }
}
