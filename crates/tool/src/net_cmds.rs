//! Online subcommands (`replay verify`, `loadtest`): filled in by the online issue.

/// Subcommands that work with servers and replays.
#[derive(clap::Subcommand, Debug)]
pub enum NetCommand {}

/// Runs an online subcommand.
pub fn run(command: NetCommand) -> anyhow::Result<()> {
    match command {}
}
