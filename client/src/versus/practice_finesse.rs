//! Finesse faults of the person's seat in practice, counted live as they play (the same count
//! as a replay's statistics: [`sevenbag_stats::FinesseTracker`]), kept with each undo point so
//! an undo takes a piece's faults back with it.

use sevenbag_core::{Board, Input, Match, Seat};
use sevenbag_stats::{FinesseTracker, PieceFinesse};

use crate::match_source::FinesseCount;

/// The counter of one seat.
#[derive(Clone, Debug)]
pub struct PracticeFinesse {
    seat: Seat,
    tracker: FinesseTracker,
    count: FinesseCount,
    /// The seat's board and the keys it held, just before the step being counted.
    before: (Board, Input),
}

impl PracticeFinesse {
    /// Counts `seat`'s faults from `m` on.
    pub fn new(seat: Seat, m: &Match) -> PracticeFinesse {
        let mut tracker = FinesseTracker::default();
        tracker.resume(m.player(seat));
        PracticeFinesse {
            seat,
            tracker,
            count: FinesseCount::default(),
            before: (*m.player(seat).board(), Input::NONE),
        }
    }

    /// Reads `m` just before it is stepped.
    pub fn before(&mut self, m: &Match) {
        let p = m.player(self.seat);
        self.before = (*p.board(), p.last_input());
    }

    /// Reads `m` just after the step in which the seat was given `keys`.
    pub fn after(&mut self, m: &Match, keys: Input) {
        let p = m.player(self.seat);
        let allow_180 = m.header().rules.allow_180;
        let (board, previous) = &self.before;
        if let Some(v @ PieceFinesse::Measured { .. }) =
            self.tracker
                .frame(board, *previous, keys, p.events(), allow_180)
        {
            self.count.faults += v.faults();
            self.count.faulty_pieces += u32::from(v.faults() > 0);
        }
    }

    /// After `m` was restored to a point where the count was `count` (undo, redo, a new match).
    pub fn restore(&mut self, m: &Match, count: FinesseCount) {
        self.tracker.resume(m.player(self.seat));
        self.count = count;
    }

    /// The faults so far.
    pub fn count(&self) -> FinesseCount {
        self.count
    }
}
