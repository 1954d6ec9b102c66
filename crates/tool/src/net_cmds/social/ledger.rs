//! What the social load's players share: the run's stage, when each presence change was sent,
//! and the counts the report line is made of (expected and delivered presence pushes,
//! invites, notifications), with a [`Notify`] the coordinator waits on as they move.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use tokio::sync::Notify;

/// Presence changes each player makes: appear offline, then online again, twice (an even
/// number, so every player reads online when the invites begin).
pub(super) const CHANGES: usize = 4;

/// Where the run is; the coordinator moves it on, every player follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Stage {
    /// Connecting and registering.
    Register,
    /// Every player registered: send the ring's friend requests, accept the incoming ones.
    Befriend,
    /// Every friendship stands: make the presence changes, spread from this instant.
    Presence(Instant),
    /// Every change was made (and heard, or the wait for it ran out): invite a friend, spread
    /// from this instant.
    Invite(Instant),
    /// Nothing more is sent; players go on reading until the counts agree.
    Settle,
    /// The end: close and report.
    Stop,
}

/// One counter of the report.
#[derive(Debug, Default)]
pub(super) struct Count(AtomicU64);

impl Count {
    pub(super) fn add(&self, n: u64) {
        self.0.fetch_add(n, Ordering::Relaxed);
    }

    pub(super) fn get(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }
}

/// The run's shared record.
#[derive(Debug)]
pub(super) struct Ledger {
    t0: Instant,
    /// When change `k` of player `i` was sent (`i * CHANGES + k`), in µs after `t0` plus one;
    /// 0 while not sent.
    sent: Vec<AtomicU64>,
    /// Pushes each change should make: one per friend of its player.
    pub(super) presence_expected: Count,
    /// Pushes heard, matched to their change.
    pub(super) presence_delivered: Count,
    /// `Invited` answers (an invite the server took).
    pub(super) invites_sent: Count,
    /// Invites heard by the friend, with the room's code.
    pub(super) invites_received: Count,
    /// Rooms the invited friend joined by the code.
    pub(super) joins: Count,
    /// Notifications the server said it made (a request sent, a request accepted, an invite).
    pub(super) notifications_sent: Count,
    /// Those heard by their receiver.
    pub(super) notifications_delivered: Count,
    /// Players registered.
    pub(super) registered: Count,
    /// Players whose friendships all stand.
    pub(super) befriended: Count,
    /// Players that made every presence change.
    pub(super) changed: Count,
    /// Players that failed (each says why on its own).
    pub(super) failed: Count,
    latencies: Mutex<Vec<Duration>>,
    /// Woken whenever a count moves.
    pub(super) progress: Notify,
}

impl Ledger {
    pub(super) fn new(players: usize) -> Ledger {
        Ledger {
            t0: Instant::now(),
            sent: (0..players * CHANGES).map(|_| AtomicU64::new(0)).collect(),
            presence_expected: Count::default(),
            presence_delivered: Count::default(),
            invites_sent: Count::default(),
            invites_received: Count::default(),
            joins: Count::default(),
            notifications_sent: Count::default(),
            notifications_delivered: Count::default(),
            registered: Count::default(),
            befriended: Count::default(),
            changed: Count::default(),
            failed: Count::default(),
            latencies: Mutex::new(Vec::new()),
            progress: Notify::new(),
        }
    }

    /// Wakes the coordinator (a count moved).
    pub(super) fn moved(&self) {
        self.progress.notify_one();
    }

    /// Notes that change `k` of player `i` is being sent now, to `friends` friends.
    pub(super) fn sending(&self, i: usize, k: usize, friends: usize) {
        let micros = self.t0.elapsed().as_micros() as u64 + 1;
        if let Some(slot) = self.sent.get(i * CHANGES + k) {
            slot.store(micros, Ordering::Release);
        }
        self.presence_expected.add(friends as u64);
    }

    /// When change `k` of player `i` was sent, if it was.
    pub(super) fn sent_at(&self, i: usize, k: usize) -> Option<Instant> {
        let micros = self.sent.get(i * CHANGES + k)?.load(Ordering::Acquire);
        (micros > 0).then(|| self.t0 + Duration::from_micros(micros - 1))
    }

    /// Adds one player's delivery latencies.
    pub(super) fn add_latencies(&self, mut list: Vec<Duration>) {
        if let Ok(mut all) = self.latencies.lock() {
            all.append(&mut list);
        }
    }

    /// The `p`-quantile (0 to 1) of every latency, in ms (`NaN` without any).
    pub(super) fn latency_ms(&self, p: f64) -> f64 {
        let Ok(mut all) = self.latencies.lock() else {
            return f64::NAN;
        };
        if all.is_empty() {
            return f64::NAN;
        }
        all.sort_unstable();
        let at = ((all.len() - 1) as f64 * p).round() as usize;
        all[at.min(all.len() - 1)].as_secs_f64() * 1000.0
    }

    /// Whether everything sent so far has been heard.
    pub(super) fn all_heard(&self) -> bool {
        self.presence_delivered.get() >= self.presence_expected.get()
            && self.invites_received.get() >= self.invites_sent.get()
            && self.joins.get() >= self.invites_received.get()
            && self.notifications_delivered.get() >= self.notifications_sent.get()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_is_dated_once_sent_and_latencies_give_quantiles() {
        let ledger = Ledger::new(2);
        assert_eq!(ledger.sent_at(1, 3), None);
        ledger.sending(1, 3, 4);
        assert!(ledger.sent_at(1, 3).is_some());
        assert_eq!(ledger.sent_at(2, 0), None, "past the players: nothing");
        assert_eq!(ledger.presence_expected.get(), 4);
        assert!(!ledger.all_heard());
        ledger.presence_delivered.add(4);
        assert!(ledger.all_heard());
        ledger.add_latencies((1..=100).map(Duration::from_millis).collect());
        assert_eq!(ledger.latency_ms(0.5).round(), 51.0);
        assert_eq!(ledger.latency_ms(0.99).round(), 99.0);
    }
}
