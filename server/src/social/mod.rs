//! Friends, presence and notifications on the server (`docs/SERVER.md`, "Friends, presence
//! and notifications"), on one instance: what an identified player asks of their friends,
//! where each of this instance's players is, and notifications kept until seen.
//!
//! ## Layout
//! - `requests.rs`: the social requests (friend requests, lists, policy, notifications,
//!   direct messages, invites), each answered with a reply or a refusal;
//! - `presence.rs`: [`PresenceBook`], who is connected here, where, and the `Presence` pushes
//!   to their friends;
//! - `watch.rs`: [`Watched`], the connection's sink that tells the book when its match starts
//!   and ends;
//! - `notify.rs`: notifications kept in the database and sent live;
//! - `store.rs`: names to players, and storage refusals to the errors clients hear;
//! - `limits.rs`: the per-connection rate limits on requests, invites and direct messages.
//!
//! Presence does not cross instances of a cluster: a friend on another instance reads as
//! offline here.

mod limits;
mod notify;
mod presence;
mod requests;
mod store;
mod watch;

pub(crate) use limits::{Buckets, CODE as FLOOD_CODE, Flood, Kind};
pub(crate) use presence::{Place, PresenceBook};
pub(crate) use requests::{Me, blocked, handle, on_identified};
pub(crate) use watch::Watched;
