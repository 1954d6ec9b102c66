//! The messages: one enum per direction, and the records they carry.
//!
//! Enums are serde's default externally tagged form (bincode cannot decode internally tagged
//! enums). Strings and vectors are bounded by the codec's byte limit and checked again by the
//! server ([`MAX_NAME_CHARS`], [`MAX_CHANGES_PER_MESSAGE`]).

use serde::{Deserialize, Serialize};
use sevenbag_core::{Handling, Input, MatchHeader, Preset, Randomizer, Seat, SoloMode, SoloResult};

/// Longest player name, in characters.
pub const MAX_NAME_CHARS: usize = 24;
/// Most input changes one [`ClientMessage::Inputs`] may carry.
pub const MAX_CHANGES_PER_MESSAGE: usize = 256;
/// Room codes are this many characters from [`ROOM_CODE_ALPHABET`].
pub const ROOM_CODE_LEN: usize = 5;
/// Room code characters: no 0/O, 1/I/L, 2/Z, 5/S, 8/B, so codes read aloud unambiguously.
pub const ROOM_CODE_ALPHABET: &[u8] = b"ACDEFGHJKMNPQRTUVWXY34679";

/// One player's key mask changed to `input` from frame `frame` on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct InputChange {
    /// First frame with the new mask.
    pub frame: u32,
    /// Keys held from that frame on.
    pub input: Input,
}

/// A room's options, chosen by its creator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RoomOptions {
    /// Rules preset the room starts from.
    pub preset: Preset,
    /// Round wins needed to win (1..=99).
    pub first_to: u8,
    /// Randomizer override.
    pub randomizer: Randomizer,
    /// 180° rotation on or off.
    pub allow_180: bool,
    /// Garbage travel in frames (at least the prediction window).
    pub garbage_travel: u16,
    /// Garbage lines that may rise per piece.
    pub garbage_cap: u8,
    /// Percent chance each garbage line re-rolls its hole.
    pub messiness: u8,
    /// Seconds a dropped player may take to reconnect before forfeiting.
    pub reconnect_seconds: u8,
}

impl Default for RoomOptions {
    fn default() -> Self {
        RoomOptions::from_preset(Preset::Versus)
    }
}

impl RoomOptions {
    /// The options of a preset, unchanged.
    pub fn from_preset(preset: Preset) -> RoomOptions {
        let r = preset.rules();
        RoomOptions {
            preset,
            first_to: r.first_to,
            randomizer: r.randomizer,
            allow_180: r.allow_180,
            garbage_travel: r.garbage_travel,
            garbage_cap: r.garbage_cap,
            messiness: r.messiness,
            reconnect_seconds: 15,
        }
    }

    /// The core rules these options describe.
    pub fn rules(&self) -> sevenbag_core::Rules {
        sevenbag_core::Rules {
            first_to: self.first_to,
            randomizer: self.randomizer,
            allow_180: self.allow_180,
            garbage_travel: self.garbage_travel,
            garbage_cap: self.garbage_cap,
            messiness: self.messiness,
            ..self.preset.rules()
        }
    }
}

/// How a client joins a room.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum JoinRole {
    /// Take a free seat.
    Player,
    /// Watch only.
    Spectator,
}

/// A player as the server knows them (ratings rounded to whole points).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Profile {
    /// Display name.
    pub name: String,
    /// Glicko-2 rating.
    pub rating: u32,
    /// Its deviation (uncertainty), after inactivity decay.
    pub deviation: u32,
    /// Ranked matches played.
    pub games: u32,
    /// Ranked matches won.
    pub wins: u32,
    /// Place on the leaderboard, `None` while not on it.
    pub place: Option<u32>,
}

/// Most leaderboard rows one `GetLeaderboard` returns.
pub const MAX_LEADERBOARD_ROWS: u16 = 100;
/// Most recent matches a `PlayerProfile` lists.
pub const MAX_RECENT_MATCHES: usize = 20;

/// Longest URL a [`ServerMessage::Redirect`] may carry.
pub const MAX_REDIRECT_URL: usize = 256;

/// Most redirects a client follows in a row before it gives up with an error: a directory
/// entry pointing in a circle cannot keep a client bouncing.
pub const MAX_REDIRECTS: u32 = 3;

/// Whether `url` may be the target of a [`ServerMessage::Redirect`]: `ws://` or `wss://`, at
/// most [`MAX_REDIRECT_URL`] bytes, no whitespace or control characters. Servers check it for
/// their own `--public-url` and for every directory entry; clients check it again.
pub fn valid_redirect_url(url: &str) -> bool {
    let rest = url
        .strip_prefix("ws://")
        .or_else(|| url.strip_prefix("wss://"));
    url.len() <= MAX_REDIRECT_URL
        && rest.is_some_and(|r| !r.is_empty() && !r.starts_with('/'))
        && !url.chars().any(|c| c.is_whitespace() || c.is_control())
}

/// One of a player's recent matches, from that player's side, as the Profile screen lists it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RecentMatch {
    /// The match id (as in `/api/matches/{id}`).
    pub id: u64,
    /// The other seat's name; for a free-for-all or team match, "7 others · 3rd of 8" (the
    /// other seats and this player's place; `score` is then their team's rounds won beside
    /// the winner's).
    pub opponent: String,
    /// Whether this player won; `None` for a void match (desync, shutdown).
    pub won: Option<bool>,
    /// Round wins: this player's, then the opponent's.
    pub score: [u8; 2],
    /// Whether it was ranked.
    pub ranked: bool,
    /// This player's rating change, rounded (ranked and counted matches only).
    pub rating_change: Option<i32>,
    /// When it ended, in Unix seconds.
    pub ended_unix: u64,
    /// The replay's id for `GetReplay`, if one was written.
    pub replay: Option<String>,
}

/// Messages from a client to the server.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ClientMessage {
    /// First message of every connection.
    Hello {
        /// Must equal the server's [`crate::PROTOCOL_VERSION`].
        version: u32,
        /// Display name (1..=24 characters).
        name: String,
        /// The handling this player plays with; it goes into the match header.
        handling: Handling,
        /// A token from [`ServerMessage::Joined`] to take back a dropped seat.
        resume: Option<u64>,
    },
    /// Create a room and take its first seat.
    CreateRoom {
        /// The room's options.
        options: RoomOptions,
    },
    /// Join a room by code.
    JoinRoom {
        /// The room code (case-insensitive).
        code: String,
        /// Player or spectator.
        role: JoinRole,
    },
    /// Wait for another quick-match player and start a versus room with them.
    QuickMatch,
    /// Leave the current room (a player forfeits a match in progress).
    LeaveRoom,
    /// Ready for the next match (or rematch).
    Ready,
    /// This player's key changes, and that every frame up to `confirmed` (exclusive) is final.
    Inputs {
        /// Changes in increasing frame order, all below `confirmed`.
        changes: Vec<InputChange>,
        /// Frames `0..confirmed` are final for this player.
        confirmed: u32,
    },
    /// The client's state hash after simulating frames `0..frame`.
    StateHash {
        /// Frames simulated.
        frame: u32,
        /// [`sevenbag_core::Match::state_hash`] at that point.
        hash: u64,
    },
    /// Clock probe; the server answers [`ServerMessage::Pong`].
    Ping {
        /// Opaque value echoed back.
        nonce: u64,
    },
    /// Answer to [`ServerMessage::Ping`].
    Pong {
        /// The server's nonce.
        nonce: u64,
    },
    /// Ask for the list of replays the server keeps.
    ListReplays,
    /// Ask for one replay's bytes.
    GetReplay {
        /// Replay id from [`ServerMessage::Replays`].
        id: String,
    },
    // Identity, ranked play and chat (protocol 3; see `crate::identity`).
    /// Create an identity: the server keeps a hash of `key` and answers `Registered`.
    Register {
        /// The player's secret key (random, kept in the game's config dir).
        key: [u8; 32],
        /// Display name ([`crate::identity::validate_name`]).
        name: String,
    },
    /// Play as the identity of `key`: answered with `Identified` or `UnknownKey`.
    Identify {
        /// The player's secret key.
        key: [u8; 32],
    },
    /// Move an identity to this machine: the recovery code's identity takes `key` as its new
    /// key (the old key stops working) and gets a new recovery code (`Registered`).
    Recover {
        /// The recovery code shown once when the identity was made.
        code: String,
        /// The new secret key.
        key: [u8; 32],
    },
    /// Change the identified player's name.
    Rename {
        /// The new name.
        name: String,
    },
    /// Join the ranked queue (identified players only).
    RankedMatch,
    /// Say something to the room (players and spectators).
    Chat {
        /// At most [`crate::identity::MAX_CHAT_CHARS`] characters.
        text: String,
    },
    /// The best players: answered with `Leaderboard` (or `Unavailable` without a database).
    GetLeaderboard {
        /// Rows wanted, 1 to [`MAX_LEADERBOARD_ROWS`].
        limit: u16,
    },
    /// A player's profile and recent matches: answered with `PlayerProfile` or `NoSuchPlayer`.
    GetProfile {
        /// Their name (case and look-alikes do not matter).
        name: String,
    },
    // Solo records (protocol 3 additions; see `docs/SERVER.md`, "Solo records").
    /// Submit a finished Sprint or Blitz run for the leaderboards (identified players only):
    /// the server re-simulates it and answers `SoloRecorded`, or an `Error` (`BadReplay`,
    /// `NotIdentified`, `Unavailable`). The file's size is bounded by the server's message limit.
    SubmitSolo {
        /// The run's solo replay file (`crate::solo_replay`, `docs/REPLAY.md`).
        replay: Vec<u8>,
    },
    /// `Inputs` in compact form: the same changes and confirmation, counted from the
    /// confirmation of the previous inputs message on this connection (`crate::compact`). The
    /// server reads it back as that `Inputs` before anything else.
    InputsSince {
        /// Changes in increasing frame order, as offsets from the previous confirmation.
        steps: Vec<crate::compact::InputStep>,
        /// Frames confirmed past the previous confirmation.
        frames: u32,
    },
    // Lists the game shows (appended; see `docs/PROTOCOL.md`, "Replays" and "Solo records").
    /// The replays the server keeps, with their dates, lengths, scores and whether they were
    /// ranked: answered with [`ServerMessage::ReplayList`].
    ListReplayInfo,
    /// A solo leaderboard (Sprint or Blitz), best first, at most `limit` rows (1 to
    /// [`crate::MAX_SOLO_ROWS`]), and the identified player's own row: answered with
    /// [`ServerMessage::SoloLeaderboard`]. Readable by guests.
    GetSoloLeaderboard {
        /// Sprint or Blitz.
        mode: SoloMode,
        /// Rows wanted.
        limit: u32,
    },
    /// The replay of player `name`'s record on a solo leaderboard: answered with
    /// [`ServerMessage::SoloRecordReplay`], or `Error { NoSuchReplay }`.
    GetSoloReplay {
        /// Sprint or Blitz.
        mode: SoloMode,
        /// The player, as the leaderboard names them.
        name: String,
    },
    // Moderation and fair play (protocol 3, appended; `crate::moderation`, docs/MODERATION.md).
    /// This connection is a program, not a person (a Tetris Bot Protocol bot, a load tester):
    /// its name is marked as a bot wherever it is sent, and ranked play and records refuse it.
    /// An identified connection marks its identity for good (an operator may undo it).
    DeclareBot,
    /// Report a player (identified players only): answered `Reported`, or an `Error`.
    Report {
        /// The reported player's name (an identity's name; look-alikes do not matter).
        name: String,
        /// The replay of the match it is about (`MatchOver::replay`, `RecentMatch::replay`),
        /// kept as the evidence; the server checks that both played in it.
        replay: Option<String>,
        /// What it is about.
        category: crate::moderation::ReportCategory,
        /// What happened, at most [`crate::moderation::MAX_REPORT_CHARS`] characters.
        text: String,
    },
    /// Never be matched with this player again, and do not deliver their chat to me
    /// (identified players only): answered `Blocked` with the whole list.
    Block {
        /// Their name.
        name: String,
    },
    /// Undo a `Block`: answered `Blocked`.
    Unblock {
        /// Their name.
        name: String,
    },
    /// The players this identity blocks: answered `Blocked`.
    GetBlocks,
    // Inputs over datagrams (protocol 3 additions; see `crate::datagram`, docs/NETPLAY.md).
    /// `on: true` asks for a datagram ticket (answered with `DatagramTicket`, or a non-fatal
    /// `Unavailable` error from a server without a datagram path); `on: false` says this
    /// client stops using its datagram session: the server closes it and carries on over the
    /// WebSocket from what the client last acknowledged.
    Datagrams {
        /// Whether to use datagrams.
        on: bool,
    },
    /// This player's inputs from frame `from` on: every change in `from..confirmed`, and those
    /// frames final. Unlike `Inputs` it may overlap what the server already holds (the overlap
    /// is a repeat and is skipped): the reliable catch-up of a player on datagrams.
    InputsFrom {
        /// The first frame it speaks for (at most what the server acknowledged).
        from: u32,
        /// Changes in increasing frame order, all in `from..confirmed`.
        changes: Vec<InputChange>,
        /// Frames `0..confirmed` are final for this player.
        confirmed: u32,
    },
    // Rooms of 3 to 8 seats (free-for-all and teams; `crate::battle`, docs/PROTOCOL.md).
    /// Create a room of several seats and take its first seat: answered `BattleJoined`.
    /// Joining (`JoinRoom`), `Ready`, `LeaveRoom`, `StateHash` and resuming work as in a
    /// two-seat room.
    CreateBattleRoom {
        /// The room's options (checked with [`crate::BattleRoomOptions::validate`]).
        options: crate::BattleRoomOptions,
    },
    /// This player's keys and manual targets in a room of several seats: as `Inputs`, with
    /// the target changes beside the key changes (one confirmation for both).
    BattleInputs {
        /// Key changes in increasing frame order, all below `confirmed`.
        changes: Vec<InputChange>,
        /// Target changes in increasing frame order, all below `confirmed`.
        targets: Vec<crate::TargetChange>,
        /// Frames `0..confirmed` are final for this player.
        confirmed: u32,
    },
    /// A state hash of a match of several seats: the whole match's hash and each battle
    /// seat's board hash (`Battle::seat_hash`), so a mismatch names the seats that diverged.
    /// Sent every `HASH_INTERVAL` confirmed frames instead of `StateHash`.
    BattleStateHash {
        /// Frames `0..frame` were simulated.
        frame: u32,
        /// `Battle::state_hash` of the confirmed match.
        hash: u64,
        /// `Battle::seat_hash` of every battle seat, in seat order.
        #[serde(deserialize_with = "crate::battle::at_most_seats")]
        seats: Vec<u64>,
    },
    /// This client's smoothed round trip to the server, in milliseconds: a room of several
    /// seats picks its input delay from the worst link among its players (`BattleLinks`).
    LinkReport {
        /// Round trip in milliseconds (the server caps it).
        rtt_ms: u16,
    },
    /// `BattleInputs` in compact form: the same key and target changes and confirmation,
    /// counted from the confirmation of the previous `BattleInputs` on this connection
    /// (`crate::packing`). The server reads it back as that `BattleInputs` before anything else.
    BattleInputsSince {
        /// Key changes in increasing frame order, as offsets from the previous confirmation.
        steps: Vec<crate::compact::InputStep>,
        /// Frames confirmed past the previous confirmation.
        frames: u32,
        /// Target changes in increasing frame order, as offsets from the previous
        /// confirmation.
        targets: Vec<crate::TargetStep>,
    },
    /// Quick play of several seats: `on: true` joins the free-for-all queue (answered
    /// `QuickBattleQueue`, then `BattleJoined` when a room starts; sent again while queued, it
    /// only repeats the answer); `on: false` leaves it. `LeaveRoom` leaves it too.
    QuickBattle {
        /// Whether to wait in the queue.
        on: bool,
    },
    /// This player's keys and targets in a room of several seats from frame `from` on (every
    /// change in `from..confirmed`), which may overlap what the server holds: the reliable
    /// catch-up of a player on datagrams (as `InputsFrom` in a two-seat room).
    BattleInputsFrom {
        /// The first frame it speaks for (at most what the server acknowledged).
        from: u32,
        /// Key changes in increasing frame order, all in `from..confirmed`.
        changes: Vec<InputChange>,
        /// Target changes in increasing frame order, all in `from..confirmed`.
        targets: Vec<crate::TargetChange>,
        /// Frames `0..confirmed` are final for this player.
        confirmed: u32,
    },
    /// `BattleStateHash` without the board hashes: the whole match's hash alone, as many bytes
    /// as a two-seat `StateHash` at any seat count. A mismatch is answered
    /// `BattleDesyncBoards` (the server's board hashes) so the client names the diverged seats.
    BattleHash {
        /// Frames `0..frame` were simulated.
        frame: u32,
        /// `Battle::state_hash` of the confirmed match.
        hash: u64,
    },
    /// `BattleInputsSince` with no target changes (the usual case): key changes and frames
    /// confirmed past the previous confirmation, read back as a `BattleInputs` with no targets.
    BattleKeysSince {
        /// Key changes in increasing frame order, as offsets from the previous confirmation.
        steps: Vec<crate::compact::InputStep>,
        /// Frames confirmed past the previous confirmation.
        frames: u32,
    },
    // A match of the history seat by seat (appended; `crate::match_detail`).
    /// One finished match, every seat (a free-for-all's or a two-seat match's): answered
    /// with [`ServerMessage::MatchDetail`], or `Error { NoSuchMatch }`. Readable by guests.
    GetMatchDetail {
        /// The match id (`RecentMatch::id`).
        id: u64,
    },
    // Friends, presence and notifications (protocol 3, appended; `crate::social`). Every one
    // needs an identified connection (`NotIdentified`) and a database (`Unavailable`).
    /// Ask player `name` to be friends: answered `FriendRequestSent`.
    SendFriendRequest {
        /// Their name.
        name: String,
    },
    /// Accept or decline `name`'s request: answered `FriendRequestAnswered`.
    AnswerFriendRequest {
        /// Who asked.
        name: String,
        /// Accept or decline.
        answer: crate::social::RequestAnswer,
    },
    /// Take back one's own request to `name`: answered `FriendRequestCancelled`.
    CancelFriendRequest {
        /// To whom it went.
        name: String,
    },
    /// Be friends with `name` no more: answered `FriendRemoved`.
    RemoveFriend {
        /// The friend.
        name: String,
    },
    /// A page of one's friends, in name order, with their presence: answered `Friends`.
    GetFriends {
        /// Friends skipped.
        offset: u32,
        /// Friends wanted, 1 to [`crate::social::MAX_FRIENDS_PER_PAGE`].
        limit: u16,
    },
    /// One's unanswered friend requests: answered `FriendRequests`.
    GetFriendRequests,
    /// Whom one takes friend requests from: answered `RequestPolicySet`.
    SetRequestPolicy {
        /// The policy.
        policy: crate::social::RequestPolicy,
    },
    /// Appear offline to friends (`on`), or be seen again: answered `AppearingOffline`.
    AppearOffline {
        /// Whether to appear offline.
        on: bool,
    },
    /// The notifications not yet marked seen, oldest first: answered `Notifications`.
    GetNotifications,
    /// Mark these notifications seen (they stop coming): answered `NotificationsSeen`.
    MarkNotificationsSeen {
        /// At most [`crate::social::MAX_NOTIFICATIONS_PER_MESSAGE`] ids (refused on decode).
        #[serde(deserialize_with = "crate::social::at_most_notifications")]
        ids: Vec<u64>,
    },
    /// A message to a friend, kept as a notification until seen: answered
    /// `DirectMessageSent`.
    DirectMessage {
        /// The friend.
        to: String,
        /// At most [`crate::social::MAX_DIRECT_MESSAGE_CHARS`] visible characters.
        text: String,
    },
    /// Invite a friend into the room one sits in: answered `Invited`.
    InviteFriend {
        /// The friend.
        name: String,
        /// The room's code (one must be in it).
        code: String,
    },
    /// Whom one takes friend requests from now (appended): answered `RequestPolicySet`, as
    /// setting it is.
    GetRequestPolicy,
    /// These notifications were shown as toasts (appended): they are not sent again after the
    /// next `Identify`, though they stay unseen for `GetNotifications` until marked seen.
    /// Answered `NotificationsSeen`, with how many of them were newly marked shown.
    MarkNotificationsShown {
        /// At most [`crate::social::MAX_NOTIFICATIONS_PER_MESSAGE`] ids (refused on decode).
        #[serde(deserialize_with = "crate::social::at_most_notifications")]
        ids: Vec<u64>,
    },
    // Published skins (appended; docs/PROTOCOL.md, "Published skins").
    /// Publish a block skin file (TETR.IO, Jstris or connected layout) and wear it: the
    /// server decodes it under the skin limits, keeps its canonical re-encoding and shows it
    /// on this player's boards in the rooms it joins from now on. Needs an identity. Answered
    /// `SkinPublished`, or a non-fatal `Error` (`BadSkin` naming what is wrong with the file,
    /// `Unavailable` when the server takes no skins, `NotIdentified`, `RateLimited`).
    PublishSkin {
        /// The PNG file, at most [`crate::skins::MAX_SKIN_FILE_BYTES`] (refused on decode).
        #[serde(deserialize_with = "crate::skins::at_most_skin_bytes")]
        png: Vec<u8>,
    },
    /// Wear no skin: boards show the default blocks to others from the next room on.
    ClearSkin,
    /// The file of a published skin named in `SeatSkins`. Answered `SkinFile`, or `SkinGone`
    /// when the server no longer has it.
    GetSkin {
        /// Which.
        id: crate::skins::SkinId,
    },
    /// Player `name`'s averages over their latest `last` matches (1 to
    /// [`crate::player_stats::MAX_STATS_LAST`]) and solo best progressions (appended; readable
    /// by guests): answered `PlayerStats` or `NoSuchPlayer`.
    GetPlayerStats {
        /// The player.
        name: String,
        /// How many of the latest matches to average over.
        last: u32,
    },
}

/// Who is in a seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatInfo {
    /// Display name.
    pub name: String,
    /// Ready for the next match.
    pub ready: bool,
    /// Connection state.
    pub status: SeatStatus,
}

/// A seated player's connection state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SeatStatus {
    /// Connected.
    Connected,
    /// Dropped; may come back for this many more seconds.
    Reconnecting {
        /// Seconds left.
        seconds_left: u8,
    },
    /// Left or timed out; the match was forfeited.
    Forfeited,
}

/// Why a round or match ended the way it did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum EndReason {
    /// Decided on the boards.
    TopOut,
    /// The loser left or did not reconnect in time.
    Forfeit,
    /// The server is shutting down.
    Shutdown,
    /// Neither player came back within the reconnect window (after a server restart, or both
    /// connections lost): no winner, and nobody's rating changes.
    Abandoned,
}

/// A machine-readable error kind; the message text says it for people.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ErrorCode {
    /// The client speaks another protocol version.
    Version,
    /// A message could not be decoded or was out of place.
    BadMessage,
    /// A message over the size limit.
    TooLarge,
    /// Text frames are not part of the protocol.
    TextFrame,
    /// No room has that code.
    NoSuchRoom,
    /// The room's seats are taken.
    RoomFull,
    /// Inputs for a seat that is not yours, or frames out of range.
    BadInput,
    /// Too many messages too fast.
    RateLimited,
    /// The client did not keep up with what it was sent.
    SlowReader,
    /// Nothing heard for too long.
    Timeout,
    /// The server is full.
    ServerFull,
    /// The server is shutting down.
    Shutdown,
    /// A resume token that matches no seat.
    BadResume,
    /// A replay that does not exist.
    NoSuchReplay,
    /// Not fatal: your inputs are running far behind the match clock; catch up or forfeit.
    Behind,
    /// A key (or recovery code) the server does not know.
    UnknownKey,
    /// The name, or one that looks like it, belongs to someone else.
    NameTaken,
    /// A name outside the rules ([`crate::identity::validate_name`]).
    BadName,
    /// Ranked play needs an identity (`Register` or `Identify` first).
    NotIdentified,
    /// The server keeps no database: identities and ranked play are off.
    Unavailable,
    /// No player has that name (`GetProfile`).
    NoSuchPlayer,
    /// A submitted solo replay was refused: unreadable, not a ranked run, or its inputs do not
    /// re-simulate to the result it claims (`SubmitSolo`).
    BadReplay,
    /// This identity or address is banned from playing here; the message says why and until
    /// when (`Identify`, queues, `CreateRoom`, `JoinRoom`; fatal at `Hello` for an address).
    Banned,
    /// This identity may not chat here; the message says why and until when.
    Muted,
    /// A declared bot asked for what only people may do (ranked play, records).
    BotRefused,
    /// Not fatal: the seat this resume token held was played out while the player was away
    /// (the reconnect window passed), or a quick-play seat was given up because its player
    /// was not ready in time; the connection now watches the room instead.
    SeatLost,
    /// No finished match has that id (`GetMatchDetail`).
    NoSuchMatch,
    /// The two are not friends (`RemoveFriend`, `DirectMessage`, `InviteFriend`).
    NotFriends,
    /// No unanswered friend request of that direction (`AnswerFriendRequest`,
    /// `CancelFriendRequest`).
    NoSuchRequest,
    /// The player takes no friend requests from you (their request policy).
    RequestsClosed,
    /// You are not in that room (`InviteFriend`).
    NotInRoom,
    /// A skin file was refused (`PublishSkin`): the message names what is wrong with it.
    BadSkin,
}

/// Messages from the server to a client.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ServerMessage {
    /// Answer to a good hello.
    Welcome {
        /// The server's protocol version.
        version: u32,
        /// The server's name and build, for display.
        server: String,
    },
    /// Something went wrong; if `fatal`, the server closes the connection after this.
    Error {
        /// What kind of error.
        code: ErrorCode,
        /// What happened, for people.
        message: String,
        /// The connection is being closed.
        fatal: bool,
    },
    /// You are in a room.
    Joined {
        /// The room code.
        code: String,
        /// Your seat, or `None` as a spectator.
        seat: Option<Seat>,
        /// Token to reconnect to this seat.
        resume: u64,
        /// The room's options.
        options: RoomOptions,
    },
    /// Who sits where, and who is ready.
    RoomState {
        /// Seats 0 and 1.
        seats: [Option<SeatInfo>; 2],
        /// Spectators watching.
        spectators: u16,
    },
    /// A match begins: simulate it from this header. Frame 0 is `start_in_ms` from now.
    MatchStart {
        /// Rules, seed and handlings.
        header: MatchHeader,
        /// Names of seats 0 and 1.
        names: [String; 2],
        /// Milliseconds until frame 0.
        start_in_ms: u32,
    },
    /// The match so far, for spectators, late joiners and reconnecting players; then live.
    MatchLog {
        /// Rules, seed and handlings.
        header: MatchHeader,
        /// Names of seats 0 and 1.
        names: [String; 2],
        /// Each seat's changes so far.
        changes: [Vec<InputChange>; 2],
        /// Each seat's confirmed frame count.
        confirmed: [u32; 2],
        /// The frame the server's clock is at now (to pace the fast-forward).
        now_frame: u32,
    },
    /// A player's inputs, relayed as they arrive.
    Inputs {
        /// Whose inputs.
        seat: Seat,
        /// Changes in increasing frame order.
        changes: Vec<InputChange>,
        /// Frames `0..confirmed` are final for that seat.
        confirmed: u32,
    },
    /// A seat's connection state changed.
    SeatStatus {
        /// Which seat.
        seat: Seat,
        /// Its new state.
        status: SeatStatus,
    },
    /// The server's simulation ended a round.
    RoundOver {
        /// Round number, from 0.
        round: u32,
        /// Winner (`None` for a draw).
        winner: Option<Seat>,
        /// Round wins so far.
        wins: [u8; 2],
        /// The frame at which the server saw it.
        frame: u32,
    },
    /// The match is over.
    MatchOver {
        /// The winner.
        winner: Seat,
        /// How it ended.
        reason: EndReason,
        /// Replay id under which the server keeps it.
        replay: Option<String>,
    },
    /// The server's hash disagreed with yours at `frame`: the server's result stands.
    Desync {
        /// Frame of the compared hash.
        frame: u32,
        /// The server's hash.
        server_hash: u64,
        /// Your hash.
        your_hash: u64,
    },
    /// Clock probe; answer with [`ClientMessage::Pong`].
    Ping {
        /// Echo this back.
        nonce: u64,
    },
    /// Answer to [`ClientMessage::Ping`], with the server's clock.
    Pong {
        /// The client's nonce.
        nonce: u64,
        /// Server time in milliseconds since its own epoch.
        server_ms: u64,
    },
    /// Replays the server keeps, newest first.
    Replays {
        /// (id, one-line summary) pairs.
        list: Vec<(String, String)>,
    },
    /// One replay file's bytes.
    Replay {
        /// The replay id.
        id: String,
        /// The file, in the replay format.
        bytes: Vec<u8>,
    },
    /// The server is going away.
    Shutdown {
        /// Why, for people.
        reason: String,
    },
    // Identity, ranked play and chat (protocol 3).
    /// The connection plays as this identity (after `Identify`, `Rename`, or a ranked match).
    Identified {
        /// The player as the server knows them.
        profile: Profile,
    },
    /// A new identity (after `Register` or `Recover`): show the recovery code once.
    Registered {
        /// The player.
        profile: Profile,
        /// The code that moves this identity to another machine.
        recovery_code: String,
    },
    /// A chat line in the room.
    Chat {
        /// Who said it.
        from: String,
        /// Their seat, or `None` for a spectator.
        seat: Option<Seat>,
        /// What they said (control characters removed by the server).
        text: String,
    },
    /// The best players, best first (answer to `GetLeaderboard`).
    Leaderboard {
        /// At most [`MAX_LEADERBOARD_ROWS`] players, each with their place.
        players: Vec<Profile>,
    },
    /// A player and their latest matches, newest first (answer to `GetProfile`).
    PlayerProfile {
        /// The player.
        profile: Profile,
        /// At most [`MAX_RECENT_MATCHES`] matches.
        recent: Vec<RecentMatch>,
    },
    /// A submitted solo run was accepted (answer to `SubmitSolo`).
    SoloRecorded {
        /// The result the server's re-simulation reached (the one it keeps).
        result: SoloResult,
        /// Whether this run is now the player's best in its mode (only bests are kept).
        personal_best: bool,
        /// The place of the player's best run on its mode's leaderboard, from 1.
        place: u32,
    },
    /// The request just made (`JoinRoom`, `QuickMatch`, `RankedMatch`) is served by another
    /// instance of a server cluster: connect to `url` with a fresh `Hello` (no resume token)
    /// and make the same request there. The connection here stays open until the client
    /// closes it. Clients follow at most a few redirects in a row (see `docs/SERVER.md`).
    Redirect {
        /// The other instance's public `ws://` or `wss://` URL.
        url: String,
    },
    /// The match ended without a winner (`reason`: [`EndReason::Abandoned`]). Sent to whoever is
    /// in the room then, and, like `MatchOver` for a decided match, to a player who comes back
    /// with the resume token of a match that is over (before `Error { BadResume }`): the
    /// server's verdict is the one every client shows.
    MatchVoid {
        /// Why there is no winner.
        reason: EndReason,
        /// Replay id under which the server keeps it.
        replay: Option<String>,
    },
    /// The replays the server keeps, newest first (answer to `ListReplayInfo`).
    ReplayList {
        /// At most the server's list limit.
        list: Vec<crate::ReplayListing>,
    },
    /// A solo leaderboard, best first (answer to `GetSoloLeaderboard`).
    SoloLeaderboard {
        /// Sprint or Blitz.
        mode: SoloMode,
        /// At most the rows asked for.
        rows: Vec<crate::SoloRow>,
        /// The identified player's own row (also when below the rows sent); `None` for a guest
        /// or a player with no record on this board.
        you: Option<crate::SoloRow>,
    },
    /// A solo record's replay file (answer to `GetSoloReplay`; `docs/REPLAY.md`).
    SoloRecordReplay {
        /// Sprint or Blitz.
        mode: SoloMode,
        /// The player.
        name: String,
        /// The solo replay file.
        bytes: Vec<u8>,
    },
    // Moderation and fair play (protocol 3, appended; docs/MODERATION.md).
    /// Which seats of the last `RoomState` (and so of `MatchStart` and `MatchLog`) or
    /// `BattleRoomState` (room seats) hold a declared bot, seat by seat; sent after each.
    SeatMarks {
        /// `bots[i]`: seat `i` is a declared bot.
        bots: Vec<bool>,
    },
    /// A chat line from a declared bot: as `Chat`, marked.
    BotChat {
        /// Who said it.
        from: String,
        /// Their seat, or `None` for a spectator.
        seat: Option<Seat>,
        /// What they said.
        text: String,
    },
    /// A `Report` was filed (no id: only operators can see reports).
    Reported,
    /// The players this identity blocks, by current name (answer to `Block`, `Unblock`,
    /// `GetBlocks`).
    Blocked {
        /// At most [`crate::moderation::MAX_BLOCKS`] names.
        names: Vec<String>,
    },
    /// Marks for the `PlayerProfile` just sent: whether the player is a declared bot, and
    /// whether each of its recent matches' opponents was, in the same order.
    ProfileMarks {
        /// The player is a declared bot.
        bot: bool,
        /// `opponents[i]`: the opponent of `recent[i]` is a declared bot.
        opponents: Vec<bool>,
    },
    // Inputs over datagrams (protocol 3 additions; see `crate::datagram`).
    /// Answer to `Datagrams { on: true }`: open a WebTransport session to
    /// `https://HOST:PORT/datagrams/TOKEN` (the host and port this WebSocket reached; hex
    /// token) within a few seconds. The token works once, for this connection only.
    DatagramTicket {
        /// The session's token.
        token: [u8; 16],
        /// SHA-256 of the server's self-signed certificate (a browser's
        /// `serverCertificateHashes`); `None` when the server has a real one (`--tls-cert`).
        cert_hash: Option<[u8; 32]>,
    },
    /// A seat's inputs from frame `from` on (every change in `from..confirmed`), which may
    /// overlap what the client holds: the reliable catch-up of a client on datagrams, and the
    /// first relay over the WebSocket after its datagram session ended.
    InputsFrom {
        /// Whose inputs.
        seat: Seat,
        /// The first frame it speaks for.
        from: u32,
        /// Changes in increasing frame order, all in `from..confirmed`.
        changes: Vec<InputChange>,
        /// Frames `0..confirmed` are final for that seat.
        confirmed: u32,
    },
    // Rooms of 3 to 8 seats (`crate::battle`, docs/PROTOCOL.md). Seats are bytes; every
    // per-seat list holds at most 8 entries (refused on decode).
    /// You are in a room of several seats.
    BattleJoined {
        /// The room code.
        code: String,
        /// Your room seat, or `None` as a spectator.
        seat: Option<u8>,
        /// Token to reconnect to this seat.
        resume: u64,
        /// The room's options.
        options: crate::BattleRoomOptions,
    },
    /// Who sits in each room seat, and who is ready.
    BattleRoomState {
        /// One entry per room seat.
        #[serde(deserialize_with = "crate::battle::at_most_seats")]
        seats: Vec<Option<SeatInfo>>,
        /// Spectators watching.
        spectators: u16,
    },
    /// A match of several seats begins: simulate it from this header. The seated players are
    /// numbered in room-seat order: battle seat `i` is room seat `room_seats[i]`.
    BattleStart {
        /// Rules, seed, handlings and the room's targeting, badges and teams.
        header: Box<sevenbag_core::BattleHeader>,
        /// Each battle seat's name.
        #[serde(deserialize_with = "crate::battle::at_most_seats")]
        names: Vec<String>,
        /// Each battle seat's room seat.
        #[serde(deserialize_with = "crate::battle::at_most_seats")]
        room_seats: Vec<u8>,
        /// Milliseconds until frame 0.
        start_in_ms: u32,
    },
    /// The match of several seats so far (spectators, late joiners, reconnecting players,
    /// desync recovery); then live `BattleInputs`.
    BattleLog {
        /// As in `BattleStart`.
        header: Box<sevenbag_core::BattleHeader>,
        /// Each battle seat's name.
        #[serde(deserialize_with = "crate::battle::at_most_seats")]
        names: Vec<String>,
        /// Each battle seat's room seat.
        #[serde(deserialize_with = "crate::battle::at_most_seats")]
        room_seats: Vec<u8>,
        /// Each battle seat's key changes so far.
        #[serde(deserialize_with = "crate::battle::at_most_seats")]
        changes: Vec<Vec<InputChange>>,
        /// Each battle seat's target changes so far.
        #[serde(deserialize_with = "crate::battle::at_most_seats")]
        targets: Vec<Vec<crate::TargetChange>>,
        /// Each battle seat's confirmed frame count.
        #[serde(deserialize_with = "crate::battle::at_most_seats")]
        confirmed: Vec<u32>,
        /// The frame the server's clock is at now.
        now_frame: u32,
    },
    /// A battle seat's keys and targets, relayed as they arrive.
    BattleInputs {
        /// Whose (battle seat).
        seat: u8,
        /// Key changes in increasing frame order.
        changes: Vec<InputChange>,
        /// Target changes in increasing frame order.
        targets: Vec<crate::TargetChange>,
        /// Frames `0..confirmed` are final for that seat.
        confirmed: u32,
    },
    /// The server's simulation ended a round of a match of several seats.
    BattleRoundOver {
        /// Round number, from 0.
        round: u32,
        /// The winning team (without teams, the team numbered as the seat); `None`: a draw.
        winner: Option<u8>,
        /// Round wins of each team.
        #[serde(deserialize_with = "crate::battle::at_most_seats")]
        wins: Vec<u8>,
        /// Each battle seat's place this round (1 is the winner).
        #[serde(deserialize_with = "crate::battle::at_most_seats")]
        placements: Vec<u8>,
        /// The frame at which the server saw it.
        frame: u32,
    },
    /// A match of several seats is over.
    BattleOver {
        /// The winning team; `None` when nobody won (shutdown, abandoned).
        winner: Option<u8>,
        /// How it ended.
        reason: EndReason,
        /// Each battle seat's final place (1 is the winner; a player who left is placed as
        /// the round's next knock-out).
        #[serde(deserialize_with = "crate::battle::at_most_seats")]
        placements: Vec<u8>,
        /// Replay id under which the server keeps it.
        replay: Option<String>,
    },
    /// The batches of several battle seats gathered over a few milliseconds (never the
    /// receiver's own seat), each counted from its previous confirmation: the compact,
    /// coalesced form of `BattleInputs` ([`crate::gathered`]).
    BattleInputsGathered {
        /// The frame every entry's `base` counts from.
        frame: u32,
        /// One entry per seat, in seat order.
        #[serde(deserialize_with = "crate::battle::at_most_seats")]
        seats: Vec<crate::SeatSteps>,
    },
    /// Your `BattleStateHash` disagreed with the server's at `frame`: the server's result
    /// stands and a `BattleLog` follows to rebuild from (as after `Desync`).
    BattleDesync {
        /// Frame of the compared hash.
        frame: u32,
        /// The server's whole-match hash.
        server_hash: u64,
        /// Yours.
        your_hash: u64,
        /// The battle seats whose board hash differed (empty: only the match's shared state,
        /// its phase, round or wins, differed).
        #[serde(deserialize_with = "crate::battle::at_most_seats")]
        seats: Vec<u8>,
    },
    /// Each battle seat's round trip to the server in milliseconds as its client reported it
    /// (0: unknown, or a seat the room plays for a player who left); sent before `BattleStart`
    /// and before the `BattleLog` of a resumed seat, for the input delay.
    BattleLinks {
        /// One per battle seat.
        #[serde(deserialize_with = "crate::battle::at_most_seats")]
        rtt_ms: Vec<u16>,
    },
    /// `BattleInputsGathered` in its tight wire form ([`crate::tight`]): the same entries with
    /// about half the bytes around each. Receivers read it as that `BattleInputsGathered`
    /// ([`crate::tight::widen`]).
    BattleInputsTight {
        /// The frame every entry's `base` counts from.
        frame: u32,
        /// One entry per seat, in seat order.
        seats: crate::TightSeats,
    },
    /// The free-for-all queue as a waiting player sees it: sent when it joins and whenever the
    /// queue changes (at most a few times a second). `BattleJoined` ends the wait.
    QuickBattleQueue {
        /// Players waiting, you included.
        waiting: u16,
        /// Players a room needs before its timer runs.
        needed: u8,
        /// Players that start a room at once (the most a room seats).
        most: u8,
        /// Milliseconds until a room starts with the players waiting then, once enough wait.
        starts_in_ms: Option<u32>,
    },
    /// Your `BattleHash` disagreed with the server's at `frame`: the server's board hash of
    /// every battle seat, to compare with yours and name the seats that diverged. The server's
    /// result stands and a `BattleLog` follows to rebuild from (as after `BattleDesync`).
    BattleDesyncBoards {
        /// Frame of the compared hash.
        frame: u32,
        /// The server's whole-match hash.
        server_hash: u64,
        /// Yours.
        your_hash: u64,
        /// The server's `Battle::seat_hash` of every battle seat, in seat order.
        #[serde(deserialize_with = "crate::battle::at_most_seats")]
        boards: Vec<u64>,
    },
    /// A finished match seat by seat (answer to `GetMatchDetail`); check it with
    /// [`crate::MatchDetail::validate`] before showing it.
    MatchDetail {
        /// The match (boxed: it is large beside the other messages).
        detail: Box<crate::MatchDetail>,
    },
    /// `BattleInputsTight` without the frames the connection already told: an entry that
    /// follows its seat's previous one on this connection leaves its base off, and the message
    /// has no frame ([`crate::chained`]). Receivers read it through a [`crate::Widener`] kept
    /// per connection, as a `BattleInputsGathered`.
    BattleInputsChained {
        /// One entry per seat, in seat order.
        seats: crate::ChainedSeats,
    },
    // Friends, presence and notifications (protocol 3, appended; `crate::social`).
    /// Answer to `SendFriendRequest`.
    FriendRequestSent {
        /// The receiver, as the server names them.
        name: String,
        /// What it did.
        result: crate::social::RequestResult,
    },
    /// Answer to `AnswerFriendRequest`.
    FriendRequestAnswered {
        /// Who had asked.
        name: String,
        /// The answer given.
        answer: crate::social::RequestAnswer,
    },
    /// Answer to `CancelFriendRequest`.
    FriendRequestCancelled {
        /// To whom it had gone.
        name: String,
    },
    /// Answer to `RemoveFriend`.
    FriendRemoved {
        /// The former friend.
        name: String,
    },
    /// A page of friends in name order (answer to `GetFriends`).
    Friends {
        /// Friends skipped before this page.
        offset: u32,
        /// Friends in all.
        total: u32,
        /// At most [`crate::social::MAX_FRIENDS_PER_PAGE`] (refused on decode).
        #[serde(deserialize_with = "crate::social::at_most_friends")]
        friends: Vec<crate::social::FriendEntry>,
    },
    /// Unanswered friend requests, newest first (answer to `GetFriendRequests`).
    FriendRequests {
        /// Sent to you: at most [`crate::social::MAX_PENDING_PER_LIST`].
        #[serde(deserialize_with = "crate::social::at_most_pending")]
        incoming: Vec<crate::social::PendingEntry>,
        /// Sent by you: at most [`crate::social::MAX_PENDING_PER_LIST`].
        #[serde(deserialize_with = "crate::social::at_most_pending")]
        outgoing: Vec<crate::social::PendingEntry>,
    },
    /// Answer to `SetRequestPolicy`.
    RequestPolicySet {
        /// The policy now.
        policy: crate::social::RequestPolicy,
    },
    /// Answer to `AppearOffline`.
    AppearingOffline {
        /// Whether friends now see you offline.
        on: bool,
    },
    /// Unseen notifications, oldest first (answer to `GetNotifications`).
    Notifications {
        /// At most [`crate::social::MAX_NOTIFICATIONS_PER_MESSAGE`] (refused on decode).
        #[serde(deserialize_with = "crate::social::at_most_notifications")]
        list: Vec<crate::social::Notification>,
    },
    /// A notification, sent as it is made (and after `Identify` each unseen one not yet
    /// marked shown, leaving out invites to rooms that have closed).
    Notification {
        /// It.
        notification: crate::social::Notification,
    },
    /// Answer to `MarkNotificationsSeen` and `MarkNotificationsShown`.
    NotificationsSeen {
        /// How many of the ids were yours and newly marked.
        marked: u32,
    },
    /// Answer to `DirectMessage`.
    DirectMessageSent {
        /// The friend.
        to: String,
    },
    /// Answer to `InviteFriend`.
    Invited {
        /// The friend.
        name: String,
        /// The room's code.
        code: String,
    },
    /// A friend's presence changed (and, on becoming friends or identifying, where each
    /// online friend is). Only friends hear it.
    Presence {
        /// The friend's name.
        name: String,
        /// Where they are now.
        state: crate::social::PresenceState,
    },
    /// Answer to `PublishSkin`: the skin is published and worn.
    SkinPublished {
        /// Its content address.
        id: crate::skins::SkinId,
    },
    /// Answer to `GetSkin`: the skin's canonical file.
    SkinFile {
        /// Which.
        id: crate::skins::SkinId,
        /// The PNG, at most [`crate::skins::MAX_SKIN_FILE_BYTES`] (refused on decode).
        #[serde(deserialize_with = "crate::skins::at_most_skin_bytes")]
        png: Vec<u8>,
    },
    /// Answer to `GetSkin`: the server has no such skin (never published, dropped, or
    /// removed by its operators); draw that board with the default blocks.
    SkinGone {
        /// Which.
        id: crate::skins::SkinId,
    },
    /// Which skin each seat of the last `RoomState` or `BattleRoomState` wears (`None`: the
    /// default blocks), sent after each with `SeatMarks`.
    SeatSkins {
        /// `skins[i]`: seat `i`'s skin; at most [`crate::skins::MAX_SEAT_SKINS`].
        #[serde(deserialize_with = "crate::skins::at_most_seats")]
        skins: Vec<Option<crate::skins::SkinId>>,
    },
    /// A player's statistics (answer to `GetPlayerStats`).
    PlayerStats {
        /// Them.
        stats: crate::player_stats::PlayerStats,
    },
}
