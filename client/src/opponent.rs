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

use std::sync::mpsc::{self, Receiver, Sender};
use std::thread::JoinHandle;

use sevenbag_bot::{Bot, Drive, Level, PositionKey, Thought};
use sevenbag_core::{Input, Match, Phase, Player, Rules, Seat};

/// Something that presses keys for one seat.
pub trait AutoPlayer {
    /// The keys to hold on the next simulated frame of `m` for `seat` (called once per frame).
    fn next_input(&mut self, m: &Match, seat: Seat) -> Input;

    /// The match jumped to another position (a practice undo or redo): forget any plan and
    /// answer still on its way, and plan afresh from the next position seen.
    fn resync(&mut self) {}
}

/// The opponent choices offered to the player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opponent {
    /// The random stacker: places pieces anywhere, at a steady pace.
    Stacker,
    /// The real bot at a difficulty level.
    Bot(Level),
}

impl Opponent {
    /// Every choice, in the order the setup screen cycles them.
    pub fn all() -> Vec<Opponent> {
        let mut v = vec![Opponent::Stacker];
        v.extend(Level::ALL.into_iter().map(Opponent::Bot));
        v
    }

    /// Its name in the settings file: "stacker" or the bot level's name.
    pub fn key(self) -> &'static str {
        match self {
            Opponent::Stacker => "stacker",
            Opponent::Bot(level) => level.name(),
        }
    }

    /// Its name on screen.
    pub fn label(self) -> String {
        match self {
            Opponent::Stacker => "Random stacker".to_owned(),
            Opponent::Bot(level) => {
                let name = level.name();
                let mut c = name.chars();
                let first = c.next().map(|f| f.to_ascii_uppercase()).unwrap_or(' ');
                format!("Bot · {first}{}", c.as_str())
            }
        }
    }

    /// A fresh player of this kind (`seed` varies the stacker's choices); a bot plans on a
    /// worker thread.
    pub fn player(self, seed: u64) -> Box<dyn AutoPlayer> {
        self.player_with(seed, Planning::Worker)
    }

    /// Same, choosing where a bot plans.
    pub fn player_with(self, seed: u64, planning: Planning) -> Box<dyn AutoPlayer> {
        match self {
            Opponent::Stacker => Box::new(Stacker::new(seed, 9)),
            Opponent::Bot(level) => Box::new(BotPlayer::new(level, planning)),
        }
    }
}

/// Where a bot's plans are made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Planning {
    /// In `next_input`, on the caller's thread: deterministic frame for frame (tests, headless
    /// tools).
    #[cfg_attr(not(test), allow(dead_code))]
    Inline,
    /// On a worker thread, so the caller's frame never waits for the search (the game).
    Worker,
}

/// `sevenbag_bot::Bot` behind the [`AutoPlayer`] seam, planning inline or on a worker thread.
pub struct BotPlayer {
    bot: Bot,
    bot_level: Level,
    worker: Option<Worker>,
}

impl BotPlayer {
    /// A bot at `level` planning as `planning` says (inline if the thread cannot be started).
    pub fn new(level: Level, planning: Planning) -> BotPlayer {
        let worker = match planning {
            Planning::Inline => None,
            Planning::Worker => Worker::start(level),
        };
        BotPlayer {
            // The driver half never searches; the worker's bot has the perfect-clear tables.
            bot: if worker.is_some() {
                Bot::new(level).with_perfect_clears(false)
            } else {
                Bot::new(level)
            },
            bot_level: level,
            worker,
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

    /// Takes the worker thread's handle (tests: to see it end once the player is dropped).
    #[cfg_attr(not(test), allow(dead_code))]
    pub fn take_thread(&mut self) -> Option<JoinHandle<()>> {
        self.worker.as_mut().and_then(|w| w.thread.take())
    }
}

impl AutoPlayer for BotPlayer {
    fn resync(&mut self) {
        // A fresh driver (its plan was for the old timeline); the worker's own bot keeps its
        // 7-bag knowledge, which stays true: the piece sequence is the same in any timeline.
        self.bot = if self.worker.is_some() {
            Bot::new(self.bot_level).with_perfect_clears(false)
        } else {
            Bot::new(self.bot_level)
        };
        if let Some(w) = &mut self.worker {
            // An answer still coming carries an old id: `answer` skips it.
            w.asked = None;
        }
    }

    fn next_input(&mut self, m: &Match, seat: Seat) -> Input {
        let Some(worker) = &mut self.worker else {
            return self.bot.next_input(m, seat);
        };
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

/// A position sent to the worker.
struct Request {
    id: u64,
    player: Player,
    rules: Rules,
    frame: u32,
}

/// The planning thread and the render thread's end of its channels.
struct Worker {
    requests: Sender<Request>,
    answers: Receiver<(u64, Thought)>,
    thread: Option<JoinHandle<()>>,
    /// The last request sent and not yet used: its id and position.
    asked: Option<(u64, PositionKey)>,
    next_id: u64,
    /// Block for each answer (tests).
    wait: bool,
    stale: u64,
}

impl Worker {
    /// Starts the thread; `None` if the system refuses one.
    fn start(level: Level) -> Option<Worker> {
        let (requests, inbox) = mpsc::channel::<Request>();
        let (outbox, answers) = mpsc::channel();
        let thread = std::thread::Builder::new()
            .name(format!("bot-{}", level.name()))
            .spawn(move || {
                let mut bot = Bot::new(level);
                // Blocks until a request comes; ends when the player drops its sender.
                while let Ok(mut request) = inbox.recv() {
                    // Only the newest position matters.
                    while let Ok(newer) = inbox.try_recv() {
                        request = newer;
                    }
                    let thought = bot.think(&request.player, &request.rules, request.frame);
                    if outbox.send((request.id, thought)).is_err() {
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
                // The thread is gone (it panicked): think here from now on.
                self.thread = None;
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
            let (answered, thought) = next?;
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

    /// Steps `m` with `bot` on the first seat and a stacker on the second until a round ends or
    /// `frames` have run, sleeping `pause` per frame; returns the bot's inputs.
    fn bot_vs_stacker(
        m: &mut Match,
        bot: &mut BotPlayer,
        frames: u32,
        pause: std::time::Duration,
    ) -> Vec<Input> {
        let mut stacker = Stacker::new(3, 6);
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
        let pause = std::time::Duration::from_micros(500);
        bot_vs_stacker(&mut m, &mut bot, 30_000, pause);
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
            let first = bot_vs_stacker(&mut a, &mut inline, 2_400, zero);
            let second = bot_vs_stacker(&mut b, &mut worker, 2_400, zero);
            assert_eq!(first, second, "{level:?}");
            assert_eq!(a.player(Seat::First), b.player(Seat::First), "{level:?}");
            let pieces = a.player(Seat::First).stats().pieces;
            assert!(pieces >= 10, "{level:?}: {pieces} pieces, {:?}", a.phase());
            assert_eq!(inline.stats().plans, worker.stats().plans, "{level:?}");
            assert_eq!(inline.stats().nodes, worker.stats().nodes, "{level:?}");
        }
    }

    #[test]
    fn dropping_the_player_ends_its_thread() {
        let mut m = Match::new(MatchHeader::versus(2));
        let mut bot = BotPlayer::new(Level::Max, Planning::Worker);
        // Leave a request in flight.
        bot_vs_stacker(&mut m, &mut bot, 200, std::time::Duration::ZERO);
        let thread = bot.take_thread().expect("a worker thread");
        drop(bot);
        let started = std::time::Instant::now();
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
        use std::time::{Duration, Instant};
        let frames: u32 = std::env::var("SEVENBAG_BENCH_FRAMES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(3600);
        for planning in [Planning::Inline, Planning::Worker] {
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
        assert_eq!(Opponent::all().len(), 6);
    }
}
