//! Bot subcommands (`movegen`, `botmatch`): filled in by the bot issue.

/// Subcommands that inspect and measure the bot.
#[derive(clap::Subcommand, Debug)]
pub enum BotCommand {}

/// Runs a bot subcommand.
pub fn run(command: BotCommand) -> anyhow::Result<()> {
    match command {}
}
