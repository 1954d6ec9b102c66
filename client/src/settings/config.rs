//! The player's settings and their TOML file in the platform's config directory.
//!
//! Loading never stops the game: a missing file means defaults, and a file that cannot be read or
//! parsed is copied aside to `config.toml.bak`, reported in plain words on the menu, and replaced
//! by defaults until the player saves. Saving writes a temporary file and renames it over the old
//! one, so a crash mid-save cannot leave half a file.

#[cfg(not(target_arch = "wasm32"))]
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sevenbag_core::Handling;

use crate::input::button::Button;
use crate::input::keys::{key_from_name, key_name};
use crate::input::pad::PadMap;
use crate::input::touch::{TouchMode, TouchSettings};
use crate::input::{Action, KeyMap, SLOTS};
use crate::render::look::{Look, Palette};
use crate::versus::opponent::{MAX_OUTSIDE_BOTS, OutsideBot};

/// Everything the settings screen edits.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// The name shown to opponents and spectators.
    pub player_name: String,
    /// The server to connect to for online play (`host:port`).
    pub server: String,
    /// Master volume, 0..=100.
    pub volume: u8,
    /// DAS, ARR, DCD, SDF and the IRS/IHS flags; sent in the match header.
    pub handling: Handling,
    /// Keys for solo play (and the local player online).
    pub keys: KeyMap,
    /// Keys of the left player in a local two-player match.
    pub local_left: KeyMap,
    /// Keys of the right player in a local two-player match.
    pub local_right: KeyMap,
    /// Gamepad buttons (every pad plays the keyboard's seat: solo, practice, online).
    pub pad: PadMap,
    /// A PEM certificate to trust for `wss://` servers besides the public web's authorities:
    /// a LAN or test server's self-signed certificate (`--trust-cert` overrides it).
    pub trust_cert: Option<PathBuf>,
    /// The last offline match setup (practice and local play start from it).
    pub setup: MatchSetup,
    /// Outside bots (TBP) offered as practice opponents; only the settings file adds them.
    pub bots: Vec<OutsideBot>,
    /// A plain background instead of the gradient: cheaper on machines that draw in software
    /// (see `render::gfx::background`). Off by default.
    pub plain_background: bool,
    /// Hide common insults and slurs in room chat as asterisks (`net::online::chat::FILTERED`).
    /// Off by default.
    pub chat_filter: bool,
    /// The on-screen controls of a touch screen: when they show, their size and place.
    pub touch: TouchSettings,
    /// Accessibility: piece palette, letters on blocks, high contrast, reduced motion.
    pub look: Look,
}

/// What the practice and local setup screens chose last, by name, so a visit starts where the
/// last one ended. Unknown names fall back to the screen's defaults.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MatchSetup {
    /// The practice opponent: "stacker" or a bot level ("easy" … "max").
    pub opponent: String,
    /// The rules preset ("versus", "classic", "chaos").
    pub rules: String,
    /// Rounds to win.
    pub first_to: u8,
}

impl Default for MatchSetup {
    fn default() -> Self {
        MatchSetup {
            opponent: "medium".to_owned(),
            rules: "versus".to_owned(),
            first_to: 3,
        }
    }
}

impl Default for Config {
    fn default() -> Self {
        Config {
            player_name: "Player".to_owned(),
            server: "127.0.0.1:7878".to_owned(),
            volume: 70,
            handling: Handling::default(),
            keys: KeyMap::guideline(),
            local_left: KeyMap::local_left(),
            local_right: KeyMap::local_right(),
            pad: PadMap::standard(),
            setup: MatchSetup::default(),
            trust_cert: None,
            bots: Vec::new(),
            plain_background: false,
            chat_filter: false,
            touch: TouchSettings::default(),
            look: Look::default(),
        }
    }
}

/// Longest player name, in characters.
pub const MAX_NAME: usize = 16;
/// Longest server address, in characters.
pub const MAX_ADDRESS: usize = 64;

/// Why a settings file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file exists but could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The file is not valid TOML for these settings.
    #[error("not valid settings: {0}")]
    Parse(#[from] toml::de::Error),
    /// A key binding names a key we do not know.
    #[error("unknown key \"{name}\" bound to {action}")]
    UnknownKey {
        /// The action's settings-file key.
        action: &'static str,
        /// The name found.
        name: String,
    },
    /// More keys bound to one action than there are slots.
    #[error("{action} has {count} keys; at most {SLOTS} are allowed")]
    TooManyKeys {
        /// The action's settings-file key.
        action: &'static str,
        /// How many were listed.
        count: usize,
    },
    /// A handling value is outside what the rules accept.
    #[error("handling out of range (DAS 0–60, ARR 0–30, DCD 0–30, SDF 0–60)")]
    Handling,
    /// The volume is above 100.
    #[error("volume {0} is above 100")]
    Volume(u8),
    /// The touch controls' mode is not one we know.
    #[error("touch mode \"{0}\" is not auto, on or off")]
    TouchMode(String),
    /// The piece palette is not one we know.
    #[error("palette \"{0}\" is not guideline, red-green or blue-yellow")]
    Palette(String),
    /// An outside bot's entry is out of range.
    #[error("bot {name:?}: {why}")]
    Bot {
        /// The entry's name.
        name: String,
        /// What is wrong.
        why: String,
    },
    /// The settings could not be turned into TOML (should not happen).
    #[error("could not write settings: {0}")]
    Serialize(#[from] toml::ser::Error),
}

/// The file form: plain strings and numbers, every field optional.
#[derive(Serialize, Deserialize, Debug, Default)]
#[serde(default, deny_unknown_fields)]
struct ConfigFile {
    player_name: Option<String>,
    server: Option<String>,
    volume: Option<u8>,
    handling: HandlingFile,
    keys: Option<KeysFile>,
    local_left: Option<KeysFile>,
    local_right: Option<KeysFile>,
    pad: Option<KeysFile>,
    setup: Option<MatchSetup>,
    trust_cert: Option<PathBuf>,
    plain_background: Option<bool>,
    chat_filter: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    touch: Option<TouchFile>,
    #[serde(skip_serializing_if = "Option::is_none")]
    access: Option<AccessFile>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    bots: Vec<OutsideBot>,
}

/// `[touch]`: the touch controls (written only when they differ from the defaults).
#[derive(Serialize, Deserialize, Debug, Default)]
#[serde(default, deny_unknown_fields)]
struct TouchFile {
    mode: Option<String>,
    size: Option<u8>,
    inset: Option<u8>,
    raise: Option<u8>,
}

impl TouchFile {
    fn into_settings(self) -> Result<TouchSettings, ConfigError> {
        let d = TouchSettings::default();
        let mode = match self.mode {
            Some(name) => TouchMode::from_name(&name).ok_or(ConfigError::TouchMode(name))?,
            None => d.mode,
        };
        Ok(TouchSettings {
            mode,
            size: self.size.unwrap_or(d.size),
            inset: self.inset.unwrap_or(d.inset),
            raise: self.raise.unwrap_or(d.raise),
        }
        .clamped())
    }

    fn from_settings(t: &TouchSettings) -> Option<TouchFile> {
        (*t != TouchSettings::default()).then(|| TouchFile {
            mode: Some(t.mode.name().to_owned()),
            size: Some(t.size),
            inset: Some(t.inset),
            raise: Some(t.raise),
        })
    }
}

/// `[access]`: the accessibility choices (written only when they differ from the defaults).
#[derive(Serialize, Deserialize, Debug, Default)]
#[serde(default, deny_unknown_fields)]
struct AccessFile {
    palette: Option<String>,
    letters: Option<bool>,
    high_contrast: Option<bool>,
    reduced_motion: Option<bool>,
}

impl AccessFile {
    fn into_look(self) -> Result<Look, ConfigError> {
        let d = Look::default();
        let palette = match self.palette {
            Some(name) => Palette::from_name(&name).ok_or(ConfigError::Palette(name))?,
            None => d.palette,
        };
        Ok(Look {
            palette,
            letters: self.letters.unwrap_or(d.letters),
            high_contrast: self.high_contrast.unwrap_or(d.high_contrast),
            reduced_motion: self.reduced_motion.unwrap_or(d.reduced_motion),
        })
    }

    fn from_look(look: &Look) -> Option<AccessFile> {
        (*look != Look::default()).then(|| AccessFile {
            palette: Some(look.palette.name().to_owned()),
            letters: Some(look.letters),
            high_contrast: Some(look.high_contrast),
            reduced_motion: Some(look.reduced_motion),
        })
    }
}

#[derive(Serialize, Deserialize, Debug, Default)]
#[serde(default, deny_unknown_fields)]
struct HandlingFile {
    das: Option<u8>,
    arr: Option<u8>,
    dcd: Option<u8>,
    sdf: Option<u8>,
    irs: Option<bool>,
    ihs: Option<bool>,
}

/// One key map as action → list of key names. A missing action keeps its default keys.
#[derive(Serialize, Deserialize, Debug, Default)]
#[serde(default, deny_unknown_fields)]
struct KeysFile {
    move_left: Option<Vec<String>>,
    move_right: Option<Vec<String>>,
    soft_drop: Option<Vec<String>>,
    hard_drop: Option<Vec<String>>,
    rotate_cw: Option<Vec<String>>,
    rotate_ccw: Option<Vec<String>>,
    rotate_180: Option<Vec<String>>,
    hold: Option<Vec<String>>,
}

impl KeysFile {
    fn slot(&mut self, action: Action) -> &mut Option<Vec<String>> {
        match action {
            Action::MoveLeft => &mut self.move_left,
            Action::MoveRight => &mut self.move_right,
            Action::SoftDrop => &mut self.soft_drop,
            Action::HardDrop => &mut self.hard_drop,
            Action::RotateCw => &mut self.rotate_cw,
            Action::RotateCcw => &mut self.rotate_ccw,
            Action::Rotate180 => &mut self.rotate_180,
            Action::Hold => &mut self.hold,
        }
    }

    fn from_map(map: &KeyMap) -> KeysFile {
        let mut file = KeysFile::default();
        for action in Action::ALL {
            let names = map
                .keys(action)
                .iter()
                .flatten()
                .filter_map(|k| key_name(*k).map(str::to_owned))
                .collect();
            *file.slot(action) = Some(names);
        }
        file
    }

    /// The bindings of this file over `defaults`: an action the file names gets exactly its
    /// listed keys or buttons; an unknown name or too many of them is an error.
    fn into_bindings<M: Bindings>(mut self, defaults: M) -> Result<M, ConfigError> {
        let mut map = defaults;
        for action in Action::ALL {
            let Some(names) = self.slot(action).take() else {
                continue;
            };
            if names.len() > SLOTS {
                return Err(ConfigError::TooManyKeys {
                    action: action.config_key(),
                    count: names.len(),
                });
            }
            for slot in 0..SLOTS {
                map.clear(action, slot);
            }
            for (slot, name) in names.iter().enumerate() {
                let binding = M::parse(name).ok_or_else(|| ConfigError::UnknownKey {
                    action: action.config_key(),
                    name: name.clone(),
                })?;
                map.bind(action, slot, binding);
            }
        }
        Ok(map)
    }

    fn from_pad(map: &PadMap) -> KeysFile {
        let mut file = KeysFile::default();
        for action in Action::ALL {
            let names = map
                .buttons(action)
                .iter()
                .flatten()
                .map(|b| b.name().to_owned())
                .collect();
            *file.slot(action) = Some(names);
        }
        file
    }
}

/// A table of bindings per action and slot, keyboard keys or pad buttons, as the config file
/// sets it.
trait Bindings {
    type Binding;
    fn parse(name: &str) -> Option<Self::Binding>;
    fn clear(&mut self, action: Action, slot: usize);
    fn bind(&mut self, action: Action, slot: usize, binding: Self::Binding);
}

impl Bindings for KeyMap {
    type Binding = macroquad::input::KeyCode;
    fn parse(name: &str) -> Option<Self::Binding> {
        key_from_name(name)
    }
    fn clear(&mut self, action: Action, slot: usize) {
        KeyMap::clear(self, action, slot);
    }
    fn bind(&mut self, action: Action, slot: usize, key: Self::Binding) {
        KeyMap::bind(self, action, slot, key);
    }
}

impl Bindings for PadMap {
    type Binding = Button;
    fn parse(name: &str) -> Option<Button> {
        Button::from_name(name)
    }
    fn clear(&mut self, action: Action, slot: usize) {
        PadMap::clear(self, action, slot);
    }
    fn bind(&mut self, action: Action, slot: usize, button: Button) {
        PadMap::bind(self, action, slot, button);
    }
}

impl Config {
    /// Parses settings from TOML text; fields left out keep their defaults.
    pub fn from_toml(text: &str) -> Result<Config, ConfigError> {
        let file: ConfigFile = toml::from_str(text)?;
        let d = Config::default();
        let h = &file.handling;
        let handling = Handling {
            das: h.das.unwrap_or(d.handling.das),
            arr: h.arr.unwrap_or(d.handling.arr),
            dcd: h.dcd.unwrap_or(d.handling.dcd),
            sdf: h.sdf.unwrap_or(d.handling.sdf),
            irs: h.irs.unwrap_or(d.handling.irs),
            ihs: h.ihs.unwrap_or(d.handling.ihs),
        };
        handling.validate().map_err(|_| ConfigError::Handling)?;
        let volume = file.volume.unwrap_or(d.volume);
        if volume > 100 {
            return Err(ConfigError::Volume(volume));
        }
        if file.bots.len() > MAX_OUTSIDE_BOTS {
            return Err(ConfigError::Bot {
                name: String::new(),
                why: format!("at most {MAX_OUTSIDE_BOTS} bots"),
            });
        }
        for bot in &file.bots {
            bot.validate().map_err(|why| ConfigError::Bot {
                name: bot.name.clone(),
                why,
            })?;
        }
        let keys = |f: Option<KeysFile>, def: KeyMap| f.map_or(Ok(def), |f| f.into_bindings(def));
        Ok(Config {
            player_name: clean_name(file.player_name.as_deref().unwrap_or(&d.player_name)),
            server: file.server.unwrap_or(d.server),
            volume,
            handling,
            keys: keys(file.keys, d.keys)?,
            local_left: keys(file.local_left, d.local_left)?,
            local_right: keys(file.local_right, d.local_right)?,
            pad: file.pad.map_or(Ok(d.pad), |f| f.into_bindings(d.pad))?,
            setup: file.setup.unwrap_or(d.setup),
            trust_cert: file.trust_cert,
            bots: file.bots,
            plain_background: file.plain_background.unwrap_or(d.plain_background),
            chat_filter: file.chat_filter.unwrap_or(d.chat_filter),
            touch: file.touch.map_or(Ok(d.touch), TouchFile::into_settings)?,
            look: file.access.map_or(Ok(d.look), AccessFile::into_look)?,
        })
    }

    /// The TOML text of these settings.
    pub fn to_toml(&self) -> Result<String, ConfigError> {
        let h = self.handling;
        let file = ConfigFile {
            player_name: Some(self.player_name.clone()),
            server: Some(self.server.clone()),
            volume: Some(self.volume),
            handling: HandlingFile {
                das: Some(h.das),
                arr: Some(h.arr),
                dcd: Some(h.dcd),
                sdf: Some(h.sdf),
                irs: Some(h.irs),
                ihs: Some(h.ihs),
            },
            keys: Some(KeysFile::from_map(&self.keys)),
            local_left: Some(KeysFile::from_map(&self.local_left)),
            local_right: Some(KeysFile::from_map(&self.local_right)),
            pad: Some(KeysFile::from_pad(&self.pad)),
            setup: Some(self.setup.clone()),
            trust_cert: self.trust_cert.clone(),
            plain_background: self.plain_background.then_some(true),
            chat_filter: self.chat_filter.then_some(true),
            touch: TouchFile::from_settings(&self.touch),
            access: AccessFile::from_look(&self.look),
            bots: self.bots.clone(),
        };
        let body = toml::to_string_pretty(&file)?;
        Ok(format!(
            "# Sevenbag settings. Edit in the game (Settings) or here; delete the file to reset.\n\
             # Key names: Left, Right, Up, Down, Space, A..Z, 0..9, LeftShift, RightCtrl, Comma, ...\n\n{body}"
        ))
    }

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

/// A player name with control characters removed, trimmed and cut to [`MAX_NAME`]; never empty.
pub fn clean_name(name: &str) -> String {
    let name: String = name
        .chars()
        .filter(|c| !c.is_control())
        .take(MAX_NAME)
        .collect();
    let name = name.trim();
    if name.is_empty() {
        "Player".to_owned()
    } else {
        name.to_owned()
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

#[cfg(test)]
mod tests {
    use super::*;
    use macroquad::input::KeyCode;

    #[test]
    fn an_outside_bot_entry_out_of_range_is_refused_by_name() {
        let text = "[[bots]]\nname = \"cc2\"\ncommand = \"cold-clear-2\"\npps = 99.0\n";
        let e = Config::from_toml(text).unwrap_err().to_string();
        assert!(e.contains("cc2") && e.contains("pps"), "{e}");
    }

    #[test]
    fn save_then_load_round_trips() {
        let tmp = tempfile::tempdir().expect("temp dir");
        let dir = tmp.path().to_path_buf();
        let path = dir.join("nested").join("config.toml");
        let mut config = Config {
            player_name: "Ana".into(),
            server: "example.invalid:9000".into(),
            volume: 35,
            trust_cert: Some(PathBuf::from("/etc/sevenbag/lan-cert.pem")),
            bots: vec![OutsideBot {
                name: "Cold Clear 2".into(),
                command: "/opt/cc2/cold-clear-2 --quiet".into(),
                think_ms: 300,
                pps: 2.5,
            }],
            plain_background: true,
            look: Look {
                palette: Palette::RedGreen,
                letters: true,
                high_contrast: true,
                reduced_motion: true,
            },
            chat_filter: true,
            ..Config::default()
        };
        config.handling.das = 7;
        config.handling.arr = 0;
        config.handling.sdf = 0;
        config.setup = MatchSetup {
            opponent: "max".into(),
            rules: "classic".into(),
            first_to: 7,
        };
        config.keys.bind(Action::HardDrop, 1, KeyCode::Kp0);
        config
            .local_right
            .bind(Action::Hold, 0, KeyCode::RightControl);
        config.save(&path).expect("save");
        let loaded = Config::load(&path).expect("load").expect("file exists");
        assert_eq!(loaded, config);
    }

    #[test]
    fn a_missing_file_is_defaults_without_a_message() {
        let tmp = tempfile::tempdir().expect("temp dir");
        let dir = tmp.path().to_path_buf();
        let (config, msg) = load_or_default(Some(&dir.join("config.toml")));
        assert_eq!(config, Config::default());
        assert!(msg.is_none());
    }

    #[test]
    fn a_corrupt_file_falls_back_to_defaults_and_is_kept() {
        let tmp = tempfile::tempdir().expect("temp dir");
        let dir = tmp.path().to_path_buf();
        std::fs::create_dir_all(&dir).expect("mkdir");
        let path = dir.join("config.toml");
        std::fs::write(&path, "player_name = [unclosed").expect("write");
        let (config, msg) = load_or_default(Some(&path));
        assert_eq!(config, Config::default());
        let msg = msg.expect("a message for the player");
        assert!(msg.contains("Using defaults"), "{msg}");
        assert!(dir.join("config.toml.bak").exists());
    }

    #[test]
    fn partial_files_keep_defaults_for_the_rest() {
        let c =
            Config::from_toml("volume = 10\n[handling]\ndas = 6\n[keys]\nhard_drop = [\"W\"]\n")
                .expect("valid");
        assert_eq!(c.volume, 10);
        assert_eq!(c.handling.das, 6);
        assert_eq!(c.handling.arr, Handling::default().arr);
        assert_eq!(c.keys.keys(Action::HardDrop), [Some(KeyCode::W), None]);
        assert_eq!(c.keys.keys(Action::MoveLeft), [Some(KeyCode::Left), None]);
        assert_eq!(c.local_left, KeyMap::local_left());
        assert_eq!(c.pad, PadMap::standard());
        let c = Config::from_toml("[pad]\nhold = [\"B\"]\n").expect("pad");
        assert_eq!(c.pad.buttons(Action::Hold), [Some(Button::East), None]);
        let back = Config::from_toml(&c.to_toml().expect("toml")).expect("round trip");
        assert_eq!(back.pad, c.pad);
        assert!(Config::from_toml("[pad]\nhold = [\"Banana\"]\n").is_err());
    }

    #[test]
    fn bad_values_are_clear_errors() {
        let unknown = Config::from_toml("[keys]\nhold = [\"Banana\"]\n").unwrap_err();
        assert!(unknown.to_string().contains("Banana"), "{unknown}");
        let das = Config::from_toml("[handling]\ndas = 99\n").unwrap_err();
        assert!(matches!(das, ConfigError::Handling));
        assert!(matches!(
            Config::from_toml("volume = 101").unwrap_err(),
            ConfigError::Volume(101)
        ));
        assert!(Config::from_toml("colour = \"red\"").is_err());
        assert!(Config::from_toml("[keys]\nhold = [\"A\", \"B\", \"C\"]").is_err());
    }

    #[test]
    fn a_file_without_access_choices_loads_the_default_look() {
        let c = Config::from_toml("volume = 10\nplain_background = true\n").expect("old file");
        assert_eq!(c.look, Look::default());
        assert!(!c.to_toml().expect("toml").contains("[access]"));
    }

    #[test]
    fn access_choices_round_trip_and_partial_tables_keep_defaults() {
        let c = Config::from_toml("[access]\npalette = \"blue-yellow\"\nletters = true\n")
            .expect("valid");
        assert_eq!(
            c.look,
            Look {
                palette: Palette::BlueYellow,
                letters: true,
                ..Look::default()
            }
        );
        let back = Config::from_toml(&c.to_toml().expect("toml")).expect("round trip");
        assert_eq!(back.look, c.look);
    }

    #[test]
    fn an_unknown_palette_is_a_clear_error() {
        let e = Config::from_toml("[access]\npalette = \"sepia\"\n").unwrap_err();
        assert!(
            matches!(e, ConfigError::Palette(ref n) if n == "sepia"),
            "{e}"
        );
        assert!(Config::from_toml("[access]\nflashing = false\n").is_err());
    }

    #[test]
    fn names_are_cleaned() {
        assert_eq!(clean_name("  "), "Player");
        assert_eq!(clean_name("a\u{7}b"), "ab");
        assert_eq!(clean_name(&"x".repeat(40)).len(), MAX_NAME);
    }
}
