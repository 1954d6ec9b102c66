//! The generator of the golden match script (`tests/data/golden_match.script`).
//!
//! Two simple bots play a versus match the way a person at a keyboard would: each piece gets a
//! short thinking pause, then optionally a hold, one rotation key, taps (or a held direction with
//! DAS for long trips), sometimes a soft drop, and a hard drop. For T pieces the bot also tries
//! soft dropping to the floor and turning there, which finds T-spins when the stack offers them.
//!
//! Each candidate key sequence is tried on a copy of the player (the type is `Copy`), so the
//! plan is exactly what the real simulation will do; the bot keeps the best-scoring one by a
//! small integer heuristic (attack, holes, bumpiness, height, an open right well). Seat 2 is
//! sloppy: one piece in twenty goes to a random candidate, so it tops out now and then.
//! Randomness is a fixed-seed xorshift, so the generator is deterministic too, but the golden
//! test only relies on the committed script file, not on this code.

use std::collections::VecDeque;
use std::fmt::Write as _;

use sevenbag_core::{
    Board, Input, LockEvent, Match, MatchHeader, Phase, Player, Rules, Spin, StepContext,
};

use crate::common::script::keys_to_text;

/// A fixed-seed xorshift64* stream.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// One seat's planner.
struct Bot {
    rng: Rng,
    /// Percent of pieces placed by a random candidate instead of the best one.
    sloppy: u64,
    plan: VecDeque<Input>,
}

/// Where the frame being planned sits in the match.
#[derive(Clone, Copy)]
struct When<'a> {
    rules: &'a Rules,
    frame: u32,
    play_start: u32,
}

impl Bot {
    fn next_input(&mut self, player: &Player, when: When<'_>) -> Input {
        if self.plan.is_empty() {
            self.plan = self.make_plan(player, when).into();
        }
        self.plan.pop_front().unwrap_or(Input::NONE)
    }

    fn make_plan(&mut self, player: &Player, when: When<'_>) -> Vec<Input> {
        let think = 3 + self.rng.below(10) as usize;
        let soft_first = self.rng.below(5) == 0;
        let mut scored: Vec<(i64, Vec<Input>)> = Vec::new();
        for hold in [false, true] {
            for rotation in 0..4 {
                for dx in -5i8..=5 {
                    for spin in 0..3 {
                        let keys = keys_for(think, hold, rotation, dx, spin, soft_first);
                        let turn = [None, Some(Input::ROTATE_CW), Some(Input::ROTATE_CCW)][spin];
                        if let Some((keys, score)) = try_plan(player, when, keys, turn) {
                            scored.push((score, keys));
                        }
                    }
                }
            }
        }
        if scored.is_empty() {
            return vec![Input::NONE, Input::HARD_DROP];
        }
        let pick = if self.rng.below(100) < self.sloppy {
            self.rng.below(scored.len() as u64) as usize
        } else {
            let best = scored.iter().map(|(s, _)| *s).max().unwrap_or(0);
            scored.iter().position(|(s, _)| *s == best).unwrap_or(0)
        };
        scored.swap_remove(pick).1
    }
}

/// The keys of one candidate, up to (not including) the spin's soft drop and the hard drop;
/// `try_plan` finishes them.
fn keys_for(
    think: usize,
    hold: bool,
    rotation: u8,
    dx: i8,
    spin: usize,
    soft_first: bool,
) -> Vec<Input> {
    let mut keys = vec![Input::NONE; think];
    let tap = |keys: &mut Vec<Input>, key: Input| keys.extend([key, Input::NONE]);
    if hold {
        tap(&mut keys, Input::HOLD);
    }
    match rotation {
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
    if spin == 0 && soft_first {
        keys.extend(std::iter::repeat_n(Input::SOFT_DROP, 6));
        keys.push(Input::NONE);
    }
    keys
}

/// Plays `keys` on a copy of `player`; with `spin`, soft drops a T to the floor and turns it with
/// that key; then hard drops.
/// Returns the full key list and its score, or `None` if the plan does not end in exactly one
/// lock on its last frame.
fn try_plan(
    player: &Player,
    when: When<'_>,
    mut keys: Vec<Input>,
    spin: Option<Input>,
) -> Option<(Vec<Input>, i64)> {
    let mut sim = *player;
    let mut frame = when.frame;
    let mut step = |sim: &mut Player, input: Input| -> Option<LockEvent> {
        let ctx = StepContext {
            rules: when.rules,
            frame,
            play_frame: frame - when.play_start,
        };
        frame += 1;
        sim.step(input, ctx);
        sim.events().locked
    };
    for &k in &keys {
        if step(&mut sim, k).is_some() || sim.topped_out().is_some() {
            return None;
        }
    }
    if let Some(turn) = spin {
        let piece = sim.active()?;
        if piece.kind != sevenbag_core::PieceKind::T {
            return None;
        }
        let mut held = 0;
        while !sim.board().grounded(&sim.active()?) {
            keys.push(Input::SOFT_DROP);
            if step(&mut sim, Input::SOFT_DROP).is_some() || held > 40 {
                return None;
            }
            held += 1;
        }
        keys.push(Input::NONE);
        if step(&mut sim, Input::NONE).is_some() {
            return None;
        }
        keys.push(turn);
        if step(&mut sim, turn).is_some() || !sim.events().rotated {
            return None;
        }
    }
    keys.push(Input::HARD_DROP);
    let lock = step(&mut sim, Input::HARD_DROP)?;
    if sim.topped_out().is_some() {
        return Some((keys, -1_000_000));
    }
    Some((keys, score(sim.board(), &lock)))
}

/// The heuristic: attack is good; holes, bumps, height and filling the right well are bad.
fn score(board: &Board, lock: &LockEvent) -> i64 {
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
    let mut s = 40 * i64::from(lock.attack.lines) - 25 * holes - 3 * bumps;
    s -= 2 * heights.iter().sum::<i64>();
    s -= 30 * (top - 12).max(0);
    if lock.clear.lines == 0 {
        s -= 8 * heights[9];
    } else if lock.attack.lines == 0 && top < 8 {
        s -= 10 * i64::from(lock.clear.lines);
    }
    if lock.clear.spin == Spin::Full {
        s += 30;
    }
    s
}

/// Plays a `frames`-frame versus match with `seed` between the two bots and returns the keys
/// each seat held on each frame.
pub fn play(seed: u64, frames: u32) -> (MatchHeader, Vec<[Input; 2]>) {
    let header = MatchHeader::versus(seed);
    let mut m = Match::new(header);
    let mut bots = [
        Bot {
            rng: Rng(0x1234_5678_9abc_def1),
            sloppy: 0,
            plan: VecDeque::new(),
        },
        Bot {
            rng: Rng(0x0fed_cba9_8765_4321),
            sloppy: 5,
            plan: VecDeque::new(),
        },
    ];
    let mut tape = Vec::with_capacity(frames as usize);
    let mut go_at = 0;
    for f in 0..frames {
        let playing = match m.phase() {
            Phase::Playing => true,
            Phase::Countdown { go_at: at } => {
                go_at = at;
                f >= at
            }
            _ => false,
        };
        let mut inputs = [Input::NONE; 2];
        if playing {
            let when = When {
                rules: &header.rules,
                frame: f,
                play_start: go_at,
            };
            for seat in sevenbag_core::Seat::BOTH {
                let i = seat.index();
                inputs[i] = bots[i].next_input(m.player(seat), when);
            }
        } else {
            for bot in &mut bots {
                bot.plan.clear();
            }
        }
        m.step(inputs);
        tape.push(inputs);
    }
    (header, tape)
}

/// The script text for a played tape: header lines, then one line per change of keys.
pub fn script_text(header: &MatchHeader, tape: &[[Input; 2]], intro: &str) -> String {
    let mut out = String::new();
    for line in intro.lines() {
        let _ = writeln!(out, "# {line}");
    }
    let _ = writeln!(out, "seed {}", header.seed);
    let _ = writeln!(out, "preset versus");
    let _ = writeln!(out, "frames {}", tape.len());
    let mut held = None;
    for (f, inputs) in tape.iter().enumerate() {
        if held != Some(*inputs) {
            let _ = writeln!(
                out,
                "{f} {} {}",
                keys_to_text(inputs[0]),
                keys_to_text(inputs[1])
            );
            held = Some(*inputs);
        }
    }
    out
}
