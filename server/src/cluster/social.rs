//! Presence, friendships and notifications across the instances, over the Redis pub/sub
//! channel `sevenbag:social` ([`store::SOCIAL`]).
//!
//! ## Records
//! Each message is one JSON object: `from` (the sending instance's id), `t` (the record's
//! kind) and the kind's fields ([`Record`]):
//! - `beat` `{ttl_ms}`: the instance is alive for `ttl_ms` more (sent every heartbeat);
//! - `presence` `{player, name, state, hidden}`: one of its players' state on that instance
//!   alone (`state` as [`PresenceState`] serializes: `"Online"`,
//!   `{"InMatch":{"kind":"Versus","code":"ACDEF"}}`...; `Offline` while `hidden`; `Offline`
//!   and not hidden once the player has no connection left there);
//! - `snapshot` `{players: [...]}`: all of them at once, replacing what it said before;
//! - `sync`: the sender (just subscribed) asks everyone for a snapshot;
//! - `bye`: the sender stops; its players are offline unless connected elsewhere;
//! - `friends` `{a, b, on}`: two players became friends (`on`) or are friends no more;
//! - `notification` `{to, notification: {id, kind, subject, content, created_unix}}`: a
//!   notification stored for a player the sender does not hold (or holds and who is
//!   connected elsewhere too), for the instances that hold them.
//!
//! The records carry everyone's presence; only the friends of a player ever hear it from an
//! instance (`crate::social::PresenceBook`), so the channel is as private as Redis is.
//!
//! ## Connections and failure
//! Records are published in order, from one task, on the store's shared connection (every
//! call bounded by [`store::CALL_TIMEOUT`]); a full queue drops records (logged). The channel
//! is read on a pub/sub connection of its own, which is reopened with a backoff (250 ms
//! doubling to 5 s) when it fails or when not even this instance's own beats come back on
//! it. Meanwhile, and whenever Redis is down, the instance serves its own players alone: the
//! other instances' words lapse one TTL after their last beat, so their players read as
//! offline here, as a crashed instance's players do everywhere. On every (re)subscription an
//! instance asks for everyone's snapshot and sends its own, so nothing missed meanwhile
//! stays wrong.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use serde::{Deserialize, Serialize};
use sevenbag_protocol::social::{Notification, PresenceState};
use sevenbag_storage::PlayerId;
use tokio::sync::mpsc;
use tracing::{info, warn};

use super::Cluster;
use super::store::{self, StoreError};
use crate::services::Services;
use crate::social::{Beyond, PresenceBook, Seen};

/// Records waiting to be published at most; past it they are dropped.
const QUEUE: usize = 4096;
/// The largest record read; a larger one is dropped.
const MAX_RECORD_BYTES: usize = 1 << 20;
/// Most players one snapshot lists.
const MAX_SNAPSHOT: usize = 5_000;
/// The shortest and longest TTL a beat may give.
const TTL_RANGE: (Duration, Duration) = (Duration::from_secs(1), Duration::from_secs(600));
/// The first wait before resubscribing, doubled after each failure up to [`MAX_BACKOFF`].
const FIRST_BACKOFF: Duration = Duration::from_millis(250);
const MAX_BACKOFF: Duration = Duration::from_secs(5);
/// How often lapsed instances are looked for.
const EXPIRE_TICK: Duration = Duration::from_millis(250);

/// One player's state on the sending instance.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Entry {
    player: i64,
    name: String,
    state: PresenceState,
    hidden: bool,
}

impl Entry {
    fn of(seen: &Seen) -> Entry {
        Entry {
            player: seen.player.0,
            name: seen.name.clone(),
            state: seen.state.clone(),
            hidden: seen.hidden,
        }
    }

    fn seen(self) -> Seen {
        Seen {
            player: PlayerId(self.player),
            name: self.name,
            state: self.state,
            hidden: self.hidden,
        }
    }
}

/// What one message on the channel says (see the module docs).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub(crate) enum Record {
    /// Alive for `ttl_ms` more.
    Beat { ttl_ms: u64 },
    /// Everyone: send a snapshot.
    Sync,
    /// The sender stops.
    Bye,
    /// One player's state there.
    Presence(Entry),
    /// All of the sender's players.
    Snapshot { players: Vec<Entry> },
    /// Friends (`on`) or not any more.
    Friends { a: i64, b: i64, on: bool },
    /// A notification for a player held elsewhere.
    Notification { to: i64, notification: Notification },
}

/// A record with its sender.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Envelope {
    from: String,
    #[serde(flatten)]
    record: Record,
}

/// The book's [`Beyond`]: queues records for the publishing task.
#[derive(Debug)]
struct Outgoing {
    queue: mpsc::Sender<Record>,
    /// Whether the queue was full last time (to log once per overflow).
    full: AtomicBool,
}

impl Outgoing {
    fn send(&self, record: Record) {
        match self.queue.try_send(record) {
            Ok(()) => self.full.store(false, Ordering::Relaxed),
            Err(mpsc::error::TrySendError::Full(_)) => {
                if !self.full.swap(true, Ordering::Relaxed) {
                    warn!("the social records queue is full: dropping records for the cluster");
                }
            }
            Err(mpsc::error::TrySendError::Closed(_)) => {}
        }
    }
}

impl Beyond for Outgoing {
    fn presence(&self, seen: &Seen) {
        self.send(Record::Presence(Entry::of(seen)));
    }

    fn friends(&self, a: PlayerId, b: PlayerId, on: bool) {
        self.send(Record::Friends { a: a.0, b: b.0, on });
    }

    fn notification(&self, to: PlayerId, notification: &Notification) {
        self.send(Record::Notification {
            to: to.0,
            notification: notification.clone(),
        });
    }
}

/// Attaches `book` to the cluster's channel: starts the publishing and the subscribed task.
pub(crate) fn start(cluster: Option<Arc<Cluster>>, book: &Arc<PresenceBook>, services: &Services) {
    let Some(cluster) = cluster else {
        return;
    };
    let (queue, records) = mpsc::channel(QUEUE);
    let out = Arc::new(Outgoing {
        queue,
        full: AtomicBool::new(false),
    });
    book.attach(out.clone());
    let publisher = cluster.clone();
    services.spawn_until_shutdown(|shutdown| publish(publisher, records, shutdown));
    let book = book.clone();
    services.spawn_until_shutdown(|shutdown| listen(cluster, book, out, shutdown));
}

async fn publish_one(cluster: &Cluster, record: Record) -> Result<(), StoreError> {
    let envelope = Envelope {
        from: cluster.store.id().to_string(),
        record,
    };
    match serde_json::to_string(&envelope) {
        Ok(text) => cluster.store.publish_social(&text).await,
        Err(e) => {
            warn!(error = %e, "a social record does not serialize");
            Ok(())
        }
    }
}

/// Publishes the queued records in order until shutdown, then says goodbye.
async fn publish(
    cluster: Arc<Cluster>,
    mut records: mpsc::Receiver<Record>,
    mut shutdown: crate::shutdown::Shutdown,
) {
    let mut healthy = true;
    loop {
        let record = tokio::select! {
            _ = shutdown.recv() => break,
            record = records.recv() => match record {
                Some(r) => r,
                None => break,
            },
        };
        match publish_one(&cluster, record).await {
            Ok(()) if !healthy => {
                info!("social records reach the cluster again");
                healthy = true;
            }
            Err(e) if healthy => {
                warn!(error = %e, "redis unavailable: presence and notifications stay on this instance");
                healthy = false;
            }
            _ => {}
        }
    }
    if let Err(e) = publish_one(&cluster, Record::Bye).await {
        warn!(error = %e, "cannot say goodbye on the social channel; our players lapse with the TTL");
    }
}

/// What the listening task keeps.
struct Listener {
    cluster: Arc<Cluster>,
    book: Arc<PresenceBook>,
    out: Arc<Outgoing>,
    /// Each instance's TTL, as its beats say.
    ttls: HashMap<String, Duration>,
    beat_every: Duration,
    last_beat: Option<Instant>,
}

impl Listener {
    /// The periodic work, subscribed or not: lapsed instances go, our beat goes out.
    fn tick(&mut self) {
        let now = Instant::now();
        self.book.expire(now);
        if self
            .last_beat
            .is_none_or(|t| now.duration_since(t) >= self.beat_every)
        {
            self.last_beat = Some(now);
            let ttl_ms = self.cluster.ttl.as_millis().min(u128::from(u64::MAX)) as u64;
            self.out.send(Record::Beat { ttl_ms });
        }
    }

    /// Our snapshot, for the others.
    fn send_snapshot(&self) {
        let mut players: Vec<Entry> = self.book.snapshot().iter().map(Entry::of).collect();
        if players.len() > MAX_SNAPSHOT {
            warn!(
                players = players.len(),
                listed = MAX_SNAPSHOT,
                "too many players for one snapshot: the rest are heard of on their next change"
            );
            players.truncate(MAX_SNAPSHOT);
        }
        self.out.send(Record::Snapshot { players });
    }

    /// Handles one message from the channel.
    fn hear(&mut self, payload: &[u8]) {
        if payload.len() > MAX_RECORD_BYTES {
            warn!(bytes = payload.len(), "dropping an oversized social record");
            return;
        }
        let envelope: Envelope = match serde_json::from_slice(payload) {
            Ok(e) => e,
            Err(e) => {
                warn!(error = %e, "dropping a social record that does not read");
                return;
            }
        };
        let from = envelope.from;
        if from == self.cluster.store.id() {
            return;
        }
        let ttl = self.ttls.get(&from).copied().unwrap_or(self.cluster.ttl);
        let until = Instant::now() + ttl;
        match envelope.record {
            Record::Beat { ttl_ms } => {
                let ttl = Duration::from_millis(ttl_ms).clamp(TTL_RANGE.0, TTL_RANGE.1);
                self.ttls.insert(from.clone(), ttl);
                if self.book.heard_alive(&from, Instant::now() + ttl) {
                    // An instance we had not heard of (or had given up on): ask for its word.
                    self.out.send(Record::Sync);
                }
            }
            Record::Sync => self.send_snapshot(),
            Record::Bye => {
                self.ttls.remove(&from);
                self.book.heard_gone(&from);
            }
            Record::Presence(entry) => self.book.heard(&from, entry.seen(), until),
            Record::Snapshot { players } => {
                let list = players.into_iter().map(Entry::seen).collect();
                self.book.heard_all(&from, list, until);
            }
            Record::Friends { a, b, on } => {
                self.book.heard_friends(PlayerId(a), PlayerId(b), on);
            }
            Record::Notification { to, notification } => {
                let message = sevenbag_protocol::ServerMessage::Notification { notification };
                self.book.send_to(PlayerId(to), &message);
            }
        }
    }
}

/// Reads the channel until shutdown, resubscribing with a backoff when it fails.
async fn listen(
    cluster: Arc<Cluster>,
    book: Arc<PresenceBook>,
    out: Arc<Outgoing>,
    mut shutdown: crate::shutdown::Shutdown,
) {
    let beat_every = (cluster.ttl / 3).min(Duration::from_secs(1));
    // Not even our own beats for this long: the subscription is dead.
    let silence = beat_every * 3 + store::CALL_TIMEOUT;
    let mut me = Listener {
        cluster,
        book,
        out,
        ttls: HashMap::new(),
        beat_every,
        last_beat: None,
    };
    let mut tick = tokio::time::interval(EXPIRE_TICK);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut backoff = FIRST_BACKOFF;
    let mut healthy = true;
    loop {
        let subscribed = tokio::select! {
            _ = shutdown.recv() => return,
            s = me.cluster.store.subscribe_social() => s,
        };
        let mut pubsub = match subscribed {
            Ok(p) => p,
            Err(e) => {
                if healthy {
                    warn!(error = %e, "cannot subscribe to the social channel: friends elsewhere read as offline");
                    healthy = false;
                }
                let wake = tokio::time::sleep(backoff);
                tokio::pin!(wake);
                loop {
                    tokio::select! {
                        _ = shutdown.recv() => return,
                        _ = &mut wake => break,
                        _ = tick.tick() => me.tick(),
                    }
                }
                backoff = (backoff * 2).min(MAX_BACKOFF);
                continue;
            }
        };
        if !healthy {
            info!("subscribed to the social channel again");
        }
        backoff = FIRST_BACKOFF;
        me.out.send(Record::Sync);
        me.send_snapshot();
        me.last_beat = None;
        let mut heard = Instant::now();
        let mut messages = pubsub.on_message();
        loop {
            tokio::select! {
                _ = shutdown.recv() => return,
                _ = tick.tick() => {
                    me.tick();
                    if heard.elapsed() > silence {
                        warn!("the social channel went quiet: subscribing again");
                        break;
                    }
                }
                message = messages.next() => match message {
                    Some(m) => {
                        heard = Instant::now();
                        me.hear(m.get_payload_bytes());
                    }
                    None => {
                        warn!("the social channel closed: subscribing again");
                        break;
                    }
                },
            }
        }
        // The break above logged the loss.
        healthy = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sevenbag_protocol::social::{MatchKind, NotificationKind};

    fn round_trip(record: Record) -> serde_json::Value {
        let envelope = Envelope {
            from: "00ab".into(),
            record,
        };
        let text = serde_json::to_string(&envelope).expect("serializes");
        let back: Envelope = serde_json::from_str(&text).expect("reads back");
        assert_eq!(back, envelope);
        serde_json::from_str(&text).expect("JSON")
    }

    #[test]
    fn records_are_small_json_objects_tagged_by_kind() {
        let presence = round_trip(Record::Presence(Entry {
            player: 7,
            name: "ann".into(),
            state: PresenceState::InMatch {
                kind: MatchKind::Ranked,
                code: "ACDEF".into(),
            },
            hidden: false,
        }));
        assert_eq!(
            presence,
            serde_json::json!({"from": "00ab", "t": "presence", "player": 7, "name": "ann",
                "state": {"InMatch": {"kind": "Ranked", "code": "ACDEF"}}, "hidden": false})
        );
        assert_eq!(
            round_trip(Record::Sync),
            serde_json::json!({"from": "00ab", "t": "sync"})
        );
        round_trip(Record::Beat { ttl_ms: 5000 });
        round_trip(Record::Bye);
        round_trip(Record::Friends {
            a: 1,
            b: 2,
            on: true,
        });
        round_trip(Record::Snapshot { players: vec![] });
        let n = round_trip(Record::Notification {
            to: 2,
            notification: Notification {
                id: 9,
                kind: NotificationKind::Invite,
                subject: "ann".into(),
                content: "{\"code\":\"ACDEF\"}".into(),
                created_unix: 1,
            },
        });
        assert_eq!(n["notification"]["kind"], "Invite");
    }
}
