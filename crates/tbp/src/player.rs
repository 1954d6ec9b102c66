//! A TBP bot playing a seat of a Sevenbag match: on each spawn the game state goes to the bot
//! (`stop` + `start`, so garbage and anything else the bot did not predict is always in it), the
//! bot thinks for the allotted time, and its first legal suggestion is turned into key masks by
//! our own move generation and input compiler, then played through the core like anyone's keys.

use std::time::Duration;

use sevenbag_bot::{BitBoard, spawn_position};
use sevenbag_bot::{CompileOptions, Driver, MoveGen, Placement, PlayerSim, Target, compile};
use sevenbag_core::attack::Chain;
use sevenbag_core::{
    Input, Match, Phase, PieceKind, Player, Randomizer as CoreRandomizer, Rules, Seat,
};

use crate::convert::{board_to_tbp, combo_to_tbp, move_from_tbp, piece_to_tbp};
use crate::frontend::{TbpError, TbpProcess};
use crate::messages::{FrontendMessage, Randomizer, Start, TbpMove};

/// How long the bot may think, and how fast it may play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TbpLimits {
    /// Wall-clock thinking time before the first `suggest` of each piece.
    pub think: Duration,
    /// Longest wait for a non-empty suggestion after that; past it the bot has failed.
    pub move_limit: Duration,
    /// Pieces-per-second cap ×100 in game time (`None`: as fast as the inputs allow).
    pub pps_cap_x100: Option<u32>,
}

/// A TBP bot as a [`Driver`] for [`sevenbag_bot::play_game`].
#[derive(Debug)]
pub struct TbpPlayer {
    process: TbpProcess,
    limits: TbpLimits,
    plan: Option<(u32, Vec<Input>)>,
    spawn_frame: Option<u32>,
    /// Every piece seen in the queue, by index in the seat's sequence (for the bag state).
    seen: Vec<Option<PieceKind>>,
    started: bool,
    movegen: MoveGen,
    error: Option<TbpError>,
    /// Pieces the bot placed.
    pub moves: u64,
}

impl TbpPlayer {
    /// Wraps a started bot.
    pub fn new(process: TbpProcess, limits: TbpLimits) -> TbpPlayer {
        TbpPlayer {
            process,
            limits,
            plan: None,
            spawn_frame: None,
            seen: Vec::new(),
            started: false,
            movegen: MoveGen::new(),
            error: None,
            moves: 0,
        }
    }

    /// The bot's name from its `info`.
    pub fn name(&self) -> &str {
        &self.process.name
    }

    /// Why the bot stopped playing, if it did.
    pub fn error(&self) -> Option<&TbpError> {
        self.error.as_ref()
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
            self.spawn_frame = Some(frame);
            return Input::NONE;
        }
        match self.make_plan(player, rules, frame) {
            Ok(inputs) => {
                let first = inputs.first().copied().unwrap_or(Input::NONE);
                self.plan = Some((frame, inputs));
                self.moves += 1;
                first
            }
            Err(e) => {
                self.error = Some(e);
                self.plan = None;
                Input::NONE
            }
        }
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

    fn make_plan(
        &mut self,
        player: &Player,
        rules: &Rules,
        frame: u32,
    ) -> Result<Vec<Input>, TbpError> {
        let start = self.start_message(player, rules);
        if self.started {
            self.process.send(&FrontendMessage::Stop)?;
        }
        self.process.send(&FrontendMessage::Start(start))?;
        self.started = true;
        std::thread::sleep(self.limits.think);
        let moves = self.process.suggest(self.limits.move_limit)?;
        let sim = PlayerSim::new(player, rules, frame);
        let legal = self.legal_placements(player, rules);
        let mut chosen = None;
        for mv in &moves {
            if let Some(p) = match_move(mv, &legal) {
                chosen = Some(p);
                break;
            }
        }
        let placement = chosen.ok_or_else(|| {
            TbpError::IllegalMove(format!(
                "none of {} suggested moves can be reached here (first: {:?})",
                moves.len(),
                moves.first()
            ))
        })?;
        self.process.send(&FrontendMessage::Play {
            mv: moves
                .iter()
                .copied()
                .find(|m| match_move(m, &[placement]).is_some())
                .unwrap_or(moves[0]),
        })?;
        let target = Target::from(&placement);
        let mut inputs = compile(&sim, &target, CompileOptions::default()).ok_or_else(|| {
            TbpError::IllegalMove(format!(
                "{placement:?} cannot be reached with this handling"
            ))
        })?;
        // Pace to the speed cap in game time.
        let since_spawn = self.spawn_frame.map_or(0, |f| frame.saturating_sub(f));
        let min_frames = match self.limits.pps_cap_x100 {
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
        Some(self.process.name.clone())
    }
}
