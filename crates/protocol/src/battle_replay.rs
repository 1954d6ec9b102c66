//! Matches of several seats: [`BattleSim`] (the core `Battle` stepped exactly as far as every
//! seat is confirmed; the server's authority and playback's engine) and the replay file of
//! format version 2 ([`BattleReplay`]), which carries 2 to 8 seats.
//!
//! A version-2 file has the envelope of version 1 (`SBRP`, version u16, bincode body, FNV-1a
//! 64 checksum; `docs/REPLAY.md`); only the body differs. [`Replay::decode`] still reads
//! version 1 exactly as before; [`read_any`] reads either.

use serde::{Deserialize, Serialize};
use sevenbag_core::{Battle, BattleHeader, MAX_SEATS, Seat, SeatInput};

use crate::battle::{SeatLog, TargetChange, at_most_seats};
use crate::envelope::Envelope;
use crate::inputs::InputLogError;
use crate::messages::{EndReason, InputChange};
use crate::replay::reader::{self, HashTrail, Recording, check_hashes, result_agrees};
use crate::replay::{FrameHash, Replay, ReplayError};

/// The format version of replays of several seats.
pub const BATTLE_REPLAY_VERSION: u16 = 2;

/// One seat's recorded keys and targets.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BattleSeatInputs {
    /// Key changes in increasing frame order, all below `confirmed`.
    pub changes: Vec<InputChange>,
    /// Target changes in increasing frame order, all below `confirmed`.
    pub targets: Vec<TargetChange>,
    /// Frames `0..confirmed` are final.
    pub confirmed: u32,
}

/// A round's result in a match of several seats.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BattleRound {
    /// Round number, from 0.
    pub round: u32,
    /// The winning team; `None` for a drawn two-seat round.
    pub winner: Option<u8>,
    /// Round wins of each team after this round.
    #[serde(deserialize_with = "at_most_seats")]
    pub wins: Vec<u8>,
    /// Each seat's place this round.
    #[serde(deserialize_with = "at_most_seats")]
    pub placements: Vec<u8>,
    /// The frame on which the round ended.
    pub frame: u32,
}

/// How a match of several seats ended.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BattleResult {
    /// The winning team; `None` for a match without a winner (shutdown, abandoned).
    pub winner: Option<u8>,
    /// Why it ended.
    pub reason: EndReason,
    /// Frames simulated when it ended.
    pub frames: u32,
    /// Each seat's place in the last round (0 where undecided).
    #[serde(deserialize_with = "at_most_seats")]
    pub placements: Vec<u8>,
}

/// Something [`BattleSim`] saw while advancing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BattleSimEvent {
    /// A round ended (the last included).
    RoundOver(BattleRound),
    /// The match ended on the boards.
    MatchOver {
        /// The winning team.
        winner: u8,
        /// The frame on which it ended.
        frame: u32,
    },
}

/// A match of 2 to 8 seats stepped exactly as far as every seat is confirmed; it records hashes
/// and rounds, and stops once the match is decided.
#[derive(Clone, Debug)]
pub struct BattleSim {
    game: Box<Battle>,
    logs: Vec<SeatLog>,
    hashes: HashTrail,
    /// Each seat's `Battle::seat_hash` beside every recorded hash, seat count per record.
    seat_hashes: Vec<u64>,
    rounds: Vec<BattleRound>,
}

impl BattleSim {
    /// A simulation at frame 0; refuses a header the core refuses.
    pub fn new(header: BattleHeader) -> Result<BattleSim, ReplayError> {
        header
            .validate()
            .map_err(|e| ReplayError::Malformed(e.to_string()))?;
        let game = Battle::new(header).map_err(|e| ReplayError::Malformed(e.to_string()))?;
        Ok(BattleSim {
            logs: vec![SeatLog::new(); game.seats()],
            game: Box::new(game),
            hashes: HashTrail::default(),
            seat_hashes: Vec::new(),
            rounds: Vec::new(),
        })
    }

    /// Appends a batch of `seat`'s keys and targets; a refused batch changes nothing.
    pub fn extend(
        &mut self,
        seat: usize,
        changes: &[InputChange],
        targets: &[TargetChange],
        confirmed: u32,
    ) -> Result<(), InputLogError> {
        match self.logs.get_mut(seat) {
            Some(log) => log.extend(changes, targets, confirmed),
            // Callers check the seat first; an unknown one is a batch that fits nowhere.
            None => Err(InputLogError::Backwards {
                from: 0,
                to: confirmed,
            }),
        }
    }

    /// Frames every seat has confirmed.
    pub fn confirmed(&self) -> u32 {
        self.logs.iter().map(SeatLog::confirmed).min().unwrap_or(0)
    }

    /// Steps over every frame all seats have confirmed (until decided); returns what happened.
    pub fn advance(&mut self) -> Vec<BattleSimEvent> {
        let limit = self.confirmed();
        let mut events = Vec::new();
        while self.game.winner().is_none() && self.game.frame().0 < limit {
            let f = self.game.frame().0;
            let mut inputs = [SeatInput::NONE; MAX_SEATS];
            for (slot, log) in inputs.iter_mut().zip(&self.logs) {
                *slot = log.get(f).unwrap_or_default();
            }
            self.game.step(&inputs);
            let ev = *self.game.events();
            if let Some(winner) = ev.round_over {
                let record = BattleRound {
                    round: self.game.round(),
                    winner: winner.map(|t| t.index() as u8),
                    wins: self.game.wins().to_vec(),
                    placements: self.placements(),
                    frame: f,
                };
                self.rounds.push(record.clone());
                events.push(BattleSimEvent::RoundOver(record));
            }
            if let Some(winner) = ev.match_over {
                events.push(BattleSimEvent::MatchOver {
                    winner: winner.index() as u8,
                    frame: f,
                });
            }
            let game = &self.game;
            if self.hashes.record(game.frame().0, || game.state_hash()) {
                let seats = Seat::all(self.game.seats()).map(|s| self.game.seat_hash(s));
                self.seat_hashes.extend(seats);
            }
        }
        events
    }

    /// Each seat's place this round so far (0 while still in).
    pub fn placements(&self) -> Vec<u8> {
        Seat::all(self.game.seats())
            .map(|s| self.game.placement(s).unwrap_or(0))
            .collect()
    }

    /// The match as simulated so far.
    pub fn game(&self) -> &Battle {
        &self.game
    }

    /// Frames simulated so far.
    pub fn frame(&self) -> u32 {
        self.game.frame().0
    }

    /// The winning team, once decided.
    pub fn winner(&self) -> Option<u8> {
        self.game.winner().map(|t| t.index() as u8)
    }

    /// The log of battle seat `seat`.
    pub fn log(&self, seat: usize) -> Option<&SeatLog> {
        self.logs.get(seat)
    }

    /// Hashes recorded so far.
    pub fn hashes(&self) -> &[FrameHash] {
        self.hashes.all()
    }

    /// The recorded hash after frames `0..frame`, if reached and on the interval.
    pub fn hash_at(&self, frame: u32) -> Option<u64> {
        self.hashes.at(frame)
    }

    /// Every seat's board hash recorded beside [`BattleSim::hash_at`]`(frame)`.
    pub fn seat_hashes_at(&self, frame: u32) -> Option<&[u64]> {
        let n = self.game.seats();
        let i = self.hashes.index_of(frame)? * n;
        self.seat_hashes.get(i..i + n)
    }

    /// The battle seats whose board hash at `frame` differs from `theirs` (a client's
    /// `BattleStateHash`), in seat order; `None` if `frame` was not recorded. A list of another
    /// length names every seat it does not match.
    pub fn diverged_seats(&self, frame: u32, theirs: &[u64]) -> Option<Vec<u8>> {
        let ours = self.seat_hashes_at(frame)?;
        Some(
            (0..ours.len())
                .filter(|&s| theirs.get(s) != Some(&ours[s]))
                .map(|s| s as u8)
                .collect(),
        )
    }

    /// Round results so far.
    pub fn rounds(&self) -> &[BattleRound] {
        &self.rounds
    }

    /// Every seat's recorded inputs, as a replay stores them.
    pub fn seat_inputs(&self) -> Vec<BattleSeatInputs> {
        self.logs
            .iter()
            .map(|l| BattleSeatInputs {
                changes: l.key_changes().to_vec(),
                targets: l.target_changes(),
                confirmed: l.confirmed(),
            })
            .collect()
    }
}

/// A whole recorded match of 2 to 8 seats (replay format version 2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BattleReplay {
    /// Rules, seed, handlings, targeting, badges and teams.
    pub header: BattleHeader,
    /// Each seat's name.
    #[serde(deserialize_with = "at_most_seats")]
    pub names: Vec<String>,
    /// Each seat's keys and targets.
    #[serde(deserialize_with = "at_most_seats")]
    pub inputs: Vec<BattleSeatInputs>,
    /// State hashes ([`Battle::state_hash`]) every [`HASH_INTERVAL`](crate::HASH_INTERVAL) frames.
    pub hashes: Vec<FrameHash>,
    /// Every round's result.
    pub rounds: Vec<BattleRound>,
    /// The match result.
    pub result: BattleResult,
    /// When it was written, in Unix seconds.
    pub created_unix: u64,
}

/// A replay file of either version.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnyReplay {
    /// Format version 1: a two-seat match.
    Versus(Box<Replay>),
    /// Format version 2: a match of 2 to 8 seats.
    Battle(Box<BattleReplay>),
}

impl AnyReplay {
    /// The file's bytes.
    pub fn encode(&self) -> Result<Vec<u8>, ReplayError> {
        match self {
            AnyReplay::Versus(r) => r.encode(),
            AnyReplay::Battle(r) => r.encode(),
        }
    }

    /// The row of the server's detailed list (`ranked`: the server's to say); a match of two
    /// seats in either version lists with its names and score.
    pub fn listing(&self, id: &str, ranked: bool) -> crate::ReplayListing {
        match self {
            AnyReplay::Versus(r) => r.listing(id, ranked),
            AnyReplay::Battle(r) => match r.to_versus() {
                Some(two) => two.listing(id, ranked),
                None => r.listing(id),
            },
        }
    }

    /// A one-line description; a match of two seats in either version reads the same.
    pub fn summary(&self) -> String {
        match self {
            AnyReplay::Versus(r) => r.summary(),
            AnyReplay::Battle(r) => r
                .to_versus()
                .map_or_else(|| r.summary(), |two| two.summary()),
        }
    }

    /// When it was written, in Unix seconds.
    pub fn created_unix(&self) -> u64 {
        match self {
            AnyReplay::Versus(r) => r.created_unix,
            AnyReplay::Battle(r) => r.created_unix,
        }
    }
}

/// Reads a replay file of version 1 or 2.
pub fn read_any(bytes: &[u8]) -> Result<AnyReplay, ReplayError> {
    match bytes.get(4..6) {
        Some(v) if v == BATTLE_REPLAY_VERSION.to_le_bytes() => {
            BattleReplay::decode(bytes).map(|r| AnyReplay::Battle(Box::new(r)))
        }
        _ => Replay::decode(bytes).map(|r| AnyReplay::Versus(Box::new(r))),
    }
}

impl BattleReplay {
    /// Every seat's inputs as one log, in seat order (what playback, statistics and
    /// verification read); the first seat whose lists do not form a log is the error, with
    /// its index.
    pub fn seat_logs(&self) -> Result<Vec<SeatLog>, (usize, InputLogError)> {
        self.inputs
            .iter()
            .enumerate()
            .map(|(seat, i)| {
                SeatLog::from_lists(&i.changes, &i.targets, i.confirmed).map_err(|e| (seat, e))
            })
            .collect()
    }

    /// The replay of what `sim` simulated so far, with the given result.
    pub fn record(
        sim: &BattleSim,
        names: Vec<String>,
        winner: Option<u8>,
        reason: EndReason,
        placements: Vec<u8>,
        created_unix: u64,
    ) -> BattleReplay {
        BattleReplay {
            header: *sim.game().header(),
            names,
            inputs: sim.seat_inputs(),
            hashes: sim.hashes().to_vec(),
            rounds: sim.rounds().to_vec(),
            result: BattleResult {
                winner,
                reason,
                frames: sim.frame(),
                placements,
            },
            created_unix,
        }
    }

    /// Encodes the replay as a version-2 file.
    pub fn encode(&self) -> Result<Vec<u8>, ReplayError> {
        reader::encode(self)
    }

    /// Decodes a version-2 file, checking the envelope, then every count.
    pub fn decode(bytes: &[u8]) -> Result<BattleReplay, ReplayError> {
        reader::decode(bytes)
    }

    /// Checks every count against the seat count and the documented maxima, before anything
    /// is simulated.
    pub fn check_counts(&self) -> Result<(), ReplayError> {
        reader::check_counts(self)
    }

    /// This replay as the server's detailed list shows it (a list row of two names: the
    /// winner, or the first seat, and how many others played).
    pub fn listing(&self, id: &str) -> crate::ReplayListing {
        let first = self.result.winner.map_or(0, |t| {
            (0..self.names.len())
                .find(|&s| {
                    self.header
                        .options
                        .teams
                        .map_or(s == usize::from(t), |l| l[s] == t)
                })
                .unwrap_or(0)
        });
        let lead = self.names.get(first).cloned().unwrap_or_default();
        let others = crate::listings::others(self.names.len().saturating_sub(1));
        crate::ReplayListing {
            id: id.to_owned(),
            names: [lead, others],
            winner: self.result.winner.map(|_| Seat::First),
            reason: self.result.reason,
            score: [0, 0],
            frames: self.result.frames,
            created_unix: self.created_unix,
            ranked: false,
        }
    }

    /// A one-line description for listings.
    pub fn summary(&self) -> String {
        let who = |team: u8| -> String {
            let seats = (0..self.names.len()).filter(|&s| {
                self.header
                    .options
                    .teams
                    .map_or(s == usize::from(team), |t| t[s] == team)
            });
            seats
                .map(|s| self.names[s].clone())
                .collect::<Vec<_>>()
                .join(" & ")
        };
        let outcome = match self.result.winner {
            Some(team) => format!("{} won", who(team)),
            None => "no result".to_string(),
        };
        format!("{} players: {outcome}", self.names.len())
    }
}

impl Recording for BattleReplay {
    const VERSION: u16 = BATTLE_REPLAY_VERSION;
    const ENVELOPE: Envelope = reader::envelope(&BATTLE_REPLAY_VERSION.to_le_bytes());

    fn names(&self) -> &[String] {
        &self.names
    }

    fn check_seat_lists(&self) -> Result<(), ReplayError> {
        let n = usize::from(self.header.seats);
        if !(2..=MAX_SEATS).contains(&n) {
            return Err(ReplayError::Malformed(format!(
                "{n} seats: a match has 2 to {} seats",
                MAX_SEATS
            )));
        }
        if self.names.len() != n || self.inputs.len() != n {
            return Err(ReplayError::Malformed(format!(
                "{} names and {} input lists for {n} seats",
                self.names.len(),
                self.inputs.len()
            )));
        }
        Ok(())
    }

    fn check_inputs(&self) -> Result<(), (usize, InputLogError)> {
        self.seat_logs().map(drop)
    }

    fn hashes(&self) -> &[FrameHash] {
        &self.hashes
    }

    fn round_count(&self) -> usize {
        self.rounds.len()
    }

    fn result_frames(&self) -> u32 {
        self.result.frames
    }
}

/// What [`verify_battle`] checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BattleVerifyReport {
    /// Frames re-simulated.
    pub frames: u32,
    /// Recorded hashes compared (all matched).
    pub hashes_checked: usize,
    /// The re-simulation's state hash at its last frame.
    pub final_hash: u64,
}

/// Re-simulates a replay of several seats and checks every hash, every round and the result.
pub fn verify_battle(replay: &BattleReplay) -> Result<BattleVerifyReport, ReplayError> {
    replay.check_counts()?;
    let mut sim = BattleSim::new(replay.header)?;
    for (seat, rec) in replay.inputs.iter().enumerate() {
        sim.extend(seat, &rec.changes, &rec.targets, rec.confirmed)
            .map_err(|error| ReplayError::BadInputs { seat, error })?;
    }
    sim.advance();
    let frames = sim.frame();
    let hashes_checked = check_hashes(&replay.hashes, &sim.hashes, frames)?;
    if sim.rounds() != replay.rounds.as_slice() {
        return Err(ReplayError::Malformed(format!(
            "round results differ: recorded {:?}, simulated {:?}",
            replay.rounds,
            sim.rounds()
        )));
    }
    let result = &replay.result;
    let simulated = sim.winner();
    let consistent = result_agrees(result.reason, result.winner, simulated);
    if !consistent || frames != result.frames {
        return Err(ReplayError::Malformed(format!(
            "match result differs: recorded {result:?}, simulated winner {simulated:?} after \
             {frames} frames"
        )));
    }
    Ok(BattleVerifyReport {
        frames,
        hashes_checked,
        final_hash: sim.game().state_hash(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use sevenbag_core::{Input, Targeting};

    /// `seats` seats hard-dropping at different paces, seat `s` every `6 + 2s` frames.
    fn played(seats: u8, targeting: Targeting) -> BattleReplay {
        let mut header = BattleHeader::new(42, seats);
        header.rules.first_to = 1;
        header.rules.countdown_frames = 10;
        header.options.targeting = targeting;
        let mut sim = BattleSim::new(header).unwrap();
        for s in 0..usize::from(seats) {
            let period = 6 + 2 * s as u32;
            let masks: Vec<Input> = (0..6000)
                .map(|f| {
                    if f % period == 0 {
                        Input::HARD_DROP
                    } else {
                        Input::NONE
                    }
                })
                .collect();
            let changes = crate::InputLog::diff(&masks, 0, Input::NONE);
            let targets = [TargetChange {
                frame: 0,
                target: Some(((s + 1) % usize::from(seats)) as u8),
            }];
            sim.extend(s, &changes, &targets, 6000).unwrap();
        }
        sim.advance();
        let names = (0..seats).map(|s| format!("p{s}")).collect();
        let placements = sim.placements();
        let winner = sim.winner();
        BattleReplay::record(&sim, names, winner, EndReason::TopOut, placements, 1)
    }

    #[test]
    fn a_replay_of_several_seats_round_trips_and_verifies() {
        for (seats, targeting) in [(3, Targeting::Manual), (8, Targeting::Even)] {
            let replay = played(seats, targeting);
            assert!(replay.result.winner.is_some(), "{seats} seats decided");
            let bytes = replay.encode().unwrap();
            assert_eq!(&bytes[4..6], &[2, 0]);
            let back = BattleReplay::decode(&bytes).unwrap();
            assert_eq!(back, replay);
            let report = verify_battle(&back).unwrap();
            assert_eq!(report.frames, replay.result.frames);
            assert!(matches!(read_any(&bytes), Ok(AnyReplay::Battle(_))));
            assert!(matches!(
                Replay::decode(&bytes),
                Err(ReplayError::UnsupportedVersion { found: 2, .. })
            ));
        }
    }

    /// The server's list row of a replay of several seats names its winner and reads back
    /// its seat count; a two-seat replay's row does not read as several seats.
    #[test]
    fn a_list_row_of_several_seats_tells_its_seat_count_and_winner() {
        let replay = played(8, Targeting::Even);
        let winner = replay.result.winner.map(usize::from).expect("decided");
        let row = AnyReplay::Battle(Box::new(replay.clone())).listing("1-ffa", false);
        assert_eq!(row.several_seats(), Some(8));
        assert_eq!(row.names[0], replay.names[winner]);
        assert_eq!(row.winner, Some(Seat::First));
        let two = played(2, Targeting::Even);
        let row = AnyReplay::Battle(Box::new(two)).listing("2-ffa", false);
        assert_eq!(
            row.several_seats(),
            Some(2),
            "a version-2 file of two seats"
        );
    }

    #[test]
    fn a_tampered_battle_replay_fails_verification() {
        let mut replay = played(3, Targeting::Even);
        replay.hashes[0].hash ^= 1;
        assert!(matches!(
            verify_battle(&replay),
            Err(ReplayError::HashMismatch { .. })
        ));
        let mut replay = played(3, Targeting::Even);
        replay.names.pop();
        assert!(verify_battle(&replay).is_err());
    }

    #[test]
    fn a_replay_of_fewer_than_two_seats_is_refused_on_decode() {
        for seats in [0, 1] {
            let mut replay = played(3, Targeting::Even);
            replay.header.seats = seats;
            replay.names.truncate(usize::from(seats));
            replay.inputs.truncate(usize::from(seats));
            let bytes = replay.encode().unwrap();
            let err = BattleReplay::decode(&bytes).unwrap_err();
            assert!(err.to_string().contains("2 to 8 seats"), "{seats}: {err}");
        }
    }

    #[test]
    fn a_name_with_a_bidi_control_is_refused_on_decode() {
        let mut replay = played(3, Targeting::Even);
        replay.names[1] = "ev\u{202E}il".into();
        let bytes = replay.encode().unwrap();
        let err = BattleReplay::decode(&bytes).unwrap_err();
        assert!(err.to_string().contains("name of seat 1"), "{err}");
    }

    #[test]
    fn more_than_eight_names_are_refused_on_decode() {
        let mut replay = played(3, Targeting::Even);
        replay.names = vec!["x".into(); 9];
        let bytes = replay.encode().unwrap();
        let err = BattleReplay::decode(&bytes).unwrap_err();
        assert!(err.to_string().contains("at most 8"), "{err}");
    }
}
