//! `--bench`: frame-time percentiles, CPU per frame and peak memory, printed at exit.
//!
//! The frame time is the wall time of one pass of the game loop, drawing and the wait for the
//! display included. CPU time and the peak resident set come from `/proc/self` on Linux (both
//! cores count, so CPU per frame can exceed the frame time); elsewhere they print as "n/a".

use sevenbag_netplay::time::Instant;
use std::time::Duration;

/// Frame times gathered by the game loop.
pub struct FrameStats {
    started: Instant,
    last: Instant,
    cpu_at_start: Option<Duration>,
    frames: Vec<Duration>,
}

impl FrameStats {
    /// Starts measuring now.
    pub fn start() -> FrameStats {
        let now = Instant::now();
        FrameStats {
            started: now,
            last: now,
            cpu_at_start: process_cpu(),
            frames: Vec::new(),
        }
    }

    /// Marks the end of a frame.
    pub fn frame_done(&mut self) {
        let now = Instant::now();
        self.frames.push(now - self.last);
        self.last = now;
    }

    /// The report, one line (see [`FrameStats::report`] for its fields).
    pub fn report(&self) -> String {
        let mut sorted = self.frames.clone();
        sorted.sort_unstable();
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        let pick =
            |q: usize| sorted.get((sorted.len() * q / 100).min(sorted.len().saturating_sub(1)));
        let n = sorted.len().max(1) as f64;
        let cpu = match (self.cpu_at_start, process_cpu()) {
            (Some(a), Some(b)) => format!("{:.1} ms", ms(b.saturating_sub(a)) / n),
            _ => "n/a".to_owned(),
        };
        let rss = peak_rss_kib().map_or("n/a".to_owned(), |k| format!("{} MB", k / 1024));
        format!(
            "bench: {} frames in {:.2} s; frame time p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms; \
             CPU {cpu} per frame; peak RSS {rss}",
            sorted.len(),
            self.started.elapsed().as_secs_f64(),
            pick(50).map_or(0.0, |d| ms(*d)),
            pick(99).map_or(0.0, |d| ms(*d)),
            sorted.last().map_or(0.0, |d| ms(*d)),
        )
    }
}

/// User + system CPU time of this process so far.
fn process_cpu() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which may hold spaces) start after the last ')'.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of the whole line: 11 and 12 after ") ".
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    // The kernel's USER_HZ is 100 on every Linux platform the game builds for.
    Some(Duration::from_millis(ticks * 10))
}

/// The peak resident set (VmHWM) in KiB.
pub fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_report_names_every_figure() {
        let mut stats = FrameStats::start();
        for _ in 0..10 {
            stats.frame_done();
        }
        let report = stats.report();
        for word in ["10 frames", "p50", "p99", "max", "CPU", "peak RSS"] {
            assert!(report.contains(word), "{report}");
        }
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn linux_reports_cpu_and_peak_memory() {
        assert!(process_cpu().is_some());
        assert!(peak_rss_kib().is_some_and(|k| k > 0));
    }
}
