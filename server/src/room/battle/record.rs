//! Where a finished match goes in the history. A plain two-seat match is a versus match
//! (`sevenbag_protocol::two_seat`): stored as one, with its stats and result, and rated when
//! the room's policy says so (the ranked path: screening, Glicko-2, the players' new
//! profiles), exactly as a two-seat room's. Any other match is a [`BattleRecord`]
//! ([`super::tally`]). Either way the replaying and summing runs on the database writer's
//! thread, never the room's.
//!
//! [`BattleRecord`]: sevenbag_storage::BattleRecord

use sevenbag_core::Seat;
use sevenbag_protocol::{ConfirmedSim, EndReason};
use tracing::error;

use super::{BattleRoom, Running};
use crate::record::Tally;

impl BattleRoom {
    /// Hands the finished match `run` to the database writer (never waits on it).
    pub(super) fn report(
        &self,
        run: &Running,
        winner: Option<u8>,
        reason: EndReason,
        replay: Option<String>,
    ) {
        let Some(db) = &self.services.db else {
            return;
        };
        let Some(header) = run.sim.versus() else {
            let finish = super::tally::BattleFinish::new(
                &run.sim,
                &run.names,
                &run.players,
                winner,
                reason,
                replay,
                run.started_unix,
            );
            db.record_battle(move || finish.record());
            return;
        };
        let mut tally = Tally::new(self.policy.rated, [run.players[0], run.players[1]]);
        if run.desynced {
            tally.desync();
        }
        let names = [run.names[0].clone(), run.names[1].clone()];
        let outboxes = [0, 1].map(|b| {
            let seat = usize::from(run.room_seats[b]);
            self.seats[seat].as_ref().and_then(|s| s.conn.clone())
        });
        let away = self.seats.iter().flatten().any(|s| s.deadline.is_some());
        let winner = winner.and_then(|w| Seat::new(usize::from(w)));
        let (sim, started) = (run.sim.clone(), run.started_unix);
        db.record(move || {
            // The room's sim took every input, so the versus one does too; should it not,
            // the match is still stored, with its result and without stats.
            let versus = sim.to_versus().unwrap_or_else(|e| {
                error!(error = %e, "a two-seat match did not step as a versus match");
                ConfirmedSim::new(header)
            });
            tally.result(
                &versus, &names, winner, reason, replay, started, outboxes, away,
            )
        });
    }
}
