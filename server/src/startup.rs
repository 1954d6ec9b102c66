//! Starting the server: the stores, the cluster and the datagram path opened in order, rooms
//! restored from their logs, then the accept loop until a drain or a stop, and the ordered
//! shutdown after it.

use std::future::Future;
use std::sync::Arc;

use tokio::net::TcpListener;
use tokio::sync::watch;
use tracing::info;

use crate::config::Config;
use crate::error::ServerError;
use crate::{
    cluster, datagram, db, durable, lobby, metrics, moderation, quick_battle, replay, room, server,
    services, shared, shutdown, tls, web,
};

/// The UDP socket at the listener's address, for the datagram path; `None` (with a warning:
/// clients then stay on the WebSocket) when the port is taken on UDP.
pub(crate) fn udp_twin(listener: &TcpListener) -> Option<std::net::UdpSocket> {
    let addr = listener.local_addr().ok()?;
    match std::net::UdpSocket::bind(addr).and_then(|s| s.set_nonblocking(true).map(|()| s)) {
        Ok(socket) => Some(socket),
        Err(e) => {
            tracing::warn!(%addr, error = %e, "cannot bind UDP on the server's port: no datagram path, clients stay on the WebSocket");
            None
        }
    }
}

/// [`run_with_drain`](crate::run_with_drain) with the datagram path's socket already bound (or
/// none).
pub(crate) async fn serve(
    listener: TcpListener,
    udp: Option<std::net::UdpSocket>,
    mut config: Config,
    drain: impl Future<Output = ()>,
    stop: impl Future<Output = ()>,
) -> Result<(), ServerError> {
    if let Some(dir) = &config.web_dir {
        config.web_dir = Some(web::resolve_root(dir)?);
    }
    let tls = match &config.tls {
        Some(files) => Some(tls::acceptor(files)?),
        None => None,
    };
    let metrics = metrics::Metrics::new().map_err(|e| ServerError::Metrics(e.to_string()))?;
    let moderation = Arc::new(moderation::Moderation::new(config.moderation.clone())?);
    // Indexing reads every replay file: off the async runtime.
    let (dir, keep) = (config.replay_dir.clone(), config.replay_keep);
    let replays = tokio::task::spawn_blocking(move || replay::ReplayStore::open(&dir, keep))
        .await
        .map_err(|e| ServerError::Task(e.to_string()))?
        .map_err(|source| ServerError::ReplayDir {
            path: config.replay_dir.clone(),
            source,
        })?;
    let storage = open_storage(&config, &metrics).await?;
    if let Some(db) = &storage {
        moderation::load(&moderation, db).await?;
    }
    let cluster = match &config.cluster {
        Some(c) => Some(cluster::Cluster::join(c).await?),
        None => None,
    };
    let room_logs = match config.room_log_dir() {
        Some(dir) => Some(
            durable::RoomLogs::start(dir.clone(), config.room_log_flush)
                .map_err(|source| ServerError::RoomLogDir { path: dir, source })?,
        ),
        None => None,
    };
    let (shutdown_tx, shutdown_rx) = watch::channel(false);
    let (tasks, mut all_done) = shutdown::Tasks::new();
    let replay_dir = config.replay_dir.display().to_string();
    let drain_timeout = config.drain_timeout;
    let stores = services::Stores {
        replays,
        db: storage,
        room_logs,
    };
    let services = services::Services::new(config, stores, metrics, shutdown_rx, tasks);
    let datagrams = match udp {
        Some(socket) => match datagram::DatagramService::start(
            socket,
            services.config.tls.as_ref(),
            services.config.limits.clone(),
            services.metrics.clone(),
            services.epoch,
            services.shutdown.clone(),
            &services.tasks,
        ) {
            Ok(service) => Some(service),
            Err(e) => {
                tracing::warn!(error = %e, "no datagram path: clients stay on the WebSocket");
                None
            }
        },
        None => None,
    };
    let shared = Arc::new(shared::Shared::new(
        services, cluster, moderation, datagrams,
    ));
    lobby::start_matchmaker(&shared.lobby);
    quick_battle::start(&shared.lobby);
    moderation::start_sync(shared.moderation.clone(), shared.services.clone());
    restore_rooms(&shared.lobby).await;
    cluster::start(shared.cluster.clone(), &shared.lobby);
    cluster::start_social(shared.cluster.clone(), &shared.presence, &shared.services);
    info!(addr = ?listener.local_addr().ok(), replay_dir, tls = tls.is_some(), "listening");

    let drained = async {
        drain.await;
        lobby::begin_drain(&shared.lobby, drain_timeout);
        let running = shared.metrics.matches_running.clone();
        shutdown::wait_drained(move || running.get(), drain_timeout).await;
    };
    tokio::select! {
        // The accept loop only ends if the tracker is closed, which happens below. It keeps
        // running while draining: players may reconnect to their match, probes ask /readyz.
        _ = server::accept_loop(&shared, listener, tls) => {}
        _ = drained => info!("drained; shutting down"),
        _ = stop => info!("shutting down"),
    }
    // 1. Every connection and room task sees the signal (the listener is already dropped).
    let _ = shutdown_tx.send(true);
    // 2. No new task may start, and our own sender goes away...
    shared.tasks.close();
    // 3. ...so this returns `None` exactly when the last task (and its replay write) is done.
    let _ = all_done.recv().await;
    // 4. Every room has handed over its match: store them all before returning.
    if let Some(db) = &shared.db {
        db.close().await;
    }
    // 5. Every room has flushed its log (kept for a restart, or removed): write it all.
    if let Some(logs) = &shared.room_logs {
        logs.close().await;
    }
    info!("server stopped");
    Ok(())
}

/// Takes up every match whose room log survived the last run (see `durable/`).
async fn restore_rooms(lobby: &Arc<lobby::Lobby>) {
    let Some(dir) = lobby
        .services
        .room_logs
        .as_ref()
        .map(|l| l.dir().to_path_buf())
    else {
        return;
    };
    let loaded = tokio::task::spawn_blocking(move || durable::load_all(&dir))
        .await
        .unwrap_or_default();
    let found = loaded.len();
    let mut restored = 0;
    for log in loaded {
        let log = match log {
            durable::AnyLoaded::Versus(log) => log,
            durable::AnyLoaded::Battle(log) => {
                let code = log.open.code.clone();
                if lobby::restore_battle_room(lobby, *log) {
                    restored += 1;
                } else {
                    tracing::warn!(room = %code, "room log not restored: the code is taken or the server is full");
                }
                continue;
            }
        };
        let (code, options) = (log.open.code.clone(), log.open.options);
        if lobby::restore_room(lobby, code.clone(), options, room::Start::Restored(log)) {
            restored += 1;
        } else {
            tracing::warn!(room = %code, "room log not restored: the code is taken or the server is full");
        }
    }
    if found > 0 {
        info!(found, restored, "rooms restored from their logs");
    }
}

/// Opens the database the configuration names: PostgreSQL (`postgres`), else the SQLite file
/// (`db`), else none. Off the async runtime: both clients block.
async fn open_storage(
    config: &Config,
    metrics: &metrics::Metrics,
) -> Result<Option<db::Db>, ServerError> {
    let storage: Arc<dyn sevenbag_storage::Storage> = if let Some(url) = &config.postgres {
        let url = url.clone();
        let opened =
            tokio::task::spawn_blocking(move || sevenbag_storage::PostgresStorage::connect(&url))
                .await
                .map_err(|e| ServerError::Task(e.to_string()))??;
        info!(db = %opened.describe(), "database open (PostgreSQL)");
        Arc::new(opened)
    } else if let Some(path) = &config.db {
        let path = path.clone();
        let opened =
            tokio::task::spawn_blocking(move || sevenbag_storage::SqliteStorage::open(&path))
                .await
                .map_err(|e| ServerError::Task(e.to_string()))??;
        info!(db = %opened.path().display(), "database open");
        Arc::new(opened)
    } else {
        return Ok(None);
    };
    Ok(Some(db::Db::start(
        storage,
        metrics.clone(),
        config.moderation.screening,
    )))
}
