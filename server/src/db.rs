//! The server's handle on its [`Storage`]: reads on tokio's blocking threads, and writes through
//! one writer task in order, so neither a slow disk nor a busy database ever delays a room's
//! relay. Rooms hand a finished match to the writer and move on; the writer rates it (ranked),
//! stores it, and tells the players their new profile.

use std::sync::{Arc, Mutex};

use sevenbag_core::MatchHeader;
use sevenbag_core::Stats;
use sevenbag_protocol::SeatInputs;
use sevenbag_protocol::ServerMessage;
use sevenbag_storage::{
    BattleRecord, MatchFlag, MatchRecord, MatchSeat, Outcome, PlayerId, PlayerStats, Storage,
    StorageError,
};
use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;
use tracing::{error, info};

use crate::metrics::Metrics;
use crate::ranked;
use crate::relay::Outbox;
use crate::screen::{self, ScreenBounds};

/// Players need this many ranked games to be on the leaderboard.
pub(crate) const LEADERBOARD_MIN_GAMES: u32 = 1;

/// A write for the writer task.
type Job = Box<dyn FnOnce(&dyn Storage) + Send>;

/// The storage and its writer.
#[derive(Debug)]
pub(crate) struct Db {
    storage: Arc<dyn Storage>,
    writes: Mutex<Option<mpsc::UnboundedSender<Job>>>,
    writer: Mutex<Option<JoinHandle<()>>>,
    /// Bounds ranked matches are screened with (`crate::screen`); `None`: not screened.
    screening: Option<ScreenBounds>,
    metrics: Metrics,
}

/// One seat of a match as a room hands it over.
#[derive(Debug)]
pub(crate) struct SeatResult {
    pub(crate) player: Option<PlayerId>,
    pub(crate) name: String,
    pub(crate) stats: Stats,
    /// Where to send the player's new profile.
    pub(crate) outbox: Option<Outbox>,
}

/// A finished match as a room hands it over.
#[derive(Debug)]
pub(crate) struct MatchResult {
    pub(crate) ranked: bool,
    /// `None` when void or unfinished.
    pub(crate) winner: Option<u8>,
    pub(crate) reason: String,
    pub(crate) score: [u8; 2],
    pub(crate) rules: String,
    pub(crate) duration_frames: u32,
    pub(crate) replay: Option<String>,
    pub(crate) started_unix: u64,
    pub(crate) ended_unix: u64,
    pub(crate) seats: [SeatResult; 2],
    /// The match's header and inputs, for the inhuman-input screening (ranked matches).
    pub(crate) inputs: Option<(MatchHeader, [SeatInputs; 2])>,
}

/// The counters the core keeps, as stored (rates computed by the core).
pub(crate) fn stored_stats(s: &Stats) -> PlayerStats {
    PlayerStats {
        pieces: s.pieces,
        attack: s.attack,
        garbage_cleared: s.garbage_cleared,
        t_spins: s.t_spins,
        frames: s.frames,
        pps_x100: s.pps_x100(),
        apm_x100: s.apm_x100(),
        vs_x100: s.vs_x100(),
    }
}

/// Adds one round's counters to a match's.
pub(crate) fn add_stats(total: &mut Stats, round: &Stats) {
    total.pieces += round.pieces;
    total.lines += round.lines;
    total.attack += round.attack;
    total.sent += round.sent;
    total.garbage_received += round.garbage_received;
    total.garbage_cleared += round.garbage_cleared;
    total.frames += round.frames;
    total.max_combo = total.max_combo.max(round.max_combo);
    total.t_spins += round.t_spins;
    total.quads += round.quads;
    total.perfect_clears += round.perfect_clears;
}

pub(crate) fn unix_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

impl Db {
    /// Starts the writer task over `storage`; each write's duration goes to `metrics`; ranked
    /// matches are screened with `screening` before they are rated.
    pub(crate) fn start(
        storage: Arc<dyn Storage>,
        metrics: Metrics,
        screening: Option<ScreenBounds>,
    ) -> Db {
        let (tx, mut rx) = mpsc::unbounded_channel::<Job>();
        let writer_storage = storage.clone();
        let screen_metrics = metrics.clone();
        let writer = tokio::task::spawn_blocking(move || {
            while let Some(job) = rx.blocking_recv() {
                let started = std::time::Instant::now();
                job(&*writer_storage);
                metrics.db_write_took(started);
            }
        });
        Db {
            storage,
            writes: Mutex::new(Some(tx)),
            writer: Mutex::new(Some(writer)),
            screening,
            metrics: screen_metrics,
        }
    }

    /// Runs a read on a blocking thread.
    pub(crate) async fn read<T: Send + 'static>(
        &self,
        f: impl FnOnce(&dyn Storage) -> Result<T, StorageError> + Send + 'static,
    ) -> Result<T, StorageError> {
        let storage = self.storage.clone();
        tokio::task::spawn_blocking(move || f(&*storage))
            .await
            .unwrap_or_else(|e| Err(StorageError::Db(format!("read task failed: {e}"))))
    }

    /// Queues a write and waits for its result (for a client's own request).
    pub(crate) async fn write<T: Send + 'static>(
        &self,
        f: impl FnOnce(&dyn Storage) -> Result<T, StorageError> + Send + 'static,
    ) -> Result<T, StorageError> {
        let (reply, answer) = oneshot::channel();
        self.queue(Box::new(move |s| {
            let _ = reply.send(f(s));
        }));
        answer
            .await
            .unwrap_or_else(|_| Err(StorageError::Db("the database is closing".into())))
    }

    fn queue(&self, job: Job) {
        let writes = self.writes.lock().unwrap_or_else(|p| p.into_inner());
        match writes.as_ref() {
            Some(tx) if tx.send(job).is_ok() => {}
            _ => error!("a database write after shutdown was dropped"),
        }
    }

    /// Hands a finished match to the writer, which makes its result (`make`: work kept off the
    /// room's task) and stores it; never waits.
    pub(crate) fn record(&self, make: impl FnOnce() -> MatchResult + Send + 'static) {
        let (screening, metrics) = (self.screening, self.metrics.clone());
        self.queue(Box::new(move |s| {
            let result = make();
            let flags = screened(&result, screening.as_ref());
            if !flags.is_empty() {
                metrics.moderation("ranked_flagged");
            }
            if let Err(e) = store_match(s, result, &flags) {
                error!(error = %e, "cannot store a finished match");
            }
        }));
    }

    /// Hands a finished match of several seats to the writer, which makes its record (`make`:
    /// the room's count of it, played again from its inputs) and stores it; never waits.
    /// Never rated.
    pub(crate) fn record_battle(&self, make: impl FnOnce() -> BattleRecord + Send + 'static) {
        self.queue(Box::new(move |s| Db::store_battle(s, &make())));
    }

    fn store_battle(s: &dyn Storage, record: &BattleRecord) {
        match s.record_battle(record) {
            Ok(id) => {
                info!(match_id = id.0, seats = record.seats.len(), reason = %record.reason, "match of several seats stored");
            }
            Err(e) => error!(error = %e, "cannot store a finished match of several seats"),
        }
    }

    /// Finishes every queued write, then stops the writer.
    pub(crate) async fn close(&self) {
        self.writes.lock().unwrap_or_else(|p| p.into_inner()).take();
        let writer = self.writer.lock().unwrap_or_else(|p| p.into_inner()).take();
        if let Some(writer) = writer {
            let _ = writer.await;
        }
    }
}

/// A decided ranked match's seats that break a screening bound (`crate::screen`).
fn screened(m: &MatchResult, bounds: Option<&ScreenBounds>) -> Vec<screen::Finding> {
    match (bounds, &m.inputs) {
        (Some(bounds), Some((header, inputs))) if m.ranked && m.winner.is_some() => {
            screen::screen(header, inputs, bounds)
        }
        _ => Vec::new(),
    }
}

/// Rates (when ranked, decided and not flagged by the screening), stores, keeps the flags,
/// and tells both players their profile.
fn store_match(
    s: &dyn Storage,
    m: MatchResult,
    flags: &[screen::Finding],
) -> Result<(), StorageError> {
    let now = unix_now();
    let players = [0, 1].map(|i| m.seats[i].player.and_then(|id| s.player(id).ok().flatten()));
    let before = players.each_ref().map(|p| {
        p.as_ref()
            .map(|p| ranked::decayed(p.rating, p.last_played_unix, now))
    });
    let mut after = [None, None];
    // A flagged match is kept for review and not rated.
    if m.ranked
        && flags.is_empty()
        && let (Some(winner), [Some(a), Some(b)]) = (m.winner, before)
    {
        let (a, b) = ranked::rate(a, b, winner);
        after = [Some(a), Some(b)];
    }
    let seat = |i: usize| MatchSeat {
        player: m.seats[i].player,
        name: m.seats[i].name.clone(),
        before: before[i].filter(|_| m.ranked),
        after: after[i],
        stats: stored_stats(&m.seats[i].stats),
    };
    let record = MatchRecord {
        ranked: m.ranked,
        outcome: m.winner.map_or(Outcome::Void, Outcome::Won),
        reason: m.reason.clone(),
        score: m.score,
        rules: m.rules.clone(),
        duration_frames: m.duration_frames,
        replay: m.replay.clone(),
        started_unix: m.started_unix,
        ended_unix: m.ended_unix,
        seats: [seat(0), seat(1)],
    };
    let id = s.record_match(&record)?;
    info!(match_id = id.0, ranked = m.ranked, rated = after[0].is_some(), reason = %m.reason, "match stored");
    for f in flags {
        let seat = f.seat.index();
        tracing::warn!(match_id = id.0, seat, rule = f.rule, detail = %f.detail, "ranked match flagged for review, not rated");
        s.flag_match(&MatchFlag {
            match_id: id,
            seat: seat as u8,
            player: m.seats[seat].player,
            rule: f.rule.to_string(),
            detail: f.detail.clone(),
            created_unix: now,
        })?;
    }
    if !m.ranked {
        return Ok(());
    }
    for seat in &m.seats {
        if let (Some(player), Some(outbox)) = (seat.player, &seat.outbox)
            && let Some(p) = s.player(player)?
        {
            let place = s.place_of(player, LEADERBOARD_MIN_GAMES)?;
            outbox.send(&ServerMessage::Identified {
                profile: ranked::profile(&p, place, now),
            });
        }
    }
    Ok(())
}
