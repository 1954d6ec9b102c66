//! One file per screen, plus the list navigation they share.
//!
//! - [`menu`] — the main menu.
//! - [`setup`] — practice-vs-bot and local two-player setup.
//! - [`play`] — the match screen, for every kind of [`crate::session::Session`].
//! - [`settings`] — name, server, handling, volume and key bindings.
//! - [`lobby`] — online rooms, spectating and LAN (forms now, connections in phase 2).
//! - [`replays`] — replay files (playback in phase 2).
//! - [`list`] — keyboard and mouse navigation of a list of rows.

pub mod list;
pub mod lobby;
pub mod menu;
pub mod play;
pub mod replays;
pub mod settings;
pub mod setup;
