//! Random but human-like key tapes for property tests.

use proptest::prelude::*;
use sevenbag_core::Input;

/// A run of held keys: a key mask held for 1..16 frames. Hard drop is kept in about one run in
/// six, so pieces last a while, as they do for a human.
pub fn key_run() -> impl Strategy<Value = (Input, u8)> {
    (any::<u8>(), 0u8..6, 1u8..16).prop_map(|(mask, drop, frames)| {
        let mask = if drop == 0 {
            mask | 1 << 3
        } else {
            mask & !(1 << 3)
        };
        (Input(mask), frames)
    })
}

/// Expands runs into per-frame masks, `frames` long, cycling the runs.
pub fn expand(runs: &[(Input, u8)], frames: usize) -> Vec<Input> {
    runs.iter()
        .flat_map(|&(input, n)| std::iter::repeat_n(input, usize::from(n)))
        .cycle()
        .take(frames)
        .collect()
}
