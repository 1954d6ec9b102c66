//! A TBP bot asked about one position at a time: the bot is told the game in TBP's standard
//! flow (`start` once, then `new_piece` for each piece that joined the queue; `stop` + `start`
//! when the game no longer matches its picture, as when garbage rose; [`crate::flow`]), or with
//! a fresh `start` every piece ([`Restart::EveryPiece`]). It thinks for the allotted time, its
//! suggestions that are legal here become a ranked [`Thought`], the same answer our own bot's
//! planner gives, and the first of them is sent back as `play`. [`crate::TbpPlayer`] plays the first at once; the
//! game asks on a worker thread and adopts the answer with [`sevenbag_bot::Bot::adopt`], so a bot
//! that thinks for half a second never holds up a frame.

use sevenbag_bot::{BitBoard, MoveGen, Placement, Thought, spawn_position};
use sevenbag_core::attack::Chain;
use sevenbag_core::{PieceKind, Player, Randomizer as CoreRandomizer, Rules};

use crate::convert::{board_to_tbp, combo_to_tbp, move_from_tbp, piece_to_tbp};
use crate::flow::{FlowCounts, Restart, Step, step};
use crate::frontend::{TbpError, TbpProcess};
use crate::game::TbpGame;
use crate::limits::TbpLimits;
use crate::messages::{FrontendMessage, Randomizer, Start, TbpMove};

/// A TBP bot process and what it needs to be told about a seat.
#[derive(Debug)]
pub struct TbpThinker {
    process: TbpProcess,
    limits: TbpLimits,
    /// Every piece seen in the queue, by index in the seat's sequence (for the bag state).
    seen: Vec<Option<PieceKind>>,
    restart: Restart,
    /// The game as the bot knows it after the last `play` (`None` before the first `start`).
    picture: Option<TbpGame>,
    /// Whether a `start` was sent (a lost picture then means a restart).
    started: bool,
    /// Garbage lines risen on the seat's board when the bot was last told about it.
    garbage_seen: u32,
    counts: FlowCounts,
    movegen: MoveGen,
}

impl TbpThinker {
    /// Wraps a started bot, told the game in the standard flow ([`Restart::OnMismatch`]).
    pub fn new(process: TbpProcess, limits: TbpLimits) -> TbpThinker {
        TbpThinker {
            process,
            limits,
            seen: Vec::new(),
            restart: Restart::OnMismatch,
            picture: None,
            started: false,
            garbage_seen: 0,
            counts: FlowCounts::default(),
            movegen: MoveGen::new(),
        }
    }

    /// Restarts the bot as `restart` says.
    pub fn with_restart(mut self, restart: Restart) -> TbpThinker {
        self.restart = restart;
        self
    }

    /// When the bot is restarted.
    pub fn restart(&self) -> Restart {
        self.restart
    }

    /// The messages sent so far, counted.
    pub fn counts(&self) -> &FlowCounts {
        &self.counts
    }

    /// The bot process (for its id, to read its CPU time or pin it to a core).
    pub fn process(&self) -> &TbpProcess {
        &self.process
    }

    /// The bot's name from its `info`.
    pub fn name(&self) -> &str {
        &self.process.name
    }

    /// The limits it plays under.
    pub fn limits(&self) -> &TbpLimits {
        &self.limits
    }

    /// Asks the bot about `player`'s position and waits for its answer (the think time, then at
    /// most the move limit). The bot is told it played the first legal suggestion. An answer
    /// with no legal suggestion is the bot's error.
    pub fn think(&mut self, player: &Player, rules: &Rules) -> Result<Thought, TbpError> {
        self.tell(player, rules)?;
        std::thread::sleep(self.limits.think);
        let moves = self.process.suggest(self.limits.move_limit)?;
        let legal = self.legal_placements(player, rules);
        let mut ranked = Vec::new();
        let mut first = None;
        for mv in &moves {
            if let Some(p) = match_move(mv, &legal)
                && !ranked.contains(&p)
            {
                first.get_or_insert(*mv);
                ranked.push(p);
            }
        }
        let Some(mv) = first else {
            return Err(TbpError::IllegalMove(format!(
                "none of {} suggested moves can be reached here (first: {:?})",
                moves.len(),
                moves.first()
            )));
        };
        self.process.send(&FrontendMessage::Play { mv })?;
        self.counts.plays += 1;
        if let Some(picture) = &mut self.picture
            && picture.play(&mv).is_err()
        {
            // Cannot happen for a legal placement; if it did, the next piece restarts the bot.
            self.picture = None;
        }
        Ok(Thought::from_placements(player, ranked))
    }

    /// Brings the bot's picture up to `player`'s game: the first `start`, `new_piece` for the
    /// pieces that joined the queue, or `stop` + `start` (see [`crate::flow`]).
    fn tell(&mut self, player: &Player, rules: &Rules) -> Result<(), TbpError> {
        let start = self.start_message(player, rules);
        let now = TbpGame::from_start(&start).ok();
        let garbage = player.stats().garbage_received;
        let rose = garbage != self.garbage_seen;
        self.garbage_seen = garbage;
        let next = match (&now, self.started) {
            (Some(now), _) => step(self.picture.as_ref(), now, rose, self.restart),
            // Our own start always reads back; restart if it somehow did not.
            (None, false) => Step::Start,
            (None, true) => Step::Restart(None),
        };
        let next = match next {
            // The picture was lost after a start: that is a restart, not a first start.
            Step::Start if self.started => Step::Restart(Some(crate::flow::Mismatch::Board)),
            s => s,
        };
        self.counts.record(&next);
        match &next {
            Step::Continue(pieces) => {
                for &piece in pieces {
                    self.process.send(&FrontendMessage::NewPiece {
                        piece: piece_to_tbp(piece),
                    })?;
                    if let Some(p) = &mut self.picture {
                        p.new_piece(piece);
                    }
                }
            }
            Step::Start | Step::Restart(_) => {
                if self.started {
                    self.process.send(&FrontendMessage::Stop)?;
                }
                self.process.send(&FrontendMessage::Start(start))?;
                self.started = true;
                self.picture = now;
            }
        }
        Ok(())
    }

    fn start_message(&mut self, player: &Player, rules: &Rules) -> Start {
        let active = player.active().map(|p| p.kind);
        let mut queue: Vec<PieceKind> = active.into_iter().collect();
        queue.extend(player.next());
        let index = player.stats().pieces as usize + usize::from(player.hold().is_some());
        if index == 0 {
            self.seen.clear();
        }
        if self.seen.len() < index + queue.len() {
            self.seen.resize(index + queue.len(), None);
        }
        for (i, &k) in queue.iter().enumerate() {
            self.seen[index + i] = Some(k);
        }
        // The pieces left in the bag of the last known piece, when the whole bag so far is known.
        let randomizer = (rules.randomizer == CoreRandomizer::SevenBag)
            .then(|| {
                let last = index + queue.len() - 1;
                let bag = &self.seen[last / 7 * 7..=last];
                bag.iter().all(Option::is_some).then(|| {
                    let left = PieceKind::ALL
                        .into_iter()
                        .filter(|k| !bag.contains(&Some(*k)))
                        .map(piece_to_tbp)
                        .collect::<Vec<_>>();
                    // A full bag is announced as all seven.
                    let left = if left.is_empty() {
                        PieceKind::ALL.into_iter().map(piece_to_tbp).collect()
                    } else {
                        left
                    };
                    Randomizer::seven_bag(left)
                })
            })
            .flatten();
        let chain = Chain {
            combo: player.combo(),
            b2b: player.b2b(),
        };
        Start {
            board: board_to_tbp(player.board()),
            queue: queue.into_iter().map(piece_to_tbp).collect(),
            hold: player.hold().map(piece_to_tbp),
            combo: combo_to_tbp(&chain),
            back_to_back: chain.b2b > 0,
            randomizer,
        }
    }

    /// Every placement of the current piece and of the hold option, from spawn, under SRS.
    fn legal_placements(&mut self, player: &Player, rules: &Rules) -> Vec<Placement> {
        let board = BitBoard::from_board(player.board());
        let mut out = Vec::new();
        if let Some(active) = player.active() {
            self.movegen
                .generate(&board, active, rules.allow_180, false, &mut out);
        }
        if !player.hold_used() {
            let swap = player.hold().unwrap_or(player.next()[0]);
            if let Some(start) = spawn_position(&board, swap) {
                self.movegen
                    .generate(&board, start, rules.allow_180, true, &mut out);
            }
        }
        out
    }
}

/// The legal placement filling the cells of `mv` with its piece (the spin as our rules judge
/// it: a bot that disagrees about a spin still places the piece where it asked).
fn match_move(mv: &TbpMove, legal: &[Placement]) -> Option<Placement> {
    let (piece, _spin) = move_from_tbp(mv)?;
    let key = sevenbag_bot::movegen::cells_key(&piece);
    legal
        .iter()
        .filter(|p| p.piece.kind == piece.kind && p.key() == key)
        .max_by_key(|p| p.spin as u8)
        .copied()
}
