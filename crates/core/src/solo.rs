//! One-player games on the versus rules: 40-line Sprint, 2-minute Blitz and endless Zen.
//!
//! A [`Solo`] is to one board what [`crate::Match`] is to two: a pure function of its
//! [`SoloHeader`] and the per-frame inputs, `Copy` and heap-free, so undo is "restore a copy"
//! and a server can re-simulate a submitted run to check its result. Times are frames of play
//! (60 a second) counted from "GO", never clock time.
//!
//! - **Sprint**: clear [`SPRINT_LINES`] lines; the result is the frames it took, with a split
//!   every 10 lines.
//! - **Blitz**: score as much as possible in [`BLITZ_FRAMES`] frames of play, with guideline
//!   scoring ([`crate::score`]) and gravity rising with the level; a split every 30 seconds.
//! - **Zen**: endless, no goal; gravity stays at the rules' base.
//!
//! Topping out ends any run; a Sprint or Blitz that topped out has no result to rank.

use serde::{Deserialize, Serialize};

use crate::hash::StateHasher;
use crate::input::Input;
use crate::player::{Player, PlayerEvents, StepContext, TopOut};
use crate::rules::{FPS, Handling, Rules};
use crate::score::{Score, gravity_for_level};

/// Lines a Sprint asks for.
pub const SPRINT_LINES: u32 = 40;
/// Frames of play a Blitz lasts (2 minutes).
pub const BLITZ_FRAMES: u32 = 120 * FPS;
/// Splits kept per run: every 10 lines of a Sprint, every 30 s of a Blitz.
pub const SPLITS: usize = 4;

/// Which solo game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SoloMode {
    /// Clear 40 lines as fast as possible.
    Sprint,
    /// Score as much as possible in 2 minutes.
    Blitz,
    /// Endless practice.
    Zen,
}

impl SoloMode {
    /// Every mode, in menu order.
    pub const ALL: [SoloMode; 3] = [SoloMode::Sprint, SoloMode::Blitz, SoloMode::Zen];

    /// Lower-case name, as used in files and URLs (`sprint`, `blitz`, `zen`).
    pub const fn name(self) -> &'static str {
        match self {
            SoloMode::Sprint => "sprint",
            SoloMode::Blitz => "blitz",
            SoloMode::Zen => "zen",
        }
    }

    /// The mode named `name` (as [`SoloMode::name`] writes it).
    pub fn from_name(name: &str) -> Option<SoloMode> {
        SoloMode::ALL.into_iter().find(|m| m.name() == name)
    }
}

/// Everything a solo run is simulated from, besides its inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SoloHeader {
    /// The game.
    pub mode: SoloMode,
    /// The rules (the versus preset unless a caller chose otherwise); the garbage and round
    /// options are unused.
    pub rules: Rules,
    /// The piece sequence's seed (the sequence is seat 1's of a versus match with this seed).
    pub seed: u64,
    /// The player's handling.
    pub handling: Handling,
}

impl SoloHeader {
    /// A run of `mode` on the versus rules with default handling.
    pub fn new(mode: SoloMode, seed: u64) -> SoloHeader {
        SoloHeader {
            mode,
            rules: Rules::versus(),
            seed,
            handling: Handling::default(),
        }
    }
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SoloEnd {
    /// A Sprint cleared its lines.
    Cleared,
    /// A Blitz ran out of time.
    TimeUp,
    /// The stack reached the top.
    ToppedOut(TopOut),
}

/// Where a run is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SoloPhase {
    /// "3, 2, 1": play begins at frame `go_at`.
    Countdown {
        /// The first frame of play.
        go_at: u32,
    },
    /// Pieces are falling.
    Playing,
    /// The run is over.
    Finished(SoloEnd),
}

/// A finished run, as ranked and shown on the result screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SoloResult {
    /// The game.
    pub mode: SoloMode,
    /// How it ended.
    pub end: SoloEnd,
    /// Frames of play from "GO" to the end (a Sprint's time).
    pub frames: u32,
    /// Lines cleared.
    pub lines: u32,
    /// Pieces locked.
    pub pieces: u32,
    /// Guideline score (a Blitz's result).
    pub score: u64,
    /// Sprint: frames of play when 10, 20, 30, 40 lines were reached; Blitz: the score at 30,
    /// 60, 90, 120 s. `None` for a split not reached.
    pub splits: [Option<u64>; SPLITS],
}

impl SoloResult {
    /// True for a run that reached its goal and can be ranked: a cleared Sprint or a Blitz that
    /// ran its time. Zen runs and top-outs are not ranked.
    pub fn ranked(&self) -> bool {
        matches!(
            (self.mode, self.end),
            (SoloMode::Sprint, SoloEnd::Cleared) | (SoloMode::Blitz, SoloEnd::TimeUp)
        )
    }
}

/// A one-player run, stepped one frame at a time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Solo {
    header: SoloHeader,
    player: Player,
    frame: u32,
    phase: SoloPhase,
    /// Frames of play simulated since "GO" (frozen when the run ends).
    played: u32,
    score: Score,
    splits: [Option<u64>; SPLITS],
}

impl Solo {
    /// A run about to count down.
    pub fn new(header: SoloHeader) -> Solo {
        Solo {
            header,
            player: Player::new(&header.rules, header.handling, header.seed, 0, 0),
            frame: 0,
            phase: SoloPhase::Countdown {
                go_at: u32::from(header.rules.countdown_frames),
            },
            played: 0,
            score: Score::default(),
            splits: [None; SPLITS],
        }
    }

    /// The header the run was built from.
    pub fn header(&self) -> &SoloHeader {
        &self.header
    }

    /// The board, piece, hold and queue.
    pub fn player(&self) -> &Player {
        &self.player
    }

    /// Mutable access for analysis hooks (continue-from-a-replay, puzzles); a run never needs it.
    pub fn player_mut(&mut self) -> &mut Player {
        &mut self.player
    }

    /// Frames simulated so far, countdown included.
    pub fn frame(&self) -> u32 {
        self.frame
    }

    /// Where the run is.
    pub fn phase(&self) -> SoloPhase {
        self.phase
    }

    /// Frames of play since "GO" (0 during the countdown).
    pub fn play_frames(&self) -> u32 {
        self.played
    }

    /// Frames left in a Blitz (`None` for the other modes).
    pub fn frames_left(&self) -> Option<u32> {
        (self.header.mode == SoloMode::Blitz)
            .then(|| BLITZ_FRAMES.saturating_sub(self.play_frames()))
    }

    /// Frames of countdown left, while counting down.
    pub fn countdown_left(&self) -> Option<u32> {
        match self.phase {
            SoloPhase::Countdown { go_at } => Some(go_at - self.frame),
            _ => None,
        }
    }

    /// The guideline score so far.
    pub fn score(&self) -> Score {
        self.score
    }

    /// What happened on the board during the last frame.
    pub fn events(&self) -> &PlayerEvents {
        self.player.events()
    }

    /// The result, once the run is over.
    pub fn result(&self) -> Option<SoloResult> {
        let SoloPhase::Finished(end) = self.phase else {
            return None;
        };
        let stats = self.player.stats();
        Some(SoloResult {
            mode: self.header.mode,
            end,
            frames: self.play_frames(),
            lines: stats.lines,
            pieces: stats.pieces,
            score: self.score.points,
            splits: self.splits,
        })
    }

    /// Simulates one frame with the keys held in `input`.
    pub fn step(&mut self, input: Input) {
        match self.phase {
            SoloPhase::Countdown { go_at } if self.frame < go_at => self.player.countdown(input),
            SoloPhase::Countdown { .. } => {
                self.phase = SoloPhase::Playing;
                self.play(input);
            }
            SoloPhase::Playing => self.play(input),
            SoloPhase::Finished(_) => self.player.idle(input),
        }
        self.frame += 1;
    }

    fn play(&mut self, input: Input) {
        let mut rules = self.header.rules;
        if self.header.mode == SoloMode::Blitz {
            rules.gravity = gravity_for_level(self.score.level()).max(rules.gravity);
        }
        // Gravity never rises with time in solo modes: Blitz rises with the level instead.
        rules.gravity_rise_after = u32::MAX;
        let play_frame = self.played;
        self.player.step(
            input,
            StepContext {
                rules: &rules,
                frame: self.frame,
                play_frame,
            },
        );
        let events = *self.player.events();
        self.score.add(&events);
        self.played += 1;
        let played = self.played;
        let lines = self.player.stats().lines;
        match self.header.mode {
            SoloMode::Sprint => {
                for (i, split) in self.splits.iter_mut().enumerate() {
                    if split.is_none() && lines >= 10 * (i as u32 + 1) {
                        *split = Some(u64::from(played));
                    }
                }
            }
            SoloMode::Blitz => {
                if played.is_multiple_of(30 * FPS) {
                    let i = (played / (30 * FPS)) as usize - 1;
                    if let Some(split) = self.splits.get_mut(i) {
                        *split = Some(self.score.points);
                    }
                }
            }
            SoloMode::Zen => {}
        }
        if let Some(why) = self.player.topped_out() {
            self.finish(SoloEnd::ToppedOut(why));
        } else if self.header.mode == SoloMode::Sprint && lines >= SPRINT_LINES {
            self.finish(SoloEnd::Cleared);
        } else if self.header.mode == SoloMode::Blitz && played >= BLITZ_FRAMES {
            self.finish(SoloEnd::TimeUp);
        }
    }

    fn finish(&mut self, end: SoloEnd) {
        self.phase = SoloPhase::Finished(end);
    }

    /// The run's state hash (FNV-1a 64 over canonical bytes, as [`crate::Match::state_hash`]):
    /// frame (u32), phase tag (u8: 0 countdown, 1 playing, 2 finished) and its data (go_at u32 |
    /// end u8: 0 cleared, 1 time up, 2 topped out), frames of play (u32), points (u64), lines (u32),
    /// then the player's canonical bytes as in a match. Undo and re-simulation compare it.
    pub fn state_hash(&self) -> u64 {
        let mut h = StateHasher::new();
        h.u32(self.frame);
        match self.phase {
            SoloPhase::Countdown { go_at } => {
                h.u8(0);
                h.u32(go_at);
            }
            SoloPhase::Playing => h.u8(1),
            SoloPhase::Finished(end) => {
                h.u8(2);
                h.u8(match end {
                    SoloEnd::Cleared => 0,
                    SoloEnd::TimeUp => 1,
                    SoloEnd::ToppedOut(_) => 2,
                });
            }
        }
        h.u32(self.played);
        h.u64(self.score.points);
        h.u32(self.score.lines);
        self.player.write_canonical(&mut h, false);
        h.finish()
    }
}
