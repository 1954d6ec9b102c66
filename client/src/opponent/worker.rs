//! Planning on a worker thread: the render thread sends positions and takes answers, so its
//! frame never waits for a search (docs/CLIENT.md, "Bot planning").

use std::sync::mpsc::{self, Receiver, Sender};
use std::thread::JoinHandle;

use sevenbag_bot::{Bot, PositionKey, Thought};
use sevenbag_core::{Input, Player, Rules};
#[cfg(not(target_arch = "wasm32"))]
use sevenbag_tbp::TbpThinker;

/// A position sent to the worker.
pub(super) struct Request {
    id: u64,
    player: Player,
    rules: Rules,
    frame: u32,
}

/// What plans on the worker thread: our own bot, or an outside bot over TBP.
pub(super) trait Thinker {
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

/// Longest wait for a TBP bot's suggestion (past its think time) before it has failed.
#[cfg(not(target_arch = "wasm32"))]
pub(super) const TBP_MOVE_LIMIT: std::time::Duration = std::time::Duration::from_secs(5);

/// What the worker sends back.
pub(super) enum Answer {
    /// The thought about request `id`.
    Thought(u64, Box<Thought>),
    /// The thinker failed for good, with why.
    Failed(String),
}

/// The planning thread and the render thread's end of its channels.
pub(super) struct Worker {
    requests: Sender<Request>,
    answers: Receiver<Answer>,
    pub(super) thread: Option<JoinHandle<()>>,
    /// The last request sent and not yet used: its id and position.
    pub(super) asked: Option<(u64, PositionKey)>,
    next_id: u64,
    /// Block for each answer (tests).
    pub(super) wait: bool,
    pub(super) stale: u64,
    /// Plan on the render thread if the worker dies (our own bot; an outside bot just stops).
    inline_fallback: bool,
    /// Why the thinker failed, once it has.
    pub(super) failure: Option<String>,
}

impl Worker {
    /// Starts the thread named `name`, which makes its thinker with `make`; `None` if the system
    /// refuses a thread.
    pub(super) fn start<T: Thinker + 'static>(
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
    pub(super) fn answer(
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
