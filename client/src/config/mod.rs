//! The player's settings and their TOML file in the platform's config directory.
//!
//! Loading never stops the game: a missing file means defaults, and a file that cannot be read or
//! parsed is copied aside to `config.toml.bak`, reported in plain words on the menu, and replaced
//! by defaults until the player saves. Saving writes a temporary file and renames it over the old
//! one, so a crash mid-save cannot leave half a file.

mod bots;
mod file;
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub mod page_skin;
mod skin;
mod store;

use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use sevenbag_core::Handling;

use crate::input::pad::PadMap;
use crate::input::touch::TouchSettings;
use crate::input::{KeyMap, SLOTS};
use crate::render::look::Look;
use crate::render::skin::Others;

pub use bots::{MAX_OUTSIDE_BOTS, OutsideBot};
pub use skin::SkinChoice;
pub use store::{default_path, exists, load_or_default};

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
    /// The block skin: none, a built-in, or the file at [`Config::skin_file`].
    pub skin: SkinChoice,
    /// The skin file last typed in the settings (kept while another skin is chosen).
    pub skin_file: Option<PathBuf>,
    /// Publish the skin in force to the servers played on, for others to see (on by default).
    pub share_skin: bool,
    /// Whose skins other players' boards show online.
    pub others_skins: Others,
    /// Each sound group's volume, 0..=100 of the master volume: movement, clears, alerts
    /// (`[sound]` in the file; [`crate::sound::theme::Group`]).
    pub sound_groups: [u8; 3],
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
            skin: SkinChoice::default(),
            skin_file: None,
            share_skin: true,
            others_skins: Others::Theirs,
            sound_groups: [100; 3],
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
    /// The block skin is not one we know.
    #[error("skin \"{0}\" is not default, bevel, outline or file")]
    Skin(String),
    /// Whose skins others' boards show is not a choice we know.
    #[error("others_skins \"{0}\" is not theirs, yours or default")]
    OthersSkins(String),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::Action;
    use crate::input::button::Button;
    use crate::render::look::Palette;
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
            skin: SkinChoice::File,
            skin_file: Some(PathBuf::from("/home/ana/skins/neon.png")),
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
    fn sound_group_volumes_round_trip_and_default_to_full() {
        let c = Config::from_toml("[sound]\nclears = 40\n").expect("a [sound] table");
        assert_eq!(c.sound_groups, [100, 40, 100]);
        assert_eq!(
            Config::from_toml(&c.to_toml().expect("toml")).expect("again"),
            c
        );
        assert!(
            !Config::default()
                .to_toml()
                .expect("toml")
                .contains("[sound]")
        );
        assert!(Config::from_toml("[sound]\nalerts = 101\n").is_err());
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
    fn a_file_without_a_skin_loads_the_flat_blocks_and_writes_no_skin_key() {
        let c = Config::from_toml("volume = 10\n").expect("old file");
        assert_eq!(c.skin, SkinChoice::Default);
        assert!(!c.to_toml().expect("toml").contains("skin"));
    }

    #[test]
    fn a_built_in_skin_is_kept_by_name() {
        let c = Config::from_toml("skin = \"outline\"\n").expect("valid");
        assert_eq!(
            c.skin,
            SkinChoice::BuiltIn(crate::render::builtin_skins::BuiltIn::Outline)
        );
        let back = Config::from_toml(&c.to_toml().expect("toml")).expect("round trip");
        assert_eq!(back.skin, c.skin);
    }

    #[test]
    fn an_unknown_skin_is_a_clear_error() {
        let e = Config::from_toml("skin = \"glitter\"\n").unwrap_err();
        assert!(
            matches!(e, ConfigError::Skin(ref n) if n == "glitter"),
            "{e}"
        );
    }

    #[test]
    fn names_are_cleaned() {
        assert_eq!(clean_name("  "), "Player");
        assert_eq!(clean_name("a\u{7}b"), "ab");
        assert_eq!(clean_name(&"x".repeat(40)).len(), MAX_NAME);
    }
}
