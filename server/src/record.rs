//! What a room keeps about a running match for the history: who played (identities), whether
//! it is ranked and whether the server saw a desync. At the end it becomes the [`MatchResult`]
//! the database writer stores (and rates), with per-player stats summed over rounds by playing
//! the match again from its final inputs: a count kept while the match ran would miss a round
//! that a late batch confirmed past together with the next round's start, and every round
//! before a restart.

use sevenbag_core::{Match, Phase, Seat, Stats};
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
}

impl Tally {
    pub(crate) fn new(ranked: bool, players: [Option<PlayerId>; 2]) -> Tally {
        Tally {
            ranked,
            players,
            desynced: false,
        }
    }

    /// The server saw a client's state hash differ from its own: the match is void.
    pub(crate) fn desync(&mut self) {
        self.desynced = true;
    }

    /// The result to store. `away_in_window`: a seat was still inside its reconnect window when
    /// the match ended (void, see `crate::ranked`).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn result(
        self,
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
        let stats = round_stats(sim, reason);
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
            stats: stats[i],
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

/// Each seat's counters summed over every round of `sim`'s match, played again from its
/// confirmed inputs; a match cut short mid-round (not on the boards) counts the round in play.
fn round_stats(sim: &ConfirmedSim, reason: EndReason) -> [Stats; 2] {
    let mut stats = [Stats::default(); 2];
    let mut add = |game: &Match| {
        for seat in Seat::BOTH {
            db::add_stats(&mut stats[seat.index()], game.player(seat).stats());
        }
    };
    let mut again = ConfirmedSim::new(*sim.game().header());
    for (seat, inputs) in Seat::BOTH.into_iter().zip(sim.seat_inputs()) {
        // The inputs were accepted once: they are accepted again.
        let _ = again.extend(seat, &inputs.changes, inputs.confirmed);
    }
    again.advance_with(&mut add);
    if matches!(again.game().phase(), Phase::Playing) && reason != EndReason::TopOut {
        add(again.game());
    }
    stats
}

#[cfg(test)]
mod tests {
    use sevenbag_core::{Input, MatchHeader};
    use sevenbag_protocol::{SeatInputs, SimEvent};

    use super::*;

    /// Both seats hard-drop (seat 0 every 3 frames, seat 1 every 5) to the end of a
    /// first-to-two match, every frame confirmed up to `frames`.
    fn inputs(frames: u32) -> (MatchHeader, [SeatInputs; 2]) {
        let mut header = MatchHeader::versus(11);
        header.rules.first_to = 2;
        header.rules.countdown_frames = 10;
        header.rules.round_break_frames = 10;
        let seat = |every: u32| {
            let masks: Vec<Input> = (0..frames)
                .map(|f| {
                    if f % every == 0 {
                        Input::HARD_DROP
                    } else {
                        Input::NONE
                    }
                })
                .collect();
            SeatInputs::from_masks(&masks)
        };
        (header, [seat(3), seat(5)])
    }

    /// The match confirmed in one batch: one `advance` steps over every round's end.
    fn at_once(frames: u32) -> ConfirmedSim {
        let (header, inputs) = inputs(frames);
        let mut sim = ConfirmedSim::new(header);
        for (seat, i) in Seat::BOTH.into_iter().zip(&inputs) {
            sim.extend(seat, &i.changes, i.confirmed).expect("inputs");
        }
        sim.advance();
        sim
    }

    #[test]
    fn every_round_counts_even_when_one_batch_confirms_past_its_end() {
        let sim = at_once(30_000);
        assert!(sim.winner().is_some(), "decided by frame {}", sim.frame());
        assert!(sim.rounds().len() >= 2, "{} rounds", sim.rounds().len());
        // The same match stepped a frame at a time, the rounds summed as they end.
        let (header, inputs) = inputs(30_000);
        let mut step = ConfirmedSim::new(header);
        let mut expected = [Stats::default(); 2];
        for f in 1..=sim.frame() {
            for (seat, i) in Seat::BOTH.into_iter().zip(&inputs) {
                let changes: Vec<_> = i
                    .changes
                    .iter()
                    .filter(|c| c.frame == f - 1)
                    .copied()
                    .collect();
                step.extend(seat, &changes, f).expect("inputs");
            }
            for event in step.advance() {
                if let SimEvent::RoundOver(_) = event {
                    for seat in Seat::BOTH {
                        db::add_stats(
                            &mut expected[seat.index()],
                            step.game().player(seat).stats(),
                        );
                    }
                }
            }
        }
        let counted = round_stats(&sim, EndReason::TopOut);
        assert_eq!(counted, expected);
        let last_round = sim.game().player(Seat::First).stats().pieces;
        assert!(
            counted[0].pieces > last_round,
            "{} > {last_round}",
            counted[0].pieces
        );
    }

    #[test]
    fn a_match_cut_short_counts_the_round_in_play() {
        let sim = at_once(30);
        assert!(matches!(sim.game().phase(), Phase::Playing));
        assert!(sim.rounds().is_empty());
        let cut = round_stats(&sim, EndReason::Shutdown);
        assert_eq!(cut[0].pieces, sim.game().player(Seat::First).stats().pieces);
        assert!(cut[0].pieces > 0);
        assert_eq!(round_stats(&sim, EndReason::TopOut)[0].pieces, 0);
    }
}
