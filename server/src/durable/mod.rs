//! Durable rooms: each running match's inputs appended to a room log on disk, so that a server
//! killed mid-match (a crash, `kill -9`, a deploy whose drain timed out) takes its matches up
//! again when it starts with the same flags.
//!
//! - [`format`]: the file (framing, records, validation on read).
//! - [`RoomLogs`]: one writer thread for every room's log; rooms never wait on the disk. A room
//!   appends its records to its [`MatchLog`], whose buffer the writer takes and writes every
//!   interval given to [`RoomLogs::start`] for all rooms at once (the loss window, see `docs/SERVER.md`).
//! - [`load_all`]: reading the directory back at start-up (damaged logs are cut back to their
//!   last good record, unreadable ones set aside as `*.bad`, each with a clear log line).
//!
//! What is restored, and how the players get back in, is the room's business (`room/persist.rs`,
//! `Start::Restored`); the clients re-send whatever the restarted server lacks, because the
//! match log a resumed player receives says how far each seat is confirmed.

use sevenbag_protocol::room_log as format;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use sevenbag_core::Seat;
use sevenbag_protocol::InputChange;
use sevenbag_protocol::file::read_limited;
use tokio::task::JoinHandle;
use tracing::{error, info, warn};

use battle_format::BattleRecord;
pub(crate) use battle_format::{BattleLoaded, BattleOpen};
use format::{EXTENSION, MAX_LOG_BYTES};
pub(crate) use format::{Loaded, MatchOpen};
use sevenbag_protocol::battle_room_log as battle_format;
use sevenbag_protocol::room_log_file::{self, OpenedLog};

/// A room log read back: a two-seat match (format version 1) or one of several seats (2).
#[derive(Debug)]
pub(crate) enum AnyLoaded {
    /// Format version 1.
    Versus(Box<Loaded>),
    /// Format version 2.
    Battle(Box<BattleLoaded>),
}

/// Where room logs go by default: this folder of the replay directory.
pub const ROOM_LOG_SUBDIR: &str = "rooms";

/// Default interval between a room's writes: at most this much of a match's inputs is lost when
/// the process dies.
pub const DEFAULT_FLUSH_EVERY: Duration = Duration::from_millis(100);

/// A request to the writer task.
#[derive(Debug)]
enum Op {
    /// A new match: create (or replace) the room's log with these bytes and sync it, then
    /// append what `pending` gathers every interval.
    Begin {
        code: String,
        bytes: Vec<u8>,
        pending: Pending,
    },
    /// A restored match: append what `pending` gathers to the existing log.
    Resume { code: String, pending: Pending },
    /// The match is over and its replay written: delete the log.
    Remove { code: String },
}

/// The mark in the file name of a general room's log (`CODE.room.sbrl`) whose policy is not the
/// free-for-all one. Without it such a log (a leaver forfeits) reads as a two-seat versus
/// room's, whose clients speak the two-seat messages; with it the log goes back to the room of
/// the kind that wrote it.
pub(crate) const GENERAL_MARK: &str = "room";

/// The file stem of a room's log: its code, marked for a general room with a policy a versus
/// room's log could also carry.
pub(crate) fn log_stem(code: &str, general: bool, policy: sevenbag_protocol::RoomPolicy) -> String {
    if general && policy != sevenbag_protocol::RoomPolicy::FREE_FOR_ALL {
        format!("{code}.{GENERAL_MARK}")
    } else {
        code.to_owned()
    }
}

/// A running match's records not yet written, shared by its room (which appends) and the
/// writer (which takes them every interval).
type Pending = Arc<Mutex<Vec<u8>>>;

/// The room logs of one server: a directory and the task that writes it.
#[derive(Debug)]
pub(crate) struct RoomLogs {
    dir: PathBuf,
    ops: Mutex<Option<std::sync::mpsc::Sender<Op>>>,
    writer: Mutex<Option<JoinHandle<()>>>,
}

/// One running match's records not yet written.
///
/// The room appends each accepted batch under an uncontended lock; the writer takes the whole
/// buffer every interval ([`RoomLogs::start`]). So no room needs a timer of its own, and the writer
/// wakes once an interval for every room together instead of once per room.
#[derive(Debug)]
pub(crate) struct MatchLog {
    code: String,
    pending: Pending,
}

impl MatchLog {
    fn new(code: String) -> MatchLog {
        MatchLog {
            code,
            pending: Arc::new(Mutex::new(Vec::new())),
        }
    }

    fn append<E: std::fmt::Display>(&self, write: impl FnOnce(&mut Vec<u8>) -> Result<(), E>) {
        let mut pending = self.pending.lock().unwrap_or_else(|p| p.into_inner());
        if let Err(e) = write(&mut pending) {
            error!(room = %self.code, error = %e, "cannot encode a room log record");
        }
    }

    /// Records a batch of a two-seat match's `seat`'s inputs as the room accepted it.
    pub(crate) fn inputs(&mut self, seat: Seat, changes: &[InputChange], confirmed: u32) {
        self.battle_inputs(seat.index() as u8, changes, &[], confirmed);
    }

    /// Records a batch of battle seat `seat`'s keys and targets (a room of several seats).
    pub(crate) fn battle_inputs(
        &mut self,
        seat: u8,
        changes: &[InputChange],
        targets: &[sevenbag_protocol::TargetChange],
        confirmed: u32,
    ) {
        let record = BattleRecord::Inputs {
            seat,
            changes: changes.to_vec(),
            targets: targets.to_vec(),
            confirmed,
        };
        self.append(|pending| battle_format::append_battle(pending, &record));
    }
}

impl RoomLogs {
    /// Creates `dir` if needed and starts the writer (on a blocking thread: plain file
    /// writes, in the order rooms asked for them, and every live log's new records once an
    /// interval).
    pub(crate) fn start(dir: PathBuf, flush_every: Duration) -> std::io::Result<RoomLogs> {
        std::fs::create_dir_all(&dir)?;
        let (tx, rx) = std::sync::mpsc::channel();
        let writer_dir = dir.clone();
        let writer = tokio::task::spawn_blocking(move || write_loop(&writer_dir, rx, flush_every));
        Ok(RoomLogs {
            dir,
            ops: Mutex::new(Some(tx)),
            writer: Mutex::new(Some(writer)),
        })
    }

    /// The directory.
    pub(crate) fn dir(&self) -> &Path {
        &self.dir
    }

    fn send(&self, op: Op) {
        let ops = self.ops.lock().unwrap_or_else(|p| p.into_inner());
        match ops.as_ref() {
            Some(tx) if tx.send(op).is_ok() => {}
            _ => warn!("room log writer stopped; a room log write was dropped"),
        }
    }

    /// Starts the log of a new two-seat match: format version 2, like every match, with the
    /// versus policy (`BattleOpen::from_versus`).
    pub(crate) fn begin(&self, open: MatchOpen) -> MatchLog {
        self.begin_battle(BattleOpen::from_versus(&open), false)
    }

    /// Starts the log (format version 2) of a new match: its `Open` record, then, if any seat
    /// is an account's, the `Accounts` record naming them, then the room's policy unless it is
    /// the free-for-all one (`BattleRecord::opening`). `general`: written by a general room,
    /// whose file is named by [`log_stem`].
    pub(crate) fn begin_battle(&self, open: BattleOpen, general: bool) -> MatchLog {
        let log = MatchLog::new(log_stem(&open.code, general, open.policy));
        let mut bytes = battle_format::battle_head();
        for record in &BattleRecord::opening(open) {
            if let Err(e) = battle_format::append_battle(&mut bytes, record) {
                error!(room = %log.code, error = %e, "cannot encode a room log's opening records");
            }
        }
        self.send(Op::Begin {
            code: log.code.clone(),
            bytes,
            pending: log.pending.clone(),
        });
        log
    }

    /// Goes on appending to the log of a restored match, whose file stem is `stem`
    /// ([`log_stem`]).
    pub(crate) fn resume(&self, stem: &str) -> MatchLog {
        let log = MatchLog::new(stem.to_owned());
        self.send(Op::Resume {
            code: log.code.clone(),
            pending: log.pending.clone(),
        });
        log
    }

    /// The match is over (its replay written): its log goes.
    pub(crate) fn remove(&self, log: MatchLog) {
        self.send(Op::Remove { code: log.code });
    }

    /// Lets the writer finish every write asked for and every record gathered, then stops it.
    pub(crate) async fn close(&self) {
        self.ops.lock().unwrap_or_else(|p| p.into_inner()).take();
        let writer = self.writer.lock().unwrap_or_else(|p| p.into_inner()).take();
        if let Some(writer) = writer {
            let _ = writer.await;
        }
    }
}

fn path_of(dir: &Path, code: &str) -> PathBuf {
    dir.join(format!("{code}.{EXTENSION}"))
}

/// Most room log files the writer keeps open between writes; the logs beyond this are
/// opened for each write, so a server with thousands of rooms stays well under the usual
/// limit of file descriptors.
const MAX_OPEN_LOGS: usize = 256;

/// A log being written: its gathered records and, while few enough are, its open file.
struct Live {
    pending: Pending,
    file: Option<std::fs::File>,
}

/// The writer: requests in order as they come, and every `every` the new records of every
/// live log (one write each, for the logs that have any). When the last sender is gone it
/// writes what is left and stops.
fn write_loop(dir: &Path, ops: std::sync::mpsc::Receiver<Op>, every: Duration) {
    use std::sync::mpsc::RecvTimeoutError;
    // The logs being written, by room code. Rooms whose file could not be created are not
    // here: later appends would only fail again.
    let mut live: HashMap<String, Live> = HashMap::new();
    let mut next = std::time::Instant::now() + every;
    loop {
        let op = if live.is_empty() {
            ops.recv().map_err(|_| RecvTimeoutError::Disconnected)
        } else {
            ops.recv_timeout(next.saturating_duration_since(std::time::Instant::now()))
        };
        match op {
            Ok(op) => {
                if live.is_empty() {
                    next = std::time::Instant::now() + every;
                }
                apply(dir, op, &mut live);
                // A steady stream of requests does not hold the interval's writes back.
                if std::time::Instant::now() >= next {
                    write_pending(dir, &mut live);
                    next = std::time::Instant::now() + every;
                }
            }
            Err(RecvTimeoutError::Timeout) => {
                write_pending(dir, &mut live);
                next = std::time::Instant::now() + every;
            }
            Err(RecvTimeoutError::Disconnected) => {
                write_pending(dir, &mut live);
                return;
            }
        }
    }
}

/// The file of a log being taken up, kept open if fewer than [`MAX_OPEN_LOGS`] are.
fn keep_open(path: &Path, live: &HashMap<String, Live>) -> Option<std::fs::File> {
    let open = live.values().filter(|l| l.file.is_some()).count();
    if open >= MAX_OPEN_LOGS {
        return None;
    }
    std::fs::OpenOptions::new().append(true).open(path).ok()
}

/// One request: create, take up or delete a log.
fn apply(dir: &Path, op: Op, live: &mut HashMap<String, Live>) {
    use std::io::Write;
    match op {
        Op::Begin {
            code,
            bytes,
            pending,
        } => {
            // A log of the room's previous match (never here after `Remove`) is closed first.
            live.remove(&code);
            let path = path_of(dir, &code);
            let written = std::fs::File::create(&path).and_then(|mut f| {
                f.write_all(&bytes)?;
                f.sync_data()?;
                Ok(f)
            });
            match written {
                Ok(file) => {
                    let open = live.values().filter(|l| l.file.is_some()).count();
                    let file = (open < MAX_OPEN_LOGS).then_some(file);
                    live.insert(code, Live { pending, file });
                }
                Err(e) => {
                    error!(path = %path.display(), error = %e, "cannot create a room log; this match will not survive a restart");
                }
            }
        }
        Op::Resume { code, pending } => {
            live.remove(&code);
            let file = keep_open(&path_of(dir, &code), live);
            live.insert(code, Live { pending, file });
        }
        Op::Remove { code } => {
            live.remove(&code);
            let path = path_of(dir, &code);
            match std::fs::remove_file(&path) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => warn!(path = %path.display(), error = %e, "cannot delete a room log"),
            }
        }
    }
}

/// Appends every live log's gathered records to its file.
fn write_pending(dir: &Path, live: &mut HashMap<String, Live>) {
    use std::io::Write;
    let mut bytes = Vec::new();
    for (code, log) in live.iter_mut() {
        {
            let mut pending = log.pending.lock().unwrap_or_else(|p| p.into_inner());
            if pending.is_empty() {
                continue;
            }
            // Swapped out, so the room's lock is held for no file operation.
            std::mem::swap(&mut bytes, &mut pending);
        }
        let written = match &mut log.file {
            Some(file) => file.write_all(&bytes),
            None => std::fs::OpenOptions::new()
                .append(true)
                .open(path_of(dir, code))
                .and_then(|mut f| f.write_all(&bytes)),
        };
        if let Err(e) = written {
            error!(room = %code, error = %e, "cannot append to a room log");
        }
        bytes.clear();
    }
}

/// Reads every room log in `dir` (blocking: call it off the runtime). A log cut short or
/// damaged is cut back to its last good record; one that cannot be used at all is renamed
/// `*.bad` so it is not tried again. Each case is logged with the file and the reason.
pub(crate) fn load_all(dir: &Path) -> Vec<AnyLoaded> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) => {
            if e.kind() != std::io::ErrorKind::NotFound {
                warn!(dir = %dir.display(), error = %e, "cannot read the room log directory");
            }
            return Vec::new();
        }
    };
    let mut loaded = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        let Some(stem) = path
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_suffix(&format!(".{EXTENSION}")))
            .map(str::to_owned)
        else {
            continue;
        };
        match load_one(&path, &stem) {
            Ok(log) => loaded.push(log),
            Err(reason) => {
                let bad = path.with_extension(format!("{EXTENSION}.bad"));
                warn!(path = %path.display(), %reason, set_aside = %bad.display(), "room log refused; its match is not restored");
                if let Err(e) = std::fs::rename(&path, &bad) {
                    warn!(path = %path.display(), error = %e, "cannot set the refused room log aside");
                }
            }
        }
    }
    loaded
}

fn load_one(path: &Path, stem: &str) -> Result<AnyLoaded, String> {
    // A regular file of at most MAX_LOG_BYTES, opened once: a device, a FIFO or a file that
    // grows while read is refused, never read whole or waited on.
    let bytes = read_limited(path, MAX_LOG_BYTES).map_err(|e| e.to_string())?;
    // A general room's marked log goes back to a general room whatever its policy.
    let marked = stem.strip_suffix(&format!(".{GENERAL_MARK}"));
    let loaded = match marked {
        Some(_) => battle_format::read_battle(&bytes).map(|l| OpenedLog::Battle(Box::new(l))),
        None => room_log_file::open(&bytes),
    }
    .map_err(|e| e.to_string())?;
    let stem = marked.unwrap_or(stem);
    let (good_len, truncated) = loaded.good();
    cut_back(
        path,
        stem,
        loaded.code(),
        bytes.len() as u64,
        good_len,
        truncated,
    )?;
    Ok(match loaded {
        OpenedLog::Versus(loaded) => {
            info!(
                path = %path.display(),
                room = %loaded.open.code,
                confirmed = ?Seat::BOTH.map(|s| loaded.sim.log(s).confirmed()),
                "room log read"
            );
            AnyLoaded::Versus(loaded)
        }
        OpenedLog::Battle(loaded) => {
            info!(path = %path.display(), room = %loaded.open.code, frames = loaded.sim.confirmed(), "room log of several seats read");
            AnyLoaded::Battle(loaded)
        }
    })
}

/// Checks a log's room against its file name and cuts a damaged log back to its good records.
fn cut_back(
    path: &Path,
    stem: &str,
    code: &str,
    len: u64,
    good_len: u64,
    truncated: &Option<String>,
) -> Result<(), String> {
    if code != stem {
        return Err(format!("the log is named {stem} but holds room {code}"));
    }
    if let Some(reason) = truncated {
        warn!(
            path = %path.display(),
            %reason,
            kept_bytes = good_len,
            dropped_bytes = len - good_len,
            "room log damaged or cut short: truncated to its last good record"
        );
        std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .and_then(|f| f.set_len(good_len))
            .map_err(|e| format!("cannot truncate: {e}"))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open_record(code: &str) -> MatchOpen {
        let options = sevenbag_protocol::RoomOptions::default();
        MatchOpen {
            code: code.into(),
            options,
            ranked: false,
            header: sevenbag_core::MatchHeader {
                rules: options.rules(),
                seed: 1,
                handling: Default::default(),
            },
            names: ["a".into(), "b".into()],
            tokens: [1, 2],
            players: [None, None],
            started_unix: 0,
            frame0_unix_ms: 0,
            matches: 0,
        }
    }

    fn inputs_read_back(dir: &Path, code: &str) -> usize {
        let loaded = load_all(dir);
        let Some(AnyLoaded::Versus(log)) = loaded.iter().find(|l| match l {
            AnyLoaded::Versus(v) => v.open.code == code,
            AnyLoaded::Battle(_) => false,
        }) else {
            return 0;
        };
        log.sim.log(Seat::First).confirmed() as usize
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 1)]
    async fn the_writer_appends_each_live_logs_records_every_interval_and_at_close() {
        let tmp = tempfile::tempdir().expect("temp dir");
        let dir = tmp.path().join("rooms");
        let every = Duration::from_millis(20);
        let logs = RoomLogs::start(dir.clone(), every).expect("start");
        let mut log = logs.begin(open_record("ACDEF"));
        log.inputs(Seat::First, &[], 10);
        tokio::time::sleep(every * 10).await;
        assert_eq!(
            inputs_read_back(&dir, "ACDEF"),
            10,
            "written within an interval"
        );
        log.inputs(Seat::First, &[], 20);
        logs.close().await;
        assert_eq!(
            inputs_read_back(&dir, "ACDEF"),
            20,
            "the rest written at close"
        );
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 1)]
    async fn a_removed_log_is_deleted_and_its_room_code_can_start_again() {
        let tmp = tempfile::tempdir().expect("temp dir");
        let dir = tmp.path().join("rooms");
        let logs = RoomLogs::start(dir.clone(), Duration::from_millis(20)).expect("start");
        let mut first = logs.begin(open_record("ACDEF"));
        first.inputs(Seat::First, &[], 30);
        logs.remove(first);
        let mut second = logs.begin(open_record("ACDEF"));
        second.inputs(Seat::First, &[], 5);
        logs.close().await;
        assert_eq!(inputs_read_back(&dir, "ACDEF"), 5);
    }

    #[test]
    fn a_truncated_log_on_disk_is_cut_back_and_a_garbage_one_set_aside() {
        let tmp = tempfile::tempdir().expect("temp dir");
        let dir = tmp.path().to_path_buf();
        let options = sevenbag_protocol::RoomOptions::default();
        let open = MatchOpen {
            code: "ACDEF".into(),
            options,
            ranked: false,
            header: sevenbag_core::MatchHeader {
                rules: options.rules(),
                seed: 1,
                handling: Default::default(),
            },
            names: ["a".into(), "b".into()],
            tokens: [1, 2],
            players: [None, None],
            started_unix: 0,
            frame0_unix_ms: 0,
            matches: 0,
        };
        let mut bytes = format::head();
        format::append(&mut bytes, &format::Record::Open(open)).expect("encode");
        let good = bytes.len();
        format::append(
            &mut bytes,
            &format::Record::Inputs {
                seat: Seat::First,
                changes: Vec::new(),
                confirmed: 10,
            },
        )
        .expect("encode");
        std::fs::write(path_of(&dir, "ACDEF"), &bytes[..bytes.len() - 3]).expect("write");
        std::fs::write(path_of(&dir, "CDEFG"), b"SBRL\x01\x00garbage").expect("write");
        let loaded = load_all(&dir);
        assert_eq!(loaded.len(), 1);
        let AnyLoaded::Versus(first) = &loaded[0] else {
            panic!("a two-seat log");
        };
        assert_eq!(first.open.code, "ACDEF");
        let len = std::fs::metadata(path_of(&dir, "ACDEF"))
            .expect("kept")
            .len();
        assert_eq!(len, good as u64);
        assert!(dir.join("CDEFG.sbrl.bad").exists());
        assert!(!path_of(&dir, "CDEFG").exists());
    }
}
