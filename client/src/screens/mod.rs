//! One file per screen, plus the list navigation they share.
//!
//! - [`menu`] — the main menu.
//! - [`setup`] — practice-vs-bot and local two-player setup.
//! - [`play`] — the match screen, for every kind of [`crate::session::Session`].
//! - [`settings`] — name, server, handling, volume and key bindings.
//! - [`lobby`] — the online and LAN forms (quick match, room options, codes, LAN hosts).
//! - [`online`] — a live connection: waiting, the room card, then the match view.
//! - [`replays`] — replay files, downloads from the server, and playback.
//! - [`challenge`] — the fixed-sequence challenge: play it, watch records.
//! - [`solo`] — 40 lines, Blitz and Zen: play, results, personal bests, watch the best.
//! - [`puzzles`] — the Puzzles mode: choose, generate and play puzzles.
//! - [`welcome`] — the first-start name prompt.
//! - [`account`] — Settings › Account rows: the recovery code, importing one.
//! - [`list`] — keyboard and mouse navigation of a list of rows.

// fixed-sequence challenge (helper: challenge)
pub mod account;
pub mod challenge;
pub mod lobby;
pub mod menu;
pub mod online;
pub mod play;
// Puzzles mode (helper: pmode)
pub mod puzzles;
pub mod replays;
pub mod settings;
pub mod setup;
pub mod standings;
pub mod welcome;

pub mod solo;
pub mod solo_past;
