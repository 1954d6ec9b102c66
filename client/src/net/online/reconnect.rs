//! The timing of an automatic reconnect: when the connection of a seated player (or a
//! spectator, who rejoins by room code) drops during a match, [`crate::net::online::Online`] keeps the match view up and tries a new connection with its
//! resume token every [`RETRY_EVERY`] until the room's `reconnect_seconds` have passed.
//!
//! This module only keeps the clock (no network, no macroquad): when to try, whether an attempt
//! is in flight, and how many seconds are left for the banner.

use sevenbag_netplay::time::Instant;
use std::time::Duration;

/// Time between the starts of two connection attempts.
pub const RETRY_EVERY: Duration = Duration::from_secs(1);

/// What the banner says while reconnecting.
pub const BANNER: &str = "Connection lost — reconnecting…";

/// The sentence shown when the seat could not be taken back.
pub const FORFEITED: &str = "You forfeited: connection lost.";

/// The sentence shown when a spectator could not get back to the match.
pub const LOST_MATCH: &str = "Lost the connection to the match.";

/// How long a spectator keeps trying, at least (a restarted server takes its rooms back).
pub const SPECTATOR_RETRY_SECS: u64 = 30;

/// Where a reconnect stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reconnect {
    /// After this, the server has given our seat away: stop trying.
    deadline: Instant,
    /// When the next attempt may start.
    next_try: Instant,
    /// Attempts started so far.
    attempts: u32,
    /// A connection attempt is open (connecting, or welcomed and waiting for the match log).
    in_flight: bool,
}

impl Reconnect {
    /// A reconnect that starts now and may last `window` (the room's `reconnect_seconds`).
    pub fn new(now: Instant, window: Duration) -> Reconnect {
        Reconnect {
            deadline: now + window,
            next_try: now,
            attempts: 0,
            in_flight: false,
        }
    }

    /// Whether the window has passed.
    pub fn expired(&self, now: Instant) -> bool {
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
        let mut r = Reconnect::new(t0, Duration::from_secs(3));
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
}
