//! What a room keeps about a running match for the history: who played (identities), whether
//! it is ranked, whether the server saw a desync, and per-player stats summed over rounds. At
//! the end it becomes the [`MatchResult`] the database writer stores (and rates).

use sevenbag_core::{Phase, Seat, Stats};
use sevenbag_protocol::{ConfirmedSim, EndReason};
use sevenbag_storage::PlayerId;

use crate::db::{self, MatchResult, SeatResult};
use crate::relay::Outbox;

/// The history side of a running match.
#[derive(Debug)]
pub(crate) struct Tally {
    ranked: bool,
    players: [Option<PlayerId>; 2],
    desynced: bool,
    /// Stats of the rounds already over.
    stats: [Stats; 2],
}

impl Tally {
    pub(crate) fn new(ranked: bool, players: [Option<PlayerId>; 2]) -> Tally {
        Tally {
            ranked,
            players,
            desynced: false,
            stats: [Stats::default(); 2],
        }
    }

    /// The server saw a client's state hash differ from its own: the match is void.
    pub(crate) fn desync(&mut self) {
        self.desynced = true;
    }

    /// A round ended: its counters join the match's.
    pub(crate) fn round_over(&mut self, sim: &ConfirmedSim) {
        for seat in Seat::BOTH {
            db::add_stats(
                &mut self.stats[seat.index()],
                sim.game().player(seat).stats(),
            );
        }
    }

    /// The result to store. `away_in_window`: a seat was still inside its reconnect window when
    /// the match ended (void, see `crate::ranked`).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn result(
        mut self,
        sim: &ConfirmedSim,
        names: &[String; 2],
        winner: Option<Seat>,
        reason: EndReason,
        replay: Option<String>,
        started_unix: u64,
        outboxes: [Option<Outbox>; 2],
        away_in_window: bool,
    ) -> MatchResult {
        let game = sim.game();
        // A match cut short mid-round: the round in play counts too.
        if matches!(game.phase(), Phase::Playing) && reason != EndReason::TopOut {
            self.round_over(sim);
        }
        let void = self.desynced
            || matches!(reason, EndReason::Shutdown | EndReason::Abandoned)
            || away_in_window;
        let reason_text = if self.desynced {
            "desync".to_string()
        } else if away_in_window && reason == EndReason::Forfeit {
            "left_during_reconnect".to_string()
        } else {
            match reason {
                EndReason::TopOut => "top_out",
                EndReason::Forfeit => "forfeit",
                EndReason::Shutdown => "shutdown",
                EndReason::Abandoned => "abandoned",
            }
            .to_string()
        };
        let [first, second] = outboxes;
        let seat = |i: usize, outbox: Option<Outbox>| SeatResult {
            player: self.players[i],
            name: names[i].clone(),
            stats: self.stats[i],
            outbox,
        };
        let seats = [seat(0, first), seat(1, second)];
        MatchResult {
            ranked: self.ranked,
            winner: winner.filter(|_| !void).map(|s| s.index() as u8),
            reason: reason_text,
            score: game.wins(),
            rules: serde_json::to_string(&game.header().rules).unwrap_or_default(),
            duration_frames: sim.frame(),
            replay,
            started_unix,
            ended_unix: db::unix_now(),
            seats,
            // Screened for inhuman input before it is rated (`crate::screen`).
            inputs: self.ranked.then(|| (*game.header(), sim.seat_inputs())),
        }
    }
}
