//! Who thought how much: the CPU time a thread or a process tree used, read from `/proc`, and
//! pinning a thread or a process tree to one core, so two bots in a match each think on a core
//! of their own. Linux only; elsewhere the readings are `None` and pinning is an error.
//!
//! Times come from the `utime` and `stime` fields of `/proc/…/stat` (clock ticks, 10 ms on
//! the usual kernels, so per-piece figures are averages over a game). A process's line counts
//! all its threads; a bot run through `sh -c` may be a child of that shell, so a tree is the
//! process and every living descendant.

use std::io;
use std::time::Duration;

/// CPU time (user + system) one of this process's threads used so far:
/// `/proc/self/task/TID/stat`.
pub fn thread_cpu(tid: u32) -> Option<Duration> {
    stat_cpu(&std::fs::read_to_string(format!("/proc/self/task/{tid}/stat")).ok()?)
}

/// CPU time (user + system) the process `pid` (all its threads) and its living descendants
/// used so far: `/proc/PID/stat` of each.
pub fn process_tree_cpu(pid: u32) -> Option<Duration> {
    let mut total = Duration::ZERO;
    for p in process_tree(pid) {
        if let Some(t) = std::fs::read_to_string(format!("/proc/{p}/stat"))
            .ok()
            .and_then(|s| stat_cpu(&s))
        {
            total += t;
        }
    }
    Some(total).filter(|_| std::path::Path::new(&format!("/proc/{pid}")).exists())
}

/// `pid` and every living process descended from it.
pub fn process_tree(pid: u32) -> Vec<u32> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return vec![pid];
    };
    let parents: Vec<(u32, u32)> = dir
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter_map(|p| {
            let stat = std::fs::read_to_string(format!("/proc/{p}/stat")).ok()?;
            Some((p, stat_fields(&stat)?.get(1)?.parse().ok()?))
        })
        .collect();
    let mut tree = vec![pid];
    let mut i = 0;
    while let Some(&p) = tree.get(i) {
        tree.extend(
            parents
                .iter()
                .filter(|&&(_, parent)| parent == p)
                .map(|&(c, _)| c),
        );
        i += 1;
    }
    tree
}

/// The fields of a stat line after the command name (which may hold spaces and parentheses):
/// the state first, then the parent's id, … `utime` is the 12th and `stime` the 13th.
fn stat_fields(stat: &str) -> Option<Vec<&str>> {
    let after = &stat[stat.rfind(')')? + 1..];
    Some(after.split_whitespace().collect())
}

/// `utime + stime` of a stat line.
fn stat_cpu(stat: &str) -> Option<Duration> {
    let fields = stat_fields(stat)?;
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    let per_second = ticks_per_second();
    Some(Duration::from_micros(
        ticks.saturating_mul(1_000_000) / per_second,
    ))
}

#[cfg(target_os = "linux")]
fn ticks_per_second() -> u64 {
    use nix::unistd::{SysconfVar, sysconf};
    match sysconf(SysconfVar::CLK_TCK) {
        Ok(Some(t)) if t > 0 => t as u64,
        _ => 100,
    }
}

#[cfg(not(target_os = "linux"))]
fn ticks_per_second() -> u64 {
    100
}

/// The calling thread's id (for [`thread_cpu`]).
#[cfg(target_os = "linux")]
pub fn current_tid() -> Option<u32> {
    u32::try_from(nix::unistd::gettid().as_raw()).ok()
}

/// The calling thread's id (only on Linux).
#[cfg(not(target_os = "linux"))]
pub fn current_tid() -> Option<u32> {
    None
}

/// Pins the calling thread to core `cpu` (threads it starts later inherit it).
#[cfg(target_os = "linux")]
pub fn pin_current_thread(cpu: usize) -> io::Result<()> {
    pin_task(0, cpu)
}

/// Pins every thread of `pid` and of its living descendants to core `cpu` (threads they start
/// later inherit it); returns how many threads were pinned.
#[cfg(target_os = "linux")]
pub fn pin_process_tree(pid: u32, cpu: usize) -> io::Result<usize> {
    let mut pinned = 0;
    for p in process_tree(pid) {
        for task in std::fs::read_dir(format!("/proc/{p}/task"))? {
            let Some(tid) = task?.file_name().to_str().and_then(|t| t.parse().ok()) else {
                continue;
            };
            pin_task(tid, cpu)?;
            pinned += 1;
        }
    }
    Ok(pinned)
}

#[cfg(target_os = "linux")]
fn pin_task(tid: i32, cpu: usize) -> io::Result<()> {
    use nix::sched::{CpuSet, sched_setaffinity};
    use nix::unistd::Pid;
    let mut set = CpuSet::new();
    set.set(cpu).map_err(io::Error::from)?;
    sched_setaffinity(Pid::from_raw(tid), &set).map_err(io::Error::from)
}

/// The cores `tid` (0: the calling thread) may run on.
#[cfg(target_os = "linux")]
pub fn affinity(tid: u32) -> io::Result<Vec<usize>> {
    use nix::sched::{CpuSet, sched_getaffinity};
    use nix::unistd::Pid;
    let tid = i32::try_from(tid).map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))?;
    let set = sched_getaffinity(Pid::from_raw(tid)).map_err(io::Error::from)?;
    Ok((0..CpuSet::count())
        .filter(|&c| set.is_set(c).unwrap_or(false))
        .collect())
}

#[cfg(not(target_os = "linux"))]
fn unsupported() -> io::Error {
    io::Error::new(io::ErrorKind::Unsupported, "pinning to a core needs Linux")
}

/// Pins the calling thread to core `cpu` (only on Linux).
#[cfg(not(target_os = "linux"))]
pub fn pin_current_thread(_cpu: usize) -> io::Result<()> {
    Err(unsupported())
}

/// Pins a process tree to core `cpu` (only on Linux).
#[cfg(not(target_os = "linux"))]
pub fn pin_process_tree(_pid: u32, _cpu: usize) -> io::Result<usize> {
    Err(unsupported())
}

/// The cores a thread may run on (only on Linux).
#[cfg(not(target_os = "linux"))]
pub fn affinity(_tid: u32) -> io::Result<Vec<usize>> {
    Err(unsupported())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stat_line_gives_user_plus_system_time() {
        // A command name with a space and a parenthesis, 250 + 50 ticks.
        let line = "4242 (cold clear) 2) S 4241 4242 4241 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 \
                    2 0 12345 1000 100";
        let t = stat_cpu(line).unwrap();
        assert_eq!(t, Duration::from_secs(300) / ticks_per_second() as u32);
        assert_eq!(stat_fields(line).unwrap()[1], "4241");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn this_thread_reads_the_time_it_spends_computing() {
        let tid = current_tid().unwrap();
        let before = thread_cpu(tid).unwrap();
        let start = std::time::Instant::now();
        let mut x = 1u64;
        while start.elapsed() < Duration::from_millis(120) {
            x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
        }
        let used = thread_cpu(tid).unwrap() - before;
        // Ticks are coarse and the machine may be busy: some time, never more than wall clock.
        assert!(used <= Duration::from_millis(200), "{used:?}");
        assert!(process_tree_cpu(std::process::id()).unwrap() >= used);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_pinned_thread_runs_on_its_core_only() {
        // The first core this process may use (a container may not offer core 0).
        let core = affinity(0).unwrap()[0];
        std::thread::spawn(move || {
            pin_current_thread(core).unwrap();
            assert_eq!(affinity(0).unwrap(), vec![core]);
        })
        .join()
        .unwrap();
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_child_process_tree_is_found_and_pinned() {
        let mut child = std::process::Command::new("sh")
            .args(["-c", "sleep 5 & wait"])
            .spawn()
            .unwrap();
        // Let the shell start its child.
        let pid = child.id();
        let deadline = std::time::Instant::now() + Duration::from_secs(5);
        while process_tree(pid).len() < 2 && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(10));
        }
        let tree = process_tree(pid);
        let pinned = pin_process_tree(pid, affinity(0).unwrap()[0]);
        let _ = child.kill();
        let _ = child.wait();
        for p in &tree[1..] {
            let _ = std::process::Command::new("kill")
                .arg(p.to_string())
                .status();
        }
        assert!(tree.len() >= 2, "{tree:?}");
        assert!(pinned.unwrap() >= 2);
    }
}
