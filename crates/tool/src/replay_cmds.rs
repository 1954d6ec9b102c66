//! Replay subcommands (`replay verify`): filled in by the online issue.

/// Subcommands over replay files.
#[derive(clap::Subcommand, Debug)]
pub enum ReplayCommand {}

/// Runs a replay subcommand.
pub fn run(command: ReplayCommand) -> anyhow::Result<()> {
    match command {}
}
