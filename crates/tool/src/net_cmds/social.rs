//! `loadtest --social N`: N identified players befriend each other in rings, change their
//! presence, invite friends into rooms and take the invites up, and the run reports whether
//! every push arrived, and how fast:
//!
//! `social: presence A/B delivered, p50 X ms, p99 Y ms; invites C/D; notifications lost E`
//!
//! The players register fresh identities (`s0001…` with a tag of the run) on the servers in
//! turn (player `i` on `--server` number `i mod count`), so in a cluster most friends sit on
//! other instances. The ring ([`ring`]): `i` asks `i + 1`, and `i + 2` with N ≥ 5; the asked
//! player accepts on hearing the request. That is two requests and two answers a connection,
//! within the server's burst of 5 friend-request changes, so no pacing is needed.
//!
//! Presence changes are `AppearOffline` on and off, twice each ([`ledger::CHANGES`]): the
//! cheapest change the server has (no room, no match), spread over the first 60 % of
//! `--seconds`. Each reaches every friend (all stay online), so a change expects one push per
//! friend; a friend matches what it hears to the change's number by (player, state) order, and
//! the latency is from just before the change was sent to the friend's task taking the push
//! (both on this machine's clock). Once every change has been heard (or 10 s passed), each
//! player creates a two-seat room and invites `i + 1` (spread over the next 30 %); the friend
//! takes it up on a second connection of its own that identifies with its key and joins by the
//! code, following a cluster's `Redirect`, while its first connection stays, so its presence
//! does not move. The inviter leaves once the friend sits.
//!
//! Notifications counted: each request sent (to its receiver), each request accepted (to its
//! sender) and each invite, once the server has said it made them (`FriendRequestSent`,
//! `FriendRequestAnswered`, `Invited`). After the last invite the run waits, on the events and
//! at most [`SETTLE`], for every count to agree; `lost` is sent minus delivered then.
//!
//! The server must keep a database and let every player register from one address
//! (`--registrations-per-hour 0 --registrations-per-day 0`): `--spawn-server` starts one so,
//! with a temporary SQLite database.

mod join;
mod ledger;
mod player;
mod ring;

use std::sync::Arc;
use std::time::{Duration, Instant};

use ledger::{Ledger, Stage};
use player::Ctx;
use tokio::sync::watch;

/// Longest wait for the counts to agree after the last invite.
pub(super) const SETTLE: Duration = Duration::from_secs(10);
/// Longest wait for every player to register, after the ramp, and then for every friendship.
const SETUP_LIMIT: Duration = Duration::from_secs(60);
/// Longest wait for the presence changes to be heard after the last was due.
const HEARD_LIMIT: Duration = Duration::from_secs(10);
/// Connections started per second.
const CONNECTS_PER_SECOND: f64 = 250.0;

/// What the run measured.
#[derive(Debug)]
pub(super) struct SocialReport {
    /// Players.
    pub(super) players: usize,
    /// Failed players.
    pub(super) failed: u64,
    /// Presence pushes heard, of those expected.
    pub(super) presence: (u64, u64),
    /// Delivery latency quantiles in ms (p50, p99).
    pub(super) latency_ms: (f64, f64),
    /// Invites received, of those sent.
    pub(super) invites: (u64, u64),
    /// Rooms the invited friends joined.
    pub(super) joins: u64,
    /// Notifications sent and delivered.
    pub(super) notifications: (u64, u64),
    /// How long the run took.
    pub(super) took: Duration,
}

impl SocialReport {
    /// Notifications sent but not heard.
    pub(super) fn lost(&self) -> u64 {
        self.notifications.0.saturating_sub(self.notifications.1)
    }

    /// Whether nothing was lost and no player failed.
    pub(super) fn clean(&self) -> bool {
        self.failed == 0
            && self.presence.0 >= self.presence.1
            && self.invites.0 >= self.invites.1
            && self.joins >= self.invites.0
            && self.lost() == 0
    }

    /// The run's last line.
    pub(super) fn line(&self) -> String {
        format!(
            "social: presence {}/{} delivered, p50 {:.1} ms, p99 {:.1} ms; invites {}/{}; notifications lost {}",
            self.presence.0,
            self.presence.1,
            self.latency_ms.0,
            self.latency_ms.1,
            self.invites.0,
            self.invites.1,
            self.lost(),
        )
    }
}

/// Waits until `done` holds or `deadline` passes, woken by the ledger's progress; whether it
/// holds.
async fn wait(ledger: &Ledger, deadline: Instant, done: impl Fn(&Ledger) -> bool) -> bool {
    loop {
        let notified = ledger.progress.notified();
        if done(ledger) {
            return true;
        }
        if tokio::time::timeout_at(deadline.into(), notified)
            .await
            .is_err()
        {
            return done(ledger);
        }
    }
}

/// Runs `n` social players against `urls` for about `seconds`.
pub(super) async fn run(urls: Vec<String>, n: usize, seconds: u64) -> anyhow::Result<SocialReport> {
    anyhow::ensure!(
        (ring::MIN_PLAYERS..=ring::MAX_PLAYERS).contains(&n),
        "--social must be {}..={}",
        ring::MIN_PLAYERS,
        ring::MAX_PLAYERS
    );
    let seed = u64::from(std::process::id())
        ^ std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
    let t0 = Instant::now();
    let ramp = Duration::from_secs_f64(n as f64 / CONNECTS_PER_SECOND);
    let window = Duration::from_secs(seconds);
    let ctx = Arc::new(Ctx {
        n,
        tag: ring::tag(seed),
        seed,
        urls,
        ledger: Ledger::new(n),
        t0,
        ramp,
        setup_deadline: t0 + ramp + SETUP_LIMIT,
        presence_span: window.mul_f64(0.6),
        invite_span: window.mul_f64(0.3),
        join_limit: SETTLE,
    });
    let (stage, watching) = watch::channel(Stage::Register);
    let tasks: Vec<_> = (0..n)
        .map(|i| tokio::spawn(player::run(Arc::clone(&ctx), i, watching.clone())))
        .collect();
    drop(watching);
    let ledger = &ctx.ledger;
    let all = |count: u64, l: &Ledger| count + l.failed.get() >= n as u64;

    wait(ledger, ctx.setup_deadline, |l| all(l.registered.get(), l)).await;
    eprintln!(
        "{} players registered in {:.1} s",
        ledger.registered.get(),
        t0.elapsed().as_secs_f64()
    );
    stage.send_replace(Stage::Befriend);
    let befriending = Instant::now();
    wait(ledger, befriending + SETUP_LIMIT, |l| {
        all(l.befriended.get(), l)
    })
    .await;
    eprintln!(
        "{} players befriended their ring in {:.1} s",
        ledger.befriended.get(),
        befriending.elapsed().as_secs_f64()
    );

    let presence = Instant::now() + Duration::from_millis(500);
    stage.send_replace(Stage::Presence(presence));
    let heard = presence + ctx.presence_span + HEARD_LIMIT;
    wait(ledger, heard, |l| {
        all(l.changed.get(), l) && l.presence_delivered.get() >= l.presence_expected.get()
    })
    .await;

    let invites = Instant::now();
    stage.send_replace(Stage::Invite(invites));
    tokio::time::sleep_until((invites + ctx.invite_span).into()).await;
    stage.send_replace(Stage::Settle);
    wait(ledger, Instant::now() + SETTLE, |l| {
        all(l.invites_sent.get(), l) && l.all_heard()
    })
    .await;
    stage.send_replace(Stage::Stop);

    let mut failures = Vec::new();
    for task in tasks {
        match tokio::time::timeout(Duration::from_secs(10), task).await {
            Ok(Ok(Ok(()))) => {}
            Ok(Ok(Err(e))) => failures.push(e),
            Ok(Err(e)) => failures.push(format!("a player's task ended: {e}")),
            Err(_) => failures.push("a player did not stop".into()),
        }
    }
    for why in failures.iter().take(10) {
        eprintln!("failed: {why}");
    }
    if failures.len() > 10 {
        eprintln!("... and {} more failed", failures.len() - 10);
    }
    Ok(SocialReport {
        players: n,
        failed: ledger.failed.get().max(failures.len() as u64),
        presence: (
            ledger.presence_delivered.get(),
            ledger.presence_expected.get(),
        ),
        latency_ms: (ledger.latency_ms(0.5), ledger.latency_ms(0.99)),
        invites: (ledger.invites_received.get(), ledger.invites_sent.get()),
        joins: ledger.joins.get(),
        notifications: (
            ledger.notifications_sent.get(),
            ledger.notifications_delivered.get(),
        ),
        took: t0.elapsed(),
    })
}
