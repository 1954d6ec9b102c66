//! Shutdown plumbing, after mini-redis: one signal that every task listens to, and one channel
//! whose last sender dropping tells [`crate::run`] that every task has finished.
//!
//! mini-redis uses a `broadcast` channel for the signal. We use a `watch` channel holding a
//! `bool`: it is the same broadcast, but a task subscribed *after* the signal was sent (a room
//! created while the server is going down) still sees it, where a late broadcast receiver
//! would wait forever.

use tokio::sync::{mpsc, watch};

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
