//! A future polled only once it has asked to be: for the long waits (the server shutting
//! down, a connection cut) that a connection's or a room's loop holds in its `select!` beside
//! the socket or inbox.
//!
//! `select!` polls every branch each time its task wakes, and a task here wakes for every
//! message. Polling a pending `watch` wait takes a `Notify`'s lock to store the waker again,
//! and the shutdown channel's few `Notify`s are shared by every connection and room of the
//! server: locks both workers took on every message relayed. [`Gated`] polls its future the first time
//! and afterwards only when that future woke the task, which costs two atomic operations.
//!
//! This module imports nothing else from the crate.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll, Wake, Waker};

use futures_util::task::AtomicWaker;

/// Whether the inner future woke since it was last polled, and the task to wake.
#[derive(Debug)]
struct Flag {
    woken: AtomicBool,
    task: AtomicWaker,
}

impl Wake for Flag {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.woken.store(true, Ordering::Release);
        self.task.wake();
    }
}

/// `F`, polled only when it woke the task (see the module docs).
pub(crate) struct Gated<F> {
    inner: Pin<Box<F>>,
    flag: Arc<Flag>,
    /// The waker the inner future is polled with: sets the flag, then wakes the task.
    waker: Waker,
}

impl<F: Future> Gated<F> {
    /// Wraps `future`; its first poll goes through.
    pub(crate) fn new(future: F) -> Gated<F> {
        let flag = Arc::new(Flag {
            woken: AtomicBool::new(true),
            task: AtomicWaker::new(),
        });
        Gated {
            inner: Box::pin(future),
            waker: Waker::from(flag.clone()),
            flag,
        }
    }
}

impl<F: Future> Future for Gated<F> {
    type Output = F::Output;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<F::Output> {
        let this = self.get_mut();
        this.flag.task.register(cx.waker());
        if !this.flag.woken.swap(false, Ordering::AcqRel) {
            return Poll::Pending;
        }
        this.inner
            .as_mut()
            .poll(&mut Context::from_waker(&this.waker))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[tokio::test]
    async fn a_gated_wait_still_ends_when_its_future_does() {
        let (tx, mut rx) = tokio::sync::watch::channel(false);
        let mut wait = Gated::new(async move {
            let _ = rx.wait_for(|v| *v).await;
        });
        let mut ticks = 0;
        loop {
            tokio::select! {
                biased;
                _ = &mut wait => break,
                _ = tokio::time::sleep(Duration::from_millis(1)) => {
                    ticks += 1;
                    if ticks == 5 {
                        tx.send_replace(true);
                    }
                    assert!(ticks < 1000, "the gated wait never ended");
                }
            }
        }
        assert!(ticks >= 5);
    }

    #[tokio::test]
    async fn a_gated_wait_woken_without_ending_still_hears_the_next_wake() {
        let (tx, mut rx) = tokio::sync::watch::channel(0u8);
        let wait = Gated::new(async move {
            let _ = rx.wait_for(|v| *v == 2).await;
        });
        // Nothing else wakes the waiting task: only the gated future's own wakes, the first
        // of which does not end it.
        tokio::spawn(async move {
            for value in [1, 2] {
                tokio::time::sleep(Duration::from_millis(20)).await;
                tx.send_replace(value);
            }
            std::future::pending::<()>().await;
        });
        tokio::time::timeout(Duration::from_secs(5), wait)
            .await
            .expect("the gated wait missed a wake");
    }
}
