//! The floor benches' relay child, optionally pinned to one core.

use std::path::PathBuf;
use std::process::Command;

/// The relay child's command: `FLOOR_RELAY_CPU=N` starts it under `taskset -c N`, so the relay
/// runs on one core and the players (run the bench under `taskset -c M`) on another, as the
/// server is measured beside `loadtest` (BENCHMARKS.md).
pub fn relay_command(exe: PathBuf) -> Command {
    match std::env::var("FLOOR_RELAY_CPU") {
        Ok(cpu) => {
            let mut command = Command::new("taskset");
            command.arg("-c").arg(cpu).arg(exe);
            command
        }
        Err(_) => Command::new(exe),
    }
}
