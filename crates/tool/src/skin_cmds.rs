//! Skin subcommands: `skin check FILE` decodes a block skin file (TETR.IO or Jstris raster
//! layout, or a connected sheet) under the skin crate's limits and prints its layout, tile
//! size and content address. All the work is in `sevenbag_skin`.

use std::path::PathBuf;

use anyhow::Context;
use sevenbag_protocol::file::read_limited;

/// Subcommands over block skin files.
#[derive(clap::Subcommand, Debug)]
pub enum SkinCommand {
    /// Check block skin files (PNG, TETR.IO or Jstris layout, or a connected sheet).
    #[command(subcommand)]
    Skin(SkinAction),
}

/// What to do.
#[derive(clap::Subcommand, Debug)]
pub enum SkinAction {
    /// Decode a skin file; print its layout, tile size and id, or why it is refused.
    Check {
        /// The skin file (PNG).
        file: PathBuf,
    },
}

/// Runs a skin subcommand.
pub fn run(command: SkinCommand) -> anyhow::Result<()> {
    let SkinCommand::Skin(SkinAction::Check { file }) = command;
    let bytes = read_limited(&file, sevenbag_skin::limits::MAX_FILE_BYTES as u64)
        .with_context(|| format!("cannot read {}", file.display()))?;
    let skin = sevenbag_skin::decode(&bytes).with_context(|| format!("{}", file.display()))?;
    println!("layout: {}", skin.layout());
    println!("tile: {} px", skin.tile());
    println!("id: {}", skin.id());
    Ok(())
}
