//! A match's statistics in the game: every seat's numbers re-counted from the match's replay by
//! `sevenbag_stats` (the numbers `sevenbag-tool replay stats` prints, docs/STATS.md), the
//! rates second by second for the charts, each round's winner, and the marks a replay's
//! timeline shows (spikes and top-outs) to jump to. Their screen is [`crate::stats_screen`].
//!
//! The replay holds every input of every seat, so the numbers are exact for any match of 2 to
//! 8 seats; a 20-minute match re-counts in milliseconds, so nothing is kept beside the file.

pub mod chart;
pub mod timeline;

use macroquad::input::KeyCode;
use sevenbag_core::{BattleHeader, SeatInput};
use sevenbag_protocol::{BattleReplay, SeatLog};
use sevenbag_stats::{BattleStats, SeatReport, TimePoint, timeline};

use crate::input::Keyboard;

/// One seat's line: its name, totals and rates, and its rates second by second.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatLine {
    /// The report: name, rates and every count.
    pub report: SeatReport,
    /// The rates as they stood at the end of every second of the seat's play.
    pub points: Vec<TimePoint>,
}

/// What a mark on a replay's timeline stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkKind {
    /// A spike of this many lines of attack.
    Spike(u32),
    /// The seat topped out.
    Out,
}

/// A moment worth jumping to: a spike or a top-out of one seat, at a match frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mark {
    /// The match frame (countdowns included), as playback counts them.
    pub frame: u32,
    /// The seat.
    pub seat: usize,
    /// What happened.
    pub kind: MarkKind,
}

/// One round's end: who won it and when.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundEnd {
    /// The winner's name, or `None` for a drawn round.
    pub winner: Option<String>,
    /// The match frame it ended on.
    pub frame: u32,
}

/// Every seat's statistics of one recorded match.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchStats {
    /// One line per seat, in seat order.
    pub seats: Vec<SeatLine>,
    /// Frames re-simulated (the match's length in frames).
    pub frames: u32,
    /// Spikes and top-outs of every seat, by frame.
    pub marks: Vec<Mark>,
    /// Each round's end, in order (one for a match of one round).
    pub rounds: Vec<RoundEnd>,
}

impl MatchStats {
    /// Re-counts `replay`: every confirmed frame until it is decided, as its playback steps
    /// it. A replay whose inputs or header the core refuses is a sentence.
    pub fn of(replay: &BattleReplay) -> Result<MatchStats, String> {
        let logs = replay
            .seat_logs()
            .map_err(|(seat, e)| format!("corrupted replay: seat {}: {e}", seat + 1))?;
        let end = logs.iter().map(SeatLog::confirmed).min().unwrap_or(0);
        let names: Vec<&str> = replay.names.iter().map(String::as_str).collect();
        Self::count(replay.header, end, &names, |seat, f| {
            logs.get(seat).and_then(|l| l.get(f)).unwrap_or_default()
        })
        .map(|mut stats| {
            stats.rounds = round_ends(replay);
            stats
        })
    }

    /// Re-counts the match of `header` whose seat `s` played `input(s, frame)` below `end`.
    fn count(
        header: BattleHeader,
        end: u32,
        names: &[&str],
        input: impl FnMut(usize, u32) -> SeatInput,
    ) -> Result<MatchStats, String> {
        let (counts, frames) = BattleStats::replay(header, end, input)
            .map_err(|e| format!("corrupted replay: {e}"))?;
        let mut marks = Vec::new();
        let seats = counts
            .into_iter()
            .enumerate()
            .map(|(seat, c)| {
                marks.extend(c.spikes.iter().map(|s| Mark {
                    frame: s.frame,
                    seat,
                    kind: MarkKind::Spike(s.lines),
                }));
                marks.extend(c.deaths.iter().map(|d| Mark {
                    frame: d.frame,
                    seat,
                    kind: MarkKind::Out,
                }));
                let points = timeline(&c);
                let name = names.get(seat).copied().unwrap_or("?");
                SeatLine {
                    report: SeatReport::new(name, c),
                    points,
                }
            })
            .collect();
        marks.sort_by_key(|m| (m.frame, m.seat));
        Ok(MatchStats {
            seats,
            frames,
            marks,
            rounds: Vec::new(),
        })
    }

    /// The first mark after `frame` (a little lead before it, so the moment is seen coming),
    /// or `None` past the last.
    pub fn next_mark(&self, frame: u32) -> Option<u32> {
        self.marks
            .iter()
            .map(|m| lead_in(m.frame))
            .find(|&f| f > frame)
    }

    /// The last mark before `frame` (with the same lead), or `None` before the first.
    pub fn previous_mark(&self, frame: u32) -> Option<u32> {
        // A mark just jumped to is "now": going back skips it.
        let now = frame.saturating_sub(LEAD_FRAMES / 2);
        self.marks
            .iter()
            .rev()
            .map(|m| lead_in(m.frame))
            .find(|&f| f < now)
    }
}

impl MatchStats {
    /// The frame N (the next mark) or P (the one before) asks playback to show from `frame`.
    pub fn mark_keys(&self, kb: &Keyboard, frame: u32) -> Option<u32> {
        if kb.pressed(KeyCode::N) {
            return self.next_mark(frame);
        }
        if kb.pressed(KeyCode::P) {
            return self.previous_mark(frame);
        }
        None
    }
}

/// Frames shown before a mark jumped to: two seconds.
pub const LEAD_FRAMES: u32 = 120;

fn lead_in(frame: u32) -> u32 {
    frame.saturating_sub(LEAD_FRAMES)
}

/// Each round's winner (the winning team's names: one seat's, or every member's with teams)
/// and end.
fn round_ends(replay: &BattleReplay) -> Vec<RoundEnd> {
    let teams = replay.header.options.teams;
    let team_of = |seat: usize| {
        teams
            .and_then(|t| t.get(seat).copied())
            .map_or(seat, usize::from)
    };
    replay
        .rounds
        .iter()
        .map(|r| RoundEnd {
            winner: r.winner.map(|team| {
                let members: Vec<&str> = (0..replay.names.len())
                    .filter(|&s| team_of(s) == usize::from(team))
                    .filter_map(|s| replay.names.get(s).map(String::as_str))
                    .collect();
                members.join(" & ")
            }),
            frame: r.frame,
        })
        .collect()
}

#[cfg(test)]
mod tests;
