//! # sevenbag-protocol: the wire between clients and the server
//!
//! Every WebSocket binary message is one value of [`ClientMessage`] (client → server) or
//! [`ServerMessage`] (server → client), encoded by [`codec`] with bincode 2 (serde path,
//! standard config, little-endian varints) under a size limit. The first message of a connection
//! is [`ClientMessage::Hello`] carrying [`PROTOCOL_VERSION`]; a server of another version answers
//! with [`ServerMessage::Error`] and closes.
//!
//! Inputs travel as changes: an [`InputChange`] is sent only for frames where a player's key mask
//! differs from the frame before, plus "confirmed through frame F" so idle frames cost nothing
//! but the periodic confirmation.
//!
//! ## Layout
//! - [`messages`]: the two enums and the types they carry.
//! - [`codec`]: encode/decode with limits, and [`DecodeError`].
//! - [`compact`] and [`packing`]: the compact uplink form of `Inputs`
//!   ([`ClientMessage::InputsSince`]) and turning `Inputs` into it and back.
//! - [`datagram`]: inputs over unreliable datagrams (WebTransport): the [`datagram::Uplink`]
//!   and [`datagram::Downlink`] formats and how a window of inputs extends a log;
//!   [`battle_datagram`] the same for rooms of several seats (keys and targets).
//! - [`inputs`]: expanding change lists into per-frame masks and back.
//! - [`replay`]: the replay file format, [`ConfirmedSim`] (the match stepped as far as both seats
//!   are confirmed, shared by the server and playback) and [`verify`]; its `reader` is shared by
//!   both replay format versions (envelope, count limits, hash comparison), as
//!   [`room_log`]'s reader is by both room log versions.
//! - [`gathered`], [`tight`] and [`chained`]: the coalesced downlink of rooms of several
//!   seats, its tight wire form, and the chained form that leaves off the frames the
//!   connection already told.
//! - [`room_log_file`]: one reader of both room log versions, saying which room each restores;
//!   [`policy`]: what a room does with a leaver and whether it rates its matches.
//! - [`battle`] and [`battle_replay`]: rooms of 2 to 8 seats: their records, each seat's log
//!   of keys and targets, [`BattleSim`] and the replay format version 2.
//! - [`match_detail`]: a finished match of a player's history, seat by seat.
//! - [`moderation`]: report categories and the bounds of reports and block lists.
//! - [`social`]: friends, presence and notifications: their rows and the bounds of their lists.
//! - [`visible`]: what of a player's text others can see (chat lines, reports, names).
//! - [`file`]: reading a replay, log or puzzle file: regular files only, through a limit.
//! - [`solo_replay`]: the one-player (Sprint, Blitz, Zen) replay file and [`verify_solo`].
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod battle;
pub mod battle_datagram;
pub mod battle_replay;
pub mod battle_room_log;
pub mod chained;
pub mod civil;
pub mod codec;
pub mod compact;
pub mod datagram;
mod envelope;
pub mod file;
pub mod gathered;
pub mod identity;
pub mod inputs;
pub mod key_script;
pub mod listings;
pub mod match_detail;
pub mod messages;
pub mod moderation;
pub mod packing;
pub mod player_stats;
pub mod policy;
pub mod replay;
pub mod replay_file;
pub mod room_log;
pub mod room_log_file;
pub mod skins;
pub mod social;
pub mod solo_replay;
pub mod tight;
pub mod two_seat;
pub mod visible;

pub use battle::{
    BattleMessageError, BattleRoomOptions, MAX_ROOM_SEATS, MIN_ROOM_SEATS, SeatLog, TargetChange,
    check_targets,
};
pub use battle_replay::{
    AnyReplay, BattleReplay, BattleResult, BattleRound, BattleSeatInputs, BattleSim,
    BattleSimEvent, BattleVerifyReport, read_any, verify_battle,
};
pub use chained::{Chain, ChainedEntry, ChainedSeats, Widener};
pub use codec::{
    DecodeError, EncodeError, MAX_MESSAGE_BYTES, decode_client, decode_server, encode,
};
pub use compact::InputStep;
pub use gathered::{Gathering, SeatSteps, TargetStep};
pub use inputs::{InputLog, InputLogError, MAX_MATCH_FRAMES};
pub use listings::{MAX_SOLO_ROWS, ReplayListing, SoloRow};
pub use match_detail::{DetailError, MatchDetail, SeatDetail};
pub use messages::*;
pub use packing::{CompactError, InputsPacker, InputsUnpacker};
pub use player_stats::{MatchAverages, PlayerStats, ProgressRun};
pub use policy::{Leaver, RoomPolicy};
pub use replay::{
    ConfirmedSim, FrameHash, HASH_INTERVAL, MatchResult, Replay, ReplayError, RoundRecord,
    SeatInputs, SimEvent, VerifyReport, verify,
};
pub use replay_file::{OpenedReplay, OpenedReport, SeatStanding};
pub use skins::SkinId;
pub use solo_replay::{SoloReplay, SoloReplayError, SoloVerifyReport, verify_solo};
pub use tight::{TightError, TightSeats};

/// The protocol version this build speaks; bumped on any change to the messages.
pub const PROTOCOL_VERSION: u32 = 3;
