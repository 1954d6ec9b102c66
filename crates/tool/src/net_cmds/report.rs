//! What `loadtest` prints: latency, traffic, sessions, the server's and its own CPU and
//! memory from /proc, and what `--kill-at` measured.

use std::time::{Duration, Instant};

use anyhow::Context as _;
use sevenbag_netplay::{MessageKind, NetStats, TransportPath};

use super::LoadtestArgs;
use super::players::PlayerOutcome;

/// What `--kill-at` measured.
#[derive(Debug)]
pub(super) struct KillReport {
    /// From the kill until the new process listened.
    pub(super) restarted_in: Option<Duration>,
    /// From the kill until each player was back in its match.
    pub(super) resumed: Vec<Duration>,
}

impl KillReport {
    /// The report's line: matches that survived (both players in the whole window; players
    /// come in pairs, one pair per match) and how long resuming took.
    pub(super) fn line(self, at: f64, players: &[PlayerOutcome]) -> String {
        let survived = players.chunks(2).filter(|m| m.iter().all(|p| p.ok)).count();
        let mut resumed = self.resumed;
        resumed.sort_unstable();
        let q = |p: f64| {
            resumed
                .get(((resumed.len().max(1) - 1) as f64 * p).round() as usize)
                .map_or(f64::NAN, |d| d.as_secs_f64())
        };
        format!(
            "kill -9 at {at:.1} s into the window: {survived} of {} matches survived; server listening again after {:.2} s; players back in their match: {} of {}, p50 {:.2} s, max {:.2} s after the kill",
            players.len() / 2,
            self.restarted_in.map_or(f64::NAN, |d| d.as_secs_f64()),
            resumed.len(),
            players.len(),
            q(0.5),
            q(1.0),
        )
    }
}

/// CPU time and memory of a process, from /proc.
#[derive(Clone, Copy, Debug)]
pub(super) struct ProcStats {
    /// utime + stime, in clock ticks (USER_HZ, 100 on Linux).
    cpu_ticks: u64,
    pub(super) rss_kib: u64,
    at: Instant,
}

impl ProcStats {
    pub(super) fn read(pid: u32) -> anyhow::Result<ProcStats> {
        Self::read_path(&format!("/proc/{pid}"))
    }

    pub(super) fn read_self() -> anyhow::Result<ProcStats> {
        Self::read_path("/proc/self")
    }

    fn read_path(dir: &str) -> anyhow::Result<ProcStats> {
        let stat = std::fs::read_to_string(format!("{dir}/stat"))?;
        // Fields after the command name (which may hold spaces) start after the last ')'.
        let rest = stat
            .rsplit_once(')')
            .map(|(_, r)| r)
            .context("odd /proc stat")?;
        let fields: Vec<&str> = rest.split_whitespace().collect();
        // utime and stime are fields 14 and 15 of the whole line: 11 and 12 after ')'.
        let ticks = |i: usize| -> anyhow::Result<u64> {
            Ok(fields.get(i).context("short /proc stat")?.parse()?)
        };
        let cpu_ticks = ticks(11)? + ticks(12)?;
        let status = std::fs::read_to_string(format!("{dir}/status"))?;
        let rss_kib = status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse().ok())
            .unwrap_or(0);
        Ok(ProcStats {
            cpu_ticks,
            rss_kib,
            at: Instant::now(),
        })
    }

    /// CPU used between two readings, in percent of one core.
    pub(super) fn cpu_percent(a: ProcStats, b: ProcStats) -> f64 {
        let secs = b.at.duration_since(a.at).as_secs_f64().max(1e-9);
        (b.cpu_ticks.saturating_sub(a.cpu_ticks)) as f64 / 100.0 / secs * 100.0
    }
}

/// The numbers printed at the end.
#[derive(Debug)]
pub(super) struct Report {
    pub(super) text: String,
    /// Players that did not take part in the whole window.
    pub(super) failed: usize,
    /// Desyncs reported to any player.
    pub(super) desyncs: usize,
}

impl Report {
    pub(super) fn build(
        args: &LoadtestArgs,
        ramp: f64,
        mut latencies: Vec<u32>,
        players: Vec<PlayerOutcome>,
        server: Option<(ProcStats, ProcStats)>,
        generator: Option<(ProcStats, ProcStats)>,
        rss_peak: u64,
    ) -> Report {
        use std::fmt::Write as _;
        let secs = args.seconds as f64;
        let ok: Vec<&PlayerOutcome> = players.iter().filter(|p| p.ok).collect();
        let n = ok.len().max(1) as f64;
        let sum = |f: &dyn Fn(&PlayerOutcome) -> u64| ok.iter().map(|p| f(p)).sum::<u64>();
        latencies.sort_unstable();
        let pct = |p: f64| -> f64 {
            if latencies.is_empty() {
                return f64::NAN;
            }
            let i = ((latencies.len() as f64 - 1.0) * p).round() as usize;
            f64::from(latencies[i]) / 1000.0
        };
        let mut t = String::new();
        let _ = writeln!(
            t,
            "loadtest: {} matches ({} players), {} s window after a {:.1} s ramp",
            args.matches,
            players.len(),
            args.seconds,
            ramp
        );
        let _ = writeln!(
            t,
            "players in the window: {} ok, {} failed",
            ok.len(),
            players.len() - ok.len()
        );
        for p in players.iter().filter_map(|p| p.error.as_ref()).take(5) {
            let _ = writeln!(t, "  failure: {p}");
        }
        let _ = writeln!(
            t,
            "relay latency (send -> opponent receive): {} samples, p50 {:.2} ms, p99 {:.2} ms, p99.9 {:.2} ms, max {:.2} ms",
            latencies.len(),
            pct(0.5),
            pct(0.99),
            pct(0.999),
            pct(1.0)
        );
        let out_msgs = sum(&|p| p.traffic.messages_out) as f64;
        let in_msgs = sum(&|p| p.traffic.messages_in) as f64;
        let _ = writeln!(
            t,
            "messages/s: {:.0} client->server, {:.0} server->client ({:.1} / {:.1} per player)",
            out_msgs / secs,
            in_msgs / secs,
            out_msgs / secs / n,
            in_msgs / secs / n
        );
        let by_kind = |pick: &dyn Fn(&NetStats) -> &[u64; MessageKind::COUNT]| {
            MessageKind::ALL
                .iter()
                .map(|k| {
                    let count = sum(&|p| pick(&p.traffic)[*k as usize]) as f64;
                    format!("{} {:.1}", k.name(), count / secs / n)
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        let _ = writeln!(
            t,
            "messages per player-second by kind: up {}; down {}",
            by_kind(&|s| &s.kinds_out),
            by_kind(&|s| &s.kinds_in)
        );
        let _ = writeln!(
            t,
            "bytes per player per second (WebSocket frames): {:.0} B/s up, {:.0} B/s down",
            sum(&|p| p.traffic.bytes_out) as f64 / secs / n,
            sum(&|p| p.traffic.bytes_in) as f64 / secs / n
        );
        let frames = sum(&|p| p.session.frames) as f64;
        let _ = writeln!(
            t,
            "frames/s per player: {:.1}; rollbacks/s per player: {:.2} (re-simulated {:.1} frames/s); stall frames/s per player: {:.2}; max rollback depth {}",
            frames / secs / n,
            sum(&|p| p.session.rollbacks) as f64 / secs / n,
            sum(&|p| p.session.resimulated_frames) as f64 / secs / n,
            sum(&|p| p.session.stall_frames) as f64 / secs / n,
            ok.iter()
                .map(|p| p.session.max_rollback_depth)
                .max()
                .unwrap_or(0)
        );
        let _ = writeln!(
            t,
            "desyncs: {}, server errors: {}",
            players.iter().map(|p| p.desyncs).sum::<usize>(),
            players.iter().map(|p| p.server_errors).sum::<usize>()
        );
        match server {
            Some((a, b)) => {
                let _ = writeln!(
                    t,
                    "server: CPU {:.1}% of one core, RSS {:.1} MiB at the end (peak seen {:.1} MiB)",
                    ProcStats::cpu_percent(a, b),
                    b.rss_kib as f64 / 1024.0,
                    rss_peak.max(b.rss_kib) as f64 / 1024.0
                );
            }
            None => {
                let _ = writeln!(
                    t,
                    "server: not measured (use --spawn-server or --server-pid)"
                );
            }
        }
        if let Some((a, b)) = generator {
            let _ = writeln!(
                t,
                "load generator: CPU {:.1}% of one core, RSS {:.1} MiB",
                ProcStats::cpu_percent(a, b),
                b.rss_kib as f64 / 1024.0
            );
        }
        // Lines added after the original ones (scripts read those as they are).
        if args.latency_ms > 0 || args.jitter_ms > 0 {
            let _ = writeln!(
                t,
                "added latency: {} ± {} ms each way (order-keeping proxy)",
                args.latency_ms, args.jitter_ms
            );
        }
        let on_datagrams = ok
            .iter()
            .filter(|p| p.path == TransportPath::Datagrams)
            .count();
        let _ = writeln!(
            t,
            "inputs carried by (end of window): {on_datagrams} players on datagrams, {} on the WebSocket (--path {:?})",
            ok.len() - on_datagrams,
            args.path
        );
        let udp_up = sum(&|p| p.traffic.udp_bytes_out) as f64 / secs / n;
        let udp_down = sum(&|p| p.traffic.udp_bytes_in) as f64 / secs / n;
        let _ = writeln!(
            t,
            "datagrams per player-second: {:.1} up, {:.1} down; UDP payload (QUIC included) {:.0} B/s up, {:.0} B/s down",
            sum(&|p| p.traffic.datagrams_out) as f64 / secs / n,
            sum(&|p| p.traffic.datagrams_in) as f64 / secs / n,
            udp_up,
            udp_down
        );
        let _ = writeln!(
            t,
            "bandwidth per player (WebSocket frames + UDP payload): {:.0} B/s up, {:.0} B/s down",
            sum(&|p| p.traffic.bytes_out) as f64 / secs / n + udp_up,
            sum(&|p| p.traffic.bytes_in) as f64 / secs / n + udp_down
        );
        if args.loss > 0.0 {
            let _ = writeln!(
                t,
                "loss (from the window on): {}% each way in bursts of up to {} (datagrams dropped; WebSocket chunks delivered {} ms late, holding back what follows)",
                args.loss,
                args.loss_burst,
                sevenbag_netplay::delay_proxy::RETRANSMIT_DELAY.as_millis()
            );
        }
        let delays: Vec<u32> = ok.iter().filter_map(|p| p.input_delay).collect();
        let mut pings: Vec<u128> = ok
            .iter()
            .filter_map(|p| p.ping)
            .map(|d| d.as_millis())
            .collect();
        pings.sort_unstable();
        let _ = writeln!(
            t,
            "input delay (frames): min {}, max {}; round trip measured by players: p50 {} ms, max {} ms",
            delays.iter().min().copied().unwrap_or(0),
            delays.iter().max().copied().unwrap_or(0),
            pings.get(pings.len() / 2).copied().unwrap_or(0),
            pings.last().copied().unwrap_or(0)
        );
        if args.server.len() > 1 {
            let _ = writeln!(
                t,
                "cross-instance matches: {}",
                players.iter().filter(|p| p.cross_instance).count()
            );
        }
        // The server's CPU time per connected player per second of play (µs), the figure
        // BENCHMARKS.md tracks (goal: 60 µs at 300 matches), read straight off the report.
        if let Some((a, b)) = server
            && !players.is_empty()
        {
            let per_player_second =
                ProcStats::cpu_percent(a, b) / 100.0 * 1e6 / players.len() as f64;
            let _ = writeln!(t, "server CPU per player-second: {per_player_second:.0} µs");
        }
        Report {
            text: t,
            failed: players.len() - ok.len(),
            desyncs: players.iter().map(|p| p.desyncs).sum(),
        }
    }
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.text.trim_end())
    }
}
