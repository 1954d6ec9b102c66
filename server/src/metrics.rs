//! The server's Prometheus metrics: one [`Metrics`] value, made by [`crate::run`], kept in
//! `Shared` and handed (or its single counters, which are cheap `Arc` clones) to the places
//! that count. `GET /metrics` renders it in the text exposition format (`crate::http`).
//!
//! Every name starts with `sevenbag_`; `docs/SERVER.md` lists them all. The metrics live in
//! the server's own [`Registry`], not the `prometheus` crate's global default one, so two
//! servers in one process (tests) never share counts.
//!
//! # Why the `prometheus` crate
//! With its default features off (no protobuf) it is a handful of small dependencies and
//! encodes the text format itself, without an HTTP listener of its own: `/metrics` is just
//! one more route on our port, with the same limits. `metrics` + `metrics-exporter-prometheus`
//! pulls in noticeably more (`metrics-util`, `quanta`, `sketches-ddsketch`, ...).
//!
//! This module imports nothing else from the crate, so any module may use it.

use std::time::Instant;

use prometheus::{
    Encoder, Histogram, HistogramOpts, IntCounter, IntCounterVec, IntGauge, Opts, Registry,
    TextEncoder,
};

/// The `reason`s of `sevenbag_cuts_total` shown from the start: the handshake failure and the
/// error codes a hostile or broken client is cut with.
const CUT_REASONS: [&str; 9] = [
    "tls_handshake",
    "Version",
    "BadMessage",
    "TooLarge",
    "TextFrame",
    "BadInput",
    "RateLimited",
    "SlowReader",
    "Timeout",
];

/// The `event`s of `sevenbag_moderation_total` shown from the start (`docs/MODERATION.md`).
const MODERATION_EVENTS: [&str; 14] = [
    "admin_unauthorized",
    "admin_action",
    "refused_banned",
    "refused_address",
    "refused_muted",
    "registration_limited",
    "report_filed",
    "report_refused",
    "bot_refused",
    "ranked_flagged",
    "pair_skipped_daily_limit",
    "pair_skipped_same_address",
    "pair_skipped_blocked",
    "chat_hidden",
];

/// Every metric the server keeps.
#[derive(Clone, Debug)]
pub(crate) struct Metrics {
    registry: Registry,
    /// Open game (WebSocket) connections.
    pub(crate) connections: IntGauge,
    /// Open sockets of any kind (HTTP, WebSocket, TLS handshakes in progress).
    pub(crate) sockets: IntGauge,
    /// Open rooms.
    pub(crate) rooms: IntGauge,
    /// Matches running now.
    pub(crate) matches_running: IntGauge,
    /// Matches started.
    pub(crate) matches_started: IntCounter,
    /// Matches finished (any way, including unfinished at shutdown).
    pub(crate) matches_finished: IntCounter,
    /// Game messages received from clients.
    pub(crate) messages_in: IntCounter,
    /// Game messages sent to clients.
    pub(crate) messages_out: IntCounter,
    /// Bytes of game messages received.
    pub(crate) bytes_in: IntCounter,
    /// Bytes of game messages sent.
    pub(crate) bytes_out: IntCounter,
    /// Messages already waiting in a client's send queue when another is queued.
    pub(crate) send_queue_depth: Histogram,
    /// State hashes that disagreed with the server's simulation.
    pub(crate) desyncs: IntCounter,
    /// Connections cut by the server, by reason (an `ErrorCode` name or `tls_handshake`).
    pub(crate) cuts: IntCounterVec,
    /// Seconds one database write (a job of the writer task) took.
    pub(crate) db_write_seconds: Histogram,
    /// Moderation and fair-play events, by `event` (see [`MODERATION_EVENTS`]).
    pub(crate) moderation: IntCounterVec,
    /// Published skins, by `event`: `published`, `refused`, `served`, `gone`.
    pub(crate) skins: IntCounterVec,
    /// Open datagram (WebTransport) sessions.
    pub(crate) datagram_sessions: IntGauge,
    /// Datagrams received from clients.
    pub(crate) datagrams_in: IntCounter,
    /// Datagrams sent to clients.
    pub(crate) datagrams_out: IntCounter,
    /// Bytes of datagrams received (payload).
    pub(crate) datagram_bytes_in: IntCounter,
    /// Bytes of datagrams sent (payload).
    pub(crate) datagram_bytes_out: IntCounter,
    /// Datagrams dropped, by reason.
    pub(crate) datagrams_dropped: IntCounterVec,
    /// Datagram sessions refused, by reason.
    pub(crate) datagram_sessions_refused: IntCounterVec,
    /// Boards named in desyncs of matches of several seats, by battle `seat` (0 to 7).
    pub(crate) battle_desync_seats: IntCounterVec,
}

/// The `reason`s of `sevenbag_datagrams_dropped_total` shown from the start.
const DATAGRAM_DROP_REASONS: [&str; 10] = [
    "too_large",
    "malformed",
    "replayed",
    "rate",
    "address_rate",
    "stale",
    "gap",
    "no_room",
    "no_match",
    "room_busy",
];

/// The `reason`s of `sevenbag_datagram_sessions_refused_total` shown from the start.
const DATAGRAM_REFUSE_REASONS: [&str; 5] = [
    "bad_token",
    "bad_path",
    "handshake",
    "server_full",
    "address_full",
];

impl Metrics {
    /// A fresh set of metrics in a registry of its own.
    pub(crate) fn new() -> Result<Metrics, prometheus::Error> {
        let registry = Registry::new();
        let gauge = |name: &str, help: &str| -> Result<IntGauge, prometheus::Error> {
            let g = IntGauge::new(name, help)?;
            registry.register(Box::new(g.clone()))?;
            Ok(g)
        };
        let counter = |name: &str, help: &str| -> Result<IntCounter, prometheus::Error> {
            let c = IntCounter::new(name, help)?;
            registry.register(Box::new(c.clone()))?;
            Ok(c)
        };
        let histogram =
            |name: &str, help: &str, buckets: Vec<f64>| -> Result<Histogram, prometheus::Error> {
                let h = Histogram::with_opts(HistogramOpts::new(name, help).buckets(buckets))?;
                registry.register(Box::new(h.clone()))?;
                Ok(h)
            };
        let cuts = IntCounterVec::new(
            Opts::new(
                "sevenbag_cuts_total",
                "Connections cut by the server, by reason (error code or tls_handshake)",
            ),
            &["reason"],
        )?;
        registry.register(Box::new(cuts.clone()))?;
        // A label value appears only once used; these start at 0 so dashboards and alerts
        // see every usual reason from the start (rarer ones appear when they happen).
        for reason in CUT_REASONS {
            cuts.with_label_values(&[reason]);
        }
        let moderation = IntCounterVec::new(
            Opts::new(
                "sevenbag_moderation_total",
                "Moderation and fair-play events: refusals, reports, admin calls, flags, skips",
            ),
            &["event"],
        )?;
        registry.register(Box::new(moderation.clone()))?;
        for event in MODERATION_EVENTS {
            moderation.with_label_values(&[event]);
        }
        let skins = IntCounterVec::new(
            Opts::new(
                "sevenbag_skins_total",
                "Published skins: published, refused (a bad or removed file), served, gone",
            ),
            &["event"],
        )?;
        registry.register(Box::new(skins.clone()))?;
        for event in ["published", "refused", "served", "gone"] {
            skins.with_label_values(&[event]);
        }
        let labelled = |name: &str, help: &str, reasons: &[&str]| {
            let v = IntCounterVec::new(Opts::new(name, help), &["reason"])?;
            registry.register(Box::new(v.clone()))?;
            for reason in reasons {
                v.with_label_values(&[*reason]);
            }
            Ok::<_, prometheus::Error>(v)
        };
        let datagrams_dropped = labelled(
            "sevenbag_datagrams_dropped_total",
            "Datagrams from clients dropped, by reason",
            &DATAGRAM_DROP_REASONS,
        )?;
        let datagram_sessions_refused = labelled(
            "sevenbag_datagram_sessions_refused_total",
            "Datagram (WebTransport) sessions refused, by reason",
            &DATAGRAM_REFUSE_REASONS,
        )?;
        let battle_desync_seats = IntCounterVec::new(
            Opts::new(
                "sevenbag_battle_desync_seats_total",
                "Boards that disagreed with the server in matches of several seats, by battle seat",
            ),
            &["seat"],
        )?;
        registry.register(Box::new(battle_desync_seats.clone()))?;
        Ok(Metrics {
            connections: gauge("sevenbag_connections", "Open game (WebSocket) connections")?,
            sockets: gauge(
                "sevenbag_sockets",
                "Open sockets: HTTP, WebSocket and TLS handshakes",
            )?,
            rooms: gauge("sevenbag_rooms", "Open rooms")?,
            matches_running: gauge("sevenbag_matches_running", "Matches running now")?,
            matches_started: counter("sevenbag_matches_started_total", "Matches started")?,
            matches_finished: counter(
                "sevenbag_matches_finished_total",
                "Matches finished, including those cut short by a shutdown",
            )?,
            messages_in: counter(
                "sevenbag_messages_received_total",
                "Game messages received from clients",
            )?,
            messages_out: counter(
                "sevenbag_messages_sent_total",
                "Game messages sent to clients",
            )?,
            bytes_in: counter(
                "sevenbag_received_bytes_total",
                "Bytes of game messages received",
            )?,
            bytes_out: counter("sevenbag_sent_bytes_total", "Bytes of game messages sent")?,
            send_queue_depth: histogram(
                "sevenbag_send_queue_depth",
                "Messages already waiting in a client's send queue when one more is queued",
                vec![0.0, 1.0, 2.0, 4.0, 8.0, 16.0, 64.0, 256.0, 1024.0],
            )?,
            desyncs: counter(
                "sevenbag_desyncs_total",
                "State hashes that disagreed with the server",
            )?,
            cuts,
            db_write_seconds: histogram(
                "sevenbag_db_write_seconds",
                "Seconds one database write took",
                vec![
                    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0,
                ],
            )?,
            moderation,
            skins,
            datagram_sessions: gauge(
                "sevenbag_datagram_sessions",
                "Open datagram (WebTransport) sessions",
            )?,
            datagrams_in: counter(
                "sevenbag_datagrams_received_total",
                "Datagrams received from clients",
            )?,
            datagrams_out: counter("sevenbag_datagrams_sent_total", "Datagrams sent to clients")?,
            datagram_bytes_in: counter(
                "sevenbag_datagram_received_bytes_total",
                "Bytes of datagrams received (payload)",
            )?,
            datagram_bytes_out: counter(
                "sevenbag_datagram_sent_bytes_total",
                "Bytes of datagrams sent (payload)",
            )?,
            datagrams_dropped,
            datagram_sessions_refused,
            battle_desync_seats,
            registry,
        })
    }

    /// Counts one moderation event (`admin_unauthorized`, `report_filed`, ...).
    pub(crate) fn moderation(&self, event: &str) {
        self.moderation.with_label_values(&[event]).inc();
    }

    /// Counts one published-skin event (`published`, `refused`, `served`, `gone`).
    pub(crate) fn skin(&self, event: &str) {
        self.skins.with_label_values(&[event]).inc();
    }

    /// Counts one datagram dropped for `reason`.
    pub(crate) fn datagram_dropped(&self, reason: &str) {
        self.datagrams_dropped.with_label_values(&[reason]).inc();
    }

    /// Counts one datagram session refused for `reason`.
    pub(crate) fn datagram_refused(&self, reason: &str) {
        self.datagram_sessions_refused
            .with_label_values(&[reason])
            .inc();
    }

    /// Counts one board (battle seat `seat`) named in a desync.
    pub(crate) fn battle_desync_seat(&self, seat: u8) {
        self.battle_desync_seats
            .with_label_values(&[&seat.min(7).to_string()])
            .inc();
    }

    /// Counts one connection cut for `reason`.
    pub(crate) fn cut(&self, reason: &str) {
        self.cuts.with_label_values(&[reason]).inc();
    }

    /// Records how long a write that began at `started` took.
    pub(crate) fn db_write_took(&self, started: Instant) {
        self.db_write_seconds
            .observe(started.elapsed().as_secs_f64());
    }

    /// The text exposition format (`text/plain; version=0.0.4`).
    pub(crate) fn render(&self) -> Result<String, prometheus::Error> {
        let mut out = Vec::new();
        TextEncoder::new().encode(&self.registry.gather(), &mut out)?;
        Ok(String::from_utf8_lossy(&out).into_owned())
    }
}

/// Holds a gauge one higher for as long as it lives (a connection, a room, a match), so
/// every way the thing ends — return, error, panic, cancellation — counts it down.
#[derive(Debug)]
pub(crate) struct GaugeGuard(IntGauge);

impl GaugeGuard {
    /// Raises `gauge` by one until the guard is dropped.
    pub(crate) fn new(gauge: &IntGauge) -> GaugeGuard {
        gauge.inc();
        GaugeGuard(gauge.clone())
    }
}

impl Drop for GaugeGuard {
    fn drop(&mut self) {
        self.0.dec();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_metric_is_rendered_with_the_sevenbag_prefix() {
        let m = Metrics::new().expect("metrics");
        m.cut("SlowReader");
        let text = m.render().expect("render");
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            assert!(line.starts_with("sevenbag_"), "{line}");
        }
        assert!(
            text.contains(r#"sevenbag_cuts_total{reason="SlowReader"} 1"#),
            "{text}"
        );
    }

    #[test]
    fn a_gauge_guard_counts_down_when_dropped() {
        let m = Metrics::new().expect("metrics");
        let guard = GaugeGuard::new(&m.rooms);
        assert_eq!(m.rooms.get(), 1);
        drop(guard);
        assert_eq!(m.rooms.get(), 0);
    }
}
