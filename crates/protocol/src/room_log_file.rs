//! One reader for every room log: [`open`] reads format version 1 (a two-seat room's match,
//! written by older servers) or version 2 (every match of 2 to 8 seats) and says which room it
//! restores. A two-seat versus room's match is written in version 2 ([`BattleOpen::from_versus`]
//! and a [`RoomPolicy::versus`] record); reading it back converts it to the two-seat shape
//! losslessly, so the room it restores gets exactly what a version-1 log gave it.

use sevenbag_core::BattleHeader;

use crate::battle::BattleRoomOptions;
use crate::battle_room_log::{
    BATTLE_LOG_VERSION, BattleLoaded, BattleOpen, log_version, read_battle,
};
use crate::policy::{Leaver, RoomPolicy};
use crate::room_log::{Loaded, LoadedLog, LogError, MatchOpen, read};

/// A room log read back, as the room it restores.
#[derive(Debug)]
pub enum OpenedLog {
    /// A two-seat versus room's match (either version).
    Versus(Box<Loaded>),
    /// A match of a room of several seats (version 2).
    Battle(Box<BattleLoaded>),
}

impl OpenedLog {
    /// The room's code.
    pub fn code(&self) -> &str {
        match self {
            OpenedLog::Versus(l) => &l.open.code,
            OpenedLog::Battle(l) => &l.open.code,
        }
    }

    /// Bytes of the file that are good records, and why reading stopped early, if it did.
    pub fn good(&self) -> (u64, &Option<String>) {
        match self {
            OpenedLog::Versus(l) => (l.good_len, &l.truncated),
            OpenedLog::Battle(l) => (l.good_len, &l.truncated),
        }
    }
}

/// Reads a room log of either format version (told apart by the version after the magic).
/// Every check of the version's own reader applies; a version-2 log whose policy makes a
/// leaver forfeit is a two-seat versus room's and must convert to that shape.
pub fn open(bytes: &[u8]) -> Result<OpenedLog, LogError> {
    if log_version(bytes) != Some(BATTLE_LOG_VERSION) {
        return Ok(OpenedLog::Versus(Box::new(read(bytes)?)));
    }
    let loaded = read_battle(bytes)?;
    if loaded.open.policy.leaver == Leaver::Forfeits {
        return versus_of(loaded).map(|l| OpenedLog::Versus(Box::new(l)));
    }
    Ok(OpenedLog::Battle(Box::new(loaded)))
}

impl BattleOpen {
    /// A two-seat versus room's opening record in the version-2 shape: two battle seats in
    /// room seats 0 and 1, the versus header, the versus policy (rated as the match is).
    pub fn from_versus(open: &MatchOpen) -> BattleOpen {
        BattleOpen {
            code: open.code.clone(),
            options: BattleRoomOptions {
                room: open.options,
                seats: 2,
                battle: Default::default(),
            },
            header: BattleHeader::versus(&open.header),
            names: open.names.to_vec(),
            room_seats: vec![0, 1],
            tokens: open.tokens.to_vec(),
            started_unix: open.started_unix,
            frame0_unix_ms: open.frame0_unix_ms,
            matches: open.matches,
            accounts: open.players.to_vec(),
            policy: RoomPolicy::versus(open.ranked),
        }
    }
}

/// The two-seat log a versus room's version-2 log holds: the inverse of
/// [`BattleOpen::from_versus`], with the match stepped again as a versus match.
fn versus_of(loaded: BattleLoaded) -> Result<Loaded, LogError> {
    let open = &loaded.open;
    let h = &open.header;
    let plain = h.seats == 2
        && open.options.seats == 2
        && h.options == Default::default()
        && open.options.battle == Default::default()
        && open.room_seats == [0, 1];
    if !plain {
        return Err(LogError::BadOpen(format!(
            "a room whose leaver forfeits must be a plain two-seat room, not one of {} seats",
            h.seats
        )));
    }
    let sim = loaded
        .sim
        .to_versus()
        .map_err(|e| LogError::BadOpen(format!("a versus room's log: {e}")))?;
    let header = *sim.game().header();
    let account = |s: usize| open.accounts.get(s).copied().flatten();
    let versus = MatchOpen {
        code: open.code.clone(),
        options: open.options.room,
        ranked: open.policy.rated,
        header,
        names: [open.names[0].clone(), open.names[1].clone()],
        tokens: [open.tokens[0], open.tokens[1]],
        players: [account(0), account(1)],
        started_unix: open.started_unix,
        frame0_unix_ms: open.frame0_unix_ms,
        matches: open.matches,
    };
    Ok(LoadedLog {
        open: versus,
        sim,
        good_len: loaded.good_len,
        truncated: loaded.truncated,
    })
}

#[cfg(test)]
mod tests {
    use sevenbag_core::{MatchHeader, Seat};

    use super::*;
    use crate::battle_room_log::{BattleRecord, append_battle, battle_head};
    use crate::room_log::{Record, append, head};
    use crate::{InputChange, RoomOptions};
    use sevenbag_core::{Handling, Input};

    fn versus_open(ranked: bool) -> MatchOpen {
        let options = RoomOptions::default();
        MatchOpen {
            code: "ACDEF".into(),
            options,
            ranked,
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
            matches: 2,
        }
    }

    /// Both seats' batches: a few key changes each, confirmed to different frames.
    fn batches() -> Vec<(Seat, Vec<InputChange>, u32)> {
        let change = |frame, bits| InputChange {
            frame,
            input: Input(bits),
        };
        vec![
            (Seat::First, vec![change(0, 1), change(12, 0)], 40),
            (Seat::Second, vec![change(3, 2)], 25),
            (Seat::First, vec![change(50, 16)], 90),
            (Seat::Second, vec![change(30, 0), change(61, 4)], 80),
        ]
    }

    fn version_1(open: &MatchOpen) -> Vec<u8> {
        let mut out = head();
        append(&mut out, &Record::Open(open.clone())).expect("encode");
        for (seat, changes, confirmed) in batches() {
            let record = Record::Inputs {
                seat,
                changes,
                confirmed,
            };
            append(&mut out, &record).expect("encode");
        }
        out
    }

    fn version_2(open: &MatchOpen) -> Vec<u8> {
        let mut out = battle_head();
        for record in BattleRecord::opening(BattleOpen::from_versus(open)) {
            append_battle(&mut out, &record).expect("encode");
        }
        for (seat, changes, confirmed) in batches() {
            let record = BattleRecord::Inputs {
                seat: seat.index() as u8,
                changes,
                targets: Vec::new(),
                confirmed,
            };
            append_battle(&mut out, &record).expect("encode");
        }
        out
    }

    fn versus(log: OpenedLog) -> Loaded {
        match log {
            OpenedLog::Versus(l) => *l,
            OpenedLog::Battle(_) => panic!("a versus room's log"),
        }
    }

    #[test]
    fn a_versus_match_written_in_version_2_reads_back_as_its_version_1_log() {
        for ranked in [false, true] {
            let open = versus_open(ranked);
            let old = versus(super::open(&version_1(&open)).expect("version 1 reads"));
            let new_bytes = version_2(&open);
            let new = versus(super::open(&new_bytes).expect("version 2 reads"));
            assert_eq!(new.open, old.open, "the same opening record");
            assert_eq!(new.open, open);
            assert_eq!(new.sim.frame(), old.sim.frame());
            assert_eq!(new.sim.hashes(), old.sim.hashes());
            assert_eq!(
                new.sim.game().state_hash(),
                old.sim.game().state_hash(),
                "the same match"
            );
            for seat in Seat::BOTH {
                assert_eq!(new.sim.log(seat), old.sim.log(seat));
            }
            assert_eq!(new.good_len, new_bytes.len() as u64);
            assert_eq!(new.truncated, None);
        }
    }

    /// The committed sample of a rated versus match in version 2: the server must keep writing
    /// it byte for byte and reading it as that match. `SEVENBAG_BLESS=1` writes it when it is
    /// missing.
    #[test]
    fn the_committed_versus_sample_in_version_2_is_written_and_read_byte_for_byte() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/golden/room_log_v2_versus.sbrl");
        let bytes = version_2(&versus_open(true));
        if std::env::var_os("SEVENBAG_BLESS").is_some() && !path.exists() {
            std::fs::write(&path, &bytes).expect("bless the sample");
        }
        let stored = std::fs::read(&path).expect("the committed sample");
        assert_eq!(
            stored, bytes,
            "a versus match's room log (version 2) changed"
        );
        let loaded = versus(super::open(&stored).expect("the sample reads"));
        assert_eq!(loaded.open, versus_open(true));
        assert_eq!(loaded.truncated, None);
    }

    #[test]
    fn a_free_for_all_log_opens_as_a_room_of_several_seats() {
        let mut open = BattleOpen::from_versus(&versus_open(false));
        open.policy = RoomPolicy::FREE_FOR_ALL;
        open.accounts = Vec::new();
        let mut bytes = battle_head();
        for record in BattleRecord::opening(open.clone()) {
            append_battle(&mut bytes, &record).expect("encode");
        }
        match super::open(&bytes).expect("reads") {
            OpenedLog::Battle(l) => assert_eq!(l.open, open),
            OpenedLog::Versus(_) => panic!("a room of the general kind"),
        }
    }

    #[test]
    fn a_forfeiting_room_of_more_than_two_seats_is_refused() {
        let mut open = BattleOpen::from_versus(&versus_open(false));
        open.options.seats = 3;
        let mut bytes = battle_head();
        for record in BattleRecord::opening(open) {
            append_battle(&mut bytes, &record).expect("encode");
        }
        assert!(matches!(super::open(&bytes), Err(LogError::BadOpen(_))));
    }
}
