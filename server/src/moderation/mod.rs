//! Moderation and fair play on the server (`docs/MODERATION.md`): the operator's sanctions as
//! every instance enforces them, the limits on identities and ranked pairings, bots in the
//! open, and players' reports and block lists.
//!
//! ## Layout
//! - this file: [`ModerationConfig`], and [`Moderation`], what a running server knows: the
//!   sanctions in force (a snapshot of the database), which connection plays as which
//!   identity (to reach them when an operator acts), and the admin tokens;
//! - `sync.rs`: keeps the snapshot current and carries actions to live connections, on every
//!   instance (see "Several instances" below);
//! - `requests.rs`: a player's moderation requests (declare a bot, report, block);
//! - `address.rs`: address keys and banned ranges; `tags.rs`: a connection's [`Tags`], which
//!   rooms read; `tokens.rs`: the admin tokens and their constant-time check.
//!
//! The admin API itself is `crate::admin`; the inhuman-input screening `crate::screen`.
//!
//! ## Several instances
//! Operator actions are rows in the shared database (PostgreSQL with `--postgres`), each with
//! an audit log entry in the same transaction. Every instance polls the audit log's newest id
//! every [`ModerationConfig::sync_every`] (one indexed `MAX(id)`), and when it moved, re-reads
//! the sanctions in force and applies the new entries to its own live connections (a banned
//! player is cut, a renamed one told). The instance that took the action does the same before
//! it answers.
//! So an action reaches every instance within about a second, with no other moving part:
//! Redis is not needed for it, and an instance that missed a beat (its database briefly down)
//! catches up from the log.

mod address;
mod requests;
mod sync;
mod tags;
mod tokens;

use std::collections::HashMap;
use std::net::IpAddr;
use std::path::PathBuf;
use std::sync::atomic::AtomicI64;
use std::sync::{Mutex, RwLock};
use std::time::Duration;

use ipnet::IpNet;
use sevenbag_storage::{InForce, PlayerId, Sanction};

pub(crate) use address::parse_range;
pub(crate) use requests::{
    block, blocks, declare_bot, on_identified, profile_marks, report, unblock,
};
pub(crate) use sync::{follow, load, start as start_sync};
pub(crate) use tags::Tags;
pub use tokens::AdminTokenError;
pub(crate) use tokens::AdminTokens;

use crate::screen::ScreenBounds;

/// Operator tools and the fair-play limits. [`Default`] is what the binary runs with (every
/// limit on); tests that do not test these turn them off ([`ModerationConfig::permissive`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModerationConfig {
    /// The admin API's bearer tokens (`--admin-token-file`); `None`: `/admin/` answers `404`.
    pub admin_token_file: Option<PathBuf>,
    /// New identities one address (IPv4) or /64 (IPv6) may register per hour; `None`: no limit.
    pub registrations_per_hour: Option<u32>,
    /// The same per 24 hours.
    pub registrations_per_day: Option<u32>,
    /// Ranked matches the same two identities may play against each other in 24 hours;
    /// `None`: no limit.
    pub ranked_pair_daily: Option<u32>,
    /// Whether ranked play may pair two identities connected from one address (IPv4) or /64.
    pub ranked_same_address: bool,
    /// Whether declared bots may queue for ranked play (load tests of the ranked queue only).
    pub ranked_bots: bool,
    /// Ranked matches are screened for inhuman input with these bounds; `None`: not screened.
    pub screening: Option<ScreenBounds>,
    /// Reports one identity may file per hour.
    pub reports_per_hour: u32,
    /// Reports one identity may file per 24 hours.
    pub reports_per_day: u32,
    /// How often the sanctions are re-read when the audit log moved (other instances' actions).
    pub sync_every: Duration,
}

impl Default for ModerationConfig {
    fn default() -> Self {
        ModerationConfig {
            admin_token_file: None,
            registrations_per_hour: Some(3),
            registrations_per_day: Some(10),
            ranked_pair_daily: Some(5),
            ranked_same_address: false,
            ranked_bots: false,
            screening: Some(ScreenBounds::default()),
            reports_per_hour: 5,
            reports_per_day: 20,
            sync_every: Duration::from_secs(1),
        }
    }
}

impl ModerationConfig {
    /// No registration or pairing limits and no screening (tests of other things, which
    /// register many identities from 127.0.0.1 and play scripted, inhuman matches). Bots are
    /// still refused by ranked play and records.
    pub fn permissive() -> ModerationConfig {
        ModerationConfig {
            registrations_per_hour: None,
            registrations_per_day: None,
            ranked_pair_daily: None,
            ranked_same_address: true,
            screening: None,
            ..ModerationConfig::default()
        }
    }
}

/// Something an operator did that a live connection must hear of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Notice {
    /// The identity was banned: leave everything and close, saying this.
    Banned(String),
    /// The identity was muted (this says why and until when).
    Muted(String),
    /// The identity was renamed.
    Renamed {
        /// The new name.
        name: String,
    },
    /// The identity was marked a bot, or unmarked.
    Bot(bool),
}

/// Delivers a [`Notice`] to one connection (its control channel); `false` if it is gone.
pub(crate) type Notifier = Box<dyn Fn(Notice) -> bool + Send + Sync>;

/// The sanctions in force, as the checks read them.
#[derive(Debug, Default)]
struct Snapshot {
    bans: HashMap<PlayerId, Sanction>,
    mutes: HashMap<PlayerId, Sanction>,
    networks: Vec<(IpNet, sevenbag_storage::AddressBan)>,
}

impl Snapshot {
    fn of(force: InForce) -> Snapshot {
        let networks = force
            .address_bans
            .into_iter()
            .filter_map(|b| match parse_range(&b.network) {
                Ok(net) => Some((net, b)),
                Err(e) => {
                    tracing::warn!(network = %b.network, error = %e, "a stored address ban does not parse; ignored");
                    None
                }
            })
            .collect();
        // The latest sanction of a player is the one shown.
        let by_player = |list: Vec<Sanction>| {
            let mut map = HashMap::new();
            for s in list {
                map.insert(s.player, s);
            }
            map
        };
        Snapshot {
            bans: by_player(force.bans),
            mutes: by_player(force.mutes),
            networks,
        }
    }
}

/// "until 2026-11-23T10:31:07Z" or "with no end date".
fn until(until_unix: Option<u64>) -> String {
    match until_unix {
        Some(t) => format!(
            "until {}",
            sevenbag_protocol::civil::CivilUtc::from_unix(t).rfc3339()
        ),
        None => "with no end date".to_string(),
    }
}

/// What a banned player is told.
pub(crate) fn ban_text(reason: &str, until_unix: Option<u64>) -> String {
    format!("this identity is banned {}: {reason}", until(until_unix))
}

/// What a muted player is told.
pub(crate) fn mute_text(reason: &str, until_unix: Option<u64>) -> String {
    format!("this identity may not chat {}: {reason}", until(until_unix))
}

/// A running server's moderation state (one per instance, shared by connections and routes).
pub(crate) struct Moderation {
    config: ModerationConfig,
    admin: Option<AdminTokens>,
    snapshot: RwLock<Snapshot>,
    /// Live connections by identity: (connection id, how to reach it).
    live: Mutex<HashMap<PlayerId, Vec<(u64, Notifier)>>>,
    /// One look at the audit log at a time (the sync task's, or an action's here).
    following: tokio::sync::Mutex<()>,
    /// The newest audit entry applied.
    seen: AtomicI64,
}

impl std::fmt::Debug for Moderation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Moderation")
            .field("config", &self.config)
            .field("admin", &self.admin)
            .finish_non_exhaustive()
    }
}

impl Moderation {
    /// Moderation for a server configured with `config` (the token file is read here).
    pub(crate) fn new(config: ModerationConfig) -> Result<Moderation, AdminTokenError> {
        let admin = match &config.admin_token_file {
            Some(path) => Some(AdminTokens::load(path)?),
            None => None,
        };
        Ok(Moderation {
            config,
            admin,
            snapshot: RwLock::new(Snapshot::default()),
            live: Mutex::new(HashMap::new()),
            following: tokio::sync::Mutex::new(()),
            seen: AtomicI64::new(0),
        })
    }

    /// The admin tokens, when the admin API is on.
    pub(crate) fn admin(&self) -> Option<&AdminTokens> {
        self.admin.as_ref()
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, Snapshot> {
        self.snapshot.read().unwrap_or_else(|p| p.into_inner())
    }

    /// Why `player` may not play now, if banned.
    pub(crate) fn ban_of(&self, player: PlayerId, now: u64) -> Option<String> {
        let snapshot = self.read();
        let s = snapshot.bans.get(&player).filter(|s| s.in_force(now))?;
        Some(ban_text(&s.reason, s.until_unix))
    }

    /// Why `player` may not chat now, if muted.
    pub(crate) fn mute_of(&self, player: PlayerId, now: u64) -> Option<String> {
        let snapshot = self.read();
        let s = snapshot.mutes.get(&player).filter(|s| s.in_force(now))?;
        Some(mute_text(&s.reason, s.until_unix))
    }

    /// Why `ip` may not connect now, if its range is banned.
    pub(crate) fn address_ban(&self, ip: IpAddr, now: u64) -> Option<String> {
        let snapshot = self.read();
        let (_, b) = snapshot
            .networks
            .iter()
            .find(|(net, b)| b.in_force(now) && address::contains(net, ip))?;
        Some(format!(
            "connections from this address are banned {}: {}",
            until(b.until_unix),
            b.reason
        ))
    }

    /// Connection `client` now plays as `player`, reachable through `notify`.
    pub(crate) fn attach(&self, player: PlayerId, client: u64, notify: Notifier) {
        let mut live = self.live.lock().unwrap_or_else(|p| p.into_inner());
        let list = live.entry(player).or_default();
        list.retain(|(c, _)| *c != client);
        list.push((client, notify));
    }

    /// Connection `client` no longer plays as `player` (it closed, or identified as another).
    pub(crate) fn detach(&self, player: PlayerId, client: u64) {
        let mut live = self.live.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(list) = live.get_mut(&player) {
            list.retain(|(c, _)| *c != client);
            if list.is_empty() {
                live.remove(&player);
            }
        }
    }

    /// Tells every live connection of `player` here.
    pub(crate) fn notify(&self, player: PlayerId, notice: &Notice) -> usize {
        let mut live = self.live.lock().unwrap_or_else(|p| p.into_inner());
        let Some(list) = live.get_mut(&player) else {
            return 0;
        };
        list.retain(|(_, notify)| notify(notice.clone()));
        list.len()
    }
}
