//! A TBP bot playing a seat of a Sevenbag match: on each spawn the bot is asked about the
//! position ([`TbpThinker`]), and its first legal suggestion is turned into key masks by our own
//! move generation and input compiler, then played through the core like anyone's keys. This
//! waits for the bot on the caller's thread (tools); the game asks on a worker thread instead.
//! With [`TbpPlayer::charging_overruns`] (a fair match) an answer that takes longer than the
//! think time (the allowance a piece) costs the seat the overrun in frames
//! ([`TbpLimits::late_frames`]), as thinking costs time in a real game.

use std::time::Instant;

use sevenbag_bot::{CompileOptions, Driver, PlayerSim, Target, Thought, compile};
use sevenbag_core::{Input, Match, Phase, Player, Rules, Seat};

use crate::flow::{FlowCounts, Restart};
use crate::frontend::{TbpError, TbpProcess};
use crate::limits::{TbpLimits, ThinkTimes};
use crate::thinker::TbpThinker;

/// A TBP bot as a [`Driver`] for [`sevenbag_bot::play_game`].
#[derive(Debug)]
pub struct TbpPlayer {
    thinker: TbpThinker,
    plan: Option<(u32, Vec<Input>)>,
    /// A thought that came late, and the frame from which it is played.
    pending: Option<(Thought, u32)>,
    spawn_frame: Option<u32>,
    error: Option<TbpError>,
    times: ThinkTimes,
    /// Whether a late answer costs frames.
    charge: bool,
    /// Pieces the bot placed.
    pub moves: u64,
}

impl TbpPlayer {
    /// Wraps a started bot, told the game in TBP's standard flow.
    pub fn new(process: TbpProcess, limits: TbpLimits) -> TbpPlayer {
        TbpPlayer {
            thinker: TbpThinker::new(process, limits),
            plan: None,
            pending: None,
            spawn_frame: None,
            error: None,
            times: ThinkTimes::default(),
            charge: false,
            moves: 0,
        }
    }

    /// Charges answers that come later than the think time: the seat idles the whole frames
    /// past it before its move starts, as our own bot does in a fair match
    /// ([`crate::ThreadedBot`]).
    pub fn charging_overruns(mut self) -> TbpPlayer {
        self.charge = true;
        self
    }

    /// Restarts the bot as `restart` says.
    pub fn with_restart(mut self, restart: Restart) -> TbpPlayer {
        self.thinker = self.thinker.with_restart(restart);
        self
    }

    /// The bot's name from its `info`.
    pub fn name(&self) -> &str {
        self.thinker.name()
    }

    /// Why the bot stopped playing, if it did.
    pub fn error(&self) -> Option<&TbpError> {
        self.error.as_ref()
    }

    /// The bot's messages, counted.
    pub fn counts(&self) -> &FlowCounts {
        self.thinker.counts()
    }

    /// The wall-clock time it took per piece, from telling it the game to its answer.
    pub fn times(&self) -> &ThinkTimes {
        &self.times
    }

    /// The bot's process id (of the `sh -c` that runs it).
    pub fn pid(&self) -> u32 {
        self.thinker.process().pid()
    }

    /// Keys for a lone player (also used by [`Driver::next_input`]).
    pub fn next_input_for(&mut self, player: &Player, rules: &Rules, frame: u32) -> Input {
        if self.error.is_some() || player.topped_out().is_some() {
            return Input::NONE;
        }
        if let Some((start, inputs)) = &self.plan
            && let Some(i) = frame.checked_sub(*start)
            && let Some(&input) = inputs.get(i as usize)
        {
            return input;
        }
        if player.active().is_none() {
            self.plan = None;
            self.pending = None;
            self.spawn_frame = Some(frame);
            return Input::NONE;
        }
        let thought = match self.pending.take() {
            Some((thought, from)) if frame < from => {
                self.pending = Some((thought, from));
                return Input::NONE;
            }
            Some((thought, _)) => thought,
            None => {
                let asked = Instant::now();
                let thought = match self.thinker.think(player, rules) {
                    Ok(t) => t,
                    Err(e) => return self.fail(e),
                };
                let took = asked.elapsed();
                let late = match self.charge {
                    true => self.thinker.limits().late_frames(took),
                    false => 0,
                };
                self.times.record(took, late);
                if late > 0 {
                    self.pending = Some((thought, frame.saturating_add(late)));
                    return Input::NONE;
                }
                thought
            }
        };
        match self.make_plan(player, rules, frame, &thought) {
            Ok(inputs) => {
                let first = inputs.first().copied().unwrap_or(Input::NONE);
                self.plan = Some((frame, inputs));
                self.moves += 1;
                first
            }
            Err(e) => self.fail(e),
        }
    }

    fn fail(&mut self, e: TbpError) -> Input {
        self.error = Some(e);
        self.plan = None;
        Input::NONE
    }

    /// Keys for the first of `thought`'s placements that can be reached from here, paced to
    /// the speed cap (the bot was told it played the first; if another is played, its picture
    /// no longer matches and the next piece restarts it).
    fn make_plan(
        &mut self,
        player: &Player,
        rules: &Rules,
        frame: u32,
        thought: &Thought,
    ) -> Result<Vec<Input>, TbpError> {
        let Some(first) = thought.ranked().first() else {
            return Err(TbpError::IllegalMove("no legal suggestion".to_owned()));
        };
        let sim = PlayerSim::new(player, rules, frame);
        let Some((target, mut inputs)) = thought.ranked().iter().find_map(|p| {
            let target = Target::from(p);
            compile(&sim, &target, CompileOptions::default()).map(|i| (target, i))
        }) else {
            return Err(TbpError::IllegalMove(format!(
                "{first:?} cannot be reached with this handling"
            )));
        };
        // Pace to the speed cap in game time.
        let since_spawn = self.spawn_frame.map_or(0, |f| frame.saturating_sub(f));
        let min_frames = match self.thinker.limits().pps_cap_x100 {
            Some(pps) if pps > 0 => 6000u32.div_ceil(pps).saturating_sub(since_spawn),
            _ => 0,
        };
        let short = min_frames.saturating_sub(inputs.len() as u32);
        if short > 0 {
            let paced = CompileOptions {
                wait: short,
                ..CompileOptions::default()
            };
            if let Some(slower) = compile(&sim, &target, paced) {
                inputs = slower;
            }
        }
        Ok(inputs)
    }
}

impl Driver for TbpPlayer {
    fn next_input(&mut self, m: &Match, seat: Seat) -> Input {
        let frame = m.frame().0;
        let playing = match m.phase() {
            Phase::Playing => true,
            Phase::Countdown { go_at } => frame >= go_at,
            Phase::RoundOver { .. } | Phase::MatchOver { .. } => false,
        };
        if !playing {
            self.plan = None;
            return Input::NONE;
        }
        self.next_input_for(m.player(seat), &m.header().rules, frame)
    }

    fn failure(&self) -> Option<String> {
        self.error.as_ref().map(|e| e.to_string())
    }

    fn name(&self) -> Option<String> {
        Some(self.thinker.name().to_owned())
    }
}
