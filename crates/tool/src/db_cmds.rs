//! Database subcommands: `ratings` prints the players of a server's database, best first.

use std::path::PathBuf;

use clap::Args;
use sevenbag_storage::{SqliteStorage, Storage};

/// Subcommands that read a server's database.
#[derive(clap::Subcommand, Debug)]
pub enum DbCommand {
    /// Print every player of a server database with rating, deviation, games and wins.
    Ratings(RatingsArgs),
}

/// Arguments of `ratings`.
#[derive(Args, Debug)]
pub struct RatingsArgs {
    /// The server's SQLite file (`sevenbag-server --db`).
    #[arg(long)]
    db: PathBuf,
    /// Print at most this many players.
    #[arg(long, default_value_t = 100)]
    limit: usize,
}

/// Runs a database subcommand.
pub fn run(command: DbCommand) -> anyhow::Result<()> {
    match command {
        DbCommand::Ratings(args) => ratings(&args),
    }
}

fn ratings(args: &RatingsArgs) -> anyhow::Result<()> {
    anyhow::ensure!(
        args.db.is_file(),
        "no database file at {}",
        args.db.display()
    );
    let storage = SqliteStorage::open(&args.db)?;
    let players = storage.all_players()?;
    println!(
        "{:>5}  {:<16}  {:>7}  {:>5}  {:>8}  {:>5}  {:>5}",
        "place", "name", "rating", "rd", "vol", "games", "wins"
    );
    for (place, p) in players.iter().take(args.limit).enumerate() {
        println!(
            "{:>5}  {:<16}  {:>7.1}  {:>5.1}  {:>8.5}  {:>5}  {:>5}",
            place + 1,
            p.name,
            p.rating.rating,
            p.rating.deviation,
            p.rating.volatility,
            p.games,
            p.wins
        );
    }
    println!("{} players", players.len());
    Ok(())
}
