//! Who the player is on servers, and ranked play's standings.
//!
//! - [`requests`] — Settings › Account's connections: show the identity, import a recovery code,
//!   rename on the server.
//! - [`rows`] — the ACCOUNT rows of the Settings screen.
//! - [`standings`] — the connection behind the leaderboard and profiles.
//! - [`leaderboard`] — the leaderboard and profile screen.
//! - [`match_table`] — a match of a profile's history as a results table of every seat.
//! - [`report_form`] — the profile screen's report form.
//! - [`rating_chart`] — a profile's rating over its latest ranked matches.
//! - [`profile_charts`] — the rating and solo best progressions drawn under a profile.

pub mod leaderboard;
pub mod match_table;
pub mod profile_charts;
pub mod rating_chart;
pub mod report_form;
pub mod requests;
pub mod rows;
pub mod standings;
