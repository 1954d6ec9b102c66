//! Frame-exact simulators of one piece's life, for turning plans into key masks.
//!
//! [`Sim`] is what the input compiler drives: it steps one frame with a key mask and reports a
//! lock. [`PlayerSim`] wraps a copy of the core's own [`Player`] (exact by construction, hidden
//! state included: DAS charge, gravity, lock timer); the bot driver uses it. [`MirrorSim`] repeats
//! the core's per-frame piece logic (spawn with IHS/IRS, hold, rotation, DAS/ARR/DCD, soft drop,
//! gravity, lock delay) from nothing but a board, so tools and tests can ask for the inputs of
//! a placement without a match; the property tests check it against the core.

use sevenbag_core::rules::CELL;
use sevenbag_core::{
    Board, FLIP_KICK, Handling, Input, Piece, PieceKind, Player, Rotation, Rules, Spin,
    StepContext, srs, t_spin,
};

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

/// A rotation as a function from state to state.
type Turn = fn(Rotation) -> Rotation;

/// Auto-shift state, as the core keeps it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Shift {
    dir: i8,
    held: u8,
    charged: bool,
    arr: u8,
    cut: u8,
}

/// A board-only model of the core's per-frame piece logic (see the module docs).
#[derive(Clone, Debug)]
pub struct MirrorSim {
    board: Board,
    rules: Rules,
    handling: Handling,
    play_frame: u32,
    active: Option<Piece>,
    upcoming: PieceKind,
    hold: Option<PieceKind>,
    hold_used: bool,
    previous: Input,
    shift: Shift,
    gravity: u32,
    lock_timer: u16,
    ground_moves: u8,
    spin_kick: Option<u8>,
    done: bool,
}

impl MirrorSim {
    /// A piece of `kind` about to spawn on `board` (next frame), with `hold` the kind a hold
    /// would swap in, after a frame where `previous` keys were held and no direction key was.
    pub fn before_spawn(
        board: &Board,
        kind: PieceKind,
        hold: Option<PieceKind>,
        rules: &Rules,
        handling: Handling,
        previous: Input,
    ) -> MirrorSim {
        MirrorSim {
            board: *board,
            rules: *rules,
            handling,
            play_frame: 0,
            active: None,
            upcoming: kind,
            hold,
            hold_used: false,
            previous,
            shift: Shift::default(),
            gravity: 0,
            lock_timer: 0,
            ground_moves: 0,
            spin_kick: None,
            done: false,
        }
    }

    /// A piece already in play at `piece`, as the core's `Player::set_active` leaves it (no
    /// key held before, nothing charged), with `hold` the kind a hold would swap in.
    pub fn with_active(
        board: &Board,
        piece: Piece,
        hold: Option<PieceKind>,
        rules: &Rules,
        handling: Handling,
    ) -> MirrorSim {
        MirrorSim {
            active: Some(piece),
            ..MirrorSim::before_spawn(board, piece.kind, hold, rules, handling, Input::NONE)
        }
    }

    /// Sets the frames of play so far (gravity rises after two minutes).
    pub fn with_play_frame(mut self, play_frame: u32) -> MirrorSim {
        self.play_frame = play_frame;
        self
    }

    fn spawn(&mut self, kind: PieceKind) -> bool {
        let mut piece = Piece::spawn(kind);
        if self.board.collides(&piece) {
            self.done = true;
            self.active = None;
            return false;
        }
        if !self.board.grounded(&piece) {
            piece = piece.shifted(0, -1);
        }
        self.active = Some(piece);
        self.gravity = 0;
        self.lock_timer = 0;
        self.ground_moves = 0;
        self.spin_kick = None;
        self.shift.cut = self.handling.dcd;
        true
    }

    fn try_rotate(&self, piece: &Piece, to: Rotation) -> Option<(Piece, u8)> {
        let turned = Piece {
            rotation: to,
            ..*piece
        };
        srs::kicks(piece.kind, piece.rotation, to)
            .as_slice()
            .iter()
            .enumerate()
            .map(|(i, &(dx, dy))| (turned.shifted(dx, dy), i as u8))
            .find(|(p, _)| !self.board.collides(p))
    }

    fn after_move(&mut self, was_grounded: bool) {
        if was_grounded {
            self.ground_moves = self.ground_moves.saturating_add(1);
            self.lock_timer = 0;
        }
    }

    fn rotate(&mut self, to_of: fn(Rotation) -> Rotation) {
        let Some(piece) = self.active else { return };
        let to = to_of(piece.rotation);
        let grounded = self.board.grounded(&piece);
        if let Some((rotated, kick)) = self.try_rotate(&piece, to) {
            self.active = Some(rotated);
            self.spin_kick = Some(if to == piece.rotation.flip() {
                FLIP_KICK
            } else {
                kick
            });
            self.shift.cut = self.handling.dcd;
            self.after_move(grounded);
        }
    }

    fn slide(&mut self, dx: i8, steps: i8) {
        let Some(mut piece) = self.active else { return };
        let grounded = self.board.grounded(&piece);
        let mut moved = false;
        for _ in 0..steps {
            let next = piece.shifted(dx, 0);
            if self.board.collides(&next) {
                break;
            }
            piece = next;
            moved = true;
        }
        if moved {
            self.active = Some(piece);
            self.spin_kick = None;
            self.after_move(grounded);
        }
    }

    fn auto_shift(&mut self, input: Input, pressed: Input) {
        let left = input.contains(Input::LEFT);
        let right = input.contains(Input::RIGHT);
        let press = if pressed.contains(Input::LEFT) {
            -1
        } else if pressed.contains(Input::RIGHT) {
            1
        } else {
            0
        };
        if press != 0 {
            self.shift = Shift {
                dir: press,
                held: 0,
                charged: false,
                arr: 0,
                cut: self.shift.cut,
            };
            self.slide(press, 1);
            return;
        }
        let still_held = match self.shift.dir {
            -1 => left,
            1 => right,
            _ => false,
        };
        if !still_held {
            let dir = if left {
                -1
            } else if right {
                1
            } else {
                0
            };
            self.shift = Shift {
                dir,
                ..Shift::default()
            };
            return;
        }
        self.shift.held = self.shift.held.saturating_add(1);
        let first_charge = !self.shift.charged && self.shift.held >= self.handling.das;
        if !self.shift.charged && !first_charge {
            return;
        }
        self.shift.charged = true;
        if self.shift.cut > 0 {
            self.shift.cut -= 1;
            return;
        }
        let dir = self.shift.dir;
        if self.handling.arr == 0 {
            self.slide(dir, 10);
        } else if first_charge {
            self.shift.arr = 0;
            self.slide(dir, 1);
        } else {
            self.shift.arr = self.shift.arr.saturating_add(1);
            if self.shift.arr >= self.handling.arr {
                self.shift.arr = 0;
                self.slide(dir, 1);
            }
        }
    }

    fn lock(&mut self, piece: Piece) -> Step {
        let spin = match self.spin_kick {
            Some(kick) => t_spin(&self.board, &piece, kick),
            None => Spin::None,
        };
        self.active = None;
        self.done = true;
        Step::Locked(piece, spin)
    }
}

impl Sim for MirrorSim {
    fn board(&self) -> &Board {
        &self.board
    }
    fn active(&self) -> Option<Piece> {
        self.active
    }
    fn upcoming(&self) -> PieceKind {
        self.upcoming
    }
    fn hold_brings(&self) -> Option<PieceKind> {
        if self.hold_used { None } else { self.hold }
    }
    fn previous(&self) -> Input {
        self.previous
    }
    fn handling(&self) -> Handling {
        self.handling
    }
    fn allow_180(&self) -> bool {
        self.rules.allow_180
    }

    fn step(&mut self, input: Input) -> Step {
        let mut pressed = input.pressed_since(self.previous);
        self.previous = input;
        if self.done {
            return Step::ToppedOut;
        }
        let play_frame = self.play_frame;
        self.play_frame += 1;
        if self.active.is_none() {
            let mut kind = self.upcoming;
            if self.handling.ihs
                && input.contains(Input::HOLD)
                && let Some(h) = self.hold
            {
                self.hold = Some(kind);
                kind = h;
                self.hold_used = true;
                pressed = Input(pressed.0 & !Input::HOLD.0);
            }
            if !self.spawn(kind) {
                return Step::ToppedOut;
            }
            if self.handling.irs {
                let irs: [(Input, Turn); 3] = [
                    (Input::ROTATE_CW, Rotation::cw),
                    (Input::ROTATE_CCW, Rotation::ccw),
                    (Input::ROTATE_180, Rotation::flip),
                ];
                for (key, to_of) in irs {
                    if input.contains(key) && (key != Input::ROTATE_180 || self.rules.allow_180) {
                        let all = Input::ROTATE_CW | Input::ROTATE_CCW | Input::ROTATE_180;
                        pressed = Input(pressed.0 & !all.0);
                        if let Some(piece) = self.active
                            && let Some((rotated, _)) =
                                self.try_rotate(&piece, to_of(piece.rotation))
                        {
                            self.active = Some(rotated);
                        }
                        break;
                    }
                }
            }
        }
        if pressed.contains(Input::HOLD)
            && !self.hold_used
            && let (Some(current), Some(h)) = (self.active, self.hold)
        {
            self.hold = Some(current.kind);
            self.hold_used = true;
            if !self.spawn(h) {
                return Step::ToppedOut;
            }
        }
        if pressed.contains(Input::ROTATE_CW) {
            self.rotate(Rotation::cw);
        }
        if pressed.contains(Input::ROTATE_CCW) {
            self.rotate(Rotation::ccw);
        }
        if pressed.contains(Input::ROTATE_180) && self.rules.allow_180 {
            self.rotate(Rotation::flip);
        }
        self.auto_shift(input, pressed);
        let Some(mut piece) = self.active else {
            return Step::Moving;
        };
        if pressed.contains(Input::HARD_DROP) {
            let landed = self.board.drop_position(&piece);
            if landed != piece {
                self.spin_kick = None;
            }
            return self.lock(landed);
        }
        // Soft drop and gravity.
        let base = self.rules.gravity_at(play_frame);
        let soft = input.contains(Input::SOFT_DROP);
        if soft && self.handling.sdf == 0 {
            let landed = self.board.drop_position(&piece);
            if landed != piece {
                self.active = Some(landed);
                self.spin_kick = None;
                self.lock_timer = 0;
            }
            self.gravity = 0;
        } else {
            let g = if soft {
                base.saturating_mul(u32::from(self.handling.sdf))
                    .min(sevenbag_core::rules::MAX_GRAVITY)
            } else {
                base
            };
            if self.board.grounded(&piece) {
                self.gravity = 0;
            } else {
                self.gravity += g;
                while self.gravity >= CELL {
                    if self.board.grounded(&piece) {
                        self.gravity = 0;
                        break;
                    }
                    piece = piece.shifted(0, -1);
                    self.gravity -= CELL;
                    self.spin_kick = None;
                    self.lock_timer = 0;
                }
                self.active = Some(piece);
            }
        }
        // Lock delay.
        let Some(piece) = self.active else {
            return Step::Moving;
        };
        if !self.board.grounded(&piece) {
            self.lock_timer = 0;
            return Step::Moving;
        }
        self.lock_timer += 1;
        if self.ground_moves > self.rules.max_lock_resets
            || self.lock_timer >= self.rules.lock_delay
        {
            return self.lock(piece);
        }
        Step::Moving
    }
}
