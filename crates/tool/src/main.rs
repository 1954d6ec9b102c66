//! `sevenbag-tool`: piece sequences, scripted simulation, bot inspection, replays and load tests.
//!
//! Each family of subcommands lives in its own module, which owns its clap `Subcommand` enum
//! and its `run` function; this file only parses and dispatches, and maps errors to exit codes.

// The server's admin API (docs/MODERATION.md).
mod admin_cmds;
mod bot_cmds;
// The fixed-sequence challenge: verify, solve, score.
mod challenge_cmds;
mod core_cmds;
// The server's database: migrations and inspection.
mod db_cmds;
mod net_cmds;
// Generated puzzles: make, check, share codes.
mod puzzle_cmds;
mod replay_cmds;
// Block skin files: decode and check.
mod skin_cmds;

use clap::Parser;

/// Command-line interface of `sevenbag-tool`.
#[derive(Parser, Debug)]
#[command(
    name = "sevenbag-tool",
    version,
    about = "Sevenbag's developer and operator tool"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Every subcommand, grouped by the module that implements it.
#[derive(clap::Subcommand, Debug)]
enum Command {
    #[command(flatten)]
    Core(core_cmds::CoreCommand),
    #[command(flatten)]
    Bot(bot_cmds::BotCommand),
    #[command(flatten)]
    Net(net_cmds::NetCommand),
    #[command(flatten)]
    Replay(replay_cmds::ReplayCommand),
    #[command(flatten)]
    Challenge(challenge_cmds::ChallengeCommand),
    #[command(flatten)]
    Db(db_cmds::DbCommand),
    #[command(flatten)]
    Puzzle(puzzle_cmds::PuzzleCommand),
    #[command(flatten)]
    Admin(admin_cmds::AdminCommand),
    #[command(flatten)]
    Skin(skin_cmds::SkinCommand),
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Core(c) => core_cmds::run(c),
        Command::Bot(c) => bot_cmds::run(c),
        Command::Net(c) => net_cmds::run(c),
        Command::Replay(c) => replay_cmds::run(c),
        Command::Challenge(c) => challenge_cmds::run(c),
        Command::Db(c) => db_cmds::run(c),
        Command::Puzzle(c) => puzzle_cmds::run(c),
        Command::Admin(c) => admin_cmds::run(c),
        Command::Skin(c) => skin_cmds::run(c),
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
