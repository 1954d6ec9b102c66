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

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};

use serde::{Deserialize, Serialize};
use std::thread::JoinHandle;

use sevenbag_bot::{Bot, BotConfig, Drive, Level, PositionKey, Thought};
use sevenbag_core::{Input, Match, Phase, Player, Rules, Seat};
#[cfg(not(target_arch = "wasm32"))]
use sevenbag_tbp::{TbpLimits, TbpProcess, TbpThinker};

/// Something that presses keys for one seat.
pub trait AutoPlayer {
    /// The keys to hold on the next simulated frame of `m` for `seat` (called once per frame).
    fn next_input(&mut self, m: &Match, seat: Seat) -> Input;

    /// Why it stopped playing (an outside bot that died or misbehaved), once it has.
    fn failure(&self) -> Option<String> {
        None
    }

    /// The match jumped to another position (a practice undo or redo): forget any plan and
    /// answer still on its way, and plan afresh from the next position seen.
    fn resync(&mut self) {}
}

/// The most outside bots the settings file may list.
pub const MAX_OUTSIDE_BOTS: usize = 16;

/// An outside bot that speaks TBP (Cold Clear 2 and others), listed in the settings file as
/// `[[bots]]` with a `name` and a `command`; docs/CLIENT.md.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutsideBot {
    /// Its name in the opponent list.
    pub name: String,
    /// The command line that starts it (split on spaces; quotes group words).
    pub command: String,
    /// Thinking time per piece, in milliseconds.
    #[serde(default = "OutsideBot::default_think_ms")]
    pub think_ms: u32,
    /// Pieces per second at most.
    #[serde(default = "OutsideBot::default_pps")]
    pub pps: f64,
}

impl OutsideBot {
    fn default_think_ms() -> u32 {
        200
    }

    fn default_pps() -> f64 {
        2.0
    }

    /// Checks the entry: a name, a command, a think time up to 10 s, 0.1 to 30 pieces a second.
    pub fn validate(&self) -> Result<(), String> {
        if self.name.trim().is_empty() || self.name.chars().count() > 32 {
            return Err("the name must be 1 to 32 characters".to_owned());
        }
        if self.command.trim().is_empty() || self.command.len() > 1000 {
            return Err("the command must be 1 to 1000 bytes".to_owned());
        }
        if self.think_ms > 10_000 {
            return Err("think_ms is at most 10000".to_owned());
        }
        if !(0.1..=30.0).contains(&self.pps) {
            return Err("pps must be between 0.1 and 30".to_owned());
        }
        Ok(())
    }
}

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

/// Search nodes per [`Bot::think_more`] call between looks at the clock.
const THINK_SLICE: u32 = 2;

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

/// `sevenbag_bot::Bot` behind the [`AutoPlayer`] seam, planning inline or on a worker thread.
pub struct BotPlayer {
    bot: Bot,
    /// How to make a fresh driver (after an undo): its configuration and perfect-clear search.
    driver: (BotConfig, bool),
    worker: Option<Worker>,
    /// The thinking time allowed per frame, when planning in slices.
    share: Option<std::time::Duration>,
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
        // The driver half never searches; the worker's bot has the perfect-clear tables.
        let driver = (level.config(), worker.is_none() && level == Level::Max);
        BotPlayer {
            bot: Bot::with_config(driver.0).with_perfect_clears(driver.1),
            driver,
            worker,
            share,
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
            driver: (config, false),
            worker,
            share: None,
        }
    }

    /// [`AutoPlayer::next_input`] planning in slices: thinks for `share` of this frame (at least
    /// one slice) and holds no keys until the thought is ready.
    fn next_sliced(&mut self, m: &Match, seat: Seat, share: std::time::Duration) -> Input {
        if let Drive::Input(input) = self.bot.drive(m, seat) {
            return input;
        }
        let (player, rules, frame) = (m.player(seat), &m.header().rules, m.frame().0);
        let start = sevenbag_netplay::time::Instant::now();
        if !self.bot.is_thinking_about(player) {
            self.bot.begin_think(player, rules, frame);
        }
        loop {
            if let Some(thought) = self.bot.think_more(THINK_SLICE) {
                PLAN_TIMES.think(start.elapsed(), true);
                return self
                    .bot
                    .adopt(player, rules, frame, &thought)
                    .unwrap_or(Input::NONE);
            }
            if start.elapsed() >= share {
                PLAN_TIMES.think(start.elapsed(), false);
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
        self.bot = Bot::with_config(self.driver.0).with_perfect_clears(self.driver.1);
        if let Some(w) = &mut self.worker {
            // An answer still coming carries an old id: `answer` skips it.
            w.asked = None;
        }
    }

    fn next_input(&mut self, m: &Match, seat: Seat) -> Input {
        if let Some(share) = self.share {
            return self.next_sliced(m, seat, share);
        }
        let Some(worker) = &mut self.worker else {
            let plans = self.bot.stats().plans;
            let start = sevenbag_netplay::time::Instant::now();
            let input = self.bot.next_input(m, seat);
            if self.bot.stats().plans != plans {
                PLAN_TIMES.think(start.elapsed(), true);
            }
            return input;
        };
        if worker.failure.is_some() {
            return Input::NONE;
        }
        match self.bot.drive(m, seat) {
            Drive::Input(input) => input,
            Drive::Think => {
                let (player, rules, frame) = (m.player(seat), &m.header().rules, m.frame().0);
                worker
                    .answer(&mut self.bot, player, rules, frame)
                    .unwrap_or(Input::NONE)
            }
        }
    }
}

/// The bot's plans made on the caller's thread in this process and what they cost it (the
/// browser build plans in slices of its frames: the page's test hook reports these, see
/// [`crate::probe`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlanTimes {
    /// Plans made.
    pub plans: u64,
    /// Their total thinking time, microseconds.
    pub total_us: u64,
    /// The longest thinking in one frame, microseconds: what a frame pays.
    pub frame_max_us: u64,
    /// Frames spent thinking.
    pub frames: u64,
    /// The most frames one plan took.
    pub plan_frames_max: u64,
}

/// [`PlanTimes`] as counters shared by every bot of the process.
struct PlanCounters {
    plans: AtomicU64,
    total_us: AtomicU64,
    frame_max_us: AtomicU64,
    frames: AtomicU64,
    plan_frames_max: AtomicU64,
    /// Frames of the plan under way.
    current_frames: AtomicU64,
}

static PLAN_TIMES: PlanCounters = PlanCounters {
    plans: AtomicU64::new(0),
    total_us: AtomicU64::new(0),
    frame_max_us: AtomicU64::new(0),
    frames: AtomicU64::new(0),
    plan_frames_max: AtomicU64::new(0),
    current_frames: AtomicU64::new(0),
};

impl PlanCounters {
    /// Counts one frame's thinking that took `took`, which `finished` a plan or not.
    fn think(&self, took: std::time::Duration, finished: bool) {
        let us = u64::try_from(took.as_micros()).unwrap_or(u64::MAX);
        self.total_us.fetch_add(us, Ordering::Relaxed);
        self.frame_max_us.fetch_max(us, Ordering::Relaxed);
        self.frames.fetch_add(1, Ordering::Relaxed);
        let frames = self.current_frames.fetch_add(1, Ordering::Relaxed) + 1;
        if finished {
            self.plans.fetch_add(1, Ordering::Relaxed);
            self.plan_frames_max.fetch_max(frames, Ordering::Relaxed);
            self.current_frames.store(0, Ordering::Relaxed);
        }
    }
}

/// The plans so far (see [`PlanTimes`]).
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub fn plan_times() -> PlanTimes {
    let t = &PLAN_TIMES;
    PlanTimes {
        plans: t.plans.load(Ordering::Relaxed),
        total_us: t.total_us.load(Ordering::Relaxed),
        frame_max_us: t.frame_max_us.load(Ordering::Relaxed),
        frames: t.frames.load(Ordering::Relaxed),
        plan_frames_max: t.plan_frames_max.load(Ordering::Relaxed),
    }
}

/// A position sent to the worker.
struct Request {
    id: u64,
    player: Player,
    rules: Rules,
    frame: u32,
}

/// What plans on the worker thread: our own bot, or an outside bot over TBP.
trait Thinker {
    /// Ranked placements for `player`'s position, or why there are none.
    fn think(&mut self, player: &Player, rules: &Rules, frame: u32) -> Result<Thought, String>;
}

impl Thinker for Bot {
    fn think(&mut self, player: &Player, rules: &Rules, frame: u32) -> Result<Thought, String> {
        Ok(Bot::think(self, player, rules, frame))
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl Thinker for TbpThinker {
    fn think(&mut self, player: &Player, rules: &Rules, _frame: u32) -> Result<Thought, String> {
        TbpThinker::think(self, player, rules).map_err(|e| format!("{}: {e}", self.name()))
    }
}

/// An outside bot in a browser: a page cannot start programs, so the seat presses nothing and
/// says why.
#[cfg(target_arch = "wasm32")]
struct NoOutsideBots(String);

#[cfg(target_arch = "wasm32")]
impl AutoPlayer for NoOutsideBots {
    fn next_input(&mut self, _m: &Match, _seat: Seat) -> Input {
        Input::NONE
    }
    fn failure(&self) -> Option<String> {
        Some(format!(
            "{}: outside bots are programs on your computer; the browser game cannot start them.",
            self.0
        ))
    }
}

/// Longest wait for a TBP bot's suggestion (past its think time) before it has failed.
#[cfg(not(target_arch = "wasm32"))]
const TBP_MOVE_LIMIT: std::time::Duration = std::time::Duration::from_secs(5);

/// What the worker sends back.
enum Answer {
    /// The thought about request `id`.
    Thought(u64, Box<Thought>),
    /// The thinker failed for good, with why.
    Failed(String),
}

/// The planning thread and the render thread's end of its channels.
struct Worker {
    requests: Sender<Request>,
    answers: Receiver<Answer>,
    thread: Option<JoinHandle<()>>,
    /// The last request sent and not yet used: its id and position.
    asked: Option<(u64, PositionKey)>,
    next_id: u64,
    /// Block for each answer (tests).
    wait: bool,
    stale: u64,
    /// Plan on the render thread if the worker dies (our own bot; an outside bot just stops).
    inline_fallback: bool,
    /// Why the thinker failed, once it has.
    failure: Option<String>,
}

impl Worker {
    /// Starts the thread named `name`, which makes its thinker with `make`; `None` if the system
    /// refuses a thread.
    fn start<T: Thinker + 'static>(
        name: String,
        inline_fallback: bool,
        make: impl FnOnce() -> Result<T, String> + Send + 'static,
    ) -> Option<Worker> {
        let (requests, inbox) = mpsc::channel::<Request>();
        let (outbox, answers) = mpsc::channel();
        let thread = std::thread::Builder::new().name(name).spawn(move || {
            let mut thinker = match make() {
                Ok(thinker) => thinker,
                Err(why) => {
                    let _ = outbox.send(Answer::Failed(why));
                    return;
                }
            };
            // Blocks until a request comes; ends when the player drops its sender.
            while let Ok(mut request) = inbox.recv() {
                // Only the newest position matters.
                while let Ok(newer) = inbox.try_recv() {
                    request = newer;
                }
                let answer = match thinker.think(&request.player, &request.rules, request.frame) {
                    Ok(thought) => Answer::Thought(request.id, Box::new(thought)),
                    Err(why) => Answer::Failed(why),
                };
                let failed = matches!(answer, Answer::Failed(_));
                if outbox.send(answer).is_err() || failed {
                    break;
                }
            }
        });
        match thread {
            Ok(thread) => Some(Worker {
                requests,
                answers,
                thread: Some(thread),
                asked: None,
                next_id: 0,
                wait: false,
                stale: 0,
                inline_fallback,
                failure: None,
            }),
            Err(e) => {
                tracing::warn!("no bot planning thread ({e}); the bot plans inline");
                None
            }
        }
    }

    /// This frame's keys if the worker's answer for this position is here (it becomes `bot`'s
    /// plan); otherwise asks for it (once per position) and returns `None`.
    fn answer(
        &mut self,
        bot: &mut Bot,
        player: &Player,
        rules: &Rules,
        frame: u32,
    ) -> Option<Input> {
        let key = PositionKey::of(player);
        if self.asked.as_ref().is_some_and(|(_, asked)| *asked != key) {
            // The position changed before the answer came: it will be dropped.
            self.stale += 1;
            self.asked = None;
        }
        if self.asked.is_none() {
            let id = self.next_id;
            self.next_id += 1;
            let request = Request {
                id,
                player: *player,
                rules: *rules,
                frame,
            };
            if self.requests.send(request).is_err() {
                // The thread is gone: say why if it said, else (it panicked) think here.
                self.thread = None;
                if let Ok(Answer::Failed(why)) = self.answers.try_recv() {
                    self.failure = Some(why);
                    return None;
                }
                if !self.inline_fallback {
                    self.failure = Some("the bot's thread stopped".to_owned());
                    return None;
                }
                let thought = bot.think(player, rules, frame);
                return bot.adopt(player, rules, frame, &thought);
            }
            self.asked = Some((id, key));
        }
        let (id, _) = self.asked.as_ref()?;
        let id = *id;
        loop {
            let next = if self.wait {
                self.answers.recv().ok()
            } else {
                self.answers.try_recv().ok()
            };
            let (answered, thought) = match next? {
                Answer::Thought(answered, thought) => (answered, thought),
                Answer::Failed(why) => {
                    self.failure = Some(why);
                    return None;
                }
            };
            if answered == id {
                self.asked = None;
                let input = bot.adopt(player, rules, frame, &thought);
                if input.is_none() {
                    self.stale += 1;
                }
                return input;
            }
        }
    }
}

/// A random placer: for each piece it picks a rotation and aims at one of the lowest columns,
/// then taps the keys there and hard drops. It reads only the public views (active piece, column
/// heights) and presses keys like a person; the rules stay in `sevenbag-core`.
pub struct Stacker {
    rng: u64,
    /// Frames between key taps.
    pace: u32,
    plan: Option<Plan>,
    wait: u32,
    last: Input,
}

#[derive(Clone, Copy, Debug)]
struct Plan {
    /// Which piece the plan is for: (pieces locked so far, kind, hold used).
    key: (u32, u8, bool),
    turns: u8,
    target_x: i8,
    /// Last x seen, to notice a move that hit something.
    last_x: i8,
    stuck: u8,
}

impl Stacker {
    /// A stacker whose choices come from `seed`, tapping a key every `pace` frames.
    pub fn new(seed: u64, pace: u32) -> Stacker {
        Stacker {
            rng: seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1,
            pace: pace.max(2),
            plan: None,
            wait: 0,
            last: Input::NONE,
        }
    }

    fn next_u32(&mut self) -> u32 {
        // xorshift64*: plenty for choosing columns.
        self.rng ^= self.rng >> 12;
        self.rng ^= self.rng << 25;
        self.rng ^= self.rng >> 27;
        (self.rng.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 32) as u32
    }

    fn below(&mut self, n: u32) -> u32 {
        self.next_u32() % n.max(1)
    }
}

impl AutoPlayer for Stacker {
    fn resync(&mut self) {
        self.plan = None;
        self.wait = 0;
        self.last = Input::NONE;
    }

    fn next_input(&mut self, m: &Match, seat: Seat) -> Input {
        let p = m.player(seat);
        let out = match (m.phase(), p.active()) {
            (Phase::Playing, Some(piece)) => {
                let key = (p.stats().pieces, piece.kind.index() as u8, p.hold_used());
                if self.plan.is_none_or(|plan| plan.key != key) {
                    let board = p.board();
                    let lowest = (0..10).map(|x| board.column_height(x)).min().unwrap_or(0);
                    let low: Vec<i8> = (0..10)
                        .filter(|&x| board.column_height(x) <= lowest + 1)
                        .collect();
                    let target_x = low[self.below(low.len() as u32) as usize];
                    self.plan = Some(Plan {
                        key,
                        turns: self.below(4) as u8,
                        target_x,
                        last_x: piece.x,
                        stuck: 0,
                    });
                    self.wait = self.pace;
                }
                if self.wait > 0 || !self.last.is_empty() {
                    // Think, or release the key tapped last frame so the next tap is a new press.
                    self.wait = self.wait.saturating_sub(1);
                    Input::NONE
                } else if let Some(plan) = &mut self.plan {
                    self.wait = self.pace / 2;
                    if plan.turns > 0 {
                        plan.turns -= 1;
                        Input::ROTATE_CW
                    } else if piece.x != plan.target_x && plan.stuck < 2 {
                        if piece.x == plan.last_x {
                            plan.stuck += 1;
                        }
                        plan.last_x = piece.x;
                        if piece.x < plan.target_x {
                            Input::RIGHT
                        } else {
                            Input::LEFT
                        }
                    } else {
                        Input::HARD_DROP
                    }
                } else {
                    Input::NONE
                }
            }
            _ => {
                self.plan = None;
                Input::NONE
            }
        };
        self.last = out;
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sevenbag_core::MatchHeader;

    #[test]
    fn two_stackers_fill_both_boards() {
        let mut m = Match::new(MatchHeader::versus(7));
        let mut a = Stacker::new(1, 6);
        let mut b = Stacker::new(2, 6);
        for _ in 0..900 {
            let inputs = [
                a.next_input(&m, Seat::First),
                b.next_input(&m, Seat::Second),
            ];
            m.step(inputs);
        }
        for seat in Seat::BOTH {
            assert!(
                m.player(seat).stats().pieces >= 15,
                "{seat:?} placed only {}",
                m.player(seat).stats().pieces
            );
        }
    }

    /// Steps `m` with `bot` on the first seat and a stacker tapping every `pace` frames on the
    /// second until a round ends or `frames` have run, sleeping `pause` per frame; returns the
    /// bot's inputs.
    fn bot_vs_stacker(
        m: &mut Match,
        bot: &mut BotPlayer,
        frames: u32,
        pace: u32,
        pause: std::time::Duration,
    ) -> Vec<Input> {
        let mut stacker = Stacker::new(3, pace);
        let mut played = Vec::new();
        for _ in 0..frames {
            if matches!(m.phase(), Phase::RoundOver { .. } | Phase::MatchOver { .. }) {
                break;
            }
            let inputs = [
                bot.next_input(m, Seat::First),
                stacker.next_input(m, Seat::Second),
            ];
            played.push(inputs[0]);
            m.step(inputs);
            if !pause.is_zero() {
                std::thread::sleep(pause);
            }
        }
        played
    }

    #[test]
    fn a_worker_bot_plays_a_practice_match_to_a_top_out() {
        let mut m = Match::new(MatchHeader::versus(11));
        let mut bot = BotPlayer::new(Level::Max, Planning::Worker);
        // A slow stacker: its own top-out must not end the round before a worker starved by a
        // loaded machine had time to play (the frames here run 16 times faster than the game's).
        let pause = std::time::Duration::from_millis(1);
        bot_vs_stacker(&mut m, &mut bot, 30_000, 20, pause);
        assert!(
            matches!(m.phase(), Phase::RoundOver { .. } | Phase::MatchOver { .. }),
            "no top-out: {:?}",
            m.phase()
        );
        assert!(m.player(Seat::First).stats().pieces >= 10);
        assert!(bot.stats().plans >= 10);
    }

    #[test]
    fn a_waited_for_worker_plays_exactly_like_the_inline_bot() {
        for level in [Level::Medium, Level::Max] {
            let mut inline = BotPlayer::new(level, Planning::Inline);
            let mut worker = BotPlayer::new(level, Planning::Worker).wait_for_plans(true);
            let mut a = Match::new(MatchHeader::versus(5));
            let mut b = Match::new(MatchHeader::versus(5));
            let zero = std::time::Duration::ZERO;
            let first = bot_vs_stacker(&mut a, &mut inline, 2_400, 6, zero);
            let second = bot_vs_stacker(&mut b, &mut worker, 2_400, 6, zero);
            assert_eq!(first, second, "{level:?}");
            assert_eq!(a.player(Seat::First), b.player(Seat::First), "{level:?}");
            let pieces = a.player(Seat::First).stats().pieces;
            assert!(pieces >= 10, "{level:?}: {pieces} pieces, {:?}", a.phase());
            assert_eq!(inline.stats().plans, worker.stats().plans, "{level:?}");
            assert_eq!(inline.stats().nodes, worker.stats().nodes, "{level:?}");
        }
    }

    /// The first `n` placements `bot` plans as it plays seat 1 of a match against the stacker.
    fn placements(bot: &mut BotPlayer, n: usize) -> Vec<sevenbag_bot::Placement> {
        let mut m = Match::new(MatchHeader::versus(5));
        let mut stacker = Stacker::new(3, 6);
        let mut planned = Vec::new();
        for _ in 0..20_000 {
            let inputs = [
                bot.next_input(&m, Seat::First),
                stacker.next_input(&m, Seat::Second),
            ];
            let plan = bot.bot.planned();
            if plan.is_some() && plan != planned.last().copied() {
                planned.extend(plan);
            }
            if planned.len() == n || m.player(Seat::First).topped_out().is_some() {
                break;
            }
            m.step(inputs);
        }
        planned
    }

    #[test]
    fn a_bot_thinking_one_slice_a_frame_plans_the_inline_bots_placements() {
        // No time share: one slice of search a frame, so each plan takes several frames.
        let mut inline = BotPlayer::new(Level::Medium, Planning::Inline);
        let mut sliced = BotPlayer::new(Level::Medium, Planning::Sliced(std::time::Duration::ZERO));
        let before = plan_times();
        let first = placements(&mut inline, 12);
        let second = placements(&mut sliced, 12);
        assert_eq!(first.len(), 12);
        assert_eq!(first, second);
        let after = plan_times();
        assert!(
            after.frames - before.frames > 2 * (after.plans - before.plans),
            "{before:?} {after:?}"
        );
    }

    #[test]
    fn dropping_the_player_ends_its_thread() {
        let mut m = Match::new(MatchHeader::versus(2));
        let mut bot = BotPlayer::new(Level::Max, Planning::Worker);
        // Leave a request in flight.
        bot_vs_stacker(&mut m, &mut bot, 200, 6, std::time::Duration::ZERO);
        let thread = bot.take_thread().expect("a worker thread");
        drop(bot);
        let started = sevenbag_netplay::time::Instant::now();
        while !thread.is_finished() {
            assert!(
                started.elapsed() < std::time::Duration::from_secs(5),
                "the planning thread outlived its player"
            );
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        thread.join().expect("the planning thread panicked");
    }

    /// The render-thread cost of the bot: time spent in `next_input` per frame for Max, inline
    /// and on the worker, in a practice match against the stacker at 60 frames a second of real
    /// time (new rounds start when one ends). Prints p50/p99/max; the figures in BENCHMARKS.md.
    /// `cargo test --release -p sevenbag -- --ignored --nocapture render_thread_bot_time`
    /// (SEVENBAG_BENCH_FRAMES sets the frames per run, 3600 by default).
    #[test]
    #[ignore = "a measurement: runs about two minutes of real time"]
    fn render_thread_bot_time() {
        use sevenbag_netplay::time::Instant;
        use std::time::Duration;
        let frames: u32 = std::env::var("SEVENBAG_BENCH_FRAMES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(3600);
        let sliced = Planning::Sliced(PAGE_THINK_SHARE);
        for planning in [Planning::Inline, Planning::Worker, sliced] {
            let mut bot = BotPlayer::new(Level::Max, planning);
            let mut stacker = Stacker::new(3, 6);
            let mut seed = 1;
            let mut m = Match::new(MatchHeader::versus(seed));
            let mut times = Vec::with_capacity(frames as usize);
            let mut pieces = 0;
            let step = Duration::from_secs_f64(1.0 / 60.0);
            let mut next_frame = Instant::now();
            for _ in 0..frames {
                if matches!(m.phase(), Phase::RoundOver { .. } | Phase::MatchOver { .. }) {
                    pieces += m.player(Seat::First).stats().pieces;
                    seed += 1;
                    m = Match::new(MatchHeader::versus(seed));
                }
                let started = Instant::now();
                let input = bot.next_input(&m, Seat::First);
                times.push(started.elapsed());
                let other = stacker.next_input(&m, Seat::Second);
                m.step([input, other]);
                next_frame += step;
                if let Some(left) = next_frame.checked_duration_since(Instant::now()) {
                    std::thread::sleep(left);
                }
            }
            pieces += m.player(Seat::First).stats().pieces;
            times.sort_unstable();
            let us = |d: Duration| d.as_secs_f64() * 1e6;
            let pick = |q: usize| us(times[(times.len() * q / 100).min(times.len() - 1)]);
            println!(
                "{planning:?}: {frames} frames, bot pieces {pieces}, plans {}, stale answers {}; \
                 next_input p50 {:.1} µs, p99 {:.1} µs, p99.9 {:.1} µs, max {:.1} µs",
                bot.stats().plans,
                bot.stale_answers(),
                pick(50),
                pick(99),
                us(times[(times.len() * 999 / 1000).min(times.len() - 1)]),
                us(*times.last().expect("frames")),
            );
        }
    }

    #[test]
    fn labels() {
        assert_eq!(Opponent::Bot(Level::Medium).label(), "Bot · Medium");
        assert_eq!(Opponent::all(&[]).len(), 6);
    }

    fn outside(command: &str) -> OutsideBot {
        OutsideBot {
            name: "Cold Clear 2".into(),
            command: command.into(),
            think_ms: 0,
            pps: 2.0,
        }
    }

    #[test]
    fn outside_bots_follow_ours_in_the_list_by_their_names() {
        let all = Opponent::all(&[outside("cold-clear-2")]);
        assert_eq!(all.len(), 7);
        assert_eq!(all[6].key(), "tbp:Cold Clear 2");
        assert_eq!(all[6].label(), "Cold Clear 2");
    }

    #[test]
    fn an_outside_bot_that_cannot_start_says_why_and_presses_nothing() {
        let mut player = Opponent::Outside(outside("/nonexistent/no-such-tbp-bot")).player(1);
        let mut m = Match::new(MatchHeader::versus(1));
        let deadline = sevenbag_netplay::time::Instant::now() + std::time::Duration::from_secs(10);
        while player.failure().is_none() && sevenbag_netplay::time::Instant::now() < deadline {
            let keys = player.next_input(&m, Seat::Second);
            assert_eq!(keys, Input::NONE);
            m.step([Input::NONE, keys]);
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        let why = player.failure().expect("the failure is reported");
        assert!(why.contains("no-such-tbp-bot"), "{why}");
    }

    #[test]
    fn an_outside_bots_entry_is_checked() {
        assert!(outside("cc2").validate().is_ok());
        assert!(outside(" ").validate().is_err());
        let fast = OutsideBot {
            pps: 100.0,
            ..outside("cc2")
        };
        assert!(fast.validate().unwrap_err().contains("pps"));
    }
}
