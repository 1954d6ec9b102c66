//! How the active piece moves within a frame: rotation with SRS kicks, sideways movement with
//! DAS, ARR and DCD, soft drop and gravity, and the lock delay with its move resets.

use super::{FLIP_KICK, Player, StepContext};
use crate::board::WIDTH;
use crate::input::Input;
use crate::piece::{Piece, Rotation};
use crate::rules::{CELL, MAX_GRAVITY};
use crate::srs;

/// Auto-shift state: which way is held and how long.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(super) struct Shift {
    /// −1 left, 0 none, 1 right.
    pub(super) dir: i8,
    /// Frames the direction has been held since its press (saturating).
    pub(super) held: u8,
    /// The DAS delay has passed.
    pub(super) charged: bool,
    /// Frames since the last auto-repeat move.
    pub(super) arr: u8,
    /// Frames of DAS cut left.
    pub(super) cut: u8,
}

impl Player {
    pub(super) fn try_rotate(&self, piece: &Piece, to: Rotation) -> Option<(Piece, u8)> {
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

    pub(super) fn rotate(&mut self, turn: fn(Rotation) -> Rotation) {
        let Some(piece) = self.active else { return };
        let to = turn(piece.rotation);
        let grounded = self.board.grounded(&piece);
        if let Some((rotated, kick)) = self.try_rotate(&piece, to) {
            self.active = Some(rotated);
            self.spin_kick = Some(if to == piece.rotation.flip() {
                FLIP_KICK
            } else {
                kick
            });
            self.events.rotated = true;
            self.shift.cut = self.handling.dcd;
            self.after_move(grounded);
        }
    }

    /// Restarts the lock delay after a successful move or rotation made on the ground.
    pub(super) fn after_move(&mut self, was_grounded: bool) {
        if was_grounded {
            self.ground_moves = self.ground_moves.saturating_add(1);
            self.lock_timer = 0;
        }
    }

    /// Moves sideways by `dx` up to `steps` cells; returns whether it moved at all.
    pub(super) fn slide(&mut self, dx: i8, steps: i8) -> bool {
        let Some(mut piece) = self.active else {
            return false;
        };
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
            self.events.moved = true;
            self.after_move(grounded);
        }
        moved
    }

    /// DAS/ARR/DCD. The most recently pressed direction wins; releasing it hands over to the
    /// other if that is still held, which restarts its DAS without an immediate move.
    pub(super) fn auto_shift(&mut self, input: Input, pressed: Input) {
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
                held: 0,
                charged: false,
                arr: 0,
                cut: 0,
            };
            return;
        }
        self.shift.held = self.shift.held.saturating_add(1);
        if !self.shift.charged && self.shift.held < self.handling.das {
            return;
        }
        // A pending cut delays auto-shift, including the first move of a fresh charge.
        if self.shift.cut > 0 {
            self.shift.cut -= 1;
            return;
        }
        let first_charge = !self.shift.charged;
        self.shift.charged = true;
        let dir = self.shift.dir;
        if self.handling.arr == 0 {
            self.slide(dir, WIDTH);
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

    /// Soft drop and gravity: moves the piece down by the rows its accumulator has gathered.
    pub(super) fn fall(&mut self, input: Input, ctx: StepContext<'_>) {
        let Some(mut piece) = self.active else { return };
        let base = ctx.rules.gravity_at(ctx.play_frame);
        let soft = input.contains(Input::SOFT_DROP);
        if soft && self.handling.sdf == 0 {
            let landed = self.board.drop_position(&piece);
            self.events.soft_drop_rows = (piece.y - landed.y) as u8;
            if landed != piece {
                self.active = Some(landed);
                self.spin_kick = None;
                self.lock_timer = 0;
            }
            self.gravity = 0;
            return;
        }
        let g = if soft {
            base.saturating_mul(u32::from(self.handling.sdf))
                .min(MAX_GRAVITY)
        } else {
            base
        };
        if self.board.grounded(&piece) {
            self.gravity = 0;
            return;
        }
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
            if soft {
                self.events.soft_drop_rows += 1;
            }
        }
        self.active = Some(piece);
    }

    pub(super) fn lock_delay(&mut self, ctx: StepContext<'_>) {
        let Some(piece) = self.active else { return };
        if !self.board.grounded(&piece) {
            self.lock_timer = 0;
            return;
        }
        self.lock_timer += 1;
        let out_of_resets = self.ground_moves > ctx.rules.max_lock_resets;
        if out_of_resets || self.lock_timer >= ctx.rules.lock_delay {
            self.lock(piece, ctx);
        }
    }
}
