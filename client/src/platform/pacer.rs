//! The frame cap: sleeps to the next frame's deadline so a display without vsync (Xvfb, some
//! drivers, remote desktops) does not redraw as fast as the CPU allows.
//!
//! The simulation runs at a fixed 60 Hz whatever the frame rate ([`crate::platform::clock`]), so drawing
//! faster than that shows no new state: the default cap is 60 frames per second. With vsync the
//! driver's wait comes first and the pacer only sleeps what is left of the frame's budget.
//!
//! A calm screen (a menu nobody has touched for a moment, where only the backdrop drifts) is
//! drawn at [`CALM_FPS`], and at [`DEEP_CALM_FPS`] once left alone for longer: under software
//! rendering every frame costs milliseconds of CPU, and a menu left open should cost a few
//! percent of one core, not a whole one. The first input brings the full rate back at once
//! (see [`Idle`]).

use sevenbag_netplay::time::Instant;
use std::time::Duration;

/// The default cap, in frames per second: the simulation's own rate.
pub const DEFAULT_MAX_FPS: u32 = 60;

/// Frames per second of a calm screen: enough for the backdrop's slow drift and the selected
/// row's glow to stay smooth, and the first key press answered within a tenth of a second.
pub const CALM_FPS: u32 = 10;

/// Seconds without input after which a calm screen drops to [`CALM_FPS`].
pub const CALM_AFTER: f32 = 1.5;

/// Frames per second of a calm screen nobody has touched for [`DEEP_CALM_AFTER`] seconds: a
/// menu left open behind other windows costs a few percent of one core even under software
/// rendering; the first key press is answered within a quarter of a second.
pub const DEEP_CALM_FPS: u32 = 4;

/// Seconds without input after which a calm screen drops to [`DEEP_CALM_FPS`].
pub const DEEP_CALM_AFTER: f32 = 10.0;

/// Tracks how long the player has left the game alone.
#[derive(Debug, Default)]
pub struct Idle {
    quiet: f32,
}

impl Idle {
    /// Notes one frame of `dt` seconds; `input` is whether any key, button, wheel or pointer
    /// movement arrived in it.
    pub fn frame(&mut self, dt: f32, input: bool) {
        self.quiet = if input { 0.0 } else { self.quiet + dt };
    }

    /// True once nothing has arrived for [`CALM_AFTER`] seconds.
    pub fn idle(&self) -> bool {
        self.quiet >= CALM_AFTER
    }

    /// The frame rate a calm screen is held to now: `None` while the player is active.
    pub fn calm_fps(&self) -> Option<u32> {
        if self.quiet >= DEEP_CALM_AFTER {
            Some(DEEP_CALM_FPS)
        } else if self.idle() {
            Some(CALM_FPS)
        } else {
            None
        }
    }
}

/// Sleeps between frames to hold at most `max_fps` frames per second.
#[derive(Debug)]
pub struct Pacer {
    interval: Duration,
    next: Instant,
}

impl Pacer {
    /// A pacer for `max_fps` frames per second; `None` for 0 (no cap).
    pub fn new(max_fps: u32) -> Option<Pacer> {
        (max_fps > 0).then(|| Pacer {
            interval: Duration::from_secs(1) / max_fps,
            next: Instant::now(),
        })
    }

    /// Waits until the next frame is due. A frame that ran late moves the schedule on instead
    /// of letting later frames rush to catch up.
    #[cfg(test)]
    pub fn wait(&mut self) {
        self.wait_at(None);
    }

    /// Waits until the next frame is due (see [`Pacer::wait`]), at `calm_fps` frames per
    /// second when given (or at the cap, if that is lower).
    pub fn wait_at(&mut self, calm_fps: Option<u32>) {
        let now = Instant::now();
        self.next += match calm_fps {
            Some(fps) if fps > 0 => self.interval.max(Duration::from_secs(1) / fps),
            _ => self.interval,
        };
        if self.next > now {
            std::thread::sleep(self.next - now);
        } else {
            self.next = now;
        }
    }

    /// The time between frames.
    #[cfg(test)]
    pub fn interval(&self) -> Duration {
        self.interval
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_means_no_cap() {
        assert!(Pacer::new(0).is_none());
    }

    #[test]
    fn the_cap_sets_the_frame_interval() {
        let pacer = Pacer::new(50).expect("capped");
        assert_eq!(pacer.interval(), Duration::from_millis(20));
    }

    #[test]
    fn frames_are_held_to_the_cap() {
        let mut pacer = Pacer::new(100).expect("capped");
        let start = Instant::now();
        for _ in 0..5 {
            pacer.wait();
        }
        assert!(start.elapsed() >= Duration::from_millis(45));
    }

    #[test]
    fn a_calm_screen_is_drawn_at_the_calm_rate() {
        // Timed from before the pacer's start, so a late wake-up (a loaded machine) cannot
        // shorten what is measured: two calm frames are due two calm intervals after it.
        let start = Instant::now();
        let mut pacer = Pacer::new(60).expect("capped");
        pacer.wait_at(Some(CALM_FPS));
        pacer.wait_at(Some(CALM_FPS));
        assert!(start.elapsed() >= 2 * (Duration::from_secs(1) / CALM_FPS));
    }

    #[test]
    fn idle_starts_after_a_quiet_spell_and_ends_with_the_first_input() {
        let mut idle = Idle::default();
        idle.frame(CALM_AFTER / 2.0, false);
        assert!(!idle.idle());
        idle.frame(CALM_AFTER / 2.0, false);
        assert!(idle.idle());
        assert_eq!(idle.calm_fps(), Some(CALM_FPS));
        idle.frame(DEEP_CALM_AFTER, false);
        assert_eq!(idle.calm_fps(), Some(DEEP_CALM_FPS));
        idle.frame(0.1, true);
        assert!(!idle.idle());
        assert_eq!(idle.calm_fps(), None);
    }

    #[test]
    fn a_late_frame_does_not_make_the_next_ones_rush() {
        let mut pacer = Pacer::new(100).expect("capped");
        std::thread::sleep(Duration::from_millis(50));
        // Timed from before the late frame: it moves the schedule to its own start, so the
        // next frame still waits a whole interval (rushing to catch up would not wait at all).
        let start = Instant::now();
        pacer.wait();
        pacer.wait();
        assert!(start.elapsed() >= Duration::from_millis(10));
    }
}
