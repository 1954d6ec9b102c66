//! # sevenbag-tbp: the Tetris Bot Protocol
//!
//! TBP (github.com/tetris-bot-protocol/tbp-spec) is how the community's bots (Cold Clear 2 and
//! others) talk to a game: JSON messages, one per line, on the bot's stdin and stdout. This
//! crate has both ends:
//! - [`bot_side`]: our beam-search bot as a TBP bot (`sevenbag-tool tbp`);
//! - [`frontend`], [`thinker`] and [`player`]: any TBP bot as a child process playing a seat of a
//!   Sevenbag match, its moves turned into keys by our own move generation (`botmatch --opponent
//!   tbp:COMMAND`, the practice opponent list), told the game in TBP's standard flow or
//!   restarted every piece ([`flow`]);
//! - for a fair match against such a bot: our bot thinking on a thread of its own
//!   ([`bot_thread`]), the same wall-clock allowance a piece for both ([`limits`]), each pinned
//!   to a core and its CPU time read from `/proc` ([`cpu`]).
//!
//! serde_json does the JSON (the format is JSON; the message types are small and written here
//! rather than taken from the `tbp` crate so that `bag`/`bag_state` and unknown messages are
//! handled the way Cold Clear 2 and the specification both need). Lines are size-limited.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod bot_side;
pub mod bot_thread;
pub mod convert;
pub mod cpu;
pub mod flow;
pub mod frontend;
pub mod game;
pub mod limits;
pub mod lines;
pub mod messages;
pub mod player;
pub mod thinker;

pub use bot_side::{TbpBot, serve};
pub use bot_thread::ThreadedBot;
pub use flow::{FlowCounts, Restart};
pub use frontend::{TbpError, TbpProcess};
pub use limits::{TbpLimits, ThinkTimes};
pub use player::TbpPlayer;
pub use thinker::TbpThinker;
