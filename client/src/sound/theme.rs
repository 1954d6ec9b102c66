//! Sound themes: a folder of WAV files, one for each named sound, checked under limits before
//! any is played; every sound the folder lacks (or whose file is refused) keeps the built-in
//! one ([`crate::sound::sfx`]).
//!
//! A theme is a set of named sounds ([`Name`]), each `NAME.wav` in the folder: `move`,
//! `rotate`, `lock`, `hold`, `clear1` to `clear4` (line clears by size), `tspin`, `combo`,
//! `perfect`, `garbage`, `topout`, `countdown`, `go`. Each belongs to a volume group
//! ([`Group`]: movement, clears, alerts). Files come from anyone, so a file is refused with an
//! error naming it ([`ThemeError`]) when it is over [`MAX_SOUND_BYTES`], is not a RIFF/WAVE
//! file of 8- or 16-bit PCM, has a header that lies about its data (a `data` chunk longer than
//! the file), or lasts over [`MAX_SECONDS`]; the rest of the theme still loads.
//! Checking reads only the header fields, so no file is decoded before it passes. A theme may
//! also come packed in a ZIP archive ([`super::theme_zip`]), its files checked alike.

use std::path::{Path, PathBuf};

/// The largest sound file read, in bytes (1 MiB: 5 s of 16-bit stereo at 48 kHz is 960 KB).
pub const MAX_SOUND_BYTES: usize = 1024 * 1024;

/// The longest sound accepted, in seconds.
pub const MAX_SECONDS: f64 = 5.0;

/// A volume group: each is set apart in Settings and the config file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Group {
    /// Moving, rotating, holding and locking pieces; menu moves.
    Movement,
    /// Line clears, T-spins, combos and perfect clears.
    Clears,
    /// Garbage coming in, topping out, the countdown and the end of a match.
    Alerts,
}

impl Group {
    /// Every group, in the order of the settings' `sound_groups`.
    pub const ALL: [Group; 3] = [Group::Movement, Group::Clears, Group::Alerts];
}

/// A sound a theme may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Name {
    /// A piece moved sideways.
    Move,
    /// A piece rotated.
    Rotate,
    /// A piece locked.
    Lock,
    /// A piece went into hold.
    Hold,
    /// One line cleared.
    Clear1,
    /// Two lines cleared.
    Clear2,
    /// Three lines cleared.
    Clear3,
    /// Four lines cleared.
    Clear4,
    /// A T-spin clear.
    TSpin,
    /// A combo tone.
    Combo,
    /// A perfect clear.
    Perfect,
    /// Garbage rose on the board.
    Garbage,
    /// The board topped out.
    TopOut,
    /// A countdown tick.
    Countdown,
    /// The countdown's "go".
    Go,
}

impl Name {
    /// Every name, in the order a theme folder is read.
    pub const ALL: [Name; 15] = [
        Name::Move,
        Name::Rotate,
        Name::Lock,
        Name::Hold,
        Name::Clear1,
        Name::Clear2,
        Name::Clear3,
        Name::Clear4,
        Name::TSpin,
        Name::Combo,
        Name::Perfect,
        Name::Garbage,
        Name::TopOut,
        Name::Countdown,
        Name::Go,
    ];

    /// The file's name without `.wav`.
    pub fn stem(self) -> &'static str {
        match self {
            Name::Move => "move",
            Name::Rotate => "rotate",
            Name::Lock => "lock",
            Name::Hold => "hold",
            Name::Clear1 => "clear1",
            Name::Clear2 => "clear2",
            Name::Clear3 => "clear3",
            Name::Clear4 => "clear4",
            Name::TSpin => "tspin",
            Name::Combo => "combo",
            Name::Perfect => "perfect",
            Name::Garbage => "garbage",
            Name::TopOut => "topout",
            Name::Countdown => "countdown",
            Name::Go => "go",
        }
    }

    /// The volume group the sound plays in.
    pub fn group(self) -> Group {
        match self {
            Name::Move | Name::Rotate | Name::Lock | Name::Hold => Group::Movement,
            Name::Clear1
            | Name::Clear2
            | Name::Clear3
            | Name::Clear4
            | Name::TSpin
            | Name::Combo
            | Name::Perfect => Group::Clears,
            Name::Garbage | Name::TopOut | Name::Countdown | Name::Go => Group::Alerts,
        }
    }
}

/// Why a theme's file was refused; each names the file.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ThemeError {
    /// The folder itself cannot be read.
    #[error("{}: {detail}", path.display())]
    Folder {
        /// The folder.
        path: PathBuf,
        /// What the system said.
        detail: String,
    },
    /// The file cannot be read.
    #[error("{}: {detail}", path.display())]
    Unreadable {
        /// The file.
        path: PathBuf,
        /// What the system said.
        detail: String,
    },
    /// The file is over [`MAX_SOUND_BYTES`].
    #[error("{}: over the {MAX_SOUND_BYTES}-byte limit for a sound", path.display())]
    TooLarge {
        /// The file.
        path: PathBuf,
    },
    /// The file is not a sound the game plays.
    #[error("{}: not a sound: {why}", path.display())]
    NotSound {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        why: WavError,
    },
    /// The archive cannot be read as a ZIP file, or is beyond its limits.
    #[error("{}: {detail}", path.display())]
    Archive {
        /// The archive.
        path: PathBuf,
        /// What is wrong with it.
        detail: String,
    },
    /// The sound lasts over [`MAX_SECONDS`].
    #[error("{}: {seconds:.1} s long: a sound lasts at most {MAX_SECONDS} s", path.display())]
    TooLong {
        /// The file.
        path: PathBuf,
        /// How long it lasts.
        seconds: f64,
    },
}

/// What is wrong with bytes that should be a WAV file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WavError {
    /// No `RIFF`…`WAVE` header.
    #[error("no RIFF/WAVE header")]
    NotWav,
    /// The file ends inside a chunk header or before the `fmt ` and `data` chunks.
    #[error("truncated: {0}")]
    Truncated(&'static str),
    /// A `data` chunk claims more bytes than the file holds.
    #[error("the data chunk claims {claimed} bytes but the file holds {held}")]
    LyingLength {
        /// The length the chunk header claims.
        claimed: u64,
        /// The bytes after it.
        held: u64,
    },
    /// A format the game does not play: only PCM, 1 or 2 channels, 8 or 16 bits, 8 to 96 kHz.
    #[error("unsupported format: {0} (PCM, 1 or 2 channels, 8 or 16 bits, 8 to 96 kHz)")]
    Format(String),
}

/// What a WAV file's header says, once checked.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WavInfo {
    /// Samples a second.
    pub rate: u32,
    /// Channels (1 or 2).
    pub channels: u16,
    /// Bits a sample (8 or 16).
    pub bits: u16,
    /// How long it plays, in seconds.
    pub seconds: f64,
}

/// Checks that `bytes` are a PCM WAV file the mixer plays and that its chunks hold what they
/// claim; reads only headers, so it is bounded by the chunk count of a file already limited in
/// size.
pub fn check_wav(bytes: &[u8]) -> Result<WavInfo, WavError> {
    if bytes.len() < 12 || &bytes[0..4] != b"RIFF" || &bytes[8..12] != b"WAVE" {
        return Err(WavError::NotWav);
    }
    let mut at = 12;
    let mut format: Option<(u16, u16, u32, u16)> = None;
    while at < bytes.len() {
        let header = bytes
            .get(at..at + 8)
            .ok_or(WavError::Truncated("inside a chunk header"))?;
        let kind = &header[0..4];
        let len = u64::from(u32::from_le_bytes([
            header[4], header[5], header[6], header[7],
        ]));
        let body = at + 8;
        let held = (bytes.len() - body) as u64;
        if len > held {
            return Err(WavError::LyingLength { claimed: len, held });
        }
        // `len <= held`, which fits in memory, so it fits a usize.
        let end = body + len as usize;
        if kind == b"fmt " {
            let f = &bytes[body..end];
            if f.len() < 16 {
                return Err(WavError::Truncated("a fmt chunk under 16 bytes"));
            }
            let word = |i: usize| u16::from_le_bytes([f[i], f[i + 1]]);
            let rate = u32::from_le_bytes([f[4], f[5], f[6], f[7]]);
            format = Some((word(0), word(2), rate, word(14)));
        } else if kind == b"data" {
            let (tag, channels, rate, bits) =
                format.ok_or(WavError::Truncated("no fmt chunk before the data"))?;
            if tag != 1 {
                return Err(WavError::Format(format!("format tag {tag}, not PCM")));
            }
            if !(1..=2).contains(&channels) {
                return Err(WavError::Format(format!("{channels} channels")));
            }
            if bits != 8 && bits != 16 {
                return Err(WavError::Format(format!("{bits} bits a sample")));
            }
            if !(8_000..=96_000).contains(&rate) {
                return Err(WavError::Format(format!("{rate} Hz")));
            }
            let frame = u64::from(channels) * u64::from(bits / 8);
            let seconds = len as f64 / frame as f64 / f64::from(rate);
            return Ok(WavInfo {
                rate,
                channels,
                bits,
                seconds,
            });
        }
        // Chunks are padded to an even length.
        at = end + (len as usize & 1);
    }
    Err(WavError::Truncated("no data chunk"))
}

/// A loaded theme: the checked bytes of each sound the folder had, by name.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Theme {
    sounds: Vec<(Name, Vec<u8>)>,
}

impl Theme {
    /// The theme's file for `name`, or `None` (the built-in sound plays).
    pub fn sound(&self, name: Name) -> Option<&[u8]> {
        self.sounds
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, b)| b.as_slice())
    }

    /// How many sounds the theme replaces.
    pub fn len(&self) -> usize {
        self.sounds.len()
    }

    /// Takes `bytes`, already checked, as the theme's `name`.
    pub(super) fn insert(&mut self, name: Name, bytes: Vec<u8>) {
        self.sounds.retain(|(n, _)| *n != name);
        self.sounds.push((name, bytes));
    }

    /// Whether the theme replaces no sound.
    pub fn is_empty(&self) -> bool {
        self.sounds.is_empty()
    }

    /// Loads the theme in `folder`: each [`Name`]'s `NAME.wav` that exists and passes the
    /// checks; the refusals, each naming its file, come back beside it (a missing file is not
    /// one: that sound stays built in).
    pub fn load_dir(folder: &Path) -> (Theme, Vec<ThemeError>) {
        let mut theme = Theme::default();
        let mut errors = Vec::new();
        if let Err(e) = std::fs::read_dir(folder) {
            errors.push(ThemeError::Folder {
                path: folder.to_owned(),
                detail: e.to_string(),
            });
            return (theme, errors);
        }
        for name in Name::ALL {
            let path = folder.join(format!("{}.wav", name.stem()));
            if !path.exists() {
                continue;
            }
            match read_sound(&path) {
                Ok(bytes) => theme.sounds.push((name, bytes)),
                Err(e) => errors.push(e),
            }
        }
        (theme, errors)
    }
}

/// Reads and checks one sound file, reading at most one byte past [`MAX_SOUND_BYTES`].
fn read_sound(path: &Path) -> Result<Vec<u8>, ThemeError> {
    use std::io::Read;
    let unreadable = |e: std::io::Error| ThemeError::Unreadable {
        path: path.to_owned(),
        detail: e.to_string(),
    };
    let file = std::fs::File::open(path).map_err(unreadable)?;
    let mut bytes = Vec::new();
    file.take(MAX_SOUND_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(unreadable)?;
    checked(path, bytes)
}

/// `bytes` read from `path` (at most one byte past [`MAX_SOUND_BYTES`]), once they pass as a
/// sound of the theme.
pub(super) fn checked(path: &Path, bytes: Vec<u8>) -> Result<Vec<u8>, ThemeError> {
    if bytes.len() > MAX_SOUND_BYTES {
        return Err(ThemeError::TooLarge {
            path: path.to_owned(),
        });
    }
    let info = check_wav(&bytes).map_err(|why| ThemeError::NotSound {
        path: path.to_owned(),
        why,
    })?;
    if info.seconds > MAX_SECONDS {
        return Err(ThemeError::TooLong {
            path: path.to_owned(),
            seconds: info.seconds,
        });
    }
    Ok(bytes)
}

#[cfg(test)]
#[path = "theme_tests.rs"]
mod tests;
