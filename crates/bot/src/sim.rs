//! The frame-exact simulator of one piece's life, for turning plans into key masks.
//!
//! [`Sim`] is what the input compiler drives: it steps one frame with a key mask and reports a
//! lock. [`PlayerSim`] is its implementation: a copy of the core's own [`Player`], stepped by the
//! core, so it is exact by construction, hidden state included (DAS charge, gravity, lock
//! timer). The bot driver copies the real player of a match; tools and tests build one from
//! nothing but a board with [`PlayerSim::with_active`] or [`PlayerSim::before_spawn`], which use
//! the core's analysis hooks. The bot holds no copy of the rules' per-frame logic.

use sevenbag_core::{Board, Handling, Input, Piece, PieceKind, Player, Rules, Spin, StepContext};

/// What one simulated frame did to the piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Still falling (or waiting to spawn).
    Moving,
    /// The piece locked here with this spin.
    Locked(Piece, Spin),
    /// The player lost.
    ToppedOut,
}

/// A frame-exact model of the falling piece that the input compiler can drive.
pub trait Sim: Clone {
    /// The locked cells.
    fn board(&self) -> &Board;
    /// The falling piece, or `None` when the next frame spawns one.
    fn active(&self) -> Option<Piece>;
    /// The kind that spawns next frame when [`Sim::active`] is `None`.
    fn upcoming(&self) -> PieceKind;
    /// The kind a hold would bring in (after the spawn, if one is due), `None` if hold is used.
    fn hold_brings(&self) -> Option<PieceKind>;
    /// The keys held on the last frame.
    fn previous(&self) -> Input;
    /// The player's handling.
    fn handling(&self) -> Handling;
    /// Whether 180° rotation is on.
    fn allow_180(&self) -> bool;
    /// Simulates one frame.
    fn step(&mut self, input: Input) -> Step;
}

/// The core's own [`Player`], copied, with the match facts a step needs.
#[derive(Clone, Debug)]
pub struct PlayerSim {
    /// The copied player.
    pub player: Player,
    /// The room's rules.
    pub rules: Rules,
    /// The match frame about to be simulated.
    pub frame: u32,
    /// Frames of play so far this round (gravity rises with it).
    pub play_frame: u32,
}

impl PlayerSim {
    /// A simulator starting from `player` at match frame `frame`.
    pub fn new(player: &Player, rules: &Rules, frame: u32) -> PlayerSim {
        PlayerSim {
            player: *player,
            rules: *rules,
            frame,
            play_frame: player.stats().frames,
        }
    }

    /// A piece already in play at `piece` on `board`, as the core's [`Player::set_active`]
    /// leaves it (no key held before, nothing charged), at match and play frame 0. `hold` is
    /// what a hold would swap in: `Some(kind)` puts `kind` in the hold slot, usable; `None` means
    /// hold is used for this piece. The queue behind it is that of seed 0.
    pub fn with_active(
        board: &Board,
        piece: Piece,
        hold: Option<PieceKind>,
        rules: &Rules,
        handling: Handling,
    ) -> PlayerSim {
        let mut player = Player::new(rules, handling, 0, 0, 0);
        player.set_board(*board);
        player.set_active(piece);
        player.set_hold(hold);
        PlayerSim::new(&player, rules, 0)
    }

    /// No piece in play on `board`; the next step spawns `kind` (with IHS and IRS as the keys
    /// and handling say) after a frame where `previous` keys were held and no direction key
    /// had been charged, at match and play frame 0. `hold`: `Some(kind)` puts `kind` in the hold
    /// slot; `None` leaves the slot empty, so a hold (IHS included) would bring the next piece
    /// of seed 0's queue, as in the core ([`Sim::hold_brings`] reports which).
    pub fn before_spawn(
        board: &Board,
        kind: PieceKind,
        hold: Option<PieceKind>,
        rules: &Rules,
        handling: Handling,
        previous: Input,
    ) -> PlayerSim {
        let mut player = Player::new(rules, handling, 0, 0, 0);
        player.set_board(*board);
        player.set_hold(hold);
        player.set_spawn_next(kind, previous);
        PlayerSim::new(&player, rules, 0)
    }

    /// Sets the frames of play so far (gravity rises after two minutes).
    pub fn with_play_frame(mut self, play_frame: u32) -> PlayerSim {
        self.play_frame = play_frame;
        self
    }
}

impl Sim for PlayerSim {
    fn board(&self) -> &Board {
        self.player.board()
    }
    fn active(&self) -> Option<Piece> {
        self.player.active()
    }
    fn upcoming(&self) -> PieceKind {
        self.player.next()[0]
    }
    fn hold_brings(&self) -> Option<PieceKind> {
        let next = self.player.next();
        match self.player.active() {
            None => Some(self.player.hold().unwrap_or(next[1])),
            Some(_) if self.player.hold_used() => None,
            Some(_) => Some(self.player.hold().unwrap_or(next[0])),
        }
    }
    fn previous(&self) -> Input {
        self.player.last_input()
    }
    fn handling(&self) -> Handling {
        *self.player.handling()
    }
    fn allow_180(&self) -> bool {
        self.rules.allow_180
    }
    fn step(&mut self, input: Input) -> Step {
        let ctx = StepContext {
            rules: &self.rules,
            frame: self.frame,
            play_frame: self.play_frame,
        };
        self.player.step(input, ctx);
        self.frame += 1;
        self.play_frame += 1;
        let events = self.player.events();
        if let Some(lock) = events.locked {
            return Step::Locked(lock.piece, lock.clear.spin);
        }
        if self.player.topped_out().is_some() {
            return Step::ToppedOut;
        }
        Step::Moving
    }
}
