//! The monotonic clock the sessions, pacer and clock sync are timed with.
//!
//! Natively this is [`std::time::Instant`]. In a browser (`wasm32-unknown-unknown`) the standard
//! library has no clock — `std::time::Instant::now()` panics there — so [`Instant`] is a small
//! type of our own with the same API (the parts this workspace uses), counting from a source the
//! game registers once with [`set_source`] (the page's `performance.now()` through macroquad).
//! We do not use `web-time` or `instant`: both read the clock through `wasm-bindgen`, whose output
//! macroquad's JavaScript loader cannot load.

#[cfg(not(target_arch = "wasm32"))]
pub use std::time::Instant;

#[cfg(target_arch = "wasm32")]
pub use web::{Instant, set_source};

#[cfg(target_arch = "wasm32")]
mod web {
    use std::ops::{Add, AddAssign, Sub, SubAssign};
    use std::sync::OnceLock;
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::time::Duration;

    /// The registered clock: seconds since any fixed origin.
    static SOURCE: OnceLock<fn() -> f64> = OnceLock::new();
    /// The latest reading in nanoseconds, so time never runs backwards.
    static LAST: AtomicU64 = AtomicU64::new(0);

    /// Registers the clock [`Instant::now`] reads (seconds, monotonic or nearly so). Later calls
    /// are ignored. Until one is registered, time stands still.
    pub fn set_source(source: fn() -> f64) {
        let _ = SOURCE.set(source);
    }

    /// A moment on the registered clock (see the module docs).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
    pub struct Instant(Duration);

    impl Instant {
        /// Now, never earlier than a previous `now()`.
        pub fn now() -> Instant {
            let secs = SOURCE.get().map_or(0.0, |f| f());
            let nanos = if secs.is_finite() && secs > 0.0 {
                (secs * 1e9) as u64
            } else {
                0
            };
            let latest = LAST.fetch_max(nanos, Ordering::Relaxed).max(nanos);
            Instant(Duration::from_nanos(latest))
        }

        /// Time from `earlier` to this one (zero if `earlier` is later).
        pub fn duration_since(&self, earlier: Instant) -> Duration {
            self.saturating_duration_since(earlier)
        }

        /// Time from `earlier` to this one, or `None` if `earlier` is later.
        pub fn checked_duration_since(&self, earlier: Instant) -> Option<Duration> {
            self.0.checked_sub(earlier.0)
        }

        /// Time from `earlier` to this one (zero if `earlier` is later).
        pub fn saturating_duration_since(&self, earlier: Instant) -> Duration {
            self.0.saturating_sub(earlier.0)
        }

        /// Time since this moment.
        pub fn elapsed(&self) -> Duration {
            Instant::now().saturating_duration_since(*self)
        }

        /// This moment plus `d`, if representable.
        pub fn checked_add(&self, d: Duration) -> Option<Instant> {
            self.0.checked_add(d).map(Instant)
        }

        /// This moment minus `d`, if not before the clock's origin.
        pub fn checked_sub(&self, d: Duration) -> Option<Instant> {
            self.0.checked_sub(d).map(Instant)
        }
    }

    impl Add<Duration> for Instant {
        type Output = Instant;
        fn add(self, d: Duration) -> Instant {
            Instant(self.0 + d)
        }
    }

    impl AddAssign<Duration> for Instant {
        fn add_assign(&mut self, d: Duration) {
            self.0 += d;
        }
    }

    impl Sub<Duration> for Instant {
        type Output = Instant;
        fn sub(self, d: Duration) -> Instant {
            Instant(self.0.saturating_sub(d))
        }
    }

    impl SubAssign<Duration> for Instant {
        fn sub_assign(&mut self, d: Duration) {
            self.0 = self.0.saturating_sub(d);
        }
    }

    impl Sub<Instant> for Instant {
        type Output = Duration;
        fn sub(self, other: Instant) -> Duration {
            self.saturating_duration_since(other)
        }
    }
}
