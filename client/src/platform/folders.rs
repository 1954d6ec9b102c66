//! The platform's folders for the player key, replays, solo runs and records (`dirs`). In a
//! browser page they are folders of the page's own files ([`PAGE_ROOT`], kept in IndexedDB by
//! `client/web/sevenbag-storage.js`; see [`crate::platform::files`]), so the same code keeps the
//! same files there; the settings are in `localStorage` (`crate::config`).
use std::path::PathBuf;

/// The root of the page's files: the version is in the name, so that a later layout can live
/// beside this one (the page names another version's entries and leaves them alone).
#[cfg(target_arch = "wasm32")]
pub const PAGE_ROOT: &str = "/sevenbag-v1";

/// `~/.config` and the like; the page's `config` folder in a browser.
pub fn config_dir() -> Option<PathBuf> {
    #[cfg(not(target_arch = "wasm32"))]
    return dirs::config_dir();
    #[cfg(target_arch = "wasm32")]
    Some(PathBuf::from(PAGE_ROOT).join("config"))
}

/// `~/.local/share` and the like; the page's `data` folder in a browser.
pub fn data_dir() -> Option<PathBuf> {
    #[cfg(not(target_arch = "wasm32"))]
    return dirs::data_dir();
    #[cfg(target_arch = "wasm32")]
    Some(PathBuf::from(PAGE_ROOT).join("data"))
}
