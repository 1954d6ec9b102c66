//! Friends, presence and notifications on the server (`docs/SERVER.md`, "Friends, presence
//! and notifications"): what an identified player asks of their friends, where each player is,
//! and notifications kept until seen.
//!
//! ## Layout
//! - `requests.rs`: the social requests (friend requests, lists, policy, notifications,
//!   direct messages, invites), each answered with a reply or a refusal;
//! - `presence.rs`: [`PresenceBook`], who is connected here, where, and the `Presence` pushes
//!   to their friends;
//! - `remote.rs`: what the book hears of the other instances' players, and the [`Beyond`]
//!   hook through which it tells them of its own;
//! - `idle.rs`: away after idle, the task that marks silent connections away and which
//!   messages count;
//! - `watch.rs`: [`Watched`], the connection's sink that tells the book when its match starts
//!   and ends;
//! - `notify.rs`: notifications kept in the database and sent live;
//! - `reads.rs`: a player's own lists for the HTTP API (friends, requests, notifications);
//! - `store.rs`: names to players, and storage refusals to the errors clients hear;
//! - `limits.rs`: the per-connection rate limits on requests, invites and direct messages.
//!
//! Across the instances of a cluster, `crate::cluster` carries what the book says through
//! [`Beyond`] to the others and hands it what they say (`PresenceBook::heard*`); without a
//! cluster, or while Redis is down, the book knows this instance's players only.

mod idle;
mod limits;
mod notify;
mod presence;
mod reads;
mod remote;
mod requests;
mod store;
mod watch;

pub(crate) use idle::counts as shows_activity;
pub(crate) use limits::{Buckets, CODE as FLOOD_CODE, Flood, Kind};
pub(crate) use presence::{Place, PresenceBook};
pub(crate) use reads::{friends, requests as pending_requests, unseen};
pub(crate) use remote::{Beyond, Seen};
pub(crate) use requests::{Me, blocked, handle, on_identified};
pub(crate) use watch::Watched;
