//! Shutdown plumbing, after mini-redis: one signal that every task listens to, and one channel
//! whose last sender dropping tells [`crate::run`] that every task has finished.
//!
//! mini-redis uses a `broadcast` channel for the signal. We use a `watch` channel holding a
//! `bool`: it is the same broadcast, but a task subscribed *after* the signal was sent (a room
//! created while the server is going down) still sees it, where a late broadcast receiver
//! would wait forever.
//!
//! Before the shutdown signal there may be a graceful drain ([`crate::run_with_drain`]): the
//! [`Draining`] flag makes the lobby and rooms refuse new rooms, queue entries and matches,
//! and [`wait_drained`] waits for the running matches to end. Then the usual shutdown follows.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use tokio::sync::{mpsc, watch};
use tracing::{info, warn};

/// How often a drain checks whether the last match has finished.
const DRAIN_POLL: Duration = Duration::from_millis(100);

/// Set once a drain has begun; never cleared (the server exits after it).
#[derive(Debug, Default)]
pub(crate) struct Draining(AtomicBool);

impl Draining {
    /// Begins the drain; `false` if it had already begun.
    pub(crate) fn start(&self) -> bool {
        !self.0.swap(true, Ordering::SeqCst)
    }

    /// Whether a drain has begun: no new rooms, queue entries or matches.
    pub(crate) fn is_draining(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}

/// Waits until `running()` (the matches still being played) is zero, or `timeout` passes.
/// A finished match's replay is written before the room counts it finished, and its result
/// is queued for the database writer, which `run` flushes before it returns.
pub(crate) async fn wait_drained(running: impl Fn() -> i64, timeout: Duration) {
    let deadline = tokio::time::Instant::now() + timeout;
    loop {
        let left = running();
        if left <= 0 {
            info!("drain: every match has finished");
            return;
        }
        if tokio::time::Instant::now() >= deadline {
            warn!(
                matches = left,
                timeout_s = timeout.as_secs_f64(),
                "drain timed out; unfinished matches are saved as they stand"
            );
            return;
        }
        tokio::time::sleep(DRAIN_POLL).await;
    }
}

/// Listens for the server's shutdown signal.
#[derive(Clone, Debug)]
pub(crate) struct Shutdown {
    /// `true` once shutdown has begun. A dropped sender also counts as shutdown.
    rx: watch::Receiver<bool>,
}

impl Shutdown {
    /// A listener on `rx`.
    pub(crate) fn new(rx: watch::Receiver<bool>) -> Shutdown {
        Shutdown { rx }
    }

    /// Whether shutdown has begun.
    pub(crate) fn is_shutdown(&self) -> bool {
        *self.rx.borrow()
    }

    /// Waits for shutdown. Cancel-safe, so it can sit in a `select!` loop.
    pub(crate) async fn recv(&mut self) {
        // An error means the sender is gone, which only happens once `run` is returning:
        // that is a shutdown too.
        let _ = self.rx.wait_for(|down| *down).await;
    }
}

/// The other half: [`crate::run`] keeps the receiver, and every task it spawns (directly or via
/// rooms) holds a clone of the sender. When `run` drops its own sender and `recv()` returns
/// `None`, every task — and every replay write they were doing — has finished.
#[derive(Debug)]
pub(crate) struct Tasks {
    /// `None` once shutdown has begun: no new task may start after that.
    tx: std::sync::Mutex<Option<mpsc::Sender<()>>>,
}

/// Held by a running task; dropping it is how the task says it is done.
#[derive(Clone, Debug)]
pub(crate) struct TaskGuard {
    _tx: mpsc::Sender<()>,
}

impl Tasks {
    /// A tracker and the receiver `run` waits on.
    pub(crate) fn new() -> (Tasks, mpsc::Receiver<()>) {
        let (tx, rx) = mpsc::channel(1);
        (
            Tasks {
                tx: std::sync::Mutex::new(Some(tx)),
            },
            rx,
        )
    }

    /// A guard for a new task, or `None` once shutdown has begun.
    pub(crate) fn guard(&self) -> Option<TaskGuard> {
        let tx = self.tx.lock().unwrap_or_else(|p| p.into_inner());
        tx.as_ref().map(|tx| TaskGuard { _tx: tx.clone() })
    }

    /// Stops handing out guards and drops the tracker's own sender.
    pub(crate) fn close(&self) {
        let mut tx = self.tx.lock().unwrap_or_else(|p| p.into_inner());
        tx.take();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_drain_starts_once() {
        let d = Draining::default();
        assert!(!d.is_draining());
        assert!(d.start());
        assert!(!d.start());
        assert!(d.is_draining());
    }

    #[tokio::test]
    async fn waiting_for_a_drain_gives_up_at_the_timeout() {
        let started = tokio::time::Instant::now();
        wait_drained(|| 1, Duration::from_millis(300)).await;
        assert!(started.elapsed() >= Duration::from_millis(300));
        let started = tokio::time::Instant::now();
        wait_drained(|| 0, Duration::from_secs(30)).await;
        assert!(started.elapsed() < Duration::from_secs(5));
    }
}
