//! What a match of several seats leaves for the history. The room keeps only who plays each
//! seat (identities); at the end it hands the final inputs to the database writer, which plays
//! the match again from them (off the room's task, a few milliseconds) to sum every seat's
//! knock-outs and stats round by round, and stores the [`BattleRecord`]. Never rated: ranked is
//! 1v1. Counting from the final inputs is exact however the room's simulation was stepped
//! (a catch-up may confirm past a round's end and into the next), and covers the rounds played
//! before a restart too.

use sevenbag_core::{Battle, MAX_SEATS, Phase, Seat, SeatInput, Stats};
use sevenbag_protocol::{BattleSim, EndReason, SeatLog};
use sevenbag_storage::{BattleRecord, BattleSeat, PlayerId};

use crate::db;

/// A finished match of several seats, as the room hands it to the writer.
#[derive(Debug)]
pub(super) struct BattleFinish {
    header: sevenbag_core::BattleHeader,
    logs: Vec<SeatLog>,
    frames: u32,
    names: Vec<String>,
    players: Vec<Option<PlayerId>>,
    winner: Option<u8>,
    reason: EndReason,
    replay: Option<String>,
    started_unix: u64,
    ended_unix: u64,
}

impl BattleFinish {
    /// The match `sim` ended by `reason` (`winner`: the winning team); battle seat `i` was
    /// played by `players[i]` (`None`: a guest) and called `names[i]`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn new(
        sim: &BattleSim,
        names: &[String],
        players: &[Option<PlayerId>],
        winner: Option<u8>,
        reason: EndReason,
        replay: Option<String>,
        started_unix: u64,
    ) -> BattleFinish {
        let n = sim.game().seats();
        BattleFinish {
            header: *sim.game().header(),
            logs: (0..n)
                .map(|b| sim.log(b).cloned().unwrap_or_default())
                .collect(),
            frames: sim.frame(),
            names: names.to_vec(),
            players: players.to_vec(),
            winner,
            reason,
            replay,
            started_unix,
            ended_unix: db::unix_now(),
        }
    }

    /// Plays the match again from its inputs and makes the record to store.
    pub(super) fn record(self) -> BattleRecord {
        let Ok(mut game) = Battle::<MAX_SEATS>::new(self.header) else {
            // The room simulated this header: it is valid. Stored without counters if not.
            return self.into_record(None);
        };
        let n = game.seats();
        let mut stats = vec![Stats::default(); n];
        let mut kos = vec![0u32; n];
        let count = |game: &Battle, stats: &mut [Stats], kos: &mut [u32]| {
            for (i, seat) in Seat::all(game.seats()).enumerate() {
                db::add_stats(&mut stats[i], game.player(seat).stats());
                kos[i] += u32::from(game.kos(seat));
            }
        };
        for f in 0..self.frames {
            if game.winner().is_some() {
                break;
            }
            let mut inputs = [SeatInput::NONE; MAX_SEATS];
            for (slot, log) in inputs.iter_mut().zip(&self.logs) {
                *slot = log.get(f).unwrap_or_default();
            }
            game.step(&inputs);
            if game.events().round_over.is_some() {
                count(&game, &mut stats, &mut kos);
            }
        }
        // A match cut short mid-round: the round in play counts too.
        if matches!(game.phase(), Phase::Playing) && self.reason != EndReason::TopOut {
            count(&game, &mut stats, &mut kos);
        }
        self.into_record(Some((game, stats, kos)))
    }

    fn into_record(self, played: Option<(Battle, Vec<Stats>, Vec<u32>)>) -> BattleRecord {
        let teams = self.header.options.teams;
        let n = usize::from(self.header.seats);
        let seats = (0..n)
            .map(|i| {
                let (placement, team, rounds_won, stats, kos) = match &played {
                    Some((game, stats, kos)) => {
                        let seat = Seat::all(n).nth(i).unwrap_or(Seat::First);
                        let team = game.team_of(seat).index();
                        (
                            game.placement(seat).unwrap_or(0),
                            team,
                            game.wins().get(team).copied().unwrap_or(0),
                            db::stored_stats(&stats[i]),
                            kos[i],
                        )
                    }
                    None => (0, i, 0, Default::default(), 0),
                };
                BattleSeat {
                    player: self.players.get(i).copied().flatten(),
                    name: self.names.get(i).cloned().unwrap_or_default(),
                    placement,
                    kos,
                    team: teams.map(|_| team as u8),
                    rounds_won,
                    stats,
                }
            })
            .collect();
        let options = &self.header.options;
        let rules = serde_json::json!({
            "rules": self.header.rules,
            "targeting": options.targeting.name(),
            "badges": options.badges,
            "teams": teams.map(|t| t[..n].to_vec()),
            "team_boost": options.team_boost,
        });
        BattleRecord {
            winner: self.winner,
            reason: reason_text(self.reason).to_string(),
            rules: rules.to_string(),
            targeting: options.targeting.name().to_string(),
            duration_frames: self.frames,
            replay: self.replay,
            started_unix: self.started_unix,
            ended_unix: self.ended_unix,
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

#[cfg(test)]
mod tests {
    use sevenbag_core::{BattleHeader, Input};
    use sevenbag_protocol::InputChange;

    use super::*;

    /// Three seats hard-dropping every 2 to 4 frames (a different pace each) to the end of
    /// a first-to-two match.
    fn finished() -> (BattleSim, BattleFinish) {
        let mut header = BattleHeader::new(7, 3);
        header.rules.first_to = 2;
        header.rules.countdown_frames = 10;
        header.rules.round_break_frames = 10;
        let mut sim = BattleSim::new(header).expect("a valid header");
        for seat in 0..3u32 {
            let every = 2 + seat;
            let changes: Vec<InputChange> = (0..20_000 / every)
                .map(|i| InputChange {
                    frame: i * every,
                    input: if i % 2 == 0 {
                        Input::HARD_DROP
                    } else {
                        Input::NONE
                    },
                })
                .collect();
            for chunk in changes.chunks(100) {
                let upto = chunk.last().map_or(0, |c| c.frame + 1);
                sim.extend(seat as usize, chunk, &[], upto).expect("inputs");
            }
        }
        sim.advance();
        assert!(sim.winner().is_some(), "decided at frame {}", sim.frame());
        let names: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
        let finish = BattleFinish::new(
            &sim,
            &names,
            &[Some(PlayerId(4)), None, None],
            sim.winner(),
            EndReason::TopOut,
            Some("r".into()),
            1,
        );
        (sim, finish)
    }

    #[test]
    fn the_record_plays_the_match_again_and_counts_every_round() {
        let (sim, finish) = finished();
        let record = finish.record();
        assert_eq!(record.seats.len(), 3);
        assert_eq!(record.winner, sim.winner());
        assert_eq!(record.duration_frames, sim.frame());
        let placements: Vec<u8> = record.seats.iter().map(|s| s.placement).collect();
        assert_eq!(placements, sim.placements());
        let rounds = sim.rounds().len();
        assert!(rounds >= 2, "first to two: {rounds} rounds");
        // Every seat locked pieces in every round: more than in the last one alone.
        for (i, seat) in Seat::all(3).enumerate() {
            let last = sim.game().player(seat).stats().pieces;
            assert!(record.seats[i].stats.pieces > last, "{i}: {record:?}");
        }
        let won: u8 = record.seats.iter().map(|s| s.rounds_won).max().unwrap_or(0);
        assert_eq!(won, 2);
        let kos: u32 = record.seats.iter().map(|s| s.kos).sum();
        assert!(
            kos <= 2 * rounds as u32,
            "at most two knock-outs a round: {kos}"
        );
        assert_eq!(
            (record.seats[0].player, record.seats[1].name.as_str()),
            (Some(PlayerId(4)), "b")
        );
        assert_eq!(
            (record.reason.as_str(), record.targeting.as_str()),
            ("top_out", "even")
        );
    }
}
