//! Keeps every instance's [`Moderation`] current: the sanctions in force are re-read from the
//! database whenever the audit log moves, and each new entry reaches the live connections it
//! concerns here (see the parent module's "Several instances").

use std::sync::Arc;
use std::sync::atomic::Ordering;

use sevenbag_storage::moderation::target_player;
use sevenbag_storage::{AuditEntry, AuditId, StorageError};
use tracing::{info, warn};

use super::{Moderation, Notice, Snapshot};
use crate::db::{Db, unix_now};
use crate::services::Services;

/// Most audit entries applied per look (a burst beyond it is taken on the next look).
const BATCH: u32 = 1000;

/// Reads the sanctions in force and where the audit log stands (at start, before the first
/// connection): history is not replayed onto anyone.
pub(crate) async fn load(moderation: &Moderation, db: &Db) -> Result<(), StorageError> {
    let now = unix_now();
    let (force, head) = db
        .read(move |s| Ok((s.in_force(now)?, s.audit_head()?)))
        .await?;
    *moderation
        .snapshot
        .write()
        .unwrap_or_else(|p| p.into_inner()) = Snapshot::of(force);
    moderation.seen.store(head.0, Ordering::Relaxed);
    Ok(())
}

/// Starts the task that follows the audit log (nothing without a database).
pub(crate) fn start(moderation: Arc<Moderation>, services: Arc<Services>) {
    if services.db.is_none() {
        return;
    }
    let shared = services.clone();
    services.spawn_until_shutdown(|mut shutdown| async move {
        let services = shared;
        let mut tick = tokio::time::interval(moderation.config.sync_every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut healthy = true;
        loop {
            tokio::select! {
                _ = shutdown.recv() => break,
                _ = tick.tick() => {}
            }
            let Some(db) = &services.db else { break };
            match follow(&moderation, db).await {
                Ok(()) if !healthy => {
                    info!("moderation: the audit log is readable again");
                    healthy = true;
                }
                Err(e) if healthy => {
                    warn!(error = %e, "moderation: cannot read the audit log; sanctions as last read");
                    healthy = false;
                }
                _ => {}
            }
        }
    });
}

/// One look at the audit log: if it moved, re-read the sanctions and apply the new entries.
/// The sync task calls it every `sync_every`; an action on this instance calls it before it
/// answers, so its effect is in force here when the operator hears "ok".
pub(crate) async fn follow(moderation: &Moderation, db: &Db) -> Result<(), StorageError> {
    let _one_at_a_time = moderation.following.lock().await;
    let seen = AuditId(moderation.seen.load(Ordering::Relaxed));
    let head = db.read(|s| s.audit_head()).await?;
    if head <= seen {
        return Ok(());
    }
    let now = unix_now();
    let (entries, force) = db
        .read(move |s| Ok((s.audit_since(seen, BATCH)?, s.in_force(now)?)))
        .await?;
    *moderation
        .snapshot
        .write()
        .unwrap_or_else(|p| p.into_inner()) = Snapshot::of(force);
    for entry in &entries {
        apply(moderation, db, entry).await;
    }
    if let Some(last) = entries.last() {
        moderation.seen.store(last.id.0, Ordering::Relaxed);
    }
    Ok(())
}

/// What one audit entry means for the live connections here.
async fn apply(moderation: &Moderation, db: &Db, entry: &AuditEntry) {
    let Some(player) = target_player(&entry.audit.target) else {
        return;
    };
    let now = unix_now();
    let notice = match entry.audit.action.as_str() {
        // Only if it is still in force (a later entry may have lifted it already).
        "ban" => moderation.ban_of(player, now).map(Notice::Banned),
        "mute" => moderation.mute_of(player, now).map(Notice::Muted),
        "rename" => match db.read(move |s| s.player(player)).await {
            Ok(Some(p)) => Some(Notice::Renamed { name: p.name }),
            _ => None,
        },
        "mark_bot" => Some(Notice::Bot(true)),
        "unmark_bot" => Some(Notice::Bot(false)),
        _ => None,
    };
    if let Some(notice) = notice {
        let reached = moderation.notify(player, &notice);
        if reached > 0 {
            info!(player = player.0, action = %entry.audit.action, connections = reached, "moderation action reached live connections");
        }
    }
}
