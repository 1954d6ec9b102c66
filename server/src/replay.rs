//! The replay directory: atomic writes, the in-memory index behind `ListReplays`, retention, and
//! reads for `GetReplay`.
//!
//! The index is built once at start, on a blocking thread (`ReplayStore::open` is called through
//! `spawn_blocking`), oldest first. A save is O(1) under the lock: a hash-set lookup for the id
//! and a push at the back; when more than `keep` replays are indexed, the oldest are removed
//! (from the index under the lock, from the disk after it, on a blocking thread).
//!
//! Files are `<id>.sbrp` in the format of `sevenbag_protocol::battle_replay` (version 2, every
//! match of 2 to 8 seats; `docs/REPLAY.md`); files of version 1 (two seats) written before it
//! are read and listed too. A
//! replay is written to a hidden temporary file in the same directory, synced, and renamed into
//! place, so a reader (or a crash) never sees half a file.

use std::collections::{HashSet, VecDeque};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use sevenbag_protocol::file::{FileError, read_limited};
use sevenbag_protocol::replay::{MAX_REPLAY_BYTES, REPLAY_EXTENSION};
use sevenbag_protocol::{AnyReplay, BattleReplay, MAX_MESSAGE_BYTES, ReplayListing, read_any};
use tracing::{error, warn};

/// Longest replay id accepted in `GetReplay`.
const MAX_ID_LEN: usize = 100;
/// Room for the rest of a `Replay` message around the file's bytes.
const MESSAGE_OVERHEAD: usize = 1024;

/// One listed replay.
#[derive(Clone, Debug)]
struct Entry {
    id: String,
    summary: String,
    created_unix: u64,
    /// What `ListReplayInfo` shows of it.
    listing: ReplayListing,
}

impl Entry {
    fn new(id: String, replay: &AnyReplay) -> Entry {
        Entry {
            listing: replay.listing(&id, is_ranked_id(&id)),
            summary: replay.summary(),
            created_unix: replay.created_unix(),
            id,
        }
    }
}

/// Whether a replay id is a ranked match's: rooms name those `…-ranked` (a clash adds `_N`).
fn is_ranked_id(id: &str) -> bool {
    id.split('_')
        .next()
        .is_some_and(|base| base.ends_with("-ranked"))
}

/// The listed replays, oldest first, and their ids for O(1) lookups.
#[derive(Debug, Default)]
struct Index {
    entries: VecDeque<Entry>,
    ids: HashSet<String>,
}

impl Index {
    fn push(&mut self, entry: Entry) {
        self.ids.insert(entry.id.clone());
        self.entries.push_back(entry);
    }

    /// Takes the oldest entries out until at most `keep` remain (0 keeps all); returns them.
    fn trim(&mut self, keep: usize) -> Vec<Entry> {
        let mut gone = Vec::new();
        while keep > 0 && self.entries.len() > keep {
            let Some(e) = self.entries.pop_front() else {
                break;
            };
            self.ids.remove(&e.id);
            gone.push(e);
        }
        gone
    }

    fn remove(&mut self, id: &str) {
        if self.ids.remove(id) {
            self.entries.retain(|e| e.id != id);
        }
    }
}

/// The replay directory and its index.
#[derive(Debug)]
pub(crate) struct ReplayStore {
    dir: PathBuf,
    /// Most replays kept; older ones are deleted as new ones are saved (0 keeps all).
    keep: usize,
    /// Loaded at startup, appended as matches finish.
    index: Mutex<Index>,
}

/// Why `GetReplay` failed, for the client.
#[derive(Debug, thiserror::Error)]
pub(crate) enum GetError {
    /// No such replay (or a malformed id).
    #[error("no replay {0:?}")]
    NotFound(String),
    /// The file is too large to send in one message.
    #[error("replay {0:?} is too large to send")]
    TooLarge(String),
    /// It exists but could not be read.
    #[error("replay {0:?} could not be read")]
    Unreadable(String),
}

/// Ids are what the server makes them: letters, digits, `-` and `_`. Anything else (a path
/// separator, `..`) is refused before it gets near the file system.
pub(crate) fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= MAX_ID_LEN
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

impl ReplayStore {
    /// Opens (creating if needed) `dir` and indexes the replays already in it, keeping the newest
    /// `keep` (0: all). Files that do not decode, are not regular files or are over
    /// [`MAX_REPLAY_BYTES`] are skipped with a warning giving the reason, without being read
    /// (`read_limited`). Blocking: reads every file, so the server calls it through
    /// `spawn_blocking`.
    pub(crate) fn open(dir: &Path, keep: usize) -> std::io::Result<ReplayStore> {
        std::fs::create_dir_all(dir)?;
        let mut index = Vec::new();
        for entry in std::fs::read_dir(dir)? {
            let Ok(entry) = entry else { continue };
            let path = entry.path();
            let Some(id) = path
                .file_name()
                .and_then(|n| n.to_str())
                .and_then(|n| n.strip_suffix(&format!(".{REPLAY_EXTENSION}")))
                .filter(|id| valid_id(id))
            else {
                continue;
            };
            let replay = read_limited(&path, MAX_REPLAY_BYTES as u64)
                .map_err(|e| e.to_string())
                .and_then(|bytes| read_any(&bytes).map_err(|e| e.to_string()));
            match replay {
                Ok(replay) => index.push(Entry::new(id.to_string(), &replay)),
                Err(e) => warn!(path = %path.display(), error = %e, "skipping unreadable replay"),
            }
        }
        index.sort_by(|a, b| (a.created_unix, &a.id).cmp(&(b.created_unix, &b.id)));
        let mut sorted = Index::default();
        for e in index {
            sorted.push(e);
        }
        let store = ReplayStore {
            dir: dir.to_path_buf(),
            keep,
            index: Mutex::new(sorted),
        };
        let gone = store.lock().trim(keep);
        store.delete_files(&gone);
        Ok(store)
    }

    fn delete_files(&self, gone: &[Entry]) {
        for e in gone {
            let path = self.path_of(&e.id);
            if let Err(err) = std::fs::remove_file(&path) {
                warn!(path = %path.display(), error = %err, "cannot delete old replay");
            }
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Index> {
        self.index.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Writes the two-seat `replay` under an id derived from `base`, in the one format every
    /// match is written in (version 2, converted losslessly); returns the id, or `None`
    /// (logged) if the write failed.
    pub(crate) async fn save(
        &self,
        base: &str,
        replay: &sevenbag_protocol::Replay,
    ) -> Option<String> {
        let battle = BattleReplay::from_versus(replay);
        self.save_any(base, &AnyReplay::Battle(Box::new(battle)))
            .await
    }

    /// [`ReplayStore::save`] for a replay of either format version.
    pub(crate) async fn save_any(&self, base: &str, replay: &AnyReplay) -> Option<String> {
        let bytes = match replay.encode() {
            Ok(bytes) => bytes,
            Err(e) => {
                error!(error = %e, "cannot encode replay");
                return None;
            }
        };
        let base: String = base
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
            .take(MAX_ID_LEN - 8)
            .collect();
        // Reserve the id in the index first, so two rooms finishing at once cannot pick the
        // same one; a failed write takes it out again.
        let (id, gone) = {
            let mut index = self.lock();
            let taken = |id: &str| index.ids.contains(id) || self.path_of(id).exists();
            let mut id = base.clone();
            let mut n = 2;
            while taken(&id) {
                id = format!("{base}_{n}");
                n += 1;
            }
            index.push(Entry::new(id.clone(), replay));
            (id, index.trim(self.keep))
        };
        let path = self.path_of(&id);
        let tmp = self.dir.join(format!(".{id}.{REPLAY_EXTENSION}.tmp"));
        let old: Vec<PathBuf> = gone.iter().map(|e| self.path_of(&e.id)).collect();
        let written = tokio::task::spawn_blocking(move || {
            for path in old {
                if let Err(err) = std::fs::remove_file(&path) {
                    warn!(path = %path.display(), error = %err, "cannot delete old replay");
                }
            }
            write_atomically(&tmp, &path, &bytes)
        })
        .await
        .map_err(|e| std::io::Error::other(e.to_string()))
        .and_then(|r| r);
        match written {
            Ok(()) => Some(id),
            Err(e) => {
                error!(id, dir = %self.dir.display(), error = %e, "cannot write replay");
                self.lock().remove(&id);
                None
            }
        }
    }

    fn path_of(&self, id: &str) -> PathBuf {
        self.dir.join(format!("{id}.{REPLAY_EXTENSION}"))
    }

    /// Up to `max` replays, newest first, as (id, summary).
    pub(crate) fn list(&self, max: usize) -> Vec<(String, String)> {
        self.lock()
            .entries
            .iter()
            .rev()
            .take(max)
            .map(|e| (e.id.clone(), e.summary.clone()))
            .collect()
    }

    /// Up to `max` replays, newest first, with their dates, lengths, scores and rankedness.
    pub(crate) fn list_info(&self, max: usize) -> Vec<ReplayListing> {
        self.lock()
            .entries
            .iter()
            .rev()
            .take(max)
            .map(|e| e.listing.clone())
            .collect()
    }

    /// The bytes of replay `id`.
    pub(crate) async fn get(&self, id: &str) -> Result<Vec<u8>, GetError> {
        if !valid_id(id) {
            return Err(GetError::NotFound(id.chars().take(MAX_ID_LEN).collect()));
        }
        let path = self.path_of(id);
        let limit = (MAX_MESSAGE_BYTES - MESSAGE_OVERHEAD) as u64;
        let read = tokio::task::spawn_blocking(move || read_limited(&path, limit))
            .await
            .map_err(|e| FileError::Io(std::io::Error::other(e.to_string())))
            .and_then(|r| r);
        match read {
            Ok(bytes) => Ok(bytes),
            Err(FileError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => {
                Err(GetError::NotFound(id.to_string()))
            }
            Err(FileError::TooLarge { .. }) => Err(GetError::TooLarge(id.to_string())),
            Err(e) => {
                warn!(id, error = %e, "cannot read replay");
                Err(GetError::Unreadable(id.to_string()))
            }
        }
    }
}

fn write_atomically(tmp: &Path, path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let result = (|| {
        let mut file = std::fs::File::create(tmp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        std::fs::rename(tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(tmp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use sevenbag_core::MatchHeader;
    use sevenbag_protocol::{ConfirmedSim, EndReason, Replay};

    fn replay(created_unix: u64) -> Replay {
        let sim = ConfirmedSim::new(MatchHeader::versus(created_unix));
        Replay::record(
            &sim,
            ["a".into(), "b".into()],
            None,
            EndReason::Shutdown,
            created_unix,
        )
    }

    fn files(dir: &Path) -> usize {
        std::fs::read_dir(dir).map_or(0, |d| d.count())
    }

    #[tokio::test]
    async fn the_detailed_list_tells_matches_of_the_same_players_apart() {
        let tmp = tempfile::tempdir().expect("temp dir");
        let store = ReplayStore::open(tmp.path(), 0).unwrap();
        store
            .save("100-ACDEF-1", &replay(100))
            .await
            .expect("saved");
        store
            .save("200-ACDEF-2-ranked", &replay(200))
            .await
            .expect("saved");
        store
            .save("200-ACDEF-2-ranked", &replay(300))
            .await
            .expect("saved");
        let list = store.list_info(10);
        let seen: Vec<(&str, u64, bool)> = list
            .iter()
            .map(|l| (l.id.as_str(), l.created_unix, l.ranked))
            .collect();
        assert_eq!(
            seen,
            [
                ("200-ACDEF-2-ranked_2", 300, true),
                ("200-ACDEF-2-ranked", 200, true),
                ("100-ACDEF-1", 100, false)
            ]
        );
        // The same after a restart, from the files.
        let again = ReplayStore::open(tmp.path(), 0).unwrap();
        assert_eq!(again.list_info(10), list);
    }

    #[tokio::test]
    async fn saving_past_the_kept_count_deletes_the_oldest() {
        let tmp = tempfile::tempdir().expect("temp dir");
        let dir = tmp.path();
        let store = ReplayStore::open(dir, 3).unwrap();
        for t in 1..=5 {
            assert!(store.save(&format!("r{t}"), &replay(t)).await.is_some());
        }
        let ids: Vec<String> = store.list(10).into_iter().map(|(id, _)| id).collect();
        assert_eq!(ids, ["r5", "r4", "r3"]);
        assert_eq!(files(dir), 3);
        assert!(matches!(store.get("r1").await, Err(GetError::NotFound(_))));
    }

    #[tokio::test]
    async fn the_same_base_name_gets_distinct_ids() {
        let tmp = tempfile::tempdir().expect("temp dir");
        let dir = tmp.path();
        let store = ReplayStore::open(dir, 0).unwrap();
        let a = store.save("x", &replay(1)).await.unwrap();
        let b = store.save("x", &replay(2)).await.unwrap();
        assert_eq!((a.as_str(), b.as_str()), ("x", "x_2"));
    }

    #[tokio::test]
    async fn reopening_indexes_the_newest_and_trims_to_the_kept_count() {
        let tmp = tempfile::tempdir().expect("temp dir");
        let dir = tmp.path();
        let store = ReplayStore::open(dir, 0).unwrap();
        for t in 1..=4 {
            store.save(&format!("r{t}"), &replay(t)).await.unwrap();
        }
        let store = ReplayStore::open(dir, 2).unwrap();
        let ids: Vec<String> = store.list(10).into_iter().map(|(id, _)| id).collect();
        assert_eq!(ids, ["r4", "r3"]);
        assert_eq!(files(dir), 2);
    }

    #[test]
    fn ids_cannot_escape_the_directory() {
        assert!(valid_id("1700000000-ACDEF-1"));
        assert!(!valid_id("../etc/passwd"));
        assert!(!valid_id("a/b"));
        assert!(!valid_id(""));
        assert!(!valid_id(&"x".repeat(MAX_ID_LEN + 1)));
    }
}
