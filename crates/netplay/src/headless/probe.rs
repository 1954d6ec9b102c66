//! The load tester's relay-latency probe, shared by both players of a match.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Instant;

use sevenbag_core::Seat;

/// Relay-latency measurement for the load tester: both players of a match share one probe; the
/// sender notes when each `Inputs` batch left, keyed by (seat, confirmed), and the opponent looks
/// it up on receipt. Works because both clients run on the same machine and clock.
#[derive(Debug, Default)]
pub struct RelayProbe {
    inner: Mutex<ProbeInner>,
}

#[derive(Debug, Default)]
struct ProbeInner {
    sent: HashMap<(Seat, u32), Instant>,
    /// Latencies measured, in microseconds.
    samples: Vec<u32>,
}

impl RelayProbe {
    /// An empty probe.
    pub fn new() -> RelayProbe {
        RelayProbe::default()
    }

    /// A batch of `seat` confirming `confirmed` left at `at`.
    pub fn sent(&self, seat: Seat, confirmed: u32, at: Instant) {
        if let Ok(mut inner) = self.inner.lock() {
            inner.sent.insert((seat, confirmed), at);
        }
    }

    /// The opponent received that batch at `at`.
    pub fn received(&self, seat: Seat, confirmed: u32, at: Instant) {
        if let Ok(mut inner) = self.inner.lock()
            && let Some(sent) = inner.sent.remove(&(seat, confirmed))
        {
            let micros = at.saturating_duration_since(sent).as_micros();
            inner
                .samples
                .push(u32::try_from(micros).unwrap_or(u32::MAX));
        }
    }

    /// Takes the latencies measured so far (microseconds) and forgets batches in flight.
    pub fn take_samples(&self) -> Vec<u32> {
        match self.inner.lock() {
            Ok(mut inner) => {
                inner.sent.clear();
                std::mem::take(&mut inner.samples)
            }
            Err(_) => Vec::new(),
        }
    }
}
