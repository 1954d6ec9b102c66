//! The frame cap: sleeps to the next frame's deadline so a display without vsync (Xvfb, some
//! drivers, remote desktops) does not redraw as fast as the CPU allows.
//!
//! The simulation runs at a fixed 60 Hz whatever the frame rate ([`crate::clock`]), so drawing
//! faster than that shows no new state: the default cap is 60 frames per second. With vsync the
//! driver's wait comes first and the pacer only sleeps what is left of the frame's budget.

use std::time::{Duration, Instant};

/// The default cap, in frames per second: the simulation's own rate.
pub const DEFAULT_MAX_FPS: u32 = 60;

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
    pub fn wait(&mut self) {
        let now = Instant::now();
        self.next += self.interval;
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
    fn a_late_frame_does_not_make_the_next_ones_rush() {
        let mut pacer = Pacer::new(100).expect("capped");
        std::thread::sleep(Duration::from_millis(50));
        pacer.wait();
        let start = Instant::now();
        pacer.wait();
        assert!(start.elapsed() >= Duration::from_millis(8));
    }
}
