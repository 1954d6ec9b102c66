//! Solo runs on disk: every finished Sprint and Blitz is kept as a solo replay, and the best of
//! each mode is also kept as `best-<mode>.sbso`, which is what the personal best *is* (its
//! result is re-checked by re-simulation when it is loaded, so a damaged file is never shown).
//!
//! Files live in `<data dir>/sevenbag/solo/` beside the versus replays:
//! `<mode>-<unix time>-<seed>.sbso` for every run and `best-<mode>.sbso` for the best. A run
//! that was paused is saved as `<mode>-<unix time>-<seed>-paused.sbso` and never becomes the best.
//!
//! Past runs are kept per mode up to [`KEEP_RUNS`]; saving a run deletes the oldest beyond that
//! (the personal best is a separate file and always stays). [`past_runs`] lists them, newest
//! first, skipping (and reporting) any file that does not decode.

use std::path::{Path, PathBuf};

use sevenbag_core::SoloMode;
use sevenbag_protocol::solo_replay::{SOLO_EXTENSION, beats};
use sevenbag_protocol::{SoloReplay, SoloReplayError, verify_solo};

use crate::platform::files;

/// Where solo replays go: `<data dir>/sevenbag/solo`.
pub fn solo_dir() -> Option<PathBuf> {
    crate::platform::folders::data_dir().map(|d| d.join("sevenbag").join("solo"))
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

/// Finished runs kept per mode (oldest deleted first; the best is kept apart).
pub const KEEP_RUNS: usize = 50;

/// Files larger than this are not solo replays of ours (a 2-minute Blitz is a few KiB).
const MAX_FILE: u64 = 4 << 20;

/// The file name tag of a run that was paused.
const PAUSED_TAG: &str = "-paused";

/// One past run, as listed (decoded, checksum checked; re-simulated only when watched).
#[derive(Clone, Debug)]
pub struct PastRun {
    /// Its file.
    pub path: PathBuf,
    /// The run.
    pub replay: SoloReplay,
    /// The run was paused (so it was not eligible as a personal best).
    pub paused: bool,
}

/// Past runs of one mode, newest first, and one line per file skipped.
#[derive(Clone, Debug, Default)]
pub struct PastRuns {
    /// The runs that could be read.
    pub runs: Vec<PastRun>,
    /// "name: why" for every file that could not be read.
    pub skipped: Vec<String>,
}

/// The run files of `mode` in `dir` (not the best), unsorted.
fn run_files(dir: &Path, mode: SoloMode) -> Vec<PathBuf> {
    let Ok(entries) = files::files_in(dir) else {
        return Vec::new();
    };
    let prefix = format!("{}-", mode.name());
    entries
        .into_iter()
        .filter(|p| {
            p.extension().is_some_and(|e| e == SOLO_EXTENSION)
                && p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with(&prefix))
        })
        .collect()
}

/// The unix time in a run's file name (`<mode>-<unix>-<seed>[-paused].sbso`), 0 if none.
fn file_time(path: &Path) -> u64 {
    path.file_name()
        .and_then(|n| n.to_str())
        .and_then(|n| n.split('-').nth(1))
        .and_then(|t| t.parse().ok())
        .unwrap_or(0)
}

/// Lists the past runs of `mode` in `dir`, newest first. Never fails: an unreadable directory is
/// an empty list, and a file that is too big, unreadable or corrupt is skipped with a notice.
pub fn past_runs(dir: &Path, mode: SoloMode) -> PastRuns {
    let mut out = PastRuns::default();
    for path in run_files(dir, mode) {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let bytes = match files::len(&path) {
            Ok(len) if len > MAX_FILE => Err(format!("larger than {MAX_FILE} bytes")),
            Ok(_) => files::read(&path).map_err(|e| e.to_string()),
            Err(e) => Err(e.to_string()),
        };
        let replay = bytes.and_then(|b| SoloReplay::decode(&b).map_err(|e| e.to_string()));
        match replay {
            Ok(replay) if replay.header.mode == mode => {
                let paused = name.contains(PAUSED_TAG);
                out.runs.push(PastRun {
                    path,
                    replay,
                    paused,
                });
            }
            Ok(_) => out.skipped.push(format!("{name}: another mode's run")),
            Err(e) => out.skipped.push(format!("{name}: {e}")),
        }
    }
    out.runs
        .sort_by(|a, b| (b.replay.created_unix, &b.path).cmp(&(a.replay.created_unix, &a.path)));
    out
}

/// Deletes the oldest run files of `mode` beyond [`KEEP_RUNS`] (by the time in their names).
fn prune(dir: &Path, mode: SoloMode) {
    let mut files = run_files(dir, mode);
    if files.len() <= KEEP_RUNS {
        return;
    }
    files.sort_by_key(|p| std::cmp::Reverse((file_time(p), p.clone())));
    for old in &files[KEEP_RUNS..] {
        if let Err(e) = files::remove_file(old) {
            tracing::warn!("could not delete old solo run {}: {e}", old.display());
        }
    }
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
        files::create_dir_all(parent).map_err(io)?;
    }
    // Written beside and renamed, so a crash never leaves half a personal best.
    let tmp = path.with_extension("tmp");
    files::write(&tmp, bytes).map_err(io)?;
    files::rename(&tmp, path).map_err(io)
}

/// Reads, decodes and verifies a solo replay file.
pub fn load(path: &Path) -> Result<SoloReplay, StoreError> {
    let bytes = files::read(path).map_err(|source| StoreError::Io {
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
    if !files::exists(&path) {
        return Ok(None);
    }
    load(&path).map(Some)
}

/// Saves a finished run into `dir`, and as the personal best when it beats the current one (or
/// the current one cannot be read) and was not `paused`. The current best is only decoded here,
/// not re-simulated: its checksum guards it, and it is verified whenever it is shown or watched.
/// Runs beyond [`KEEP_RUNS`] of the mode are deleted, oldest first.
pub fn save_run(dir: &Path, replay: &SoloReplay, paused: bool) -> Result<Saved, StoreError> {
    let bytes = replay.encode().map_err(|source| StoreError::Replay {
        path: dir.to_owned(),
        source,
    })?;
    let mode = replay.header.mode;
    let path = dir.join(format!(
        "{}-{}-{:016x}{}.{SOLO_EXTENSION}",
        mode.name(),
        replay.created_unix,
        replay.header.seed,
        if paused { PAUSED_TAG } else { "" }
    ));
    write(&path, &bytes)?;
    prune(dir, mode);
    let new_best = !paused
        && replay.result.ranked()
        && match files::read(&best_path(dir, mode)).map(|b| SoloReplay::decode(&b)) {
            Ok(Ok(old)) => beats(&replay.result, &old.result),
            _ => true,
        };
    if new_best {
        write(&best_path(dir, mode), &bytes)?;
    }
    Ok(Saved { path, new_best })
}

/// A Sprint of hard drops every other frame, seeded `unix`, recorded as it topped out: the
/// runs the tests keep and forge.
#[cfg(test)]
pub(crate) fn topped_out_sprint(unix: u64) -> SoloReplay {
    use sevenbag_core::{Input, Solo, SoloHeader};
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
    SoloReplay::record(&solo, "me", &masks, unix).expect("finished")
}

#[cfg(test)]
mod tests {
    use super::*;
    use sevenbag_core::SoloEnd;

    /// A topped-out Sprint whose recorded result is forged into a clear in `frames` (at most its
    /// ~200 recorded frames): saving only compares results, loading re-simulates and refuses it.
    fn run(frames: u32, unix: u64) -> SoloReplay {
        let mut replay = topped_out_sprint(unix);
        replay.result.end = SoloEnd::Cleared;
        replay.result.frames = frames;
        replay
    }

    #[test]
    fn a_faster_run_replaces_the_best_and_a_slower_one_does_not() {
        let tmp = tempfile::tempdir().expect("temp dir");
        let dir = tmp.path().to_path_buf();
        let first = save_run(&dir, &run(100, 1), false).expect("save");
        assert!(first.new_best, "the first ranked run is the best");
        assert!(!save_run(&dir, &run(120, 2), false).expect("save").new_best);
        assert!(save_run(&dir, &run(80, 3), false).expect("save").new_best);
        let bytes = std::fs::read(best_path(&dir, SoloMode::Sprint)).expect("best file");
        let best = SoloReplay::decode(&bytes).expect("decodes");
        assert_eq!(best.result.frames, 80);
        assert!(first.path.exists(), "every run is kept");
    }

    #[test]
    fn a_paused_run_is_kept_but_never_the_best() {
        let tmp = tempfile::tempdir().expect("temp dir");
        let dir = tmp.path().to_path_buf();
        let saved = save_run(&dir, &run(50, 1), true).expect("save");
        assert!(!saved.new_best);
        assert!(matches!(best(&dir, SoloMode::Sprint), Ok(None)));
        let past = past_runs(&dir, SoloMode::Sprint);
        assert_eq!(past.runs.len(), 1);
        assert!(past.runs[0].paused);
    }

    #[test]
    fn past_runs_are_newest_first_and_skip_corrupt_files() {
        let tmp = tempfile::tempdir().expect("temp dir");
        let dir = tmp.path().to_path_buf();
        for t in [10, 30, 20] {
            save_run(&dir, &run(100 + t as u32, t), false).expect("save");
        }
        // A damaged run, an empty one, and a file of another mode under a sprint name.
        std::fs::write(dir.join("sprint-40-0000000000000001.sbso"), b"SBSO\x01junk").expect("w");
        std::fs::write(dir.join("sprint-50-0000000000000002.sbso"), b"").expect("w");
        std::fs::write(dir.join("notes.txt"), b"not a replay").expect("w");
        let past = past_runs(&dir, SoloMode::Sprint);
        let times: Vec<u64> = past.runs.iter().map(|r| r.replay.created_unix).collect();
        assert_eq!(times, [30, 20, 10]);
        assert_eq!(past.skipped.len(), 2, "{:?}", past.skipped);
        assert!(past.runs.iter().all(|r| !r.paused));
        assert!(past_runs(&dir, SoloMode::Blitz).runs.is_empty());
        assert!(
            past_runs(&dir.join("missing"), SoloMode::Sprint)
                .runs
                .is_empty()
        );
    }

    #[test]
    fn only_the_newest_runs_are_kept() {
        let tmp = tempfile::tempdir().expect("temp dir");
        let dir = tmp.path().to_path_buf();
        let template = run(100, 1);
        for t in 0..(KEEP_RUNS as u64 + 5) {
            let mut r = template.clone();
            r.created_unix = 1_000 + t;
            save_run(&dir, &r, false).expect("save");
        }
        let past = past_runs(&dir, SoloMode::Sprint);
        assert_eq!(past.runs.len(), KEEP_RUNS);
        assert_eq!(past.runs.last().map(|r| r.replay.created_unix), Some(1_005));
        assert!(best_path(&dir, SoloMode::Sprint).exists(), "the best stays");
    }

    #[test]
    fn a_damaged_best_is_an_error_and_a_missing_one_is_none() {
        let tmp = tempfile::tempdir().expect("temp dir");
        let dir = tmp.path().to_path_buf();
        assert!(matches!(best(&dir, SoloMode::Blitz), Ok(None)));
        // This run's result was forged, so loading it (which re-simulates) refuses it.
        save_run(&dir, &run(100, 1), false).expect("save");
        let err = best(&dir, SoloMode::Sprint).expect_err("a forged best");
        assert!(err.to_string().contains("result differs"), "{err}");
        std::fs::write(best_path(&dir, SoloMode::Sprint), b"SBSO\x01junk").expect("write");
        let err = best(&dir, SoloMode::Sprint).expect_err("junk");
        assert!(err.to_string().contains("corrupted"), "{err}");
    }
}
