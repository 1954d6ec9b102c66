//! Where the settings live: a TOML file in the platform's config directory, or one
//! `localStorage` entry in a browser. Loading never stops the game (see [`load_or_default`]).

#[cfg(not(target_arch = "wasm32"))]
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use super::{Config, ConfigError};

impl Config {
    /// Reads the settings file at `path`. A missing file is `Ok(None)`. In a browser `path` is
    /// the key of the same TOML text in the page's `localStorage`.
    pub fn load(path: &Path) -> Result<Option<Config>, ConfigError> {
        #[cfg(target_arch = "wasm32")]
        {
            use crate::platform::web;
            let key = storage_key(path);
            match web::storage_len(&key) {
                None => Ok(None),
                Some(len) if len > web::MAX_STORED => Err(ConfigError::Io {
                    path: path.to_owned(),
                    source: std::io::Error::other(format!(
                        "{len} bytes, over the {}-byte limit",
                        web::MAX_STORED
                    )),
                }),
                Some(_) => match web::storage_get(&key) {
                    Some(text) => Config::from_toml(&text).map(Some),
                    None => Err(ConfigError::Io {
                        path: path.to_owned(),
                        source: std::io::Error::other("not UTF-8 text"),
                    }),
                },
            }
        }
        #[cfg(not(target_arch = "wasm32"))]
        match std::fs::read_to_string(path) {
            Ok(text) => Config::from_toml(&text).map(Some),
            Err(e) if e.kind() == ErrorKind::NotFound => Ok(None),
            Err(source) => Err(ConfigError::Io {
                path: path.to_owned(),
                source,
            }),
        }
    }

    /// Writes the settings to `path`, creating its directory; atomic on one file system.
    pub fn save(&self, path: &Path) -> Result<(), ConfigError> {
        let io = |source| ConfigError::Io {
            path: path.to_owned(),
            source,
        };
        #[cfg(target_arch = "wasm32")]
        {
            if crate::platform::web::storage_set(&storage_key(path), &self.to_toml()?) {
                Ok(())
            } else {
                Err(io(std::io::Error::other(
                    "the browser refused to store it (storage full or turned off)",
                )))
            }
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir).map_err(io)?;
            }
            let tmp = path.with_extension("toml.tmp");
            std::fs::write(&tmp, self.to_toml()?).map_err(io)?;
            std::fs::rename(&tmp, path).map_err(io)
        }
    }
}

/// The default settings file: `<config dir>/sevenbag/config.toml`, if the platform has one.
#[cfg(not(target_arch = "wasm32"))]
pub fn default_path() -> Option<PathBuf> {
    dirs::config_dir().map(|d| d.join("sevenbag").join("config.toml"))
}

/// In a browser the settings are one `localStorage` entry; this is its name (as a path, so the
/// rest of the game keeps one type).
#[cfg(target_arch = "wasm32")]
pub fn default_path() -> Option<PathBuf> {
    Some(PathBuf::from("sevenbag/config.toml"))
}

/// The `localStorage` key of settings "file" `path`.
#[cfg(target_arch = "wasm32")]
fn storage_key(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// Whether settings were ever saved at `path` (false: the first start).
pub fn exists(path: &Path) -> bool {
    #[cfg(target_arch = "wasm32")]
    return crate::platform::web::storage_len(&storage_key(path)).is_some();
    #[cfg(not(target_arch = "wasm32"))]
    path.exists()
}

/// Loads settings for the game: never fails. Returns the settings and, when the file was there
/// but unusable, a message for the player (the bad file is kept as `config.toml.bak`).
pub fn load_or_default(path: Option<&Path>) -> (Config, Option<String>) {
    let Some(path) = path else {
        return (
            Config::default(),
            Some("No config directory on this system: settings will not be saved.".to_owned()),
        );
    };
    match Config::load(path) {
        Ok(Some(config)) => (config, None),
        Ok(None) => (Config::default(), None),
        Err(e) => {
            let backup = path.with_extension("toml.bak");
            #[cfg(not(target_arch = "wasm32"))]
            let kept = std::fs::copy(path, &backup).is_ok();
            #[cfg(target_arch = "wasm32")]
            let kept =
                crate::platform::web::storage_backup(&storage_key(path), &storage_key(&backup));
            tracing::warn!(path = %path.display(), error = %e, "settings file unusable");
            let mut msg = format!("Settings file could not be used ({e}). Using defaults.");
            if kept {
                msg.push_str(&format!(" Your old file is kept as {}.", backup.display()));
            }
            (Config::default(), Some(msg))
        }
    }
}
