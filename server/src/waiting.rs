//! Who waits to play: the ranked queue (rating-window pairing, see [`crate::ranked::window`]),
//! and the [`Control`] messages that tell a waiting connection where it was seated or sent.
//!
//! Apart from the lobby (which owns the queues) and the rating maths (`ranked.rs`), so that
//! `ranked.rs` needs neither the lobby nor the rooms, and the cluster and the connections can
//! name these types without importing each other.

use std::time::Instant;

use sevenbag_core::Seat;
use sevenbag_storage::PlayerId;
use tokio::sync::mpsc;

use crate::moderation::Notice;
use crate::ranked::window;
use crate::room::{Member, RoomHandle};

/// A client's place in a room, as its connection task keeps it.
#[derive(Clone, Debug)]
pub(crate) struct Membership {
    /// The room's code.
    pub(crate) code: String,
    /// Where to send room commands.
    pub(crate) handle: RoomHandle,
    /// The client's seat, or `None` for a spectator.
    pub(crate) seat: Option<Seat>,
}

/// Messages to a connection task from outside its own request handling.
#[derive(Debug)]
pub(crate) enum Control {
    /// Quick match paired this (queued) client into a room.
    Seated(Membership),
    /// The cluster found this (queued) client an opponent on another instance: it is out of
    /// the queue here and must be told to reconnect to this URL.
    Redirect(String),
    /// An operator acted on this connection's identity (`crate::moderation`).
    Moderation(Notice),
    /// The free-for-all queue let this (queued) client go without a room (it heard why).
    Unqueued,
}

/// Whom a waiting player must not be paired with (`docs/MODERATION.md`).
#[derive(Clone, Debug, Default)]
pub(crate) struct Avoid {
    /// Players they block or who block them.
    pub(crate) blocked: Vec<PlayerId>,
    /// Ranked opponents they have met as often as a day allows.
    pub(crate) met_enough: Vec<PlayerId>,
    /// Whether two identities from one address may be paired (ranked: the server's choice;
    /// quick match: always).
    pub(crate) same_address_ok: bool,
}

/// Why two waiting players were not paired (a metric's `event`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Skip {
    /// One blocks the other.
    Blocked,
    /// They met in ranked play as often as a day allows.
    DailyLimit,
    /// Both are connected from one address.
    SameAddress,
}

impl Skip {
    /// The metric's `event` label.
    pub(crate) fn event(self) -> &'static str {
        match self {
            Skip::Blocked => "pair_skipped_blocked",
            Skip::DailyLimit => "pair_skipped_daily_limit",
            Skip::SameAddress => "pair_skipped_same_address",
        }
    }
}

/// Why `a` and `b` may not play each other, if they may not.
pub(crate) fn refused(a: &Member, a_avoid: &Avoid, b: &Member, b_avoid: &Avoid) -> Option<Skip> {
    let (pa, pb) = (a.tags.player(), b.tags.player());
    let names = |list: &[PlayerId], p: Option<PlayerId>| p.is_some_and(|p| list.contains(&p));
    if names(&a_avoid.blocked, pb) || names(&b_avoid.blocked, pa) {
        return Some(Skip::Blocked);
    }
    if names(&a_avoid.met_enough, pb) || names(&b_avoid.met_enough, pa) {
        return Some(Skip::DailyLimit);
    }
    let same = a.tags.address_key() == b.tags.address_key();
    if same && !(a_avoid.same_address_ok && b_avoid.same_address_ok) {
        return Some(Skip::SameAddress);
    }
    None
}

/// A player in the ranked queue.
#[derive(Debug)]
pub(crate) struct Waiting {
    pub(crate) member: Member,
    pub(crate) control: mpsc::Sender<Control>,
    pub(crate) rating: f64,
    pub(crate) since: Instant,
    /// Whom not to pair them with.
    pub(crate) avoid: Avoid,
    /// Waiting players already counted as skipped (each pair counts once in the metrics).
    pub(crate) skipped: Vec<u64>,
}

/// The ranked queue.
#[derive(Debug, Default)]
pub(crate) struct Queue {
    waiting: Vec<Waiting>,
}

impl Queue {
    /// Empties the queue (a drain), returning who was waiting.
    pub(crate) fn take_all(&mut self) -> Vec<Waiting> {
        std::mem::take(&mut self.waiting)
    }

    /// Adds a player (replacing an earlier entry of the same player).
    pub(crate) fn push(&mut self, w: Waiting) {
        let player = w.member.identity.map(|i| i.id);
        self.waiting.retain(|o| {
            o.member.client != w.member.client && o.member.identity.map(|i| i.id) != player
        });
        self.waiting.push(w);
    }

    /// Removes a connection from the queue.
    /// Who waits: (client, rating, since), for the cluster's shared queue.
    pub(crate) fn snapshot(&self) -> Vec<(u64, f64, Instant)> {
        self.waiting
            .iter()
            .map(|w| (w.member.client, w.rating, w.since))
            .collect()
    }

    /// Takes `client` out of the queue, returning its entry.
    pub(crate) fn take(&mut self, client: u64) -> Option<Waiting> {
        let at = self
            .waiting
            .iter()
            .position(|w| w.member.client == client)?;
        Some(self.waiting.remove(at))
    }

    pub(crate) fn remove(&mut self, client: u64) {
        self.waiting.retain(|w| w.member.client != client);
    }

    /// Takes the next pair that accept each other at `now`, longest-waiting first; a pair the
    /// moderation rules keep apart is skipped, and told to `skipped` once.
    pub(crate) fn pair(
        &mut self,
        now: Instant,
        skipped: &mut dyn FnMut(Skip),
    ) -> Option<(Waiting, Waiting)> {
        self.waiting.retain(|w| !w.member.outbox.is_cut());
        let mut best: Option<(usize, usize, f64)> = None;
        let mut noted = Vec::new();
        for (i, a) in self.waiting.iter().enumerate() {
            for (j, b) in self.waiting.iter().enumerate().skip(i + 1) {
                let gap = (a.rating - b.rating).abs();
                let fits = gap <= window(now.saturating_duration_since(a.since))
                    && gap <= window(now.saturating_duration_since(b.since));
                if !fits {
                    continue;
                }
                if let Some(skip) = refused(&a.member, &a.avoid, &b.member, &b.avoid) {
                    if !a.skipped.contains(&b.member.client) {
                        noted.push((i, b.member.client, skip));
                    }
                    continue;
                }
                if best.is_none_or(|(_, _, g)| gap < g) {
                    best = Some((i, j, gap));
                }
            }
            if best.is_some() {
                break;
            }
        }
        for (i, other, skip) in noted {
            self.waiting[i].skipped.push(other);
            skipped(skip);
        }
        let (i, j, _) = best?;
        let b = self.waiting.remove(j);
        let a = self.waiting.remove(i);
        Some((a, b))
    }
}
