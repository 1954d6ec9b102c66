//! The room log file: what a running match's log holds on disk, and reading it back. The
//! server writes one per running match (`server/src/durable`, format version 2 for every
//! match: [`crate::battle_room_log`]) and restores the match from it after a crash or a
//! restart. This module holds the framing both versions share and format version 1, the
//! two-seat log older servers wrote, still read ([`crate::room_log_file::open`] reads either).
//!
//! # Layout (room log format version 1, documented in `docs/SERVER.md`)
//!
//! | offset | size | what |
//! | --- | --- | --- |
//! | 0 | 4 | magic `b"SBRL"` |
//! | 4 | 2 | format version, u16 little-endian ([`FORMAT_VERSION`]) |
//! | 6 | … | records, one after another |
//!
//! Each record is `length: u32 LE | body | checksum: u64 LE`, where `body` is a [`Record`]
//! encoded with bincode 2 (serde, standard config: the replay file's encoding) and `checksum` is
//! the replay file's FNV-1a 64 ([`crate::replay::checksum`]) of the length and the
//! body. The first record is always [`Record::Open`]; every later one is [`Record::Inputs`], a
//! batch exactly as the server accepted it from a player.
//!
//! Records are appended, never rewritten, so a crash can only cut the last one short. Reading
//! stops at the first record that is cut short, fails its checksum, does not decode, or is
//! refused by the same checks live inputs pass ([`InputLog::extend`](crate::InputLog)),
//! and keeps everything before it; a file whose `Open` record is bad is refused whole.

use crate::envelope::{Limited, limited};
use crate::replay::checksum;
use crate::{
    ConfirmedSim, InputChange, MAX_CHANGES_PER_MESSAGE, MAX_NAME_CHARS, ROOM_CODE_ALPHABET,
    ROOM_CODE_LEN, RoomOptions,
};
use serde::{Deserialize, Serialize};
use sevenbag_core::{MatchHeader, Seat};

/// The first four bytes of every room log.
pub const MAGIC: [u8; 4] = *b"SBRL";
/// The room log format version this build writes and reads.
pub const FORMAT_VERSION: u16 = 1;
/// File name extension of room logs (without the dot).
pub const EXTENSION: &str = "sbrl";
/// The largest room log read (64 MiB, the replay file's limit): a six-hour match of one
/// change every frame for both seats stays well below it.
pub const MAX_LOG_BYTES: u64 = 64 * 1024 * 1024;
/// The largest record body: a batch of [`MAX_CHANGES_PER_MESSAGE`] changes is a few KB.
pub const MAX_RECORD_BYTES: usize = 64 * 1024;

pub(crate) const HEAD_BYTES: usize = 6;
const LEN_BYTES: usize = 4;
const CHECKSUM_BYTES: usize = 8;

type BodyConfig = Limited<MAX_RECORD_BYTES>;

const fn body_config() -> BodyConfig {
    limited::<MAX_RECORD_BYTES>()
}

/// What a match needs to be taken up again by a restarted server: the room, the match header,
/// who sits where and the tokens that take the seats back.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchOpen {
    /// The room's code (kept, so players and spectators find the room again).
    pub code: String,
    /// The room's options.
    pub options: RoomOptions,
    /// Whether the match is rated.
    pub ranked: bool,
    /// Rules, seed and handlings.
    pub header: MatchHeader,
    /// The players' names.
    pub names: [String; 2],
    /// The seats' resume tokens.
    pub tokens: [u64; 2],
    /// The seated players' identities (database ids), for ranked play and history.
    pub players: [Option<i64>; 2],
    /// When the match started, seconds since the Unix epoch (names the replay).
    pub started_unix: u64,
    /// Frame 0 of the match clock, milliseconds since the Unix epoch.
    pub frame0_unix_ms: u64,
    /// Matches the room finished before this one (numbers the replay).
    pub matches: u32,
}

/// One record of a room log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Record {
    /// The match began (always the first record).
    Open(MatchOpen),
    /// A batch of a seat's inputs, as accepted.
    Inputs {
        /// Whose.
        seat: Seat,
        /// The changes.
        changes: Vec<InputChange>,
        /// The seat's new confirmation.
        confirmed: u32,
    },
}

/// Why a room log was refused whole.
#[derive(Debug, thiserror::Error)]
pub enum LogError {
    /// Not a room log, or another version.
    #[error("not a room log of format version {FORMAT_VERSION} (bad magic or version)")]
    BadHead,
    /// Larger than [`MAX_LOG_BYTES`].
    #[error("{0} bytes: larger than the {MAX_LOG_BYTES}-byte limit")]
    TooLarge(u64),
    /// The first record is missing or bad.
    #[error("the opening record is unreadable: {0}")]
    BadOpen(String),
}

/// A room log read back, of either format version: the opening record `O` and the match `S`
/// its batches stepped.
#[derive(Debug)]
pub struct LoadedLog<O, S> {
    /// The opening record.
    pub open: O,
    /// The match, stepped through every input kept.
    pub sim: S,
    /// Bytes of the file that are good records (the file is cut back to this).
    pub good_len: u64,
    /// Why reading stopped before the end of the file, if it did.
    pub truncated: Option<String>,
}

/// A room log of format version 1 read back.
pub type Loaded = LoadedLog<MatchOpen, ConfirmedSim>;

/// One room log format version: its records, its opening record and the match its batches
/// feed. [`read_log`] reads every version through it, so both keep the same framing, limits
/// and rule for what is kept.
pub(crate) trait LogFormat {
    /// The version number after the magic.
    const VERSION: u16;
    /// One record.
    type Record: serde::de::DeserializeOwned;
    /// The opening record.
    type Open;
    /// The match the batches step.
    type Sim;
    /// The opening record held by `record`, or `None` if it is another kind.
    fn opening(record: Self::Record) -> Option<Self::Open>;
    /// The checks an opening record must pass.
    fn check_open(open: &Self::Open) -> Result<(), String>;
    /// The match at frame 0.
    fn start(open: &Self::Open) -> Result<Self::Sim, String>;
    /// Applies a later record to the match, or says why it is refused.
    fn apply(sim: &mut Self::Sim, record: Self::Record) -> Result<(), String>;
    /// Steps the match over every frame all seats have confirmed.
    fn advance(sim: &mut Self::Sim);
}

/// The head of a room log of format `version`: magic and version.
pub(crate) fn head_of(version: u16) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEAD_BYTES);
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&version.to_le_bytes());
    out
}

/// Reads a room log of format `F` (see the module docs for what is kept and what is refused).
pub(crate) fn read_log<F: LogFormat>(bytes: &[u8]) -> Result<LoadedLog<F::Open, F::Sim>, LogError> {
    let len = bytes.len() as u64;
    if len > MAX_LOG_BYTES {
        return Err(LogError::TooLarge(len));
    }
    if bytes.len() < HEAD_BYTES || bytes[..HEAD_BYTES] != head_of(F::VERSION)[..] {
        return Err(LogError::BadHead);
    }
    let mut at = HEAD_BYTES;
    let open = match next_record::<F::Record>(bytes, at) {
        Ok((record, used)) => {
            let open = F::opening(record)
                .ok_or_else(|| LogError::BadOpen("the first record is not Open".into()))?;
            F::check_open(&open).map_err(LogError::BadOpen)?;
            at += used;
            open
        }
        Err(e) => return Err(LogError::BadOpen(e)),
    };
    let mut sim = F::start(&open).map_err(LogError::BadOpen)?;
    let mut truncated = None;
    while at < bytes.len() {
        let step = next_record::<F::Record>(bytes, at)
            .and_then(|(record, used)| F::apply(&mut sim, record).map(|()| used));
        match step {
            Ok(used) => at += used,
            Err(e) => {
                truncated = Some(format!("record at byte {at}: {e}"));
                break;
            }
        }
    }
    F::advance(&mut sim);
    Ok(LoadedLog {
        open,
        sim,
        good_len: at as u64,
        truncated,
    })
}

/// The file head: magic and version.
pub fn head() -> Vec<u8> {
    head_of(FORMAT_VERSION)
}

/// Appends `record`, framed, to `out`. Fails only on a record over [`MAX_RECORD_BYTES`],
/// which the server's own limits rule out.
pub fn append(out: &mut Vec<u8>, record: &Record) -> Result<(), String> {
    append_any(out, record)
}

/// Appends any record type, framed (length, body, checksum): the framing both format versions
/// share.
pub(crate) fn append_any<R: Serialize>(out: &mut Vec<u8>, record: &R) -> Result<(), String> {
    let body = bincode::serde::encode_to_vec(record, body_config()).map_err(|e| e.to_string())?;
    let len = u32::try_from(body.len()).map_err(|e| e.to_string())?;
    let start = out.len();
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(&body);
    let sum = checksum(&out[start..]);
    out.extend_from_slice(&sum.to_le_bytes());
    Ok(())
}

/// Reads a room log (see the module docs for what is kept and what is refused).
pub fn read(bytes: &[u8]) -> Result<Loaded, LogError> {
    read_log::<Version1>(bytes)
}

/// Format version 1: two seats, [`Record`]s.
struct Version1;

impl LogFormat for Version1 {
    const VERSION: u16 = FORMAT_VERSION;
    type Record = Record;
    type Open = MatchOpen;
    type Sim = ConfirmedSim;

    fn opening(record: Record) -> Option<MatchOpen> {
        match record {
            Record::Open(open) => Some(open),
            Record::Inputs { .. } => None,
        }
    }

    fn check_open(open: &MatchOpen) -> Result<(), String> {
        check_open(open)
    }

    fn start(open: &MatchOpen) -> Result<ConfirmedSim, String> {
        Ok(ConfirmedSim::new(open.header))
    }

    fn apply(sim: &mut ConfirmedSim, record: Record) -> Result<(), String> {
        match record {
            Record::Open(_) => Err("a second Open record".to_string()),
            Record::Inputs {
                seat,
                changes,
                confirmed,
            } => {
                if changes.len() > MAX_CHANGES_PER_MESSAGE {
                    return Err(format!(
                        "{} changes in one batch (limit {MAX_CHANGES_PER_MESSAGE})",
                        changes.len()
                    ));
                }
                sim.extend(seat, &changes, confirmed)
                    .map_err(|e| format!("inputs of {seat:?} refused: {e}"))
            }
        }
    }

    fn advance(sim: &mut ConfirmedSim) {
        sim.advance();
    }
}

/// The record at `at` and the bytes it takes.
pub(crate) fn next_record<R: serde::de::DeserializeOwned>(
    bytes: &[u8],
    at: usize,
) -> Result<(R, usize), String> {
    let rest = &bytes[at..];
    let Some(len) = rest.get(..LEN_BYTES) else {
        return Err("cut short in its length".into());
    };
    let len = u32::from_le_bytes([len[0], len[1], len[2], len[3]]) as usize;
    if len > MAX_RECORD_BYTES {
        return Err(format!(
            "length {len} over the {MAX_RECORD_BYTES}-byte limit"
        ));
    }
    let total = LEN_BYTES + len + CHECKSUM_BYTES;
    let Some(framed) = rest.get(..total) else {
        return Err(format!(
            "cut short: {} of {total} bytes present",
            rest.len()
        ));
    };
    let (covered, tail) = framed.split_at(LEN_BYTES + len);
    let mut stored = [0u8; CHECKSUM_BYTES];
    stored.copy_from_slice(tail);
    if u64::from_le_bytes(stored) != checksum(covered) {
        return Err("checksum mismatch".into());
    }
    let body = &covered[LEN_BYTES..];
    let (record, used): (R, usize) = bincode::serde::decode_from_slice(body, body_config())
        .map_err(|e| format!("does not decode: {e}"))?;
    if used != body.len() {
        return Err(format!("{} stray bytes in the record", body.len() - used));
    }
    Ok((record, total))
}

/// The checks a room's opening record must pass: the same a client's room options and the
/// server's own header pass, plus sane names and tokens.
fn check_open(open: &MatchOpen) -> Result<(), String> {
    let code_ok = open.code.len() == ROOM_CODE_LEN
        && open.code.bytes().all(|c| ROOM_CODE_ALPHABET.contains(&c));
    if !code_ok {
        return Err(format!(
            "bad room code {:?}",
            open.code.chars().take(16).collect::<String>()
        ));
    }
    open.options
        .rules()
        .validate()
        .map_err(|e| format!("bad room options: {e}"))?;
    open.header
        .validate()
        .map_err(|e| format!("bad match header: {e}"))?;
    if open
        .names
        .iter()
        .any(|n| n.chars().count() > MAX_NAME_CHARS)
    {
        return Err("a name longer than the limit".into());
    }
    if open.tokens[0] == 0 || open.tokens[1] == 0 || open.tokens[0] == open.tokens[1] {
        return Err("bad resume tokens".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use sevenbag_core::{Handling, Input};

    fn open() -> MatchOpen {
        let options = RoomOptions::default();
        MatchOpen {
            code: "ACDEF".into(),
            options,
            ranked: false,
            header: MatchHeader {
                rules: options.rules(),
                seed: 42,
                handling: [Handling::default(); 2],
            },
            names: ["ann".into(), "bo".into()],
            tokens: [7, 9],
            players: [None, Some(3)],
            started_unix: 1,
            frame0_unix_ms: 1000,
            matches: 0,
        }
    }

    fn batch(seat: Seat, from: u32, to: u32) -> Record {
        Record::Inputs {
            seat,
            changes: vec![InputChange {
                frame: from,
                input: Input(1 + (from % 3) as u8),
            }],
            confirmed: to,
        }
    }

    fn log(records: &[Record]) -> Vec<u8> {
        let mut out = head();
        for r in records {
            append(&mut out, r).expect("encode");
        }
        out
    }

    /// The committed sample (also the fuzzer's seed): format version 1 must keep reading it
    /// and writing it byte for byte. `SEVENBAG_BLESS=1` writes it when it is missing.
    #[test]
    fn the_committed_sample_log_is_written_and_read_byte_for_byte() {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/room_log_v1.sbrl");
        let bytes = log(&[
            Record::Open(open()),
            batch(Seat::First, 0, 30),
            batch(Seat::Second, 0, 20),
            batch(Seat::First, 30, 60),
        ]);
        if std::env::var_os("SEVENBAG_BLESS").is_some() && !path.exists() {
            std::fs::write(&path, &bytes).expect("bless the sample");
        }
        let stored = std::fs::read(&path).expect("the committed sample");
        assert_eq!(stored, bytes, "room log format version 1 changed");
        let loaded = read(&stored).expect("the sample reads");
        assert_eq!(loaded.truncated, None);
    }

    #[test]
    fn a_whole_log_reads_back_every_batch() {
        let bytes = log(&[
            Record::Open(open()),
            batch(Seat::First, 0, 30),
            batch(Seat::Second, 0, 20),
            batch(Seat::First, 30, 60),
        ]);
        let loaded = read(&bytes).expect("read");
        assert_eq!(loaded.open, open());
        assert_eq!(loaded.sim.log(Seat::First).confirmed(), 60);
        assert_eq!(loaded.sim.log(Seat::Second).confirmed(), 20);
        assert_eq!(loaded.sim.frame(), 20);
        assert_eq!(loaded.good_len, bytes.len() as u64);
        assert!(loaded.truncated.is_none());
    }

    #[test]
    fn a_log_cut_short_keeps_its_last_whole_record() {
        let whole = log(&[Record::Open(open()), batch(Seat::First, 0, 30)]);
        let mut bytes = whole.clone();
        append(&mut bytes, &batch(Seat::First, 30, 60)).expect("encode");
        for cut in whole.len() + 1..bytes.len() {
            let loaded = read(&bytes[..cut]).expect("read");
            assert_eq!(loaded.good_len, whole.len() as u64, "cut at {cut}");
            assert_eq!(loaded.sim.log(Seat::First).confirmed(), 30);
            assert!(loaded.truncated.is_some());
        }
    }

    #[test]
    fn a_flipped_byte_stops_reading_at_that_record() {
        let good = log(&[Record::Open(open()), batch(Seat::First, 0, 30)]);
        let mut bytes = good.clone();
        append(&mut bytes, &batch(Seat::First, 30, 60)).expect("encode");
        append(&mut bytes, &batch(Seat::First, 60, 90)).expect("encode");
        bytes[good.len() + 6] ^= 0x40;
        let loaded = read(&bytes).expect("read");
        assert_eq!(loaded.good_len, good.len() as u64);
        assert!(
            loaded
                .truncated
                .as_deref()
                .is_some_and(|t| t.contains("checksum")),
            "{:?}",
            loaded.truncated
        );
    }

    #[test]
    fn inputs_that_rewrite_confirmed_frames_are_refused_like_live_ones() {
        let good = log(&[Record::Open(open()), batch(Seat::First, 0, 30)]);
        let mut bytes = good.clone();
        // A well-framed record that tries to change frame 10 of seat First after the fact.
        append(&mut bytes, &batch(Seat::First, 10, 40)).expect("encode");
        let loaded = read(&bytes).expect("read");
        assert_eq!(loaded.good_len, good.len() as u64);
        assert_eq!(loaded.sim.log(Seat::First).confirmed(), 30);
        let too_many = Record::Inputs {
            seat: Seat::Second,
            changes: (0..=MAX_CHANGES_PER_MESSAGE as u32)
                .map(|f| InputChange {
                    frame: f,
                    input: Input(1 + (f % 2) as u8),
                })
                .collect(),
            confirmed: 1000,
        };
        let mut bytes = good.clone();
        append(&mut bytes, &too_many).expect("encode");
        assert_eq!(read(&bytes).expect("read").good_len, good.len() as u64);
    }

    #[test]
    fn a_log_without_a_good_opening_is_refused() {
        assert!(matches!(read(b"nonsense"), Err(LogError::BadHead)));
        assert!(matches!(read(&head()), Err(LogError::BadOpen(_))));
        let only_inputs = log(&[batch(Seat::First, 0, 30)]);
        assert!(matches!(read(&only_inputs), Err(LogError::BadOpen(_))));
        let mut bad = open();
        bad.code = "../../x".into();
        assert!(matches!(
            read(&log(&[Record::Open(bad)])),
            Err(LogError::BadOpen(_))
        ));
        let mut bad = open();
        bad.tokens = [5, 5];
        assert!(matches!(
            read(&log(&[Record::Open(bad)])),
            Err(LogError::BadOpen(_))
        ));
    }
}
