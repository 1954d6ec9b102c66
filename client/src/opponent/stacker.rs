//! The stacker: a random placer that needs nothing but the public views.

use sevenbag_core::{Input, Phase};

use super::{AutoPlayer, SeatView};

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

    fn next_for(&mut self, view: SeatView<'_>) -> Input {
        let p = view.player;
        let out = match (view.phase, p.active()) {
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
