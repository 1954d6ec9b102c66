//! One board's recorder: [`SeatRecorder::before`] reads the board just before a core step,
//! [`SeatRecorder::after`] reads the step's events and counters and adds them to a
//! [`SeatStats`]. The match and solo adapters ([`crate::BattleStats`], [`crate::SoloStats`])
//! call both around every step; a caller that steps a [`Player`] itself can too.

use sevenbag_core::{Board, Input, Player, Spin};

use crate::counts::{Death, FrameAmounts, SPIKE_GAP, SPIKE_LINES, SeatStats, Spike};
use crate::finesse::{FinesseTracker, PieceFinesse};

/// What the match around a board adds to one frame: facts the board itself does not hold.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MatchFacts {
    /// The round being played, from 0.
    pub round: u32,
    /// The match frame just simulated.
    pub frame: u32,
    /// Garbage lines routed to this board this frame.
    pub received: u32,
    /// Garbage lines thrown away from this board's queue this frame (it went out).
    pub discarded: u32,
    /// The seat credited with knocking this board out, if it went out this frame.
    pub knocked_out_by: Option<u8>,
}

/// The per-round counters of the core's `Stats` read before a step, to take differences.
#[derive(Clone, Copy, Debug, Default)]
struct CoreCounters {
    frames: u32,
    garbage_cleared: u32,
}

impl CoreCounters {
    fn of(player: &Player) -> CoreCounters {
        let s = player.stats();
        CoreCounters {
            frames: s.frames,
            garbage_cleared: s.garbage_cleared,
        }
    }
}

/// A counter of the core that starts again at 0 each round: what it grew by in one step.
fn grew(before: u32, after: u32) -> u32 {
    after.checked_sub(before).unwrap_or(after)
}

/// The run of attacking locks going on, for spikes.
#[derive(Clone, Copy, Debug)]
struct Run {
    /// Where the run started: round, match frame, frames of play.
    start: Spike,
    /// Frames of play at its latest lock.
    last: u32,
    /// Whether it has been pushed to `spikes` (it reached [`SPIKE_LINES`]).
    pushed: bool,
}

impl Run {
    /// Adds an attacking lock of `lines` at `facts`' round and frame, `played` frames of play
    /// in; a spike reached or grown is written to `spikes`.
    fn add(
        run: &mut Option<Run>,
        spikes: &mut Vec<Spike>,
        facts: MatchFacts,
        played: u32,
        lines: u32,
    ) {
        let continues = run.is_some_and(|r| {
            r.start.round == facts.round && played.saturating_sub(r.last) <= SPIKE_GAP
        });
        let r = match run {
            Some(r) if continues => r,
            _ => run.insert(Run {
                start: Spike {
                    round: facts.round,
                    frame: facts.frame,
                    played,
                    lines: 0,
                },
                last: played,
                pushed: false,
            }),
        };
        r.start.lines += lines;
        r.last = played;
        if r.pushed {
            if let Some(last) = spikes.last_mut() {
                last.lines = r.start.lines;
            }
        } else if r.start.lines >= SPIKE_LINES {
            r.pushed = true;
            spikes.push(r.start);
        }
    }
}

/// Records one board of a match or of a solo run.
#[derive(Clone, Debug)]
pub struct SeatRecorder {
    stats: SeatStats,
    allow_180: bool,
    finesse: FinesseTracker,
    /// The board, keys held and core counters just before the step being recorded.
    board: Board,
    previous: Input,
    counters: CoreCounters,
    /// The run of attacking locks going on, for spikes.
    run: Option<Run>,
}

impl SeatRecorder {
    /// A recorder for a board of a room whose rules allow 180° rotation or not.
    pub fn new(allow_180: bool) -> SeatRecorder {
        SeatRecorder {
            stats: SeatStats::default(),
            allow_180,
            finesse: FinesseTracker::default(),
            board: Board::new(),
            previous: Input::NONE,
            counters: CoreCounters::default(),
            run: None,
        }
    }

    /// What has been counted so far.
    pub fn stats(&self) -> &SeatStats {
        &self.stats
    }

    /// The counts, the recorder used up.
    pub fn into_stats(self) -> SeatStats {
        self.stats
    }

    /// Reads `player` just before it is stepped: its board (for finesse), the keys it held on
    /// the frame before, and its per-round counters.
    pub fn before(&mut self, player: &Player) {
        self.board = *player.board();
        self.previous = player.last_input();
        self.counters = CoreCounters::of(player);
    }

    /// Reads `player` just after the step in which it was given `keys`, with what the match
    /// adds in `facts`.
    pub fn after(&mut self, player: &Player, keys: Input, facts: MatchFacts) {
        let events = *player.events();
        let now = CoreCounters::of(player);
        let s = &mut self.stats;
        s.frames += grew(self.counters.frames, now.frames);
        let mut amounts = FrameAmounts {
            received: facts.received,
            garbage_cleared: grew(self.counters.garbage_cleared, now.garbage_cleared),
            tanked: u32::from(events.garbage_risen),
            ..FrameAmounts::default()
        };
        s.received += amounts.received;
        s.discarded += facts.discarded;
        s.garbage_cleared += amounts.garbage_cleared;
        s.tanked += amounts.tanked;
        s.holds += u32::from(events.held);
        let verdict = self
            .finesse
            .frame(&self.board, self.previous, keys, &events, self.allow_180);
        if let Some(lock) = events.locked {
            s.pieces += 1;
            amounts.pieces = 1;
            let lines = lock.clear.lines;
            s.lines += u32::from(lines);
            let row = usize::from(lines.min(3));
            match lock.clear.spin {
                Spin::Mini => s.spins.mini[row] += 1,
                Spin::Full => s.spins.full[row] += 1,
                Spin::None => match lines {
                    1 => s.singles += 1,
                    2 => s.doubles += 1,
                    3 => s.triples += 1,
                    4 => s.quads += 1,
                    _ => {}
                },
            }
            s.perfect_clears += u32::from(lock.clear.perfect);
            if let Some(combo) = lock.attack.combo {
                s.max_combo = s.max_combo.max(u32::from(combo));
            }
            s.max_b2b = s.max_b2b.max(u32::from(lock.b2b.saturating_sub(1)));
            s.b2b_clears += u32::from(lock.attack.b2b_bonus);
            amounts.attack = u32::from(lock.attack.lines);
            amounts.sent = u32::from(lock.sent);
            s.attack += amounts.attack;
            s.sent += amounts.sent;
            s.cancelled += u32::from(lock.cancelled);
            if amounts.attack > 0 {
                Run::add(
                    &mut self.run,
                    &mut s.spikes,
                    facts,
                    s.frames,
                    amounts.attack,
                );
            }
        }
        match verdict {
            Some(v @ PieceFinesse::Measured { .. }) => {
                s.finesse_faults += v.faults();
                s.faulty_pieces += u32::from(v.faults() > 0);
            }
            Some(PieceFinesse::Unmeasured) => s.unmeasured_pieces += 1,
            None => {}
        }
        if let Some(why) = events.topped_out {
            s.deaths.push(Death {
                round: facts.round,
                frame: facts.frame,
                played: s.frames,
                cause: why.into(),
                by: facts.knocked_out_by,
            });
        }
        s.series.add(s.frames, &amounts);
    }
}
