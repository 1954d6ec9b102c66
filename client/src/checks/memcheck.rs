//! `--memory-check`: samples the resident set while the game runs and, at exit, says whether it
//! kept rising after the warm-up.
//!
//! The first part of a run is allowed to grow (fonts rasterise their glyphs, the GL driver
//! compiles its shaders, the allocator settles); after that the resident set of a game that
//! holds no per-frame garbage stays flat. The check compares the highest sample of the run's last
//! third with the highest sample of its middle third: a leak of even a few kilobytes a frame
//! shows up as a steady climb between the two, where noise (a texture re-upload, a bot search
//! buffer) does not.

/// Megabytes the last third may rise above the middle third before the check fails.
pub const TOLERANCE_MB: f64 = 6.0;

/// Resident-set samples taken during a run.
#[derive(Debug, Default)]
pub struct MemoryCheck {
    /// (frame, resident set in KiB).
    samples: Vec<(u64, u64)>,
}

/// The verdict of a run.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    /// Highest resident set of the middle third, in MB.
    pub middle_mb: f64,
    /// Highest resident set of the last third, in MB.
    pub last_mb: f64,
    /// Highest resident set of the whole run, in MB.
    pub peak_mb: f64,
    /// Samples taken.
    pub samples: usize,
}

impl Verdict {
    /// True when the resident set stayed flat after the warm-up.
    pub fn flat(&self) -> bool {
        self.last_mb - self.middle_mb <= TOLERANCE_MB
    }

    /// One line for the terminal.
    pub fn line(&self) -> String {
        format!(
            "memory check: {} samples; middle third peak {:.1} MB, last third peak {:.1} MB \
             (+{:.1} MB, tolerance {TOLERANCE_MB} MB); run peak {:.1} MB: {}",
            self.samples,
            self.middle_mb,
            self.last_mb,
            self.last_mb - self.middle_mb,
            self.peak_mb,
            if self.flat() {
                "ok, flat"
            } else {
                "FAIL, still rising"
            }
        )
    }
}

impl MemoryCheck {
    /// Frames between samples.
    pub const EVERY: u64 = 30;

    /// Samples the resident set every [`MemoryCheck::EVERY`] frames.
    pub fn frame(&mut self, frame: u64) {
        if frame.is_multiple_of(Self::EVERY)
            && let Some(kib) = rss_kib()
        {
            self.samples.push((frame, kib));
        }
    }

    /// Records a sample (tests feed their own).
    #[cfg(test)]
    fn push(&mut self, frame: u64, kib: u64) {
        self.samples.push((frame, kib));
    }

    /// The verdict; `None` with fewer than 6 samples (too short a run to say).
    pub fn verdict(&self) -> Option<Verdict> {
        let n = self.samples.len();
        if n < 6 {
            return None;
        }
        let mb = |s: &[(u64, u64)]| s.iter().map(|&(_, k)| k).max().unwrap_or(0) as f64 / 1024.0;
        Some(Verdict {
            middle_mb: mb(&self.samples[n / 3..2 * n / 3]),
            last_mb: mb(&self.samples[2 * n / 3..]),
            peak_mb: mb(&self.samples),
            samples: n,
        })
    }
}

/// Sets glibc's allocator up for a game whose big buffers come and go: called first thing in
/// `main`, before any thread starts (an arena setting made later does not apply to threads
/// already running).
///
/// - A fixed mmap threshold (1 MiB). glibc's default one moves up to the size of the largest
///   mmapped block freed (up to 32 MiB), so after the glyph atlas was re-made once (its image,
///   the copy made while growing, the driver's texture: 4–64 MiB each) the next such buffers
///   came from the heap and stayed resident after they were freed. Fixed, every buffer of 1 MiB
///   or more is its own mapping and goes back to the system when freed.
/// - A top pad of 4 MiB. Fixing the mmap threshold also pins glibc's trim threshold at
///   128 KiB, and a frame's transient buffers (meshes, text) then shrank and regrew the heap
///   about 17 times a frame (`brk`), each regrowth faulting in fresh zeroed pages: about 2 ms
///   of CPU a frame under software GL. With the pad, a trim leaves 4 MiB at the top of the
///   heap, so a frame's churn reuses mapped pages; the cost is those 4 MiB at most.
/// - At most two arenas. Each thread that allocates (the bot workers, llvmpipe's rasteriser
///   threads, the network runtime) otherwise gets an arena of its own that keeps its high-water
///   mark; none of them allocates much or often, so sharing costs nothing measurable.
///
/// Elsewhere than glibc it does nothing.
pub fn tune_allocator() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets glibc's allocator parameters; no thread is running yet.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 20);
        libc::mallopt(libc::M_TOP_PAD, 4 << 20);
        libc::mallopt(libc::M_ARENA_MAX, 2);
    }
}

/// Returns the heap's free memory to the system (glibc keeps freed memory for reuse: after
/// start-up that is several megabytes the software GL driver used once to compile its shaders
/// and the fonts to load). The game loop calls it now and then; it costs well under a
/// millisecond. Elsewhere than glibc it does nothing.
pub fn trim() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only walks and releases glibc's own free lists; it takes no pointers.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// The current resident set (VmRSS) in KiB, on Linux.
pub fn rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn growth_during_the_warm_up_then_a_flat_line_passes() {
        let mut m = MemoryCheck::default();
        for (i, kib) in [100, 140, 150, 151, 150, 152, 151, 150, 152]
            .into_iter()
            .enumerate()
        {
            m.push(i as u64, kib * 1024);
        }
        let v = m.verdict().expect("enough samples");
        assert!(v.flat(), "{}", v.line());
        assert_eq!(v.peak_mb, 152.0);
    }

    #[test]
    fn a_steady_climb_fails() {
        let mut m = MemoryCheck::default();
        for i in 0..30u64 {
            m.push(i, (150 + i) * 1024);
        }
        let v = m.verdict().expect("enough samples");
        assert!(!v.flat(), "{}", v.line());
        assert!(v.line().contains("FAIL"));
    }

    #[test]
    fn a_short_run_gives_no_verdict() {
        let mut m = MemoryCheck::default();
        m.push(0, 1024);
        assert!(m.verdict().is_none());
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn the_resident_set_is_readable_on_linux() {
        assert!(rss_kib().is_some_and(|k| k > 0));
    }
}
