//! The free-for-all queue (quick play of several seats) as plain data: who waits, when the
//! countdown that starts a room runs out, and which waiting players a room takes.
//!
//! A room starts as soon as [`MAX_ROOM_SEATS`] players who may play together wait, or when the
//! countdown runs out with at least [`QuickBattleConfig::needed`] of them. The countdown starts
//! when that many first wait, is not moved by newcomers, and stops when too few are left. The
//! lobby owns the queue and `crate::quick_battle` opens the rooms, so this module names neither.

use std::time::{Duration, Instant};

use sevenbag_protocol::{MAX_ROOM_SEATS, ServerMessage};
use tokio::sync::mpsc;

use crate::relay::ClientId;
use crate::room::Member;
use crate::waiting::{Avoid, Control, Skip, refused};

/// Quick play of several seats, as the operator sets it (`docs/SERVER.md`, "Quick play").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QuickBattleConfig {
    /// Players a room needs before the countdown runs (3 to 8).
    pub needed: u8,
    /// How long the countdown runs once `needed` players wait.
    pub countdown: Duration,
    /// Round wins that win a quick-play match.
    pub first_to: u8,
}

impl Default for QuickBattleConfig {
    /// Three players, ten seconds, one round.
    fn default() -> Self {
        QuickBattleConfig {
            needed: 3,
            countdown: Duration::from_secs(10),
            first_to: 1,
        }
    }
}

impl QuickBattleConfig {
    /// `needed` within 3 to 8 (a room of several seats has at least three).
    pub(crate) fn needed(&self) -> usize {
        usize::from(self.needed).clamp(3, MAX_ROOM_SEATS)
    }
}

/// The state messages to the waiting go out at most this often (a newcomer hears at once).
pub(crate) const TELL_EVERY: Duration = Duration::from_millis(250);

/// A player waiting for a free-for-all room.
#[derive(Debug)]
pub(crate) struct Entry {
    pub(crate) member: Member,
    pub(crate) control: mpsc::Sender<Control>,
    /// Whom they must not share a room with (block lists).
    pub(crate) avoid: Avoid,
    /// When they queued here (the cluster's shared queue weighs instances by it).
    pub(crate) since: Instant,
}

/// The free-for-all queue (see the module docs).
#[derive(Debug, Default)]
pub(crate) struct BattleQueue {
    /// Oldest first.
    waiting: Vec<Entry>,
    /// When the countdown runs out, while it runs.
    deadline: Option<Instant>,
    /// The waiting have not heard of the latest change.
    changed: bool,
    /// When they last heard.
    told: Option<Instant>,
}

impl BattleQueue {
    /// Whether `client` waits here.
    pub(crate) fn contains(&self, client: ClientId) -> bool {
        self.waiting.iter().any(|e| e.member.client == client)
    }

    /// Adds a player (once: a client already waiting keeps its place). Each waiting player
    /// the newcomer may not share a room with is told to `skipped`.
    pub(crate) fn push(
        &mut self,
        entry: Entry,
        now: Instant,
        config: &QuickBattleConfig,
        skipped: &mut dyn FnMut(Skip),
    ) {
        if self.contains(entry.member.client) {
            return;
        }
        for w in &self.waiting {
            if let Some(skip) = refused(&w.member, &w.avoid, &entry.member, &entry.avoid) {
                skipped(skip);
            }
        }
        self.waiting.push(entry);
        self.changed = true;
        self.recount(now, config);
    }

    /// Takes `client` out; whether it was waiting.
    pub(crate) fn remove(
        &mut self,
        client: ClientId,
        now: Instant,
        config: &QuickBattleConfig,
    ) -> bool {
        let before = self.waiting.len();
        self.waiting.retain(|e| e.member.client != client);
        let gone = self.waiting.len() != before;
        if gone {
            self.changed = true;
            self.recount(now, config);
        }
        gone
    }

    /// How many wait (connections still open) and since when the longest has waited.
    pub(crate) fn summary(&self) -> Option<(usize, Instant)> {
        let open = self.waiting.iter().filter(|e| !e.member.outbox.is_cut());
        let (n, since) = open.fold((0, None::<Instant>), |(n, s), e| {
            (n + 1, Some(s.map_or(e.since, |s| s.min(e.since))))
        });
        since.map(|s| (n, s))
    }

    /// Empties the queue (a drain, or a move to another instance), returning who was waiting.
    pub(crate) fn take_all(&mut self) -> Vec<Entry> {
        self.deadline = None;
        self.changed = false;
        std::mem::take(&mut self.waiting)
    }

    /// Starts or stops the countdown for the number waiting now.
    fn recount(&mut self, now: Instant, config: &QuickBattleConfig) {
        if self.waiting.len() < config.needed() {
            self.deadline = None;
        } else if self.deadline.is_none() {
            self.deadline = Some(now + config.countdown);
        }
    }

    /// Takes out every group of players whose room starts at `now`: the longest-waiting
    /// players who may all play together (block lists), up to eight; a group of eight at once,
    /// a smaller one of at least `needed` when the countdown has run out. Connections that
    /// closed are dropped first.
    pub(crate) fn take_groups(
        &mut self,
        now: Instant,
        config: &QuickBattleConfig,
    ) -> Vec<Vec<Entry>> {
        let before = self.waiting.len();
        self.waiting.retain(|e| !e.member.outbox.is_cut());
        if self.waiting.len() != before {
            self.changed = true;
            self.recount(now, config);
        }
        let mut groups = Vec::new();
        loop {
            let group = self.compatible_group();
            let due = self.deadline.is_some_and(|d| d <= now);
            let starts = group.len() >= MAX_ROOM_SEATS || (due && group.len() >= config.needed());
            if !starts {
                if due {
                    // Enough wait, but block lists keep too many apart: count down again.
                    self.deadline = Some(now + config.countdown);
                    self.changed = true;
                }
                break;
            }
            // Indices ascend: remove from the back so the earlier ones stay put.
            let mut taken: Vec<Entry> = group
                .iter()
                .rev()
                .map(|&i| self.waiting.remove(i))
                .collect();
            taken.reverse();
            groups.push(taken);
            self.changed = true;
            // Whoever is left starts a countdown of their own.
            self.deadline = None;
            self.recount(now, config);
        }
        groups
    }

    /// The indices of the longest-waiting players who may all share a room, at most eight.
    fn compatible_group(&self) -> Vec<usize> {
        let mut group: Vec<usize> = Vec::new();
        for (i, e) in self.waiting.iter().enumerate() {
            if group.len() == MAX_ROOM_SEATS {
                break;
            }
            let fits = group.iter().all(|&j| {
                let o = &self.waiting[j];
                refused(&o.member, &o.avoid, &e.member, &e.avoid).is_none()
            });
            if fits {
                group.push(i);
            }
        }
        group
    }

    /// What a waiting player is told about the queue at `now`.
    pub(crate) fn state(&self, now: Instant, config: &QuickBattleConfig) -> ServerMessage {
        ServerMessage::QuickBattleQueue {
            waiting: self.waiting.len().min(usize::from(u16::MAX)) as u16,
            needed: config.needed() as u8,
            most: MAX_ROOM_SEATS as u8,
            starts_in_ms: self.deadline.map(|d| {
                let ms = d.saturating_duration_since(now).as_millis();
                ms.min(u128::from(u32::MAX)) as u32
            }),
        }
    }

    /// If the waiting are due to hear of a change at `now`: who to tell (and it is marked
    /// told). A change within [`TELL_EVERY`] of the last telling waits for [`Self::wake_at`].
    pub(crate) fn due_telling(&mut self, now: Instant) -> Option<Vec<crate::relay::Outbox>> {
        let ready = self.told.is_none_or(|t| now >= t + TELL_EVERY);
        if !self.changed || !ready {
            return None;
        }
        self.changed = false;
        self.told = Some(now);
        Some(
            self.waiting
                .iter()
                .map(|e| e.member.outbox.clone())
                .collect(),
        )
    }

    /// When the queue next needs a look: the countdown's end, or a held-back telling.
    pub(crate) fn wake_at(&self) -> Option<Instant> {
        let tell = self
            .changed
            .then(|| self.told.map_or_else(Instant::now, |t| t + TELL_EVERY));
        match (self.deadline, tell) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::limits::Limits;
    use crate::metrics::Metrics;
    use crate::moderation::Tags;

    const CONFIG: QuickBattleConfig = QuickBattleConfig {
        needed: 3,
        countdown: Duration::from_secs(10),
        first_to: 1,
    };

    /// A waiting player `client` (the outbox's queue is kept so the outbox stays open).
    fn entry(client: ClientId) -> (Entry, crate::relay::Queue) {
        let metrics = Metrics::new().expect("metrics");
        let (outbox, queue) = crate::relay::queue(client, &Limits::default(), metrics);
        let member = Member {
            client,
            name: format!("p{client}"),
            handling: sevenbag_core::Handling::default(),
            outbox,
            identity: None,
            tags: Arc::new(Tags::new([203, 0, 113, client as u8].into())),
        };
        let control = mpsc::channel(4).0;
        let avoid = Avoid {
            same_address_ok: true,
            ..Avoid::default()
        };
        (
            Entry {
                member,
                control,
                avoid,
                since: Instant::now(),
            },
            queue,
        )
    }

    fn queue_of(n: u64, now: Instant) -> (BattleQueue, Vec<crate::relay::Queue>) {
        let mut q = BattleQueue::default();
        let mut keep = Vec::new();
        for client in 1..=n {
            let (e, k) = entry(client);
            q.push(e, now, &CONFIG, &mut |_| {});
            keep.push(k);
        }
        (q, keep)
    }

    fn starts_in(q: &BattleQueue, now: Instant) -> Option<u32> {
        match q.state(now, &CONFIG) {
            ServerMessage::QuickBattleQueue { starts_in_ms, .. } => starts_in_ms,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_countdown_runs_once_enough_wait_and_starts_a_room_of_them_when_it_ends() {
        let now = Instant::now();
        let (mut q, _keep) = queue_of(2, now);
        assert_eq!(starts_in(&q, now), None);
        let (e, _k) = entry(3);
        q.push(e, now, &CONFIG, &mut |_| {});
        assert_eq!(starts_in(&q, now), Some(10_000));
        assert!(
            q.take_groups(now + Duration::from_secs(9), &CONFIG)
                .is_empty()
        );
        let groups = q.take_groups(now + Duration::from_secs(10), &CONFIG);
        assert_eq!(groups.len(), 1);
        let clients: Vec<_> = groups[0].iter().map(|e| e.member.client).collect();
        assert_eq!(clients, [1, 2, 3], "seated in the order they queued");
        assert!(
            q.wake_at()
                .is_some_and(|w| w <= now + Duration::from_secs(10))
        );
    }

    #[test]
    fn eight_start_a_room_at_once_and_a_ninth_waits_on() {
        let now = Instant::now();
        let (mut q, _keep) = queue_of(9, now);
        let groups = q.take_groups(now, &CONFIG);
        assert_eq!(groups.len(), 1);
        assert_eq!(groups[0].len(), 8);
        assert!(q.contains(9));
        assert_eq!(starts_in(&q, now), None, "one left: no countdown");
    }

    #[test]
    fn too_few_left_stop_the_countdown_and_a_second_join_keeps_one_place() {
        let now = Instant::now();
        let (mut q, _keep) = queue_of(3, now);
        let (again, _k) = entry(2);
        q.push(again, now, &CONFIG, &mut |_| {});
        assert!(q.remove(3, now, &CONFIG));
        assert!(!q.remove(3, now, &CONFIG));
        assert_eq!(starts_in(&q, now), None);
        assert!(
            q.take_groups(now + Duration::from_secs(60), &CONFIG)
                .is_empty()
        );
        match q.state(now, &CONFIG) {
            ServerMessage::QuickBattleQueue { waiting, .. } => assert_eq!(waiting, 2),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn changes_are_told_at_most_every_quarter_second() {
        let now = Instant::now();
        let (mut q, _keep) = queue_of(1, now);
        assert_eq!(q.due_telling(now).map(|o| o.len()), Some(1));
        let (e, _k) = entry(2);
        q.push(e, now, &CONFIG, &mut |_| {});
        assert!(q.due_telling(now + Duration::from_millis(100)).is_none());
        assert_eq!(q.wake_at(), Some(now + TELL_EVERY));
        assert_eq!(q.due_telling(now + TELL_EVERY).map(|o| o.len()), Some(2));
        assert_eq!(q.wake_at(), None, "nothing to tell, no countdown");
    }
}
