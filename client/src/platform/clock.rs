//! The fixed 60 Hz simulation clock, independent of the display rate.
//!
//! Each rendered frame adds its real duration to an accumulator and runs as many whole 1/60 s
//! simulation steps as fit. A long hitch is capped so the game never spirals trying to catch up.
//! In capture mode (`--frames`) the clock instead yields exactly one step per rendered frame, so
//! a screenshot after N frames always shows simulation frame N, however fast Xvfb renders.

/// Seconds per simulation step.
pub const STEP: f64 = 1.0 / 60.0;
/// Most steps run in one rendered frame (half a second, so even 2 frames a second keep real
/// time); beyond that, time is dropped.
pub const MAX_STEPS: u32 = 30;

/// The accumulator.
#[derive(Clone, Copy, Debug, Default)]
pub struct FixedClock {
    acc: f64,
    lockstep: bool,
}

impl FixedClock {
    /// A clock driven by real time.
    pub fn real_time() -> FixedClock {
        FixedClock::default()
    }

    /// A clock that steps once per rendered frame (deterministic captures).
    pub fn one_per_frame() -> FixedClock {
        FixedClock {
            acc: 0.0,
            lockstep: true,
        }
    }

    /// Adds `dt` seconds of real time and returns how many steps to simulate now.
    pub fn advance(&mut self, dt: f64) -> u32 {
        if self.lockstep {
            return 1;
        }
        self.acc += dt.clamp(0.0, 1.0);
        let steps = (self.acc / STEP).floor() as u32;
        self.acc -= f64::from(steps) * STEP;
        if steps > MAX_STEPS {
            self.acc = 0.0;
            return MAX_STEPS;
        }
        steps
    }
}

/// Nanoseconds since the Unix epoch from the wall clock (0 if it is before 1970), for seeds and
/// dates. `SystemTime::now()` panics in a browser, so there the page's `Date.now()` is read.
pub fn unix_nanos() -> u64 {
    #[cfg(target_arch = "wasm32")]
    return (macroquad::miniquad::date::now() * 1e9) as u64;
    #[cfg(not(target_arch = "wasm32"))]
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

/// A seed for a new offline match.
pub fn random_seed() -> u64 {
    let nanos = unix_nanos();
    // SplitMix64 finaliser: spreads nearby clock values apart.
    let mut z = nanos.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sixty_steps_a_second_at_any_frame_rate() {
        for fps in [30.0, 59.94, 60.0, 75.0, 144.0, 240.0, 1000.0] {
            let mut clock = FixedClock::real_time();
            let frames = (fps * 10.0) as u32;
            let steps: u32 = (0..frames).map(|_| clock.advance(1.0 / fps)).sum();
            assert!((599..=601).contains(&steps), "{fps} fps gave {steps} steps");
        }
    }

    #[test]
    fn hitches_are_capped() {
        let mut clock = FixedClock::real_time();
        assert_eq!(clock.advance(5.0), MAX_STEPS);
        assert_eq!(clock.advance(0.0), 0);
    }

    #[test]
    fn capture_mode_steps_once_per_frame() {
        let mut clock = FixedClock::one_per_frame();
        assert_eq!(clock.advance(0.0), 1);
        assert_eq!(clock.advance(0.5), 1);
    }
}
