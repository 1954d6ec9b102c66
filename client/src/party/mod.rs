//! Free-for-all: practice, you and 1 to 7 bots on one seed played offline on the core's
//! `Battle` (targeting, knock-outs, placements, badges, teams all come from the core), and
//! rooms of 3 to 8 people on a server.
//!
//! - [`setup`] — the setup screen: offline or online, how many bots (or seats), their level,
//!   the targeting rule, teams, badges.
//! - [`game`] — the match and its seats (your keys and a target, a bot per other seat), with
//!   the figures of the results table. Headless, so tests play whole matches.
//! - [`screen`] — the play screen: keys, targeting keys, pause, results.
//! - [`view`] — drawing it with [`crate::layout::party`], from any [`source::PartyMatch`]
//!   (the practice match here, or an online room's session in [`online`]).
//! - [`follow`] — which board a spectator sees large: the leader by VS, or one picked.
//! - [`online`] — a free-for-all room on a server: its lobby, play through netplay's
//!   `BattleSession`, spectating, results and rematch.

pub mod duel;
pub mod follow;
pub mod game;
pub mod online;
pub mod screen;
pub mod setup;
pub mod source;
#[cfg(test)]
mod tests;
pub mod view;

use sevenbag_bot::Level;
use sevenbag_core::{BattleHeader, Handling, MAX_SEATS, Targeting};

/// The choices of a free-for-all practice match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PartySetup {
    /// Bots besides you, 1 to 7.
    pub bots: u8,
    /// Their level.
    pub level: Level,
    /// How attacks pick their receivers.
    pub targeting: Targeting,
    /// Teams (2 to 4; seats join them in turn: seat 1 team 1, seat 2 team 2, ...), or 0 for
    /// every player on their own.
    pub teams: u8,
    /// Badges: knock-outs raise attack.
    pub badges: bool,
    /// Rounds a player (or team) needs to win the match.
    pub first_to: u8,
}

impl Default for PartySetup {
    /// Three bots at Medium (the page's bots think inside the frame, so a fuller room starts
    /// at a level whose searches are short), even targeting, no teams, badges on, one round.
    fn default() -> Self {
        PartySetup {
            bots: 3,
            level: Level::Medium,
            targeting: Targeting::Even,
            teams: 0,
            badges: true,
            first_to: 1,
        }
    }
}

impl PartySetup {
    /// Seats in play, you included.
    pub fn seats(&self) -> usize {
        usize::from(self.bots.clamp(1, 7)) + 1
    }

    /// The teams actually played: none asked, or more than there are seats, is none.
    pub fn teams_played(&self) -> Option<u8> {
        (2..=4)
            .contains(&self.teams)
            .then_some(self.teams)
            .filter(|&t| usize::from(t) < self.seats())
    }

    /// The match header: versus rules with this setup's rounds, `handling` for your seat and
    /// the bot handling for the others (their level caps their pace).
    pub fn header(&self, seed: u64, handling: Handling) -> BattleHeader {
        let seats = self.seats();
        let mut header = BattleHeader::new(seed, seats as u8);
        header.rules.first_to = self.first_to.max(1);
        header.handling[0] = handling;
        for h in &mut header.handling[1..seats] {
            *h = sevenbag_bot::BOT_HANDLING;
        }
        header.options.targeting = self.targeting;
        header.options.badges = self.badges;
        header.options.teams = self.teams_played().map(|t| {
            let mut list = [0u8; MAX_SEATS];
            for (i, team) in list.iter_mut().enumerate().take(seats) {
                *team = (i % usize::from(t)) as u8;
            }
            list
        });
        header
    }
}
