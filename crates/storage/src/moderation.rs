//! What the server remembers for moderation (`docs/MODERATION.md`): sanctions (bans and mutes
//! of identities, bans of address ranges), the audit log of every operator action, players'
//! reports, their block lists, bot declarations, and ranked matches flagged for inhuman input.
//!
//! [`ModerationStorage`] is a supertrait of [`crate::Storage`], implemented by both backends
//! (`sqlite/moderation.rs`, `postgres/moderation.rs`) with the same schema (migration 3).
//!
//! ## The audit log cannot be edited through the server
//! Every operator action goes through [`ModerationStorage::moderate`], which applies it and
//! appends its [`Audit`] entry in one transaction: an action without its entry (or an entry
//! without its action) is never stored. Nothing in this interface updates or deletes an entry.

use crate::{MatchId, Player, PlayerId, StorageError, StoredMatch};

/// An audit log entry's id (increasing: a later action has a larger id).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AuditId(pub i64);

/// A report's id: a random positive number chosen by the server, so ids reveal nothing about
/// how many reports exist, and one cannot be guessed from another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ReportId(pub i64);

/// What a sanction on an identity forbids.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SanctionKind {
    /// No identifying, queueing, creating or joining rooms.
    Ban,
    /// No chat.
    Mute,
}

impl SanctionKind {
    /// Its name as stored (`ban`, `mute`).
    pub const fn name(self) -> &'static str {
        match self {
            SanctionKind::Ban => "ban",
            SanctionKind::Mute => "mute",
        }
    }

    fn parse(s: &str) -> Option<SanctionKind> {
        match s {
            "ban" => Some(SanctionKind::Ban),
            "mute" => Some(SanctionKind::Mute),
            _ => None,
        }
    }
}

/// A ban or mute of an identity.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sanction {
    /// Row id.
    pub id: i64,
    /// Who.
    pub player: PlayerId,
    /// Ban or mute.
    pub kind: SanctionKind,
    /// Why (shown to the player).
    pub reason: String,
    /// When it was given (Unix seconds).
    pub created_unix: u64,
    /// When it ends by itself; `None`: until lifted.
    pub until_unix: Option<u64>,
    /// When an operator lifted it.
    pub lifted_unix: Option<u64>,
}

impl Sanction {
    /// In force at `now`: not lifted and not run out.
    pub fn in_force(&self, now: u64) -> bool {
        self.lifted_unix.is_none() && self.until_unix.is_none_or(|u| u > now)
    }
}

/// A ban of an address range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AddressBan {
    /// Row id.
    pub id: i64,
    /// The range in CIDR form (`203.0.113.0/24`, `2001:db8::/32`), as the server validated it.
    pub network: String,
    /// Why (shown to whoever connects from it).
    pub reason: String,
    /// When it was given.
    pub created_unix: u64,
    /// When it ends by itself; `None`: until lifted.
    pub until_unix: Option<u64>,
    /// When an operator lifted it.
    pub lifted_unix: Option<u64>,
}

impl AddressBan {
    /// In force at `now`.
    pub fn in_force(&self, now: u64) -> bool {
        self.lifted_unix.is_none() && self.until_unix.is_none_or(|u| u > now)
    }
}

/// Every sanction in force at one moment (what each server instance keeps in memory).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InForce {
    /// Identity bans.
    pub bans: Vec<Sanction>,
    /// Identity mutes.
    pub mutes: Vec<Sanction>,
    /// Address-range bans.
    pub address_bans: Vec<AddressBan>,
}

/// An operator action. [`ModerationStorage::moderate`] applies it with its audit entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Ban an identity (until `until_unix`, or until lifted).
    Ban {
        /// Who.
        player: PlayerId,
        /// Why.
        reason: String,
        /// When it ends by itself.
        until_unix: Option<u64>,
    },
    /// Lift every ban of an identity in force.
    Unban {
        /// Who.
        player: PlayerId,
    },
    /// Mute an identity.
    Mute {
        /// Who.
        player: PlayerId,
        /// Why.
        reason: String,
        /// When it ends by itself.
        until_unix: Option<u64>,
    },
    /// Lift every mute of an identity in force.
    Unmute {
        /// Who.
        player: PlayerId,
    },
    /// Give an identity another name (an offensive one replaced).
    Rename {
        /// Who.
        player: PlayerId,
        /// The new name.
        name: String,
        /// Its folded form (`sevenbag_protocol::identity::name_key`).
        name_key: String,
    },
    /// Take an identity off every leaderboard (ratings and solo records), or put it back.
    Listed {
        /// Who.
        player: PlayerId,
        /// `false`: off the boards.
        listed: bool,
    },
    /// Mark an identity as a bot, or take the mark away.
    Bot {
        /// Who.
        player: PlayerId,
        /// The mark.
        bot: bool,
    },
    /// Ban an address range.
    BanAddress {
        /// The range, in CIDR form (validated by the caller).
        network: String,
        /// Why.
        reason: String,
        /// When it ends by itself.
        until_unix: Option<u64>,
    },
    /// Lift an address ban.
    LiftAddressBan {
        /// Its id.
        id: i64,
    },
    /// Close an open report.
    CloseReport {
        /// Which.
        report: ReportId,
        /// What was done (`dismissed`, `banned`, ...).
        resolution: String,
    },
    /// Close the review of a flagged match.
    ReviewFlag {
        /// The match.
        match_id: MatchId,
        /// The operator's verdict (`human`, `cheat`).
        verdict: String,
    },
    /// Take a published skin down: its bytes are dropped, and the same pixels are refused if
    /// published again.
    RemoveSkin {
        /// Its content address ([`crate::skins::is_skin_id`]).
        id: String,
    },
}

/// The audit entry an action leaves: who did it, to what, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Audit {
    /// The operator (the name of the admin token used).
    pub actor: String,
    /// The action's name (`ban`, `rename`, `close_report`, ...).
    pub action: String,
    /// What it was done to (`player:12`, `network:203.0.113.0/24`, `report:…`).
    pub target: String,
    /// The operator's reason.
    pub reason: String,
    /// The action's details as JSON text (`{"until_unix":…}`).
    pub detail: String,
    /// When (Unix seconds).
    pub at_unix: u64,
}

/// A stored audit entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AuditEntry {
    /// Its id.
    pub id: AuditId,
    /// What was recorded.
    pub audit: Audit,
}

/// A player as an operator sees them.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerRecord {
    /// The player.
    pub player: Player,
    /// Declared (or marked) a bot.
    pub bot: bool,
    /// Off the leaderboards.
    pub delisted: bool,
    /// The address (IPv4) or /64 (IPv6) the identity was registered from, if known.
    pub registered_from: Option<String>,
    /// The ban in force, if any.
    pub ban: Option<Sanction>,
    /// The mute in force, if any.
    pub mute: Option<Sanction>,
}

/// Which players a search lists.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PlayerFilter {
    /// Everyone.
    #[default]
    All,
    /// Banned now.
    Banned,
    /// Muted now.
    Muted,
    /// Declared or marked bots.
    Bots,
    /// Off the leaderboards.
    Delisted,
}

/// An operator's player search.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayerSearch {
    /// A piece of a folded name (`name_key`) that listed names contain; `None`: any name.
    pub name_key: Option<String>,
    /// Which players.
    pub filter: PlayerFilter,
    /// At most this many, oldest identity first...
    pub limit: u32,
    /// ...after skipping this many.
    pub offset: u32,
}

/// A report to file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewReport {
    /// Its id (random, chosen by the server).
    pub id: ReportId,
    /// Who reports.
    pub reporter: PlayerId,
    /// Who is reported.
    pub reported: PlayerId,
    /// `cheating`, `abuse`, ... (`sevenbag_protocol::moderation::ReportCategory::name`).
    pub category: String,
    /// What the reporter wrote (cleaned and bounded by the server).
    pub text: String,
    /// The replay of the match it is about.
    pub replay: Option<String>,
    /// When.
    pub created_unix: u64,
}

/// How a report was closed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Closure {
    /// When.
    pub at_unix: u64,
    /// By which operator.
    pub by: String,
    /// What was done.
    pub resolution: String,
}

/// A stored report, with names as they are now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// What was filed.
    pub filed: NewReport,
    /// The reporter's current name.
    pub reporter_name: String,
    /// The reported player's current name.
    pub reported_name: String,
    /// The stored match whose replay the report names, once the match is stored.
    pub match_id: Option<MatchId>,
    /// Closed, or `None` while open.
    pub closed: Option<Closure>,
}

/// A ranked match the server's screening flagged for inhuman input (kept, not rated).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchFlag {
    /// The match.
    pub match_id: MatchId,
    /// The flagged seat (0 or 1).
    pub seat: u8,
    /// Its identity.
    pub player: Option<PlayerId>,
    /// The rule it broke (`speed`, `taps`, `gaps`).
    pub rule: String,
    /// What was measured, for people.
    pub detail: String,
    /// When it was flagged.
    pub created_unix: u64,
}

/// A flag and its review.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlaggedMatch {
    /// The flag.
    pub flag: MatchFlag,
    /// The flagged seat's name in the match.
    pub name: String,
    /// The review's verdict, once reviewed.
    pub review: Option<Closure>,
}

/// Whether a listing shows open items, closed ones, or both.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Openness {
    /// Not yet closed (reports) or reviewed (flags).
    #[default]
    Open,
    /// Closed or reviewed.
    Closed,
    /// Both.
    All,
}

/// A limit on a count over a time window, for [`ModerationStorage::block`]-like checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PairLimit {
    /// Ranked matches two identities may play against each other...
    pub max: u32,
    /// ...since this time (Unix seconds).
    pub since_unix: u64,
}

/// Moderation's side of the storage. Calls block, like [`crate::Storage`]'s.
pub trait ModerationStorage {
    /// Players matching `search`, oldest identity first, with their sanctions in force at
    /// `now`.
    fn search_players(
        &self,
        search: &PlayerSearch,
        now: u64,
    ) -> Result<Vec<PlayerRecord>, StorageError>;
    /// One player as an operator sees them.
    fn player_record(&self, id: PlayerId, now: u64) -> Result<Option<PlayerRecord>, StorageError>;
    /// Every sanction an identity was ever given, newest first.
    fn sanctions_of(&self, player: PlayerId) -> Result<Vec<Sanction>, StorageError>;
    /// Every sanction in force at `now`.
    fn in_force(&self, now: u64) -> Result<InForce, StorageError>;
    /// Every address ban, newest first (lifted and run out ones too), at most `limit`.
    fn address_bans(&self, limit: u32) -> Result<Vec<AddressBan>, StorageError>;
    /// Applies an operator action and appends its audit entry, in one transaction.
    /// [`StorageError::NoSuchPlayer`] for an unknown player, [`StorageError::NotFound`] for an
    /// unknown report, flag or address ban (or one already closed), `NameTaken` for a rename.
    fn moderate(&self, action: &Action, audit: &Audit) -> Result<AuditId, StorageError>;
    /// Audit entries, newest first, older than `before` if given.
    fn audit_log(
        &self,
        before: Option<AuditId>,
        limit: u32,
    ) -> Result<Vec<AuditEntry>, StorageError>;
    /// Audit entries newer than `after`, oldest first (what another instance has done).
    fn audit_since(&self, after: AuditId, limit: u32) -> Result<Vec<AuditEntry>, StorageError>;
    /// The newest audit entry's id (`AuditId(0)` when there is none).
    fn audit_head(&self) -> Result<AuditId, StorageError>;
    /// Identities registered from `from` (an address or /64) since `since_unix`.
    fn registrations_since(&self, from: &str, since_unix: u64) -> Result<u32, StorageError>;
    /// Marks an identity as a bot (its own declaration).
    fn declare_bot(&self, player: PlayerId) -> Result<(), StorageError>;
    /// Which of `players` are bots.
    fn bots_among(&self, players: &[PlayerId]) -> Result<Vec<PlayerId>, StorageError>;
    /// Files a report.
    fn file_report(&self, report: &NewReport) -> Result<(), StorageError>;
    /// Reports `reporter` filed since `since_unix`.
    fn reports_filed_since(&self, reporter: PlayerId, since_unix: u64)
    -> Result<u32, StorageError>;
    /// Whether `reporter` has an open report against `reported`.
    fn open_report_between(
        &self,
        reporter: PlayerId,
        reported: PlayerId,
    ) -> Result<bool, StorageError>;
    /// Reports, oldest first (open ones) or newest first (closed, all), at most `limit`.
    fn reports(&self, which: Openness, limit: u32) -> Result<Vec<Report>, StorageError>;
    /// One report.
    fn report(&self, id: ReportId) -> Result<Option<Report>, StorageError>;
    /// `blocker` blocks `blocked` (again: no change). [`StorageError::Full`] past `max`.
    fn block(
        &self,
        blocker: PlayerId,
        blocked: PlayerId,
        now: u64,
        max: u32,
    ) -> Result<(), StorageError>;
    /// `blocker` no longer blocks `blocked`.
    fn unblock(&self, blocker: PlayerId, blocked: PlayerId) -> Result<(), StorageError>;
    /// Whom `blocker` blocks, by id and current name, in the order blocked.
    fn blocks_of(&self, blocker: PlayerId) -> Result<Vec<(PlayerId, String)>, StorageError>;
    /// Whom `player` must not be matched with: everyone they block or who blocks them, and,
    /// with `ranked`, everyone they have met in ranked play `max` times since `since_unix`.
    fn avoided_by(
        &self,
        player: PlayerId,
        ranked: Option<PairLimit>,
    ) -> Result<Vec<PlayerId>, StorageError>;
    /// The stored match whose replay is `replay`.
    fn match_by_replay(&self, replay: &str) -> Result<Option<StoredMatch>, StorageError>;
    /// Keeps a flag on a stored match.
    fn flag_match(&self, flag: &MatchFlag) -> Result<(), StorageError>;
    /// Flagged matches, oldest first (open) or newest first, at most `limit`.
    fn flagged(&self, which: Openness, limit: u32) -> Result<Vec<FlaggedMatch>, StorageError>;
}

/// What the audit log calls an action, and the target it names.
pub fn describe(action: &Action) -> (&'static str, String) {
    match action {
        Action::Ban { player, .. } => ("ban", player_target(*player)),
        Action::Unban { player } => ("unban", player_target(*player)),
        Action::Mute { player, .. } => ("mute", player_target(*player)),
        Action::Unmute { player } => ("unmute", player_target(*player)),
        Action::Rename { player, .. } => ("rename", player_target(*player)),
        Action::Listed { player, listed } => (
            if *listed { "relist" } else { "delist" },
            player_target(*player),
        ),
        Action::Bot { player, bot } => (
            if *bot { "mark_bot" } else { "unmark_bot" },
            player_target(*player),
        ),
        Action::BanAddress { network, .. } => ("ban_address", format!("network:{network}")),
        Action::LiftAddressBan { id } => ("lift_address_ban", format!("address_ban:{id}")),
        Action::CloseReport { report, .. } => ("close_report", format!("report:{}", report.0)),
        Action::ReviewFlag { match_id, .. } => ("review_flag", format!("match:{}", match_id.0)),
        Action::RemoveSkin { id } => ("remove_skin", format!("skin:{id}")),
    }
}

fn player_target(player: PlayerId) -> String {
    format!("player:{}", player.0)
}

/// The player an audit target names (`player:12`), if it names one.
pub fn target_player(target: &str) -> Option<PlayerId> {
    target
        .strip_prefix("player:")
        .and_then(|n| n.parse().ok())
        .map(PlayerId)
}

pub(crate) fn sanction_kind(s: &str) -> SanctionKind {
    // Only the two names are ever written; an unknown one is read as the stricter kind.
    SanctionKind::parse(s).unwrap_or(SanctionKind::Ban)
}

pub(crate) fn unix(t: u64) -> i64 {
    i64::try_from(t).unwrap_or(i64::MAX)
}

pub(crate) fn from_unix(t: i64) -> u64 {
    t.max(0) as u64
}

/// The `WHERE` fragment of a player search's filter (`now_param` is `now`'s parameter, typed
/// for PostgreSQL): one of our own constant strings, never outside input.
pub(crate) fn filter_sql(filter: PlayerFilter, now_param: &str) -> String {
    let in_force = |kind: &str| {
        format!(
            "id IN (SELECT player_id FROM sanctions WHERE kind = '{kind}' AND lifted_unix IS NULL \
             AND (until_unix IS NULL OR until_unix > {now_param}))"
        )
    };
    match filter {
        // Names the parameter all the same: PostgreSQL refuses a parameter it cannot type.
        PlayerFilter::All => format!("{now_param} IS NOT NULL"),
        PlayerFilter::Banned => in_force("ban"),
        PlayerFilter::Muted => in_force("mute"),
        PlayerFilter::Bots => "bot = 1".to_string(),
        PlayerFilter::Delisted => "delisted = 1".to_string(),
    }
}

/// The `WHERE` fragment of a listing's openness (`column` is one of our own names).
pub(crate) fn openness_sql(which: Openness, column: &str) -> String {
    match which {
        Openness::Open => format!("{column} IS NULL"),
        Openness::Closed => format!("{column} IS NOT NULL"),
        Openness::All => "1 = 1".to_string(),
    }
}

/// `ORDER BY` of a listing: open items oldest first (a queue), others newest first.
pub(crate) fn openness_order(which: Openness) -> &'static str {
    match which {
        Openness::Open => "ASC",
        Openness::Closed | Openness::All => "DESC",
    }
}
