//! One reader for every replay file: [`open`] reads format version 1 (two seats, [`Replay`])
//! or version 2 (2 to 8 seats, [`BattleReplay`]) into one model of N seats, [`OpenedReplay`].
//! A version-1 file is converted on read ([`BattleReplay::from_versus`]); the conversion is
//! lossless ([`BattleReplay::to_versus`] gives the file's body back), so a version-1 file is
//! still verified by the version-1 path ([`verify`]) with exactly its answers, while tools and
//! playback see one shape for every match.

use sevenbag_core::{BattleHeader, MatchHeader, Seat};

use crate::battle_replay::{
    BATTLE_REPLAY_VERSION, BattleReplay, BattleResult, BattleRound, BattleSeatInputs, verify_battle,
};
use crate::messages::EndReason;
use crate::replay::{
    MatchResult, REPLAY_FORMAT_VERSION, Replay, ReplayError, RoundRecord, SeatInputs, verify,
};

/// A replay file of either format version, as one match of N seats.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpenedReplay {
    /// The file's format version (1: two seats, 2: several).
    pub version: u16,
    /// The match: for a version-1 file, its two seats converted by [`BattleReplay::from_versus`].
    pub replay: BattleReplay,
}

/// What [`OpenedReplay::verify`] checked: the same for either format version.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpenedReport {
    /// Frames re-simulated.
    pub frames: u32,
    /// Recorded hashes compared (all matched).
    pub hashes_checked: usize,
    /// Rounds re-simulated (all matched the recording).
    pub rounds: usize,
    /// The re-simulation's state hash at its last frame.
    pub final_hash: u64,
}

/// One seat of a replay as a listing shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatStanding {
    /// The seat's number, from 0.
    pub seat: usize,
    /// The player's name.
    pub name: String,
    /// The seat's team (its own seat number when every seat plays for itself).
    pub team: u8,
    /// The seat's place in the last round, from 1; `None` where undecided.
    pub placement: Option<u8>,
    /// Whether the seat's team won the match.
    pub won: bool,
}

/// Reads a replay file of format version 1 or 2 (told apart by the version after the magic)
/// into one model of N seats. Every check of the version's own decoder applies.
pub fn open(bytes: &[u8]) -> Result<OpenedReplay, ReplayError> {
    match crate::battle_replay::read_any(bytes)? {
        crate::AnyReplay::Versus(r) => Ok(OpenedReplay::from(*r)),
        crate::AnyReplay::Battle(r) => Ok(OpenedReplay::from(*r)),
    }
}

/// A two-seat replay file of either version as the two-seat model ([`Replay`]): what the
/// versus view and two-seat tools play. A match of several seats, or of two with targeting or
/// options, is [`ReplayError::NotTwoSeats`].
pub fn open_two_seats(bytes: &[u8]) -> Result<Replay, ReplayError> {
    let opened = open(bytes)?;
    opened.replay.to_versus().ok_or(ReplayError::NotTwoSeats {
        seats: opened.seats(),
    })
}

impl From<Replay> for OpenedReplay {
    fn from(replay: Replay) -> OpenedReplay {
        OpenedReplay {
            version: REPLAY_FORMAT_VERSION,
            replay: BattleReplay::from_versus(&replay),
        }
    }
}

impl From<BattleReplay> for OpenedReplay {
    fn from(replay: BattleReplay) -> OpenedReplay {
        OpenedReplay {
            version: BATTLE_REPLAY_VERSION,
            replay,
        }
    }
}

impl OpenedReplay {
    /// How many seats played.
    pub fn seats(&self) -> usize {
        self.replay.names.len()
    }

    /// Re-simulates the match and checks every recorded hash, every round and the result: a
    /// version-1 file through [`verify`] (its own path, unchanged), a version-2 file through
    /// [`verify_battle`].
    pub fn verify(&self) -> Result<OpenedReport, ReplayError> {
        if self.version == REPLAY_FORMAT_VERSION {
            let versus = self.replay.to_versus().ok_or_else(|| {
                ReplayError::Malformed("a version-1 replay of more than two seats".into())
            })?;
            let report = verify(&versus)?;
            return Ok(OpenedReport {
                frames: report.frames,
                hashes_checked: report.hashes_checked,
                rounds: report.rounds.len(),
                final_hash: report.final_hash,
            });
        }
        let report = verify_battle(&self.replay)?;
        Ok(OpenedReport {
            frames: report.frames,
            hashes_checked: report.hashes_checked,
            rounds: self.replay.rounds.len(),
            final_hash: report.final_hash,
        })
    }

    /// Every seat: name, team, place and whether its team won, in seat order.
    pub fn standings(&self) -> Vec<SeatStanding> {
        let r = &self.replay;
        r.names
            .iter()
            .enumerate()
            .map(|(seat, name)| {
                let team = r.header.options.teams.map_or(seat as u8, |t| t[seat]);
                SeatStanding {
                    seat,
                    name: name.clone(),
                    team,
                    placement: r.result.placements.get(seat).copied().filter(|&p| p > 0),
                    won: r.result.winner == Some(team),
                }
            })
            .collect()
    }
}

impl BattleReplay {
    /// A two-seat replay as a match of two seats: the header through
    /// [`BattleHeader::versus`], each seat's keys with no target changes (two seats have one
    /// target each), the same hashes (a two-seat `Battle` hashes as the `Match` it plays), and
    /// rounds and result with the places a two-seat `Battle` gives: the winner 1 and the loser
    /// 2, both 1 in a drawn round. The result's places are the last round's when the match was
    /// decided on the boards; after a forfeit the winner is 1 and the other 2; with no winner,
    /// undecided (0).
    pub fn from_versus(replay: &Replay) -> BattleReplay {
        let places = |winner: Option<Seat>| match winner {
            Some(w) => Seat::BOTH.map(|s| if s == w { 1 } else { 2 }).to_vec(),
            None => vec![1, 1],
        };
        let rounds: Vec<BattleRound> = replay
            .rounds
            .iter()
            .map(|r| BattleRound {
                round: r.round,
                winner: r.winner.map(|s| s.index() as u8),
                wins: r.wins.to_vec(),
                placements: places(r.winner),
                frame: r.frame,
            })
            .collect();
        let result = replay.result;
        let placements = match (result.reason, result.winner) {
            (EndReason::TopOut, _) => rounds
                .last()
                .map_or_else(|| vec![0, 0], |r| r.placements.clone()),
            (_, Some(w)) => places(Some(w)),
            (_, None) => vec![0, 0],
        };
        BattleReplay {
            header: BattleHeader::versus(&replay.header),
            names: replay.names.to_vec(),
            inputs: replay
                .inputs
                .iter()
                .map(|i| BattleSeatInputs {
                    changes: i.changes.clone(),
                    targets: Vec::new(),
                    confirmed: i.confirmed,
                })
                .collect(),
            hashes: replay.hashes.clone(),
            rounds,
            result: BattleResult {
                winner: result.winner.map(|s| s.index() as u8),
                reason: result.reason,
                frames: result.frames,
                placements,
            },
            created_unix: replay.created_unix,
        }
    }

    /// The two-seat replay this match is, if it is one a version-1 file can hold: two seats,
    /// the default options, no target changes, winners of seat 0 or 1. The inverse of
    /// [`BattleReplay::from_versus`].
    pub fn to_versus(&self) -> Option<Replay> {
        let h = &self.header;
        let plain = h.seats == 2
            && h.options == Default::default()
            && h.handling[2..].iter().all(|x| *x == Default::default())
            && self.names.len() == 2
            && self.inputs.len() == 2
            && self.inputs.iter().all(|i| i.targets.is_empty());
        if !plain {
            return None;
        }
        let seat = |w: Option<u8>| -> Option<Option<Seat>> {
            match w {
                None => Some(None),
                Some(t) => Seat::from_index(usize::from(t)).map(Some),
            }
        };
        let rounds = self
            .rounds
            .iter()
            .map(|r| {
                Some(RoundRecord {
                    round: r.round,
                    winner: seat(r.winner)?,
                    wins: r.wins.as_slice().try_into().ok()?,
                    frame: r.frame,
                })
            })
            .collect::<Option<Vec<_>>>()?;
        Some(Replay {
            header: MatchHeader {
                rules: h.rules,
                seed: h.seed,
                handling: [h.handling[0], h.handling[1]],
            },
            names: [self.names[0].clone(), self.names[1].clone()],
            inputs: [0, 1].map(|s| SeatInputs {
                changes: self.inputs[s].changes.clone(),
                confirmed: self.inputs[s].confirmed,
            }),
            hashes: self.hashes.clone(),
            rounds,
            result: MatchResult {
                winner: seat(self.result.winner)?,
                reason: self.result.reason,
                frames: self.result.frames,
            },
            created_unix: self.created_unix,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sevenbag_core::Input;

    fn versus(reason: EndReason) -> Replay {
        let mut header = MatchHeader::versus(42);
        header.rules.first_to = 2;
        header.rules.countdown_frames = 10;
        let masks = |period: u32| -> Vec<Input> {
            (0..6000)
                .map(|f| {
                    if f % period == 0 {
                        Input::HARD_DROP
                    } else {
                        Input::NONE
                    }
                })
                .collect()
        };
        let inputs = [
            SeatInputs::from_masks(&masks(6)),
            SeatInputs::from_masks(&masks(9)),
        ];
        let names = ["ann".into(), "bob".into()];
        Replay::play_out(header, &inputs, names, reason, 7).expect("valid scripts")
    }

    #[test]
    fn a_two_seat_replay_converts_both_ways_without_loss() {
        let replay = versus(EndReason::TopOut);
        let model = BattleReplay::from_versus(&replay);
        assert_eq!(model.names.len(), 2);
        assert_eq!(model.to_versus(), Some(replay));
    }

    #[test]
    fn a_converted_two_seat_replay_also_verifies_as_a_battle_of_two() {
        let replay = versus(EndReason::TopOut);
        let model = BattleReplay::from_versus(&replay);
        let battle = verify_battle(&model).expect("the same match as a battle");
        assert_eq!(
            battle.final_hash,
            verify(&replay).expect("verifies").final_hash
        );
    }

    #[test]
    fn open_reads_either_version_into_one_model_and_verifies_as_before() {
        let replay = versus(EndReason::TopOut);
        let opened = open(&replay.encode().expect("encodes")).expect("opens");
        assert_eq!((opened.version, opened.seats()), (1, 2));
        let report = opened.verify().expect("verifies");
        let before = verify(&replay).expect("verifies");
        assert_eq!(report.final_hash, before.final_hash);
        assert_eq!(report.hashes_checked, before.hashes_checked);
        assert_eq!(report.rounds, before.rounds.len());
        let standings = opened.standings();
        let winner = replay.result.winner.expect("decided").index();
        assert!(standings[winner].won && !standings[1 - winner].won);
        assert_eq!(standings[winner].placement, Some(1));

        let battle = BattleReplay::from_versus(&replay);
        let opened = open(&battle.encode().expect("encodes")).expect("opens");
        assert_eq!(opened.version, 2);
        assert_eq!(
            opened.verify().expect("verifies").final_hash,
            before.final_hash
        );
    }

    #[test]
    fn a_tampered_version_1_file_fails_as_it_did() {
        let mut replay = versus(EndReason::TopOut);
        replay.hashes[0].hash ^= 1;
        let opened = open(&replay.encode().expect("encodes")).expect("opens");
        assert!(matches!(
            opened.verify(),
            Err(ReplayError::HashMismatch { frame: 60, .. })
        ));
    }

    #[test]
    fn a_forfeit_places_the_one_who_stayed_first() {
        let mut replay = versus(EndReason::TopOut);
        replay.result.reason = EndReason::Forfeit;
        replay.result.winner = Some(Seat::First);
        let model = BattleReplay::from_versus(&replay);
        assert_eq!(model.result.placements, [1, 2]);
        assert_eq!(model.to_versus(), Some(replay));
    }

    #[test]
    fn an_unknown_version_or_magic_is_refused() {
        let mut bytes = versus(EndReason::TopOut).encode().expect("encodes");
        bytes[4] = 3;
        assert!(matches!(
            open(&bytes),
            Err(ReplayError::UnsupportedVersion { found: 3, .. })
        ));
        bytes[0] = b'X';
        assert!(matches!(open(&bytes), Err(ReplayError::BadMagic { .. })));
    }

    #[test]
    fn a_two_seat_match_written_as_version_2_reads_lists_and_sums_as_version_1() {
        let replay = versus(EndReason::TopOut);
        let written = crate::AnyReplay::Battle(Box::new(BattleReplay::from_versus(&replay)));
        let bytes = written.encode().expect("encodes");
        assert_eq!(bytes[4..6], BATTLE_REPLAY_VERSION.to_le_bytes());
        assert_eq!(open_two_seats(&bytes).expect("reads as two seats"), replay);
        let v1 = crate::AnyReplay::Versus(Box::new(replay.clone()));
        assert_eq!(written.listing("id", true), v1.listing("id", true));
        assert_eq!(written.summary(), v1.summary());
    }

    #[test]
    fn a_match_of_several_seats_is_not_a_two_seat_replay() {
        let mut model = BattleReplay::from_versus(&versus(EndReason::TopOut));
        model.inputs[0].targets.push(crate::TargetChange {
            frame: 0,
            target: Some(1),
        });
        let bytes = crate::AnyReplay::Battle(Box::new(model))
            .encode()
            .expect("encodes");
        assert!(matches!(
            open_two_seats(&bytes),
            Err(ReplayError::NotTwoSeats { seats: 2 })
        ));
    }
}
