//! Where a headless player's keys come from: the [`InputSource`] trait and three sources.
//!
//! A source is asked once per simulated frame, with the predicted match as the player sees it.
//! [`RandomInputs`] plays like a hasty human (keys held for runs of frames, a hard drop every
//! so often, so random rounds end in seconds), [`ScriptedInputs`] replays a fixed list and
//! [`Idle`] holds nothing. A bot source lives outside this crate (netplay does not depend on the
//! bot): anything with `next_input(&Match, Seat) -> Input` fits.

use sevenbag_core::{Input, Match, Seat, SeatInput};

/// Gives a player's keys for the next frame.
pub trait InputSource {
    /// Keys held during the next frame, seeing the match `m` (predicted) as seat `seat`.
    fn next_input(&mut self, m: &Match, seat: Seat) -> Input;
}

impl<T: InputSource + ?Sized> InputSource for &mut T {
    fn next_input(&mut self, m: &Match, seat: Seat) -> Input {
        (**self).next_input(m, seat)
    }
}

/// An input source from a closure, like [`std::iter::from_fn`]: how a bot plugs in without
/// netplay depending on the bot crate (`from_fn(|m, seat| bot.next_input(m, seat))`).
pub fn from_fn<F: FnMut(&Match, Seat) -> Input>(f: F) -> FromFn<F> {
    FromFn(f)
}

/// The input source [`from_fn`] returns.
#[derive(Clone, Debug)]
pub struct FromFn<F>(F);

impl<F: FnMut(&Match, Seat) -> Input> InputSource for FromFn<F> {
    fn next_input(&mut self, m: &Match, seat: Seat) -> Input {
        (self.0)(m, seat)
    }
}

impl<T: InputSource + ?Sized> InputSource for Box<T> {
    fn next_input(&mut self, m: &Match, seat: Seat) -> Input {
        (**self).next_input(m, seat)
    }
}

/// Holds no key, ever.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Idle;

impl InputSource for Idle {
    fn next_input(&mut self, _: &Match, _: Seat) -> Input {
        Input::NONE
    }
}

/// Plays a fixed list of masks, one per call, then holds nothing (or starts over).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScriptedInputs {
    masks: Vec<Input>,
    next: usize,
    repeat: bool,
}

impl ScriptedInputs {
    /// Plays `masks` once.
    pub fn new(masks: Vec<Input>) -> ScriptedInputs {
        ScriptedInputs {
            masks,
            next: 0,
            repeat: false,
        }
    }

    /// Plays `masks` over and over.
    pub fn repeating(masks: Vec<Input>) -> ScriptedInputs {
        ScriptedInputs {
            repeat: true,
            ..ScriptedInputs::new(masks)
        }
    }
}

impl InputSource for ScriptedInputs {
    fn next_input(&mut self, _: &Match, _: Seat) -> Input {
        if self.repeat && self.next >= self.masks.len() {
            self.next = 0;
        }
        let mask = self.masks.get(self.next).copied().unwrap_or(Input::NONE);
        self.next += 1;
        mask
    }
}

/// Seeded random play: runs of held keys and frequent hard drops.
///
/// Each piece gets a random number of frames (the drop interval) during which keys are held in
/// runs of 1 to 6 frames (a direction, a rotation, both, soft drop, rarely hold, or nothing);
/// then hard drop is pressed for one frame and released for one. The same seed gives the same
/// keys, call for call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RandomInputs {
    rng: u64,
    /// Current run's mask and frames left in it.
    held: Input,
    run_left: u32,
    /// Frames until the next hard drop.
    drop_in: u32,
    /// Just dropped: release everything for a frame so the next drop is a new press.
    release: bool,
    min_drop: u32,
    max_drop: u32,
}

impl RandomInputs {
    /// Random play seeded with `seed`: a hard drop every 8 to 24 frames (about 4 pieces a
    /// second, so a round of random play lasts roughly 10–20 seconds).
    pub fn new(seed: u64) -> RandomInputs {
        RandomInputs {
            rng: seed ^ 0x9E37_79B9_7F4A_7C15,
            held: Input::NONE,
            run_left: 0,
            drop_in: 0,
            release: false,
            min_drop: 8,
            max_drop: 24,
        }
        .with_drop_every(8, 24)
    }

    /// Hard drop every `min..=max` frames (at least 1 frame between drops; tests use 2–8 so that
    /// rounds end within a few seconds).
    pub fn with_drop_every(mut self, min: u32, max: u32) -> RandomInputs {
        self.min_drop = min.max(1);
        self.max_drop = max.max(self.min_drop);
        self.drop_in = self.roll(self.min_drop, self.max_drop);
        self
    }

    /// SplitMix64.
    fn next_u64(&mut self) -> u64 {
        self.rng = self.rng.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.rng;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `lo..=hi` (the tiny modulo bias does not matter for play).
    fn roll(&mut self, lo: u32, hi: u32) -> u32 {
        lo + (self.next_u64() % u64::from(hi - lo + 1)) as u32
    }
}

/// What a run holds, with weights out of 32.
const RUNS: [(Input, u32); 9] = [
    (Input::NONE, 6),
    (Input::LEFT, 6),
    (Input::RIGHT, 6),
    (Input::ROTATE_CW, 4),
    (Input::ROTATE_CCW, 3),
    (Input::ROTATE_180, 1),
    (Input(Input::LEFT.0 | Input::ROTATE_CW.0), 2),
    (Input(Input::RIGHT.0 | Input::ROTATE_CCW.0), 2),
    (Input::SOFT_DROP, 2),
];

impl InputSource for RandomInputs {
    fn next_input(&mut self, _: &Match, _: Seat) -> Input {
        self.next_keys()
    }
}

impl RandomInputs {
    /// Keys for a seat of a match of any seat count (no target: the room's targeting picks).
    pub fn for_battle(mut self) -> impl FnMut(&sevenbag_core::Battle, usize) -> SeatInput + Send {
        move |_, _| SeatInput::from(self.next_keys())
    }

    /// The next frame's keys (random play reads neither the match nor the seat).
    pub fn next_keys(&mut self) -> Input {
        if self.release {
            self.release = false;
            self.run_left = 0;
            return Input::NONE;
        }
        if self.drop_in == 0 {
            self.drop_in = self.roll(self.min_drop, self.max_drop);
            self.release = true;
            return Input::HARD_DROP;
        }
        self.drop_in -= 1;
        if self.run_left == 0 {
            // One piece in 20 or so is held instead.
            let mut pick = self.roll(0, 32);
            self.held = Input::HOLD;
            for (mask, weight) in RUNS {
                if pick < weight {
                    self.held = mask;
                    break;
                }
                pick -= weight;
            }
            self.run_left = self.roll(1, 6);
        }
        self.run_left -= 1;
        self.held
    }
}
