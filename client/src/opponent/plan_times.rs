//! What the bot's plans on the caller's thread cost it, counted for the whole process.

use std::sync::atomic::{AtomicU64, Ordering};

/// The bot's plans made on the caller's thread in this process and what they cost it (the
/// browser build plans in slices of its frames: the page's test hook reports these, see
/// [`crate::checks::probe`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlanTimes {
    /// Plans made.
    pub plans: u64,
    /// Their total thinking time, microseconds.
    pub total_us: u64,
    /// The longest thinking in one frame, microseconds: what a frame pays.
    pub frame_max_us: u64,
    /// Frames spent thinking.
    pub frames: u64,
    /// The most frames one plan took.
    pub plan_frames_max: u64,
    /// The longest start of a plan, one slice of it, and taking it up, microseconds.
    pub parts_max_us: [u64; 3],
}

/// [`PlanTimes`] as counters shared by every bot of the process.
pub(super) struct PlanCounters {
    plans: AtomicU64,
    total_us: AtomicU64,
    frame_max_us: AtomicU64,
    frames: AtomicU64,
    plan_frames_max: AtomicU64,
    /// Frames of the plan under way.
    current_frames: AtomicU64,
    parts_max_us: [AtomicU64; 3],
}

pub(super) static PLAN_TIMES: PlanCounters = PlanCounters {
    plans: AtomicU64::new(0),
    total_us: AtomicU64::new(0),
    frame_max_us: AtomicU64::new(0),
    frames: AtomicU64::new(0),
    plan_frames_max: AtomicU64::new(0),
    current_frames: AtomicU64::new(0),
    parts_max_us: [AtomicU64::new(0), AtomicU64::new(0), AtomicU64::new(0)],
};

impl PlanCounters {
    /// Counts one frame's thinking that took `took`, which `finished` a plan or not.
    /// Notes that part `i` of a plan (0 its start, 1 a slice, 2 taking it up) took `took`.
    pub(super) fn part(&self, i: usize, took: std::time::Duration) {
        let us = u64::try_from(took.as_micros()).unwrap_or(u64::MAX);
        self.parts_max_us[i].fetch_max(us, Ordering::Relaxed);
    }

    pub(super) fn think(&self, took: std::time::Duration, finished: bool) {
        let us = u64::try_from(took.as_micros()).unwrap_or(u64::MAX);
        self.total_us.fetch_add(us, Ordering::Relaxed);
        self.frame_max_us.fetch_max(us, Ordering::Relaxed);
        self.frames.fetch_add(1, Ordering::Relaxed);
        let frames = self.current_frames.fetch_add(1, Ordering::Relaxed) + 1;
        if finished {
            self.plans.fetch_add(1, Ordering::Relaxed);
            self.plan_frames_max.fetch_max(frames, Ordering::Relaxed);
            self.current_frames.store(0, Ordering::Relaxed);
        }
    }
}

/// The plans so far (see [`PlanTimes`]).
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub fn plan_times() -> PlanTimes {
    let t = &PLAN_TIMES;
    PlanTimes {
        plans: t.plans.load(Ordering::Relaxed),
        total_us: t.total_us.load(Ordering::Relaxed),
        frame_max_us: t.frame_max_us.load(Ordering::Relaxed),
        frames: t.frames.load(Ordering::Relaxed),
        plan_frames_max: t.plan_frames_max.load(Ordering::Relaxed),
        parts_max_us: t.parts_max_us.each_ref().map(|p| p.load(Ordering::Relaxed)),
    }
}
