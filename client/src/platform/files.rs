//! The game's files — the player key, replays, solo runs and bests, challenge records — read and
//! written through one place, so that the browser build keeps them too: natively these are
//! `std::fs`; in a page they are the page's files (`web_files`: IndexedDB, mirrored in memory
//! by `client/web/sevenbag-storage.js`), under the same paths below
//! [`crate::platform::folders`]'s page folders, in the same formats and with the same limits.
//! What the game reads back is validated as any file is (a damaged entry is named, never
//! trusted).

use std::io;
use std::path::{Path, PathBuf};

#[cfg(target_arch = "wasm32")]
use crate::platform::web_files as page;

/// The whole file at `path`.
pub fn read(path: &Path) -> io::Result<Vec<u8>> {
    #[cfg(not(target_arch = "wasm32"))]
    return std::fs::read(path);
    #[cfg(target_arch = "wasm32")]
    page::read(&key(path)).ok_or_else(|| not_found(path))
}

/// The whole file at `path` as UTF-8 text.
pub fn read_to_string(path: &Path) -> io::Result<String> {
    String::from_utf8(read(path)?)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "the file is not UTF-8 text"))
}

/// The file's size in bytes.
pub fn len(path: &Path) -> io::Result<u64> {
    #[cfg(not(target_arch = "wasm32"))]
    return std::fs::metadata(path).map(|m| m.len());
    #[cfg(target_arch = "wasm32")]
    page::len(&key(path))
        .map(|n| n as u64)
        .ok_or_else(|| not_found(path))
}

/// Whether `path` names an existing file.
pub fn exists(path: &Path) -> bool {
    #[cfg(not(target_arch = "wasm32"))]
    return path.exists();
    #[cfg(target_arch = "wasm32")]
    page::len(&key(path)).is_some()
}

/// Writes `bytes` as the whole file at `path` (its folder must exist natively).
pub fn write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    #[cfg(not(target_arch = "wasm32"))]
    return std::fs::write(path, bytes);
    #[cfg(target_arch = "wasm32")]
    if page::write(&key(path), bytes) {
        Ok(())
    } else {
        Err(io::Error::other(
            "the page's storage refused it (full, or over its limits)",
        ))
    }
}

/// Creates `dir` and its parents (nothing to do in a page: its folders are only names).
pub fn create_dir_all(dir: &Path) -> io::Result<()> {
    #[cfg(not(target_arch = "wasm32"))]
    return std::fs::create_dir_all(dir);
    #[cfg(target_arch = "wasm32")]
    {
        let _ = dir;
        Ok(())
    }
}

/// Renames `from` to `to`, replacing `to`.
pub fn rename(from: &Path, to: &Path) -> io::Result<()> {
    #[cfg(not(target_arch = "wasm32"))]
    return std::fs::rename(from, to);
    #[cfg(target_arch = "wasm32")]
    if page::rename(&key(from), &key(to)) {
        Ok(())
    } else {
        Err(not_found(from))
    }
}

/// Deletes the file at `path`.
pub fn remove_file(path: &Path) -> io::Result<()> {
    #[cfg(not(target_arch = "wasm32"))]
    return std::fs::remove_file(path);
    #[cfg(target_arch = "wasm32")]
    if page::remove(&key(path)) {
        Ok(())
    } else {
        Err(not_found(path))
    }
}

/// The files directly in `dir` (not in its subfolders), in no particular order; an error when
/// natively the folder cannot be read (an empty list in a page, where folders always exist).
pub fn files_in(dir: &Path) -> io::Result<Vec<PathBuf>> {
    #[cfg(not(target_arch = "wasm32"))]
    return Ok(std::fs::read_dir(dir)?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .collect());
    #[cfg(target_arch = "wasm32")]
    {
        let prefix = format!("{}/", key(dir).trim_end_matches('/'));
        Ok(page::list(&prefix)
            .into_iter()
            .filter(|k| !k[prefix.len()..].contains('/'))
            .map(PathBuf::from)
            .collect())
    }
}

/// Writes a secret file readable by its owner only (mode 0600 on Unix), creating its folder,
/// through a temporary file renamed over the old one (a crash leaves the old file or the new
/// one, never half of one).
pub fn write_private(path: &Path, bytes: &[u8]) -> io::Result<()> {
    if let Some(dir) = path.parent() {
        create_dir_all(dir)?;
    }
    let tmp = path.with_extension("tmp");
    #[cfg(not(target_arch = "wasm32"))]
    {
        use std::io::Write as _;
        // A left-over temporary file would keep its old mode: start afresh.
        let _ = std::fs::remove_file(&tmp);
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create(true).truncate(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(0o600);
        }
        let mut file = options.open(&tmp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
    }
    #[cfg(target_arch = "wasm32")]
    write(&tmp, bytes)?;
    rename(&tmp, path)
}

/// The page's key of `path` (the path as text).
#[cfg(target_arch = "wasm32")]
fn key(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

#[cfg(target_arch = "wasm32")]
fn not_found(path: &Path) -> io::Error {
    io::Error::new(
        io::ErrorKind::NotFound,
        format!("no such file: {}", path.display()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_private_file_replaces_the_old_one_and_lists_in_its_folder() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("keys").join("player.key");
        write_private(&path, b"one").expect("first");
        write_private(&path, b"two").expect("second");
        assert_eq!(read_to_string(&path).expect("read"), "two");
        assert_eq!(len(&path).expect("len"), 3);
        assert!(exists(&path));
        let listed = files_in(&dir.path().join("keys")).expect("list");
        assert_eq!(listed, vec![path.clone()], "no temporary file is left");
        remove_file(&path).expect("remove");
        assert!(!exists(&path));
        assert_eq!(
            read(&path).expect_err("gone").kind(),
            io::ErrorKind::NotFound
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_private_file_is_for_its_owner_only() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("secret");
        write_private(&path, b"x").expect("write");
        let mode = std::fs::metadata(&path).expect("meta").permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
}
