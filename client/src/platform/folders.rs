//! The platform's folders for the player key, replays, solo runs and records (`dirs`). A browser
//! page has no files: there these are `None` and the features that keep files say they are not
//! available (only the settings are kept, in `localStorage`; see `crate::settings::config`).
use std::path::PathBuf;

/// `~/.config` and the like.
pub fn config_dir() -> Option<PathBuf> {
    #[cfg(not(target_arch = "wasm32"))]
    return dirs::config_dir();
    #[cfg(target_arch = "wasm32")]
    None
}

/// `~/.local/share` and the like.
pub fn data_dir() -> Option<PathBuf> {
    #[cfg(not(target_arch = "wasm32"))]
    return dirs::data_dir();
    #[cfg(target_arch = "wasm32")]
    None
}
