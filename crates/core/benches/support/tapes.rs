//! The input tapes the benches replay: a deterministic player's keys, as a person presses them
//! (shared by the core's bench and the stats crate's, `#[path]`-included there).

use sevenbag_core::Input;

/// A small deterministic generator for the input tapes (xorshift64*).
pub struct XorShift(pub u64);

impl XorShift {
    /// The next number.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number below `n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}

/// One seat's inputs: per piece, a short pause, a rotation tap, a held or tapped direction,
/// sometimes a little soft drop or a hold, then a hard-drop tap.
pub fn human_tape(rng: &mut XorShift, frames: usize) -> Vec<Input> {
    let mut tape = Vec::with_capacity(frames + 64);
    while tape.len() < frames {
        let pause = 2 + rng.below(6) as usize;
        tape.extend(std::iter::repeat_n(Input::NONE, pause));
        let rotation = [
            Input::NONE,
            Input::ROTATE_CW,
            Input::ROTATE_CCW,
            Input::ROTATE_180,
        ][rng.below(4) as usize];
        if rotation != Input::NONE {
            tape.extend([rotation, rotation, Input::NONE]);
        }
        let dir = if rng.below(2) == 0 {
            Input::LEFT
        } else {
            Input::RIGHT
        };
        let held = 1 + rng.below(14) as usize;
        tape.extend(std::iter::repeat_n(dir, held));
        tape.push(Input::NONE);
        if rng.below(4) == 0 {
            let soft = 2 + rng.below(8) as usize;
            tape.extend(std::iter::repeat_n(Input::SOFT_DROP, soft));
        }
        if rng.below(8) == 0 {
            tape.extend([Input::HOLD, Input::NONE]);
        }
        tape.extend([Input::HARD_DROP, Input::HARD_DROP, Input::NONE]);
    }
    tape.truncate(frames);
    tape
}
