//! Reading a file that someone else may have put there (a replay, a room log, a puzzle): a
//! regular file, opened once, read through a limit.
//!
//! [`read_limited`] refuses anything but a regular file before opening it (a symlink to
//! `/dev/zero`, a FIFO, a directory, a socket), opens it without blocking (so a FIFO swapped
//! in after that check cannot hang the caller either) and checks the open file again, refuses
//! a file whose size is over the limit without reading it, and reads at most `limit + 1`
//! bytes, so a file that grows between the check and the read is refused too, never read
//! whole.

use std::io::Read;
use std::path::Path;

/// Why [`read_limited`] refused or failed.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// Opening or reading failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// Not a regular file.
    #[error("not a regular file ({0})")]
    NotRegular(&'static str),
    /// Larger than the limit (`len`: the size seen, or `None` when it grew while being read).
    #[error("{}", too_large(*.limit, *.len))]
    TooLarge {
        /// The limit.
        limit: u64,
        /// The size the file had, when known.
        len: Option<u64>,
    },
}

fn too_large(limit: u64, len: Option<u64>) -> String {
    match len {
        Some(len) => format!("{len} bytes: over the {limit}-byte limit"),
        None => format!("grew past the {limit}-byte limit while being read"),
    }
}

/// The bytes of the regular file at `path` (symlinks followed), at most `limit` of them (see
/// the module docs). Blocking: an async caller runs it through `spawn_blocking`.
pub fn read_limited(path: &Path, limit: u64) -> Result<Vec<u8>, FileError> {
    // Refused without being opened at all: opening some devices has effects of its own.
    regular(&std::fs::metadata(path)?)?;
    let file = open_nonblocking(path)?;
    let meta = file.metadata()?;
    regular(&meta)?;
    if meta.len() > limit {
        return Err(FileError::TooLarge {
            limit,
            len: Some(meta.len()),
        });
    }
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(FileError::TooLarge { limit, len: None });
    }
    Ok(bytes)
}

/// `Ok` for a regular file; what it is otherwise.
fn regular(meta: &std::fs::Metadata) -> Result<(), FileError> {
    if meta.is_file() {
        return Ok(());
    }
    Err(FileError::NotRegular(kind(meta.file_type())))
}

#[cfg(unix)]
fn kind(t: std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if t.is_dir() {
        "a directory"
    } else if t.is_fifo() {
        "a FIFO"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_block_device() {
        "a block device"
    } else if t.is_socket() {
        "a socket"
    } else {
        "not a file"
    }
}

#[cfg(not(unix))]
fn kind(t: std::fs::FileType) -> &'static str {
    if t.is_dir() {
        "a directory"
    } else {
        "not a file"
    }
}

/// Opens for reading with `O_NONBLOCK` (opening a FIFO without a writer returns at once instead
/// of waiting for one; a regular file reads as usual) and `O_NOCTTY`.
#[cfg(unix)]
fn open_nonblocking(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)
}

#[cfg(not(unix))]
fn open_nonblocking(path: &Path) -> std::io::Result<std::fs::File> {
    std::fs::File::open(path)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    #[test]
    fn a_regular_file_within_the_limit_is_read_whole() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("f");
        std::fs::write(&path, b"0123456789").expect("write");
        assert_eq!(read_limited(&path, 10).expect("read"), b"0123456789");
        assert!(matches!(
            read_limited(&path, 9),
            Err(FileError::TooLarge {
                limit: 9,
                len: Some(10)
            })
        ));
    }

    #[test]
    fn a_symlink_to_dev_zero_is_refused_as_a_device() {
        let dir = tempfile::tempdir().expect("temp dir");
        let link = dir.path().join("zero");
        std::os::unix::fs::symlink("/dev/zero", &link).expect("symlink");
        let err = read_limited(&link, 1 << 20).expect_err("refused");
        assert_eq!(err.to_string(), "not a regular file (a character device)");
    }

    #[test]
    fn a_fifo_is_refused_at_once() {
        let dir = tempfile::tempdir().expect("temp dir");
        let fifo = dir.path().join("fifo");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("mkfifo");
        assert!(made.success());
        let start = Instant::now();
        let err = read_limited(&fifo, 1 << 20).expect_err("refused");
        assert!(start.elapsed() < Duration::from_secs(1));
        assert_eq!(err.to_string(), "not a regular file (a FIFO)");
    }

    #[test]
    fn a_large_sparse_file_is_refused_without_reading_it() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("big");
        let file = std::fs::File::create(&path).expect("create");
        file.set_len(1 << 30).expect("1 GiB, sparse");
        let start = Instant::now();
        let err = read_limited(&path, 64 << 20).expect_err("refused");
        assert!(start.elapsed() < Duration::from_secs(1));
        assert!(
            err.to_string()
                .contains("1073741824 bytes: over the 67108864-byte limit"),
            "{err}"
        );
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_file_larger_than_its_size_says_is_cut_at_the_limit() {
        // /proc files say 0 bytes and hold more: what a file growing after the check looks like.
        let err = read_limited(Path::new("/proc/self/status"), 10).expect_err("refused");
        assert!(
            matches!(
                err,
                FileError::TooLarge {
                    limit: 10,
                    len: None
                }
            ),
            "{err}"
        );
        assert_eq!(
            err.to_string(),
            "grew past the 10-byte limit while being read"
        );
    }

    #[test]
    fn a_directory_is_refused() {
        let dir = tempfile::tempdir().expect("temp dir");
        let err = read_limited(dir.path(), 10).expect_err("refused");
        assert_eq!(err.to_string(), "not a regular file (a directory)");
    }
}
