//! `sevenbag-server`: the relay server binary.

use clap::Parser;

/// Command-line flags of the server.
#[derive(Parser, Debug)]
#[command(version, about = "Sevenbag relay server")]
struct Args {
    /// Address to listen on.
    #[arg(long, default_value = "0.0.0.0:7878")]
    bind: String,
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    tracing_subscriber::fmt().init();
    tracing::info!(bind = %args.bind, "the relay server arrives with the online issue");
    Ok(())
}
