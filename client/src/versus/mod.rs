//! Head-to-head matches: practice against a bot, two players on one keyboard, online and LAN
//! rooms, and the match view they all share.
//!
//! - [`local_session`] — offline play (practice, two people on one keyboard, the demo) as a
//!   `crate::match_source::MatchSource`.
//! - [`practice_finesse`] — the finesse faults of practice, counted live.
//! - [`setup`] — the practice and local setup screen.
//! - [`play`] — the match screen, for every kind of session.
//! - [`match_view`] — drawing the match: both panels, the title, the middle strip, the banners.
//! - [`lobby`] — the online and LAN forms (quick match, room options, codes, LAN hosts).
//! - [`online`] — a live connection's screen: waiting, the room card, then the match.

pub mod lobby;
pub mod local_session;
pub mod match_view;
pub mod online;
pub mod pause_menu;
pub mod play;
pub mod practice_finesse;
pub mod replay_bar;
pub mod setup;
