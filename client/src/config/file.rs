//! The settings file's form: plain strings and numbers, every field optional, read into a
//! [`Config`] over the defaults and written back from one.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use sevenbag_core::Handling;

use crate::input::button::Button;
use crate::input::keys::{key_from_name, key_name};
use crate::input::pad::PadMap;
use crate::input::touch::{TouchMode, TouchSettings};
use crate::input::{Action, KeyMap, SLOTS};
use crate::render::look::{Look, Palette};
use crate::render::skin::Others;

use super::{
    Config, ConfigError, MAX_OUTSIDE_BOTS, MatchSetup, OutsideBot, SkinChoice, clean_name,
};

/// The whole file.
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
    /// The block skin's name (written only when not the default).
    #[serde(skip_serializing_if = "Option::is_none")]
    skin: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    skin_file: Option<PathBuf>,
    /// `false`: the skin in force is not published to servers (written only when off).
    #[serde(skip_serializing_if = "Option::is_none")]
    share_skin: Option<bool>,
    /// Whose skins other players' boards show online (written only when not `theirs`).
    #[serde(skip_serializing_if = "Option::is_none")]
    others_skins: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    touch: Option<TouchFile>,
    #[serde(skip_serializing_if = "Option::is_none")]
    access: Option<AccessFile>,
    #[serde(skip_serializing_if = "Option::is_none")]
    sound: Option<SoundFile>,
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

/// `[sound]`: each sound group's volume, 0..=100 of the master volume (written only when one
/// is not 100).
#[derive(Serialize, Deserialize, Debug, Default)]
#[serde(default, deny_unknown_fields)]
struct SoundFile {
    movement: Option<u8>,
    clears: Option<u8>,
    alerts: Option<u8>,
}

impl SoundFile {
    fn into_groups(self) -> Result<[u8; 3], ConfigError> {
        let groups = [self.movement, self.clears, self.alerts].map(|v| v.unwrap_or(100));
        match groups.into_iter().find(|v| *v > 100) {
            Some(v) => Err(ConfigError::Volume(v)),
            None => Ok(groups),
        }
    }

    fn from_groups(groups: [u8; 3]) -> Option<SoundFile> {
        (groups != [100; 3]).then(|| SoundFile {
            movement: Some(groups[0]),
            clears: Some(groups[1]),
            alerts: Some(groups[2]),
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
            sound_groups: file
                .sound
                .map_or(Ok(d.sound_groups), SoundFile::into_groups)?,
            skin: match file.skin {
                Some(name) => SkinChoice::from_name(&name).ok_or(ConfigError::Skin(name))?,
                None => d.skin,
            },
            skin_file: file.skin_file,
            share_skin: file.share_skin.unwrap_or(d.share_skin),
            others_skins: match file.others_skins {
                Some(name) => Others::from_name(&name).ok_or(ConfigError::OthersSkins(name))?,
                None => d.others_skins,
            },
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
            sound: SoundFile::from_groups(self.sound_groups),
            skin: (self.skin != SkinChoice::Default).then(|| self.skin.name().to_owned()),
            skin_file: self.skin_file.clone(),
            share_skin: (!self.share_skin).then_some(false),
            others_skins: (self.others_skins != Others::Theirs)
                .then(|| self.others_skins.name().to_owned()),
            bots: self.bots.clone(),
        };
        let body = toml::to_string_pretty(&file)?;
        Ok(format!(
            "# Sevenbag settings. Edit in the game (Settings) or here; delete the file to reset.\n\
             # Key names: Left, Right, Up, Down, Space, A..Z, 0..9, LeftShift, RightCtrl, Comma, ...\n\n{body}"
        ))
    }
}
