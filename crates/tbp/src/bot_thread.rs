//! Our bot as one side of a fair match against an outside bot: its thinking runs on a thread of
//! its own, which can be pinned to a core ([`crate::cpu`]) and whose CPU time is read from
//! `/proc`, and it is bounded like the outside bot's, by the wall-clock allowance a piece
//! ([`TbpLimits::think`]): a thought that takes longer costs the seat the overrun in frames
//! ([`TbpLimits::late_frames`]). Within the allowance it plays exactly like [`Bot::next_input`]
//! (the driver waits for each thought; see [`Bot::drive`] and [`Bot::adopt`]).

use std::io;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use sevenbag_bot::{Bot, BotStats, Drive, Driver, Thought};
use sevenbag_core::{Input, Match, Player, Rules, Seat};

use crate::cpu;
use crate::limits::{TbpLimits, ThinkTimes};

/// A position to think about.
struct Request {
    player: Player,
    rules: Rules,
    frame: u32,
}

/// Our bot, thinking on a thread of its own.
#[derive(Debug)]
pub struct ThreadedBot {
    /// The driver: compiles and plays the thoughts.
    bot: Bot,
    limits: TbpLimits,
    requests: Option<Sender<Request>>,
    answers: Receiver<Thought>,
    thread: Option<JoinHandle<()>>,
    /// The thinking thread's id, for its CPU time.
    tid: Option<u32>,
    /// A thought that came late, and the frame from which it is played.
    pending: Option<(Thought, u32)>,
    times: ThinkTimes,
    failure: Option<String>,
}

impl ThreadedBot {
    /// Starts the thinking thread with a copy of `bot` (the same level and settings), pinned to
    /// core `cpu` when given. Fails if the thread cannot start or be pinned.
    pub fn new(bot: Bot, limits: TbpLimits, cpu: Option<usize>) -> io::Result<ThreadedBot> {
        let (requests, inbox) = channel::<Request>();
        let (outbox, answers) = channel();
        let (started_tx, started) = channel();
        let mut thinker = bot.clone();
        let thread = std::thread::Builder::new()
            .name("bot-thinker".into())
            .spawn(move || {
                let pinned = cpu.map_or(Ok(()), cpu::pin_current_thread);
                let failed = pinned.is_err();
                if started_tx.send((cpu::current_tid(), pinned)).is_err() || failed {
                    return;
                }
                while let Ok(r) = inbox.recv() {
                    let thought = thinker.think(&r.player, &r.rules, r.frame);
                    if outbox.send(thought).is_err() {
                        return;
                    }
                }
            })?;
        let (tid, pinned) = started
            .recv()
            .map_err(|_| io::Error::other("the thinking thread ended at once"))?;
        pinned?;
        Ok(ThreadedBot {
            bot,
            limits,
            requests: Some(requests),
            answers,
            thread: Some(thread),
            tid,
            pending: None,
            times: ThinkTimes::default(),
            failure: None,
        })
    }

    /// The driver's counters (plans, replans, nodes...).
    pub fn stats(&self) -> &BotStats {
        self.bot.stats()
    }

    /// The wall-clock time each thought took, from asking to the answer.
    pub fn times(&self) -> &ThinkTimes {
        &self.times
    }

    /// The CPU time the thinking thread used so far.
    pub fn cpu(&self) -> Option<Duration> {
        cpu::thread_cpu(self.tid?)
    }

    /// The thinking thread's id.
    pub fn tid(&self) -> Option<u32> {
        self.tid
    }

    /// Asks the thinking thread about `player` and waits for the answer.
    fn ask(&mut self, player: &Player, rules: &Rules, frame: u32) -> Option<Thought> {
        let request = Request {
            player: *player,
            rules: *rules,
            frame,
        };
        let sent = self.requests.as_ref()?.send(request);
        match sent.ok().and_then(|()| self.answers.recv().ok()) {
            Some(t) => Some(t),
            None => {
                self.failure = Some("our bot's thinking thread stopped".into());
                None
            }
        }
    }
}

impl Driver for ThreadedBot {
    fn next_input(&mut self, m: &Match, seat: Seat) -> Input {
        if self.failure.is_some() {
            return Input::NONE;
        }
        let frame = m.frame().0;
        let player = m.player(seat);
        let rules = &m.header().rules;
        if let Some((thought, from)) = self.pending.take() {
            if player.active().is_some() && frame < from {
                self.pending = Some((thought, from));
                return Input::NONE;
            }
            if let Some(keys) = self.bot.adopt(player, rules, frame, &thought) {
                return keys;
            }
            // The piece locked meanwhile: drive on.
        }
        match self.bot.drive(m, seat) {
            Drive::Input(keys) => keys,
            Drive::Think => {
                let asked = Instant::now();
                let Some(thought) = self.ask(player, rules, frame) else {
                    return Input::NONE;
                };
                let took = asked.elapsed();
                let late = self.limits.late_frames(took);
                self.times.record(took, late);
                if late > 0 {
                    self.pending = Some((thought, frame.saturating_add(late)));
                    return Input::NONE;
                }
                self.bot
                    .adopt(player, rules, frame, &thought)
                    .unwrap_or(Input::NONE)
            }
        }
    }

    fn failure(&self) -> Option<String> {
        self.failure.clone()
    }
}

impl Drop for ThreadedBot {
    /// Ends the thinking thread (it finishes the thought in hand first).
    fn drop(&mut self) {
        self.requests = None;
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sevenbag_bot::{BOT_HANDLING, Level, play_game};
    use sevenbag_core::MatchHeader;

    fn header(seed: u64) -> MatchHeader {
        MatchHeader {
            handling: [BOT_HANDLING; 2],
            ..MatchHeader::versus(seed)
        }
    }

    fn limits(think: Duration) -> TbpLimits {
        TbpLimits {
            think,
            move_limit: Duration::from_secs(5),
            pps_cap_x100: Some(250),
        }
    }

    #[test]
    fn within_its_allowance_it_plays_exactly_like_the_inline_bot() {
        let level = Level::Medium;
        let mut inline = Bot::new(level);
        let mut opponent = Bot::el_tetris(Some(250));
        let expected = play_game(&mut inline, &mut opponent, header(4), 40);
        let mut threaded =
            ThreadedBot::new(Bot::new(level), limits(Duration::from_secs(60)), None).unwrap();
        let mut opponent = Bot::el_tetris(Some(250));
        let got = play_game(&mut threaded, &mut opponent, header(4), 40);
        assert_eq!(got, expected);
        assert_eq!(threaded.failure(), None);
        assert_eq!(threaded.times().late, 0);
        // A thought per piece placed, and one for the piece in play at the end.
        let thoughts = threaded.times().pieces;
        assert!(thoughts >= u64::from(got.pieces[0]), "{thoughts} {got:?}");
        #[cfg(target_os = "linux")]
        assert!(threaded.cpu().is_some());
    }

    #[test]
    fn thinking_past_the_allowance_costs_frames_but_the_game_goes_on() {
        let mut threaded = ThreadedBot::new(Bot::new(Level::Max), limits(Duration::ZERO), None)
            .expect("thread starts");
        let mut opponent = Bot::el_tetris(Some(250));
        let report = play_game(&mut threaded, &mut opponent, header(2), 20);
        assert_eq!(threaded.failure(), None);
        assert!(report.pieces[0] >= 20, "{report:?}");
        // With no allowance every thought of a frame or more (the first-bag opener's first
        // decision, a perfect-clear search) was charged, and played when its frames were up.
        let t = threaded.times();
        assert_eq!(t.late > 0, t.max >= Duration::from_micros(16_667), "{t:?}");
        assert!(t.late_frames >= t.late, "{t:?}");
    }
}
