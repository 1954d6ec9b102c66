//! A cheap deterministic stacking bot for test matches of any seat count.
//!
//! For each piece it scores every rotation and column by dropping the piece straight down on a
//! copy of the board (no frame simulation, so it costs microseconds), then plays the keys a
//! person would: a short pause, one rotation tap, taps or a held direction, a hard drop. Kicks
//! and walls may land the piece elsewhere than planned; that is part of the play. It likes
//! multi-line clears and a clean stack, so matches send real garbage; a sloppy bot places a
//! share of its pieces at random, so boards top out and knock-outs happen. Manual targeting:
//! now and then it picks a seat to hold as its target (itself or a dead seat included).
//! Randomness is a fixed-seed xorshift: the same seeds play the same match.

use std::collections::VecDeque;

use sevenbag_core::srs::kicks;
use sevenbag_core::{Battle, Board, Input, Phase, Piece, Player, Rotation, Seat, SeatInput};

/// A fixed-seed xorshift64* stream.
pub struct XorShift(pub u64);

impl XorShift {
    /// The next 64 bits.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// One seat's bot.
pub struct Stacker {
    rng: XorShift,
    /// Percent of pieces placed at a random candidate.
    sloppy: u64,
    plan: VecDeque<Input>,
    target: Option<Seat>,
}

impl Stacker {
    /// A bot seeded with `seed` that misplaces `sloppy`% of its pieces.
    pub fn new(seed: u64, sloppy: u64) -> Stacker {
        Stacker {
            rng: XorShift(seed | 1),
            sloppy,
            plan: VecDeque::new(),
            target: None,
        }
    }

    /// The bots of an `n`-seat match: seat k is seeded from `seed` and k, and every other seat
    /// is sloppier.
    pub fn team(seed: u64, n: usize) -> Vec<Stacker> {
        (0..n as u64)
            .map(|k| {
                Stacker::new(
                    seed ^ (k + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15),
                    2 + 6 * (k % 2),
                )
            })
            .collect()
    }

    /// Forgets the plan (a round ended).
    pub fn reset(&mut self) {
        self.plan.clear();
    }

    /// This frame's input for a board of an `n`-seat match.
    pub fn next_input(&mut self, player: &Player, n: usize) -> SeatInput {
        if player.topped_out().is_some() {
            return SeatInput::NONE;
        }
        if self.plan.is_empty() {
            match player.active() {
                Some(piece) => {
                    self.plan = self.make_plan(player.board(), piece).into();
                    if self.rng.below(8) == 0 {
                        self.target = Seat::new(self.rng.below(n as u64) as usize);
                    }
                }
                None => return self.input(Input::NONE),
            }
        }
        let keys = self.plan.pop_front().unwrap_or(Input::NONE);
        self.input(keys)
    }

    fn input(&self, keys: Input) -> SeatInput {
        SeatInput {
            keys,
            target: self.target,
        }
    }

    fn make_plan(&mut self, board: &Board, piece: Piece) -> Vec<Input> {
        let mut candidates = Vec::new();
        for (turn, to) in Rotation::ALL.into_iter().enumerate() {
            let Some(turned) = turn_to(board, piece, to) else {
                continue;
            };
            for dx in -9i8..=9 {
                let step = dx.signum();
                let walk = (1..=dx.abs()).map(|k| turned.shifted(step * k, 0));
                if walk.clone().any(|p| board.collides(&p)) {
                    continue;
                }
                let landed = board.drop_position(&turned.shifted(dx, 0));
                let mut after = *board;
                after.place(&landed);
                let lines = after.clear_lines().lines;
                candidates.push((score(&after, lines), turn, dx));
            }
        }
        let Some(&best) = candidates.iter().max_by_key(|c| c.0) else {
            return vec![Input::HARD_DROP, Input::NONE];
        };
        let (_, turn, dx) = if self.rng.below(100) < self.sloppy {
            candidates[self.rng.below(candidates.len() as u64) as usize]
        } else {
            best
        };
        let think = 2 + self.rng.below(8) as usize;
        keys(think, turn, dx)
    }
}

/// `piece` turned from its state to `to` as SRS would (the first kick that fits).
fn turn_to(board: &Board, piece: Piece, to: Rotation) -> Option<Piece> {
    if to == piece.rotation {
        return Some(piece);
    }
    kicks(piece.kind, piece.rotation, to)
        .as_slice()
        .iter()
        .map(|&(dx, dy)| Piece {
            rotation: to,
            ..piece.shifted(dx, dy)
        })
        .find(|p| !board.collides(p))
}

/// The keys for one placement: a pause, a rotation tap, the sideways trip, a hard drop.
fn keys(think: usize, turn: usize, dx: i8) -> Vec<Input> {
    let mut keys = vec![Input::NONE; think];
    let tap = |keys: &mut Vec<Input>, key: Input| keys.extend([key, Input::NONE]);
    match turn {
        1 => tap(&mut keys, Input::ROTATE_CW),
        2 => tap(&mut keys, Input::ROTATE_180),
        3 => tap(&mut keys, Input::ROTATE_CCW),
        _ => {}
    }
    let dir = if dx < 0 { Input::LEFT } else { Input::RIGHT };
    let steps = dx.unsigned_abs() as usize;
    if steps >= 4 {
        // Held with DAS 10 / ARR 2: moves on frames 0, 10, 12, … of the hold.
        keys.extend(std::iter::repeat_n(dir, 2 * steps + 7));
        keys.push(Input::NONE);
    } else {
        for _ in 0..steps {
            tap(&mut keys, dir);
        }
    }
    tap(&mut keys, Input::HARD_DROP);
    keys
}

/// Multi-line clears and a low, hole-free stack with an open right column score well.
fn score(board: &Board, lines: u8) -> i64 {
    let heights: Vec<i64> = (0..10).map(|x| i64::from(board.column_height(x))).collect();
    let holes: i64 = (0..10)
        .map(|x| {
            (0..board.column_height(x))
                .filter(|&y| !board.occupied(x, y))
                .count() as i64
        })
        .sum();
    let bumps: i64 = heights[..9].windows(2).map(|w| (w[0] - w[1]).abs()).sum();
    let top = heights.iter().copied().max().unwrap_or(0);
    let mut s = -25 * holes - 3 * bumps - 2 * heights.iter().sum::<i64>();
    s -= 30 * (top - 10).max(0);
    s += [0, -4, 12, 30, 90][usize::from(lines.min(4))];
    if lines == 0 {
        s -= 8 * heights[9];
    }
    s
}

/// Plays `frames` frames of `battle` with `bots` (one per seat), calling `each` after every
/// frame; returns the inputs of every frame.
pub fn play<const CAP: usize>(
    battle: &mut Battle<CAP>,
    bots: &mut [Stacker],
    frames: u32,
    mut each: impl FnMut(&Battle<CAP>),
) -> Vec<[SeatInput; CAP]> {
    let n = battle.seats();
    let mut tape = Vec::with_capacity(frames as usize);
    for _ in 0..frames {
        let mut inputs = [SeatInput::NONE; CAP];
        if battle.phase() == Phase::Playing || battle.countdown_left() == Some(0) {
            for seat in Seat::all(n) {
                inputs[seat.index()] = bots[seat.index()].next_input(battle.player(seat), n);
            }
        } else {
            bots.iter_mut().for_each(Stacker::reset);
        }
        battle.step(&inputs);
        each(battle);
        tape.push(inputs);
    }
    tape
}
