//! Several server instances on one Redis (`--redis URL --public-url URL`).
//!
//! Each room lives in exactly one instance, as in Colyseus: the instance that opened it runs
//! its task, its match and its replay. Redis holds what the instances must agree on: which
//! instances are alive (and where clients reach them), which instance runs which room code,
//! and who waits in the quick-match, ranked and free-for-all queues (see `store.rs` for the
//! keys).
//!
//! ## One free-for-all queue
//! Quick play of several seats gathers everyone on one instance rather than pairing across
//! them: each instance with players in its free-for-all queue advertises how many wait and
//! since when; the instance with the most (then the longest wait) is the gathering point, and
//! every other instance redirects its waiting players there, as quick match redirects one, so
//! they queue again in that instance's queue, which starts the room by its usual rule (enough
//! players and the countdown, or eight at once). A newcomer to an instance where nobody waits
//! is sent to the gathering point at once; one who queues where others wait moves with them
//! on the next [`QUEUE_TICK`].
//!
//! ## Redirect, not relay
//! An instance that gets a request for something another instance holds — a room code, or a
//! waiting opponent — answers [`ServerMessage::Redirect`] with that instance's public URL, and
//! the client connects there and asks again. Relaying (B proxying every input to A) would put
//! a second hop and a second send queue on the latency-critical input path of every
//! cross-instance match, and tie the match to two processes instead of one; a redirect costs
//! one reconnect before the match and nothing during it. Resume tokens keep working because a
//! client reconnects to the instance it was redirected to.
//!
//! ## Friends across instances
//! Presence, friendship changes and notifications for players held elsewhere travel on one
//! Redis pub/sub channel, `sevenbag:social`, as small JSON records (`social.rs`: the records,
//! the publishing task and the subscribed one). Each instance's `PresenceBook` keeps what the
//! other live instances said of their players, lapsing one TTL after an instance's last beat,
//! and pushes the busiest state to the friends connected here; a notification reaches the
//! instances that hold its receiver.
//!
//! ## Failure behaviour
//! - Every Redis call is bounded ([`store::CALL_TIMEOUT`]); when Redis fails, an instance
//!   serves on as a single box (local rooms and queues) and logs it; `/readyz` says
//!   `redis unavailable`.
//! - An instance's entries carry a TTL ([`ClusterConfig::ttl`]) refreshed by a heartbeat, so a
//!   dead instance's rooms and queue entries vanish from the directory within one TTL. Until
//!   then a client sent there finds nothing listening and gets a connection error at once.
//! - A directory URL is validated ([`valid_redirect_url`]) before it is sent; a forged one
//!   that points nowhere costs the client its connect timeout (`CONNECT_TIMEOUT`, 10 s), and a
//!   loop of redirects stops after [`sevenbag_protocol::MAX_REDIRECTS`].

mod social;
mod store;

pub(crate) use social::start as start_social;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use sevenbag_protocol::valid_redirect_url;
use tracing::{info, warn};

use crate::lobby::{self, CodeBook, Control, Lobby};
use crate::quick_battle;
use crate::relay::ClientId;
use store::{Store, StoreError};

/// Default lifetime of an instance's directory entries without a heartbeat.
pub const DEFAULT_TTL: Duration = Duration::from_secs(15);

/// How often queue entries are reconciled with the local queues (and cross-instance pairs
/// looked for): the longest extra wait a cross-instance quick match adds.
const QUEUE_TICK: Duration = Duration::from_millis(250);

/// How to join a cluster.
#[derive(Clone, Debug)]
pub struct ClusterConfig {
    /// `redis://host:port/db` of the shared Redis.
    pub redis_url: String,
    /// `ws://` or `wss://` URL at which clients (and so other instances' redirects) reach
    /// this instance.
    pub public_url: String,
    /// Lifetime of this instance's entries without a heartbeat; the heartbeat runs every
    /// third of it (at most every second).
    pub ttl: Duration,
}

/// Why an instance could not join its cluster.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    /// `--public-url` is not a usable `ws://`/`wss://` URL.
    #[error("--public-url {0:?} is not a ws:// or wss:// URL of at most 256 bytes")]
    PublicUrl(String),
    /// Redis could not be reached or refused us.
    #[error("cannot use redis at {url}: {detail}")]
    Redis {
        /// The URL given.
        url: String,
        /// What went wrong.
        detail: String,
    },
}

/// This instance's membership in a cluster.
#[derive(Debug)]
pub(crate) struct Cluster {
    store: Store,
    public_url: String,
    ttl: Duration,
}

fn unix_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis().min(u128::from(u64::MAX)) as u64)
}

/// When (Unix ms) something that happened at `since` happened.
fn unix_ms_of(since: Instant) -> u64 {
    unix_ms().saturating_sub(since.elapsed().as_millis().min(u128::from(u64::MAX)) as u64)
}

impl Cluster {
    /// Checks the configuration, connects to Redis and announces this instance.
    pub(crate) async fn join(config: &ClusterConfig) -> Result<Arc<Cluster>, ClusterError> {
        if !valid_redirect_url(&config.public_url) {
            return Err(ClusterError::PublicUrl(config.public_url.clone()));
        }
        let redis_error = |e: StoreError| ClusterError::Redis {
            // The URL may carry a password: show only what follows the last '@'.
            url: config
                .redis_url
                .rsplit('@')
                .next()
                .unwrap_or_default()
                .to_string(),
            detail: e.to_string(),
        };
        let id = format!("{:016x}", crate::refusal::random_u64());
        let ttl = config.ttl.max(Duration::from_secs(1));
        let store = Store::connect(&config.redis_url, id, ttl)
            .await
            .map_err(redis_error)?;
        store
            .heartbeat(&config.public_url)
            .await
            .map_err(redis_error)?;
        info!(instance = store.id(), public_url = %config.public_url, "joined the cluster");
        Ok(Arc::new(Cluster {
            store,
            public_url: config.public_url.clone(),
            ttl,
        }))
    }

    /// Whether Redis answers (for `/readyz`).
    pub(crate) async fn ready(&self) -> Result<(), String> {
        self.store.ping().await.map_err(|e| e.to_string())
    }

    /// A URL from the directory, if it may be sent to a client.
    fn usable(&self, url: Option<String>, what: &str) -> Option<String> {
        let url = url?;
        if url == self.public_url {
            return None;
        }
        if !valid_redirect_url(&url) {
            warn!(
                what,
                url = %url.chars().take(64).collect::<String>(),
                "ignoring a directory entry that is not a ws:// URL (forged?)"
            );
            return None;
        }
        Some(url)
    }

    /// Where room `code` runs, if another live instance runs it.
    pub(crate) async fn locate_room(&self, code: &str) -> Option<String> {
        match self.store.locate_room(code).await {
            Ok(url) => self.usable(url, "room"),
            Err(e) => {
                warn!(error = %e, "room directory unavailable; only local rooms are found");
                None
            }
        }
    }

    /// For a player who found no opponent here: another instance whose quick-match player
    /// waits, reserved for this player.
    pub(crate) async fn claim_quick(&self) -> Option<String> {
        match self.store.claim_quick(None).await {
            Ok(url) => self.usable(url, "quick-match queue"),
            Err(e) => {
                warn!(error = %e, "quick-match queue unavailable; pairing locally only");
                None
            }
        }
    }

    /// For a free-for-all player where nobody waits: the instance that gathers the shared
    /// free-for-all queue, if it is another one.
    pub(crate) async fn ffa_host(&self) -> Option<String> {
        match self.store.gather_ffa(0, 0).await {
            Ok(url) => self.usable(url, "free-for-all queue"),
            Err(e) => {
                warn!(error = %e, "free-for-all queue unavailable; gathering locally only");
                None
            }
        }
    }

    /// A room code no instance holds, now in the directory as this instance's (`None` when
    /// Redis does not answer: the room then gets a local code, registered in the background).
    pub(crate) async fn reserve_code(&self, lobby: &Lobby) -> Option<String> {
        for _ in 0..8 {
            let code = lobby::unused_code(lobby);
            match self.store.claim_rooms(std::slice::from_ref(&code)).await {
                Ok(1) => return Some(code),
                Ok(_) => continue,
                Err(e) => {
                    warn!(error = %e, "room directory unavailable; the room gets a local code");
                    return None;
                }
            }
        }
        None
    }

    /// Puts room `code` in the directory (in the background: opening a room never waits on
    /// Redis; a created room's code was reserved before, see [`Cluster::reserve_code`]). A code
    /// another instance already holds stays theirs: a quick or ranked room is then reachable by
    /// code only here, which `docs/SERVER.md` counts (1 in ~10 000 at 1 000 rooms).
    pub(crate) fn room_opened(self: &Arc<Self>, code: &str) {
        let (cluster, code) = (self.clone(), code.to_string());
        tokio::spawn(async move {
            match cluster.store.claim_rooms(std::slice::from_ref(&code)).await {
                Ok(0) => warn!(room = %code, "room code already held by another instance"),
                Ok(_) => {}
                Err(e) => warn!(room = %code, error = %e, "cannot register the room"),
            }
        });
    }

    /// Takes room `code` out of the directory (in the background).
    pub(crate) fn room_closed(self: &Arc<Self>, code: &str) {
        let (cluster, code) = (self.clone(), code.to_string());
        tokio::spawn(async move {
            if let Err(e) = cluster.store.release_room(&code).await {
                warn!(room = %code, error = %e, "cannot unregister the room");
            }
        });
    }
}

/// The cluster as the lobby's [`CodeBook`]: rooms opening and closing here go to the directory.
pub(crate) fn code_book(cluster: Arc<Cluster>) -> Arc<dyn CodeBook> {
    Arc::new(ClusterCodes(cluster))
}

#[derive(Debug)]
struct ClusterCodes(Arc<Cluster>);

impl CodeBook for ClusterCodes {
    fn room_opened(&self, code: &str) {
        self.0.room_opened(code);
    }

    fn room_closed(&self, code: &str) {
        self.0.room_closed(code);
    }
}

/// What this instance has put in the shared queues, so each entry keeps its score.
#[derive(Default)]
struct Advertised {
    quick: Option<(ClientId, u64)>,
    ranked: HashMap<ClientId, (String, u64)>,
}

/// Starts the heartbeat and queue task: refreshes this instance's entries, mirrors the local
/// queues into Redis, and moves a waiting player to another instance whose older entry fits.
pub(crate) fn start(cluster: Option<Arc<Cluster>>, lobby: &Arc<Lobby>) {
    let Some(cluster) = cluster else {
        return;
    };
    let shared = lobby.clone();
    let services = &lobby.services;
    services.spawn_until_shutdown(|mut shutdown| async move {
        let beat_every = (cluster.ttl / 3).min(Duration::from_secs(1));
        let mut last_beat = Instant::now();
        let mut tick = tokio::time::interval(QUEUE_TICK);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut advertised = Advertised::default();
        let mut healthy = true;
        loop {
            tokio::select! {
                _ = shutdown.recv() => break,
                _ = tick.tick() => {}
            }
            let beat = last_beat.elapsed() >= beat_every;
            let result = async {
                if beat {
                    heartbeat(&shared, &cluster).await?;
                }
                queues(&shared, &cluster, &mut advertised).await
            }
            .await;
            if beat {
                last_beat = Instant::now();
            }
            match result {
                Ok(()) if !healthy => {
                    info!("redis answers again");
                    healthy = true;
                }
                Err(e) if healthy => {
                    warn!(error = %e, "redis unavailable; serving local rooms and queues only");
                    healthy = false;
                }
                _ => {}
            }
        }
        let rooms = lobby::room_codes(&shared);
        let ranked: Vec<String> = advertised.ranked.into_values().map(|(m, _)| m).collect();
        match cluster.store.leave(&rooms, &ranked).await {
            Ok(()) => info!("left the cluster"),
            Err(e) => warn!(error = %e, "cannot leave the cluster cleanly; entries expire"),
        }
    });
}

async fn heartbeat(shared: &Lobby, cluster: &Cluster) -> Result<(), StoreError> {
    cluster.store.heartbeat(&cluster.public_url).await?;
    let codes = lobby::room_codes(shared);
    cluster.store.claim_rooms(&codes).await?;
    Ok(())
}

/// Sends a waiting player to another instance.
fn redirect(control: tokio::sync::mpsc::Sender<Control>, url: String) {
    if control.try_send(Control::Redirect(url)).is_err() {
        warn!("a queued player vanished while being redirected");
    }
}

async fn queues(
    shared: &Lobby,
    cluster: &Cluster,
    advertised: &mut Advertised,
) -> Result<(), StoreError> {
    let store = &cluster.store;
    // Quick match: at most one player waits per instance.
    match lobby::quick_waiter(shared) {
        Some((client, since)) => {
            let score = match advertised.quick {
                Some((c, s)) if c == client => s,
                _ => unix_ms_of(since),
            };
            advertised.quick = Some((client, score));
            let older = store.claim_quick(Some(score)).await?;
            match cluster.usable(older, "quick-match queue") {
                Some(url) => {
                    if let Some(control) = lobby::take_quick_waiter(shared, client) {
                        redirect(control, url);
                    }
                    advertised.quick = None;
                    store.set_quick(None).await?;
                }
                None => store.set_quick(Some(score)).await?,
            }
        }
        None => {
            advertised.quick = None;
            store.set_quick(None).await?;
        }
    }
    // Free for all: advertise who waits here; if another instance gathers the shared queue,
    // send them all there.
    let (count, since) =
        quick_battle::waiting_summary(shared).map_or((0, 0), |(n, since)| (n, unix_ms_of(since)));
    let host = store.gather_ffa(count, since).await?;
    if count > 0
        && let Some(url) = cluster.usable(host, "free-for-all queue")
    {
        let moved = quick_battle::send_all_away(shared, &url);
        info!(players = moved, %url, "free-for-all players sent to the gathering instance");
    }
    // Ranked: mirror the local queue, then look for an older fitting entry elsewhere.
    let waiting = lobby::ranked_waiters(shared);
    let mut add = Vec::new();
    let mut keep = HashMap::new();
    for &(client, rating, since) in &waiting {
        let entry = match advertised.ranked.remove(&client) {
            Some(e) => e,
            None => {
                let e = (store.ranked_member(client, rating), unix_ms_of(since));
                add.push(e.clone());
                e
            }
        };
        keep.insert(client, entry);
    }
    let gone: Vec<String> = std::mem::replace(&mut advertised.ranked, keep)
        .into_values()
        .map(|(m, _)| m)
        .collect();
    store.set_ranked(&add, &gone).await?;
    let now = unix_ms();
    for (client, rating, _) in waiting {
        let Some((member, since)) = advertised.ranked.get(&client).cloned() else {
            continue;
        };
        let older = store.claim_ranked(&member, since, rating, now).await?;
        if let Some(url) = cluster.usable(older, "ranked queue")
            && let Some(control) = lobby::take_ranked_waiter(shared, client)
        {
            redirect(control, url);
            advertised.ranked.remove(&client);
            store.set_ranked(&[], &[member]).await?;
        }
    }
    Ok(())
}
