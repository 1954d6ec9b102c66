//! Core subcommands: `bag` prints a piece sequence, `sim` runs an input script.

use clap::Args;
use sevenbag_core::{Randomizer, sequence};

/// Subcommands over the rules core.
#[derive(clap::Subcommand, Debug)]
pub enum CoreCommand {
    /// Print the first pieces of a seed's sequence as letters (IOTSZJL) on one line.
    Bag(BagArgs),
}

/// Arguments of `bag`.
#[derive(Args, Debug)]
pub struct BagArgs {
    /// Match seed.
    #[arg(long)]
    seed: u64,
    /// How many pieces to print.
    #[arg(long, default_value_t = 70)]
    count: usize,
    /// Randomizer: 7bag, 14bag, random or history.
    #[arg(long, default_value = "7bag", value_parser = parse_randomizer)]
    randomizer: Randomizer,
}

fn parse_randomizer(s: &str) -> Result<Randomizer, String> {
    Randomizer::from_name(s)
        .ok_or_else(|| format!("unknown randomizer {s:?}: use 7bag, 14bag, random or history"))
}

/// Runs a core subcommand.
pub fn run(command: CoreCommand) -> anyhow::Result<()> {
    match command {
        CoreCommand::Bag(args) => {
            anyhow::ensure!(
                args.count <= 1_000_000,
                "--count {} is too large (at most 1000000)",
                args.count
            );
            let letters: String = sequence(args.randomizer, args.seed, args.count)
                .iter()
                .map(|p| p.letter())
                .collect();
            println!("{letters}");
            Ok(())
        }
    }
}
