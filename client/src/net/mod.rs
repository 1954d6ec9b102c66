//! The connection to servers, without macroquad (the tests drive it headlessly).
//!
//! - [`online`] — `Online`: one connection to a server, the room it sees, the match it plays or
//!   watches, reconnects and chat.
//! - [`battle`] — `BattleOnline`: one connection to a room of several seats (free-for-all,
//!   teams) and the match it plays or watches through netplay's `BattleSession`;
//!   [`battle_queue`] the free-for-all queue it may wait in first (quick play).
//! - [`lan`] — the LAN beacon and the in-process server a host runs.
//! - [`links`] — the game's links (`/room/CODE`...): made from a server's address, read from
//!   the page's.
//! - [`request`] — one short request to a server (standings, account, solo upload).
//! - [`skins`] — the skins a room's seats wear, fetched and decoded, and publishing ours.

pub mod battle;
#[cfg(test)]
mod battle_fixture;
pub mod battle_queue;
#[cfg(test)]
mod battle_return_tests;
#[cfg(test)]
mod battle_tests;
pub mod lan;
pub mod links;
pub mod online;
pub mod request;
pub mod skins;
#[cfg(test)]
pub(crate) mod test_server;
