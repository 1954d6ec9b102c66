//! What a room of several seats keeps about a running match for the history: who plays
//! (identities), and each seat's knock-outs and stats summed over the rounds. At the end it
//! becomes the [`BattleRecord`] the database writer stores (never rated: ranked is 1v1).

use sevenbag_core::{Phase, Seat, Stats};
use sevenbag_protocol::{BattleSim, EndReason};
use sevenbag_storage::{BattleRecord, BattleSeat, PlayerId};

use crate::db;

/// The history side of a running match of several seats.
#[derive(Debug)]
pub(super) struct BattleTally {
    players: Vec<Option<PlayerId>>,
    /// Stats of the rounds already over, per battle seat.
    stats: Vec<Stats>,
    /// Knock-outs of the rounds already over, per battle seat.
    kos: Vec<u32>,
}

impl BattleTally {
    /// A match whose battle seat `i` is played by `players[i]` (`None`: a guest).
    pub(super) fn new(players: Vec<Option<PlayerId>>) -> BattleTally {
        let n = players.len();
        BattleTally {
            players,
            stats: vec![Stats::default(); n],
            kos: vec![0; n],
        }
    }

    /// A round ended: its counters and knock-outs join the match's.
    pub(super) fn round_over(&mut self, sim: &BattleSim) {
        let game = sim.game();
        for (i, seat) in Seat::all(game.seats()).enumerate() {
            if let (Some(total), Some(kos)) = (self.stats.get_mut(i), self.kos.get_mut(i)) {
                db::add_stats(total, game.player(seat).stats());
                *kos += u32::from(game.kos(seat));
            }
        }
    }

    /// The record to store: `winner` is the winning team (the seat without teams).
    pub(super) fn record(
        mut self,
        sim: &BattleSim,
        names: &[String],
        winner: Option<u8>,
        reason: EndReason,
        replay: Option<String>,
        started_unix: u64,
    ) -> BattleRecord {
        let game = sim.game();
        // A match cut short mid-round: the round in play counts too.
        if matches!(game.phase(), Phase::Playing) && reason != EndReason::TopOut {
            self.round_over(sim);
        }
        let header = game.header();
        let teams = header.options.teams;
        let placements = sim.placements();
        let wins = game.wins();
        let seats = Seat::all(game.seats())
            .enumerate()
            .map(|(i, seat)| {
                let team = game.team_of(seat).index();
                BattleSeat {
                    player: self.players.get(i).copied().flatten(),
                    name: names.get(i).cloned().unwrap_or_default(),
                    placement: placements.get(i).copied().unwrap_or(0),
                    kos: self.kos.get(i).copied().unwrap_or(0),
                    team: teams.map(|_| team as u8),
                    rounds_won: wins.get(team).copied().unwrap_or(0),
                    stats: self.stats.get(i).map(db::stored_stats).unwrap_or_default(),
                }
            })
            .collect();
        let rules = serde_json::json!({
            "rules": header.rules,
            "targeting": header.options.targeting.name(),
            "badges": header.options.badges,
            "teams": teams.map(|t| t[..game.seats()].to_vec()),
            "team_boost": header.options.team_boost,
        });
        BattleRecord {
            winner,
            reason: reason_text(reason).to_string(),
            rules: rules.to_string(),
            targeting: header.options.targeting.name().to_string(),
            duration_frames: sim.frame(),
            replay,
            started_unix,
            ended_unix: db::unix_now(),
            seats,
        }
    }
}

fn reason_text(reason: EndReason) -> &'static str {
    match reason {
        EndReason::TopOut => "top_out",
        EndReason::Forfeit => "forfeit",
        EndReason::Shutdown => "shutdown",
        EndReason::Abandoned => "abandoned",
    }
}
