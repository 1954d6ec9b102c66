//! From a chosen placement to the key masks of each frame, checked frame by frame on a [`Sim`].
//!
//! The compiler is closed-loop. It asks [`MoveGen::find_path`] for the shortest abstract path
//! from where the piece is now, packs the path into frames, and steps the simulator one frame at
//! a time. Whenever the piece is not where the path says (gravity pulled it down, an initial
//! rotation behaved differently), it plans again from the real position. It is done when the
//! piece locks: the lock must fill the target's cells with the target's spin, or the compile
//! fails and the caller tries another placement.
//!
//! Packing follows the core's order of work inside a frame (hold, rotations, sideways press,
//! hard drop, soft drop/gravity): one frame may carry a hold, one rotation, one tap and a drop,
//! in that path order. Keys are edges, so a key held on the previous frame is released for one
//! frame before it is pressed again. A run of taps toward a wall uses DAS when that is faster
//! under the player's DAS/ARR. A soft drop holds the key until the piece lands (one frame when
//! SDF is 0). A pacing wait, if asked for, is spent in the air just before the first drop, where
//! gravity cannot change the outcome.

use sevenbag_core::{Input, Piece, PieceKind, Rotation, Spin};

use crate::bitboard::BitBoard;
use crate::movegen::{Move, MoveGen, Placement, StartClass, cells_key, spawn_position};
use crate::sim::{Sim, Step};

/// What a compile must reach.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target {
    /// The kind that locks.
    pub kind: PieceKind,
    /// The filled cells ([`cells_key`]).
    pub key: u64,
    /// The spin the lock must have.
    pub spin: Spin,
    /// Whether a hold comes first.
    pub hold: bool,
}

impl From<&Placement> for Target {
    fn from(p: &Placement) -> Target {
        Target {
            kind: p.piece.kind,
            key: p.key(),
            spin: p.spin,
            hold: p.hold,
        }
    }
}

/// Limits and pacing for one compile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CompileOptions {
    /// Idle frames to spend before the first drop (pacing); fewer if the piece lands first.
    pub wait: u32,
    /// Give up after this many frames.
    pub max_frames: u32,
}

impl Default for CompileOptions {
    fn default() -> Self {
        CompileOptions {
            wait: 0,
            max_frames: 600,
        }
    }
}

/// A packed unit of work on the simulator.
#[derive(Clone, Copy, Debug)]
enum Group {
    /// One frame with these keys; afterwards the piece should be `expect` (unless it locked).
    Frame {
        keys: Input,
        expect: Piece,
        class: StartClass,
    },
    /// Hold a direction until the piece reaches `expect`.
    Das { key: Input, expect: Piece },
    /// Hold soft drop until the piece lands at `expect`.
    SoftDrop { expect: Piece },
}

/// Keys whose presses are edges (everything but soft drop).
const EDGE_KEYS: u8 = !Input::SOFT_DROP.0;

fn conflicts(keys: Input, previous: Input) -> bool {
    keys.0 & previous.0 & EDGE_KEYS != 0
}

/// Applies one abstract move on the bitboard; returns the new piece and its spin class.
fn apply(bits: &BitBoard, p: Piece, mv: Move, allow_180: bool) -> (Piece, StartClass) {
    let turn = |to: Rotation, flip: bool| {
        let kicks = sevenbag_core::srs::kicks(p.kind, p.rotation, to);
        for (k, &(dx, dy)) in kicks.as_slice().iter().enumerate() {
            let q = Piece {
                rotation: to,
                x: p.x + dx,
                y: p.y + dy,
                ..p
            };
            if !bits.collides_piece(&q) {
                let class = if !flip && k == 4 {
                    StartClass::Kick4
                } else {
                    StartClass::Rotated
                };
                return (q, class);
            }
        }
        (p, StartClass::Moved)
    };
    match mv {
        Move::Left | Move::Right => {
            let q = p.shifted(if mv == Move::Left { -1 } else { 1 }, 0);
            if bits.collides_piece(&q) {
                (p, StartClass::Moved)
            } else {
                (q, StartClass::Moved)
            }
        }
        Move::Cw => turn(p.rotation.cw(), false),
        Move::Ccw => turn(p.rotation.ccw(), false),
        Move::Flip if allow_180 => turn(p.rotation.flip(), true),
        Move::Flip => (p, StartClass::Moved),
        Move::SoftDrop => (bits.drop_position(&p), StartClass::Moved),
    }
}

fn rotation_key(mv: Move) -> Option<Input> {
    match mv {
        Move::Cw => Some(Input::ROTATE_CW),
        Move::Ccw => Some(Input::ROTATE_CCW),
        Move::Flip => Some(Input::ROTATE_180),
        _ => None,
    }
}

fn shift_key(mv: Move) -> Option<(Input, i8)> {
    match mv {
        Move::Left => Some((Input::LEFT, -1)),
        Move::Right => Some((Input::RIGHT, 1)),
        _ => None,
    }
}

/// Packs a path (starting at `start`, after an optional hold) into groups.
fn pack(
    path: &[Move],
    hold: bool,
    bits: &BitBoard,
    start: Piece,
    start_class: StartClass,
    handling: &sevenbag_core::Handling,
    allow_180: bool,
) -> Vec<Group> {
    let mut groups = Vec::new();
    let mut p = start;
    let mut class = start_class;
    let mut i = 0;
    let mut first = true;
    loop {
        let mut keys = if first && hold {
            Input::HOLD
        } else {
            Input::NONE
        };
        first = false;
        if let Some(key) = path.get(i).and_then(|&m| rotation_key(m)) {
            keys = keys | key;
            (p, class) = apply(bits, p, path[i], allow_180);
            i += 1;
        }
        if let Some((key, dx)) = path.get(i).and_then(|&m| shift_key(m)) {
            let run = path[i..].iter().take_while(|&&m| m == path[i]).count();
            let mut end = p;
            for _ in 0..run {
                end = end.shifted(dx, 0);
            }
            let at_wall = bits.collides_piece(&end.shifted(dx, 0));
            let (das, arr) = (u32::from(handling.das), u32::from(handling.arr));
            let taps = 2 * run as u32 - 1;
            let auto = if arr == 0 {
                das + 1
            } else {
                das + (run as u32).saturating_sub(2) * arr + 1
            };
            if run >= 2 && auto < taps && (arr > 0 || at_wall) && keys.is_empty() {
                groups.push(Group::Das { key, expect: end });
                p = end;
                class = StartClass::Moved;
                i += run;
                continue;
            }
            keys = keys | key;
            (p, class) = apply(bits, p, path[i], allow_180);
            i += 1;
        }
        if path.get(i) == Some(&Move::SoftDrop) {
            if handling.sdf == 0 {
                keys = keys | Input::SOFT_DROP;
                (p, class) = apply(bits, p, Move::SoftDrop, allow_180);
                i += 1;
            } else {
                if !keys.is_empty() {
                    groups.push(Group::Frame {
                        keys,
                        expect: p,
                        class,
                    });
                }
                p = bits.drop_position(&p);
                class = StartClass::Moved;
                groups.push(Group::SoftDrop { expect: p });
                i += 1;
                continue;
            }
        }
        if i >= path.len() {
            keys = keys | Input::HARD_DROP;
            groups.push(Group::Frame {
                keys,
                expect: p,
                class,
            });
            return groups;
        }
        groups.push(Group::Frame {
            keys,
            expect: p,
            class,
        });
    }
}

/// Why the compiler stopped following its current path.
enum Outcome {
    /// The piece locked: on target or not.
    Done(bool),
    /// The piece is not where the path says: plan again from where it is.
    Replan,
    /// The player topped out, or the frame budget ran out.
    GiveUp,
}

/// The simulator, the frames emitted so far, and the target: one compile's moving parts.
struct Run<'a, S: Sim> {
    sim: S,
    out: Vec<Input>,
    target: &'a Target,
    max_frames: u32,
}

impl<S: Sim> Run<'_, S> {
    /// Steps one frame; `Err` ends the current path (locked, topped out or out of frames).
    fn frame(&mut self, input: Input) -> Result<(), Outcome> {
        if self.out.len() as u32 >= self.max_frames {
            return Err(Outcome::GiveUp);
        }
        self.out.push(input);
        match self.sim.step(input) {
            Step::Moving => Ok(()),
            Step::Locked(p, s) => Err(Outcome::Done(
                cells_key(&p) == self.target.key && s == self.target.spin,
            )),
            Step::ToppedOut => Err(Outcome::GiveUp),
        }
    }

    /// Holds `key` until the piece is `expect`; `Replan` if it strays or never gets there.
    fn hold_until(&mut self, key: Input, expect: Piece, limit: u32) -> Result<(), Outcome> {
        for _ in 0..limit {
            self.frame(key)?;
            let now = self.sim.active().ok_or(Outcome::Replan)?;
            if now == expect {
                return Ok(());
            }
            let strayed = now.rotation != expect.rotation
                || (key == Input::SOFT_DROP && (now.x != expect.x || now.y < expect.y))
                || (key != Input::SOFT_DROP && now.y != expect.y);
            if strayed {
                break;
            }
        }
        Err(Outcome::Replan)
    }

    /// Runs the groups of one path. `Ok` never happens in practice: the last group hard drops.
    fn follow(
        &mut self,
        groups: &[Group],
        bits: &BitBoard,
        wait_left: &mut u32,
        held: &mut bool,
        class: &mut StartClass,
    ) -> Result<(), Outcome> {
        let das_limit = |h: &sevenbag_core::Handling| {
            u32::from(h.das) + u32::from(h.dcd) + 12 * u32::from(h.arr.max(1)) + 8
        };
        let handling = self.sim.handling();
        for group in groups {
            // Pacing: wait in the air just before the first drop.
            let drops = match group {
                Group::SoftDrop { .. } => true,
                Group::Frame { keys, .. } => {
                    keys.contains(Input::HARD_DROP) || keys.contains(Input::SOFT_DROP)
                }
                Group::Das { .. } => false,
            };
            if drops && *wait_left > 0 {
                let mut waited = false;
                while *wait_left > 0 && self.sim.active().is_none_or(|p| !bits.grounded(&p)) {
                    *wait_left -= 1;
                    waited = true;
                    self.frame(Input::NONE)?;
                }
                if waited {
                    return Err(Outcome::Replan);
                }
            }
            let first_keys = match *group {
                Group::Frame { keys, .. } => keys,
                Group::Das { key, .. } => key,
                Group::SoftDrop { .. } => Input::SOFT_DROP,
            };
            if conflicts(first_keys, self.sim.previous()) {
                let before = self.sim.active();
                self.frame(Input::NONE)?;
                if self.sim.active() != before {
                    return Err(Outcome::Replan);
                }
            }
            match *group {
                Group::Frame {
                    keys,
                    expect,
                    class: c,
                } => {
                    if keys.contains(Input::HARD_DROP) && *wait_left > 0 {
                        // Pacing left over (the piece could not wait in the air): reach the
                        // spot, wait on it (a lock-delay lock there is the same lock), drop.
                        let pre = Input(keys.0 & !Input::HARD_DROP.0);
                        if !pre.is_empty() {
                            self.frame(pre)?;
                            *held |= pre.contains(Input::HOLD);
                            if self.sim.active() != Some(expect) {
                                return Err(Outcome::Replan);
                            }
                        }
                        while *wait_left > 0 {
                            *wait_left -= 1;
                            self.frame(Input::NONE)?;
                        }
                        if self.sim.active() != Some(expect) {
                            return Err(Outcome::Replan);
                        }
                        // Only the drop is left to press.
                        self.frame(Input::HARD_DROP)?;
                        return Err(Outcome::Replan);
                    }
                    self.frame(keys)?;
                    if keys.contains(Input::HOLD) {
                        *held = true;
                    }
                    if self.sim.active() != Some(expect) {
                        return Err(Outcome::Replan);
                    }
                    *class = c;
                }
                Group::Das { key, expect } => {
                    self.hold_until(key, expect, das_limit(&handling))?;
                    *class = StartClass::Moved;
                }
                Group::SoftDrop { expect } => {
                    self.hold_until(Input::SOFT_DROP, expect, 2 * 40 * 60)?;
                    *class = StartClass::Moved;
                }
            }
        }
        Ok(())
    }
}

/// The per-frame key masks that make `sim`'s piece lock as `target`, or `None` if the compiler
/// cannot get it there.
pub fn compile<S: Sim>(sim: &S, target: &Target, opts: CompileOptions) -> Option<Vec<Input>> {
    let mut run = Run {
        sim: sim.clone(),
        out: Vec::new(),
        target,
        max_frames: opts.max_frames,
    };
    let mut movegen = MoveGen::new();
    let handling = run.sim.handling();
    let allow_180 = run.sim.allow_180();
    let mut held = false;
    let mut wait_left = opts.wait;
    let mut class = StartClass::Moved;
    for _attempt in 0..64 {
        let bits = BitBoard::from_board(run.sim.board());
        let need_hold = target.hold && !held;
        let start = if need_hold {
            spawn_position(&bits, run.sim.hold_brings()?)?
        } else {
            match run.sim.active() {
                Some(p) => p,
                None => spawn_position(&bits, run.sim.upcoming())?,
            }
        };
        if start.kind != target.kind {
            return None;
        }
        let start_class = if need_hold || run.sim.active().is_none() {
            StartClass::Moved
        } else {
            class
        };
        let path = movegen.find_path(
            &bits,
            start,
            start_class,
            target.key,
            target.spin,
            allow_180,
        )?;
        let groups = pack(
            &path,
            need_hold,
            &bits,
            start,
            start_class,
            &handling,
            allow_180,
        );
        let r = run.follow(&groups, &bits, &mut wait_left, &mut held, &mut class);
        match r {
            Err(Outcome::Done(true)) => return Some(run.out),
            Err(Outcome::Done(false)) | Err(Outcome::GiveUp) => return None,
            Err(Outcome::Replan) | Ok(()) => class = StartClass::Moved,
        }
    }
    None
}
