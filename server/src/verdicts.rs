//! How recent matches ended, by resume token: a player whose connection came back after their
//! match was decided (after the reconnect window, or after a restart longer than it) is told the
//! server's verdict (`MatchOver` or `MatchVoid`) before `Error { BadResume }`, so every client
//! shows the one result the server recorded instead of guessing a forfeit of its own.
//!
//! Bounded: at most [`MAX_KEPT`] tokens, each for [`KEEP_FOR`].

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use sevenbag_protocol::ServerMessage;

/// How long a verdict is kept for a late player.
pub(crate) const KEEP_FOR: Duration = Duration::from_secs(600);
/// Most tokens kept (two per match): the oldest go first.
pub(crate) const MAX_KEPT: usize = 4096;

/// Recent verdicts, oldest first.
#[derive(Debug, Default)]
pub(crate) struct Verdicts {
    entries: VecDeque<(u64, Instant, ServerMessage)>,
}

impl Verdicts {
    /// Keeps `verdict` for both of a match's resume `tokens`, at `now`.
    pub(crate) fn record(&mut self, tokens: [u64; 2], verdict: &ServerMessage, now: Instant) {
        self.expire(now);
        for token in tokens {
            self.entries.retain(|(t, ..)| *t != token);
            self.entries.push_back((token, now, verdict.clone()));
        }
        while self.entries.len() > MAX_KEPT {
            self.entries.pop_front();
        }
    }

    /// The verdict of the match `token` resumed a seat in, if it ended within [`KEEP_FOR`].
    pub(crate) fn find(&mut self, token: u64, now: Instant) -> Option<ServerMessage> {
        self.expire(now);
        self.entries
            .iter()
            .find(|(t, ..)| *t == token)
            .map(|(.., v)| v.clone())
    }

    fn expire(&mut self, now: Instant) {
        while self
            .entries
            .front()
            .is_some_and(|(_, at, _)| now.saturating_duration_since(*at) > KEEP_FOR)
        {
            self.entries.pop_front();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sevenbag_core::Seat;
    use sevenbag_protocol::EndReason;

    fn over() -> ServerMessage {
        ServerMessage::MatchOver {
            winner: Seat::Second,
            reason: EndReason::Forfeit,
            replay: Some("r".into()),
        }
    }

    #[test]
    fn both_players_of_a_match_find_its_verdict_for_a_while() {
        let mut v = Verdicts::default();
        let t0 = Instant::now();
        v.record([1, 2], &over(), t0);
        assert_eq!(v.find(1, t0), Some(over()));
        assert_eq!(v.find(2, t0 + KEEP_FOR), Some(over()));
        assert_eq!(v.find(3, t0), None);
        assert_eq!(v.find(1, t0 + KEEP_FOR + Duration::from_secs(1)), None);
    }

    #[test]
    fn the_store_keeps_at_most_its_bound() {
        let mut v = Verdicts::default();
        let t0 = Instant::now();
        for i in 0..(MAX_KEPT as u64) {
            v.record([2 * i + 10, 2 * i + 11], &over(), t0);
        }
        assert_eq!(v.entries.len(), MAX_KEPT);
        assert_eq!(v.find(10, t0), None, "the oldest went first");
        assert!(v.find(2 * (MAX_KEPT as u64 - 1) + 11, t0).is_some());
    }
}
