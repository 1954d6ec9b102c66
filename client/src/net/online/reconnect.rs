//! The timing of an automatic reconnect: when the connection of a seated player (or a
//! spectator, who rejoins by room code) drops during a match, [`crate::net::online::Online`]
//! keeps the match view up and tries a new connection with its resume token every
//! [`RETRY_EVERY`].
//!
//! The room's `reconnect_seconds` is the server's rule, not ours: a server that restarts takes
//! its matches back with a fresh window, and a player past the window is told the server's
//! verdict when it answers. So attempts go on while the server cannot be reached, for the
//! window or [`REACH_ALLOWANCE`], whichever is longer; only the server's answer (the match log,
//! a verdict, a refused token) ends a reconnect early, and the game never declares a forfeit
//! of its own.
//!
//! This module only keeps the clock (no network, no macroquad): when to try, whether an attempt
//! is in flight, and how many seconds are left for the banner.

use sevenbag_netplay::time::Instant;
use std::time::Duration;

/// Time between the starts of two connection attempts.
pub const RETRY_EVERY: Duration = Duration::from_secs(1);

/// What the banner says while reconnecting within the room's window.
pub const BANNER: &str = "Connection lost — reconnecting…";

/// What the banner says once the room's window has passed and the server is still out of
/// reach: whatever happened to the match, the server says it when it answers.
pub const BANNER_PAST_WINDOW: &str = "Connection lost — the server decides the match";

/// How long attempts go on while the server cannot be reached, at least (a restarting server
/// takes its rooms back, with a fresh reconnect window, when it starts).
pub const REACH_ALLOWANCE: Duration = Duration::from_secs(60);

/// The sentence shown when the server never answered: no verdict to show.
pub const UNREACHABLE: &str = "The server could not be reached again. The match is the server's to decide: its result will be in your replays and profile.";

/// The sentence shown when the server refused our resume token and said nothing of the match
/// (a server that keeps no verdicts, or one that forgot it).
pub const SEAT_GONE: &str = "The server no longer holds your seat: the match went on without you.";

/// The sentence shown when a spectator could not get back to the match.
pub const LOST_MATCH: &str = "Lost the connection to the match.";

/// Where a reconnect stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reconnect {
    /// The end of the room's reconnect window (what the banner counts down).
    deadline: Instant,
    /// After this, stop trying: the server has not answered for the window and the allowance.
    give_up_at: Instant,
    /// When the next attempt may start.
    next_try: Instant,
    /// Attempts started so far.
    attempts: u32,
    /// A connection attempt is open (connecting, or welcomed and waiting for the match log).
    in_flight: bool,
}

impl Reconnect {
    /// A reconnect that starts now, for a room whose reconnect window is `window`: it tries for
    /// the window or `allowance`, whichever is longer.
    pub fn new(now: Instant, window: Duration, allowance: Duration) -> Reconnect {
        Reconnect {
            deadline: now + window,
            give_up_at: now + window.max(allowance),
            next_try: now,
            attempts: 0,
            in_flight: false,
        }
    }

    /// Whether to stop trying: the window and the allowance have both passed.
    pub fn expired(&self, now: Instant) -> bool {
        now >= self.give_up_at
    }

    /// Whether the room's window has passed (the server decides the match from here).
    pub fn window_passed(&self, now: Instant) -> bool {
        now >= self.deadline
    }

    /// Whether a new attempt should start now (none in flight, and the retry delay passed).
    pub fn due(&self, now: Instant) -> bool {
        !self.in_flight && now >= self.next_try && !self.expired(now)
    }

    /// Records that an attempt starts now.
    pub fn started(&mut self, now: Instant) {
        self.attempts += 1;
        self.in_flight = true;
        self.next_try = now + RETRY_EVERY;
    }

    /// Records that the attempt in flight failed (its connection ended).
    pub fn failed(&mut self) {
        self.in_flight = false;
    }

    /// Attempts started so far.
    pub fn attempts(&self) -> u32 {
        self.attempts
    }

    /// Whole seconds left before the window closes (rounded up, for the banner).
    pub fn seconds_left(&self, now: Instant) -> u32 {
        let left = self.deadline.saturating_duration_since(now);
        let secs = left.as_secs() + u64::from(left.subsec_nanos() > 0);
        u32::try_from(secs).unwrap_or(u32::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retries_once_a_second_within_the_window() {
        let t0 = Instant::now();
        let mut r = Reconnect::new(t0, Duration::from_secs(3), Duration::ZERO);
        assert!(r.due(t0));
        assert_eq!(r.seconds_left(t0), 3);
        r.started(t0);
        assert!(!r.due(t0 + Duration::from_secs(2)), "one attempt at a time");
        r.failed();
        assert!(
            !r.due(t0 + Duration::from_millis(500)),
            "waits for the retry delay"
        );
        assert!(r.due(t0 + Duration::from_secs(1)));
        assert_eq!(r.seconds_left(t0 + Duration::from_millis(1500)), 2);
        assert!(r.expired(t0 + Duration::from_secs(3)));
        assert!(!r.due(t0 + Duration::from_secs(3)));
        assert_eq!(r.seconds_left(t0 + Duration::from_secs(5)), 0);
        assert_eq!(r.attempts(), 1);
    }

    #[test]
    fn attempts_go_on_past_a_short_window_while_the_server_is_out_of_reach() {
        let t0 = Instant::now();
        let r = Reconnect::new(t0, Duration::from_secs(2), REACH_ALLOWANCE);
        let later = t0 + Duration::from_secs(10);
        assert!(r.window_passed(later));
        assert!(!r.expired(later), "the server decides, not the window");
        assert!(r.due(later));
        assert!(r.expired(t0 + REACH_ALLOWANCE));
    }
}
