//! A two-seat replay played back: [`ReplaySession`] plays a [`Replay`] through the same
//! [`MatchSource`] trait as a live match: both seats' keys come from the recorded input logs, one
//! `Match::step` per frame. It pauses (Space), changes speed (0.25× to 4×, `+`/`-`) and seeks
//! (← → by 5 s, Home to the start, N and P to the next and previous spike or top-out) by
//! simulating again from frame 0, which takes milliseconds.

use std::rc::Rc;

use sevenbag_core::{Input, Match};
use sevenbag_protocol::replay::Replay;
use sevenbag_protocol::{EndReason, InputLog};

use super::clock::PlaybackClock;
use super::mmss;
use crate::input::Keyboard;
use crate::match_source::{MatchSource, NetStatus};
use crate::match_stats::MatchStats;

/// A recorded two-seat match played back (see the module docs).
pub struct ReplaySession {
    replay: Replay,
    logs: [InputLog; 2],
    game: Match,
    /// Frames that can be played: both seats are confirmed below it.
    end: u32,
    clock: PlaybackClock,
    /// The match's statistics, for N and P (jump to the next or previous mark).
    stats: Option<Rc<MatchStats>>,
}

impl ReplaySession {
    /// Playback of `replay` from frame 0. Fails (with a sentence) when its input logs are not
    /// consistent, which a checksum-valid file should never be.
    pub fn new(replay: Replay) -> Result<ReplaySession, String> {
        let mut logs = [InputLog::new(), InputLog::new()];
        for (log, inputs) in logs.iter_mut().zip(&replay.inputs) {
            log.extend(&inputs.changes, inputs.confirmed)
                .map_err(|e| format!("corrupted replay: {e}"))?;
        }
        let end = logs[0].confirmed().min(logs[1].confirmed());
        Ok(ReplaySession {
            game: Match::new(replay.header),
            replay,
            logs,
            end,
            clock: PlaybackClock::default(),
            stats: None,
        })
    }

    /// Playback whose N and P jump between the marks of `stats` (spikes and top-outs).
    pub fn with_stats(mut self, stats: Rc<MatchStats>) -> ReplaySession {
        self.stats = Some(stats);
        self
    }

    /// The replay being played.
    pub fn replay(&self) -> &Replay {
        &self.replay
    }

    /// The frame shown.
    pub fn frame(&self) -> u32 {
        self.game.frame().0
    }

    #[cfg_attr(not(test), allow(dead_code))] // the tests read it
    /// The last frame that can be shown.
    pub fn end(&self) -> u32 {
        self.end
    }

    /// Pause and speed.
    #[cfg_attr(not(test), allow(dead_code))] // the tests read it
    pub fn clock(&self) -> &PlaybackClock {
        &self.clock
    }

    /// Pause and speed, to change.
    #[cfg(test)]
    pub fn clock_mut(&mut self) -> &mut PlaybackClock {
        &mut self.clock
    }

    fn step_once(&mut self) -> bool {
        let f = self.game.frame().0;
        if f >= self.end || self.game.winner().is_some() {
            return false;
        }
        let inputs = [0, 1].map(|i| self.logs[i].get(f).unwrap_or(Input::NONE));
        self.game.step(inputs);
        true
    }

    /// Shows frame `frame` (clamped to the playable range), simulating again from frame 0 when
    /// going back.
    pub fn seek(&mut self, frame: u32) {
        let target = frame.min(self.end);
        if target < self.frame() {
            self.game = Match::new(self.replay.header);
        }
        while self.frame() < target {
            if !self.step_once() {
                break;
            }
        }
        self.clock.settle();
    }

    #[cfg_attr(not(test), allow(dead_code))] // the tests read it
    /// Whether every frame has been shown (or the match was decided).
    pub fn finished(&self) -> bool {
        self.frame() >= self.end || self.game.winner().is_some()
    }
}

impl MatchSource for ReplaySession {
    fn sample(&mut self, kb: &Keyboard) {
        let marks = self
            .stats
            .as_ref()
            .and_then(|s| s.mark_keys(kb, self.frame()));
        if let Some(frame) = self.clock.keys(kb, self.frame()).or(marks) {
            self.seek(frame);
        }
    }

    fn pump(&mut self, clock_steps: u32) -> u32 {
        self.clock.pump(clock_steps)
    }

    fn step(&mut self) -> bool {
        self.step_once()
    }

    fn current(&self) -> &Match {
        &self.game
    }

    fn net(&self) -> NetStatus {
        NetStatus::replay(self.clock.speed(), self.clock.paused(), self.frame())
    }

    fn can_pause(&self) -> bool {
        false
    }

    fn rematch(&mut self, _seed: u64) {
        self.seek(0);
        self.clock.resume();
    }

    fn local_seats(&self) -> [bool; 2] {
        [false, false]
    }

    /// A replay that ends off the boards (a forfeit, a shutdown) shows its result at the end.
    fn verdict(&self) -> Option<String> {
        let r = &self.replay.result;
        let at_end = self.frame() >= self.end;
        if !at_end || r.reason == EndReason::TopOut || self.game.winner().is_some() {
            return None;
        }
        Some(crate::match_source::verdict_line(
            r.reason,
            r.winner,
            &self.replay.names,
        ))
    }

    fn title(&self) -> Option<String> {
        let state = if self.clock.paused() {
            "PAUSED".to_owned()
        } else {
            format!("{}×", self.clock.speed())
        };
        Some(format!(
            "REPLAY  ·  {}  /  {}  ·  {state}",
            mmss(self.frame()),
            mmss(self.end)
        ))
    }
}
