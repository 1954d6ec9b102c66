//! Automatic players: anything that can choose a seat's keys frame by frame.
//!
//! [`AutoPlayer`] is the one seam between the client and whatever plays automatically. Today it
//! has two implementations: [`Stacker`], a random placer that needs nothing but the views, and
//! [`BotPlayer`], which wraps `sevenbag_bot::Bot`. Choosing which one a seat gets is one line in
//! [`Opponent::player`].
//!
//! ## Planning off the frame
//! A bot plan costs about 3 ms at Max (up to about 10 ms), too much for the render thread, which
//! calls [`AutoPlayer::next_input`] during the simulation step. So the game's bots use
//! [`Planning::Worker`]: when the bot needs a plan, [`BotPlayer`] sends a copy of the position
//! (the core `Player`, the rules, the frame) to a `std::thread` worker that owns its own `Bot` of
//! the same level and answers with the ranked placements ([`sevenbag_bot::Thought`]). Until the
//! answer comes, the seat holds no keys (the bot "thinks", which the speed cap absorbs); the
//! render thread only ever pays for the cheap half: checking the plan against the game and
//! compiling the answer into frame-exact keys from the state it finds when the answer arrives.
//! An answer for a position that has changed meanwhile (the piece locked, garbage rose, the hold
//! or the queue changed) is dropped and the new position is asked for. The worker blocks on its
//! channel (no polling) and ends when the player is dropped and the channel closes.
//!
//! The price: when the bot starts a piece depends on when the worker answers, so a practice
//! match is not reproducible frame for frame. The plan itself is: the same position gives the
//! same placement either way ([`Planning::Inline`], kept for tests and headless tools, gives the
//! same game as a worker that is waited for).
//!
//! A browser page has no threads, so there the bot uses [`Planning::Sliced`]: the same search,
//! resumable ([`Bot::begin_think`], [`Bot::think_more`]), runs for a few milliseconds of each
//! frame until it answers. The seat holds no keys meanwhile, as with a worker, and the answer is
//! the one a single call would give.

use std::thread::JoinHandle;

use sevenbag_bot::{Bot, BotConfig, Drive, Level, Planner};
use sevenbag_core::Input;
#[cfg(not(target_arch = "wasm32"))]
use sevenbag_tbp::{TbpLimits, TbpProcess, TbpThinker};

pub mod allowance;
pub mod plan_times;
mod stacker;
#[cfg(test)]
mod tests;
mod worker;

use plan_times::PLAN_TIMES;
#[cfg_attr(not(target_arch = "wasm32"), allow(unused_imports))]
pub use plan_times::plan_times;
pub use stacker::Stacker;
#[cfg(not(target_arch = "wasm32"))]
use worker::TBP_MOVE_LIMIT;
use worker::Worker;

use crate::config::OutsideBot;
pub use crate::match_source::{AutoPlayer, SeatView};

/// The opponent choices offered to the player.
#[derive(Clone, Debug, PartialEq)]
pub enum Opponent {
    /// The random stacker: places pieces anywhere, at a steady pace.
    Stacker,
    /// The real bot at a difficulty level.
    Bot(Level),
    /// An outside bot over TBP.
    Outside(OutsideBot),
}

impl Opponent {
    /// Every choice, in the order the setup screen cycles them: ours, then the outside `bots`.
    pub fn all(bots: &[OutsideBot]) -> Vec<Opponent> {
        let mut v = vec![Opponent::Stacker];
        v.extend(Level::ALL.into_iter().map(Opponent::Bot));
        v.extend(bots.iter().cloned().map(Opponent::Outside));
        v
    }

    /// Its name in the settings file: "stacker", the bot level's name, or "tbp:NAME".
    pub fn key(&self) -> String {
        match self {
            Opponent::Stacker => "stacker".to_owned(),
            Opponent::Bot(level) => level.name().to_owned(),
            Opponent::Outside(bot) => format!("tbp:{}", bot.name),
        }
    }

    /// Its name on screen.
    pub fn label(&self) -> String {
        match self {
            Opponent::Stacker => "Random stacker".to_owned(),
            Opponent::Bot(level) => {
                let name = level.name();
                let mut c = name.chars();
                let first = c.next().map(|f| f.to_ascii_uppercase()).unwrap_or(' ');
                format!("Bot · {first}{}", c.as_str())
            }
            Opponent::Outside(bot) => bot.name.clone(),
        }
    }

    /// A fresh player of this kind (`seed` varies the stacker's choices); a bot plans on a
    /// worker thread.
    /// In a browser there are no threads: the bot plans a slice of each frame.
    pub fn player(&self, seed: u64) -> Box<dyn AutoPlayer> {
        let planning = if cfg!(target_arch = "wasm32") {
            Planning::Sliced(PAGE_THINK_SHARE)
        } else {
            Planning::Worker
        };
        self.player_with(seed, planning)
    }

    /// Same, choosing where a bot plans (an outside bot always asks on a worker).
    pub fn player_with(&self, seed: u64, planning: Planning) -> Box<dyn AutoPlayer> {
        match self {
            Opponent::Stacker => Box::new(Stacker::new(seed, 9)),
            Opponent::Bot(level) => Box::new(BotPlayer::new(*level, planning)),
            #[cfg(not(target_arch = "wasm32"))]
            Opponent::Outside(bot) => Box::new(BotPlayer::tbp(
                &bot.command,
                std::time::Duration::from_millis(u64::from(bot.think_ms)),
                (bot.pps * 100.0).round() as u32,
            )),
            #[cfg(target_arch = "wasm32")]
            Opponent::Outside(bot) => Box::new(NoOutsideBots(bot.name.clone())),
        }
    }
}

/// The part of each frame the page's bot may spend thinking: with the game's own work (under
/// a millisecond) and the browser's drawing it leaves a 60 frames/s frame room to spare.
const PAGE_THINK_SHARE: std::time::Duration = std::time::Duration::from_millis(4);

/// The page's cap on weighing the odds of a perfect clear beyond the queue, in move-generation
/// calls (30,000 natively): at 4 ms of thinking a frame the full weighing made a plan take up
/// to about 70 frames and Max play 3.2 pieces a second; with this cap it plays 3.8 (4.0 with
/// no weighing) and keeps about a third of the weighing's gain (BENCHMARKS.md).
const PAGE_ODDS_LIMIT: u64 = 6_000;

/// The page's widest beam: Max searches 96 wide natively (BENCHMARKS.md, "Ten thousand fresh
/// games, and a wider beam"). Measured in the page at 1× and 4× CPU throttling, 96 thinks
/// about 1.6 times as long a plan (natively 8.4 ms against 5.3 over the same games) and its
/// median frame's script was about a millisecond longer at 4×, on a machine where the page
/// does not hold 58 frames/s at 4× even with 32: so the page keeps 32 (BENCHMARKS.md, "The
/// page").
const PAGE_MAX_BEAM: usize = 32;

/// How long a [`Bot::think_more`] call between looks at the clock aims to take: the steps a
/// call asks for double while calls are shorter than half of this and halve while they are
/// longer, so the clock (a call into the browser) is read about every quarter millisecond
/// whatever the device's speed, and a frame's thinking overruns its allowance by a slice at
/// most.
const SLICE_AIM: std::time::Duration = std::time::Duration::from_micros(250);

/// The most steps (each about a move generation) one [`Bot::think_more`] call asks for.
const MOST_STEPS_A_SLICE: u32 = 64;

/// Where a bot's plans are made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Planning {
    /// In `next_input`, on the caller's thread: deterministic frame for frame (tests, headless
    /// tools).
    #[cfg_attr(not(test), allow(dead_code))]
    Inline,
    /// On a worker thread, so the caller's frame never waits for the search (the game).
    Worker,
    /// In `next_input`, a slice at a time: each frame thinks until this much time has passed
    /// (at least one slice), then goes on next frame (the browser page, which has no threads).
    #[cfg_attr(not(any(test, target_arch = "wasm32")), allow(dead_code))]
    Sliced(std::time::Duration),
}

/// How a [`BotPlayer`] makes its bot (again after an undo).
#[derive(Clone, Copy, Debug)]
struct Driver {
    config: BotConfig,
    /// The perfect-clear search (Max, when this bot searches itself).
    perfect_clears: bool,
    /// See [`Bot::with_pc_odds`].
    odds_limit: u64,
}

impl Driver {
    fn bot(&self) -> Bot {
        Bot::with_config(self.config)
            .with_perfect_clears(self.perfect_clears)
            .with_pc_odds(self.odds_limit)
    }
}

/// `sevenbag_bot::Bot` behind the [`AutoPlayer`] seam, planning inline or on a worker thread.
pub struct BotPlayer {
    bot: Bot,
    /// How to make a fresh driver (after an undo).
    driver: Driver,
    worker: Option<Worker>,
    /// The thinking time allowed per frame, when planning in slices.
    share: Option<std::time::Duration>,
    /// Steps asked of each [`Bot::think_more`] call, when planning in slices (see
    /// [`SLICE_AIM`]).
    steps: u32,
}

impl BotPlayer {
    /// A bot at `level` planning as `planning` says (inline if the thread cannot be started).
    pub fn new(level: Level, planning: Planning) -> BotPlayer {
        let worker = match planning {
            Planning::Inline | Planning::Sliced(_) => None,
            Planning::Worker => Worker::start(format!("bot-{}", level.name()), true, move || {
                Ok(Bot::new(level))
            }),
        };
        let share = match planning {
            Planning::Sliced(share) => Some(share),
            Planning::Inline | Planning::Worker => None,
        };
        let mut config = level.config();
        if share.is_some()
            && let Planner::Search(budget) = &mut config.planner
        {
            budget.beam = budget.beam.min(PAGE_MAX_BEAM);
        }
        // The driver half never searches; the worker's bot has the perfect-clear tables.
        let driver = Driver {
            config,
            perfect_clears: worker.is_none() && level == Level::Max,
            odds_limit: if share.is_some() {
                PAGE_ODDS_LIMIT
            } else {
                sevenbag_bot::pc_odds::TOTAL_LIMIT
            },
        };
        BotPlayer {
            bot: driver.bot(),
            driver,
            worker,
            share,
            steps: 1,
        }
    }

    /// Makes `next_input` block until the worker answers (tests: the worker then plays exactly
    /// like the inline bot).
    #[cfg_attr(not(test), allow(dead_code))]
    pub fn wait_for_plans(mut self, wait: bool) -> BotPlayer {
        if let Some(w) = &mut self.worker {
            w.wait = wait;
        }
        self
    }

    /// The driver's counters (plans, replans, search nodes of the answers used).
    #[cfg_attr(not(test), allow(dead_code))]
    pub fn stats(&self) -> &sevenbag_bot::BotStats {
        self.bot.stats()
    }

    /// Answers dropped because the position had changed before they arrived.
    #[cfg_attr(not(test), allow(dead_code))]
    pub fn stale_answers(&self) -> u64 {
        self.worker.as_ref().map_or(0, |w| w.stale)
    }

    /// An outside TBP bot run as `command` (a shell-like command line), thinking `think` per
    /// piece and capped at `pps_x100` pieces per second ×100. Its placements are compiled into
    /// keys by our own driver, so it plays by our rules and handling. The process is started on
    /// the worker thread; if it cannot start or misbehaves, [`AutoPlayer::failure`] says why
    /// and the seat stops pressing keys.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn tbp(command: &str, think: std::time::Duration, pps_x100: u32) -> BotPlayer {
        let limits = TbpLimits {
            think,
            move_limit: TBP_MOVE_LIMIT,
            pps_cap_x100: Some(pps_x100),
        };
        let command = command.to_owned();
        let worker = Worker::start("bot-tbp".to_owned(), false, move || {
            let process = TbpProcess::spawn(&command, TBP_MOVE_LIMIT)
                .map_err(|e| format!("{command}: {e}"))?;
            Ok(TbpThinker::new(process, limits))
        });
        let config = BotConfig {
            pps_cap_x100: Some(pps_x100),
            ..Level::Max.config()
        };
        BotPlayer {
            bot: Bot::with_config(config),
            driver: Driver {
                config,
                perfect_clears: false,
                odds_limit: 0,
            },
            worker,
            share: None,
            steps: 1,
        }
    }

    /// [`AutoPlayer::next_input`] planning in slices: thinks for what is left of this rendered
    /// frame's allowance, at most `share` ([`allowance`]; at least one slice when anything is
    /// left) and holds no keys until the thought is ready.
    fn next_sliced(&mut self, view: SeatView<'_>, share: std::time::Duration) -> Input {
        let (player, rules, frame) = (view.player, view.rules, view.frame);
        if let Drive::Input(input) = self.bot.drive_in(view.phase, player, frame) {
            return input;
        }
        // What this rendered frame has left (several steps of one frame share it); a frame
        // that has spent it all thinks no more, else at least one slice.
        let left = allowance::left(share);
        if allowance::exhausted(share) {
            return Input::NONE;
        }
        let start = sevenbag_netplay::time::Instant::now();
        if !self.bot.is_thinking_about(player) {
            self.bot.begin_think(player, rules, frame);
            PLAN_TIMES.part(0, start.elapsed());
        }
        let mut slice_start = start;
        loop {
            let thought = self.bot.think_more(self.steps);
            // One look at the clock a slice: it ends this slice and starts the next.
            let now = sevenbag_netplay::time::Instant::now();
            let slice = now.duration_since(slice_start);
            slice_start = now;
            PLAN_TIMES.part(1, slice);
            if slice < SLICE_AIM / 2 {
                self.steps = (self.steps * 2).min(MOST_STEPS_A_SLICE);
            } else if slice > SLICE_AIM {
                self.steps = (self.steps / 2).max(1);
            }
            let took = now.duration_since(start);
            if let Some(thought) = thought {
                allowance::spend(took);
                PLAN_TIMES.think(took, true);
                let input = self
                    .bot
                    .adopt(player, rules, frame, &thought)
                    .unwrap_or(Input::NONE);
                PLAN_TIMES.part(2, now.elapsed());
                return input;
            }
            if took >= left {
                allowance::spend(took);
                PLAN_TIMES.think(took, false);
                return Input::NONE;
            }
        }
    }

    /// Takes the worker thread's handle (tests: to see it end once the player is dropped).
    #[cfg_attr(not(test), allow(dead_code))]
    pub fn take_thread(&mut self) -> Option<JoinHandle<()>> {
        self.worker.as_mut().and_then(|w| w.thread.take())
    }
}

impl AutoPlayer for BotPlayer {
    fn failure(&self) -> Option<String> {
        self.worker.as_ref().and_then(|w| w.failure.clone())
    }

    fn resync(&mut self) {
        // A fresh driver (its plan was for the old timeline); the worker's own bot keeps its
        // 7-bag knowledge, which stays true: the piece sequence is the same in any timeline.
        self.bot = self.driver.bot();
        if let Some(w) = &mut self.worker {
            // An answer still coming carries an old id: `answer` skips it.
            w.asked = None;
        }
    }

    fn next_for(&mut self, view: SeatView<'_>) -> Input {
        if let Some(share) = self.share {
            return self.next_sliced(view, share);
        }
        let (player, rules, frame) = (view.player, view.rules, view.frame);
        if self.worker.as_ref().is_some_and(|w| w.failure.is_some()) {
            return Input::NONE;
        }
        let drive = self.bot.drive_in(view.phase, player, frame);
        let Some(worker) = &mut self.worker else {
            return match drive {
                Drive::Input(input) => input,
                Drive::Think => {
                    let start = sevenbag_netplay::time::Instant::now();
                    let thought = self.bot.think(player, rules, frame);
                    let input = self.bot.adopt(player, rules, frame, &thought);
                    PLAN_TIMES.think(start.elapsed(), true);
                    input.unwrap_or(Input::NONE)
                }
            };
        };
        match drive {
            Drive::Input(input) => input,
            Drive::Think => worker
                .answer(&mut self.bot, player, rules, frame)
                .unwrap_or(Input::NONE),
        }
    }
}

/// An outside bot in a browser: a page cannot start programs, so the seat presses nothing and
/// says why.
#[cfg(target_arch = "wasm32")]
struct NoOutsideBots(String);

#[cfg(target_arch = "wasm32")]
impl AutoPlayer for NoOutsideBots {
    fn next_for(&mut self, _view: SeatView<'_>) -> Input {
        Input::NONE
    }
    fn failure(&self) -> Option<String> {
        Some(format!(
            "{}: outside bots are programs on your computer; the browser game cannot start them.",
            self.0
        ))
    }
}
