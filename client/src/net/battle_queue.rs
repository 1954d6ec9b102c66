//! [`QueueWait`]: the server's free-for-all queue (quick play of several seats) as a waiting
//! [`super::battle::BattleOnline`] sees it, with the countdown kept against our own clock.

use std::time::Duration;

use sevenbag_netplay::time::Instant;

/// The free-for-all queue as last heard (`QuickBattleQueue`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueueWait {
    /// Players waiting, us included.
    pub waiting: u16,
    /// Players a room needs before its countdown runs.
    pub needed: u8,
    /// Players that start a room at once.
    pub most: u8,
    /// When the room starts, while the countdown runs.
    pub starts_at: Option<Instant>,
}

impl QueueWait {
    /// The queue's state heard at `at`.
    pub fn heard(
        waiting: u16,
        needed: u8,
        most: u8,
        starts_in_ms: Option<u32>,
        at: Instant,
    ) -> Self {
        QueueWait {
            waiting,
            needed,
            most,
            starts_at: starts_in_ms.map(|ms| at + Duration::from_millis(u64::from(ms))),
        }
    }

    /// Whole seconds until the room starts (rounded up), while the countdown runs.
    pub fn seconds_left(&self, now: Instant) -> Option<u64> {
        let left = self.starts_at?.saturating_duration_since(now);
        Some(left.as_millis().div_ceil(1000) as u64)
    }

    /// The waiting card's heading and lines at `now`.
    pub fn card(&self, now: Instant) -> (String, String) {
        let people = if self.waiting == 1 {
            "You are the only player waiting".to_owned()
        } else {
            format!("{} players waiting, you included", self.waiting)
        };
        let rule = format!(
            "A room starts once {} wait (after a short countdown), at once when {} do.",
            self.needed, self.most
        );
        let head = match self.seconds_left(now) {
            Some(0) => "Starting…".to_owned(),
            Some(s) => format!("Starting in {s} s"),
            None => {
                let short = usize::from(self.needed).saturating_sub(usize::from(self.waiting));
                match short {
                    0 => "Waiting for players…".to_owned(),
                    1 => "Waiting for 1 more player…".to_owned(),
                    n => format!("Waiting for {n} more players…"),
                }
            }
        };
        (
            head,
            format!("{people}.\n\n{rule}\n\nEsc (or a tap on Cancel) leaves the queue."),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_card_counts_the_players_short_then_the_seconds_left() {
        let t0 = Instant::now();
        let one = QueueWait::heard(1, 3, 8, None, t0);
        assert_eq!(one.card(t0).0, "Waiting for 2 more players…");
        assert!(
            one.card(t0)
                .1
                .starts_with("You are the only player waiting.")
        );
        let three = QueueWait::heard(3, 3, 8, Some(9_500), t0);
        assert_eq!(three.card(t0).0, "Starting in 10 s");
        assert_eq!(
            three.card(t0 + Duration::from_millis(2_600)).0,
            "Starting in 7 s"
        );
        assert_eq!(three.card(t0 + Duration::from_secs(12)).0, "Starting…");
        assert!(three.card(t0).1.contains("3 players waiting"));
    }
}
