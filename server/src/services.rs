//! What every room and connection task shares ([`Services`]): the configuration, replays,
//! the database, room logs, metrics, the shutdown signal and task tracking.
//!
//! It imports none of the modules that use it (rooms, the lobby, the cluster, connections), so
//! each of them takes an `Arc<Services>` handle instead of importing its caller. Connections
//! get it with the lobby and the cluster in [`crate::shared::Shared`].

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use tokio::sync::watch;

use crate::Config;
use crate::db::Db;
use crate::metrics::Metrics;
use crate::replay::ReplayStore;
use crate::shutdown::{Draining, Shutdown, Tasks};

/// What every room and connection task shares: configuration, stores, metrics, shutdown.
#[derive(Debug)]
pub(crate) struct Services {
    /// The configuration the server was started with.
    pub(crate) config: Config,
    /// The replay directory.
    pub(crate) replays: ReplayStore,
    /// Identities, ratings and history, when the server has a database.
    pub(crate) db: Option<Db>,
    /// The server's epoch for `Pong { server_ms }`.
    pub(crate) epoch: Instant,
    /// `true` once shutdown began; each task wraps a clone in a `Shutdown`.
    pub(crate) shutdown: watch::Receiver<bool>,
    /// Tracks running tasks so `run` can wait for them.
    pub(crate) tasks: Tasks,
    /// Set once a graceful drain has begun.
    pub(crate) draining: Draining,
    /// The Prometheus metrics (`/metrics`).
    pub(crate) metrics: Metrics,
    /// Running matches' room logs, unless turned off.
    pub(crate) room_logs: Option<crate::durable::RoomLogs>,
    /// Next connection id.
    next_client: AtomicU64,
}

/// Where a server keeps what outlives a connection: replays, the database, room logs.
pub(crate) struct Stores {
    /// Finished matches' replays.
    pub(crate) replays: ReplayStore,
    /// Identities, ratings and history, if kept.
    pub(crate) db: Option<Db>,
    /// Running matches' room logs, unless turned off.
    pub(crate) room_logs: Option<crate::durable::RoomLogs>,
}

impl Services {
    /// Services for a server with `config`.
    pub(crate) fn new(
        config: Config,
        stores: Stores,
        metrics: Metrics,
        shutdown: watch::Receiver<bool>,
        tasks: Tasks,
    ) -> Services {
        let Stores {
            replays,
            db,
            room_logs,
        } = stores;
        Services {
            config,
            replays,
            db,
            epoch: Instant::now(),
            shutdown,
            tasks,
            draining: Draining::default(),
            metrics,
            room_logs,
            next_client: AtomicU64::new(1),
        }
    }

    /// Spawns a background task that runs until the server shuts down: `task` gets the
    /// [`Shutdown`] to watch, and `run` waits for it. Nothing starts once shutdown began.
    pub(crate) fn spawn_until_shutdown<F, Fut>(&self, task: F)
    where
        F: FnOnce(Shutdown) -> Fut,
        Fut: std::future::Future<Output = ()> + Send + 'static,
    {
        let Some(guard) = self.tasks.guard() else {
            return;
        };
        let work = task(Shutdown::new(self.shutdown.clone()));
        tokio::spawn(async move {
            let _guard = guard;
            work.await;
        });
    }

    /// A fresh connection id.
    pub(crate) fn next_client_id(&self) -> u64 {
        self.next_client.fetch_add(1, Ordering::Relaxed)
    }
}
