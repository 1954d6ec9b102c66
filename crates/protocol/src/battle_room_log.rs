//! The room log of a room of several seats: room log format version 2 (`docs/SERVER.md`).
//!
//! The file is version 1's ([`crate::room_log`]): magic `SBRL`, version u16 (here 2), then
//! records framed as `length: u32 LE | body | checksum: u64 LE`. The records differ: the first is
//! [`BattleRecord::Open`] (the room's options, the match's [`BattleHeader`], names, room seats,
//! tokens), every later one [`BattleRecord::Inputs`], a batch of one battle seat's keys and
//! targets exactly as the server accepted it (those of a seat the server plays out included).
//! Reading keeps every good record before the first bad one, as version 1 does.
//!
//! A match with any seat played by an account has a [`BattleRecord::Accounts`] right after
//! `Open` (each battle seat's account id, or none for a guest), so that a match taken back
//! after a restart is stored with its real players. The kind was added to the end of the
//! enum: logs written before it (and logs of guests only, which never carry it) read as
//! before, every seat a guest.
//!
//! A match whose room's [`RoomPolicy`] is not the free-for-all one (a two-seat versus room,
//! whose leaver forfeits, rated or not) has a [`BattleRecord::Policy`] after `Open` (and
//! `Accounts`); logs without one read as [`RoomPolicy::FREE_FOR_ALL`]. Every running match,
//! two seats or eight, is written in this version; [`crate::room_log_file::open`] reads either
//! version into the room it is to restore.

use serde::{Deserialize, Serialize};
use sevenbag_core::BattleHeader;

use crate::battle::{BattleRoomOptions, TargetChange, at_most_seats};
use crate::battle_replay::BattleSim;
use crate::messages::{InputChange, MAX_CHANGES_PER_MESSAGE, MAX_NAME_CHARS};
use crate::policy::RoomPolicy;
use crate::room_log::{
    HEAD_BYTES, LoadedLog, LogError, LogFormat, MAGIC, append_any, head_of, read_log,
};
use crate::{ROOM_CODE_ALPHABET, ROOM_CODE_LEN};

/// The room log format version of rooms of several seats.
pub const BATTLE_LOG_VERSION: u16 = 2;

/// What a match of several seats needs to be taken up again after a restart.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BattleOpen {
    /// The room's code.
    pub code: String,
    /// The room's options.
    pub options: BattleRoomOptions,
    /// The match header.
    pub header: BattleHeader,
    /// Each battle seat's name.
    #[serde(deserialize_with = "at_most_seats")]
    pub names: Vec<String>,
    /// Each battle seat's room seat.
    #[serde(deserialize_with = "at_most_seats")]
    pub room_seats: Vec<u8>,
    /// Each battle seat's resume token.
    #[serde(deserialize_with = "at_most_seats")]
    pub tokens: Vec<u64>,
    /// When the match started, Unix seconds (names the replay).
    pub started_unix: u64,
    /// Frame 0 of the match clock, Unix milliseconds.
    pub frame0_unix_ms: u64,
    /// Matches the room finished before this one.
    pub matches: u32,
    /// Each battle seat's account id (`None`: a guest). Not part of the `Open` record: written
    /// as [`BattleRecord::Accounts`] and filled in from it on reading (empty: no such record,
    /// every seat a guest).
    #[serde(skip)]
    pub accounts: Vec<Option<i64>>,
    /// The room's policy. Not part of the `Open` record: written as [`BattleRecord::Policy`]
    /// when it is not [`RoomPolicy::FREE_FOR_ALL`] and filled in from it on reading.
    #[serde(skip)]
    pub policy: RoomPolicy,
}

/// One record of a version-2 room log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BattleRecord {
    /// The match began (always first).
    Open(Box<BattleOpen>),
    /// A batch of a battle seat's keys and targets, as accepted.
    Inputs {
        /// The battle seat.
        seat: u8,
        /// Key changes.
        changes: Vec<InputChange>,
        /// Target changes.
        targets: Vec<TargetChange>,
        /// The seat's new confirmation.
        confirmed: u32,
    },
    /// Each battle seat's account id, `None` for a guest (right after `Open`, only when some
    /// seat has an account).
    Accounts(Vec<Option<i64>>),
    /// The room's policy (after `Open` and `Accounts`, only when it is not the free-for-all
    /// one).
    Policy(RoomPolicy),
}

impl BattleRecord {
    /// The records that open a match's log: `Open`, then `Accounts` if any seat has one, then
    /// `Policy` if it is not the free-for-all one.
    pub fn opening(open: BattleOpen) -> Vec<BattleRecord> {
        let accounts = open.accounts.clone();
        let policy = open.policy;
        let mut records = vec![BattleRecord::Open(Box::new(open))];
        if accounts.iter().any(Option::is_some) {
            records.push(BattleRecord::Accounts(accounts));
        }
        if policy != RoomPolicy::FREE_FOR_ALL {
            records.push(BattleRecord::Policy(policy));
        }
        records
    }
}

/// A version-2 room log read back.
pub type BattleLoaded = LoadedLog<BattleOpen, BattleSim>;

/// The version-2 file head.
pub fn battle_head() -> Vec<u8> {
    head_of(BATTLE_LOG_VERSION)
}

/// A room log's format version, if the bytes start with the magic.
pub fn log_version(bytes: &[u8]) -> Option<u16> {
    let head = bytes.get(..HEAD_BYTES)?;
    (head[..4] == MAGIC).then(|| u16::from_le_bytes([head[4], head[5]]))
}

/// Appends a framed record.
pub fn append_battle(out: &mut Vec<u8>, record: &BattleRecord) -> Result<(), String> {
    append_any(out, record)
}

/// Reads a version-2 room log.
pub fn read_battle(bytes: &[u8]) -> Result<BattleLoaded, LogError> {
    let loaded = read_log::<Version2>(bytes)?;
    let mut open = loaded.open;
    open.accounts = loaded.sim.accounts.unwrap_or_default();
    open.policy = loaded.sim.policy.unwrap_or_default();
    Ok(LoadedLog {
        open,
        sim: loaded.sim.sim,
        good_len: loaded.good_len,
        truncated: loaded.truncated,
    })
}

/// Format version 2: several seats, [`BattleRecord`]s.
struct Version2;

/// The match a version-2 log steps, and the accounts it named.
struct Stepped {
    sim: BattleSim,
    seats: usize,
    accounts: Option<Vec<Option<i64>>>,
    policy: Option<RoomPolicy>,
}

impl LogFormat for Version2 {
    const VERSION: u16 = BATTLE_LOG_VERSION;
    type Record = BattleRecord;
    type Open = BattleOpen;
    type Sim = Stepped;

    fn opening(record: BattleRecord) -> Option<BattleOpen> {
        match record {
            BattleRecord::Open(open) => Some(*open),
            BattleRecord::Inputs { .. } | BattleRecord::Accounts(_) | BattleRecord::Policy(_) => {
                None
            }
        }
    }

    fn check_open(open: &BattleOpen) -> Result<(), String> {
        check_open(open)
    }

    fn start(open: &BattleOpen) -> Result<Stepped, String> {
        Ok(Stepped {
            sim: BattleSim::new(open.header).map_err(|e| e.to_string())?,
            seats: usize::from(open.header.seats),
            accounts: None,
            policy: None,
        })
    }

    fn apply(stepped: &mut Stepped, record: BattleRecord) -> Result<(), String> {
        let sim = &mut stepped.sim;
        match record {
            BattleRecord::Open(_) => Err("a second Open record".to_string()),
            BattleRecord::Accounts(accounts) => {
                if stepped.accounts.is_some() {
                    return Err("a second Accounts record".to_string());
                }
                if accounts.len() != stepped.seats {
                    return Err(format!(
                        "{} accounts for {} seats",
                        accounts.len(),
                        stepped.seats
                    ));
                }
                stepped.accounts = Some(accounts);
                Ok(())
            }
            BattleRecord::Policy(policy) => {
                if stepped.policy.is_some() {
                    return Err("a second Policy record".to_string());
                }
                stepped.policy = Some(policy);
                Ok(())
            }
            BattleRecord::Inputs {
                seat,
                changes,
                targets,
                confirmed,
            } => {
                if changes.len() > MAX_CHANGES_PER_MESSAGE
                    || targets.len() > MAX_CHANGES_PER_MESSAGE
                {
                    return Err("too many changes in one batch".to_string());
                }
                crate::check_targets(sim.game().header(), seat, &targets)
                    .map_err(|e| e.to_string())?;
                sim.extend(usize::from(seat), &changes, &targets, confirmed)
                    .map_err(|e| format!("inputs of seat {seat} refused: {e}"))
            }
        }
    }

    fn advance(stepped: &mut Stepped) {
        stepped.sim.advance();
    }
}

fn check_open(open: &BattleOpen) -> Result<(), String> {
    let code_ok = open.code.len() == ROOM_CODE_LEN
        && open.code.bytes().all(|c| ROOM_CODE_ALPHABET.contains(&c));
    if !code_ok {
        return Err("bad room code".into());
    }
    open.options.validate().map_err(|e| e.to_string())?;
    open.header.validate().map_err(|e| e.to_string())?;
    let n = usize::from(open.header.seats);
    if open.names.len() != n || open.room_seats.len() != n || open.tokens.len() != n {
        return Err(format!("lists of names, seats and tokens for {n} seats"));
    }
    if open
        .names
        .iter()
        .any(|x| x.chars().count() > MAX_NAME_CHARS)
    {
        return Err("a name longer than the limit".into());
    }
    let seats_ok = open
        .room_seats
        .iter()
        .zip(open.room_seats.iter().skip(1))
        .all(|(a, b)| a < b)
        && open.room_seats.iter().all(|&s| s < open.options.seats);
    if !seats_ok {
        return Err("room seats out of order or past the room".into());
    }
    if open.tokens.contains(&0) {
        return Err("bad resume tokens".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use sevenbag_core::Input;

    fn open() -> BattleOpen {
        let options = BattleRoomOptions::ffa(4);
        BattleOpen {
            code: "ACDEF".into(),
            options,
            header: options.header(9, &[Default::default(); 3], options.room.rules()),
            names: vec!["a".into(), "b".into(), "c".into()],
            room_seats: vec![0, 1, 3],
            tokens: vec![5, 6, 7],
            started_unix: 1,
            frame0_unix_ms: 1000,
            matches: 0,
            accounts: Vec::new(),
            policy: RoomPolicy::FREE_FOR_ALL,
        }
    }

    fn batch(seat: u8, from: u32, to: u32) -> BattleRecord {
        BattleRecord::Inputs {
            seat,
            changes: vec![InputChange {
                frame: from,
                input: Input::LEFT,
            }],
            targets: vec![TargetChange {
                frame: from,
                target: Some((seat + 1) % 3),
            }],
            confirmed: to,
        }
    }

    fn log(records: &[BattleRecord]) -> Vec<u8> {
        let mut out = battle_head();
        for r in records {
            append_battle(&mut out, r).expect("encode");
        }
        out
    }

    #[test]
    fn a_battle_log_reads_back_every_seat() {
        let bytes = log(&[
            BattleRecord::Open(Box::new(open())),
            batch(0, 0, 30),
            batch(1, 0, 20),
            batch(2, 0, 25),
        ]);
        assert_eq!(log_version(&bytes), Some(2));
        let loaded = read_battle(&bytes).expect("reads");
        assert_eq!(loaded.open, open());
        assert!(loaded.truncated.is_none());
        assert_eq!(loaded.sim.frame(), 20);
        assert!(
            crate::room_log::read(&bytes).is_err(),
            "version 1 reader refuses it"
        );
    }

    #[test]
    fn accounts_after_open_name_each_seat_and_a_log_without_them_is_all_guests() {
        let accounts = vec![Some(4), None, Some(9)];
        let bytes = log(&[
            BattleRecord::Open(Box::new(open())),
            BattleRecord::Accounts(accounts.clone()),
            batch(0, 0, 30),
        ]);
        let loaded = read_battle(&bytes).expect("reads");
        assert_eq!(loaded.open.accounts, accounts);
        assert!(loaded.truncated.is_none());
        let old = log(&[BattleRecord::Open(Box::new(open())), batch(0, 0, 30)]);
        assert!(read_battle(&old).expect("reads").open.accounts.is_empty());
        // A list of the wrong length is refused, keeping what came before.
        let bad = log(&[
            BattleRecord::Open(Box::new(open())),
            BattleRecord::Accounts(vec![Some(1)]),
        ]);
        let loaded = read_battle(&bad).expect("reads");
        assert!(loaded.truncated.is_some_and(|t| t.contains("accounts")));
    }

    #[test]
    fn a_policy_after_open_is_the_rooms_and_a_log_without_one_is_free_for_all() {
        let mut rated = open();
        rated.policy = RoomPolicy::versus(true);
        let bytes = log(&BattleRecord::opening(rated.clone()));
        assert_eq!(read_battle(&bytes).expect("reads").open, rated);
        let plain = log(&BattleRecord::opening(open()));
        let loaded = read_battle(&plain).expect("reads");
        assert_eq!(loaded.open.policy, RoomPolicy::FREE_FOR_ALL);
        let mut twice = log(&BattleRecord::opening(rated));
        append_battle(&mut twice, &BattleRecord::Policy(RoomPolicy::VERSUS)).expect("encode");
        let loaded = read_battle(&twice).expect("reads");
        assert!(loaded.truncated.is_some_and(|t| t.contains("Policy")));
    }

    #[test]
    fn a_cut_or_lying_record_keeps_what_came_before() {
        let mut bytes = log(&[BattleRecord::Open(Box::new(open())), batch(0, 0, 30)]);
        let good = bytes.len();
        let lie = BattleRecord::Inputs {
            seat: 1,
            changes: vec![],
            targets: vec![TargetChange {
                frame: 0,
                target: Some(1),
            }],
            confirmed: 5,
        };
        append_battle(&mut bytes, &lie).expect("encode");
        let loaded = read_battle(&bytes).expect("reads");
        assert_eq!(loaded.good_len, good as u64);
        assert!(loaded.truncated.is_some_and(|t| t.contains("target")));
        for len in 0..good {
            let _ = read_battle(&bytes[..len]);
        }
    }
}
