//! The integer counters of one seat: what a [`crate::SeatRecorder`] fills in from the core's
//! events, and what every rate in [`crate::report`] is derived from. Nothing here is a float.

use serde::Serialize;
use sevenbag_core::TopOut;

/// Frames of play in one second of the simulation (the core's `FPS`).
pub const FRAMES_PER_SECOND: u32 = 60;

/// Locks by T-spin kind, indexed by the lines they cleared (0 to 3). The core's rules know only
/// T-spins (the 3-corner rule, SPEC §5); other pieces never spin, so there is no "all-spin" count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Spins {
    /// T-spin minis by lines cleared: `mini[0]` a mini that cleared nothing, `mini[1]` a mini
    /// single, `mini[2]` a mini double (`mini[3]` stays 0 under SRS).
    pub mini: [u32; 4],
    /// Full T-spins by lines cleared: zero, single, double, triple.
    pub full: [u32; 4],
}

impl Spins {
    /// T-spins that cleared at least one line, minis included (the core's `Stats::t_spins`).
    pub fn clearing(&self) -> u32 {
        self.mini[1..].iter().chain(&self.full[1..]).sum()
    }
}

/// Why a seat went out, as the JSON names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Cause {
    /// A new piece overlapped the stack where it spawns.
    BlockOut,
    /// A piece locked wholly above the visible field.
    LockOut,
    /// Rising garbage pushed a block above the top row.
    GarbageOut,
}

impl From<TopOut> for Cause {
    fn from(t: TopOut) -> Cause {
        match t {
            TopOut::BlockOut => Cause::BlockOut,
            TopOut::LockOut => Cause::LockOut,
            TopOut::GarbageOut => Cause::GarbageOut,
        }
    }
}

impl Cause {
    /// The words the text report uses: "block out", "lock out", "garbage out".
    pub fn words(self) -> &'static str {
        match self {
            Cause::BlockOut => "block out",
            Cause::LockOut => "lock out",
            Cause::GarbageOut => "garbage out",
        }
    }
}

/// One top-out of a seat (a match of several rounds may have one a round).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Death {
    /// The round, from 0.
    pub round: u32,
    /// The match frame it happened on (countdowns and breaks included).
    pub frame: u32,
    /// The seat's frames of play so far, every round counted (its own clock, as `frames`).
    pub played: u32,
    /// Why.
    pub cause: Cause,
    /// The seat credited with the knock-out (whose garbage rose last), if any.
    pub by: Option<u8>,
}

/// A spike: attacking locks in quick succession (each within [`SPIKE_GAP`] frames of play of
/// the one before, in one round) whose attack adds up to [`SPIKE_LINES`] or more, the burst
/// a replay's timeline marks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Spike {
    /// The round, from 0.
    pub round: u32,
    /// The match frame of the spike's first lock.
    pub frame: u32,
    /// The seat's frames of play at its first lock (its own clock, as `Death::played`).
    pub played: u32,
    /// Attack produced by the spike's locks, before cancelling.
    pub lines: u32,
}

/// Attack of at least this many lines in one run of locks is a spike.
pub const SPIKE_LINES: u32 = 8;
/// Attacking locks at most this many frames of play apart (one second) are one run.
pub const SPIKE_GAP: u32 = 60;

/// Per-second series over the seat's own clock: entry `k` holds what happened during its
/// frames of play `60k + 1 ..= 60k + 60` (every round counted, countdowns not). All series have
/// one entry per started second.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Series {
    /// Attack produced (before cancelling).
    pub attack: Vec<u32>,
    /// Attack sent on after cancelling.
    pub sent: Vec<u32>,
    /// Pieces locked.
    pub pieces: Vec<u32>,
    /// Garbage lines routed to this seat by its opponents.
    pub received: Vec<u32>,
    /// Garbage lines that rose on this board.
    pub tanked: Vec<u32>,
    /// Garbage lines this seat cleared.
    pub garbage_cleared: Vec<u32>,
}

impl Series {
    /// The entry for frame of play `played` (1-based), every series grown to reach it.
    fn second(&mut self, played: u32) -> usize {
        let k = (played.saturating_sub(1) / FRAMES_PER_SECOND) as usize;
        for s in [
            &mut self.attack,
            &mut self.sent,
            &mut self.pieces,
            &mut self.received,
            &mut self.tanked,
            &mut self.garbage_cleared,
        ] {
            if s.len() <= k {
                s.resize(k + 1, 0);
            }
        }
        k
    }

    /// Adds one frame's amounts at frame of play `played`; a frame with nothing to add still
    /// grows the series, so they cover every second played.
    pub(crate) fn add(&mut self, played: u32, frame: &FrameAmounts) {
        if played == 0 {
            return;
        }
        let k = self.second(played);
        self.attack[k] += frame.attack;
        self.sent[k] += frame.sent;
        self.pieces[k] += frame.pieces;
        self.received[k] += frame.received;
        self.tanked[k] += frame.tanked;
        self.garbage_cleared[k] += frame.garbage_cleared;
    }
}

/// What one frame added, for the series.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct FrameAmounts {
    pub(crate) attack: u32,
    pub(crate) sent: u32,
    pub(crate) pieces: u32,
    pub(crate) received: u32,
    pub(crate) tanked: u32,
    pub(crate) garbage_cleared: u32,
}

/// Every counter of one seat over a whole match (all rounds) or a solo run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SeatStats {
    /// Pieces locked.
    pub pieces: u32,
    /// Frames of play: frames this board was stepped in play and not out (the core's
    /// `Stats::frames`, summed over rounds). Seconds are `frames / 60`.
    pub frames: u32,
    /// Holds used (initial holds included).
    pub holds: u32,
    /// Lines cleared, every kind of clear.
    pub lines: u32,
    /// Clears of 1, 2, 3 and 4 lines that were not T-spins (a T-spin double is in `spins` only).
    pub singles: u32,
    /// See `singles`.
    pub doubles: u32,
    /// See `singles`.
    pub triples: u32,
    /// See `singles`.
    pub quads: u32,
    /// T-spins by kind and lines.
    pub spins: Spins,
    /// Locks that left the board empty.
    pub perfect_clears: u32,
    /// The highest combo count (the core's: 0 on the first of consecutive clearing pieces, so
    /// three clears in a row are a combo of 2).
    pub max_combo: u32,
    /// The longest back-to-back chain: the most back-to-back bonuses in a row (a quad then a
    /// quad is 1).
    pub max_b2b: u32,
    /// Clears that earned the back-to-back bonus.
    pub b2b_clears: u32,
    /// Attack produced by locks, with every bonus and the seat's attack multiplier, before
    /// cancelling (the core's `Stats::attack`).
    pub attack: u32,
    /// Attack that cancelled garbage queued on this board.
    pub cancelled: u32,
    /// Attack sent on to opponents after cancelling (`attack = cancelled + sent`).
    pub sent: u32,
    /// Garbage lines opponents routed to this seat.
    pub received: u32,
    /// Garbage lines that rose on this board ("tanked").
    pub tanked: u32,
    /// Garbage lines thrown away from this seat's queue when it went out.
    pub discarded: u32,
    /// Garbage lines this seat cleared (rows that held garbage when cleared).
    pub garbage_cleared: u32,
    /// Presses beyond the fewest that reach each placement, summed over pieces (see
    /// [`crate::finesse`]).
    pub finesse_faults: u32,
    /// Pieces placed with at least one finesse fault.
    pub faulty_pieces: u32,
    /// Pieces whose fewest presses could not be found (placed where no press sequence from
    /// the spawn on the frame's board reaches, which rules-driven play never does); they
    /// count no fault.
    pub unmeasured_pieces: u32,
    /// Every top-out, in order.
    pub deaths: Vec<Death>,
    /// Every spike, in order.
    pub spikes: Vec<Spike>,
    /// Per-second series for graphs.
    pub series: Series,
}
