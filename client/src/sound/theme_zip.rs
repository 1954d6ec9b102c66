//! A sound theme packed in a ZIP archive: the same `NAME.wav` files as a theme folder, found
//! by file name wherever they sit in the archive (a top folder is common), each checked as a
//! folder's file is ([`super::theme::checked`]). Archives come from anyone, so reading is
//! bounded before anything is inflated: the archive at most [`MAX_ARCHIVE_BYTES`], at most
//! [`MAX_ENTRIES`] entries, and an entry whose declared size is over the limit for a sound is
//! refused unread; an entry that inflates past what it declared stops one byte past the
//! limit (a decompression bomb costs at most that).

use std::io::Read;
use std::path::Path;

use super::theme::{MAX_SOUND_BYTES, Name, Theme, ThemeError, checked};

/// The largest archive read, in bytes (every sound at its limit, and some room).
pub const MAX_ARCHIVE_BYTES: u64 = 16 * 1024 * 1024;

/// The most entries an archive may list.
pub const MAX_ENTRIES: usize = 256;

/// Loads the theme packed in the archive at `path`: each [`Name`]'s file that passes; the
/// refusals, each naming its file inside the archive, come back beside it.
pub fn load_zip(path: &Path) -> (Theme, Vec<ThemeError>) {
    let mut theme = Theme::default();
    let mut errors = Vec::new();
    let archive_error = |detail: String| ThemeError::Archive {
        path: path.to_owned(),
        detail,
    };
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) => return (theme, vec![archive_error(e.to_string())]),
    };
    match file.metadata() {
        Ok(m) if m.len() > MAX_ARCHIVE_BYTES => {
            let detail = format!("over the {MAX_ARCHIVE_BYTES}-byte limit for a theme archive");
            return (theme, vec![archive_error(detail)]);
        }
        Ok(_) => {}
        Err(e) => return (theme, vec![archive_error(e.to_string())]),
    }
    let mut archive = match zip::ZipArchive::new(std::io::BufReader::new(file)) {
        Ok(a) => a,
        Err(e) => {
            return (
                theme,
                vec![archive_error(format!("not a ZIP archive: {e}"))],
            );
        }
    };
    if archive.len() > MAX_ENTRIES {
        let detail = format!(
            "{} entries: a theme archive holds at most {MAX_ENTRIES}",
            archive.len()
        );
        return (theme, vec![archive_error(detail)]);
    }
    for i in 0..archive.len() {
        let mut entry = match archive.by_index(i) {
            Ok(e) => e,
            Err(e) => {
                errors.push(archive_error(format!("entry {i}: {e}")));
                continue;
            }
        };
        // A name that is not UTF-8 names no sound of ours.
        let Some(entry_name) = entry.name().ok().map(|n| n.into_owned()) else {
            continue;
        };
        let Some(name) = sound_name(&entry_name) else {
            continue;
        };
        let shown = path.join(&entry_name);
        if entry.size() > MAX_SOUND_BYTES as u64 {
            errors.push(ThemeError::TooLarge { path: shown });
            continue;
        }
        let mut bytes = Vec::new();
        let read = (&mut entry)
            .take(MAX_SOUND_BYTES as u64 + 1)
            .read_to_end(&mut bytes);
        if let Err(e) = read {
            errors.push(ThemeError::Unreadable {
                path: shown,
                detail: e.to_string(),
            });
            continue;
        }
        match checked(&shown, bytes) {
            Ok(bytes) => theme.insert(name, bytes),
            Err(e) => errors.push(e),
        }
    }
    (theme, errors)
}

/// The theme sound an entry named `entry` holds: its file name is `NAME.wav` (any case).
fn sound_name(entry: &str) -> Option<Name> {
    let file = entry.rsplit(['/', '\\']).next()?.to_lowercase();
    let stem = file.strip_suffix(".wav")?;
    Name::ALL.into_iter().find(|n| n.stem() == stem)
}

#[cfg(test)]
#[path = "theme_zip_tests.rs"]
mod tests;
