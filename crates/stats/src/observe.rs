//! The adapters that step a core game and record every board around each step: [`BattleStats`]
//! for a match of 2 to 8 seats (a versus [`Match`] included) and [`SoloStats`] for a solo run.
//!
//! Each adapter owns the stepping (`step` reads every board, steps the game, reads again), so
//! a caller cannot forget a frame; a game changed by an analysis hook between steps is read as
//! it stands.

use sevenbag_core::{
    Battle, BattleError, BattleHeader, Input, MAX_SEATS, Match, Seat, SeatInput, Solo,
};

use crate::counts::SeatStats;
use crate::recorder::{MatchFacts, SeatRecorder};

/// Statistics of every seat of a match, recorded frame by frame.
///
/// ```
/// use sevenbag_core::{Battle, BattleHeader, Input, MAX_SEATS, SeatInput};
/// use sevenbag_stats::BattleStats;
///
/// let mut battle: Battle = Battle::new(BattleHeader::new(7, 3))?;
/// let mut stats = BattleStats::new(&battle);
/// let drop = [SeatInput::from(Input::HARD_DROP); MAX_SEATS];
/// let none = [SeatInput::NONE; MAX_SEATS];
/// for f in 0..600 {
///     stats.step(&mut battle, if f % 2 == 0 { &drop } else { &none });
/// }
/// let seats = stats.into_seats();
/// assert_eq!(seats.len(), 3);
/// assert!(seats[0].pieces > 0);
/// # Ok::<(), sevenbag_core::BattleError>(())
/// ```
#[derive(Clone, Debug)]
pub struct BattleStats {
    seats: Vec<SeatRecorder>,
    /// Each seat's discarded-lines counter of the round just before the step.
    discarded: Vec<u32>,
}

impl BattleStats {
    /// A recorder for every seat of `battle`, which should be at frame 0: frames stepped
    /// before are not counted.
    pub fn new<const CAP: usize>(battle: &Battle<CAP>) -> BattleStats {
        let allow_180 = battle.header().rules.allow_180;
        BattleStats {
            seats: (0..battle.seats())
                .map(|_| SeatRecorder::new(allow_180))
                .collect(),
            discarded: vec![0; battle.seats()],
        }
    }

    /// Re-simulates a recorded match from `header`, seat `s` given `input(s, frame)`, every
    /// frame below `end` (the frames every seat's record confirms) until a winner is decided,
    /// as a replay's own playback does. Every seat's statistics and the frames simulated; a
    /// header the core refuses is its error.
    pub fn replay(
        header: BattleHeader,
        end: u32,
        mut input: impl FnMut(usize, u32) -> SeatInput,
    ) -> Result<(Vec<SeatStats>, u32), BattleError> {
        let mut game: Box<Battle> = Box::new(Battle::new(header)?);
        let mut stats = BattleStats::new(&game);
        while game.winner().is_none() && game.frame().0 < end {
            let f = game.frame().0;
            let mut inputs = [SeatInput::NONE; MAX_SEATS];
            for (seat, slot) in inputs.iter_mut().enumerate().take(game.seats()) {
                *slot = input(seat, f);
            }
            stats.step(&mut game, &inputs);
        }
        Ok((stats.into_seats(), game.frame().0))
    }

    /// A recorder for both seats of a versus match.
    pub fn for_match(m: &Match) -> BattleStats {
        BattleStats::new(m.battle())
    }

    /// Steps `battle` one frame with `inputs` and records every seat.
    pub fn step<const CAP: usize>(&mut self, battle: &mut Battle<CAP>, inputs: &[SeatInput; CAP]) {
        self.before(battle);
        battle.step(inputs);
        self.after(battle, |i| inputs[i].keys);
    }

    /// Steps a versus match one frame with both seats' keys and records both.
    pub fn step_match(&mut self, m: &mut Match, inputs: [Input; 2]) {
        self.before(m.battle());
        m.step(inputs);
        self.after(m.battle(), |i| inputs[i]);
    }

    fn before<const CAP: usize>(&mut self, battle: &Battle<CAP>) {
        for (seat, (rec, discarded)) in
            Seat::all(self.seats.len()).zip(self.seats.iter_mut().zip(&mut self.discarded))
        {
            rec.before(battle.player(seat));
            *discarded = battle.discarded(seat);
        }
    }

    fn after<const CAP: usize>(&mut self, battle: &Battle<CAP>, keys: impl Fn(usize) -> Input) {
        let events = battle.events();
        let n = self.seats.len();
        for (seat, (rec, &before)) in Seat::all(n).zip(self.seats.iter_mut().zip(&self.discarded)) {
            let i = seat.index();
            let received = (0..n).map(|from| u32::from(events.sent[from][i])).sum();
            let out = events.knocked_out.contains(seat);
            let facts = MatchFacts {
                round: battle.round(),
                frame: battle.frame().0.saturating_sub(1),
                received,
                discarded: battle.discarded(seat).saturating_sub(before),
                knocked_out_by: battle
                    .knocked_out_by(seat)
                    .filter(|_| out)
                    .map(|s| s.index() as u8),
            };
            rec.after(battle.player(seat), keys(i), facts);
        }
    }

    /// The counts so far, one per seat in seat order.
    pub fn seats(&self) -> Vec<&SeatStats> {
        self.seats.iter().map(SeatRecorder::stats).collect()
    }

    /// The counts, one per seat in seat order, the recorder used up.
    pub fn into_seats(self) -> Vec<SeatStats> {
        self.seats
            .into_iter()
            .map(SeatRecorder::into_stats)
            .collect()
    }
}

/// Statistics of a solo run, recorded frame by frame.
#[derive(Clone, Debug)]
pub struct SoloStats {
    seat: SeatRecorder,
}

impl SoloStats {
    /// A recorder for `solo`, which should be at frame 0.
    pub fn new(solo: &Solo) -> SoloStats {
        SoloStats {
            seat: SeatRecorder::new(solo.header().rules.allow_180),
        }
    }

    /// Steps `solo` one frame with `input` and records it.
    pub fn step(&mut self, solo: &mut Solo, input: Input) {
        self.seat.before(solo.player());
        let frame = solo.frame();
        solo.step(input);
        let facts = MatchFacts {
            frame,
            ..MatchFacts::default()
        };
        self.seat.after(solo.player(), input, facts);
    }

    /// The counts so far.
    pub fn stats(&self) -> &SeatStats {
        self.seat.stats()
    }

    /// The counts, the recorder used up.
    pub fn into_stats(self) -> SeatStats {
        self.seat.into_stats()
    }
}
