//! The player's identity on servers: a secret key kept in the config dir (`player.key`, 64 hex
//! digits), and the little exchange that turns a ranked-match request into `Identify` (or
//! `Register` the first time, with the player's name) and then `RankedMatch`.
//!
//! The key never leaves this machine except to the server, which stores only its hash. The
//! server shows a recovery code only when it makes one (registration, recovery), so the game
//! shows it as a notice and keeps it next to the key (`player.recovery`, owner-only) for
//! Settings › Account.

use std::path::{Path, PathBuf};

use sevenbag_protocol::{ClientMessage, ErrorCode, Profile, ServerMessage};

use crate::platform::files;

/// The key file: `<config dir>/sevenbag/player.key`, if the platform has a config dir.
pub fn default_key_path() -> Option<PathBuf> {
    crate::platform::folders::config_dir().map(|d| d.join("sevenbag").join("player.key"))
}

fn parse(text: &str) -> Option<[u8; 32]> {
    let hex = text.trim();
    if hex.len() != 64 || !hex.is_ascii() {
        return None;
    }
    let mut key = [0u8; 32];
    for (i, byte) in key.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(key)
}

/// The key at `path` if there is one (viewing standings makes no identity); a file that is not
/// a key is an error.
pub fn load_existing(path: &Path) -> Result<Option<[u8; 32]>, String> {
    match files::read_to_string(path) {
        Ok(text) => parse(&text)
            .map(Some)
            .ok_or_else(|| format!("{} is not a player key (64 hex digits)", path.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("cannot read {}: {e}", path.display())),
    }
}

/// The player's key in the default place, if this machine has one that reads (registered by a
/// ranked match; a damaged file is left for the ranked screen to report).
pub fn existing_key() -> Option<[u8; 32]> {
    default_key_path().and_then(|p| load_existing(&p).ok().flatten())
}

/// Loads the key at `path`, creating a new random one if there is no file. A file that is not a
/// key is an error (never overwritten: it may be the only copy of someone's identity).
pub fn load_or_create(path: &Path) -> Result<[u8; 32], String> {
    match files::read_to_string(path) {
        Ok(text) => parse(&text).ok_or_else(|| {
            format!(
                "{} is not a player key (64 hex digits); move it away to make a new identity",
                path.display()
            )
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let key = random_key()?;
            write_key(path, &key)?;
            Ok(key)
        }
        Err(e) => Err(format!("cannot read {}: {e}", path.display())),
    }
}

/// A new random key (32 bytes from the system's randomness; the browser's
/// `crypto.getRandomValues` in a page, which also asks the browser to keep the site's storage).
pub fn random_key() -> Result<[u8; 32], String> {
    let mut key = [0u8; 32];
    #[cfg(not(target_arch = "wasm32"))]
    getrandom::fill(&mut key).map_err(|e| format!("no randomness for a key: {e}"))?;
    #[cfg(target_arch = "wasm32")]
    {
        crate::platform::web_files::random(&mut key);
        crate::platform::web_files::ask_to_persist();
    }
    Ok(key)
}

/// Writes `key` to `path` as 64 hex digits, replacing any file there (through a temporary file
/// and a rename, so a crash leaves the old key or the new one, never half of one).
pub fn write_key(path: &Path, key: &[u8; 32]) -> Result<(), String> {
    let hex: String = key.iter().map(|b| format!("{b:02x}")).collect();
    write_private(path, &format!("{hex}\n"))
}

/// The file next to the key that keeps the last recovery code this machine was given
/// (`player.recovery`): the server shows a code only when it makes one, so the game keeps it
/// for the Settings screen.
pub fn recovery_path(key_path: &Path) -> PathBuf {
    key_path.with_file_name("player.recovery")
}

/// Keeps `code` in the recovery file next to the key at `key_path`.
pub fn save_recovery_code(key_path: &Path, code: &str) -> Result<(), String> {
    write_private(&recovery_path(key_path), &format!("{}\n", code.trim()))
}

/// The recovery code kept next to the key at `key_path`, if there is one.
pub fn load_recovery_code(key_path: &Path) -> Result<Option<String>, String> {
    let path = recovery_path(key_path);
    match files::read_to_string(&path) {
        Ok(text) => Ok(Some(text.trim().to_owned()).filter(|c| !c.is_empty())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("cannot read {}: {e}", path.display())),
    }
}

/// Writes a secret file readable by its owner only ([`files::write_private`]).
fn write_private(path: &Path, text: &str) -> Result<(), String> {
    files::write_private(path, text.as_bytes())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// What the ranked exchange wants done after a server message.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Step {
    /// Messages to send, in order.
    pub send: Vec<ClientMessage>,
    /// Lines to show the player.
    pub notices: Vec<String>,
    /// The message was part of the exchange (an expected error is not a failure).
    pub consumed: bool,
}

/// The identify-or-register-then-queue exchange of a ranked match request.
#[derive(Debug)]
pub struct RankedFlow {
    key: [u8; 32],
    registering: bool,
    queued: bool,
    profile: Option<Profile>,
    /// Where the key lives: a recovery code that arrives is kept next to it.
    key_path: Option<PathBuf>,
}

impl RankedFlow {
    /// A flow for `key`.
    pub fn new(key: [u8; 32]) -> RankedFlow {
        RankedFlow {
            key,
            registering: false,
            queued: false,
            profile: None,
            key_path: None,
        }
    }

    /// The same flow, keeping any recovery code it is given next to the key at `key_path`
    /// (`player.recovery`, shown in Settings).
    pub fn keeping_codes(mut self, key_path: Option<PathBuf>) -> RankedFlow {
        self.key_path = key_path;
        self
    }

    /// The identity's profile as last heard (before a ranked match: the rating it changes).
    pub fn profile(&self) -> Option<&Profile> {
        self.profile.as_ref()
    }

    /// The first message once welcomed.
    pub fn on_welcome(&mut self) -> ClientMessage {
        self.queued = false;
        ClientMessage::Identify { key: self.key }
    }

    /// Reacts to a server message; `name` is the name to register with.
    pub fn on_message(&mut self, message: &ServerMessage, name: &str) -> Step {
        let mut step = Step::default();
        match message {
            ServerMessage::Error {
                code: ErrorCode::UnknownKey,
                ..
            } if !self.registering => {
                self.registering = true;
                step.send.push(ClientMessage::Register {
                    key: self.key,
                    name: name.to_owned(),
                });
                step.consumed = true;
            }
            ServerMessage::Registered {
                profile,
                recovery_code,
            } => {
                step.notices.push(format!(
                    "Welcome, {}! Your recovery code (write it down; also in Settings): {recovery_code}",
                    profile.name
                ));
                if let Some(path) = &self.key_path
                    && let Err(e) = save_recovery_code(path, recovery_code)
                {
                    step.notices
                        .push(format!("The recovery code was not kept: {e}"));
                }
                self.identified(profile, &mut step);
            }
            ServerMessage::Identified { profile } => self.identified(profile, &mut step),
            _ => {}
        }
        step
    }

    fn identified(&mut self, profile: &Profile, step: &mut Step) {
        if self.queued {
            let old = self.profile.as_ref().map_or(profile.rating, |p| p.rating);
            step.notices.push(rating_change(old, profile));
        } else {
            self.queued = true;
            step.send.push(ClientMessage::RankedMatch);
            step.notices.push(format!(
                "Ranked as {}: {} ±{}, {} games",
                profile.name, profile.rating, profile.deviation, profile.games
            ));
        }
        self.profile = Some(profile.clone());
        step.consumed = true;
    }
}

/// The notice after a rated match: "Rating 1500 → 1662 (±290)".
pub fn rating_change(old: impl std::fmt::Display, now: &Profile) -> String {
    format!("Rating {} → {} (±{})", old, now.rating, now.deviation)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_made_once_and_then_kept() {
        let tmp = tempfile::tempdir().expect("temp dir");
        let dir = tmp.path().to_path_buf();
        let path = dir.join("player.key");
        let first = load_or_create(&path).expect("created");
        assert_eq!(load_or_create(&path).expect("loaded"), first);
    }

    #[test]
    fn a_damaged_key_file_is_an_error_and_is_not_overwritten() {
        let tmp = tempfile::tempdir().expect("temp dir");
        let dir = tmp.path().to_path_buf();
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("player.key");
        std::fs::write(&path, "not a key").unwrap();
        assert!(load_or_create(&path).is_err());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "not a key");
    }

    #[test]
    fn an_unknown_key_registers_then_queues() {
        let mut flow = RankedFlow::new([1; 32]);
        assert_eq!(flow.on_welcome(), ClientMessage::Identify { key: [1; 32] });
        let unknown = ServerMessage::Error {
            code: ErrorCode::UnknownKey,
            message: String::new(),
            fatal: false,
        };
        let step = flow.on_message(&unknown, "alice");
        assert!(step.consumed);
        assert!(matches!(step.send[..], [ClientMessage::Register { .. }]));
        let profile = Profile {
            name: "alice".into(),
            rating: 1500,
            deviation: 350,
            games: 0,
            wins: 0,
            place: None,
        };
        let step = flow.on_message(
            &ServerMessage::Registered {
                profile: profile.clone(),
                recovery_code: "AAAAA".into(),
            },
            "alice",
        );
        assert_eq!(step.send, vec![ClientMessage::RankedMatch]);
        assert!(step.notices[0].contains("AAAAA"));
        // After the match: a new profile is news, not another queue.
        let after = Profile {
            rating: 1662,
            ..profile
        };
        let step = flow.on_message(&ServerMessage::Identified { profile: after }, "alice");
        assert!(step.send.is_empty());
        assert!(step.notices[0].contains("1500 → 1662"));
    }

    #[test]
    fn a_recovery_code_from_registration_is_kept_next_to_the_key_for_its_owner_only() {
        let tmp = tempfile::tempdir().expect("temp dir");
        let dir = tmp.path().to_path_buf();
        let key_path = dir.join("player.key");
        let mut flow = RankedFlow::new([2; 32]).keeping_codes(Some(key_path.clone()));
        let profile = Profile {
            name: "carol".into(),
            rating: 1500,
            deviation: 350,
            games: 0,
            wins: 0,
            place: None,
        };
        let step = flow.on_message(
            &ServerMessage::Registered {
                profile,
                recovery_code: "ABCDE-FGHJK".into(),
            },
            "carol",
        );
        assert_eq!(step.notices.len(), 2, "{:?}", step.notices);
        assert_eq!(
            load_recovery_code(&key_path),
            Ok(Some("ABCDE-FGHJK".to_owned()))
        );
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(recovery_path(&key_path))
                .expect("kept")
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
    }
}
