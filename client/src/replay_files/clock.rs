//! The clock of a replay played back, whatever its seat count: paused or not, the speed step,
//! the part of a frame carried between drawn frames, and what the playback keys ask for.

use macroquad::input::KeyCode;

use super::{SEEK_FRAMES, SPEEDS};
use crate::input::Keyboard;

/// Pause, speed and the fraction of a frame owed at that speed.
#[derive(Clone, Debug)]
pub struct PlaybackClock {
    paused: bool,
    /// Index into [`SPEEDS`].
    speed: usize,
    /// Frames owed but not yet stepped (below 1).
    owed: f32,
}

impl Default for PlaybackClock {
    /// Playing at 1×.
    fn default() -> Self {
        PlaybackClock {
            paused: false,
            speed: 2,
            owed: 0.0,
        }
    }
}

impl PlaybackClock {
    /// Whether playback is paused.
    pub fn paused(&self) -> bool {
        self.paused
    }

    /// The playback speed factor.
    pub fn speed(&self) -> f32 {
        SPEEDS[self.speed]
    }

    /// Pauses or resumes.
    pub fn toggle_pause(&mut self) {
        self.paused = !self.paused;
    }

    /// Plays (after a restart).
    pub fn resume(&mut self) {
        self.paused = false;
    }

    /// One speed step faster (`+1`) or slower (`-1`), within [`SPEEDS`].
    pub fn change_speed(&mut self, d: i32) {
        self.speed = (self.speed as i32 + d).clamp(0, SPEEDS.len() as i32 - 1) as usize;
    }

    /// Forgets the part of a frame owed (after a seek).
    pub fn settle(&mut self) {
        self.owed = 0.0;
    }

    /// Frames to step for `clock_steps` of the 60 Hz clock at the current speed (0 paused).
    pub fn pump(&mut self, clock_steps: u32) -> u32 {
        if self.paused {
            return 0;
        }
        self.owed += clock_steps as f32 * self.speed();
        let n = self.owed.floor();
        self.owed -= n;
        n as u32
    }

    /// The playback keys: Space pauses, + and − change the speed; ← → (5 s) and Home (the
    /// start) answer the frame to seek to from `frame`, which the caller shows.
    pub fn keys(&mut self, kb: &Keyboard, frame: u32) -> Option<u32> {
        if kb.pressed(KeyCode::Space) {
            self.toggle_pause();
        }
        if kb.pressed_any(&[KeyCode::Equal, KeyCode::KpAdd]) {
            self.change_speed(1);
        }
        if kb.pressed_any(&[KeyCode::Minus, KeyCode::KpSubtract]) {
            self.change_speed(-1);
        }
        if kb.pressed(KeyCode::Left) {
            Some(frame.saturating_sub(SEEK_FRAMES))
        } else if kb.pressed(KeyCode::Right) {
            Some(frame + SEEK_FRAMES)
        } else if kb.pressed(KeyCode::Home) {
            Some(0)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_speed_steps_one_frame_every_second_clock_step() {
        let mut clock = PlaybackClock::default();
        clock.change_speed(-1);
        assert_eq!(clock.speed(), 0.5);
        assert_eq!(clock.pump(1), 0);
        assert_eq!(clock.pump(1), 1);
        assert_eq!(clock.pump(4), 2);
    }

    #[test]
    fn a_paused_clock_steps_nothing_and_owes_nothing() {
        let mut clock = PlaybackClock::default();
        clock.toggle_pause();
        assert_eq!(clock.pump(10), 0);
        clock.toggle_pause();
        assert_eq!(clock.pump(1), 1);
    }

    #[test]
    fn speed_stays_within_the_offered_steps() {
        let mut clock = PlaybackClock::default();
        for _ in 0..10 {
            clock.change_speed(1);
        }
        assert_eq!(clock.speed(), SPEEDS[SPEEDS.len() - 1]);
        for _ in 0..10 {
            clock.change_speed(-1);
        }
        assert_eq!(clock.speed(), SPEEDS[0]);
    }
}
