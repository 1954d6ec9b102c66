//! The load players of two-seat rooms: setting a match up (a room by code) and playing it through the window, noting what each player measured.

use std::sync::Arc;
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use sevenbag_netplay::{
    HeadlessClient, HeadlessConfig, HeadlessError, NetStats, RelayProbe, SessionStats,
    TransportPath,
};
use sevenbag_protocol::{JoinRole, RoomOptions};

use super::{Keys, MAX_SECONDS};

/// What one player measured during the window.
#[derive(Debug, Default)]
pub(super) struct PlayerOutcome {
    /// Took part for the whole window.
    pub(super) ok: bool,
    pub(super) error: Option<String>,
    pub(super) traffic: NetStats,
    pub(super) session: SessionStats,
    pub(super) desyncs: usize,
    pub(super) server_errors: usize,
    /// Input delay in frames at the end of the window.
    pub(super) input_delay: Option<u32>,
    /// Smoothed round trip at the end of the window.
    pub(super) ping: Option<Duration>,
    /// (First player of a match only) its two players started on different instances and
    /// met on one.
    pub(super) cross_instance: bool,
    /// The path carrying its inputs at the end of the window.
    pub(super) path: TransportPath,
}

/// Where the run is: players take their before/after readings when this changes.
pub(super) const WARMUP: u8 = 0;
pub(super) const MEASURING: u8 = 1;
pub(super) const DONE: u8 = 2;

/// How long after the ramp match setups may still finish.
pub(super) const SETUP_GRACE: Duration = Duration::from_secs(30);

pub(super) fn failed(error: String) -> PlayerOutcome {
    PlayerOutcome {
        error: Some(error),
        ..PlayerOutcome::default()
    }
}

/// Connects both players of match `i`, puts them in a room and readies them.
pub(super) async fn setup(
    urls: &[String; 2],
    i: usize,
    probe: Arc<RelayProbe>,
    frames_per_tick: u32,
    reconnect: bool,
    datagrams: bool,
) -> Result<(HeadlessClient, HeadlessClient), HeadlessError> {
    let config = |name: String| HeadlessConfig {
        probe: Some(Arc::clone(&probe)),
        frames_per_tick,
        datagrams,
        // The room's reconnect window (15 s by default).
        auto_reconnect: reconnect
            .then(|| Duration::from_secs(u64::from(RoomOptions::default().reconnect_seconds))),
        // Load players are programs: they say so (docs/MODERATION.md).
        bot: true,
        ..HeadlessConfig::new(name)
    };
    let mut a = HeadlessClient::connect(&urls[0], config(format!("load-{i}-a"))).await?;
    let options = RoomOptions {
        first_to: 99,
        ..RoomOptions::default()
    };
    let code = a.create_room(options).await?;
    // On another instance, `join_room` follows the redirect to the room's instance.
    let mut b = HeadlessClient::connect(&urls[1], config(format!("load-{i}-b"))).await?;
    b.join_room(&code, JoinRole::Player).await?;
    a.ready()?;
    b.ready()?;
    Ok((a, b))
}

/// Letters that no name folding touches, for generated names.
const NAME_LETTERS: &[u8] = b"cdefghjkmpqtuxy";

pub(super) fn letters(mut n: u64, len: usize) -> String {
    let base = NAME_LETTERS.len() as u64;
    (0..len)
        .map(|_| {
            let c = NAME_LETTERS[(n % base) as usize] as char;
            n /= base;
            c
        })
        .collect()
}

fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// A generated identity key for a load player, from `seed`.
pub(super) fn generated_key(seed: u64) -> [u8; 32] {
    let mut key = [0u8; 32];
    let mut state = splitmix(seed);
    for chunk in key.chunks_mut(8) {
        state = splitmix(state);
        chunk.copy_from_slice(&state.to_le_bytes());
    }
    key
}

/// Plays until the run is over, noting traffic and session counters over the window.
pub(super) async fn play(
    mut client: HeadlessClient,
    seed: u64,
    keys: Keys,
    phase: Arc<AtomicU8>,
    resumed: Arc<Resumed>,
    playing: Arc<AtomicUsize>,
) -> PlayerOutcome {
    let mut keys = keys.source(seed);
    let mut counted = false;
    let limit = Duration::from_secs(MAX_SECONDS);
    // A lost connection ends a player's run, unless it reconnects by itself (`--kill-at`).
    let lost = |c: &HeadlessClient| !c.is_connected() && c.room().is_none();
    let lost_any = |c: &HeadlessClient| !c.is_connected();
    let reconnecting = resumed.expected();
    let first = client
        .run_until(&mut keys, limit, |c| {
            if !counted && c.session().is_some_and(|s| s.stats().frames > 0) {
                counted = true;
                playing.fetch_add(1, Ordering::Relaxed);
            }
            phase.load(Ordering::Relaxed) >= MEASURING
                || if reconnecting { lost(c) } else { lost_any(c) }
        })
        .await;
    let measured = phase.load(Ordering::Relaxed) == MEASURING;
    let before = client.stats();
    let mut seen = client.reconnects();
    let second = client
        .run_until(&mut keys, limit, |c| {
            if c.reconnects() > seen {
                seen = c.reconnects();
                resumed.reconnected();
            }
            phase.load(Ordering::Relaxed) >= DONE
                || if reconnecting { lost(c) } else { lost_any(c) }
        })
        .await;
    client.poll_events();
    let after = client.stats();
    let mut outcome = PlayerOutcome {
        ok: measured && client.is_connected() && before.session.frames > 0,
        error: None,
        traffic: after.net.since(&before.net),
        session: SessionStats {
            frames: after.session.frames - before.session.frames,
            rollbacks: after.session.rollbacks - before.session.rollbacks,
            resimulated_frames: after.session.resimulated_frames
                - before.session.resimulated_frames,
            stall_frames: after.session.stall_frames - before.session.stall_frames,
            max_rollback_depth: after.session.max_rollback_depth,
            rebuilds: after.session.rebuilds,
            desyncs: after.session.desyncs,
        },
        desyncs: client.desyncs().len(),
        server_errors: client.errors().len(),
        input_delay: client.session().map(|s| s.options().input_delay),
        ping: after.ping,
        cross_instance: false,
        path: after.path,
    };
    if !outcome.ok {
        outcome.error = Some(why_failed(
            &client,
            measured,
            before.session.frames,
            [first.err(), second.err()],
        ));
    }
    let _ = client.leave();
    outcome
}

/// What went wrong for a player that did not take part in the whole window, in words: every
/// condition that failed, with what the client knew (connection, room, match, errors).
fn why_failed(
    client: &HeadlessClient,
    measured: bool,
    frames_before: u64,
    waits: [Option<HeadlessError>; 2],
) -> String {
    let mut why = Vec::new();
    if !measured {
        why.push("was not playing when the window opened".to_string());
    }
    if !client.is_connected() {
        why.push(match client.disconnect_reason() {
            Some(reason) => format!("disconnected ({reason})"),
            None => "disconnected (a send failed before the reason arrived)".to_string(),
        });
    }
    if frames_before == 0 {
        why.push(format!(
            "had simulated no frame when the window opened (matches started {}, live {}, room {}, seat {:?})",
            client.matches_started(),
            client.is_live(),
            client.room().map_or("none", |r| r.code.as_str()),
            client.seat(),
        ));
    }
    for (i, wait) in waits.iter().enumerate() {
        if let Some(e) = wait {
            let phase = if i == 0 { "before" } else { "during" };
            why.push(format!("{phase} the window: {e}"));
        }
    }
    if let Some(e) = client.errors().last() {
        why.push(format!(
            "last server error {:?}{}: {}",
            e.code,
            if e.fatal { " (fatal)" } else { "" },
            e.message
        ));
    }
    if let Some(e) = client.session_errors().last() {
        why.push(format!("session refused: {e}"));
    }
    if why.is_empty() {
        why.push("no frames in the window".to_string());
    }
    format!("{}: {}", client.name(), why.join("; "))
}

/// When the server was killed (`--kill-at`) and how long each player took to reconnect.
#[derive(Debug, Default)]
pub(super) struct Resumed {
    expected: std::sync::atomic::AtomicBool,
    inner: std::sync::Mutex<(Option<Instant>, Vec<Duration>)>,
}

impl Resumed {
    /// Ready to note reconnections; `expected` when the run kills the server (`--kill-at`).
    pub(super) fn new(expected: bool) -> Resumed {
        Resumed {
            expected: expected.into(),
            ..Resumed::default()
        }
    }

    pub(super) fn killed(&self, at: Instant) {
        if let Ok(mut inner) = self.inner.lock() {
            inner.0 = Some(at);
        }
    }

    fn expected(&self) -> bool {
        self.expected.load(Ordering::Relaxed)
    }

    fn reconnected(&self) {
        if let Ok(mut inner) = self.inner.lock()
            && let Some(at) = inner.0
        {
            inner.1.push(at.elapsed());
        }
    }

    pub(super) fn take(&self) -> Vec<Duration> {
        self.inner
            .lock()
            .map(|mut i| std::mem::take(&mut i.1))
            .unwrap_or_default()
    }
}
