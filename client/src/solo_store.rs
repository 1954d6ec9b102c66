//! Solo runs on disk: every finished Sprint and Blitz is kept as a solo replay, and the best of
//! each mode is also kept as `best-<mode>.sbso`, which is what the personal best *is* (its
//! result is re-checked by re-simulation when it is loaded, so a damaged file is never shown).
//!
//! Files live in `<data dir>/sevenbag/solo/` beside the versus replays:
//! `<mode>-<unix time>-<seed>.sbso` for every run and `best-<mode>.sbso` for the best.

use std::path::{Path, PathBuf};

use sevenbag_core::SoloMode;
use sevenbag_protocol::solo_replay::{SOLO_EXTENSION, beats};
use sevenbag_protocol::{SoloReplay, SoloReplayError, verify_solo};

/// Where solo replays go: `<data dir>/sevenbag/solo`.
pub fn solo_dir() -> Option<PathBuf> {
    dirs::data_dir().map(|d| d.join("sevenbag").join("solo"))
}

/// Why a solo file could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The file system refused.
    #[error("{path}: {source}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// The file is not a valid solo replay, or does not re-simulate to its result.
    #[error("{path}: {source}")]
    Replay {
        /// The file.
        path: PathBuf,
        /// What was wrong with it.
        source: SoloReplayError,
    },
}

/// What saving a run did.
#[derive(Debug, PartialEq, Eq)]
pub struct Saved {
    /// The run's file.
    pub path: PathBuf,
    /// The run is the new personal best.
    pub new_best: bool,
}

fn best_path(dir: &Path, mode: SoloMode) -> PathBuf {
    dir.join(format!("best-{}.{SOLO_EXTENSION}", mode.name()))
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), StoreError> {
    let io = |source| StoreError::Io {
        path: path.to_owned(),
        source,
    };
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(io)?;
    }
    // Written beside and renamed, so a crash never leaves half a personal best.
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, bytes).map_err(io)?;
    std::fs::rename(&tmp, path).map_err(io)
}

/// Reads, decodes and verifies a solo replay file.
pub fn load(path: &Path) -> Result<SoloReplay, StoreError> {
    let bytes = std::fs::read(path).map_err(|source| StoreError::Io {
        path: path.to_owned(),
        source,
    })?;
    let bad = |source| StoreError::Replay {
        path: path.to_owned(),
        source,
    };
    let replay = SoloReplay::decode(&bytes).map_err(bad)?;
    verify_solo(&replay).map_err(bad)?;
    Ok(replay)
}

/// The personal best of `mode` in `dir`: `Ok(None)` when there is none yet.
pub fn best(dir: &Path, mode: SoloMode) -> Result<Option<SoloReplay>, StoreError> {
    let path = best_path(dir, mode);
    if !path.exists() {
        return Ok(None);
    }
    load(&path).map(Some)
}

/// Saves a finished run into `dir`, and as the personal best when it beats the current one (or
/// the current one cannot be read). The current best is only decoded here, not re-simulated:
/// its checksum guards it, and it is verified whenever it is shown or watched.
pub fn save_run(dir: &Path, replay: &SoloReplay) -> Result<Saved, StoreError> {
    let bytes = replay.encode().map_err(|source| StoreError::Replay {
        path: dir.to_owned(),
        source,
    })?;
    let mode = replay.header.mode;
    let path = dir.join(format!(
        "{}-{}-{:016x}.{SOLO_EXTENSION}",
        mode.name(),
        replay.created_unix,
        replay.header.seed
    ));
    write(&path, &bytes)?;
    let new_best = replay.result.ranked()
        && match std::fs::read(best_path(dir, mode)).map(|b| SoloReplay::decode(&b)) {
            Ok(Ok(old)) => beats(&replay.result, &old.result),
            _ => true,
        };
    if new_best {
        write(&best_path(dir, mode), &bytes)?;
    }
    Ok(Saved { path, new_best })
}

#[cfg(test)]
mod tests {
    use super::*;
    use sevenbag_core::{Input, Solo, SoloEnd, SoloHeader};

    /// A topped-out Sprint whose recorded result is forged into a clear in `frames` (at most its
    /// ~200 recorded frames): saving only compares results, loading re-simulates and refuses it.
    fn run(frames: u32, unix: u64) -> SoloReplay {
        let mut solo = Solo::new(SoloHeader::new(SoloMode::Sprint, unix));
        let mut masks = Vec::new();
        while solo.result().is_none() {
            let keys = if masks.len() % 2 == 0 {
                Input::HARD_DROP
            } else {
                Input::NONE
            };
            solo.step(keys);
            masks.push(keys);
        }
        let mut replay = SoloReplay::record(&solo, "me", &masks, unix).expect("finished");
        replay.result.end = SoloEnd::Cleared;
        replay.result.frames = frames;
        replay
    }

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("sevenbag-solo-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn a_faster_run_replaces_the_best_and_a_slower_one_does_not() {
        let dir = temp_dir("best");
        let first = save_run(&dir, &run(100, 1)).expect("save");
        assert!(first.new_best, "the first ranked run is the best");
        assert!(!save_run(&dir, &run(120, 2)).expect("save").new_best);
        assert!(save_run(&dir, &run(80, 3)).expect("save").new_best);
        let bytes = std::fs::read(best_path(&dir, SoloMode::Sprint)).expect("best file");
        let best = SoloReplay::decode(&bytes).expect("decodes");
        assert_eq!(best.result.frames, 80);
        assert!(first.path.exists(), "every run is kept");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_damaged_best_is_an_error_and_a_missing_one_is_none() {
        let dir = temp_dir("damaged");
        assert!(matches!(best(&dir, SoloMode::Blitz), Ok(None)));
        // This run's result was forged, so loading it (which re-simulates) refuses it.
        save_run(&dir, &run(100, 1)).expect("save");
        let err = best(&dir, SoloMode::Sprint).expect_err("a forged best");
        assert!(err.to_string().contains("result differs"), "{err}");
        std::fs::write(best_path(&dir, SoloMode::Sprint), b"SBSO\x01junk").expect("write");
        let err = best(&dir, SoloMode::Sprint).expect_err("junk");
        assert!(err.to_string().contains("corrupted"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
